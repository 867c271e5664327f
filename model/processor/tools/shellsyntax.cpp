// SPDX-License-Identifier: GPL-3.0-or-later
#include "shellsyntax.h"

#include <QDir>
#include <QHash>
#include <QSet>

#include <tree_sitter/api.h>

#include <memory>
#include <optional>

extern "C" const TSLanguage *tree_sitter_bash(void);

using namespace Qt::StringLiterals;

namespace weft::ShellSyntax
{

QString Command::name() const
{
    if (words.isEmpty())
        return {};
    const QString &first = words.constFirst().text;
    const qsizetype slash = first.lastIndexOf(u'/');
    return slash < 0 || slash == first.size() - 1 ? first : first.mid(slash + 1);
}

QString Command::normalized() const
{
    QStringList parts;
    parts.reserve(words.size());
    for (qsizetype i = 0; i < words.size(); ++i)
        parts.append(i == 0 ? name() : words.at(i).text);
    return parts.join(u' ');
}

void Analysis::markIncomplete(const QString &why)
{
    if (complete)
        problem = why;
    complete = false;
}

namespace
{

struct TreeDeleter {
    void operator()(TSTree *tree) const { ts_tree_delete(tree); }
};
struct ParserDeleter {
    void operator()(TSParser *parser) const { ts_parser_delete(parser); }
};

bool isType(TSNode node, const char *type)
{
    return qstrcmp(ts_node_type(node), type) == 0;
}

/// Removes bash's backslash quoting from an unquoted word.
QString unescapeWord(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == u'\\' && i + 1 < text.size()) {
            ++i;
            if (text.at(i) == u'\n')
                continue; // a line continuation
        }
        out += text.at(i);
    }
    return out;
}

/// Removes the quoting of a double-quoted string's content (`\` before `$`, `` ` ``, `"`, `\` and
/// a newline).
QString unescapeDoubleQuoted(QStringView text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'\\' && i + 1 < text.size()) {
            const QChar next = text.at(i + 1);
            if (next == u'$' || next == u'`' || next == u'"' || next == u'\\') {
                out += next;
                ++i;
                continue;
            }
            if (next == u'\n') {
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

/// The value of `$'…'` (ANSI-C quoting); nullopt for escapes Weft does not decode.
std::optional<QString> decodeAnsiC(QStringView body)
{
    QString out;
    for (qsizetype i = 0; i < body.size(); ++i) {
        const QChar c = body.at(i);
        if (c != u'\\' || i + 1 >= body.size()) {
            out += c;
            continue;
        }
        const QChar e = body.at(++i);
        switch (e.unicode()) {
        case 'n': out += u'\n'; break;
        case 't': out += u'\t'; break;
        case 'r': out += u'\r'; break;
        case 'a': out += QChar(7); break;
        case 'b': out += QChar(8); break;
        case 'e': case 'E': out += QChar(27); break;
        case 'f': out += QChar(12); break;
        case 'v': out += QChar(11); break;
        case '\\': case '\'': case '"': case '?': out += e; break;
        case 'x': {
            qsizetype n = 0;
            uint value = 0;
            while (n < 2 && i + 1 < body.size() && QStringView(u"0123456789abcdefABCDEF").contains(body.at(i + 1))) {
                value = value * 16 + uint(QString(body.at(++i)).toUInt(nullptr, 16));
                ++n;
            }
            if (n == 0)
                return std::nullopt;
            out += QChar(char16_t(value));
            break;
        }
        default:
            if (e >= u'0' && e <= u'7') {
                uint value = uint(e.unicode() - '0');
                for (int n = 0; n < 2 && i + 1 < body.size() && body.at(i + 1) >= u'0' && body.at(i + 1) <= u'7'; ++n)
                    value = value * 8 + uint(body.at(++i).unicode() - '0');
                out += QChar(char16_t(value & 0xff));
                break;
            }
            return std::nullopt; // \u, \c and others: not decoded
        }
    }
    return out;
}

/// Follows the commands in other commands' arguments: wrappers that run the rest of their
/// arguments (`sudo`, `env`, `xargs`, `timeout`, …), shells and builtins that run a string
/// (`bash -c`, `eval`, `trap`, `watch`, `su -c`) and `find -exec`.
class Walker
{
public:
    explicit Walker(Analysis &analysis) : m_analysis(analysis) { }

    /// Parses @p line and adds what it runs; @p nesting and @p position are those of the command
    /// whose argument it is (0 and -1 for the line itself).
    void parse(const QString &line, int nesting, qsizetype position);

private:
    void walk(TSNode root, int nesting, qsizetype position);
    void addCommand(TSNode node, int nesting, qsizetype position);
    void addRedirect(TSNode node, qsizetype position);
    void follow(const Command &command);
    void addNested(const Command &outer, const QList<Word> &words);
    void parseScript(const Command &outer, const Word &script);
    [[nodiscard]] Word word(TSNode node) const;
    [[nodiscard]] QString text(TSNode node) const;

    Analysis &m_analysis;
    QByteArray m_source; ///< the line being walked, as UTF-8
};

QString Walker::text(TSNode node) const
{
    const uint32_t start = ts_node_start_byte(node);
    const uint32_t end = ts_node_end_byte(node);
    if (end <= start || end > uint32_t(m_source.size()))
        return {};
    return QString::fromUtf8(m_source.constData() + start, qsizetype(end - start));
}

Word Walker::word(TSNode node) const
{
    const QString source = text(node);
    const auto unknown = [&] { return Word{source, false}; };
    const auto expansion = [&](TSNode n) -> std::optional<QString> {
        // $HOME and ${HOME} are known; everything else is not.
        const QString t = text(n);
        if (t == u"$HOME" || t == u"${HOME}")
            return QDir::homePath();
        return std::nullopt;
    };
    if (isType(node, "word") || isType(node, "number") || isType(node, "regex") || isType(node, "extglob_pattern")) {
        QString value = unescapeWord(source);
        // Tilde expansion at the start of a word.
        if (value == u"~" || value.startsWith(u"~/"))
            value = QDir::homePath() + value.mid(1);
        else if (value.startsWith(u'~') && source.startsWith(u'~'))
            return unknown(); // ~user: another user's home
        return Word{value, true};
    }
    if (isType(node, "raw_string"))
        return Word{source.size() >= 2 ? source.mid(1, source.size() - 2) : QString(), true};
    if (isType(node, "ansi_c_string")) {
        if (source.size() < 3)
            return unknown();
        const auto value = decodeAnsiC(QStringView(source).sliced(2, source.size() - 3));
        return value ? Word{*value, true} : unknown();
    }
    if (isType(node, "string") || isType(node, "translated_string")) {
        QString value;
        const uint32_t count = ts_node_named_child_count(node);
        // The parts of the string: literal content, and $HOME; anything else is unknown.
        const qsizetype open = isType(node, "translated_string") ? 2 : 1;
        if (source.size() < open + 1)
            return unknown();
        uint32_t cursor = ts_node_start_byte(node) + uint32_t(open);
        const uint32_t close = ts_node_end_byte(node) - 1;
        for (uint32_t i = 0; i < count; ++i) {
            const TSNode child = ts_node_named_child(node, i);
            const uint32_t start = ts_node_start_byte(child);
            if (start > cursor)
                value += unescapeDoubleQuoted(QString::fromUtf8(m_source.constData() + cursor, qsizetype(start - cursor)));
            if (isType(child, "string_content")) {
                value += unescapeDoubleQuoted(text(child));
            } else if (const auto expanded = expansion(child)) {
                value += *expanded;
            } else {
                return unknown();
            }
            cursor = ts_node_end_byte(child);
        }
        if (close > cursor)
            value += unescapeDoubleQuoted(QString::fromUtf8(m_source.constData() + cursor, qsizetype(close - cursor)));
        return Word{value, true};
    }
    if (isType(node, "concatenation")) {
        QString value;
        bool known = true;
        uint32_t cursor = ts_node_start_byte(node);
        const uint32_t count = ts_node_child_count(node);
        for (uint32_t i = 0; i < count; ++i) {
            const TSNode child = ts_node_child(node, i);
            if (ts_node_start_byte(child) != cursor)
                known = false; // text between parts the grammar did not name: unknown
            cursor = ts_node_end_byte(child);
            const Word part = ts_node_is_named(child) ? word(child) : Word{text(child), true};
            value += part.text;
            known = known && part.known;
        }
        if (cursor != ts_node_end_byte(node))
            known = false;
        return Word{known ? value : source, known};
    }
    if (isType(node, "simple_expansion") || isType(node, "expansion")) {
        if (const auto expanded = expansion(node))
            return Word{*expanded, true};
        return unknown();
    }
    return unknown(); // command and process substitutions, arithmetic, brace expressions, arrays
}

void Walker::parse(const QString &line, int nesting, qsizetype position)
{
    const QByteArray utf8 = line.toUtf8();
    if (utf8.size() > MaxLineBytes) {
        m_analysis.markIncomplete(u"the command line is longer than %1 bytes"_s.arg(MaxLineBytes));
        return;
    }
    std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
    if (!parser || !ts_parser_set_language(parser.get(), tree_sitter_bash())) {
        m_analysis.markIncomplete(u"the bash grammar could not be loaded"_s);
        return;
    }
    std::unique_ptr<TSTree, TreeDeleter> tree(
        ts_parser_parse_string(parser.get(), nullptr, utf8.constData(), uint32_t(utf8.size())));
    if (!tree) {
        m_analysis.markIncomplete(u"the command line could not be parsed"_s);
        return;
    }
    const TSNode root = ts_tree_root_node(tree.get());
    if (ts_node_has_error(root))
        m_analysis.markIncomplete(u"the command line has a syntax error"_s);
    const QByteArray outer = std::exchange(m_source, utf8);
    walk(root, nesting, position);
    m_source = outer;
}

void Walker::walk(TSNode root, int nesting, qsizetype position)
{
    // Iterative, so that deeply nested input cannot exhaust the stack.
    QList<TSNode> stack{root};
    while (!stack.isEmpty()) {
        const TSNode node = stack.takeLast();
        if (isType(node, "command"))
            addCommand(node, nesting, position);
        else if (isType(node, "file_redirect"))
            addRedirect(node, position);
        const uint32_t count = ts_node_named_child_count(node);
        for (uint32_t i = count; i > 0; --i)
            stack.append(ts_node_named_child(node, i - 1));
    }
}

void Walker::addCommand(TSNode node, int nesting, qsizetype position)
{
    Command command;
    command.nesting = nesting;
    command.position = position >= 0 ? position : qsizetype(ts_node_start_byte(node));
    const TSNode parent = ts_node_parent(node);
    command.text = (!ts_node_is_null(parent) && isType(parent, "redirected_statement")) ? text(parent) : text(node);
    const uint32_t count = ts_node_child_count(node);
    for (uint32_t i = 0; i < count; ++i) {
        const char *field = ts_node_field_name_for_child(node, i);
        if (!field)
            continue;
        const TSNode child = ts_node_child(node, i);
        if (qstrcmp(field, "name") == 0) {
            const TSNode inner = ts_node_named_child_count(child) > 0 ? ts_node_named_child(child, 0) : child;
            command.words.append(word(inner));
        } else if (qstrcmp(field, "argument") == 0) {
            command.words.append(ts_node_is_named(child) ? word(child) : Word{text(child), true});
        }
    }
    if (command.words.isEmpty())
        return;
    m_analysis.commands.append(command);
    follow(command);
}

void Walker::addRedirect(TSNode node, qsizetype position)
{
    const TSNode destination = ts_node_child_by_field_name(node, "destination", 11);
    if (ts_node_is_null(destination))
        return;
    // `>&2`, `2>&1`, `<&-`: descriptors, not files (`>& file` is a file, as in bash).
    bool duplicates = false;
    for (uint32_t i = 0; i < ts_node_child_count(node); ++i) {
        const TSNode child = ts_node_child(node, i);
        const QByteArrayView type(ts_node_type(child));
        if (!ts_node_is_named(child) && (type == ">&" || type == "<&" || type == ">&-" || type == "<&-"))
            duplicates = true;
    }
    const Word target = word(destination);
    if (duplicates && target.known) {
        bool number = false;
        (void)target.text.toInt(&number);
        if (number || target.text == u"-")
            return;
    }
    m_analysis.redirects.append(Redirect{target, position >= 0 ? position : qsizetype(ts_node_start_byte(node))});
}

// ---------------------------------------------------------------------------------------------
// Commands inside commands

bool isOption(const Word &word)
{
    return word.text.startsWith(u'-') && word.text.size() > 1;
}

/// A command that runs the command in the rest of its arguments, after its own options (those
/// in withArgument take the next word) and a number of positional arguments of its own.
struct Wrapper {
    QStringList withArgument;
    int positional = 0;
    bool skipAssignments = false; ///< env: NAME=VALUE words before the command
};

const QHash<QString, Wrapper> &wrappers()
{
    static const QHash<QString, Wrapper> table{
        {u"env"_s, {{u"-u"_s, u"--unset"_s, u"-C"_s, u"--chdir"_s}, 0, true}},
        {u"sudo"_s, {{u"-u"_s, u"-g"_s, u"-C"_s, u"-D"_s, u"-h"_s, u"-p"_s, u"-r"_s, u"-t"_s, u"-U"_s, u"-T"_s, u"-R"_s,
                      u"--user"_s, u"--group"_s, u"--chdir"_s, u"--prompt"_s, u"--host"_s, u"--other-user"_s},
                     0, true}},
        {u"doas"_s, {{u"-u"_s, u"-C"_s}, 0, false}},
        {u"pkexec"_s, {{u"--user"_s}, 0, false}},
        {u"runuser"_s, {{u"-u"_s, u"-g"_s, u"-G"_s, u"--user"_s, u"--group"_s}, 0, false}},
        {u"command"_s, {{}, 0, false}},
        {u"builtin"_s, {{}, 0, false}},
        {u"exec"_s, {{u"-a"_s}, 0, false}},
        {u"nohup"_s, {{}, 0, false}},
        {u"time"_s, {{u"-f"_s, u"-o"_s, u"--format"_s, u"--output"_s}, 0, false}},
        {u"nice"_s, {{u"-n"_s, u"--adjustment"_s}, 0, false}},
        {u"ionice"_s, {{u"-c"_s, u"-n"_s, u"--class"_s, u"--classdata"_s}, 0, false}},
        {u"setsid"_s, {{}, 0, false}},
        {u"stdbuf"_s, {{u"-i"_s, u"-o"_s, u"-e"_s}, 0, false}},
        {u"unbuffer"_s, {{}, 0, false}},
        {u"timeout"_s, {{u"-s"_s, u"-k"_s, u"--signal"_s, u"--kill-after"_s}, 1, false}},
        {u"taskset"_s, {{}, 1, false}},
        {u"chrt"_s, {{}, 1, false}},
        {u"chroot"_s, {{u"--userspec"_s, u"--groups"_s}, 1, false}},
        {u"flock"_s, {{u"-w"_s, u"-E"_s, u"--timeout"_s, u"--conflict-exit-code"_s}, 1, false}},
        {u"xargs"_s, {{u"-a"_s, u"-d"_s, u"-E"_s, u"-I"_s, u"-L"_s, u"-n"_s, u"-P"_s, u"-s"_s, u"--arg-file"_s,
                       u"--delimiter"_s, u"--max-args"_s, u"--max-procs"_s, u"--max-chars"_s, u"--max-lines"_s,
                       u"--process-slot-var"_s},
                      0, false}},
        {u"parallel"_s, {{u"-j"_s, u"-S"_s, u"--jobs"_s}, 0, false}},
        {u"strace"_s, {{u"-o"_s, u"-e"_s, u"-p"_s, u"-s"_s, u"-u"_s, u"-E"_s}, 0, false}},
        {u"ltrace"_s, {{u"-o"_s, u"-e"_s, u"-p"_s, u"-s"_s, u"-u"_s}, 0, false}},
        {u"unshare"_s, {{}, 0, false}},
        {u"fakeroot"_s, {{}, 0, false}},
        {u"torsocks"_s, {{}, 0, false}},
        {u"proxychains"_s, {{u"-f"_s}, 0, false}},
        {u"proxychains4"_s, {{u"-f"_s}, 0, false}},
        {u"coproc"_s, {{}, 0, false}},
        {u"busybox"_s, {{}, 0, false}}, // busybox rm x, busybox sh -c …
    };
    return table;
}

const QSet<QString> &shells()
{
    static const QSet<QString> names{u"sh"_s,  u"bash"_s, u"dash"_s, u"zsh"_s, u"ksh"_s,
                                     u"mksh"_s, u"ash"_s,  u"fish"_s, u"rbash"_s};
    return names;
}

void Walker::addNested(const Command &outer, const QList<Word> &words)
{
    if (words.isEmpty())
        return;
    Command inner;
    inner.words = words;
    inner.nesting = outer.nesting + 1;
    inner.position = outer.position;
    QStringList texts;
    for (const Word &w : words)
        texts.append(w.text);
    inner.text = texts.join(u' ');
    if (inner.nesting > MaxNesting) {
        m_analysis.markIncomplete(u"commands are nested more than %1 deep"_s.arg(MaxNesting));
        return;
    }
    m_analysis.commands.append(inner);
    follow(inner);
}

void Walker::parseScript(const Command &outer, const Word &script)
{
    if (!script.known) {
        m_analysis.markIncomplete(u"%1 runs a command text that is only known when it runs"_s.arg(outer.name()));
        return;
    }
    if (outer.nesting + 1 > MaxNesting) {
        m_analysis.markIncomplete(u"commands are nested more than %1 deep"_s.arg(MaxNesting));
        return;
    }
    parse(script.text, outer.nesting + 1, outer.position);
}

void Walker::follow(const Command &command)
{
    if (!command.hasKnownName())
        return;
    const QString name = command.name();
    const QList<Word> &w = command.words;

    if (shells().contains(name)) {
        // `bash -c SCRIPT`, `bash -ec SCRIPT`; a script file is a program
        // like any other, but a shell reading its commands from standard input runs what the line
        // does not show.
        qsizetype i = 1;
        for (; i < w.size(); ++i) {
            const QString &t = w.at(i).text;
            if (t == u"--" || !isOption(w.at(i)))
                break;
            if (!t.startsWith(u"--") && t.contains(u'c')) {
                if (i + 1 < w.size())
                    parseScript(command, w.at(i + 1));
                return;
            }
            if (t == u"-o" || t == u"+o" || t == u"-O" || t == u"--rcfile" || t == u"--init-file")
                ++i;
        }
        if (i < w.size() && w.at(i).text == u"--")
            ++i;
        if (i >= w.size() || w.at(i).text == u"-s" || !w.at(i).known)
            m_analysis.markIncomplete(u"%1 reads the commands it runs from its input"_s.arg(name));
        return;
    }
    if (name == u"eval") {
        QStringList parts;
        for (qsizetype i = 1; i < w.size(); ++i) {
            if (!w.at(i).known) {
                parseScript(command, w.at(i));
                return;
            }
            parts.append(w.at(i).text);
        }
        parseScript(command, Word{parts.join(u' '), true});
        return;
    }
    if (name == u"trap") {
        // trap ACTION SIGNAL...: ACTION runs later, in this shell.
        qsizetype i = 1;
        while (i < w.size() && isOption(w.at(i)) && w.at(i).text != u"--")
            ++i;
        if (i < w.size() && w.at(i).text == u"--")
            ++i;
        if (i + 1 < w.size() && w.at(i).text != u"-")
            parseScript(command, w.at(i));
        return;
    }
    if (name == u"watch") {
        qsizetype i = 1;
        static const QStringList withArgument{u"-n"_s, u"--interval"_s, u"-d"_s, u"-q"_s, u"--equexit"_s};
        for (; i < w.size() && isOption(w.at(i)); ++i) {
            if (withArgument.contains(w.at(i).text))
                ++i;
        }
        QStringList parts;
        for (; i < w.size(); ++i) {
            if (!w.at(i).known) {
                parseScript(command, w.at(i));
                return;
            }
            parts.append(w.at(i).text);
        }
        if (!parts.isEmpty())
            parseScript(command, Word{parts.join(u' '), true});
        return;
    }
    if (name == u"su" || name == u"runuser") {
        for (qsizetype i = 1; i + 1 < w.size(); ++i) {
            if (w.at(i).text == u"-c" || w.at(i).text == u"--command") {
                parseScript(command, w.at(i + 1));
                return;
            }
        }
        if (name == u"su")
            return;
    }
    if (name == u"find") {
        static const QStringList actions{u"-exec"_s, u"-execdir"_s, u"-ok"_s, u"-okdir"_s};
        for (qsizetype i = 1; i < w.size(); ++i) {
            if (!actions.contains(w.at(i).text))
                continue;
            QList<Word> inner;
            for (++i; i < w.size() && w.at(i).text != u";" && w.at(i).text != u"+"; ++i)
                inner.append(w.at(i));
            addNested(command, inner);
        }
        return;
    }
    const auto wrapper = wrappers().constFind(name);
    if (wrapper == wrappers().cend())
        return;
    qsizetype i = 1;
    int positional = wrapper->positional;
    while (i < w.size()) {
        const Word &word = w.at(i);
        if (word.text == u"--") {
            ++i;
            break;
        }
        if (name == u"env" && (word.text == u"-S" || word.text == u"--split-string" || word.text.startsWith(u"--split-string=")
                               || (word.text.startsWith(u"-S") && word.text.size() > 2))) {
            // env -S 'cmd args': the string is split into the command.
            if (word.text == u"-S" || word.text == u"--split-string")
                parseScript(command, i + 1 < w.size() ? w.at(i + 1) : Word{});
            else
                parseScript(command, Word{word.text.mid(word.text.startsWith(u"-S") ? 2 : 15), word.known});
            return;
        }
        if (name == u"flock" && (word.text == u"-c" || word.text == u"--command")) {
            parseScript(command, i + 1 < w.size() ? w.at(i + 1) : Word{});
            return;
        }
        if (isOption(word)) {
            i += wrapper->withArgument.contains(word.text) ? 2 : 1;
            continue;
        }
        if (wrapper->skipAssignments && word.known && word.text.contains(u'=') && !word.text.startsWith(u'=')) {
            ++i;
            continue;
        }
        if (positional > 0) {
            --positional;
            ++i;
            continue;
        }
        break;
    }
    addNested(command, w.mid(std::min(i, w.size())));
}

} // namespace

Analysis analyze(const QString &line)
{
    Analysis analysis;
    Walker(analysis).parse(line, 0, -1);
    return analysis;
}

qsizetype arity(const QStringList &words)
{
    // OpenCode's BashArity table (permission/arity.ts): how many words name a command. Commands
    // not listed are named by their first word.
    static const QHash<QString, int> table{
        {u"cat"_s, 1}, {u"cd"_s, 1}, {u"chmod"_s, 1}, {u"chown"_s, 1}, {u"cp"_s, 1}, {u"echo"_s, 1}, {u"env"_s, 1},
        {u"export"_s, 1}, {u"grep"_s, 1}, {u"kill"_s, 1}, {u"killall"_s, 1}, {u"ln"_s, 1}, {u"ls"_s, 1}, {u"mkdir"_s, 1},
        {u"mv"_s, 1}, {u"ps"_s, 1}, {u"pwd"_s, 1}, {u"rm"_s, 1}, {u"rmdir"_s, 1}, {u"sleep"_s, 1}, {u"source"_s, 1},
        {u"tail"_s, 1}, {u"touch"_s, 1}, {u"unset"_s, 1}, {u"which"_s, 1},
        {u"aws"_s, 3}, {u"az"_s, 3}, {u"bazel"_s, 2}, {u"brew"_s, 2}, {u"bun"_s, 2}, {u"bun run"_s, 3}, {u"bun x"_s, 3},
        {u"cargo"_s, 2}, {u"cargo add"_s, 3}, {u"cargo run"_s, 3}, {u"cdk"_s, 2}, {u"cf"_s, 2}, {u"cmake"_s, 2},
        {u"composer"_s, 2}, {u"consul"_s, 2}, {u"consul kv"_s, 3}, {u"crictl"_s, 2}, {u"deno"_s, 2},
        {u"deno task"_s, 3}, {u"doctl"_s, 3}, {u"docker"_s, 2}, {u"docker builder"_s, 3}, {u"docker compose"_s, 3},
        {u"docker container"_s, 3}, {u"docker image"_s, 3}, {u"docker network"_s, 3}, {u"docker volume"_s, 3},
        {u"eksctl"_s, 2}, {u"eksctl create"_s, 3}, {u"firebase"_s, 2}, {u"flyctl"_s, 2}, {u"gcloud"_s, 3},
        {u"gh"_s, 3}, {u"git"_s, 2}, {u"git config"_s, 3}, {u"git remote"_s, 3}, {u"git stash"_s, 3}, {u"go"_s, 2},
        {u"gradle"_s, 2}, {u"helm"_s, 2}, {u"heroku"_s, 2}, {u"hugo"_s, 2}, {u"ip"_s, 2}, {u"ip addr"_s, 3},
        {u"ip link"_s, 3}, {u"ip netns"_s, 3}, {u"ip route"_s, 3}, {u"kind"_s, 2}, {u"kind create"_s, 3},
        {u"kubectl"_s, 2}, {u"kubectl kustomize"_s, 3}, {u"kubectl rollout"_s, 3}, {u"kustomize"_s, 2},
        {u"make"_s, 2}, {u"mc"_s, 2}, {u"mc admin"_s, 3}, {u"minikube"_s, 2}, {u"mongosh"_s, 2}, {u"mysql"_s, 2},
        {u"mvn"_s, 2}, {u"ng"_s, 2}, {u"npm"_s, 2}, {u"npm exec"_s, 3}, {u"npm init"_s, 3}, {u"npm run"_s, 3},
        {u"npm view"_s, 3}, {u"nvm"_s, 2}, {u"nx"_s, 2}, {u"openssl"_s, 2}, {u"openssl req"_s, 3},
        {u"openssl x509"_s, 3}, {u"pip"_s, 2}, {u"pipenv"_s, 2}, {u"pnpm"_s, 2}, {u"pnpm dlx"_s, 3},
        {u"pnpm exec"_s, 3}, {u"pnpm run"_s, 3}, {u"poetry"_s, 2}, {u"podman"_s, 2}, {u"podman container"_s, 3},
        {u"podman image"_s, 3}, {u"psql"_s, 2}, {u"pulumi"_s, 2}, {u"pulumi stack"_s, 3}, {u"pyenv"_s, 2},
        {u"python"_s, 2}, {u"rake"_s, 2}, {u"rbenv"_s, 2}, {u"redis-cli"_s, 2}, {u"rustup"_s, 2},
        {u"serverless"_s, 2}, {u"sfdx"_s, 3}, {u"skaffold"_s, 2}, {u"sls"_s, 2}, {u"sst"_s, 2}, {u"swift"_s, 2},
        {u"systemctl"_s, 2}, {u"terraform"_s, 2}, {u"terraform workspace"_s, 3}, {u"tmux"_s, 2}, {u"turbo"_s, 2},
        {u"ufw"_s, 2}, {u"vault"_s, 2}, {u"vault auth"_s, 3}, {u"vault kv"_s, 3}, {u"vercel"_s, 2}, {u"volta"_s, 2},
        {u"wp"_s, 2}, {u"yarn"_s, 2}, {u"yarn dlx"_s, 3}, {u"yarn run"_s, 3},
    };
    for (qsizetype length = words.size(); length > 0; --length) {
        const auto found = table.constFind(words.first(length).join(u' '));
        if (found != table.cend())
            return std::min<qsizetype>(*found, words.size());
    }
    return words.isEmpty() ? 0 : 1;
}

} // namespace weft::ShellSyntax

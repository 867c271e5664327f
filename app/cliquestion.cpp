// SPDX-License-Identifier: GPL-3.0-or-later
#include "cliquestion.h"

#include <QRegularExpression>
#include <QSocketNotifier>

#include <cerrno>
#include <cstdio>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace weft::Cli
{

namespace
{
void print(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}
} // namespace

TerminalQuestions::TerminalQuestions(int fd, QObject *parent)
    : QObject(parent)
    , m_fd(fd)
    , m_notifier(new QSocketNotifier(qintptr(fd), QSocketNotifier::Read, this))
{
    // Read only while a question waits: what is typed otherwise stays for later.
    m_notifier->setEnabled(false);
    connect(m_notifier, &QSocketNotifier::activated, this, &TerminalQuestions::onReadable);
}

void TerminalQuestions::ask(const JsonObject &request)
{
    m_queue.append(request);
    if (m_queue.size() == 1) {
        m_index = 0;
        m_answers.clear();
        promptQuestion();
    }
}

void TerminalQuestions::close(const QString &requestID)
{
    for (qsizetype i = 0; i < m_queue.size(); ++i) {
        if (m_queue.at(i).string(u"id") != requestID)
            continue;
        m_queue.removeAt(i);
        if (i == 0) {
            print(u"\n"_s);
            next();
        }
        return;
    }
}

QStringList TerminalQuestions::parseAnswer(const JsonObject &question, const QString &line, QString &problem)
{
    problem.clear();
    const QString text = line.trimmed();
    if (text.isEmpty())
        return {};
    const JsonArray options = question.value(u"options").toArray();
    static const QRegularExpression separators(u"[\\s,]+"_s);
    const QStringList tokens = text.split(separators, Qt::SkipEmptyParts);
    QList<int> picked;
    for (const QString &token : tokens) {
        bool number = false;
        const int n = token.toInt(&number);
        if (!number)
            return {text}; // words: the user's own answer
        picked.append(n);
    }
    QStringList labels;
    for (const int n : std::as_const(picked)) {
        if (n < 1 || n > options.size()) {
            problem = options.isEmpty() ? u"There are no options to pick; type your answer."_s
                                        : u"There is no option %1 (1-%2)."_s.arg(n).arg(options.size());
            return {};
        }
        const QString label = options.at(n - 1).toObject().string(u"label");
        if (!labels.contains(label))
            labels.append(label);
    }
    if (labels.size() > 1 && !question.value(u"multiple").toBool()) {
        problem = u"Pick one option."_s;
        return {};
    }
    return labels;
}

void TerminalQuestions::promptQuestion()
{
    const JsonObject &request = m_queue.constFirst();
    const JsonArray questions = request.value(u"questions").toArray();
    const JsonObject question = questions.at(m_index).toObject();
    QString text = u"\n"_s;
    const QString header = question.string(u"header");
    if (questions.size() > 1)
        text += u"[%1/%2] "_s.arg(m_index + 1).arg(questions.size());
    text += header.isEmpty() ? u"The agent asks:\n"_s : header + u":\n"_s;
    text += u"  "_s + question.string(u"question") + u'\n';
    const JsonArray options = question.value(u"options").toArray();
    for (qsizetype i = 0; i < options.size(); ++i) {
        const JsonObject option = options.at(i).toObject();
        text += u"  %1. %2"_s.arg(i + 1).arg(option.string(u"label"));
        if (!option.string(u"description").isEmpty())
            text += u" - "_s + option.string(u"description");
        text += u'\n';
    }
    text += question.value(u"multiple").toBool()
        ? u"Numbers separated by commas, or your own answer; an empty line dismisses.\n> "_s
        : u"A number, or your own answer; an empty line dismisses.\n> "_s;
    print(text);
    m_notifier->setEnabled(true);
}

void TerminalQuestions::onReadable()
{
    char chunk[4096];
    const ssize_t n = ::read(m_fd, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        // The end of the input: no one is left to answer.
        m_notifier->setEnabled(false);
        if (!m_buffer.isEmpty())
            takeLine(QString::fromUtf8(std::exchange(m_buffer, {})));
        while (!m_queue.isEmpty())
            Q_EMIT dismissed(m_queue.takeFirst().string(u"id"));
        return;
    }
    m_buffer.append(chunk, n);
    qsizetype end;
    while (!m_queue.isEmpty() && (end = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(end);
        m_buffer.remove(0, end + 1);
        takeLine(QString::fromUtf8(line));
    }
}

void TerminalQuestions::takeLine(const QString &line)
{
    if (m_queue.isEmpty())
        return;
    const JsonObject request = m_queue.constFirst();
    const JsonArray questions = request.value(u"questions").toArray();
    QString problem;
    const QStringList answer = parseAnswer(questions.at(m_index).toObject(), line, problem);
    if (!problem.isEmpty()) {
        print(problem + u"\n> "_s);
        return;
    }
    if (answer.isEmpty()) {
        m_queue.removeFirst();
        Q_EMIT dismissed(request.string(u"id"));
        next();
        return;
    }
    m_answers.append(answer);
    if (++m_index < questions.size()) {
        promptQuestion();
        return;
    }
    m_queue.removeFirst();
    Q_EMIT answered(request.string(u"id"), m_answers);
    next();
}

void TerminalQuestions::next()
{
    m_index = 0;
    m_answers.clear();
    if (m_queue.isEmpty())
        m_notifier->setEnabled(false);
    else
        promptQuestion();
}

} // namespace weft::Cli

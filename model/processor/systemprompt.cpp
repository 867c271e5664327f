// SPDX-License-Identifier: GPL-3.0-or-later
#include "systemprompt.h"

#include "agent.h"

#include <QLocale>
#include <QSysInfo>

using namespace Qt::StringLiterals;

namespace weft::SystemPrompt
{

Family family(const ModelIdentity &model)
{
    const QString &id = model.apiModelID;
    if (id.contains(u"gpt-4") || id.contains(u"o1") || id.contains(u"o3"))
        return Family::Beast;
    if (id.contains(u"gpt"))
        return id.contains(u"codex") ? Family::Codex : Family::Gpt;
    if (id.contains(u"gemini-"))
        return Family::Gemini;
    if (id.contains(u"claude"))
        return Family::Anthropic;
    const QString lower = id.toLower();
    if (lower.contains(u"trinity"))
        return Family::Trinity;
    if (lower.contains(u"kimi") || model.providerID == u"kimi-for-coding" || model.providerID == u"moonshotai"
        || model.providerID == u"moonshotai-cn")
        return Family::Kimi;
    return Family::Default;
}

QString familyName(Family family)
{
    switch (family) {
    case Family::Anthropic:
        return u"anthropic"_s;
    case Family::Beast:
        return u"beast"_s;
    case Family::Codex:
        return u"codex"_s;
    case Family::Gpt:
        return u"gpt"_s;
    case Family::Gemini:
        return u"gemini"_s;
    case Family::Kimi:
        return u"kimi"_s;
    case Family::Trinity:
        return u"trinity"_s;
    case Family::Default:
        return u"default"_s;
    }
    return u"default"_s;
}

QStringList familyPrompts(const ModelIdentity &model)
{
    const Family f = family(model);
    QStringList prompts{AgentRegistry::promptResource(u"family-"_s + familyName(f))};
    // OpenAI's own API separates commentary from the final answer; servers that merely speak
    // its chat protocol do not, and OpenCode leaves the note out for them.
    if (f == Family::Gpt && !model.npm.contains(u"@ai-sdk/openai-compatible"))
        prompts.append(AgentRegistry::promptResource(u"family-gpt-channels"_s));
    return prompts;
}

Environment Environment::current(const QString &providerID, const QString &apiModelID, const QString &directory,
                                 const QString &worktree, bool gitRepository)
{
    Environment e;
    e.providerID = providerID;
    e.apiModelID = apiModelID;
    e.directory = directory;
    e.worktree = worktree.isEmpty() ? directory : worktree;
    e.gitRepository = gitRepository;
    e.platform = platformName();
    e.today = QDate::currentDate();
    return e;
}

QString Environment::platformName()
{
    const QString kernel = QSysInfo::kernelType();
    if (kernel == u"winnt")
        return u"win32"_s;
    if (kernel.isEmpty())
        return u"unknown"_s;
    return kernel; // "linux", "darwin", "freebsd"... as Node names them
}

QString environmentBlock(const Environment &e)
{
    // JavaScript's Date.toDateString(): English names whatever the locale.
    const QString date = QLocale::c().toString(e.today, u"ddd MMM dd yyyy"_s);
    const QStringList lines{
        u"You are powered by the model named %1. The exact model ID is %2/%1"_s.arg(e.apiModelID, e.providerID),
        u"Here is some useful information about the environment you are running in:"_s,
        u"<env>"_s,
        u"  Working directory: "_s + e.directory,
        u"  Workspace root folder: "_s + e.worktree,
        u"  Is directory a git repo: "_s + (e.gitRepository ? u"yes"_s : u"no"_s),
        u"  Platform: "_s + e.platform,
        u"  Today's date: "_s + date,
        u"</env>"_s,
    };
    return lines.join(u'\n');
}

QString compose(const Input &input)
{
    QStringList parts;
    if (!input.agentPrompt.trimmed().isEmpty())
        parts.append(input.agentPrompt);
    else
        parts += familyPrompts(input.model);
    parts.append(environmentBlock(input.environment));
    for (const Instruction &instruction : input.instructions)
        parts.append(instruction.render());
    parts.removeIf([](const QString &part) { return part.isEmpty(); });
    return parts.join(u'\n');
}

} // namespace weft::SystemPrompt

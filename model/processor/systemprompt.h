// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "instructions.h"

// The system prompt of a model call, composed as OpenCode's SystemPrompt and LLM.stream compose
// it: the prompt of the model's family (or the agent's own prompt, which replaces it), the
// environment block, then the instructions (AGENTS.md and the like), joined into one text.

#include <QDate>
#include <QList>
#include <QString>
#include <QStringList>

namespace weft::SystemPrompt
{

/// The prompt families OpenCode chooses between by model (SystemPrompt.provider). Weft's texts
/// for them are its own (resources/prompts/family-*.txt).
enum class Family {
    Anthropic, ///< Claude models
    Beast, ///< GPT-4 and the o1/o3 reasoning models: keep going until the task is done
    Codex, ///< GPT codex models
    Gpt, ///< other GPT models (GPT-5 and later)
    Gemini, ///< Gemini models
    Kimi, ///< Moonshot's Kimi models
    Trinity, ///< Arcee's Trinity models
    Default, ///< everything else: Qwen, DeepSeek, Llama, GLM, local models...
};

/// What the family choice looks at.
struct ModelIdentity
{
    QString providerID;
    /// The ID the API is called with (OpenCode's model.api.id).
    QString apiModelID;
    /// The AI SDK package of the provider ("@ai-sdk/openai-compatible", ...).
    QString npm;
};

/// The family OpenCode picks for @p model, by substrings of the API model ID in OpenCode's order
/// (gpt-4/o1/o3 before gpt, codex before the other GPTs, then gemini-, claude, trinity, kimi).
[[nodiscard]] Family family(const ModelIdentity &model);
/// The family's name as used in resource names and logs ("anthropic", "beast", ...).
[[nodiscard]] QString familyName(Family family);
/// The prompt texts of @p model's family: one text, or two for GPT models spoken to over
/// OpenAI's own API (the GPT prompt and the note on answer channels), as OpenCode adds it.
[[nodiscard]] QStringList familyPrompts(const ModelIdentity &model);

/// The facts of the environment block.
struct Environment
{
    QString providerID;
    QString apiModelID;
    /// The session's directory.
    QString directory;
    /// The top of the project (the git work tree), or the directory itself.
    QString worktree;
    bool gitRepository = false;
    /// Node's process.platform spelling: "linux", "darwin", "win32"...
    QString platform;
    QDate today;

    /// The facts of the running system: platform() and today's local date.
    [[nodiscard]] static Environment current(const QString &providerID, const QString &apiModelID,
                                             const QString &directory, const QString &worktree, bool gitRepository);
    /// This system's platform in process.platform's spelling.
    [[nodiscard]] static QString platformName();
};

/// The environment block OpenCode gives the model: the model's name, then `<env>` with the
/// working directory, the workspace root, whether it is a git repository, the platform and the
/// date (JavaScript's Date.toDateString, e.g. "Thu Nov 26 2026").
[[nodiscard]] QString environmentBlock(const Environment &environment);

/// Everything a system prompt is made of.
struct Input
{
    ModelIdentity model;
    /// The agent's own prompt; when not empty it replaces the family prompt (OpenCode's rule).
    QString agentPrompt;
    Environment environment;
    /// The instruction files (Instructions::load), each rendered by Instruction::render().
    QList<Instruction> instructions;
};

/// The system prompt: the agent's prompt or the family prompts, the environment block and the
/// rendered instructions, in that order, joined by newlines into the single system text
/// OpenCode sends (one system message, which providers cache as a whole).
[[nodiscard]] QString compose(const Input &input);

} // namespace weft::SystemPrompt

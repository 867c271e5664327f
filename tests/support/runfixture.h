// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"
#include "core/types.h"
#include "fakellmserver.h"

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace weft
{
class SessionService;
}

namespace weft::test
{

/// What a test of runs starts from: Weft's own store in a temporary data dir, a project folder
/// with one session in it, and a fake LLM server on loopback.
struct RunFixture {
    std::unique_ptr<QTemporaryDir> data;
    std::unique_ptr<QTemporaryDir> project;
    std::unique_ptr<FakeLlmServer> server;
    std::shared_ptr<SessionService> service;
    QString sessionID;

    /// Makes everything anew (call from init()); false with a warning when something failed.
    [[nodiscard]] bool setUp();
    /// Drops everything, the service before the folders (call from cleanup()).
    void tearDown();
    /// Writes `weft.json` into the data dir: the fake provider's `fake/gpt-test` model (context
    /// 100,000, output 4,000, $3/$15 per million tokens) as model and small model, `bash` asking
    /// for permission, and @p extra's keys over these. Returns the file, empty on failure.
    [[nodiscard]] QString writeConfig(const JsonObject &extra = {}) const;
};

/// Writes a config to @p path as a user writes it: the fake provider at @p baseUrl with its
/// `fake/gpt-test` model (context 100,000, output 4,000, $3/$15 per million tokens) as model and
/// small model, `bash` asking for permission, and @p extra's keys over these. False on failure.
[[nodiscard]] bool writeFakeProviderConfig(const QString &path, const QUrl &baseUrl, const JsonObject &extra = {});

/// An OpenAI-compatible streamed reply: @p pieces of text, then `stop` with that usage.
[[nodiscard]] QByteArray textReply(const QStringList &pieces, qint64 prompt = 3000, qint64 completion = 400);
/// An OpenAI-compatible streamed reply that calls `bash` with @p command ("Run it") as call
/// @p callID, its arguments streamed in two pieces, then `tool_calls`.
[[nodiscard]] QByteArray bashCallReply(const QString &callID, const QString &command);
/// The first tool part of @p messages, null when none.
[[nodiscard]] Part firstToolPart(const QList<MessageWithParts> &messages);

/// Runs git with @p args in @p dir; false (with a warning) when it fails.
[[nodiscard]] bool git(const QString &dir, const QStringList &args);
/// Makes @p dir a git repository with one empty root commit.
[[nodiscard]] bool makeGitRepository(const QString &dir);

/// Three questions of the question tool's input: one choice of two, several of three
/// (`multiple`), and one without options. Their answers read "Which database?", "Which
/// features?" and "Anything else?".
[[nodiscard]] JsonArray storageQuestions();

/// Unsets the API keys of the well-known providers, so that the environment does not configure
/// a provider behind a test's back.
void clearProviderKeys();

} // namespace weft::test

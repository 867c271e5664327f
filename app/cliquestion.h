// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/json.h"

#include <QList>
#include <QObject>
#include <QStringList>

class QSocketNotifier;

namespace weft::Cli
{

/// The question tool's questions on a terminal (`weft run` with stdin a TTY): each question on
/// stderr with its options numbered, the answer read from stdin a line at a time without
/// blocking the event loop (the stream, Ctrl+C and the run go on meanwhile). A number picks an
/// option, several numbers separated by commas or spaces pick several where the question
/// allows it; any other text is the user's own answer; an empty line, or the end of the input,
/// dismisses the questions. One request at a time; later ones wait their turn.
class TerminalQuestions : public QObject
{
    Q_OBJECT

public:
    explicit TerminalQuestions(int fd, QObject *parent = nullptr);

    /// Asks @p request (Processor::questionAsked()'s shape).
    void ask(const weft::JsonObject &request);
    /// Request @p requestID went away (answered, or its run stopped): no longer asked.
    void close(const QString &requestID);

    /// What a line answers to @p question (`{options: [{label}], multiple}`): the labels or the
    /// user's own text; an empty list for an empty line (dismiss). A problem (no such option,
    /// several where one is allowed) is returned in @p problem instead.
    [[nodiscard]] static QStringList parseAnswer(const JsonObject &question, const QString &line, QString &problem);

Q_SIGNALS:
    void answered(const QString &requestID, const QList<QStringList> &answers);
    void dismissed(const QString &requestID);

private:
    void onReadable();
    void takeLine(const QString &line);
    void promptQuestion();
    void next();

    int m_fd;
    QSocketNotifier *m_notifier = nullptr;
    QByteArray m_buffer;
    QList<JsonObject> m_queue; ///< the request being asked first
    qsizetype m_index = 0;     ///< its question being asked
    QList<QStringList> m_answers;
};

} // namespace weft::Cli

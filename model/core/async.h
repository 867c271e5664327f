// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>

#include <utility>

namespace weft
{

/// Calls @p handler with the result of @p future on @p context's thread, through its event loop,
/// unless @p context is destroyed first.
///
/// Unlike QFuture::then(context, ...), the handler never runs inside the caller when the work
/// finished before the call: a model's loaded() then always comes after the call that started
/// the load returned, whatever the timing.
template<typename T, typename Handler> void whenFinished(const QFuture<T> &future, QObject *context, Handler &&handler)
{
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, handler = std::forward<Handler>(handler)]() mutable {
                         watcher->deleteLater();
                         if (!watcher->isCanceled())
                             handler(watcher->result());
                     });
    watcher->setFuture(future);
}

} // namespace weft

// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpserver.h"

using namespace Qt::StringLiterals;

namespace weft
{

QString McpServerStatus::stateName(State state)
{
    switch (state) {
    case State::Disabled:
        return u"disabled"_s;
    case State::Connecting:
        return u"connecting"_s;
    case State::Connected:
        return u"connected"_s;
    case State::Failed:
        return u"failed"_s;
    }
    return {};
}

} // namespace weft

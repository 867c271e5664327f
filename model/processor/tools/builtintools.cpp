// SPDX-License-Identifier: GPL-3.0-or-later
#include "processor/tool.h"

#include "applypatchtool.h"
#include "bashtool.h"
#include "edittool.h"
#include "globtool.h"
#include "greptool.h"
#include "listtool.h"
#include "multiedittool.h"
#include "questiontool.h"
#include "readtool.h"
#include "tasktool.h"
#include "todotool.h"
#include "webfetchtool.h"
#include "writetool.h"

namespace weft
{

QList<std::shared_ptr<Tool>> builtinTools()
{
    return {
        std::make_shared<BashTool>(), std::make_shared<ReadTool>(), std::make_shared<GlobTool>(), std::make_shared<GrepTool>(),
        std::make_shared<ListTool>(), std::make_shared<EditTool>(), std::make_shared<MultiEditTool>(),
        std::make_shared<WriteTool>(), std::make_shared<TaskTool>(),
        std::make_shared<WebFetchTool>(), std::make_shared<TodoWriteTool>(), std::make_shared<TodoReadTool>(),
        std::make_shared<ApplyPatchTool>(),
        std::make_shared<QuestionTool>(),
    };
}

} // namespace weft

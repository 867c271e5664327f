<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>ImportedDirectory</name>
    <message>
        <source>Imported Session</source>
        <translation>导入的会话</translation>
    </message>
    <message>
        <source>“%1” was imported from a file. It works in this folder, which the file chose:

%2

The agent will read, change and run commands there, and a revert changes files there. Use this folder?</source>
        <translation>“%1”是从文件导入的。它在文件指定的以下文件夹中工作：

%2

智能体将在那里读取、修改文件并运行命令，撤销也会更改那里的文件。使用此文件夹？</translation>
    </message>
    <message>
        <source>(no folder)</source>
        <translation>（无文件夹）</translation>
    </message>
    <message>
        <source>&amp;Use This Folder</source>
        <translation>使用此文件夹(&amp;U)</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Weft</source>
        <translation>Weft</translation>
    </message>
    <message>
        <source>Weft cannot open its data folder:
%1</source>
        <translation>Weft 无法打开其数据文件夹：
%1</translation>
    </message>
    <message>
        <source>Weft cannot use its configuration, so prompts cannot be sent until it is fixed:
%1</source>
        <translation>Weft 无法使用其配置，因此在修复之前无法发送提示词：
%1</translation>
    </message>
</context>
<context>
    <name>weft::AttentionInbox</name>
    <message>
        <source>Sessions that wait for your answer, runs that failed and runs that finished; click for the list</source>
        <translation>等待你回答的会话、失败的运行和已完成的运行；点击查看列表</translation>
    </message>
    <message>
        <source>Asks to %1: %2</source>
        <translation>请求%1：%2</translation>
    </message>
    <message>
        <source>“%1” waits for your permission</source>
        <translation>“%1”正在等待你的许可</translation>
    </message>
    <message>
        <source>Asks: %1</source>
        <translation>提问：%1</translation>
    </message>
    <message numerus="yes">
        <source>Asks %n question(s).</source>
        <translation>
            <numerusform>提出了 %n 个问题。</numerusform>
        </translation>
    </message>
    <message>
        <source>“%1” asks you</source>
        <translation>“%1”向你提问</translation>
    </message>
    <message>
        <source>The run finished.</source>
        <translation>运行已完成。</translation>
    </message>
    <message>
        <source>“%1” finished</source>
        <translation>“%1”已完成</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>运行失败。</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>“%1” failed</source>
        <translation>“%1”失败</translation>
    </message>
    <message>
        <source>A sub-agent of “%1”. %2</source>
        <translation>“%1”的子代理。%2</translation>
    </message>
    <message>
        <source>⚑ %1 waiting · %2 finished</source>
        <translation>⚑ %1 个等待中 · %2 个已完成</translation>
    </message>
    <message numerus="yes">
        <source>⚑ %n waiting</source>
        <translation>
            <numerusform>⚑ %n 个等待中</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n finished</source>
        <translation>
            <numerusform>%n 个已完成</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) for you to look at</source>
        <translation>
            <numerusform>%n 个会话需要你查看</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>weft::AttentionPanel</name>
    <message>
        <source>Nothing waits for you.</source>
        <translation>没有等待你的事项。</translation>
    </message>
    <message>
        <source>Waiting for you</source>
        <translation>等待你处理</translation>
    </message>
    <message>
        <source>Sessions waiting for you</source>
        <translation>等待你处理的会话</translation>
    </message>
    <message>
        <source>%1 (sub-agent of “%2”)</source>
        <translation>%1（“%2”的子代理）</translation>
    </message>
</context>
<context>
    <name>weft::ChangesPane</name>
    <message>
        <source>Worktree vs base: %1</source>
        <translation>工作树与基础相比：%1</translation>
    </message>
    <message>
        <source>No changes in the worktree since its base commit.</source>
        <translation>自基础提交以来工作树没有更改。</translation>
    </message>
    <message>
        <source>Everything the worktree %1 changed since its base commit, committed or not</source>
        <translation>工作树 %1 自基础提交以来的所有更改（无论是否已提交）</translation>
    </message>
    <message>
        <source>Worktree</source>
        <translation>工作树</translation>
    </message>
    <message>
        <source>the session is running</source>
        <translation>会话正在运行</translation>
    </message>
    <message>
        <source>A</source>
        <comment>added file</comment>
        <translation>增</translation>
    </message>
    <message>
        <source>D</source>
        <comment>deleted file</comment>
        <translation>删</translation>
    </message>
    <message>
        <source>M</source>
        <comment>modified file</comment>
        <translation>改</translation>
    </message>
    <message numerus="yes">
        <source>  and %n more file(s)</source>
        <translation>
            <numerusform>  及其他 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Everything the session changed</source>
        <translation>此会话所做的全部更改</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>What one turn changed: click “files changed” under a message of yours</source>
        <translation>某一轮的更改：点击你的消息下方的“已更改的文件”</translation>
    </message>
    <message>
        <source>Revert This &amp;File…</source>
        <translation>还原此文件(&amp;F)…</translation>
    </message>
    <message>
        <source>Put the selected file back as it was before the change</source>
        <translation>将所选文件恢复到更改之前的状态</translation>
    </message>
    <message>
        <source>Revert This &amp;Turn…</source>
        <translation>还原此轮(&amp;T)…</translation>
    </message>
    <message>
        <source>Undo the turn&apos;s file changes and hide it with the messages after it</source>
        <translation>撤销此轮对文件的更改，并隐藏此轮及其后的消息</translation>
    </message>
    <message>
        <source>&amp;Restore Reverted Changes…</source>
        <translation>恢复已还原的更改(&amp;R)…</translation>
    </message>
    <message>
        <source>Bring back the files and messages of the reverted turn</source>
        <translation>恢复已还原轮次的文件和消息</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Revert a file or the turn</source>
        <translation>还原某个文件或整轮</translation>
    </message>
    <message>
        <source>Changed files</source>
        <translation>已更改的文件</translation>
    </message>
    <message>
        <source>No file changes in this session.</source>
        <translation>此会话中没有文件更改。</translation>
    </message>
    <message>
        <source>Next File</source>
        <translation>下一个文件</translation>
    </message>
    <message>
        <source>Previous File</source>
        <translation>上一个文件</translation>
    </message>
    <message>
        <source>What the turn changed</source>
        <translation>此轮的更改</translation>
    </message>
    <message>
        <source>What the turn “%1” changed</source>
        <translation>轮次“%1”的更改</translation>
    </message>
    <message>
        <source>No file changes in this turn.</source>
        <translation>此轮中没有文件更改。</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), +%1 −%2</source>
        <translation>
            <numerusform>%n 个文件，+%1 −%2</numerusform>
        </translation>
    </message>
    <message>
        <source>This turn: %1</source>
        <translation>此轮：%1</translation>
    </message>
    <message>
        <source>“%1”: %2</source>
        <translation>“%1”：%2</translation>
    </message>
    <message>
        <source>Not reverting “%1”: %2</source>
        <translation>不还原“%1”：%2</translation>
    </message>
    <message>
        <source>“%1” did not exist before this change: it will be deleted.</source>
        <translation>“%1”在此更改之前不存在：它将被删除。</translation>
    </message>
    <message>
        <source>“%1” was deleted by this change: it will be created again with its old contents.</source>
        <translation>“%1”已被此更改删除：它将以原来的内容重新创建。</translation>
    </message>
    <message>
        <source>“%1” will get its contents from before this change back (%2 added and %3 removed lines undone).</source>
        <translation>“%1”的内容将恢复到此更改之前的状态（撤销添加的 %2 行和删除的 %3 行）。</translation>
    </message>
    <message>
        <source>Revert this file?

%1

Changed on disk, in %2:
%3

Changes made to the file since are lost.</source>
        <translation>还原此文件？

%1

磁盘上将被更改的文件（位于 %2）：
%3

此后对该文件所做的更改将会丢失。</translation>
    </message>
    <message>
        <source>Revert File</source>
        <translation>还原文件</translation>
    </message>
    <message>
        <source>&amp;Revert File</source>
        <translation>还原文件(&amp;R)</translation>
    </message>
    <message>
        <source>Reverted “%1”.</source>
        <translation>已还原“%1”。</translation>
    </message>
    <message>
        <source>Could not revert “%1”: %2</source>
        <translation>无法还原“%1”：%2</translation>
    </message>
    <message>
        <source>this turn</source>
        <translation>此轮</translation>
    </message>
    <message>
        <source>the turn “%1”</source>
        <translation>轮次“%1”</translation>
    </message>
    <message>
        <source>Revert %1?</source>
        <translation>还原%1？</translation>
    </message>
    <message>
        <source>No files were recorded as changed from this turn on; nothing changes on disk.</source>
        <translation>没有记录到从此轮起被更改的文件；磁盘上不会有任何更改。</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) go back to how they were before it, in %1:</source>
        <translation>
            <numerusform>%n 个文件将恢复到此轮之前的状态（位于 %1）：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The turn and what came after it (%n message(s)) are hidden until you send a new prompt. “Restore Reverted Changes” brings everything back until then.</source>
        <translation>
            <numerusform>此轮及其后的内容（%n 条消息）将被隐藏，直到你发送新的提示词。在此之前，“恢复已还原的更改”可以恢复一切。</numerusform>
        </translation>
    </message>
    <message>
        <source>Revert Turn</source>
        <translation>还原轮次</translation>
    </message>
    <message>
        <source>&amp;Revert Turn</source>
        <translation>还原轮次(&amp;R)</translation>
    </message>
    <message numerus="yes">
        <source>Reverted the turn: %n file(s) restored.</source>
        <translation>
            <numerusform>已还原此轮：恢复了 %n 个文件。</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not revert the turn: %1</source>
        <translation>无法还原此轮：%1</translation>
    </message>
    <message>
        <source>Restore the reverted changes?</source>
        <translation>恢复已还原的更改？</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) get their reverted changes back, in %1:</source>
        <translation>
            <numerusform>%n 个文件将重新获得已还原的更改（位于 %1）：</numerusform>
        </translation>
    </message>
    <message>
        <source>The hidden messages are shown again.</source>
        <translation>隐藏的消息将重新显示。</translation>
    </message>
    <message>
        <source>Restore Reverted Changes</source>
        <translation>恢复已还原的更改</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>Restored the reverted changes.</source>
        <translation>已恢复已还原的更改。</translation>
    </message>
    <message>
        <source>Could not restore the reverted changes: %1</source>
        <translation>无法恢复已还原的更改：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) are deleted (they did not exist before it), in %1:</source>
        <translation>
            <numerusform>%n 个文件将被删除（此轮之前不存在，位于 %1）：</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>weft::Compaction</name>
    <message>
        <source>must be true or false</source>
        <translation>必须为 true 或 false</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>必须是字符串</translation>
    </message>
    <message>
        <source>unknown strategy &quot;%1&quot; (summary or summary-tail)</source>
        <translation>未知的策略“%1”（应为 summary 或 summary-tail）</translation>
    </message>
    <message>
        <source>unknown estimator &quot;%1&quot; (opencode, gemini or auto)</source>
        <translation>未知的估算方式“%1”（应为 opencode、gemini 或 auto）</translation>
    </message>
    <message>
        <source>must be a number of tokens</source>
        <translation>必须是 token 数</translation>
    </message>
    <message>
        <source>no session with ID &quot;%1&quot;</source>
        <translation>没有 ID 为“%1”的会话</translation>
    </message>
    <message>
        <source>this session is in a read-only store; import it into Weft first</source>
        <translation>此会话位于只读存储中；请先将其导入 Weft</translation>
    </message>
    <message>
        <source>the session has no compaction to undo</source>
        <translation>此会话没有可撤销的压缩</translation>
    </message>
    <message>
        <source>the compaction is still running; stop it instead</source>
        <translation>压缩仍在运行；请改为停止它</translation>
    </message>
    <message>
        <source>a prompt was sent after the compaction (message %1); a compaction can only be undone until the next prompt</source>
        <translation>压缩之后已发送了提示词（消息 %1）；压缩只能在下一次发送提示词之前撤销</translation>
    </message>
    <message>
        <source>the agent continued after the compaction (message %1); a compaction can only be undone until the next prompt</source>
        <translation>压缩之后智能体已继续运行（消息 %1）；压缩只能在下一次发送提示词之前撤销</translation>
    </message>
</context>
<context>
    <name>weft::CompactionDialog</name>
    <message>
        <source>&amp;Compact</source>
        <translation>压缩(&amp;C)</translation>
    </message>
    <message>
        <source>~%1 tokens</source>
        <translation>约 %1 token</translation>
    </message>
    <message>
        <source>Compact Session</source>
        <translation>压缩会话</translation>
    </message>
    <message>
        <source>A summary written by the model replaces the conversation so far in its context. The messages stay in the session, dimmed; the compaction can be undone until the next prompt.</source>
        <translation>模型撰写的摘要将在上下文中取代到目前为止的对话。消息仍保留在会话中并以淡色显示；在下一次发送提示词之前，可以撤销压缩。</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Strategy:</source>
        <translation>策略：</translation>
    </message>
    <message>
        <source>Messages to summarise:</source>
        <translation>要摘要的消息：</translation>
    </message>
    <message>
        <source>Messages kept as they are:</source>
        <translation>原样保留的消息：</translation>
    </message>
    <message>
        <source>Old tool outputs to clear:</source>
        <translation>要清除的旧工具输出：</translation>
    </message>
    <message>
        <source>Context now:</source>
        <translation>当前上下文：</translation>
    </message>
    <message>
        <source>Context after (estimated):</source>
        <translation>压缩后的上下文（估计）：</translation>
    </message>
    <message>
        <source>The summary appears here as the model writes it.</source>
        <translation>模型撰写的摘要将显示在这里。</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Working out what a compaction would do…</source>
        <translation>正在计算压缩的效果…</translation>
    </message>
    <message>
        <source>No preview: %1</source>
        <translation>无预览：%1</translation>
    </message>
    <message>
        <source>No model configured</source>
        <translation>未配置模型</translation>
    </message>
    <message>
        <source>%1 (%2 tokens of context)</source>
        <translation>%1（上下文 %2 token）</translation>
    </message>
    <message>
        <source>Summarise the older messages, keep the newest 30% as they are</source>
        <translation>摘要较早的消息，原样保留最新的 30%</translation>
    </message>
    <message>
        <source>Summarise the whole conversation</source>
        <translation>摘要整个对话</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <source>none: clearing is turned off (%1)</source>
        <translation>无：清除已关闭（%1）</translation>
    </message>
    <message numerus="yes">
        <source>%n output(s)</source>
        <translation>
            <numerusform>%n 个输出</numerusform>
        </translation>
    </message>
    <message>
        <source>none: old outputs hold %1, clearing starts above %2</source>
        <translation>无：旧输出占 %1，超过 %2 才会开始清除</translation>
    </message>
    <message>
        <source>(the last reply&apos;s usage)</source>
        <translation>（上一条回复的用量）</translation>
    </message>
    <message>
        <source>(estimated)</source>
        <translation>（估计）</translation>
    </message>
    <message>
        <source>%1% of the usable context</source>
        <translation>可用上下文的 %1%</translation>
    </message>
    <message>
        <source>Cannot compact: %1</source>
        <translation>无法压缩：%1</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Stop the compaction; the session stays as it was</source>
        <translation>停止压缩；会话保持原样</translation>
    </message>
    <message>
        <source>Compacting: %1 is writing the summary…</source>
        <translation>正在压缩：%1 正在撰写摘要…</translation>
    </message>
    <message>
        <source>Compacting: the model is writing the summary…</source>
        <translation>正在压缩：模型正在撰写摘要…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>weft::Composer</name>
    <message>
        <source>Send the prompt into the running reply: the agent reads it after its current step (%1)</source>
        <translation>将提示发送到正在进行的回复中：代理会在当前步骤之后读取 (%1)</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <source>Alt+Enter</source>
        <translation>Alt+Enter</translation>
    </message>
    <message>
        <source>Send the prompt when the reply has ended (%1)</source>
        <translation>回复结束后发送提示 (%1)</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>Steer</source>
        <translation>插入</translation>
    </message>
    <message>
        <source>Ask the agent… (Enter to send, Shift+Enter for a new line)</source>
        <translation>向智能体提问…（Enter 发送，Shift+Enter 换行）</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>The agent that answers: build works on files, plan only reads and plans</source>
        <translation>回答的智能体：build 会修改文件，plan 只读取并制定计划</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>The model that answers</source>
        <translation>回答的模型</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Compact…</source>
        <translation>压缩…</translation>
    </message>
    <message>
        <source>Summarise the conversation so far to free context (shows a preview first)</source>
        <translation>摘要到目前为止的对话以释放上下文（会先显示预览）</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Send the prompt (Enter)</source>
        <translation>发送提示词（Enter）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the reply (Escape)</source>
        <translation>停止回复（Escape）</translation>
    </message>
    <message>
        <source>Copy into Weft to Continue</source>
        <translation>复制到 Weft 以继续</translation>
    </message>
    <message>
        <source>This session belongs to OpenCode. Copy it into Weft&apos;s own sessions to send, fork and compact there; OpenCode&apos;s data is left as it is.</source>
        <translation>此会话属于 OpenCode。将其复制到 Weft 自己的会话中即可发送、分叉和压缩；OpenCode 的数据保持不变。</translation>
    </message>
    <message>
        <source>&amp;Agent:</source>
        <translation>智能体(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>This session is OpenCode&apos;s and read-only here. Copy it into Weft to continue it.</source>
        <translation>此会话属于 OpenCode，在此处为只读。将其复制到 Weft 即可继续。</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>附加…</translation>
    </message>
    <message>
        <source>Attach files, folders or images to the prompt. You can also drop files on the editor, paste an image, or type @ to mention a file of the project.</source>
        <translation>为提示附加文件、文件夹或图像。也可以把文件拖放到编辑器中、粘贴图像，或输入 @ 引用项目中的文件。</translation>
    </message>
    <message>
        <source>Cannot attach “%1”: %2</source>
        <translation>无法附加“%1”：%2</translation>
    </message>
    <message>
        <source>“%1” is attached already.</source>
        <translation>“%1”已经附加。</translation>
    </message>
    <message>
        <source>At most %1 files can be attached to one prompt.</source>
        <translation>一个提示最多可附加 %1 个文件。</translation>
    </message>
    <message>
        <source>Cannot attach “%1”: the images and PDFs of one prompt can be %2 in all.</source>
        <translation>无法附加“%1”：一个提示中的图像和 PDF 合计最多 %2。</translation>
    </message>
    <message>
        <source>Files can only be attached to Weft&apos;s own sessions.</source>
        <translation>只能向 Weft 自己的会话附加文件。</translation>
    </message>
    <message>
        <source>pasted-image.png</source>
        <translation>粘贴的图像.png</translation>
    </message>
    <message>
        <source>pasted-image-%1.png</source>
        <translation>粘贴的图像-%1.png</translation>
    </message>
    <message>
        <source>The pasted image cannot be read.</source>
        <translation>无法读取粘贴的图像。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>移除 %1</translation>
    </message>
    <message>
        <source>Attach Files</source>
        <translation>附加文件</translation>
    </message>
    <message>
        <source>/%1 — %2</source>
        <translation>/%1 — %2</translation>
    </message>
</context>
<context>
    <name>weft::Config</name>
    <message>
        <source>expected %1, found %2</source>
        <translation>应为 %1，实际为 %2</translation>
    </message>
    <message>
        <source>expected a number of 0 or more</source>
        <translation>应为 0 或更大的数字</translation>
    </message>
    <message>
        <source>expected object or string</source>
        <translation>应为对象或字符串</translation>
    </message>
    <message>
        <source>bad file reference: &quot;%1&quot; %2 does not exist</source>
        <translation>错误的文件引用：“%1” %2 不存在</translation>
    </message>
    <message>
        <source>bad file reference: &quot;%1&quot; %2: %3</source>
        <translation>错误的文件引用：“%1” %2：%3</translation>
    </message>
    <message>
        <source>cannot read the model catalogue: %1</source>
        <translation>无法读取模型目录：%1</translation>
    </message>
    <message>
        <source>the model catalogue must be a JSON object</source>
        <translation>模型目录必须是 JSON 对象</translation>
    </message>
    <message>
        <source>the config file does not exist</source>
        <translation>配置文件不存在</translation>
    </message>
    <message>
        <source>cannot read the config file: %1</source>
        <translation>无法读取配置文件：%1</translation>
    </message>
    <message>
        <source>invalid JSON: %1</source>
        <translation>无效的 JSON：%1</translation>
    </message>
    <message>
        <source>the config must be a JSON object</source>
        <translation>配置必须是 JSON 对象</translation>
    </message>
    <message>
        <source>unknown provider &quot;%1&quot;: add it under &quot;provider&quot; in the config</source>
        <translation>未知的提供商“%1”：请在配置的 &quot;provider&quot; 下添加它</translation>
    </message>
    <message>
        <source>provider &quot;%1&quot; is disabled in the config</source>
        <translation>提供商“%1”已在配置中禁用</translation>
    </message>
    <message>
        <source>provider &quot;%1&quot; has no options.baseURL</source>
        <translation>提供商“%1”没有 options.baseURL</translation>
    </message>
    <message>
        <source>no model given for provider &quot;%1&quot;</source>
        <translation>未为提供商“%1”指定模型</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a model: expected provider/model</source>
        <translation>“%1”不是模型：应为 provider/model 格式</translation>
    </message>
    <message>
        <source>cannot create the config folder</source>
        <translation>无法创建配置文件夹</translation>
    </message>
    <message>
        <source>cannot write the config file: %1</source>
        <translation>无法写入配置文件：%1</translation>
    </message>
    <message>
        <source>cannot make the config file private: %1</source>
        <translation>无法将配置文件设为私有：%1</translation>
    </message>
    <message>
        <source>the file is larger than %1 MiB</source>
        <translation>文件大于 %1 MiB</translation>
    </message>
    <message>
        <source>cannot read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>invalid front matter: %1</source>
        <translation>无效的 front matter：%1</translation>
    </message>
    <message>
        <source>OPENCODE_PERMISSION must be a JSON object</source>
        <translation>OPENCODE_PERMISSION 必须是 JSON 对象</translation>
    </message>
    <message>
        <source>unexpected indentation</source>
        <translation>意外的缩进</translation>
    </message>
    <message>
        <source>expected &quot;key: value&quot;</source>
        <translation>应为 &quot;key: value&quot; 格式</translation>
    </message>
    <message>
        <source>unexpected text after the value: &quot;%1&quot;</source>
        <translation>值后面有意外的文本：“%1”</translation>
    </message>
    <message>
        <source>unterminated flow sequence</source>
        <translation>流式序列未结束</translation>
    </message>
    <message>
        <source>unterminated flow mapping</source>
        <translation>流式映射未结束</translation>
    </message>
    <message>
        <source>bad escape in a quoted string</source>
        <translation>带引号的字符串中有错误的转义</translation>
    </message>
    <message>
        <source>unterminated quoted string</source>
        <translation>带引号的字符串未结束</translation>
    </message>
    <message>
        <source>the front matter is not closed with a &quot;---&quot; line</source>
        <translation>front matter 未以 &quot;---&quot; 行结束</translation>
    </message>
    <message>
        <source>bad file reference: &quot;%1&quot; %2 is not a regular file</source>
        <translation>错误的文件引用：“%1” %2 不是普通文件</translation>
    </message>
    <message>
        <source>bad file reference: &quot;%1&quot; %2 is larger than %3 MiB</source>
        <translation>错误的文件引用：“%1” %2 大于 %3 MiB</translation>
    </message>
</context>
<context>
    <name>weft::ConnectServerDialog</name>
    <message>
        <source>&amp;Remember the password</source>
        <translation>记住密码(&amp;R)</translation>
    </message>
    <message>
        <source>Connect to OpenCode Server</source>
        <translation>连接到 OpenCode 服务器</translation>
    </message>
    <message>
        <source>Weft shows the sessions of a running &lt;code&gt;opencode serve&lt;/code&gt;, live, and sends your prompts to it: the agent runs there, with that server&apos;s configuration and files.</source>
        <translation>Weft 实时显示正在运行的 &lt;code&gt;opencode serve&lt;/code&gt; 的会话，并把您的提示发送给它：智能体在那台服务器上运行，使用该服务器的配置和文件。</translation>
    </message>
    <message>
        <source>Server address</source>
        <translation>服务器地址</translation>
    </message>
    <message>
        <source>OPENCODE_SERVER_PASSWORD, if the server has one</source>
        <translation>服务器设置了的话，即 OPENCODE_SERVER_PASSWORD</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Kept in Weft&apos;s settings file, readable only by you</source>
        <translation>保存在 Weft 的设置文件中，只有您可以读取</translation>
    </message>
    <message>
        <source>&amp;Address:</source>
        <translation>地址(&amp;A):</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>密码(&amp;P):</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>Start a server with &lt;code&gt;OPENCODE_SERVER_PASSWORD=… opencode serve --port 4096&lt;/code&gt;.</source>
        <translation>用 &lt;code&gt;OPENCODE_SERVER_PASSWORD=… opencode serve --port 4096&lt;/code&gt; 启动服务器。</translation>
    </message>
    <message>
        <source>The address of the server, e.g. http://127.0.0.1:4096.</source>
        <translation>服务器的地址，例如 http://127.0.0.1:4096。</translation>
    </message>
    <message>
        <source>Weft runs &lt;code&gt;ssh %1&lt;/code&gt; with your keys and ssh config, starts &lt;code&gt;opencode serve&lt;/code&gt; there with a new password, and stops it when you disconnect or quit.</source>
        <translation>Weft 使用你的密钥和 ssh 配置运行 &lt;code&gt;ssh %1&lt;/code&gt;，在那里以新密码启动 &lt;code&gt;opencode serve&lt;/code&gt;，并在你断开连接或退出时停止它。</translation>
    </message>
</context>
<context>
    <name>weft::ContextMeter</name>
    <message>
        <source>%1 tokens</source>
        <translation>%1 token</translation>
    </message>
    <message>
        <source>%1 / %2 tokens (%3%)</source>
        <translation>%1 / %2 token（%3%）</translation>
    </message>
    <message>
        <source>Context: %1 tokens</source>
        <translation>上下文：%1 token</translation>
    </message>
    <message>
        <source>Model limit: %1 tokens</source>
        <translation>模型上限：%1 token</translation>
    </message>
    <message>
        <source>Automatic compaction at %1%</source>
        <translation>在 %1% 时自动压缩</translation>
    </message>
    <message>
        <source>Session cost: %1</source>
        <translation>会话费用：%1</translation>
    </message>
    <message>
        <source>Context usage</source>
        <translation>上下文用量</translation>
    </message>
</context>
<context>
    <name>weft::Core</name>
    <message>
        <source>Shell</source>
        <translation>Shell 命令</translation>
    </message>
    <message>
        <source>Patch</source>
        <translation>补丁</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Write</source>
        <translation>写入</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>Subagent</source>
        <translation>子代理</translation>
    </message>
    <message>
        <source>%1 redirected to %2, another origin: Weft does not send credentials there (give that address instead if you trust it)</source>
        <translation>%1 重定向到另一个来源 %2：Weft 不会把凭据发送到那里（如果信任该地址，请直接填写它）</translation>
    </message>
    <message>
        <source>the ID is empty</source>
        <translation>ID 为空</translation>
    </message>
    <message>
        <source>the ID contains a NUL byte</source>
        <translation>ID 包含 NUL 字节</translation>
    </message>
    <message>
        <source>the ID &quot;%1&quot; contains a path separator or is a relative path</source>
        <translation>ID“%1”包含路径分隔符或是相对路径</translation>
    </message>
    <message>
        <source>the ID contains control characters or is too long</source>
        <translation>ID 包含控制字符或过长</translation>
    </message>
    <message>
        <source>the ID &quot;%1&quot; does not start with &quot;%2&quot;</source>
        <translation>ID“%1”不以“%2”开头</translation>
    </message>
    <message>
        <source>missing (expected %1)</source>
        <translation>缺失（应为 %1）</translation>
    </message>
    <message>
        <source>expected %1, found %2</source>
        <translation>应为 %1，实际为 %2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; does not start with &quot;%2_&quot;</source>
        <translation>“%1”不以“%2_”开头</translation>
    </message>
    <message>
        <source>expected allow, ask or deny, found &quot;%1&quot;</source>
        <translation>应为 allow、ask 或 deny，实际为“%1”</translation>
    </message>
    <message>
        <source>expected &quot;user&quot; or &quot;assistant&quot;, found &quot;%1&quot;</source>
        <translation>应为 &quot;user&quot; 或 &quot;assistant&quot;，实际为“%1”</translation>
    </message>
    <message>
        <source>expected pending, running, completed or error, found &quot;%1&quot;</source>
        <translation>应为 pending、running、completed 或 error，实际为“%1”</translation>
    </message>
</context>
<context>
    <name>weft::DBusNotifier</name>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
</context>
<context>
    <name>weft::Diff</name>
    <message>
        <source>the file no longer matches the change (it was edited since)</source>
        <translation>文件已与该更改不再一致（之后被编辑过）</translation>
    </message>
    <message>
        <source>the file no longer matches the change at line %1 (it was edited since)</source>
        <translation>文件在第 %1 行已与该更改不再一致（之后被编辑过）</translation>
    </message>
</context>
<context>
    <name>weft::DiffTextArea</name>
    <message>
        <source>Diff</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>更改前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>更改后</translation>
    </message>
</context>
<context>
    <name>weft::DiffView</name>
    <message>
        <source>&amp;Next Change</source>
        <translation>下一处更改(&amp;N)</translation>
    </message>
    <message>
        <source>Next change (%1)</source>
        <translation>下一处更改（%1）</translation>
    </message>
    <message>
        <source>&amp;Previous Change</source>
        <translation>上一处更改(&amp;P)</translation>
    </message>
    <message>
        <source>Previous change (%1)</source>
        <translation>上一处更改（%1）</translation>
    </message>
    <message>
        <source>&amp;Unified</source>
        <translation>统一视图(&amp;U)</translation>
    </message>
    <message>
        <source>Unified: removed and added lines one below the other</source>
        <translation>统一视图：删除的行和添加的行上下排列</translation>
    </message>
    <message>
        <source>&amp;Side by Side</source>
        <translation>并排视图(&amp;S)</translation>
    </message>
    <message>
        <source>Side by side: the file before on the left, after on the right</source>
        <translation>并排视图：左侧为更改前的文件，右侧为更改后的文件</translation>
    </message>
    <message>
        <source>Show Anyway</source>
        <translation>仍然显示</translation>
    </message>
    <message>
        <source>Computing the changes…</source>
        <translation>正在计算更改…</translation>
    </message>
    <message>
        <source>Select a file to see its changes.</source>
        <translation>选择一个文件以查看其更改。</translation>
    </message>
    <message>
        <source>Empty file added</source>
        <translation>添加了空文件</translation>
    </message>
    <message>
        <source>No text changes to show</source>
        <translation>没有可显示的文本更改</translation>
    </message>
    <message>
        <source>The file is binary, or too large for its contents to be recorded.</source>
        <translation>此文件是二进制文件，或过大而未记录其内容。</translation>
    </message>
    <message>
        <source>Large file — show anyway?</source>
        <translation>大文件 — 仍然显示吗？</translation>
    </message>
    <message>
        <source>This diff has %1 lines. Showing it may take a moment.</source>
        <translation>此差异有 %1 行。显示可能需要一些时间。</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Change %1 of %2</source>
        <translation>第 %1 处更改，共 %2 处</translation>
    </message>
</context>
<context>
    <name>weft::FindBar</name>
    <message>
        <source>Find in this session…</source>
        <translation>在此会话中查找…</translation>
    </message>
    <message>
        <source>Find in this session</source>
        <translation>在此会话中查找</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <source>Next match (Enter, F3)</source>
        <translation>下一个匹配（Enter、F3）</translation>
    </message>
    <message>
        <source>Find Pre&amp;vious</source>
        <translation>查找上一个(&amp;V)</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter, Shift+F3)</source>
        <translation>上一个匹配（Shift+Enter、Shift+F3）</translation>
    </message>
    <message>
        <source>Close the find bar (Escape)</source>
        <translation>关闭查找栏（Escape）</translation>
    </message>
    <message>
        <source>Find:</source>
        <translation>查找：</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>无匹配</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>weft::MainWindow</name>
    <message>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <source>Find Pre&amp;vious</source>
        <translation>查找上一个(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Copy Text</source>
        <translation>复制文本(&amp;C)</translation>
    </message>
    <message>
        <source>Copy as &amp;Markdown</source>
        <translation>复制为 Markdown(&amp;M)</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <source>Open in New &amp;Tab</source>
        <translation>在新标签页中打开(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Close Tab</source>
        <translation>关闭标签页(&amp;C)</translation>
    </message>
    <message>
        <source>Split &amp;Right</source>
        <translation>向右拆分(&amp;R)</translation>
    </message>
    <message>
        <source>Split &amp;Down</source>
        <translation>向下拆分(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Move Tab to New Window</source>
        <translation>将标签页移到新窗口(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Next Tab</source>
        <translation>下一个标签页(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous Tab</source>
        <translation>上一个标签页(&amp;P)</translation>
    </message>
    <message>
        <source>Sent into the running reply: the agent reads it after its current step</source>
        <translation>已发送到正在进行的回复中：代理会在当前步骤之后读取</translation>
    </message>
    <message>
        <source>Exporting to %1…</source>
        <translation>正在导出到 %1…</translation>
    </message>
    <message>
        <source>&amp;Compact</source>
        <translation>压缩(&amp;C)</translation>
    </message>
    <message>
        <source>Weft cannot see every command this runs, so no rule could allow it.</source>
        <translation>Weft 无法看清这会运行的每一条命令，因此没有规则能允许它。</translation>
    </message>
    <message>
        <source>Allow this and the same again until Weft quits, for this session: %1</source>
        <translation>在此会话中允许此操作及相同操作，直到 Weft 退出：%1</translation>
    </message>
    <message>
        <source>Data: %1</source>
        <translation>数据：%1</translation>
    </message>
    <message>
        <source>Sessions are read from and written to %1</source>
        <translation>会话在 %1 中读取和写入</translation>
    </message>
    <message>
        <source>Damaged files that were skipped; click for the list</source>
        <translation>已跳过的损坏文件；点击查看列表</translation>
    </message>
    <message>
        <source>compact it</source>
        <translation>压缩它</translation>
    </message>
    <message>
        <source>&amp;Undo Compaction</source>
        <translation>撤销压缩(&amp;U)</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n 个问题</numerusform>
        </translation>
    </message>
    <message>
        <source>New Session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>The session could not be created:
%1</source>
        <translation>无法创建会话：
%1</translation>
    </message>
    <message>
        <source>fork it</source>
        <translation>分叉它</translation>
    </message>
    <message>
        <source>Forking…</source>
        <translation>正在分叉…</translation>
    </message>
    <message>
        <source>Forked into “%1”</source>
        <translation>已分叉为“%1”</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>归档</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>Delete the session “%1” with all its messages?</source>
        <translation>删除会话“%1”及其所有消息？</translation>
    </message>
    <message numerus="yes">
        <source>Its %n subagent session(s) will be deleted too.</source>
        <translation>
            <numerusform>其 %n 个子智能体会话也将被删除。</numerusform>
        </translation>
    </message>
    <message>
        <source>This cannot be undone.</source>
        <translation>此操作无法撤销。</translation>
    </message>
    <message>
        <source>Delete Session</source>
        <translation>删除会话</translation>
    </message>
    <message>
        <source>The session could not be deleted:
%1</source>
        <translation>无法删除会话：
%1</translation>
    </message>
    <message>
        <source>Deleted “%1”</source>
        <translation>已删除“%1”</translation>
    </message>
    <message>
        <source>Export Session</source>
        <translation>导出会话</translation>
    </message>
    <message>
        <source>OpenCode export (*.json)</source>
        <translation>OpenCode 导出文件 (*.json)</translation>
    </message>
    <message>
        <source>The session could not be exported:
%1</source>
        <translation>无法导出会话：
%1</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <source>About Weft</source>
        <translation>关于 Weft</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Weft %1&lt;/h3&gt;&lt;p&gt;A desktop home for coding-agent sessions: read, continue, fork and compact them, and review what they changed. Compatible with OpenCode&apos;s data.&lt;/p&gt;&lt;p&gt;Licensed under the GNU General Public License, version 3 or later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Weft %1&lt;/h3&gt;&lt;p&gt;编程智能体会话的桌面之家：阅读、继续、分叉和压缩会话，并审阅它们所做的更改。与 OpenCode 的数据兼容。&lt;/p&gt;&lt;p&gt;根据 GNU 通用公共许可证第 3 版或更高版本授权。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 Retrying in %2 s (attempt %3)…</source>
        <translation>%1 %2 秒后重试（第 %3 次尝试）…</translation>
    </message>
    <message>
        <source>The compaction could not start: %1</source>
        <translation>无法开始压缩：%1</translation>
    </message>
    <message>
        <source>~%1 → ~%2 tokens</source>
        <translation>约 %1 → 约 %2 token</translation>
    </message>
    <message>
        <source>The context is full: compacting it before the agent goes on…</source>
        <translation>上下文已满：正在压缩，之后智能体将继续…</translation>
    </message>
    <message>
        <source>Compacted: the next prompt continues from the summary.</source>
        <translation>已压缩：下一条提示词将从摘要继续。</translation>
    </message>
    <message>
        <source>The compaction was undone: the model reads the whole conversation again.</source>
        <translation>已撤销压缩：模型将重新读取整个对话。</translation>
    </message>
    <message>
        <source>run a command</source>
        <translation>运行命令</translation>
    </message>
    <message>
        <source>change files</source>
        <translation>更改文件</translation>
    </message>
    <message>
        <source>read files</source>
        <translation>读取文件</translation>
    </message>
    <message>
        <source>work outside the project folder</source>
        <translation>在项目文件夹之外工作</translation>
    </message>
    <message>
        <source>repeat the same tool call once more</source>
        <translation>再次重复相同的工具调用</translation>
    </message>
    <message>
        <source>fetch a web page</source>
        <translation>获取网页</translation>
    </message>
    <message>
        <source>start a subagent</source>
        <translation>启动子智能体</translation>
    </message>
    <message>
        <source>use “%1”</source>
        <translation>使用“%1”</translation>
    </message>
    <message>
        <source>The agent asks to %1: %2</source>
        <translation>智能体请求%1：%2</translation>
    </message>
    <message>
        <source>In “%1”: %2</source>
        <translation>在“%1”中：%2</translation>
    </message>
    <message>
        <source>The tool call marked “Needs approval” waits for your answer.</source>
        <translation>标记为“需要批准”的工具调用正在等待你的答复。</translation>
    </message>
    <message>
        <source>Allow &amp;Once</source>
        <translation>仅允许一次(&amp;O)</translation>
    </message>
    <message>
        <source>Allow &amp;Always</source>
        <translation>始终允许(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Deny</source>
        <translation>拒绝(&amp;D)</translation>
    </message>
    <message>
        <source>The conversation was compacted; the next prompt continues from the summary.</source>
        <translation>对话已压缩；下一条提示词将从摘要继续。</translation>
    </message>
    <message>
        <source>The conversation was compacted (%1); the next prompt continues from the summary.</source>
        <translation>对话已压缩（%1）；下一条提示词将从摘要继续。</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) reverted: the files are back as they were before. The next prompt discards them for good.</source>
        <translation>
            <numerusform>已还原 %n 条消息：文件已恢复到之前的状态。下一条提示词会将它们永久丢弃。</numerusform>
        </translation>
    </message>
    <message>
        <source>U&amp;nrevert</source>
        <translation>取消还原(&amp;N)</translation>
    </message>
    <message>
        <source>Copied “%1” into Weft</source>
        <translation>已将“%1”复制到 Weft</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>连接(&amp;C)…</translation>
    </message>
    <message>
        <source>Delete the session “%1” on the OpenCode server %2, with its messages and subagent sessions?

This cannot be undone.</source>
        <translation>删除 OpenCode 服务器 %2 上的会话“%1”及其消息和子智能体会话？

此操作无法撤销。</translation>
    </message>
    <message>
        <source>Compact Session</source>
        <translation>压缩会话</translation>
    </message>
    <message>
        <source>Ask the OpenCode server %1 to summarise this session&apos;s context with the model the session uses? Later prompts continue from the summary; the older messages stay.</source>
        <translation>让 OpenCode 服务器 %1 用本会话所用的模型总结上下文？之后的提示将从总结继续，较早的消息会保留。</translation>
    </message>
    <message>
        <source>Compacting on the server…</source>
        <translation>正在服务器上压缩…</translation>
    </message>
    <message>
        <source>The MCP server “%1” is not available: %2</source>
        <translation>MCP 服务器“%1”不可用：%2</translation>
    </message>
    <message>
        <source>&amp;Reconnect</source>
        <translation>重新连接(&amp;R)</translation>
    </message>
    <message>
        <source>MCP &amp;Settings…</source>
        <translation>MCP 设置(&amp;S)…</translation>
    </message>
    <message>
        <source>This project&apos;s configuration cannot be used, so prompts cannot be sent here until it is fixed: %1</source>
        <translation>无法使用此项目的配置，修复之前无法在此发送提示：%1</translation>
    </message>
    <message>
        <source>Quit Weft</source>
        <translation>退出 Weft</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) are still running here. Quitting stops them; what they wrote so far is kept.</source>
        <translation>
            <numerusform>此窗口中仍有 %n 个会话正在运行。退出会停止它们；已写入的内容会保留。</numerusform>
        </translation>
    </message>
    <message>
        <source>Stop and Quit</source>
        <translation>停止并退出</translation>
    </message>
    <message>
        <source>Keep Window Open</source>
        <translation>保持窗口打开</translation>
    </message>
    <message>
        <source>Import Sessions</source>
        <translation>导入会话</translation>
    </message>
    <message>
        <source>OpenCode export (*.json);;All files (*)</source>
        <translation>OpenCode 导出文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Sessions cannot be imported into a read-only store.</source>
        <translation>无法将会话导入只读存储。</translation>
    </message>
    <message numerus="yes">
        <source>Importing %n file(s)…</source>
        <translation>
            <numerusform>正在导入 %n 个文件…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be imported: %1</source>
        <translation>
            <numerusform>%n 个文件无法导入：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported %n session(s)</source>
        <translation>
            <numerusform>已导入 %n 个会话</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>with %n subagent session(s)</source>
        <translation>
            <numerusform>（含 %n 个子代理会话）</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>Show &amp;Trash</source>
        <translation>显示回收站(&amp;T)</translation>
    </message>
    <message>
        <source>The session could not be restored:
%1</source>
        <translation>无法恢复会话：
%1</translation>
    </message>
    <message>
        <source>Restored “%1”</source>
        <translation>已恢复“%1”</translation>
    </message>
    <message>
        <source>Imported sessions keep only permission rules that deny: %1</source>
        <translation>导入的会话只保留拒绝类的权限规则：%1</translation>
    </message>
</context>
<context>
    <name>weft::Mcp</name>
    <message>
        <source>the server&apos;s event stream was refused: %1</source>
        <translation>服务器的事件流被拒绝：%1</translation>
    </message>
    <message>
        <source>invalid configuration: %1</source>
        <translation>无效的配置：%1</translation>
    </message>
    <message>
        <source>mcp.%1 must be an object</source>
        <translation>mcp.%1 必须是对象</translation>
    </message>
    <message>
        <source>mcp.%1.enabled must be true or false</source>
        <translation>mcp.%1.enabled 必须为 true 或 false</translation>
    </message>
    <message>
        <source>mcp.%1.timeout must be a positive whole number of milliseconds</source>
        <translation>mcp.%1.timeout 必须是以毫秒为单位的正整数</translation>
    </message>
    <message>
        <source>mcp.%1.command must be an array of strings</source>
        <translation>mcp.%1.command 必须是字符串数组</translation>
    </message>
    <message>
        <source>mcp.%1.command must name the program to start</source>
        <translation>mcp.%1.command 必须指定要启动的程序</translation>
    </message>
    <message>
        <source>mcp.%1.environment.%2 must be a string</source>
        <translation>mcp.%1.environment.%2 必须是字符串</translation>
    </message>
    <message>
        <source>mcp.%1.url must be an http or https URL</source>
        <translation>mcp.%1.url 必须是 http 或 https URL</translation>
    </message>
    <message>
        <source>mcp.%1.headers.%2 must be a single-line string</source>
        <translation>mcp.%1.headers.%2 必须是单行字符串</translation>
    </message>
    <message>
        <source>mcp.%1.type must be &quot;local&quot; or &quot;remote&quot;</source>
        <translation>mcp.%1.type 必须为 &quot;local&quot; 或 &quot;remote&quot;</translation>
    </message>
    <message>
        <source>could not start &quot;%1&quot;: %2</source>
        <translation>无法启动“%1”：%2</translation>
    </message>
    <message>
        <source>ignored a line on stdout that is not a JSON-RPC message (%1): %2</source>
        <translation>已忽略标准输出中不是 JSON-RPC 消息的一行（%1）：%2</translation>
    </message>
    <message>
        <source>the server wrote a line longer than %1 MiB on stdout</source>
        <translation>服务器在标准输出中写入了超过 %1 MiB 的一行</translation>
    </message>
    <message>
        <source>the server process crashed</source>
        <translation>服务器进程崩溃了</translation>
    </message>
    <message>
        <source>the server process exited with code %1</source>
        <translation>服务器进程已退出，退出码为 %1</translation>
    </message>
    <message>
        <source>ignored a reply that is not a JSON-RPC message (%1): %2</source>
        <translation>已忽略不是 JSON-RPC 消息的应答（%1）：%2</translation>
    </message>
    <message>
        <source>the server ended the session (%1)</source>
        <translation>服务器结束了会话（%1）</translation>
    </message>
    <message>
        <source>the notification stream ended: %1</source>
        <translation>通知流已结束：%1</translation>
    </message>
    <message>
        <source>the server named an endpoint on another origin: %1</source>
        <translation>服务器指定了其他源上的端点：%1</translation>
    </message>
    <message>
        <source>ignored an event that is not a JSON-RPC message (%1): %2</source>
        <translation>已忽略不是 JSON-RPC 消息的事件（%1）：%2</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation>返回了 HTTP %1：%2</translation>
    </message>
    <message>
        <source>the server ended the event stream</source>
        <translation>服务器结束了事件流</translation>
    </message>
    <message>
        <source>the server speaks MCP protocol version &quot;%1&quot;, which Weft does not support</source>
        <translation>服务器使用的 MCP 协议版本“%1”不受 Weft 支持</translation>
    </message>
    <message>
        <source>failed to get tools: %1</source>
        <translation>获取工具失败：%1</translation>
    </message>
    <message>
        <source>streamable HTTP: %1; SSE: %2</source>
        <translation>Streamable HTTP 出错：%1；SSE 出错：%2</translation>
    </message>
    <message>
        <source>could not list the tools again: %1</source>
        <translation>无法再次列出工具：%1</translation>
    </message>
    <message>
        <source>ignored an answer to a request Weft did not send (id %1)</source>
        <translation>已忽略对 Weft 未发送的请求的应答（id %1）</translation>
    </message>
    <message>
        <source>ignored a message that is neither a request, a notification nor an answer</source>
        <translation>已忽略一条既不是请求、通知也不是应答的消息</translation>
    </message>
    <message>
        <source>ignored a tool without a name</source>
        <translation>已忽略一个没有名称的工具</translation>
    </message>
    <message>
        <source>could not list the prompts: %1</source>
        <translation>无法列出提示词：%1</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; could not give its prompt &quot;%2&quot;: %3</source>
        <translation>MCP 服务器“%1”无法提供其提示词“%2”：%3</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; is not connected</source>
        <translation>MCP 服务器“%1”未连接</translation>
    </message>
    <message>
        <source>could not list the resources: %1</source>
        <translation>无法列出资源：%1</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; could not give its resource %2: %3</source>
        <translation>MCP 服务器“%1”无法提供其资源 %2：%3</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; answered without contents for its resource %2</source>
        <translation>MCP 服务器“%1”未返回其资源 %2 的内容</translation>
    </message>
</context>
<context>
    <name>weft::McpServersPage</name>
    <message>
        <source>MCP servers from the &quot;mcp&quot; key of the configuration. Their tools are offered to the agent as &lt;i&gt;server_tool&lt;/i&gt;.</source>
        <translation>来自配置文件的 MCP 服务器。它们的工具以“服务器名_工具名”的名称提供给代理。</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <source>No MCP servers are configured.</source>
        <translation>未配置 MCP 服务器。</translation>
    </message>
    <message>
        <source>local</source>
        <translation>本地</translation>
    </message>
    <message>
        <source>remote</source>
        <translation>远程</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>正在连接</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已禁用</translation>
    </message>
    <message>
        <source>%1 over %2, connected in %3 ms</source>
        <translation>%1（通过 %2，%3 毫秒内连接）</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>重新连接</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Start a new session with this server (a test of its configuration)</source>
        <translation>与此服务器开始新的会话（测试其配置）</translation>
    </message>
</context>
<context>
    <name>weft::NoticeBar</name>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>weft::OpencodeDb</name>
    <message>
        <source>cannot read OpenCode&apos;s database: %1</source>
        <translation>无法读取 OpenCode 的数据库：%1</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>没有此文件</translation>
    </message>
    <message>
        <source>not a file</source>
        <translation>不是文件</translation>
    </message>
    <message>
        <source>cannot read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>the database file is empty (0 bytes)</source>
        <translation>数据库文件为空（0 字节）</translation>
    </message>
    <message>
        <source>not an SQLite database</source>
        <translation>不是 SQLite 数据库</translation>
    </message>
    <message>
        <source>the database file is truncated (%1 bytes, not even a header)</source>
        <translation>数据库文件被截断（%1 字节，连文件头都不完整）</translation>
    </message>
    <message>
        <source>the database file is truncated (%1 of %2 bytes): it is damaged</source>
        <translation>数据库文件被截断（%1 / %2 字节）：文件已损坏</translation>
    </message>
    <message>
        <source>an empty SQLite database: no OpenCode tables in it</source>
        <translation>空的 SQLite 数据库：其中没有 OpenCode 的表</translation>
    </message>
    <message>
        <source>not an OpenCode database: it has no session table</source>
        <translation>不是 OpenCode 数据库：没有 session 表</translation>
    </message>
    <message>
        <source>; it was written by a newer OpenCode (migration %1) than Weft knows</source>
        <translation>；它由比 Weft 所支持的更新的 OpenCode（迁移 %1）写入</translation>
    </message>
    <message>
        <source>unknown OpenCode database schema: no %1%2</source>
        <translation>未知的 OpenCode 数据库架构：缺少 %1%2</translation>
    </message>
    <message>
        <source>not valid JSON in column %1: %2</source>
        <translation>列 %1 中的 JSON 无效：%2</translation>
    </message>
    <message>
        <source>unexpected shape: %1</source>
        <translation>意外的结构：%1</translation>
    </message>
    <message>
        <source>not valid JSON in column data: %1</source>
        <translation>列 data 中的 JSON 无效：%1</translation>
    </message>
    <message>
        <source>column data does not hold a JSON object</source>
        <translation>列 data 中不是 JSON 对象</translation>
    </message>
    <message>
        <source>OpenCode&apos;s database is read-only in Weft: copy the session into Weft&apos;s own store first (weft import --from-db %1 SESSION_ID)</source>
        <translation>OpenCode 的数据库在 Weft 中为只读：请先将会话复制到 Weft 自己的存储中（weft import --from-db %1 SESSION_ID）</translation>
    </message>
    <message>
        <source>the target store is read-only</source>
        <translation>导入目标存储为只读</translation>
    </message>
    <message>
        <source>no session %1 in %2</source>
        <translation>%2 中没有会话 %1</translation>
    </message>
    <message>
        <source>the database was closed</source>
        <translation>数据库已关闭</translation>
    </message>
    <message>
        <source>Weft is quitting</source>
        <translation>Weft 正在退出</translation>
    </message>
    <message>
        <source>the database connection was lost</source>
        <translation>与数据库的连接已断开</translation>
    </message>
</context>
<context>
    <name>weft::OpencodeSource</name>
    <message>
        <source>OpenCode (%1)</source>
        <translation>OpenCode（%1）</translation>
    </message>
    <message>
        <source>This folder holds no OpenCode sessions (no opencode.db and no storage folder).</source>
        <translation>此文件夹中没有 OpenCode 会话（既没有 opencode.db，也没有 storage 文件夹）。</translation>
    </message>
</context>
<context>
    <name>weft::ProblemsDialog</name>
    <message>
        <source>Problems Found</source>
        <translation>发现的问题</translation>
    </message>
    <message>
        <source>Weft skipped these files because they are damaged. Everything else was loaded. The files were left as they are.</source>
        <translation>以下文件已损坏，Weft 已跳过它们。其他内容均已加载。这些文件保持原样。</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Open Containing Folder</source>
        <translation>打开所在文件夹(&amp;O)</translation>
    </message>
</context>
<context>
    <name>weft::Processor</name>
    <message>
        <source>the %1 is too large to attach (%2; at most %3)</source>
        <translation>%1 太大，无法附加（%2；最大 %3）</translation>
    </message>
    <message>
        <source>image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>cannot attach a binary file (%1): only text files, PNG, JPEG, GIF and WebP images, PDFs and folders can be attached</source>
        <translation>无法附加二进制文件（%1）：只能附加文本文件、PNG、JPEG、GIF 和 WebP 图像、PDF 以及文件夹</translation>
    </message>
    <message>
        <source>an empty path cannot be attached</source>
        <translation>无法附加空路径</translation>
    </message>
    <message>
        <source>the path holds a NUL byte or a line break</source>
        <translation>路径包含 NUL 字节或换行符</translation>
    </message>
    <message>
        <source>no such file or folder</source>
        <translation>没有此文件或文件夹</translation>
    </message>
    <message>
        <source>cannot read the folder: permission denied</source>
        <translation>无法读取文件夹：权限被拒绝</translation>
    </message>
    <message>
        <source>not a regular file or folder (a device, pipe or socket cannot be attached)</source>
        <translation>不是普通文件或文件夹（无法附加设备、管道或套接字）</translation>
    </message>
    <message>
        <source>cannot read the file: %1</source>
        <translation>无法读取文件：%1</translation>
    </message>
    <message>
        <source>not a base64 data: URL</source>
        <translation>不是 base64 的 data: URL</translation>
    </message>
    <message>
        <source>only PNG, JPEG, GIF and WebP images can be pasted (this is %1)</source>
        <translation>只能粘贴 PNG、JPEG、GIF 和 WebP 图像（这是 %1）</translation>
    </message>
    <message>
        <source>of no type</source>
        <translation>无类型数据</translation>
    </message>
    <message>
        <source>the image is too large to attach (at most %1)</source>
        <translation>图像太大，无法附加（最大 %1）</translation>
    </message>
    <message>
        <source>the pasted image is empty or damaged</source>
        <translation>粘贴的图像为空或已损坏</translation>
    </message>
    <message>
        <source>the pasted data is not a %1 image</source>
        <translation>粘贴的数据不是 %1 图像</translation>
    </message>
    <message>
        <source>unknown action &quot;%1&quot; (expected allow, ask or deny)</source>
        <translation>未知的操作“%1”（应为 allow、ask 或 deny）</translation>
    </message>
    <message>
        <source>expected a rule object {permission, pattern, action}</source>
        <translation>应为规则对象 {permission, pattern, action}</translation>
    </message>
    <message>
        <source>missing &quot;permission&quot; (a string)</source>
        <translation>缺少 &quot;permission&quot;（字符串）</translation>
    </message>
    <message>
        <source>&quot;pattern&quot; must be a string</source>
        <translation>&quot;pattern&quot; 必须是字符串</translation>
    </message>
    <message>
        <source>&quot;action&quot; must be allow, ask or deny</source>
        <translation>&quot;action&quot; 必须为 allow、ask 或 deny</translation>
    </message>
    <message>
        <source>expected an object, an array of rules or an action, not %1</source>
        <translation>应为对象、规则数组或操作，而不是 %1</translation>
    </message>
    <message>
        <source>expected an action or an object of pattern: action</source>
        <translation>应为操作或 pattern: action 形式的对象</translation>
    </message>
    <message>
        <source>expected allow, ask or deny</source>
        <translation>应为 allow、ask 或 deny</translation>
    </message>
    <message>
        <source>the project folder does not exist</source>
        <translation>项目文件夹不存在</translation>
    </message>
    <message>
        <source>cannot create the snapshot repository</source>
        <translation>无法创建快照仓库</translation>
    </message>
    <message>
        <source>git init failed: %1</source>
        <translation>git init 失败：%1</translation>
    </message>
    <message>
        <source>git write-tree failed: %1</source>
        <translation>git write-tree 失败：%1</translation>
    </message>
    <message>
        <source>unknown snapshot</source>
        <translation>未知的快照</translation>
    </message>
    <message>
        <source>git diff failed: %1</source>
        <translation>git diff 失败：%1</translation>
    </message>
    <message>
        <source>cannot list the snapshot&apos;s files: %1</source>
        <translation>无法列出快照中的文件：%1</translation>
    </message>
    <message>
        <source>git read-tree failed: %1</source>
        <translation>git read-tree 失败：%1</translation>
    </message>
    <message>
        <source>git checkout-index failed: %1</source>
        <translation>git checkout-index 失败：%1</translation>
    </message>
    <message>
        <source>some files could not be reverted: %1</source>
        <translation>部分文件无法还原：%1</translation>
    </message>
    <message>
        <source>git gc failed: %1</source>
        <translation>git gc 失败：%1</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>应为对象</translation>
    </message>
    <message>
        <source>prompt must be a string</source>
        <translation>prompt 必须是字符串</translation>
    </message>
    <message>
        <source>model must be &quot;provider/model&quot;, found &quot;%1&quot;</source>
        <translation>model 必须为 &quot;provider/model&quot; 格式，实际为“%1”</translation>
    </message>
    <message>
        <source>mode must be primary, subagent or all, found &quot;%1&quot;</source>
        <translation>mode 必须为 primary、subagent 或 all，实际为“%1”</translation>
    </message>
    <message>
        <source>the message is empty</source>
        <translation>消息为空</translation>
    </message>
    <message>
        <source>no session with ID &quot;%1&quot;</source>
        <translation>没有 ID 为“%1”的会话</translation>
    </message>
    <message>
        <source>this session is in a read-only store; import it into Weft first</source>
        <translation>此会话位于只读存储中；请先将其导入 Weft</translation>
    </message>
    <message>
        <source>no command &quot;%1&quot;%2</source>
        <translation>没有命令“%1”%2</translation>
    </message>
    <message>
        <source>; no commands are configured</source>
        <translation>；未配置任何命令</translation>
    </message>
    <message>
        <source>; available: %1</source>
        <translation>；可用命令：%1</translation>
    </message>
    <message>
        <source>unknown agent &quot;%1&quot;</source>
        <translation>未知的智能体“%1”</translation>
    </message>
    <message>
        <source>session %1 is busy</source>
        <translation>会话 %1 正忙</translation>
    </message>
    <message>
        <source>no command &quot;%1&quot;</source>
        <translation>没有命令“%1”</translation>
    </message>
    <message>
        <source>the command /%1 gave an empty prompt</source>
        <translation>命令 /%1 生成了空的提示词</translation>
    </message>
    <message>
        <source>The context is still over the limit after compaction (%1 tokens, %2 usable)</source>
        <translation>压缩后上下文仍超出限制（%1 token，可用 %2）</translation>
    </message>
    <message>
        <source>cannot compact: %1</source>
        <translation>无法压缩：%1</translation>
    </message>
    <message>
        <source>Nothing to compact: the session has no messages</source>
        <translation>没有可压缩的内容：会话中没有消息</translation>
    </message>
    <message>
        <source>Nothing to summarise: the history is too short to keep a tail (no user message to split at)</source>
        <translation>没有可摘要的内容：历史太短，无法保留末尾部分（没有可用于分割的用户消息）</translation>
    </message>
    <message>
        <source>Compaction refused: the summary and the kept messages (~%1 tokens) are not smaller than the history they would replace (~%2 tokens); the history was kept as it was</source>
        <translation>已拒绝压缩：摘要和保留的消息（约 %1 token）并不比它们要替换的历史（约 %2 token）更小；历史保持原样</translation>
    </message>
    <message>
        <source>session &quot;%1&quot; has no message &quot;%2&quot;%3</source>
        <translation>会话“%1”中没有消息“%2”%3</translation>
    </message>
    <message>
        <source> with part &quot;%1&quot;</source>
        <translation> 的部分“%1”</translation>
    </message>
    <message>
        <source>cannot save the current files before reverting: %1</source>
        <translation>还原前无法保存当前文件：%1</translation>
    </message>
    <message>
        <source>cannot restore the files: %1</source>
        <translation>无法恢复文件：%1</translation>
    </message>
    <message>
        <source>the diff names no file</source>
        <translation>差异中没有指明文件</translation>
    </message>
    <message>
        <source>the path &quot;%1&quot; is not a valid file name</source>
        <translation>路径“%1”不是有效的文件名</translation>
    </message>
    <message>
        <source>the session&apos;s directory &quot;%1&quot; does not exist</source>
        <translation>会话的目录“%1”不存在</translation>
    </message>
    <message>
        <source>&quot;%1&quot; goes through a broken symbolic link</source>
        <translation>“%1”经过了一个损坏的符号链接</translation>
    </message>
    <message>
        <source>cannot resolve &quot;%1&quot;</source>
        <translation>无法解析“%1”</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is outside the session&apos;s directory %2; not touching it</source>
        <translation>“%1”位于会话目录 %2 之外；不会改动它</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a folder now; not deleting it</source>
        <translation>“%1”现在是文件夹；不会删除它</translation>
    </message>
    <message>
        <source>cannot delete &quot;%1&quot;</source>
        <translation>无法删除“%1”</translation>
    </message>
    <message>
        <source>the change of &quot;%1&quot; has no text to restore (a binary or very large file)</source>
        <translation>“%1”的更改中没有可恢复的文本（二进制文件或非常大的文件）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a folder now; not replacing it</source>
        <translation>“%1”现在是文件夹；不会替换它</translation>
    </message>
    <message>
        <source>cannot read &quot;%1&quot;: %2</source>
        <translation>无法读取“%1”：%2</translation>
    </message>
    <message>
        <source>cannot create the folder of &quot;%1&quot;</source>
        <translation>无法创建“%1”所在的文件夹</translation>
    </message>
    <message>
        <source>cannot write &quot;%1&quot;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <source>no model configured: set &quot;model&quot; in %1, give --model PROVIDER/MODEL, or export an API key such as ANTHROPIC_API_KEY or OPENAI_API_KEY</source>
        <translation>未配置模型：请在 %1 中设置 &quot;model&quot;、指定 --model PROVIDER/MODEL，或导出 API 密钥，例如 ANTHROPIC_API_KEY 或 OPENAI_API_KEY</translation>
    </message>
    <message>
        <source>template must be a string</source>
        <translation>template 必须是字符串</translation>
    </message>
    <message>
        <source>no processor</source>
        <translation>没有处理器</translation>
    </message>
    <message>
        <source>Weft could not write this session to its data folder (%1), so the run was stopped; everything written before is kept</source>
        <translation>Weft 无法将此会话写入其数据文件夹（%1），因此已停止运行；此前写入的内容均已保留</translation>
    </message>
    <message>
        <source>the snapshot %1 was not made by Weft on this machine for %2 (a session imported from elsewhere names snapshots of another machine); refusing to change files from it</source>
        <translation>快照 %1 不是本机的 Weft 为 %2 创建的（从别处导入的会话引用的是另一台机器的快照）；拒绝据此更改文件</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>refusing to revert: no snapshot can hold the current content of these files (larger than %1 KB, or ignored), so they could not be brought back afterwards: %2</source>
        <translation>拒绝撤销：没有快照能保存这些文件的当前内容（大于 %1 KB 或被忽略），之后将无法恢复：%2</translation>
    </message>
    <message>
        <source>the session&apos;s pending revert names the snapshot %1, which Weft did not make on this machine for %2; refusing to revert from it</source>
        <translation>会话待处理的撤销引用了快照 %1，它不是本机的 Weft 为 %2 创建的；拒绝据此撤销</translation>
    </message>
</context>
<context>
    <name>weft::QuestionDialog</name>
    <message>
        <source>The Agent Asks</source>
        <translation>智能体的提问</translation>
    </message>
    <message>
        <source>Or type your own answer</source>
        <translation>或输入您自己的回答</translation>
    </message>
    <message>
        <source>Your own answer</source>
        <translation>您自己的回答</translation>
    </message>
    <message>
        <source>&amp;Answer</source>
        <translation>回答(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Decline</source>
        <translation>拒绝(&amp;D)</translation>
    </message>
</context>
<context>
    <name>weft::Search</name>
    <message>
        <source>the search index needs SQLite 3.43 or newer; this system has %1</source>
        <translation>搜索索引需要 SQLite 3.43 或更高版本；本系统的版本为 %1</translation>
    </message>
    <message>
        <source>the search index is not open</source>
        <translation>搜索索引未打开</translation>
    </message>
    <message>
        <source>cannot create the folder of the search index</source>
        <translation>无法创建搜索索引的文件夹</translation>
    </message>
    <message>
        <source>cannot open the search index: %1</source>
        <translation>无法打开搜索索引：%1</translation>
    </message>
    <message>
        <source>cannot create the search index: %1</source>
        <translation>无法创建搜索索引：%1</translation>
    </message>
    <message>
        <source>cannot search for &quot;%1&quot;: %2</source>
        <translation>无法搜索“%1”：%2</translation>
    </message>
    <message>
        <source>not an open SQLite connection</source>
        <translation>不是已打开的 SQLite 连接</translation>
    </message>
    <message>
        <source>this SQLite has no FTS5</source>
        <translation>此 SQLite 不支持 FTS5</translation>
    </message>
    <message>
        <source>cannot register the search tokenizer: %1</source>
        <translation>无法注册搜索分词器：%1</translation>
    </message>
    <message>
        <source>this build of Weft has no SQLite C API for its search tokenizer</source>
        <translation>此 Weft 构建版本没有可供搜索分词器使用的 SQLite C API</translation>
    </message>
</context>
<context>
    <name>weft::SearchPanel</name>
    <message>
        <source>Indexing is off: turn it on in Settings › Search.</source>
        <translation>索引已关闭：请在“设置 › 搜索”中开启。</translation>
    </message>
    <message>
        <source>Search All Sessions</source>
        <translation>搜索所有会话</translation>
    </message>
    <message>
        <source>Search every session: words, &quot;a phrase&quot;, prefix*, -excluded</source>
        <translation>搜索每个会话：词语、&quot;短语&quot;、前缀*、-排除</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>Indexing sessions: %1 of %2…</source>
        <translation>正在为会话建立索引：%1 / %2…</translation>
    </message>
    <message>
        <source>The search index is not available.</source>
        <translation>搜索索引不可用。</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>Nothing found for “%1”.</source>
        <translation>未找到“%1”的结果。</translation>
    </message>
    <message numerus="yes">
        <source>%n result(s)</source>
        <translation>
            <numerusform>%n 个结果</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>weft::SearchResultsModel</name>
    <message>
        <source>Session title</source>
        <translation>会话标题</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>reasoning</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>tool call</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>attached file</source>
        <translation>附件</translation>
    </message>
    <message>
        <source>changed files</source>
        <translation>已更改的文件</translation>
    </message>
    <message>
        <source>subtask</source>
        <translation>子任务</translation>
    </message>
    <message>
        <source>agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>retried error</source>
        <translation>已重试的错误</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>Untitled session</source>
        <translation>无标题会话</translation>
    </message>
</context>
<context>
    <name>weft::Server</name>
    <message>
        <source>the server made no worktree</source>
        <translation>服务器未创建工作树</translation>
    </message>
    <message>
        <source>worktrees are not available on this server</source>
        <translation>此服务器不支持工作树</translation>
    </message>
    <message>
        <source>the session does not work in a worktree of the server</source>
        <translation>该会话不在服务器的工作树中工作</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service is not running (its process %1 is gone)</source>
        <translation>OpenCode 服务未在运行（其进程 %1 已不存在）</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file is too large</source>
        <translation>OpenCode 的服务文件过大</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file may be read or changed by others (mode %1, not 600): it is not used</source>
        <translation>OpenCode 的服务文件可被他人读取或修改（模式 %1，而非 600）：不使用它</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file belongs to another user: it is not used</source>
        <translation>OpenCode 的服务文件属于其他用户：不使用它</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file is not a regular file</source>
        <translation>OpenCode 的服务文件不是普通文件</translation>
    </message>
    <message>
        <source>no OpenCode service runs (no %1)</source>
        <translation>没有运行中的 OpenCode 服务（没有 %1）</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file names %1, not an http:// address on this machine (127.0.0.1)</source>
        <translation>OpenCode 的服务文件指向 %1，而不是本机上的 http:// 地址 (127.0.0.1)</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file lacks its url, pid or password</source>
        <translation>OpenCode 的服务文件缺少 url、pid 或 password</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file is not valid JSON</source>
        <translation>OpenCode 的服务文件不是有效的 JSON</translation>
    </message>
    <message>
        <source>the OpenCode server is not connected</source>
        <translation>未连接到 OpenCode 服务器</translation>
    </message>
    <message>
        <source>forms are OpenCode 2&apos;s</source>
        <translation>表单是 OpenCode 2 的功能</translation>
    </message>
    <message>
        <source>steering or queueing a prompt needs an OpenCode 2 server (this is OpenCode %1)</source>
        <translation>引导或排队提示需要 OpenCode 2 服务器（这是 OpenCode %1）</translation>
    </message>
    <message>
        <source>OpenCode %1 is a version Weft does not know (it speaks to OpenCode 1.x and 2.x servers)</source>
        <translation>Weft 不认识 OpenCode %1 这个版本（它支持 OpenCode 1.x 和 2.x 服务器）</translation>
    </message>
    <message>
        <source>this is not an OpenCode server (it has neither /global/health nor /api/health)</source>
        <translation>这不是 OpenCode 服务器（既没有 /global/health 也没有 /api/health）</translation>
    </message>
    <message>
        <source>the request to the OpenCode server was given up</source>
        <translation>已放弃对 OpenCode 服务器的请求</translation>
    </message>
    <message>
        <source>no OpenCode server given</source>
        <translation>未指定 OpenCode 服务器</translation>
    </message>
    <message>
        <source>Weft is quitting</source>
        <translation>Weft 正在退出</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a server address (http://HOST:PORT)</source>
        <translation>“%1”不是服务器地址（http://HOST:PORT）</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: an OpenCode server is reached over http:// or https:// (or ssh://)</source>
        <translation>“%1”：OpenCode 服务器需通过 http:// 或 https://（或 ssh://）访问</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: a server address has no query or fragment</source>
        <translation>“%1”：服务器地址不能包含查询或片段</translation>
    </message>
    <message>
        <source>the OpenCode server did not answer %1 %2 within %3 s</source>
        <translation>OpenCode 服务器未在 %3 秒内响应 %1 %2</translation>
    </message>
    <message>
        <source>cannot reach the OpenCode server: %1</source>
        <translation>无法连接到 OpenCode 服务器：%1</translation>
    </message>
    <message>
        <source>the OpenCode server asks for a password (OPENCODE_SERVER_PASSWORD or --password-file)</source>
        <translation>OpenCode 服务器要求输入密码（OPENCODE_SERVER_PASSWORD 或 --password-file）</translation>
    </message>
    <message>
        <source>the OpenCode server refused the password</source>
        <translation>OpenCode 服务器拒绝了该密码</translation>
    </message>
    <message>
        <source>%1 %2 failed (HTTP %3)%4</source>
        <extracomment>Keep &quot;(HTTP %3)&quot; as it is: health() looks for &quot;(HTTP 404)&quot; in this message.</extracomment>
        <translation>%1 %2 失败 (HTTP %3)%4</translation>
    </message>
    <message>
        <source>%1 %2 answered something that is not JSON (is this an OpenCode server?)</source>
        <translation>%1 %2 返回的内容不是 JSON（这是 OpenCode 服务器吗？）</translation>
    </message>
    <message>
        <source>this is not an OpenCode server (/global/health has no version)</source>
        <translation>这不是 OpenCode 服务器（/global/health 中没有版本）</translation>
    </message>
    <message>
        <source>the sessions of an OpenCode server are changed by the server (through its API), not written by Weft</source>
        <translation>OpenCode 服务器的会话由服务器（通过其 API）修改，而不是由 Weft 写入</translation>
    </message>
    <message>
        <source>a model is named PROVIDER/MODEL, not &quot;%1&quot;</source>
        <translation>模型应写为 PROVIDER/MODEL，而不是“%1”</translation>
    </message>
    <message>
        <source>the session has used no model yet: name one with --model PROVIDER/MODEL</source>
        <translation>此会话尚未使用任何模型：请用 --model PROVIDER/MODEL 指定一个</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an ssh:// address: %2</source>
        <translation>“%1”不是 ssh:// 地址：%2</translation>
    </message>
    <message>
        <source>it does not start with ssh://</source>
        <translation>它不以 ssh:// 开头</translation>
    </message>
    <message>
        <source>it has control characters</source>
        <translation>它包含控制字符</translation>
    </message>
    <message>
        <source>it has a space before the folder</source>
        <translation>文件夹前面有空格</translation>
    </message>
    <message>
        <source>a password does not go in the address (ssh uses your keys and agent)</source>
        <translation>密码不应写在地址中（ssh 会使用您的密钥和 ssh-agent）</translation>
    </message>
    <message>
        <source>an ssh:// address has no query or fragment</source>
        <translation>ssh:// 地址不能包含查询或片段</translation>
    </message>
    <message>
        <source>no host</source>
        <translation>没有主机</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a host name</source>
        <translation>“%1”不是主机名</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a user name</source>
        <translation>“%1”不是用户名</translation>
    </message>
    <message>
        <source>ssh to %1 failed</source>
        <translation>通过 ssh 连接到 %1 失败</translation>
    </message>
</context>
<context>
    <name>weft::ServerSource</name>
    <message>
        <source>OpenCode service %1 · %2</source>
        <translation>OpenCode 服务 %1 · %2</translation>
    </message>
    <message>
        <source>OpenCode service · %1</source>
        <translation>OpenCode 服务 · %1</translation>
    </message>
    <message>
        <source>OpenCode server · %1</source>
        <translation>OpenCode 服务器 · %1</translation>
    </message>
    <message>
        <source>%1 (connecting…)</source>
        <translation>%1（连接中…）</translation>
    </message>
    <message>
        <source>%1 (reconnecting…)</source>
        <translation>%1（重新连接中…）</translation>
    </message>
    <message>
        <source>%1 (not connected)</source>
        <translation>%1（未连接）</translation>
    </message>
</context>
<context>
    <name>weft::Session</name>
    <message>
        <source>the model proposed no message</source>
        <translation>模型未提供消息</translation>
    </message>
    <message>
        <source>no model is configured</source>
        <translation>未配置模型</translation>
    </message>
    <message>
        <source>no session %1</source>
        <translation>没有会话 %1</translation>
    </message>
    <message>
        <source>nothing is queued for session %1</source>
        <translation>会话 %1 没有排队的提示</translation>
    </message>
    <message>
        <source>session %1 is running</source>
        <translation>会话 %1 正在运行</translation>
    </message>
    <message>
        <source>the trash is closed</source>
        <translation>回收站已关闭</translation>
    </message>
    <message>
        <source>an OpenCode server&apos;s sessions have no trash</source>
        <translation>OpenCode 服务器的会话没有回收站</translation>
    </message>
    <message>
        <source>the files of an OpenCode server&apos;s session are on the server</source>
        <translation>OpenCode 服务器会话的文件在服务器上</translation>
    </message>
    <message>
        <source>session %1 is being run by %2</source>
        <translation>会话 %1 正由 %2 运行</translation>
    </message>
    <message>
        <source>session %1 is running; stop it first</source>
        <translation>会话 %1 正在运行；请先停止它</translation>
    </message>
    <message>
        <source>%1 is read-only (an OpenCode database); import the session into Weft&apos;s own store to change it</source>
        <translation>%1 为只读（OpenCode 数据库）；要修改，请将会话导入 Weft 自己的存储</translation>
    </message>
    <message>
        <source>invalid project ID &quot;%1&quot;</source>
        <translation>无效的项目 ID“%1”</translation>
    </message>
    <message>
        <source>no session with ID &quot;%1&quot;</source>
        <translation>没有 ID 为“%1”的会话</translation>
    </message>
    <message>
        <source>a session title cannot be empty</source>
        <translation>会话标题不能为空</translation>
    </message>
    <message>
        <source>session &quot;%1&quot; has no message &quot;%2&quot;</source>
        <translation>会话“%1”中没有消息“%2”</translation>
    </message>
    <message>
        <source>sessions nested more than 64 levels deep (a parentID cycle?)</source>
        <translation>会话嵌套超过 64 层（parentID 存在循环？）</translation>
    </message>
    <message>
        <source>Session not found: %1</source>
        <translation>未找到会话：%1</translation>
    </message>
    <message>
        <source>not a valid session export:
  %1</source>
        <translation>不是有效的会话导出文件：
  %1</translation>
    </message>
    <message>
        <source>the store is read-only</source>
        <translation>存储为只读</translation>
    </message>
    <message>
        <source>cannot open: %1</source>
        <translation>无法打开：%1</translation>
    </message>
    <message>
        <source>the file is larger than 2 GB</source>
        <translation>文件大于 2 GB</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>not valid JSON (%1)</source>
        <translation>不是有效的 JSON（%1）</translation>
    </message>
    <message>
        <source>not a folder</source>
        <translation>不是文件夹</translation>
    </message>
    <message>
        <source>no such folder</source>
        <translation>没有此文件夹</translation>
    </message>
    <message>
        <source>cannot create the data dir</source>
        <translation>无法创建数据文件夹</translation>
    </message>
    <message>
        <source>session %1 is being run by %2; stop it before deleting it</source>
        <translation>会话 %1 正由 %2 运行；请先停止再删除</translation>
    </message>
    <message>
        <source>this process</source>
        <translation>本进程</translation>
    </message>
    <message>
        <source>these sessions have no trash</source>
        <translation>这些会话没有回收站</translation>
    </message>
    <message>
        <source>the restored session cannot be read</source>
        <translation>无法读取恢复的会话</translation>
    </message>
    <message>
        <source>%1 cannot keep the note of an imported session</source>
        <translation>%1 无法保存导入会话的记录</translation>
    </message>
    <message>
        <source>cannot create the folder of imported sessions</source>
        <translation>无法创建导入会话的文件夹</translation>
    </message>
    <message>
        <source>cannot write the note of an imported session: %1</source>
        <translation>无法写入导入会话的记录：%1</translation>
    </message>
    <message>
        <source>session %1 was imported and works in %2, a directory you have not confirmed yet; check that this is the folder you mean, then accept it (`weft session accept %1`, or --accept-directory)</source>
        <translation>会话 %1 是导入的，在尚未确认的目录 %2 中工作；请确认这是你想要的文件夹，然后接受它（`weft session accept %1` 或 --accept-directory）</translation>
    </message>
    <message>
        <source>(no directory)</source>
        <translation>（无目录）</translation>
    </message>
    <message>
        <source>permission rules dropped (%1), as they would have granted what your config may not: %2</source>
        <translation>已丢弃权限规则（%1 条），它们会授予你的配置不允许的权限：%2</translation>
    </message>
</context>
<context>
    <name>weft::SessionDelegate</name>
    <message>
        <source>Not migrated</source>
        <translation>未迁移</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Compacting</source>
        <translation>压缩中</translation>
    </message>
    <message>
        <source>Subagent</source>
        <translation>子智能体</translation>
    </message>
    <message>
        <source>Fork</source>
        <translation>分叉</translation>
    </message>
</context>
<context>
    <name>weft::SessionSidebar</name>
    <message>
        <source>Filter sessions…</source>
        <translation>筛选会话…</translation>
    </message>
    <message>
        <source>Filter sessions</source>
        <translation>筛选会话</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
</context>
<context>
    <name>weft::SessionTreeModel</name>
    <message>
        <source>Weft</source>
        <translation>Weft</translation>
    </message>
    <message>
        <source>%1
Sessions written by version %2</source>
        <translation>%1
由版本 %2 写入的会话</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <source>This Week</source>
        <translation>本周</translation>
    </message>
    <message>
        <source>Older</source>
        <translation>更早</translation>
    </message>
    <message>
        <source>Archived</source>
        <translation>已归档</translation>
    </message>
</context>
<context>
    <name>weft::SessionsModel</name>
    <message>
        <source>Not migrated: OpenCode 2 skipped this OpenCode 1 session and does not list it. Import it into Weft to keep working on it.</source>
        <translation>未迁移：OpenCode 2 跳过了这个 OpenCode 1 会话，不会列出它。将其导入 Weft 以继续使用。</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>全局</translation>
    </message>
</context>
<context>
    <name>weft::SettingsDialog</name>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>For projects that have not chosen yet: each project remembers its last choice.</source>
        <translation>适用于尚未选择的项目：每个项目会记住其上次的选择。</translation>
    </message>
    <message>
        <source>New Session (Folder, Worktree)… offers a new git &amp;worktree first</source>
        <translation>“新建会话（文件夹、工作树）…”默认选择新的 工作树(&amp;W)</translation>
    </message>
    <message>
        <source>While the agent &amp;replies, Enter:</source>
        <translation>代理回复时，Enter(&amp;R)：</translation>
    </message>
    <message>
        <source>Alt+Enter does the other.</source>
        <translation>Alt+Enter 执行另一种方式。</translation>
    </message>
    <message>
        <source>Steers it into the reply at its next step</source>
        <translation>在下一步将其插入回复</translation>
    </message>
    <message>
        <source>Queues the prompt for when the reply ends</source>
        <translation>将提示排队，等回复结束后发送</translation>
    </message>
    <message>
        <source>Configure</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>提供商</translation>
    </message>
    <message>
        <source>Compaction</source>
        <translation>压缩</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <source>This file has comments. Saving here writes it again without them; everything else is kept.</source>
        <translation>此文件包含注释。在此保存会重写该文件并去掉注释；其他内容均会保留。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Add a provider</source>
        <translation>添加提供商</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove the selected provider from the config</source>
        <translation>从配置中移除所选提供商</translation>
    </message>
    <message>
        <source>The name models are referred to by: provider/model</source>
        <translation>引用模型时使用的名称：提供商/模型</translation>
    </message>
    <message>
        <source>The AI SDK package OpenCode uses for this provider. Weft speaks the Anthropic protocol for @ai-sdk/anthropic and the OpenAI-compatible one for the others.</source>
        <translation>OpenCode 为此提供商使用的 AI SDK 包。对于 @ai-sdk/anthropic，Weft 使用 Anthropic 协议；对于其他包，使用 OpenAI 兼容协议。</translation>
    </message>
    <message>
        <source>From the environment</source>
        <translation>来自环境</translation>
    </message>
    <message>
        <source>Stored in the config file</source>
        <translation>保存在配置文件中</translation>
    </message>
    <message>
        <source>From an environment variable</source>
        <translation>来自环境变量</translation>
    </message>
    <message>
        <source>From a file</source>
        <translation>来自文件</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>In $/M</source>
        <translation>输入 $/百万</translation>
    </message>
    <message>
        <source>Out $/M</source>
        <translation>输出 $/百万</translation>
    </message>
    <message>
        <source>Cached $/M</source>
        <translation>缓存读取 $/百万</translation>
    </message>
    <message>
        <source>Cache write $/M</source>
        <translation>缓存写入 $/百万</translation>
    </message>
    <message>
        <source>The model&apos;s ID at the provider</source>
        <translation>模型在提供商处的 ID</translation>
    </message>
    <message>
        <source>Context window, in tokens</source>
        <translation>上下文窗口（token 数）</translation>
    </message>
    <message>
        <source>Longest answer, in tokens</source>
        <translation>最长回答（token 数）</translation>
    </message>
    <message>
        <source>US dollars per million input tokens</source>
        <translation>每百万输入 token 的美元价格</translation>
    </message>
    <message>
        <source>US dollars per million output tokens</source>
        <translation>每百万输出 token 的美元价格</translation>
    </message>
    <message>
        <source>US dollars per million input tokens read from the cache</source>
        <translation>每百万从缓存读取的输入 token 的美元价格</translation>
    </message>
    <message>
        <source>US dollars per million input tokens written to the cache</source>
        <translation>每百万写入缓存的输入 token 的美元价格</translation>
    </message>
    <message>
        <source>Add Model</source>
        <translation>添加模型</translation>
    </message>
    <message>
        <source>Remove Model</source>
        <translation>移除模型</translation>
    </message>
    <message>
        <source>&amp;ID:</source>
        <translation>ID(&amp;I)：</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Package:</source>
        <translation>包(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>基础 URL(&amp;B)：</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <source>Models:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Chosen by Weft from the keys it finds</source>
        <translation>由 Weft 根据找到的密钥选择</translation>
    </message>
    <message>
        <source>A small model of the default model&apos;s provider</source>
        <translation>默认模型所属提供商的小模型</translation>
    </message>
    <message>
        <source>Used for session titles and other small tasks</source>
        <translation>用于生成会话标题和其他小任务</translation>
    </message>
    <message>
        <source>&amp;Default model:</source>
        <translation>默认模型(&amp;D)：</translation>
    </message>
    <message>
        <source>&amp;Small model:</source>
        <translation>小模型(&amp;S)：</translation>
    </message>
    <message>
        <source>Compact &amp;automatically when the context is full</source>
        <translation>上下文已满时自动压缩(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Prune old tool outputs before they fill the context</source>
        <translation>在旧工具输出占满上下文之前将其清除(&amp;P)</translation>
    </message>
    <message>
        <source>Summarize the whole conversation (OpenCode)</source>
        <translation>摘要整个对话（OpenCode）</translation>
    </message>
    <message>
        <source>Summarize the older 70%, keep the newest 30% (Gemini CLI)</source>
        <translation>摘要较早的 70%，保留最新的 30%（Gemini CLI）</translation>
    </message>
    <message>
        <source>Characters ÷ 4 (OpenCode)</source>
        <translation>字符数 ÷ 4（OpenCode）</translation>
    </message>
    <message>
        <source>By kind of character (Gemini CLI; closer for Chinese and Japanese)</source>
        <translation>按字符种类（Gemini CLI；对中文和日文更准确）</translation>
    </message>
    <message>
        <source>The larger of the two</source>
        <translation>两者中较大的一个</translation>
    </message>
    <message>
        <source>The model&apos;s output limit</source>
        <translation>模型的输出上限</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> token</translation>
    </message>
    <message>
        <source>Tokens kept free for the answer when deciding that the context is full</source>
        <translation>判断上下文是否已满时，为回答预留的 token 数</translation>
    </message>
    <message>
        <source>The session&apos;s model</source>
        <translation>会话的模型</translation>
    </message>
    <message>
        <source>&amp;Strategy:</source>
        <translation>策略(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Token estimate:</source>
        <translation>token 估算(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Reserved for the answer:</source>
        <translation>为回答预留(&amp;R)：</translation>
    </message>
    <message>
        <source>Summary &amp;model:</source>
        <translation>摘要模型(&amp;M)：</translation>
    </message>
    <message>
        <source>%1 is set in the environment and overrides these settings.</source>
        <translation>环境中设置了 %1，它会覆盖这些设置。</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Use a &amp;different font for the conversation</source>
        <translation>为对话使用不同的字体(&amp;D)</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> 磅</translation>
    </message>
    <message>
        <source>&amp;Colors:</source>
        <translation>配色(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Font:</source>
        <translation>字体(&amp;F)：</translation>
    </message>
    <message>
        <source>Saved in %1</source>
        <translation>保存在 %1</translation>
    </message>
    <message>
        <source>Weft cannot read its config file, so providers and compaction cannot be changed here until it is fixed: %1</source>
        <translation>Weft 无法读取其配置文件，因此在修复之前无法在此更改提供商和压缩设置：%1</translation>
    </message>
    <message>
        <source>https://example.com/v1</source>
        <translation>https://example.com/v1</translation>
    </message>
    <message>
        <source>No key: for a local server that needs none.</source>
        <translation>无密钥：用于不需要密钥的本地服务器。</translation>
    </message>
    <message>
        <source>Weft reads the key from %1 when it starts.</source>
        <translation>Weft 启动时从 %1 读取密钥。</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>The key is written into the config file, which only you can read. Weft never writes it to its logs.</source>
        <translation>密钥会写入只有你能读取的配置文件。Weft 从不会将其写入日志。</translation>
    </message>
    <message>
        <source>Variable name, such as MY_PROVIDER_API_KEY</source>
        <translation>变量名，例如 MY_PROVIDER_API_KEY</translation>
    </message>
    <message>
        <source>The config file holds {env:VARIABLE}; Weft and OpenCode read the variable when they start.</source>
        <translation>配置文件中保存 {env:VARIABLE}；Weft 和 OpenCode 在启动时读取该变量。</translation>
    </message>
    <message>
        <source>Path of a file that holds the key</source>
        <translation>保存密钥的文件路径</translation>
    </message>
    <message>
        <source>The config file holds {file:path}; the key is read from that file.</source>
        <translation>配置文件中保存 {file:path}；密钥从该文件读取。</translation>
    </message>
    <message>
        <source>A provider ID must not be empty or contain &quot;/&quot; or spaces: &quot;%1&quot;.</source>
        <translation>提供商 ID 不能为空，也不能包含 &quot;/&quot; 或空格：&quot;%1&quot;。</translation>
    </message>
    <message>
        <source>Two providers have the ID &quot;%1&quot;.</source>
        <translation>有两个提供商的 ID 都是 &quot;%1&quot;。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an environment variable name (provider %2).</source>
        <translation>&quot;%1&quot; 不是环境变量名（提供商 %2）。</translation>
    </message>
    <message>
        <source>Give the file that holds the key of provider %1.</source>
        <translation>请指定保存提供商 %1 的密钥的文件。</translation>
    </message>
    <message>
        <source>A model of provider %1 has no ID.</source>
        <translation>提供商 %1 的某个模型没有 ID。</translation>
    </message>
    <message>
        <source>Provider %1 has the model &quot;%2&quot; twice.</source>
        <translation>提供商 %1 中模型 &quot;%2&quot; 出现了两次。</translation>
    </message>
    <message>
        <source>Limits and prices of model %1/%2 must be numbers of 0 or more.</source>
        <translation>模型 %1/%2 的上限和价格必须是大于或等于 0 的数字。</translation>
    </message>
    <message>
        <source>Compaction: %1</source>
        <translation>压缩：%1</translation>
    </message>
    <message>
        <source>The settings were not saved: %1</source>
        <translation>设置未保存：%1</translation>
    </message>
    <message>
        <source>MCP Servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>&amp;Desktop notifications</source>
        <translation>桌面通知(&amp;D)</translation>
    </message>
    <message>
        <source>A notification when a run finishes, fails or needs your answer while Weft&apos;s window is not the active one. Clicking it opens the session.</source>
        <translation>当 Weft 窗口不是活动窗口时，在运行完成、失败或需要你回答时发出通知。点击通知会打开该会话。</translation>
    </message>
</context>
<context>
    <name>weft::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>Find bar</source>
        <translation>查找栏</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>Send the prompt</source>
        <translation>发送提示词</translation>
    </message>
    <message>
        <source>New line in the prompt</source>
        <translation>在提示词中换行</translation>
    </message>
    <message>
        <source>Stop the run</source>
        <translation>停止运行</translation>
    </message>
    <message>
        <source>Earlier prompt of this session (in an empty prompt)</source>
        <translation>此会话的上一条提示词（在空的提示词中）</translation>
    </message>
    <message>
        <source>Later prompt of this session</source>
        <translation>此会话的下一条提示词</translation>
    </message>
    <message>
        <source>Attach a project file or an MCP resource</source>
        <translation>附加项目文件或 MCP 资源</translation>
    </message>
    <message>
        <source>Run a command</source>
        <translation>运行命令</translation>
    </message>
    <message>
        <source>Message menu: copy, fork from here</source>
        <translation>消息菜单：复制、从此处分叉</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Search actions, keys or places…</source>
        <translation>搜索操作、按键或位置…</translation>
    </message>
    <message>
        <source>Search shortcuts</source>
        <translation>搜索快捷键</translation>
    </message>
</context>
<context>
    <name>weft::Store</name>
    <message>
        <source>this store keeps no todo lists</source>
        <translation>此存储不保存待办事项列表</translation>
    </message>
    <message>
        <source>empty storage key</source>
        <translation>存储键为空</translation>
    </message>
    <message>
        <source>refusing unsafe storage key component &quot;%1&quot; (empty, &quot;.&quot;, &quot;..&quot;, a path separator, NUL or control characters)</source>
        <translation>拒绝不安全的存储键组成部分“%1”（空、&quot;.&quot;、&quot;..&quot;、路径分隔符、NUL 或控制字符）</translation>
    </message>
    <message>
        <source>cannot open: %1</source>
        <translation>无法打开：%1</translation>
    </message>
    <message>
        <source>file is %1 MB, larger than any OpenCode record; skipped</source>
        <translation>文件大小为 %1 MB，超过任何 OpenCode 记录；已跳过</translation>
    </message>
    <message>
        <source>file is larger than any OpenCode record; skipped</source>
        <translation>文件超过任何 OpenCode 记录的大小；已跳过</translation>
    </message>
    <message>
        <source>read error: %1</source>
        <translation>读取错误：%1</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>the file holds only NUL bytes (%1 bytes; typically left by a crash during a write)</source>
        <translation>文件只包含 NUL 字节（%1 字节；通常是写入期间崩溃留下的）</translation>
    </message>
    <message>
        <source>not valid JSON (%1)</source>
        <translation>不是有效的 JSON（%1）</translation>
    </message>
    <message>
        <source>cannot write: %1</source>
        <translation>无法写入：%1</translation>
    </message>
    <message>
        <source>write failed: %1</source>
        <translation>写入失败：%1</translation>
    </message>
    <message>
        <source>cannot save: %1</source>
        <translation>无法保存：%1</translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>refusing unsafe storage key component &quot;%1&quot;</source>
        <translation>拒绝不安全的存储键组成部分“%1”</translation>
    </message>
    <message>
        <source>cannot create the folder: %1</source>
        <translation>无法创建文件夹：%1</translation>
    </message>
    <message>
        <source>cannot open the storage folder to flush it</source>
        <translation>无法打开存储文件夹以刷新写入</translation>
    </message>
    <message>
        <source>cannot flush the written files: %1</source>
        <translation>无法刷新已写入的文件：%1</translation>
    </message>
    <message>
        <source>cannot remove: %1</source>
        <translation>无法删除：%1</translation>
    </message>
    <message>
        <source>cannot create the storage folder</source>
        <translation>无法创建存储文件夹</translation>
    </message>
    <message>
        <source>cannot read the migration file: %1</source>
        <translation>无法读取迁移文件：%1</translation>
    </message>
    <message>
        <source>the migration file does not hold a number</source>
        <translation>迁移文件中没有数字</translation>
    </message>
    <message>
        <source>this storage was migrated to version %1 by a newer OpenCode; Weft knows version %2</source>
        <translation>此存储已被更新的 OpenCode 迁移到版本 %1；Weft 支持的是版本 %2</translation>
    </message>
    <message>
        <source>cannot write the migration file: %1</source>
        <translation>无法写入迁移文件：%1</translation>
    </message>
    <message>
        <source>unexpected shape: %1</source>
        <translation>意外的结构：%1</translation>
    </message>
    <message>
        <source>the file name does not match the session ID &quot;%1&quot;</source>
        <translation>文件名与会话 ID“%1”不一致</translation>
    </message>
    <message>
        <source>the message&apos;s id or sessionID does not match its file</source>
        <translation>消息的 id 或 sessionID 与其文件不一致</translation>
    </message>
    <message>
        <source>the part&apos;s id or messageID does not match its file</source>
        <translation>部分的 id 或 messageID 与其文件不一致</translation>
    </message>
    <message>
        <source>expected an array of file diffs</source>
        <translation>应为文件差异数组</translation>
    </message>
    <message>
        <source>not a stream journal of Weft</source>
        <translation>不是 Weft 的流式日志</translation>
    </message>
    <message>
        <source>expected an array of todo items</source>
        <translation>应为待办事项数组</translation>
    </message>
    <message>
        <source>another Weft process</source>
        <translation>另一个 Weft 进程</translation>
    </message>
    <message>
        <source>%1 (an unknown process)</source>
        <extracomment>%1 what runs it (&quot;weft run&quot;), %2 its process ID, %3 its host, %4 since when</extracomment>
        <translation>%1（未知进程）</translation>
    </message>
    <message>
        <source>%1 (process %2 on %3)</source>
        <translation>%1（%3 上的进程 %2）</translation>
    </message>
    <message>
        <source>%1 (process %2 on %3, since %4)</source>
        <translation>%1（%3 上的进程 %2，自 %4 起）</translation>
    </message>
    <message>
        <source>%1 (process %2)</source>
        <translation>%1（进程 %2）</translation>
    </message>
    <message>
        <source>%1 (process %2, since %3)</source>
        <translation>%1（进程 %2，自 %3 起）</translation>
    </message>
    <message>
        <source>cannot create the folder of the session locks</source>
        <translation>无法创建会话锁文件夹</translation>
    </message>
    <message>
        <source>cannot open the session&apos;s lock file: %1</source>
        <translation>无法打开会话的锁文件：%1</translation>
    </message>
    <message>
        <source>cannot lock the session: %1</source>
        <translation>无法锁定会话：%1</translation>
    </message>
    <message>
        <source>session %1 is busy: this process is running it</source>
        <translation>会话 %1 正忙：本进程正在运行它</translation>
    </message>
    <message>
        <source>session %1 is being run by %2; wait for it to finish, or stop it there</source>
        <translation>会话 %1 正由 %2 运行；请等待其完成，或在那里停止它</translation>
    </message>
    <message>
        <source>cannot move to %1: %2</source>
        <translation>无法移动到 %1：%2</translation>
    </message>
    <message>
        <source>cannot create the folder</source>
        <translation>无法创建文件夹</translation>
    </message>
    <message>
        <source>the trash entry has no manifest</source>
        <translation>回收站条目没有清单</translation>
    </message>
    <message>
        <source>cannot read the manifest: %1</source>
        <translation>无法读取清单：%1</translation>
    </message>
    <message>
        <source>the manifest is damaged: %1</source>
        <translation>清单已损坏：%1</translation>
    </message>
    <message>
        <source>invalid session ID &quot;%1&quot;</source>
        <translation>无效的会话 ID“%1”</translation>
    </message>
    <message>
        <source>no sessions</source>
        <translation>没有会话</translation>
    </message>
    <message>
        <source>unexpected file &quot;%1&quot;</source>
        <translation>意外的文件“%1”</translation>
    </message>
    <message>
        <source>no session to move to the trash</source>
        <translation>没有要移到回收站的会话</translation>
    </message>
    <message>
        <source>the session has no file to move</source>
        <translation>该会话没有要移动的文件</translation>
    </message>
    <message>
        <source>cannot create the trash folder</source>
        <translation>无法创建回收站文件夹</translation>
    </message>
    <message>
        <source>cannot create the trash entry</source>
        <translation>无法创建回收站条目</translation>
    </message>
    <message>
        <source>cannot write the trash manifest: %1</source>
        <translation>无法写入回收站清单：%1</translation>
    </message>
    <message numerus="yes">
        <source>moving the session to the trash failed (%1), and %n file(s) could not be moved back; they are in %2</source>
        <translation>
            <numerusform>将会话移到回收站失败（%1），且有 %n 个文件无法移回；它们位于 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>moving the session to the trash failed, nothing was deleted: %1</source>
        <translation>将会话移到回收站失败，未删除任何内容：%1</translation>
    </message>
    <message>
        <source>not a folder</source>
        <translation>不是文件夹</translation>
    </message>
    <message>
        <source>no trash entry &quot;%1&quot;</source>
        <translation>没有回收站条目“%1”</translation>
    </message>
    <message>
        <source>the trash entry is not a folder</source>
        <translation>回收站条目不是文件夹</translation>
    </message>
    <message>
        <source>a session with the ID %1 exists again; delete or rename it before restoring this one</source>
        <translation>ID 为 %1 的会话再次存在；恢复此会话前请先删除或重命名它</translation>
    </message>
    <message>
        <source>the trash entry is damaged: %1</source>
        <translation>回收站条目已损坏：%1</translation>
    </message>
    <message>
        <source>no storage folder</source>
        <translation>没有存储文件夹</translation>
    </message>
    <message>
        <source>refusing to restore outside the storage folder</source>
        <translation>拒绝恢复到存储文件夹之外</translation>
    </message>
    <message>
        <source>the trash entry is incomplete: %1 is missing</source>
        <translation>回收站条目不完整：缺少 %1</translation>
    </message>
    <message>
        <source>%1 is not a plain file</source>
        <translation>%1 不是普通文件</translation>
    </message>
    <message>
        <source>%1 exists in the store again; nothing was restored</source>
        <translation>%1 再次存在于存储中；未恢复任何内容</translation>
    </message>
    <message>
        <source>restoring failed, the session stays in the trash: %1</source>
        <translation>恢复失败，会话仍在回收站中：%1</translation>
    </message>
    <message>
        <source>cannot delete the trash entry</source>
        <translation>无法删除回收站条目</translation>
    </message>
</context>
<context>
    <name>weft::Style</name>
    <message>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message numerus="yes">
        <source>%n min ago</source>
        <translation>
            <numerusform>%n 分钟前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h ago</source>
        <translation>
            <numerusform>%n 小时前</numerusform>
        </translation>
    </message>
    <message>
        <source>yesterday</source>
        <translation>昨天</translation>
    </message>
</context>
<context>
    <name>weft::TimelineDelegate</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Conversation compacted automatically</source>
        <translation>对话已自动压缩</translation>
    </message>
    <message>
        <source>Conversation compacted</source>
        <translation>对话已压缩</translation>
    </message>
    <message>
        <source>Earlier messages are summarised below and no longer sent to the model</source>
        <translation>较早的消息已在下方摘要，不再发送给模型</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 token</translation>
    </message>
    <message>
        <source>Not in context</source>
        <translation>不在上下文中</translation>
    </message>
    <message>
        <source>Compaction summary</source>
        <translation>压缩摘要</translation>
    </message>
    <message>
        <source>Thought for %1</source>
        <translation>思考了 %1</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考中</translation>
    </message>
    <message>
        <source>cleared from context</source>
        <translation>已从上下文清除</translation>
    </message>
    <message>
        <source>Needs approval</source>
        <translation>需要批准</translation>
    </message>
    <message>
        <source>Output — cleared from context</source>
        <translation>输出 — 已从上下文清除</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>(no output)</source>
        <translation>（无输出）</translation>
    </message>
    <message numerus="yes">
        <source>Changed %n file(s): %1</source>
        <translation>
            <numerusform>更改了 %n 个文件：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Retried after an error (attempt %1): %2</source>
        <translation>出错后重试（第 %1 次尝试）：%2</translation>
    </message>
    <message>
        <source>Agent: @%1</source>
        <translation>智能体：@%1</translation>
    </message>
    <message>
        <source>Subtask for @%1: %2</source>
        <translation>给 @%1 的子任务：%2</translation>
    </message>
    <message>
        <source>A part of type “%1” (from a newer OpenCode)</source>
        <translation>类型为“%1”的部分（来自较新的 OpenCode）</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) changed in this turn</source>
        <translation>
            <numerusform>此轮更改了 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>正在处理…</translation>
    </message>
    <message numerus="yes">
        <source>… %n more line(s)</source>
        <translation>
            <numerusform>… 还有 %n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Took %1</source>
        <translation>耗时 %1</translation>
    </message>
    <message>
        <source>Output cleared from context on %1</source>
        <translation>输出已于 %1 从上下文清除</translation>
    </message>
    <message>
        <source>Click to show or hide the input and output</source>
        <translation>点击以显示或隐藏输入和输出</translation>
    </message>
    <message>
        <source>Not in context: this message is before the last compaction and is no longer sent to the model.</source>
        <translation>不在上下文中：此消息位于上一次压缩之前，不再发送给模型。</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>Cost: %1</source>
        <translation>费用：%1</translation>
    </message>
    <message>
        <source>Tokens: %1 in, %2 out, %3 reasoning, %4 cache read, %5 cache write</source>
        <translation>token：输入 %1，输出 %2，推理 %3，缓存读取 %4，缓存写入 %5</translation>
    </message>
    <message>
        <source>Step %1: %2, %3 in, %4 out</source>
        <translation>步骤 %1：%2，输入 %3，输出 %4</translation>
    </message>
    <message>
        <source>Finished: %1</source>
        <translation>结束原因：%1</translation>
    </message>
    <message>
        <source>Click to show or hide the reasoning</source>
        <translation>点击以显示或隐藏推理</translation>
    </message>
    <message>
        <source>pasted data</source>
        <translation>粘贴的数据</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Image (%1)</source>
        <translation>图像（%1）</translation>
    </message>
    <message>
        <source>PDF</source>
        <translation>PDF</translation>
    </message>
    <message>
        <source>Text file</source>
        <translation>文本文件</translation>
    </message>
    <message>
        <source>(the image cannot be shown)</source>
        <translation>（无法显示图像）</translation>
    </message>
    <message>
        <source>Asked to compact the conversation</source>
        <translation>已请求压缩对话</translation>
    </message>
    <message>
        <source>Attached %1</source>
        <translation>已附加 %1</translation>
    </message>
    <message>
        <source>Tool %1: %2</source>
        <translation>工具 %1：%2</translation>
    </message>
    <message>
        <source>Tool %1 (%2): %3</source>
        <translation>工具 %1（%2）：%3</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>Still being written</source>
        <translation>正在写入</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>weft::TimelineView</name>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Select a session in the sidebar, or start a new one.</source>
        <translation>在侧边栏中选择一个会话，或开始新会话。</translation>
    </message>
    <message>
        <source>&amp;Copy Text</source>
        <translation>复制文本(&amp;C)</translation>
    </message>
    <message>
        <source>Copy as &amp;Markdown</source>
        <translation>复制为 Markdown(&amp;M)</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>No messages yet. Write the first one below.</source>
        <translation>还没有消息。在下方写下第一条消息。</translation>
    </message>
    <message>
        <source>&amp;Fork from Here</source>
        <translation>从此处分叉(&amp;F)</translation>
    </message>
    <message>
        <source>A new session with the messages before this one</source>
        <translation>包含此消息之前所有消息的新会话</translation>
    </message>
    <message>
        <source>A new session with the messages up to and including this reply</source>
        <translation>包含截至此回复（含此回复）所有消息的新会话</translation>
    </message>
    <message>
        <source>&amp;Jump to Latest</source>
        <translation>跳到最新(&amp;J)</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <source>Select the text of every loaded message</source>
        <translation>选择所有已加载消息的文本</translation>
    </message>
    <message>
        <source>Copy &amp;Message Text</source>
        <translation>复制消息文本(&amp;M)</translation>
    </message>
    <message>
        <source>Copy Code &amp;Block</source>
        <translation>复制代码块(&amp;B)</translation>
    </message>
</context>
<context>
    <name>weft::TodoPanel</name>
    <message>
        <source>Show or hide the todo list</source>
        <translation>显示或隐藏待办列表</translation>
    </message>
    <message>
        <source>Todo · %1 of %2 done</source>
        <translation>待办 · 已完成 %1/%2</translation>
    </message>
</context>
<context>
    <name>weft::TrashDialog</name>
    <message>
        <source>Trash</source>
        <translation>回收站</translation>
    </message>
    <message>
        <source>Deleted sessions stay here for 30 days, then they are deleted for good.</source>
        <translation>删除的会话会在这里保留 30 天，之后将被永久删除。</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Deleted</source>
        <translation>删除时间</translation>
    </message>
    <message>
        <source>Deleted sessions</source>
        <translation>已删除的会话</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Delete Permanently</source>
        <translation>永久删除(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Empty Trash</source>
        <translation>清空回收站(&amp;E)</translation>
    </message>
    <message>
        <source>(untitled)</source>
        <translation>（无标题）</translation>
    </message>
    <message numerus="yes">
        <source>(+%n subagent session(s))</source>
        <translation>
            <numerusform>（+%n 个子代理会话）</numerusform>
        </translation>
    </message>
    <message>
        <source>This entry cannot be restored: %1</source>
        <translation>无法恢复此条目：%1</translation>
    </message>
    <message>
        <source>The session could not be restored:
%1</source>
        <translation>无法恢复会话：
%1</translation>
    </message>
    <message>
        <source>Delete Permanently</source>
        <translation>永久删除</translation>
    </message>
    <message>
        <source>Delete “%1” for good?

This cannot be undone.</source>
        <translation>要永久删除“%1”吗？

此操作无法撤销。</translation>
    </message>
    <message>
        <source>The session could not be deleted:
%1</source>
        <translation>无法删除会话：
%1</translation>
    </message>
    <message>
        <source>Empty Trash</source>
        <translation>清空回收站</translation>
    </message>
    <message numerus="yes">
        <source>Delete the %n session(s) in the trash for good?</source>
        <translation>
            <numerusform>要永久删除回收站中的 %n 个会话吗？</numerusform>
        </translation>
    </message>
    <message>
        <source>This cannot be undone.</source>
        <translation>此操作无法撤销。</translation>
    </message>
    <message>
        <source>The trash could not be emptied:
%1</source>
        <translation>无法清空回收站：
%1</translation>
    </message>
</context>
<context>
    <name>weft::ErrorWording</name>
    <message>
        <source>Copy into Weft</source>
        <translation>复制到 Weft</translation>
    </message>
    <message>
        <source>This session is read-only. Import it into Weft to continue it.</source>
        <translation>此会话为只读。将其导入 Weft 即可继续。</translation>
    </message>
    <message>
        <source>The imported session&apos;s folder was not accepted; nothing was sent.</source>
        <translation>导入会话的文件夹未被接受，未发送任何内容。</translation>
    </message>
    <message>
        <source>No model is configured, so the prompt cannot be sent. Add a provider and a &quot;model&quot; (&quot;provider/model&quot;) to %1 (OpenCode&apos;s config format), start Weft with --config FILE, or set an API key such as ANTHROPIC_API_KEY or OPENAI_API_KEY.</source>
        <translation>未配置模型，因此无法发送提示词。请在 %1（OpenCode 的配置格式）中添加提供商和 &quot;model&quot;（&quot;provider/model&quot;），或使用 --config FILE 启动 Weft，或设置 API 密钥，例如 ANTHROPIC_API_KEY 或 OPENAI_API_KEY。</translation>
    </message>
    <message>
        <source>The model %1 cannot be used: %2. Configure its provider in %3 (OpenCode&apos;s config format) or choose another model.</source>
        <translation>无法使用模型 %1：%2。请在 %3（OpenCode 的配置格式）中配置其提供商，或选择其他模型。</translation>
    </message>
    <message>
        <source>The provider %1 of the model %2 has no API key. Set %3, or give an &quot;apiKey&quot; in the provider&apos;s &quot;options&quot; in %4, or choose another model.</source>
        <translation>模型 %2 的提供商 %1 没有 API 密钥。请设置 %3，或在 %4 中提供商的 &quot;options&quot; 里提供 &quot;apiKey&quot;，或选择其他模型。</translation>
    </message>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <source>The prompt could not be sent: %1</source>
        <translation>无法发送提示词：%1</translation>
    </message>
    <message>
        <source>Fork</source>
        <translation>分叉</translation>
    </message>
    <message>
        <source>The session could not be forked:
%1</source>
        <translation>无法分叉会话：
%1</translation>
    </message>
    <message>
        <source>The session could not be copied into Weft:
%1</source>
        <translation>无法将会话复制到 Weft：
%1</translation>
    </message>
    <message>
        <source>Undo Compaction</source>
        <translation>撤销压缩</translation>
    </message>
    <message>
        <source>The compaction could not be undone:
%1</source>
        <translation>无法撤销压缩：
%1</translation>
    </message>
    <message>
        <source>Unrevert</source>
        <translation>取消还原</translation>
    </message>
    <message>
        <source>The reverted messages could not be brought back:
%1</source>
        <translation>无法恢复已还原的消息：
%1</translation>
    </message>
    <message>
        <source>Weft cannot connect to the OpenCode server: %1</source>
        <translation>Weft 无法连接到 OpenCode 服务器：%1</translation>
    </message>
    <message>
        <source>The OpenCode server refused: %1</source>
        <translation>OpenCode 服务器拒绝了：%1</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>运行失败。</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>The compaction ended without a summary.</source>
        <translation>压缩结束，但没有生成摘要。</translation>
    </message>
    <message>
        <source>The compaction failed: %1</source>
        <translation>压缩失败：%1</translation>
    </message>
    <message>
        <source>The compaction was cancelled; the session is as it was.</source>
        <translation>压缩已取消；会话保持原样。</translation>
    </message>
    <message>
        <source>The compaction failed; the session is as it was: %1</source>
        <translation>压缩失败；会话保持原样：%1</translation>
    </message>
    <message numerus="yes">
        <source>Closed %n interrupted run(s) whose process ended before finishing; what was written is kept.</source>
        <translation>
            <numerusform>已关闭 %n 个因进程在完成前结束而中断的运行；已写入的内容均已保留。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>weft::WindowActions</name>
    <message>
        <source>Every running or waiting session as a tile, live</source>
        <translation>以磁贴实时显示所有正在运行或等待的会话</translation>
    </message>
    <message>
        <source>Show &amp;Board</source>
        <translation>显示看板(&amp;B)</translation>
    </message>
    <message>
        <source>Run on Several &amp;Models…</source>
        <translation>在多个模型上运行(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Undo Compaction</source>
        <translation>撤销压缩(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;New Session</source>
        <translation>新建会话(&amp;N)</translation>
    </message>
    <message>
        <source>Start a new session in the current session&apos;s folder</source>
        <translation>在当前会话的文件夹中开始新会话</translation>
    </message>
    <message>
        <source>&amp;Fork</source>
        <translation>分叉(&amp;F)</translation>
    </message>
    <message>
        <source>Copy the whole session into a new one, to try another direction</source>
        <translation>将整个会话复制为新会话，以尝试另一个方向</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>重命名(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Archive</source>
        <translation>归档(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the session as an OpenCode export file</source>
        <translation>将会话保存为 OpenCode 导出文件</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>Add sessions from OpenCode export files (or drop the files on the window)</source>
        <translation>从 OpenCode 导出文件添加会话（也可以把文件拖放到窗口上）</translation>
    </message>
    <message>
        <source>Show Data &amp;File</source>
        <translation>显示数据文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open the folder that holds the session&apos;s file</source>
        <translation>打开包含此会话文件的文件夹</translation>
    </message>
    <message>
        <source>&amp;Find in Session…</source>
        <translation>在会话中查找(&amp;F)…</translation>
    </message>
    <message>
        <source>Find text in the open session</source>
        <translation>在打开的会话中查找文本</translation>
    </message>
    <message>
        <source>&amp;Search All Sessions…</source>
        <translation>搜索所有会话(&amp;S)…</translation>
    </message>
    <message>
        <source>Search the text of every session: messages, reasoning, tool calls, files, errors</source>
        <translation>搜索每个会话的文本：消息、推理、工具调用、文件、错误</translation>
    </message>
    <message>
        <source>&amp;Go to Session…</source>
        <translation>转到会话(&amp;G)…</translation>
    </message>
    <message>
        <source>Filter the sessions in the sidebar by title</source>
        <translation>按标题筛选侧边栏中的会话</translation>
    </message>
    <message>
        <source>&amp;Compact…</source>
        <translation>压缩(&amp;C)…</translation>
    </message>
    <message>
        <source>Remove the last compaction&apos;s summary: the model reads the whole conversation again</source>
        <translation>移除上一次压缩的摘要：模型将重新读取整个对话</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Jump to Latest</source>
        <translation>跳到最新(&amp;J)</translation>
    </message>
    <message>
        <source>Show &amp;Sidebar</source>
        <translation>显示侧边栏(&amp;S)</translation>
    </message>
    <message>
        <source>Show &amp;Changes</source>
        <translation>显示更改(&amp;C)</translation>
    </message>
    <message>
        <source>Show &amp;OpenCode Sessions</source>
        <translation>显示 OpenCode 会话(&amp;O)</translation>
    </message>
    <message>
        <source>Show the sessions of OpenCode&apos;s own data folder in the sidebar, read-only and live</source>
        <translation>在侧边栏中显示 OpenCode 自己数据文件夹中的会话（只读，实时更新）</translation>
    </message>
    <message>
        <source>Choose OpenCode &amp;Folder…</source>
        <translation>选择 OpenCode 文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Show the OpenCode sessions of another data folder</source>
        <translation>显示另一个数据文件夹中的 OpenCode 会话</translation>
    </message>
    <message>
        <source>Connect to OpenCode &amp;Server…</source>
        <translation>连接到 OpenCode 服务器(&amp;S)…</translation>
    </message>
    <message>
        <source>Show the sessions of a running OpenCode server and run them there</source>
        <translation>显示正在运行的 OpenCode 服务器的会话并在那里运行它们</translation>
    </message>
    <message>
        <source>&amp;Disconnect from Server</source>
        <translation>断开服务器(&amp;D)</translation>
    </message>
    <message>
        <source>Stop showing the OpenCode server of the selected session</source>
        <translation>不再显示所选会话的 OpenCode 服务器</translation>
    </message>
    <message>
        <source>&amp;Undo Delete</source>
        <translation>撤销删除(&amp;U)</translation>
    </message>
    <message>
        <source>Bring back the session deleted last</source>
        <translation>恢复最后删除的会话</translation>
    </message>
    <message>
        <source>&amp;Trash…</source>
        <translation>回收站(&amp;T)…</translation>
    </message>
    <message>
        <source>The sessions deleted in the last 30 days, to restore them</source>
        <translation>过去 30 天内删除的会话，可以恢复</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Configure Weft…</source>
        <translation>配置 Weft(&amp;C)…</translation>
    </message>
    <message>
        <source>Providers and models, compaction, appearance</source>
        <translation>提供商和模型、压缩、外观</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Weft</source>
        <translation>关于 Weft(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>会话(&amp;S)</translation>
    </message>
    <message>
        <source>Se&amp;ttings</source>
        <translation>设置(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Main Toolbar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Un&amp;archive</source>
        <translation>取消归档(&amp;A)</translation>
    </message>
    <message>
        <source>Move the session back to the list</source>
        <translation>将会话移回列表</translation>
    </message>
    <message>
        <source>Move the session to the Archived group</source>
        <translation>将会话移到“已归档”分组</translation>
    </message>
</context>
<context>
    <name>weft::SourcesPresenter</name>
    <message>
        <source>%1 (its OpenCode service is not used: %2)</source>
        <translation>%1（未使用其 OpenCode 服务：%2）</translation>
    </message>
    <message>
        <source>An OpenCode service is not shown: %1</source>
        <translation>未显示 OpenCode 服务：%1</translation>
    </message>
    <message>
        <source>In “%1”: %2</source>
        <translation>在“%1”中：%2</translation>
    </message>
    <message>
        <source>OpenCode&apos;s sessions are in %1. Show them in the sidebar beside Weft&apos;s? They stay OpenCode&apos;s: Weft reads them live and never changes them.</source>
        <translation>OpenCode 的会话位于 %1。要在侧边栏中将它们与 Weft 的会话一起显示吗？它们仍属于 OpenCode：Weft 只实时读取，从不更改它们。</translation>
    </message>
    <message>
        <source>&amp;Show OpenCode Sessions</source>
        <translation>显示 OpenCode 会话(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Not Now</source>
        <translation>暂不(&amp;N)</translation>
    </message>
    <message>
        <source>OpenCode Sessions</source>
        <translation>OpenCode 会话</translation>
    </message>
    <message>
        <source>OpenCode&apos;s sessions in %1 cannot be shown:
%2</source>
        <translation>无法显示 %1 中的 OpenCode 会话：
%2</translation>
    </message>
    <message>
        <source>OpenCode&apos;s Data Folder</source>
        <translation>OpenCode 的数据文件夹</translation>
    </message>
    <message>
        <source>OpenCode&apos;s data: %1 (%2)</source>
        <translation>OpenCode 的数据：%1（%2）</translation>
    </message>
    <message>
        <source>“%1” is one of OpenCode&apos;s sessions: Weft shows it but never writes to OpenCode&apos;s data. To %2, copy it into Weft&apos;s own sessions first; the copy opens in the Weft list.</source>
        <translation>“%1”是 OpenCode 的会话：Weft 会显示它，但从不写入 OpenCode 的数据。要%2，请先将其复制到 Weft 自己的会话中；副本将在 Weft 列表中打开。</translation>
    </message>
    <message>
        <source>Copy into Weft</source>
        <translation>复制到 Weft</translation>
    </message>
    <message>
        <source>&amp;Copy into Weft</source>
        <translation>复制到 Weft(&amp;C)</translation>
    </message>
    <message>
        <source>Copying into Weft…</source>
        <translation>正在复制到 Weft…</translation>
    </message>
    <message>
        <source>Connect to OpenCode Server</source>
        <translation>连接到 OpenCode 服务器</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Connected to OpenCode %1 at %2</source>
        <translation>已连接到 %2 上的 OpenCode %1</translation>
    </message>
    <message>
        <source>The connection to %1 dropped (%2); reconnecting…</source>
        <translation>与 %1 的连接已断开（%2）；正在重新连接…</translation>
    </message>
    <message>
        <source>The agent asks: %1</source>
        <translation>智能体提问：%1</translation>
    </message>
    <message numerus="yes">
        <source>The agent asks %n question(s).</source>
        <translation>
            <numerusform>智能体提出了 %n 个问题。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Answer…</source>
        <translation>回答(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Decline</source>
        <translation>拒绝(&amp;D)</translation>
    </message>
</context>
<context>
    <name>weft::Worktree</name>
    <message>
        <source>cannot read the commits of %1</source>
        <translation>无法读取 %1 的提交</translation>
    </message>
    <message>
        <source>cannot copy the uncommitted changes of %1 into %2: %3</source>
        <translation>无法将 %1 的未提交更改复制到 %2：%3</translation>
    </message>
    <message>
        <source>%1 is not in a linked worktree of %2</source>
        <translation>%1 不在 %2 的链接工作树中</translation>
    </message>
    <message>
        <source>the setup script %1 failed (exit code %2); the worktree %3 stays:
%4</source>
        <translation>设置脚本 %1 失败（退出码 %2）；工作树 %3 保留：
%4</translation>
    </message>
    <message numerus="yes">
        <source>the setup script %1 did not finish in %n minute(s); the worktree %2 stays</source>
        <translation>
            <numerusform>设置脚本 %1 未在 %n 分钟内完成；工作树 %2 保留</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot run the setup script %1: %2</source>
        <translation>无法运行设置脚本 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>%1 has %n uncommitted change(s)</source>
        <translation>
            <numerusform>%1 有 %n 处未提交的更改</numerusform>
        </translation>
    </message>
    <message>
        <source>the main checkout %1 has uncommitted changes: commit or stash them first</source>
        <translation>主检出 %1 有未提交的更改：请先提交或储藏它们</translation>
    </message>
    <message>
        <source>the main checkout %1 has no branch checked out</source>
        <translation>主检出 %1 没有检出分支</translation>
    </message>
    <message>
        <source>the folder for worktrees must be an absolute path: %1</source>
        <translation>工作树的文件夹必须是绝对路径：%1</translation>
    </message>
    <message>
        <source>the branch %1 exists already</source>
        <translation>分支 %1 已存在</translation>
    </message>
    <message>
        <source>no folder %1</source>
        <translation>没有文件夹 %1</translation>
    </message>
    <message>
        <source>cannot stage the changes of %1</source>
        <translation>无法暂存 %1 的更改</translation>
    </message>
    <message>
        <source>cannot remove %1</source>
        <translation>无法删除 %1</translation>
    </message>
    <message>
        <source>cannot record the base of %1</source>
        <translation>无法记录 %1 的基准</translation>
    </message>
    <message>
        <source>cannot rebase %1 onto %2</source>
        <translation>无法将 %1 变基到 %2 上</translation>
    </message>
    <message>
        <source>cannot read the state of %1</source>
        <translation>无法读取 %1 的状态</translation>
    </message>
    <message>
        <source>cannot read the changes of %1</source>
        <translation>无法读取 %1 的更改</translation>
    </message>
    <message>
        <source>cannot merge %1</source>
        <translation>无法合并 %1</translation>
    </message>
    <message>
        <source>cannot make the worktree %1</source>
        <translation>无法创建工作树 %1</translation>
    </message>
    <message>
        <source>cannot make the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>cannot list the worktrees</source>
        <translation>无法列出工作树</translation>
    </message>
    <message>
        <source>cannot commit in %1</source>
        <translation>无法在 %1 中提交</translation>
    </message>
    <message>
        <source>cannot bring %1 into %2</source>
        <translation>无法将 %1 并入 %2</translation>
    </message>
    <message>
        <source>cannot apply the changes of %1</source>
        <translation>无法应用 %1 的更改</translation>
    </message>
    <message>
        <source>a commit needs a message</source>
        <translation>提交需要提交信息</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a commit</source>
        <translation>“%1”不是提交</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a commit of %2</source>
        <translation>“%1”不是 %2 的提交</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot name a worktree: use up to 64 letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, starting with a letter, digit or &apos;_&apos;</source>
        <translation>“%1”不能用作工作树名：请使用最多 64 个字母、数字、“.”、“_”和“-”，并以字母、数字或“_”开头</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot name a worktree</source>
        <translation>“%1”不能用作工作树名</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot name a branch</source>
        <translation>“%1”不能用作分支名</translation>
    </message>
    <message>
        <source>%1: a bare repository has no checkout to work in</source>
        <translation>%1：裸仓库没有可工作的检出</translation>
    </message>
    <message>
        <source>%1 is the main checkout</source>
        <translation>%1 是主检出</translation>
    </message>
    <message>
        <source>%1 is not in a git repository</source>
        <translation>%1 不在 git 仓库中</translation>
    </message>
    <message>
        <source>%1 is not a worktree of %2</source>
        <translation>%1 不是 %2 的工作树</translation>
    </message>
    <message>
        <source>%1 has nothing to commit</source>
        <translation>%1 没有可提交的内容</translation>
    </message>
    <message>
        <source>%1 has no recorded base commit</source>
        <translation>%1 没有记录的基准提交</translation>
    </message>
    <message>
        <source>%1 has no branch to merge</source>
        <translation>%1 没有可合并的分支</translation>
    </message>
    <message>
        <source>%1 exists already</source>
        <translation>%1 已存在</translation>
    </message>
</context>
<context>
    <name>weft::QueuedPromptsView</name>
    <message>
        <source>Remove from the queue</source>
        <translation>从队列中移除</translation>
    </message>
    <message>
        <source>Send later</source>
        <translation>稍后发送</translation>
    </message>
    <message>
        <source>Send earlier</source>
        <translation>提前发送</translation>
    </message>
    <message>
        <source>Queued prompt %1</source>
        <translation>排队的提示 %1</translation>
    </message>
    <message>
        <source>Queued (%1): waiting, as the last reply did not finish</source>
        <translation>队列 (%1)：上一次回复未完成，正在等待</translation>
    </message>
    <message>
        <source>Queued (%1): sent one by one when the reply has ended</source>
        <translation>队列 (%1)：回复结束后逐条发送</translation>
    </message>
    <message>
        <source>Send the first queued prompt now</source>
        <translation>立即发送队列中的第一条提示</translation>
    </message>
    <message>
        <source>Send Next</source>
        <translation>发送下一条</translation>
    </message>
</context>
<context>
    <name>weft::BestOfDialog</name>
    <message>
        <source>%1 at once, %2 waiting for a free place</source>
        <translation>同时运行 %1 个，%2 个等待空位</translation>
    </message>
    <message>
        <source>all runs at once</source>
        <translation>全部同时运行</translation>
    </message>
    <message>
        <source>Model of run %1</source>
        <translation>运行 %1 的模型</translation>
    </message>
    <message>
        <source>Remove this run</source>
        <translation>移除此次运行</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Test command:</source>
        <translation>测试命令(&amp;T)：</translation>
    </message>
    <message>
        <source>Run with sh in each worktree when its run has finished; exit code 0 passes</source>
        <translation>每次运行结束后在其工作树中用 sh 执行；退出码为 0 即通过</translation>
    </message>
    <message>
        <source>e.g. make test (optional)</source>
        <translation>例如 make test(可选)</translation>
    </message>
    <message>
        <source>At &amp;once:</source>
        <translation>同时运行(&amp;O)：</translation>
    </message>
    <message>
        <source>&amp;Models:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>Another run, on the same model or another one (up to %1)</source>
        <translation>再添加一次运行，使用相同或其他模型(最多 %1 次)</translation>
    </message>
    <message>
        <source>&amp;Add a Run</source>
        <translation>添加一次运行(&amp;A)</translation>
    </message>
    <message>
        <source>A&amp;gent:</source>
        <translation>代理(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Prompt:</source>
        <translation>提示(&amp;P)：</translation>
    </message>
    <message>
        <source>What every run is asked</source>
        <translation>发给每次运行的提示</translation>
    </message>
    <message>
        <source>Each run gets a git worktree and a session of its own. When they have finished, compare their changes and test results, and keep one.</source>
        <translation>每次运行都有自己的 git 工作树和会话。全部结束后，比较它们的更改和测试结果，保留其中一个。</translation>
    </message>
    <message>
        <source>Run on Several Models</source>
        <translation>在多个模型上运行</translation>
    </message>
</context>
<context>
    <name>weft::BestOfView</name>
    <message>
        <source>&amp;Stop and Close</source>
        <translation>停止并关闭(&amp;S)</translation>
    </message>
    <message>
        <source>Closing stops the runs that have not ended. Their worktrees and sessions stay.</source>
        <translation>关闭会停止尚未结束的运行。它们的工作树和会话会保留。</translation>
    </message>
    <message>
        <source>Stop the Runs</source>
        <translation>停止运行</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Run %1 applied to the main checkout; the other worktrees were removed.</source>
        <translation>已将运行 %1 应用到主检出，其他工作树已移除。</translation>
    </message>
    <message>
        <source>Run %1 applied; not removed: %2</source>
        <translation>已应用运行 %1；未能移除：%2</translation>
    </message>
    <message>
        <source>Run %1 conflicts with the main checkout in: %2. The other worktrees were kept.</source>
        <translation>运行 %1 与主检出存在冲突：%2。其他工作树已保留。</translation>
    </message>
    <message>
        <source>Applying run %1…</source>
        <translation>正在应用运行 %1…</translation>
    </message>
    <message>
        <source>&amp;Keep and Remove the Others</source>
        <translation>保留并移除其他(&amp;K)</translation>
    </message>
    <message>
        <source>Apply the work of run %1 (%2) to the main checkout %3, and remove the worktrees of the other runs (%4)? Their branches stay.</source>
        <translation>将运行 %1(%2)的成果%3应用到主检出，并移除其他运行的工作树(%4 个)吗？它们的分支会保留。</translation>
    </message>
    <message>
        <source>Keep Run %1</source>
        <translation>保留运行 %1</translation>
    </message>
    <message>
        <source>Kept</source>
        <translation>已保留</translation>
    </message>
    <message>
        <source>Collecting its changes…</source>
        <translation>正在收集更改…</translation>
    </message>
    <message>
        <source>No changes</source>
        <translation>无更改</translation>
    </message>
    <message>
        <source>Tests fail (exit %1)</source>
        <translation>测试失败(退出码 %1)</translation>
    </message>
    <message>
        <source>Tests timed out</source>
        <translation>测试超时</translation>
    </message>
    <message>
        <source>Tests pass</source>
        <translation>测试通过</translation>
    </message>
    <message>
        <source>Not tested</source>
        <translation>未测试</translation>
    </message>
    <message>
        <source>No test command</source>
        <translation>无测试命令</translation>
    </message>
    <message>
        <source>Files: %1  +%2 −%3</source>
        <translation>文件：%1  +%2 −%3</translation>
    </message>
    <message>
        <source>%1 tokens · %2</source>
        <translation>%1 个令牌 · %2</translation>
    </message>
    <message>
        <source>%1 running, %2 waiting (at most %3 at once)</source>
        <translation>%1 个运行中，%2 个等待中(最多同时 %3 个)</translation>
    </message>
    <message>
        <source>All runs ended: keep one</source>
        <translation>所有运行均已结束：请保留一个</translation>
    </message>
    <message>
        <source>Run %1 kept</source>
        <translation>已保留运行 %1</translation>
    </message>
    <message>
        <source>Keep run %1</source>
        <translation>保留运行 %1</translation>
    </message>
    <message>
        <source>&amp;Keep This One</source>
        <translation>保留这个(&amp;K)</translation>
    </message>
    <message>
        <source>Files changed by run %1</source>
        <translation>运行 %1 更改的文件</translation>
    </message>
    <message>
        <source>Test output of run %1</source>
        <translation>运行 %1 的测试输出</translation>
    </message>
    <message>
        <source>Show the test command&apos;s last lines</source>
        <translation>显示测试命令的最后几行</translation>
    </message>
    <message>
        <source>Open the session of run %1</source>
        <translation>打开运行 %1 的会话</translation>
    </message>
    <message>
        <source>Open its session in the main window</source>
        <translation>在主窗口中打开其会话</translation>
    </message>
    <message>
        <source>Keep a run&apos;s work in the main checkout &amp;by:</source>
        <translation>将运行的成果带入主检出的方式(&amp;B)：</translation>
    </message>
    <message>
        <source>by rebasing its branch</source>
        <translation>变基其分支</translation>
    </message>
    <message>
        <source>by merging its branch</source>
        <translation>合并其分支</translation>
    </message>
    <message>
        <source>as uncommitted changes</source>
        <translation>作为未提交的更改</translation>
    </message>
    <message>
        <source>Show &amp;Tiles</source>
        <translation>显示磁贴(&amp;T)</translation>
    </message>
    <message>
        <source>Keep Run</source>
        <translation>保留运行</translation>
    </message>
    <message>
        <source>Run %1 was not applied: %2</source>
        <translation>运行 %1 未被应用：%2</translation>
    </message>
    <message>
        <source>&amp;Stop All</source>
        <translation>全部停止(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>比较(&amp;C)</translation>
    </message>
    <message>
        <source>Best of %1: %2</source>
        <translation>%1 选一：%2</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Finished, checking…</source>
        <translation>已完成，正在检查…</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Making its worktree…</source>
        <translation>正在创建工作树…</translation>
    </message>
    <message>
        <source>Waiting for a free place</source>
        <translation>正在等待空位</translation>
    </message>
</context>
<context>
    <name>weft::BestOfLauncher</name>
    <message>
        <source>Send a prompt to several models, each in a worktree of its own, and keep the best</source>
        <translation>将提示发送给多个模型，各自在自己的工作树中运行，保留最好的一个</translation>
    </message>
    <message>
        <source>The session&apos;s folder is not in a git repository: each run needs a worktree</source>
        <translation>会话的文件夹不在 git 仓库中：每次运行都需要一个工作树</translation>
    </message>
    <message>
        <source>Looking for the session&apos;s git repository…</source>
        <translation>正在查找会话的 git 仓库…</translation>
    </message>
    <message>
        <source>Open a session of Weft&apos;s own, in a git repository, to run its prompt on several models</source>
        <translation>要在多个模型上运行提示，请打开 git 仓库中的 Weft 自有会话</translation>
    </message>
</context>
<context>
    <name>weft::ApplyWorktreeDialog</name>
    <message>
        <source>Files in conflict (%1)</source>
        <translation>有冲突的文件（%1）</translation>
    </message>
    <message>
        <source>Files in conflict</source>
        <translation>有冲突的文件</translation>
    </message>
    <message numerus="yes">
        <source>Not applied: %n file(s) conflict. Nothing was changed: the main checkout and the worktree are as they were. Resolve it in the worktree, or apply as uncommitted changes.</source>
        <translation>
            <numerusform>未应用：%n 个文件冲突。没有任何更改：主检出和工作树保持原样。请在工作树中解决，或作为未提交的更改应用。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Applied with conflicts in %n file(s): they hold conflict markers in the main checkout; resolve them there.</source>
        <translation>
            <numerusform>已应用，但 %n 个文件有冲突：它们在主检出中带有冲突标记；请在那里解决。</numerusform>
        </translation>
    </message>
    <message>
        <source>Applied: the main checkout has the work of %1.</source>
        <translation>已应用：主检出包含 %1 的工作。</translation>
    </message>
    <message>
        <source>Applied: the main checkout has the changes of %1, not committed.</source>
        <translation>已应用：主检出包含 %1 的更改，未提交。</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>未应用：%1</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>Applying…</source>
        <translation>正在应用…</translation>
    </message>
    <message>
        <source>Files (%1)</source>
        <translation>文件（%1）</translation>
    </message>
    <message>
        <source>Commits (%1)</source>
        <translation>提交（%1）</translation>
    </message>
    <message>
        <source>Commits (%1, their changes come as uncommitted ones)</source>
        <translation>提交（%1，其更改作为未提交的更改带入）</translation>
    </message>
    <message>
        <source>Its branch has no commits since it was made: there is nothing to merge.</source>
        <translation>其分支自创建以来没有提交：没有可合并的内容。</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) changed in the worktree are not committed: merging or rebasing leaves them behind (commit them first, or apply as uncommitted changes).</source>
        <translation>
            <numerusform>工作树中有 %n 个已更改的文件未提交：合并或变基会将其留下（请先提交，或作为未提交的更改应用）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The main checkout has uncommitted changes: merging and rebasing need it clean (commit or stash them first).</source>
        <translation>主检出有未提交的更改：合并和变基需要干净的状态（请先提交或暂存）。</translation>
    </message>
    <message>
        <source>Not committed in the worktree</source>
        <translation>在工作树中未提交</translation>
    </message>
    <message>
        <source>Bring the work of %1 (%2) into the main checkout %3, on %4.</source>
        <translation>将 %1（%2）的工作带入主检出 %3（%4 分支）。</translation>
    </message>
    <message>
        <source>Bring the work of %1 (%2) into the main checkout %3.</source>
        <translation>将 %1（%2）的工作带入主检出 %3。</translation>
    </message>
    <message>
        <source>What %1 holds cannot be read: %2</source>
        <translation>无法读取 %1 的内容：%2</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>应用(&amp;A)</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Commits</source>
        <translation>提交</translation>
    </message>
    <message>
        <source>Apply everything as &amp;uncommitted changes (committed or not)</source>
        <translation>将所有内容作为未提交的更改应用(&amp;U)（无论是否已提交）</translation>
    </message>
    <message>
        <source>&amp;Rebase its branch onto the main checkout&apos;s, then fast-forward</source>
        <translation>将其分支变基到主检出的分支上，然后快进(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Merge its branch (a merge commit; uncommitted changes stay behind)</source>
        <translation>合并其分支(&amp;M)（合并提交；未提交的更改留下）</translation>
    </message>
    <message>
        <source>How</source>
        <translation>方式</translation>
    </message>
    <message>
        <source>Reading what %1 holds…</source>
        <translation>正在读取 %1 的内容…</translation>
    </message>
    <message>
        <source>Apply to Main Checkout</source>
        <translation>应用到主检出</translation>
    </message>
</context>
<context>
    <name>weft::CommitWorktreeDialog</name>
    <message>
        <source>Not committed: %1</source>
        <translation>未提交：%1</translation>
    </message>
    <message>
        <source>Committing…</source>
        <translation>正在提交…</translation>
    </message>
    <message>
        <source>No message was proposed: %1</source>
        <translation>未提议消息：%1</translation>
    </message>
    <message>
        <source>The model&apos;s proposal was not put in: you had started writing.</source>
        <translation>您已开始输入，因此未填入模型的提议。</translation>
    </message>
    <message>
        <source>Proposed by the session&apos;s model: edit it as you like.</source>
        <translation>由会话的模型提议：可随意编辑。</translation>
    </message>
    <message>
        <source>&amp;Commit</source>
        <translation>提交(&amp;C)</translation>
    </message>
    <message>
        <source>The session&apos;s model is writing a message…</source>
        <translation>会话的模型正在撰写消息…</translation>
    </message>
    <message>
        <source>The commit message</source>
        <translation>提交消息</translation>
    </message>
    <message>
        <source>Commit everything %1 holds, new files too, on %2.</source>
        <translation>将 %1 中的所有内容（包括新文件）提交到 %2。</translation>
    </message>
    <message>
        <source>Commit in Worktree</source>
        <translation>在工作树中提交</translation>
    </message>
</context>
<context>
    <name>weft::NewSessionDialog</name>
    <message>
        <source>Looking for the folder&apos;s git repository…</source>
        <translation>正在查找文件夹的 git 仓库…</translation>
    </message>
    <message>
        <source>The folder is in no git repository: the session works in the folder itself.</source>
        <translation>该文件夹不在 git 仓库中：会话在文件夹本身中工作。</translation>
    </message>
    <message>
        <source>On a new branch: %1</source>
        <translation>在新分支上：%1</translation>
    </message>
    <message>
        <source>Run the &amp;setup script %1 there</source>
        <translation>在那里运行设置脚本 %1(&amp;S)</translation>
    </message>
    <message>
        <source>Run the setup script (the repository has no %1)</source>
        <translation>运行设置脚本（仓库中没有 %1）</translation>
    </message>
    <message>
        <source>Folder for Worktrees</source>
        <translation>工作树的文件夹</translation>
    </message>
    <message>
        <source>Folder of the New Session</source>
        <translation>新会话的文件夹</translation>
    </message>
    <message>
        <source>&amp;Create</source>
        <translation>创建(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Put it in:</source>
        <translation>放在(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>文件夹(&amp;F)：</translation>
    </message>
    <message>
        <source>B&amp;rowse…</source>
        <translation>浏览(&amp;R)…</translation>
    </message>
    <message>
        <source>The session works on a branch of its own in a copy of the repository, and its work comes back when you apply it (Session › Worktree).</source>
        <translation>会话在仓库副本中自己的分支上工作，应用后其工作会带回（会话 › 工作树）。</translation>
    </message>
    <message>
        <source>In a new git &amp;worktree</source>
        <translation>在新的 工作树中(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>New Session</source>
        <translation>新建会话</translation>
    </message>
</context>
<context>
    <name>weft::WorktreePresenter</name>
    <message>
        <source>The server makes the worktree…</source>
        <translation>服务器正在创建工作树…</translation>
    </message>
    <message>
        <source>The server is not connected any more.</source>
        <translation>服务器已不再连接。</translation>
    </message>
    <message>
        <source>The server makes a new worktree of this session&apos;s project and starts a session there.
Name of the worktree (empty: the server names it):</source>
        <translation>服务器会为此会话的项目创建一个新工作树并在其中启动会话。
工作树名称（留空则由服务器命名）：</translation>
    </message>
    <message>
        <source>New Session in a Server Worktree</source>
        <translation>在服务器工作树中新建会话</translation>
    </message>
    <message>
        <source>Not available on this server</source>
        <translation>此服务器上不可用</translation>
    </message>
    <message>
        <source>The fork works in %1</source>
        <translation>分叉在 %1 中工作</translation>
    </message>
    <message>
        <source>Fork the Worktree</source>
        <translation>分叉工作树</translation>
    </message>
    <message>
        <source>Forking the worktree %1…</source>
        <translation>正在分叉工作树 %1…</translation>
    </message>
    <message>
        <source>Fork &amp;Worktree</source>
        <translation>分叉工作树(&amp;W)</translation>
    </message>
    <message>
        <source>The session works in the worktree %1 (%2). Give the fork a worktree of its own? It is made from that worktree&apos;s last commit, with its uncommitted changes copied. Otherwise the fork works in the same folder.</source>
        <translation>该会话在工作树 %1（%2）中工作。要为分叉创建自己的工作树吗？它将基于该工作树的最新提交创建，并复制其未提交的更改。否则分叉将在同一文件夹中工作。</translation>
    </message>
    <message>
        <source>Fork the Worktree Too?</source>
        <translation>也分叉工作树吗？</translation>
    </message>
    <message>
        <source>No terminal program was found: set TERMINAL to the one you use.</source>
        <translation>未找到终端程序：请将 TERMINAL 设置为您使用的终端。</translation>
    </message>
    <message>
        <source>%1 could not be started.</source>
        <translation>无法启动 %1。</translation>
    </message>
    <message>
        <source>Open in Terminal</source>
        <translation>在终端中打开</translation>
    </message>
    <message>
        <source>Its branch %1 stays, with its commits.</source>
        <translation>其分支 %1 及其提交会保留。</translation>
    </message>
    <message>
        <source>Remove the worktree %1? Its folder is deleted.</source>
        <translation>删除工作树 %1？其文件夹将被删除。</translation>
    </message>
    <message numerus="yes">
        <source>%1 has %n uncommitted change(s), which are lost when it is removed. Remove it anyway?</source>
        <translation>
            <numerusform>%1 有 %n 处未提交的更改，删除后将丢失。仍要删除吗？</numerusform>
        </translation>
    </message>
    <message>
        <source>Removed the worktree %1</source>
        <translation>已删除工作树 %1</translation>
    </message>
    <message>
        <source>Not removed</source>
        <translation>未删除</translation>
    </message>
    <message>
        <source>Remove the server&apos;s worktree %1? The server deletes its folder and its branch.</source>
        <translation>删除服务器的工作树 %1？服务器会删除其文件夹和分支。</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <source>Remove Worktree</source>
        <translation>删除工作树</translation>
    </message>
    <message>
        <source>Committed %1 on %2</source>
        <translation>已在 %2 上提交 %1</translation>
    </message>
    <message>
        <source>Applied to the main checkout</source>
        <translation>已应用到主检出</translation>
    </message>
    <message>
        <source>New session in %1</source>
        <translation>在 %1 中新建会话</translation>
    </message>
    <message>
        <source>The session could not be created:
%1</source>
        <translation>无法创建会话：
%1</translation>
    </message>
    <message>
        <source>New Session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>Making the worktree %1…</source>
        <translation>正在创建工作树 %1…</translation>
    </message>
    <message>
        <source>Making the worktree %1 and running its setup script…</source>
        <translation>正在创建工作树 %1 并运行其设置脚本…</translation>
    </message>
    <message>
        <source>&amp;Worktree (%1)</source>
        <translation>工作树（%1）(&amp;W)</translation>
    </message>
    <message>
        <source>Not while the session runs</source>
        <translation>会话运行时不可用</translation>
    </message>
    <message>
        <source>The session does not work in a worktree (File › New Session (Folder, Worktree)… makes one)</source>
        <translation>该会话不在工作树中工作（文件 › 新建会话（文件夹、工作树）… 可创建）</translation>
    </message>
    <message>
        <source>Not available for OpenCode&apos;s sessions: copy the session into Weft first</source>
        <translation>对 OpenCode 的会话不可用：请先将会话复制到 Weft</translation>
    </message>
    <message>
        <source>Not available on this server: its files are the server&apos;s</source>
        <translation>此服务器上不可用：其文件在服务器上</translation>
    </message>
    <message>
        <source>&amp;Worktree</source>
        <translation>工作树(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Remove Worktree…</source>
        <translation>删除工作树(&amp;R)…</translation>
    </message>
    <message>
        <source>Open in &amp;File Manager</source>
        <translation>在文件管理器中打开(&amp;F)</translation>
    </message>
    <message>
        <source>Open in &amp;Terminal</source>
        <translation>在终端中打开(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Commit…</source>
        <translation>提交(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Apply to Main Checkout…</source>
        <translation>应用到主检出(&amp;A)…</translation>
    </message>
    <message>
        <source>A new session in a folder you choose, or in a new git worktree</source>
        <translation>在您选择的文件夹或新的 工作树中新建会话</translation>
    </message>
    <message>
        <source>New Session (&amp;Folder, Worktree)…</source>
        <translation>新建会话（文件夹、工作树）(&amp;F)…</translation>
    </message>
</context>
<context>
    <name>weft::BoardView</name>
    <message>
        <source>Runs in another process</source>
        <translation>在另一个进程中运行</translation>
    </message>
    <message>
        <source>%1 ended</source>
        <translation>%1 个已结束</translation>
    </message>
    <message>
        <source>%1 waiting for you</source>
        <translation>%1 个等待你处理</translation>
    </message>
    <message>
        <source>%1 running</source>
        <translation>%1 个运行中</translation>
    </message>
    <message>
        <source>Dismiss &amp;All Ended</source>
        <translation>移除所有已结束的(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Dismiss</source>
        <translation>移除(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Stop Run</source>
        <translation>停止运行(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>By title</source>
        <translation>按标题</translation>
    </message>
    <message>
        <source>By cost</source>
        <translation>按费用</translation>
    </message>
    <message>
        <source>By time</source>
        <translation>按时间</translation>
    </message>
    <message>
        <source>By state</source>
        <translation>按状态</translation>
    </message>
    <message>
        <source>Sort the board</source>
        <translation>排序看板</translation>
    </message>
    <message>
        <source>Running sessions</source>
        <translation>正在运行的会话</translation>
    </message>
    <message>
        <source>None of these sessions is running</source>
        <translation>这些会话都没有在运行</translation>
    </message>
    <message>
        <source>No session is running</source>
        <translation>没有正在运行的会话</translation>
    </message>
    <message>
        <source>Nothing written yet</source>
        <translation>尚无输出</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个令牌</translation>
    </message>
    <message>
        <source>Queued prompts: %1</source>
        <translation>排队的提示：%1</translation>
    </message>
    <message>
        <source>Stopped by you.</source>
        <translation>已由你停止。</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>运行失败。</translation>
    </message>
    <message>
        <source>⚑ %1</source>
        <translation>⚑ %1</translation>
    </message>
    <message>
        <source>⚑ %1 (+%2 more)</source>
        <translation>⚑ %1（另有 %2 项）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Thinking: %1</source>
        <translation>思考中：%1</translation>
    </message>
    <message>
        <source>%1 · branch %2</source>
        <translation>%1 · 分支 %2</translation>
    </message>
    <message>
        <source>branch %1</source>
        <translation>分支 %1</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Needs approval</source>
        <translation>需要批准</translation>
    </message>
    <message>
        <source>Asks you</source>
        <translation>在提问</translation>
    </message>
</context>
<context>
    <name>weft::Board</name>
    <message>
        <source>Board</source>
        <translation>看板</translation>
    </message>
</context>
<context>
    <name>weft::SessionPane</name>
    <message numerus="yes">
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <source>archived</source>
        <translation>已归档</translation>
    </message>
    <message>
        <source>%1 (arguments: %2)</source>
        <translation>%1（参数：%2）</translation>
    </message>
    <message numerus="yes">
        <source>+%1 −%2 in %n file(s)</source>
        <translation>
            <numerusform>%n 个文件中 +%1 −%2</numerusform>
        </translation>
    </message>
    <message>
        <source>This session is being run by %1. It follows live here; fork it to work on it meanwhile.</source>
        <translation>此会话正由 %1 运行。此处会实时跟随显示；如需同时继续工作，请派生此会话。</translation>
    </message>
    <message>
        <source>No Session</source>
        <translation>无会话</translation>
    </message>
</context>
<context>
    <name>weft::PaneArea</name>
    <message>
        <source>Split &amp;Right</source>
        <translation>向右拆分(&amp;R)</translation>
    </message>
    <message>
        <source>Split &amp;Down</source>
        <translation>向下拆分(&amp;D)</translation>
    </message>
    <message>
        <source>Move to New &amp;Window</source>
        <translation>移到新窗口(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Close Tab</source>
        <translation>关闭标签页(&amp;C)</translation>
    </message>
</context>
<context>
    <name>weft::PaneGroup</name>
    <message>
        <source>Open sessions</source>
        <translation>打开的会话</translation>
    </message>
</context>
<context>
    <name>weft::IndexingGuest</name>
    <message>
        <source>Filter sessions…</source>
        <translation>筛选会话…</translation>
    </message>
    <message>
        <source>Indexing %L1/%L2…</source>
        <translation>正在索引 %L1/%L2…</translation>
    </message>
</context>
<context>
    <name>weft::SearchSettingsPage</name>
    <message>
        <source>&amp;Index sessions for search</source>
        <translation>为搜索建立会话索引(&amp;I)</translation>
    </message>
    <message>
        <source>Index &amp;tool outputs (their first and last few KB, each once per session)</source>
        <translation>索引工具输出(&amp;T)（开头和结尾的几千字节，相同输出每个会话只索引一次）</translation>
    </message>
    <message>
        <source>all sessions</source>
        <translation>所有会话</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <source>Only sessions updated within</source>
        <translation>仅限在此期间内更新的会话</translation>
    </message>
    <message>
        <source>Only these project folders</source>
        <translation>仅限这些项目文件夹</translation>
    </message>
    <message>
        <source>Every project (one folder per line)</source>
        <translation>所有项目（每行一个文件夹）</translation>
    </message>
    <message>
        <source>Never these project folders</source>
        <translation>排除这些项目文件夹</translation>
    </message>
    <message>
        <source>None (one folder per line)</source>
        <translation>无（每行一个文件夹）</translation>
    </message>
    <message>
        <source>The index is built in the background at idle priority and waits while a session runs or you type. Turning it off keeps the index file as it is; turning it on again goes on from there. Sessions outside these limits are dropped from it.</source>
        <translation>索引在后台以最低优先级建立，会话运行或您输入时会暂停。关闭后索引文件保持原样；再次开启时从中断处继续。超出这些限制的会话会从索引中移除。</translation>
    </message>
    <message>
        <source>Only sessions updated within:</source>
        <translation>仅限在此期间内更新的会话：</translation>
    </message>
    <message>
        <source>Only these project folders:</source>
        <translation>仅限这些项目文件夹：</translation>
    </message>
    <message>
        <source>Never these project folders:</source>
        <translation>排除这些项目文件夹：</translation>
    </message>
</context>
</TS>

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja" sourcelanguage="en">
<context>
    <name>ImportedDirectory</name>
    <message>
        <source>Imported Session</source>
        <translation>インポートしたセッション</translation>
    </message>
    <message>
        <source>“%1” was imported from a file. It works in this folder, which the file chose:

%2

The agent will read, change and run commands there, and a revert changes files there. Use this folder?</source>
        <translation>「%1」はファイルからインポートされました。このセッションは、ファイルが指定した次のフォルダーで作業します:

%2

エージェントはそこでファイルを読み、変更し、コマンドを実行します。取り消しもそこでファイルを変更します。このフォルダーを使用しますか?</translation>
    </message>
    <message>
        <source>(no folder)</source>
        <translation>(フォルダーなし)</translation>
    </message>
    <message>
        <source>&amp;Use This Folder</source>
        <translation>このフォルダーを使用(&amp;U)</translation>
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
        <translation>Weft はデータフォルダーを開けません:
%1</translation>
    </message>
    <message>
        <source>Weft cannot use its configuration, so prompts cannot be sent until it is fixed:
%1</source>
        <translation>Weft は設定を使用できないため、設定が修正されるまでプロンプトを送信できません:
%1</translation>
    </message>
</context>
<context>
    <name>weft::AttentionInbox</name>
    <message>
        <source>Sessions that wait for your answer, runs that failed and runs that finished; click for the list</source>
        <translation>回答を待っているセッション、失敗した実行、終了した実行。クリックすると一覧を表示します</translation>
    </message>
    <message>
        <source>Asks to %1: %2</source>
        <translation>%1 の許可を求めています: %2</translation>
    </message>
    <message>
        <source>“%1” waits for your permission</source>
        <translation>「%1」が許可を待っています</translation>
    </message>
    <message>
        <source>Asks: %1</source>
        <translation>質問: %1</translation>
    </message>
    <message numerus="yes">
        <source>Asks %n question(s).</source>
        <translation>
            <numerusform>%n 件の質問があります。</numerusform>
        </translation>
    </message>
    <message>
        <source>“%1” asks you</source>
        <translation>「%1」から質問があります</translation>
    </message>
    <message>
        <source>The run finished.</source>
        <translation>実行が終了しました。</translation>
    </message>
    <message>
        <source>“%1” finished</source>
        <translation>「%1」が終了しました</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>実行に失敗しました。</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>実行に失敗しました: %1</translation>
    </message>
    <message>
        <source>“%1” failed</source>
        <translation>「%1」が失敗しました</translation>
    </message>
    <message>
        <source>A sub-agent of “%1”. %2</source>
        <translation>「%1」のサブエージェント。%2</translation>
    </message>
    <message>
        <source>⚑ %1 waiting · %2 finished</source>
        <translation>⚑ %1 件が待機中 · %2 件が終了</translation>
    </message>
    <message numerus="yes">
        <source>⚑ %n waiting</source>
        <translation>
            <numerusform>⚑ %n 件が待機中</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n finished</source>
        <translation>
            <numerusform>%n 件が終了</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) for you to look at</source>
        <translation>
            <numerusform>確認が必要なセッション %n 件</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>weft::AttentionPanel</name>
    <message>
        <source>Nothing waits for you.</source>
        <translation>待っているものはありません。</translation>
    </message>
    <message>
        <source>Waiting for you</source>
        <translation>あなたを待っています</translation>
    </message>
    <message>
        <source>Sessions waiting for you</source>
        <translation>あなたを待っているセッション</translation>
    </message>
    <message>
        <source>%1 (sub-agent of “%2”)</source>
        <translation>%1 (「%2」のサブエージェント)</translation>
    </message>
</context>
<context>
    <name>weft::ChangesPane</name>
    <message>
        <source>Worktree vs base: %1</source>
        <translation>ワークツリーと基点の差分: %1</translation>
    </message>
    <message>
        <source>No changes in the worktree since its base commit.</source>
        <translation>基点のコミット以降、ワークツリーに変更はありません。</translation>
    </message>
    <message>
        <source>Everything the worktree %1 changed since its base commit, committed or not</source>
        <translation>ワークツリー %1 が基点のコミット以降に変更したすべて (コミット済みかどうかを問わず)</translation>
    </message>
    <message>
        <source>Worktree</source>
        <translation>ワークツリー</translation>
    </message>
    <message>
        <source>the session is running</source>
        <translation>セッションは実行中です</translation>
    </message>
    <message>
        <source>A</source>
        <comment>added file</comment>
        <translation>追</translation>
    </message>
    <message>
        <source>D</source>
        <comment>deleted file</comment>
        <translation>削</translation>
    </message>
    <message>
        <source>M</source>
        <comment>modified file</comment>
        <translation>変</translation>
    </message>
    <message numerus="yes">
        <source>  and %n more file(s)</source>
        <translation>
            <numerusform>  ほか %n 個のファイル</numerusform>
        </translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>変更</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>セッション</translation>
    </message>
    <message>
        <source>Everything the session changed</source>
        <translation>セッションが加えたすべての変更</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>ターン</translation>
    </message>
    <message>
        <source>What one turn changed: click “files changed” under a message of yours</source>
        <translation>1 ターンの変更: 自分のメッセージの下にある「ファイルの変更」をクリックします</translation>
    </message>
    <message>
        <source>Revert This &amp;File…</source>
        <translation>このファイルを元に戻す(&amp;F)…</translation>
    </message>
    <message>
        <source>Put the selected file back as it was before the change</source>
        <translation>選択したファイルを変更前の状態に戻します</translation>
    </message>
    <message>
        <source>Revert This &amp;Turn…</source>
        <translation>このターンを元に戻す(&amp;T)…</translation>
    </message>
    <message>
        <source>Undo the turn&apos;s file changes and hide it with the messages after it</source>
        <translation>このターンによるファイルの変更を取り消し、ターンとそれ以降のメッセージを非表示にします</translation>
    </message>
    <message>
        <source>&amp;Restore Reverted Changes…</source>
        <translation>元に戻した変更を復元(&amp;R)…</translation>
    </message>
    <message>
        <source>Bring back the files and messages of the reverted turn</source>
        <translation>元に戻したターンのファイルとメッセージを復元します</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>元に戻す</translation>
    </message>
    <message>
        <source>Revert a file or the turn</source>
        <translation>ファイルまたはターンを元に戻します</translation>
    </message>
    <message>
        <source>Changed files</source>
        <translation>変更されたファイル</translation>
    </message>
    <message>
        <source>No file changes in this session.</source>
        <translation>このセッションではファイルは変更されていません。</translation>
    </message>
    <message>
        <source>Next File</source>
        <translation>次のファイル</translation>
    </message>
    <message>
        <source>Previous File</source>
        <translation>前のファイル</translation>
    </message>
    <message>
        <source>What the turn changed</source>
        <translation>ターンによる変更</translation>
    </message>
    <message>
        <source>What the turn “%1” changed</source>
        <translation>ターン「%1」による変更</translation>
    </message>
    <message>
        <source>No file changes in this turn.</source>
        <translation>このターンではファイルは変更されていません。</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), +%1 −%2</source>
        <translation>
            <numerusform>%n 個のファイル、+%1 −%2</numerusform>
        </translation>
    </message>
    <message>
        <source>This turn: %1</source>
        <translation>このターン: %1</translation>
    </message>
    <message>
        <source>“%1”: %2</source>
        <translation>「%1」: %2</translation>
    </message>
    <message>
        <source>Not reverting “%1”: %2</source>
        <translation>「%1」は元に戻しません: %2</translation>
    </message>
    <message>
        <source>“%1” did not exist before this change: it will be deleted.</source>
        <translation>「%1」はこの変更の前には存在しませんでした。削除されます。</translation>
    </message>
    <message>
        <source>“%1” was deleted by this change: it will be created again with its old contents.</source>
        <translation>「%1」はこの変更で削除されました。以前の内容で再作成されます。</translation>
    </message>
    <message>
        <source>“%1” will get its contents from before this change back (%2 added and %3 removed lines undone).</source>
        <translation>「%1」の内容がこの変更の前の状態に戻ります (追加された %2 行と削除された %3 行を取り消し)。</translation>
    </message>
    <message>
        <source>Revert this file?

%1

Changed on disk, in %2:
%3

Changes made to the file since are lost.</source>
        <translation>このファイルを元に戻しますか？

%1

ディスク上で変更されるファイル (%2 内):
%3

その後にファイルに加えた変更は失われます。</translation>
    </message>
    <message>
        <source>Revert File</source>
        <translation>ファイルを元に戻す</translation>
    </message>
    <message>
        <source>&amp;Revert File</source>
        <translation>ファイルを元に戻す(&amp;R)</translation>
    </message>
    <message>
        <source>Reverted “%1”.</source>
        <translation>「%1」を元に戻しました。</translation>
    </message>
    <message>
        <source>Could not revert “%1”: %2</source>
        <translation>「%1」を元に戻せませんでした: %2</translation>
    </message>
    <message>
        <source>this turn</source>
        <translation>このターン</translation>
    </message>
    <message>
        <source>the turn “%1”</source>
        <translation>ターン「%1」</translation>
    </message>
    <message>
        <source>Revert %1?</source>
        <translation>%1を元に戻しますか？</translation>
    </message>
    <message>
        <source>No files were recorded as changed from this turn on; nothing changes on disk.</source>
        <translation>このターン以降に変更されたファイルは記録されていません。ディスク上では何も変更されません。</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) go back to how they were before it, in %1:</source>
        <translation>
            <numerusform>%n 個のファイルがこのターンの前の状態に戻ります (%1 内):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The turn and what came after it (%n message(s)) are hidden until you send a new prompt. “Restore Reverted Changes” brings everything back until then.</source>
        <translation>
            <numerusform>このターンとそれ以降 (%n 件のメッセージ) は、新しいプロンプトを送信するまで非表示になります。それまでは「元に戻した変更を復元」ですべてを戻せます。</numerusform>
        </translation>
    </message>
    <message>
        <source>Revert Turn</source>
        <translation>ターンを元に戻す</translation>
    </message>
    <message>
        <source>&amp;Revert Turn</source>
        <translation>ターンを元に戻す(&amp;R)</translation>
    </message>
    <message numerus="yes">
        <source>Reverted the turn: %n file(s) restored.</source>
        <translation>
            <numerusform>ターンを元に戻しました: %n 個のファイルを復元しました。</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not revert the turn: %1</source>
        <translation>ターンを元に戻せませんでした: %1</translation>
    </message>
    <message>
        <source>Restore the reverted changes?</source>
        <translation>元に戻した変更を復元しますか？</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) get their reverted changes back, in %1:</source>
        <translation>
            <numerusform>%n 個のファイルに元に戻した変更が再び適用されます (%1 内):</numerusform>
        </translation>
    </message>
    <message>
        <source>The hidden messages are shown again.</source>
        <translation>非表示のメッセージが再び表示されます。</translation>
    </message>
    <message>
        <source>Restore Reverted Changes</source>
        <translation>元に戻した変更を復元</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>復元(&amp;R)</translation>
    </message>
    <message>
        <source>Restored the reverted changes.</source>
        <translation>元に戻した変更を復元しました。</translation>
    </message>
    <message>
        <source>Could not restore the reverted changes: %1</source>
        <translation>元に戻した変更を復元できませんでした: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) are deleted (they did not exist before it), in %1:</source>
        <translation>
            <numerusform>%n 個のファイルが削除されます (このターンの前には存在しませんでした、%1 内):</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>weft::Compaction</name>
    <message>
        <source>must be true or false</source>
        <translation>true または false である必要があります</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>文字列である必要があります</translation>
    </message>
    <message>
        <source>unknown strategy &quot;%1&quot; (summary or summary-tail)</source>
        <translation>不明な戦略「%1」です (summary または summary-tail)</translation>
    </message>
    <message>
        <source>unknown estimator &quot;%1&quot; (opencode, gemini or auto)</source>
        <translation>不明な見積もり方式「%1」です (opencode、gemini または auto)</translation>
    </message>
    <message>
        <source>must be a number of tokens</source>
        <translation>トークン数である必要があります</translation>
    </message>
    <message>
        <source>no session with ID &quot;%1&quot;</source>
        <translation>ID「%1」のセッションはありません</translation>
    </message>
    <message>
        <source>this session is in a read-only store; import it into Weft first</source>
        <translation>このセッションは読み取り専用のストアにあります。先に Weft にインポートしてください</translation>
    </message>
    <message>
        <source>the session has no compaction to undo</source>
        <translation>このセッションには取り消せるコンパクト化がありません</translation>
    </message>
    <message>
        <source>the compaction is still running; stop it instead</source>
        <translation>コンパクト化はまだ実行中です。取り消す代わりに停止してください</translation>
    </message>
    <message>
        <source>a prompt was sent after the compaction (message %1); a compaction can only be undone until the next prompt</source>
        <translation>コンパクト化の後にプロンプトが送信されました (メッセージ %1)。コンパクト化を取り消せるのは次のプロンプトまでです</translation>
    </message>
    <message>
        <source>the agent continued after the compaction (message %1); a compaction can only be undone until the next prompt</source>
        <translation>コンパクト化の後にエージェントが続行しました (メッセージ %1)。コンパクト化を取り消せるのは次のプロンプトまでです</translation>
    </message>
</context>
<context>
    <name>weft::CompactionDialog</name>
    <message>
        <source>&amp;Compact</source>
        <translation>コンパクト化(&amp;C)</translation>
    </message>
    <message>
        <source>~%1 tokens</source>
        <translation>約 %1 トークン</translation>
    </message>
    <message>
        <source>Compact Session</source>
        <translation>セッションをコンパクト化</translation>
    </message>
    <message>
        <source>A summary written by the model replaces the conversation so far in its context. The messages stay in the session, dimmed; the compaction can be undone until the next prompt.</source>
        <translation>これまでの会話は、コンテキスト内ではモデルが書いた要約に置き換えられます。メッセージは薄く表示されてセッションに残り、次のプロンプトまではコンパクト化を取り消せます。</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>モデル:</translation>
    </message>
    <message>
        <source>Strategy:</source>
        <translation>方式:</translation>
    </message>
    <message>
        <source>Messages to summarise:</source>
        <translation>要約するメッセージ:</translation>
    </message>
    <message>
        <source>Messages kept as they are:</source>
        <translation>そのまま残すメッセージ:</translation>
    </message>
    <message>
        <source>Old tool outputs to clear:</source>
        <translation>消去する古いツール出力:</translation>
    </message>
    <message>
        <source>Context now:</source>
        <translation>現在のコンテキスト:</translation>
    </message>
    <message>
        <source>Context after (estimated):</source>
        <translation>コンパクト化後のコンテキスト (推定):</translation>
    </message>
    <message>
        <source>The summary appears here as the model writes it.</source>
        <translation>モデルが書いた要約がここに表示されます。</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>要約</translation>
    </message>
    <message>
        <source>Working out what a compaction would do…</source>
        <translation>コンパクト化の内容を計算しています…</translation>
    </message>
    <message>
        <source>No preview: %1</source>
        <translation>プレビューなし: %1</translation>
    </message>
    <message>
        <source>No model configured</source>
        <translation>モデルが設定されていません</translation>
    </message>
    <message>
        <source>%1 (%2 tokens of context)</source>
        <translation>%1 (コンテキスト %2 トークン)</translation>
    </message>
    <message>
        <source>Summarise the older messages, keep the newest 30% as they are</source>
        <translation>古いメッセージを要約し、最新の 30% はそのまま残す</translation>
    </message>
    <message>
        <source>Summarise the whole conversation</source>
        <translation>会話全体を要約する</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n 件のメッセージ</numerusform>
        </translation>
    </message>
    <message>
        <source>none: clearing is turned off (%1)</source>
        <translation>なし: 消去はオフになっています (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n output(s)</source>
        <translation>
            <numerusform>%n 件の出力</numerusform>
        </translation>
    </message>
    <message>
        <source>none: old outputs hold %1, clearing starts above %2</source>
        <translation>なし: 古い出力は %1 で、消去は %2 を超えると始まります</translation>
    </message>
    <message>
        <source>(the last reply&apos;s usage)</source>
        <translation>(最後の応答の使用量)</translation>
    </message>
    <message>
        <source>(estimated)</source>
        <translation>(推定)</translation>
    </message>
    <message>
        <source>%1% of the usable context</source>
        <translation>使用可能なコンテキストの %1%</translation>
    </message>
    <message>
        <source>Cannot compact: %1</source>
        <translation>コンパクト化できません: %1</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>キャンセル(&amp;C)</translation>
    </message>
    <message>
        <source>Stop the compaction; the session stays as it was</source>
        <translation>コンパクト化を中止します。セッションは元のままです</translation>
    </message>
    <message>
        <source>Compacting: %1 is writing the summary…</source>
        <translation>コンパクト化中: %1 が要約を書いています…</translation>
    </message>
    <message>
        <source>Compacting: the model is writing the summary…</source>
        <translation>コンパクト化中: モデルが要約を書いています…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>閉じる(&amp;C)</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>キャンセルしています…</translation>
    </message>
</context>
<context>
    <name>weft::Composer</name>
    <message>
        <source>Send the prompt into the running reply: the agent reads it after its current step (%1)</source>
        <translation>実行中の応答にプロンプトを送ります: エージェントは現在のステップの後に読みます (%1)</translation>
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
        <translation>応答が終わったらプロンプトを送信します (%1)</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>キューに追加</translation>
    </message>
    <message>
        <source>Steer</source>
        <translation>ステア</translation>
    </message>
    <message>
        <source>Ask the agent… (Enter to send, Shift+Enter for a new line)</source>
        <translation>エージェントに質問… (Enter で送信、Shift+Enter で改行)</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>プロンプト</translation>
    </message>
    <message>
        <source>The agent that answers: build works on files, plan only reads and plans</source>
        <translation>応答するエージェント: build はファイルを編集し、plan は読み取りと計画のみを行います</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>エージェント</translation>
    </message>
    <message>
        <source>The model that answers</source>
        <translation>応答するモデル</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Compact…</source>
        <translation>コンパクト化…</translation>
    </message>
    <message>
        <source>Summarise the conversation so far to free context (shows a preview first)</source>
        <translation>これまでの会話を要約してコンテキストを空けます (最初にプレビューを表示します)</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>送信</translation>
    </message>
    <message>
        <source>Send the prompt (Enter)</source>
        <translation>プロンプトを送信 (Enter)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the reply (Escape)</source>
        <translation>応答を停止 (Escape)</translation>
    </message>
    <message>
        <source>Copy into Weft to Continue</source>
        <translation>Weft にコピーして続ける</translation>
    </message>
    <message>
        <source>This session belongs to OpenCode. Copy it into Weft&apos;s own sessions to send, fork and compact there; OpenCode&apos;s data is left as it is.</source>
        <translation>このセッションは OpenCode のものです。Weft 自身のセッションにコピーすると、送信、フォーク、コンパクト化ができます。OpenCode のデータはそのまま残ります。</translation>
    </message>
    <message>
        <source>&amp;Agent:</source>
        <translation>エージェント(&amp;A):</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>モデル(&amp;M):</translation>
    </message>
    <message>
        <source>This session is OpenCode&apos;s and read-only here. Copy it into Weft to continue it.</source>
        <translation>このセッションは OpenCode のもので、ここでは読み取り専用です。続けるには Weft にコピーしてください。</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>添付…</translation>
    </message>
    <message>
        <source>Attach files, folders or images to the prompt. You can also drop files on the editor, paste an image, or type @ to mention a file of the project.</source>
        <translation>プロンプトにファイル、フォルダー、画像を添付します。エディターにファイルをドロップしたり、画像を貼り付けたり、@ を入力してプロジェクトのファイルを指定することもできます。</translation>
    </message>
    <message>
        <source>Cannot attach “%1”: %2</source>
        <translation>「%1」を添付できません: %2</translation>
    </message>
    <message>
        <source>“%1” is attached already.</source>
        <translation>「%1」はすでに添付されています。</translation>
    </message>
    <message>
        <source>At most %1 files can be attached to one prompt.</source>
        <translation>1 つのプロンプトに添付できるファイルは最大 %1 個です。</translation>
    </message>
    <message>
        <source>Cannot attach “%1”: the images and PDFs of one prompt can be %2 in all.</source>
        <translation>「%1」を添付できません: 1 つのプロンプトの画像と PDF は合計 %2 までです。</translation>
    </message>
    <message>
        <source>Files can only be attached to Weft&apos;s own sessions.</source>
        <translation>ファイルを添付できるのは Weft 自身のセッションだけです。</translation>
    </message>
    <message>
        <source>pasted-image.png</source>
        <translation>貼り付け画像.png</translation>
    </message>
    <message>
        <source>pasted-image-%1.png</source>
        <translation>貼り付け画像-%1.png</translation>
    </message>
    <message>
        <source>The pasted image cannot be read.</source>
        <translation>貼り付けた画像を読み込めません。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>%1 を削除</translation>
    </message>
    <message>
        <source>Attach Files</source>
        <translation>ファイルを添付</translation>
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
        <translation>%1 が必要ですが、%2 です</translation>
    </message>
    <message>
        <source>expected a number of 0 or more</source>
        <translation>0 以上の数値が必要です</translation>
    </message>
    <message>
        <source>expected object or string</source>
        <translation>オブジェクトまたは文字列が必要です</translation>
    </message>
    <message>
        <source>bad file reference: &quot;%1&quot; %2 does not exist</source>
        <translation>不正なファイル参照です: 「%1」 %2 は存在しません</translation>
    </message>
    <message>
        <source>bad file reference: &quot;%1&quot; %2: %3</source>
        <translation>不正なファイル参照です: 「%1」 %2: %3</translation>
    </message>
    <message>
        <source>cannot read the model catalogue: %1</source>
        <translation>モデルカタログを読み取れません: %1</translation>
    </message>
    <message>
        <source>the model catalogue must be a JSON object</source>
        <translation>モデルカタログは JSON オブジェクトである必要があります</translation>
    </message>
    <message>
        <source>the config file does not exist</source>
        <translation>設定ファイルが存在しません</translation>
    </message>
    <message>
        <source>cannot read the config file: %1</source>
        <translation>設定ファイルを読み取れません: %1</translation>
    </message>
    <message>
        <source>invalid JSON: %1</source>
        <translation>不正な JSON です: %1</translation>
    </message>
    <message>
        <source>the config must be a JSON object</source>
        <translation>設定は JSON オブジェクトである必要があります</translation>
    </message>
    <message>
        <source>unknown provider &quot;%1&quot;: add it under &quot;provider&quot; in the config</source>
        <translation>不明なプロバイダ「%1」です。設定の &quot;provider&quot; に追加してください</translation>
    </message>
    <message>
        <source>provider &quot;%1&quot; is disabled in the config</source>
        <translation>プロバイダ「%1」は設定で無効になっています</translation>
    </message>
    <message>
        <source>provider &quot;%1&quot; has no options.baseURL</source>
        <translation>プロバイダ「%1」に options.baseURL がありません</translation>
    </message>
    <message>
        <source>no model given for provider &quot;%1&quot;</source>
        <translation>プロバイダ「%1」のモデルが指定されていません</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a model: expected provider/model</source>
        <translation>「%1」はモデルではありません。provider/model の形式で指定してください</translation>
    </message>
    <message>
        <source>cannot create the config folder</source>
        <translation>設定フォルダーを作成できません</translation>
    </message>
    <message>
        <source>cannot write the config file: %1</source>
        <translation>設定ファイルを書き込めません: %1</translation>
    </message>
    <message>
        <source>cannot make the config file private: %1</source>
        <translation>設定ファイルを非公開にできません: %1</translation>
    </message>
    <message>
        <source>the file is larger than %1 MiB</source>
        <translation>ファイルが %1 MiB を超えています</translation>
    </message>
    <message>
        <source>cannot read: %1</source>
        <translation>読み取れません: %1</translation>
    </message>
    <message>
        <source>invalid front matter: %1</source>
        <translation>不正なフロントマターです: %1</translation>
    </message>
    <message>
        <source>OPENCODE_PERMISSION must be a JSON object</source>
        <translation>OPENCODE_PERMISSION は JSON オブジェクトである必要があります</translation>
    </message>
    <message>
        <source>unexpected indentation</source>
        <translation>予期しないインデントです</translation>
    </message>
    <message>
        <source>expected &quot;key: value&quot;</source>
        <translation>&quot;key: value&quot; の形式が必要です</translation>
    </message>
    <message>
        <source>unexpected text after the value: &quot;%1&quot;</source>
        <translation>値の後に予期しないテキストがあります: 「%1」</translation>
    </message>
    <message>
        <source>unterminated flow sequence</source>
        <translation>フローシーケンスが閉じられていません</translation>
    </message>
    <message>
        <source>unterminated flow mapping</source>
        <translation>フローマッピングが閉じられていません</translation>
    </message>
    <message>
        <source>bad escape in a quoted string</source>
        <translation>引用符で囲まれた文字列に不正なエスケープがあります</translation>
    </message>
    <message>
        <source>unterminated quoted string</source>
        <translation>引用符で囲まれた文字列が閉じられていません</translation>
    </message>
    <message>
        <source>the front matter is not closed with a &quot;---&quot; line</source>
        <translation>フロントマターが &quot;---&quot; の行で閉じられていません</translation>
    </message>
    <message>
        <source>bad file reference: &quot;%1&quot; %2 is not a regular file</source>
        <translation>不正なファイル参照です: 「%1」 %2 は通常のファイルではありません</translation>
    </message>
    <message>
        <source>bad file reference: &quot;%1&quot; %2 is larger than %3 MiB</source>
        <translation>不正なファイル参照です: 「%1」 %2 は %3 MiB を超えています</translation>
    </message>
</context>
<context>
    <name>weft::ConnectServerDialog</name>
    <message>
        <source>&amp;Remember the password</source>
        <translation>パスワードを記憶する(&amp;R)</translation>
    </message>
    <message>
        <source>Connect to OpenCode Server</source>
        <translation>OpenCode サーバーに接続</translation>
    </message>
    <message>
        <source>Weft shows the sessions of a running &lt;code&gt;opencode serve&lt;/code&gt;, live, and sends your prompts to it: the agent runs there, with that server&apos;s configuration and files.</source>
        <translation>Weft は実行中の &lt;code&gt;opencode serve&lt;/code&gt; のセッションをライブで表示し、プロンプトをそこへ送ります。エージェントはそのサーバー上で、サーバーの設定とファイルで動きます。</translation>
    </message>
    <message>
        <source>Server address</source>
        <translation>サーバーのアドレス</translation>
    </message>
    <message>
        <source>OPENCODE_SERVER_PASSWORD, if the server has one</source>
        <translation>サーバーに設定されていれば OPENCODE_SERVER_PASSWORD</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>パスワード</translation>
    </message>
    <message>
        <source>Kept in Weft&apos;s settings file, readable only by you</source>
        <translation>Weft の設定ファイルに保存され、あなただけが読めます</translation>
    </message>
    <message>
        <source>&amp;Address:</source>
        <translation>アドレス(&amp;A):</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>パスワード(&amp;P):</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>接続(&amp;C)</translation>
    </message>
    <message>
        <source>Start a server with &lt;code&gt;OPENCODE_SERVER_PASSWORD=… opencode serve --port 4096&lt;/code&gt;.</source>
        <translation>サーバーは &lt;code&gt;OPENCODE_SERVER_PASSWORD=… opencode serve --port 4096&lt;/code&gt; で起動します。</translation>
    </message>
    <message>
        <source>The address of the server, e.g. http://127.0.0.1:4096.</source>
        <translation>サーバーのアドレス（例: http://127.0.0.1:4096）。</translation>
    </message>
    <message>
        <source>Weft runs &lt;code&gt;ssh %1&lt;/code&gt; with your keys and ssh config, starts &lt;code&gt;opencode serve&lt;/code&gt; there with a new password, and stops it when you disconnect or quit.</source>
        <translation>Weft はお使いの鍵と ssh の設定で &lt;code&gt;ssh %1&lt;/code&gt; を実行し、そこで新しいパスワードの &lt;code&gt;opencode serve&lt;/code&gt; を起動し、切断または終了したときに停止します。</translation>
    </message>
</context>
<context>
    <name>weft::ContextMeter</name>
    <message>
        <source>%1 tokens</source>
        <translation>%1 トークン</translation>
    </message>
    <message>
        <source>%1 / %2 tokens (%3%)</source>
        <translation>%1 / %2 トークン (%3%)</translation>
    </message>
    <message>
        <source>Context: %1 tokens</source>
        <translation>コンテキスト: %1 トークン</translation>
    </message>
    <message>
        <source>Model limit: %1 tokens</source>
        <translation>モデルの上限: %1 トークン</translation>
    </message>
    <message>
        <source>Automatic compaction at %1%</source>
        <translation>%1% で自動コンパクト化</translation>
    </message>
    <message>
        <source>Session cost: %1</source>
        <translation>セッションのコスト: %1</translation>
    </message>
    <message>
        <source>Context usage</source>
        <translation>コンテキストの使用量</translation>
    </message>
</context>
<context>
    <name>weft::Core</name>
    <message>
        <source>Shell</source>
        <translation>シェル</translation>
    </message>
    <message>
        <source>Patch</source>
        <translation>パッチ</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>編集</translation>
    </message>
    <message>
        <source>Write</source>
        <translation>書き込み</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>読み取り</translation>
    </message>
    <message>
        <source>Subagent</source>
        <translation>サブエージェント</translation>
    </message>
    <message>
        <source>%1 redirected to %2, another origin: Weft does not send credentials there (give that address instead if you trust it)</source>
        <translation>%1 が別のオリジン %2 へリダイレクトしました。Weft はそこへ認証情報を送りません（信頼できる場合はそのアドレスを直接指定してください）</translation>
    </message>
    <message>
        <source>the ID is empty</source>
        <translation>ID が空です</translation>
    </message>
    <message>
        <source>the ID contains a NUL byte</source>
        <translation>ID に NUL バイトが含まれています</translation>
    </message>
    <message>
        <source>the ID &quot;%1&quot; contains a path separator or is a relative path</source>
        <translation>ID「%1」にパス区切り文字が含まれているか、相対パスになっています</translation>
    </message>
    <message>
        <source>the ID contains control characters or is too long</source>
        <translation>ID に制御文字が含まれているか、長すぎます</translation>
    </message>
    <message>
        <source>the ID &quot;%1&quot; does not start with &quot;%2&quot;</source>
        <translation>ID「%1」が「%2」で始まっていません</translation>
    </message>
    <message>
        <source>missing (expected %1)</source>
        <translation>ありません (%1 が必要です)</translation>
    </message>
    <message>
        <source>expected %1, found %2</source>
        <translation>%1 が必要ですが、%2 です</translation>
    </message>
    <message>
        <source>&quot;%1&quot; does not start with &quot;%2_&quot;</source>
        <translation>「%1」が「%2_」で始まっていません</translation>
    </message>
    <message>
        <source>expected allow, ask or deny, found &quot;%1&quot;</source>
        <translation>allow、ask、deny のいずれかが必要ですが、「%1」です</translation>
    </message>
    <message>
        <source>expected &quot;user&quot; or &quot;assistant&quot;, found &quot;%1&quot;</source>
        <translation>&quot;user&quot; または &quot;assistant&quot; が必要ですが、「%1」です</translation>
    </message>
    <message>
        <source>expected pending, running, completed or error, found &quot;%1&quot;</source>
        <translation>pending、running、completed、error のいずれかが必要ですが、「%1」です</translation>
    </message>
</context>
<context>
    <name>weft::DBusNotifier</name>
    <message>
        <source>Open</source>
        <translation>開く</translation>
    </message>
</context>
<context>
    <name>weft::Diff</name>
    <message>
        <source>the file no longer matches the change (it was edited since)</source>
        <translation>ファイルが変更内容と一致しなくなっています (その後に編集されました)</translation>
    </message>
    <message>
        <source>the file no longer matches the change at line %1 (it was edited since)</source>
        <translation>ファイルが %1 行目で変更内容と一致しなくなっています (その後に編集されました)</translation>
    </message>
</context>
<context>
    <name>weft::DiffTextArea</name>
    <message>
        <source>Diff</source>
        <translation>差分</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>変更前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>変更後</translation>
    </message>
</context>
<context>
    <name>weft::DiffView</name>
    <message>
        <source>&amp;Next Change</source>
        <translation>次の変更(&amp;N)</translation>
    </message>
    <message>
        <source>Next change (%1)</source>
        <translation>次の変更 (%1)</translation>
    </message>
    <message>
        <source>&amp;Previous Change</source>
        <translation>前の変更(&amp;P)</translation>
    </message>
    <message>
        <source>Previous change (%1)</source>
        <translation>前の変更 (%1)</translation>
    </message>
    <message>
        <source>&amp;Unified</source>
        <translation>統合表示(&amp;U)</translation>
    </message>
    <message>
        <source>Unified: removed and added lines one below the other</source>
        <translation>統合表示: 削除された行と追加された行を上下に並べます</translation>
    </message>
    <message>
        <source>&amp;Side by Side</source>
        <translation>左右に並べて表示(&amp;S)</translation>
    </message>
    <message>
        <source>Side by side: the file before on the left, after on the right</source>
        <translation>左右に並べて表示: 左に変更前、右に変更後のファイル</translation>
    </message>
    <message>
        <source>Show Anyway</source>
        <translation>それでも表示</translation>
    </message>
    <message>
        <source>Computing the changes…</source>
        <translation>変更を計算しています…</translation>
    </message>
    <message>
        <source>Select a file to see its changes.</source>
        <translation>変更を表示するファイルを選択してください。</translation>
    </message>
    <message>
        <source>Empty file added</source>
        <translation>空のファイルが追加されました</translation>
    </message>
    <message>
        <source>No text changes to show</source>
        <translation>表示するテキストの変更はありません</translation>
    </message>
    <message>
        <source>The file is binary, or too large for its contents to be recorded.</source>
        <translation>このファイルはバイナリか、大きすぎて内容が記録されていません。</translation>
    </message>
    <message>
        <source>Large file — show anyway?</source>
        <translation>大きなファイルです — それでも表示しますか？</translation>
    </message>
    <message>
        <source>This diff has %1 lines. Showing it may take a moment.</source>
        <translation>この差分は %1 行あります。表示に少し時間がかかることがあります。</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Change %1 of %2</source>
        <translation>変更 %1 / %2</translation>
    </message>
</context>
<context>
    <name>weft::FindBar</name>
    <message>
        <source>Find in this session…</source>
        <translation>このセッション内を検索…</translation>
    </message>
    <message>
        <source>Find in this session</source>
        <translation>このセッション内を検索</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>次を検索(&amp;N)</translation>
    </message>
    <message>
        <source>Next match (Enter, F3)</source>
        <translation>次の一致 (Enter、F3)</translation>
    </message>
    <message>
        <source>Find Pre&amp;vious</source>
        <translation>前を検索(&amp;V)</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter, Shift+F3)</source>
        <translation>前の一致 (Shift+Enter、Shift+F3)</translation>
    </message>
    <message>
        <source>Close the find bar (Escape)</source>
        <translation>検索バーを閉じる (Escape)</translation>
    </message>
    <message>
        <source>Find:</source>
        <translation>検索:</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>検索しています…</translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>一致なし</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 件の一致</numerusform>
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
        <translation>次を検索(&amp;N)</translation>
    </message>
    <message>
        <source>Find Pre&amp;vious</source>
        <translation>前を検索(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Copy Text</source>
        <translation>テキストをコピー(&amp;C)</translation>
    </message>
    <message>
        <source>Copy as &amp;Markdown</source>
        <translation>Markdown としてコピー(&amp;M)</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>すべて選択(&amp;A)</translation>
    </message>
    <message>
        <source>Open in New &amp;Tab</source>
        <translation>新しいタブで開く(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Close Tab</source>
        <translation>タブを閉じる(&amp;C)</translation>
    </message>
    <message>
        <source>Split &amp;Right</source>
        <translation>右に分割(&amp;R)</translation>
    </message>
    <message>
        <source>Split &amp;Down</source>
        <translation>下に分割(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Move Tab to New Window</source>
        <translation>タブを新しいウィンドウに移動(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Next Tab</source>
        <translation>次のタブ(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous Tab</source>
        <translation>前のタブ(&amp;P)</translation>
    </message>
    <message>
        <source>Sent into the running reply: the agent reads it after its current step</source>
        <translation>実行中の応答に送りました: エージェントは現在のステップの後に読みます</translation>
    </message>
    <message>
        <source>Exporting to %1…</source>
        <translation>%1 へエクスポートしています…</translation>
    </message>
    <message>
        <source>&amp;Compact</source>
        <translation>コンパクト化(&amp;C)</translation>
    </message>
    <message>
        <source>Weft cannot see every command this runs, so no rule could allow it.</source>
        <translation>Weft はこれが実行するすべてのコマンドを確認できないため、どのルールでも許可できません。</translation>
    </message>
    <message>
        <source>Allow this and the same again until Weft quits, for this session: %1</source>
        <translation>このセッションで、Weft を終了するまでこれと同じ操作を許可します: %1</translation>
    </message>
    <message>
        <source>Data: %1</source>
        <translation>データ: %1</translation>
    </message>
    <message>
        <source>Sessions are read from and written to %1</source>
        <translation>セッションは %1 で読み書きされます</translation>
    </message>
    <message>
        <source>Damaged files that were skipped; click for the list</source>
        <translation>スキップされた破損ファイル。クリックすると一覧を表示します</translation>
    </message>
    <message>
        <source>compact it</source>
        <translation>コンパクト化する</translation>
    </message>
    <message>
        <source>&amp;Undo Compaction</source>
        <translation>コンパクト化を取り消す(&amp;U)</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n 件の問題</numerusform>
        </translation>
    </message>
    <message>
        <source>New Session</source>
        <translation>新しいセッション</translation>
    </message>
    <message>
        <source>The session could not be created:
%1</source>
        <translation>セッションを作成できませんでした:
%1</translation>
    </message>
    <message>
        <source>fork it</source>
        <translation>フォークする</translation>
    </message>
    <message>
        <source>Forking…</source>
        <translation>フォークしています…</translation>
    </message>
    <message>
        <source>Forked into “%1”</source>
        <translation>「%1」にフォークしました</translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>アーカイブ</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>削除(&amp;D)</translation>
    </message>
    <message>
        <source>Delete the session “%1” with all its messages?</source>
        <translation>セッション「%1」をすべてのメッセージとともに削除しますか？</translation>
    </message>
    <message numerus="yes">
        <source>Its %n subagent session(s) will be deleted too.</source>
        <translation>
            <numerusform>%n 個のサブエージェントセッションも削除されます。</numerusform>
        </translation>
    </message>
    <message>
        <source>This cannot be undone.</source>
        <translation>この操作は取り消せません。</translation>
    </message>
    <message>
        <source>Delete Session</source>
        <translation>セッションを削除</translation>
    </message>
    <message>
        <source>The session could not be deleted:
%1</source>
        <translation>セッションを削除できませんでした:
%1</translation>
    </message>
    <message>
        <source>Deleted “%1”</source>
        <translation>「%1」を削除しました</translation>
    </message>
    <message>
        <source>Export Session</source>
        <translation>セッションをエクスポート</translation>
    </message>
    <message>
        <source>OpenCode export (*.json)</source>
        <translation>OpenCode エクスポート (*.json)</translation>
    </message>
    <message>
        <source>The session could not be exported:
%1</source>
        <translation>セッションをエクスポートできませんでした:
%1</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>%1 にエクスポートしました</translation>
    </message>
    <message>
        <source>About Weft</source>
        <translation>Weft について</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Weft %1&lt;/h3&gt;&lt;p&gt;A desktop home for coding-agent sessions: read, continue, fork and compact them, and review what they changed. Compatible with OpenCode&apos;s data.&lt;/p&gt;&lt;p&gt;Licensed under the GNU General Public License, version 3 or later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Weft %1&lt;/h3&gt;&lt;p&gt;コーディングエージェントのセッションのためのデスクトップアプリ: セッションを読み、続け、フォークし、コンパクト化し、変更内容を確認できます。OpenCode のデータと互換性があります。&lt;/p&gt;&lt;p&gt;GNU 一般公衆利用許諾書 (GPL) バージョン 3 以降の下でライセンスされています。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 Retrying in %2 s (attempt %3)…</source>
        <translation>%1 %2 秒後に再試行します (%3 回目)…</translation>
    </message>
    <message>
        <source>The compaction could not start: %1</source>
        <translation>コンパクト化を開始できませんでした: %1</translation>
    </message>
    <message>
        <source>~%1 → ~%2 tokens</source>
        <translation>約 %1 → 約 %2 トークン</translation>
    </message>
    <message>
        <source>The context is full: compacting it before the agent goes on…</source>
        <translation>コンテキストがいっぱいです: エージェントが続行する前にコンパクト化しています…</translation>
    </message>
    <message>
        <source>Compacted: the next prompt continues from the summary.</source>
        <translation>コンパクト化しました: 次のプロンプトは要約から続きます。</translation>
    </message>
    <message>
        <source>The compaction was undone: the model reads the whole conversation again.</source>
        <translation>コンパクト化を取り消しました: モデルは再び会話全体を読み込みます。</translation>
    </message>
    <message>
        <source>run a command</source>
        <translation>コマンドを実行する</translation>
    </message>
    <message>
        <source>change files</source>
        <translation>ファイルを変更する</translation>
    </message>
    <message>
        <source>read files</source>
        <translation>ファイルを読み取る</translation>
    </message>
    <message>
        <source>work outside the project folder</source>
        <translation>プロジェクトフォルダーの外で作業する</translation>
    </message>
    <message>
        <source>repeat the same tool call once more</source>
        <translation>同じツール呼び出しをもう一度繰り返す</translation>
    </message>
    <message>
        <source>fetch a web page</source>
        <translation>ウェブページを取得する</translation>
    </message>
    <message>
        <source>start a subagent</source>
        <translation>サブエージェントを開始する</translation>
    </message>
    <message>
        <source>use “%1”</source>
        <translation>「%1」を使用する</translation>
    </message>
    <message>
        <source>The agent asks to %1: %2</source>
        <translation>エージェントが「%1」の許可を求めています: %2</translation>
    </message>
    <message>
        <source>In “%1”: %2</source>
        <translation>「%1」内: %2</translation>
    </message>
    <message>
        <source>The tool call marked “Needs approval” waits for your answer.</source>
        <translation>「承認が必要」と表示されたツール呼び出しがあなたの回答を待っています。</translation>
    </message>
    <message>
        <source>Allow &amp;Once</source>
        <translation>今回のみ許可(&amp;O)</translation>
    </message>
    <message>
        <source>Allow &amp;Always</source>
        <translation>常に許可(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Deny</source>
        <translation>拒否(&amp;D)</translation>
    </message>
    <message>
        <source>The conversation was compacted; the next prompt continues from the summary.</source>
        <translation>会話はコンパクト化されました。次のプロンプトは要約から続きます。</translation>
    </message>
    <message>
        <source>The conversation was compacted (%1); the next prompt continues from the summary.</source>
        <translation>会話はコンパクト化されました (%1)。次のプロンプトは要約から続きます。</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) reverted: the files are back as they were before. The next prompt discards them for good.</source>
        <translation>
            <numerusform>%n 件のメッセージを元に戻しました: ファイルは以前の状態に戻っています。次のプロンプトを送信すると、これらは完全に破棄されます。</numerusform>
        </translation>
    </message>
    <message>
        <source>U&amp;nrevert</source>
        <translation>元に戻す操作を取り消す(&amp;N)</translation>
    </message>
    <message>
        <source>Copied “%1” into Weft</source>
        <translation>「%1」を Weft にコピーしました</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>接続(&amp;C)…</translation>
    </message>
    <message>
        <source>Delete the session “%1” on the OpenCode server %2, with its messages and subagent sessions?

This cannot be undone.</source>
        <translation>OpenCode サーバー %2 のセッション「%1」を、メッセージとサブエージェントのセッションごと削除しますか？

この操作は元に戻せません。</translation>
    </message>
    <message>
        <source>Compact Session</source>
        <translation>セッションを圧縮</translation>
    </message>
    <message>
        <source>Ask the OpenCode server %1 to summarise this session&apos;s context with the model the session uses? Later prompts continue from the summary; the older messages stay.</source>
        <translation>OpenCode サーバー %1 に、このセッションのモデルでコンテキストを要約させますか？以降のプロンプトは要約から続き、古いメッセージは残ります。</translation>
    </message>
    <message>
        <source>Compacting on the server…</source>
        <translation>サーバーで圧縮しています…</translation>
    </message>
    <message>
        <source>The MCP server “%1” is not available: %2</source>
        <translation>MCP サーバー「%1」を利用できません: %2</translation>
    </message>
    <message>
        <source>&amp;Reconnect</source>
        <translation>再接続(&amp;R)</translation>
    </message>
    <message>
        <source>MCP &amp;Settings…</source>
        <translation>MCP の設定(&amp;S)…</translation>
    </message>
    <message>
        <source>This project&apos;s configuration cannot be used, so prompts cannot be sent here until it is fixed: %1</source>
        <translation>このプロジェクトの設定を使えないため、修正されるまでここからプロンプトを送れません: %1</translation>
    </message>
    <message>
        <source>Quit Weft</source>
        <translation>Weft を終了</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) are still running here. Quitting stops them; what they wrote so far is kept.</source>
        <translation>
            <numerusform>このウィンドウでまだ %n 個のセッションが実行中です。終了すると停止します。これまでに書き込まれた内容は保持されます。</numerusform>
        </translation>
    </message>
    <message>
        <source>Stop and Quit</source>
        <translation>停止して終了</translation>
    </message>
    <message>
        <source>Keep Window Open</source>
        <translation>ウィンドウを開いたままにする</translation>
    </message>
    <message>
        <source>Import Sessions</source>
        <translation>セッションのインポート</translation>
    </message>
    <message>
        <source>OpenCode export (*.json);;All files (*)</source>
        <translation>OpenCode エクスポート (*.json);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Sessions cannot be imported into a read-only store.</source>
        <translation>読み取り専用のストアにはセッションをインポートできません。</translation>
    </message>
    <message numerus="yes">
        <source>Importing %n file(s)…</source>
        <translation>
            <numerusform>%n 個のファイルをインポートしています…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be imported: %1</source>
        <translation>
            <numerusform>%n 個のファイルをインポートできませんでした: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported %n session(s)</source>
        <translation>
            <numerusform>%n 個のセッションをインポートしました</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>with %n subagent session(s)</source>
        <translation>
            <numerusform>(サブエージェントのセッション %n 件を含む)</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>元に戻す(&amp;U)</translation>
    </message>
    <message>
        <source>Show &amp;Trash</source>
        <translation>ごみ箱を表示(&amp;T)</translation>
    </message>
    <message>
        <source>The session could not be restored:
%1</source>
        <translation>セッションを復元できませんでした:
%1</translation>
    </message>
    <message>
        <source>Restored “%1”</source>
        <translation>「%1」を復元しました</translation>
    </message>
    <message>
        <source>Imported sessions keep only permission rules that deny: %1</source>
        <translation>インポートしたセッションには拒否の権限ルールだけが残ります: %1</translation>
    </message>
</context>
<context>
    <name>weft::Mcp</name>
    <message>
        <source>the server&apos;s event stream was refused: %1</source>
        <translation>サーバーのイベントストリームが拒否されました: %1</translation>
    </message>
    <message>
        <source>invalid configuration: %1</source>
        <translation>不正な設定です: %1</translation>
    </message>
    <message>
        <source>mcp.%1 must be an object</source>
        <translation>mcp.%1 はオブジェクトである必要があります</translation>
    </message>
    <message>
        <source>mcp.%1.enabled must be true or false</source>
        <translation>mcp.%1.enabled は true または false である必要があります</translation>
    </message>
    <message>
        <source>mcp.%1.timeout must be a positive whole number of milliseconds</source>
        <translation>mcp.%1.timeout はミリ秒単位の正の整数である必要があります</translation>
    </message>
    <message>
        <source>mcp.%1.command must be an array of strings</source>
        <translation>mcp.%1.command は文字列の配列である必要があります</translation>
    </message>
    <message>
        <source>mcp.%1.command must name the program to start</source>
        <translation>mcp.%1.command には起動するプログラムを指定する必要があります</translation>
    </message>
    <message>
        <source>mcp.%1.environment.%2 must be a string</source>
        <translation>mcp.%1.environment.%2 は文字列である必要があります</translation>
    </message>
    <message>
        <source>mcp.%1.url must be an http or https URL</source>
        <translation>mcp.%1.url は http または https の URL である必要があります</translation>
    </message>
    <message>
        <source>mcp.%1.headers.%2 must be a single-line string</source>
        <translation>mcp.%1.headers.%2 は 1 行の文字列である必要があります</translation>
    </message>
    <message>
        <source>mcp.%1.type must be &quot;local&quot; or &quot;remote&quot;</source>
        <translation>mcp.%1.type は &quot;local&quot; または &quot;remote&quot; である必要があります</translation>
    </message>
    <message>
        <source>could not start &quot;%1&quot;: %2</source>
        <translation>「%1」を起動できませんでした: %2</translation>
    </message>
    <message>
        <source>ignored a line on stdout that is not a JSON-RPC message (%1): %2</source>
        <translation>標準出力の JSON-RPC メッセージではない行を無視しました (%1): %2</translation>
    </message>
    <message>
        <source>the server wrote a line longer than %1 MiB on stdout</source>
        <translation>サーバーが標準出力に %1 MiB を超える行を書き込みました</translation>
    </message>
    <message>
        <source>the server process crashed</source>
        <translation>サーバープロセスがクラッシュしました</translation>
    </message>
    <message>
        <source>the server process exited with code %1</source>
        <translation>サーバープロセスがコード %1 で終了しました</translation>
    </message>
    <message>
        <source>ignored a reply that is not a JSON-RPC message (%1): %2</source>
        <translation>JSON-RPC メッセージではない応答を無視しました (%1): %2</translation>
    </message>
    <message>
        <source>the server ended the session (%1)</source>
        <translation>サーバーがセッションを終了しました (%1)</translation>
    </message>
    <message>
        <source>the notification stream ended: %1</source>
        <translation>通知ストリームが終了しました: %1</translation>
    </message>
    <message>
        <source>the server named an endpoint on another origin: %1</source>
        <translation>サーバーが別のオリジンのエンドポイントを指定しました: %1</translation>
    </message>
    <message>
        <source>ignored an event that is not a JSON-RPC message (%1): %2</source>
        <translation>JSON-RPC メッセージではないイベントを無視しました (%1): %2</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation>HTTP %1 が返されました: %2</translation>
    </message>
    <message>
        <source>the server ended the event stream</source>
        <translation>サーバーがイベントストリームを終了しました</translation>
    </message>
    <message>
        <source>the server speaks MCP protocol version &quot;%1&quot;, which Weft does not support</source>
        <translation>サーバーの MCP プロトコルのバージョン「%1」に Weft は対応していません</translation>
    </message>
    <message>
        <source>failed to get tools: %1</source>
        <translation>ツールを取得できませんでした: %1</translation>
    </message>
    <message>
        <source>streamable HTTP: %1; SSE: %2</source>
        <translation>Streamable HTTP では %1。SSE では %2</translation>
    </message>
    <message>
        <source>could not list the tools again: %1</source>
        <translation>ツールを再度一覧できませんでした: %1</translation>
    </message>
    <message>
        <source>ignored an answer to a request Weft did not send (id %1)</source>
        <translation>Weft が送っていない要求への応答を無視しました (id %1)</translation>
    </message>
    <message>
        <source>ignored a message that is neither a request, a notification nor an answer</source>
        <translation>要求、通知、応答のいずれでもないメッセージを無視しました</translation>
    </message>
    <message>
        <source>ignored a tool without a name</source>
        <translation>名前のないツールを無視しました</translation>
    </message>
    <message>
        <source>could not list the prompts: %1</source>
        <translation>プロンプトを一覧できませんでした: %1</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; could not give its prompt &quot;%2&quot;: %3</source>
        <translation>MCP サーバー「%1」はプロンプト「%2」を返せませんでした: %3</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; is not connected</source>
        <translation>MCP サーバー「%1」は接続されていません</translation>
    </message>
    <message>
        <source>could not list the resources: %1</source>
        <translation>リソースを一覧できませんでした: %1</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; could not give its resource %2: %3</source>
        <translation>MCP サーバー「%1」はリソース %2 を返せませんでした: %3</translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; answered without contents for its resource %2</source>
        <translation>MCP サーバー「%1」はリソース %2 の内容を返しませんでした</translation>
    </message>
</context>
<context>
    <name>weft::McpServersPage</name>
    <message>
        <source>MCP servers from the &quot;mcp&quot; key of the configuration. Their tools are offered to the agent as &lt;i&gt;server_tool&lt;/i&gt;.</source>
        <translation>設定ファイルにある MCP サーバーです。それらのツールは「サーバー名_ツール名」という名前でエージェントに提供されます。</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>ツール</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>詳細</translation>
    </message>
    <message>
        <source>No MCP servers are configured.</source>
        <translation>MCP サーバーは設定されていません。</translation>
    </message>
    <message>
        <source>local</source>
        <translation>ローカル</translation>
    </message>
    <message>
        <source>remote</source>
        <translation>リモート</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>接続済み</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>接続中</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>無効</translation>
    </message>
    <message>
        <source>%1 over %2, connected in %3 ms</source>
        <translation>%1 (%2 経由、%3 ms で接続)</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>再接続</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>接続</translation>
    </message>
    <message>
        <source>Start a new session with this server (a test of its configuration)</source>
        <translation>このサーバーとの新しいセッションを開始します (設定のテスト)</translation>
    </message>
</context>
<context>
    <name>weft::NoticeBar</name>
    <message>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
</context>
<context>
    <name>weft::OpencodeDb</name>
    <message>
        <source>cannot read OpenCode&apos;s database: %1</source>
        <translation>OpenCode のデータベースを読み取れません: %1</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>ファイルがありません</translation>
    </message>
    <message>
        <source>not a file</source>
        <translation>ファイルではありません</translation>
    </message>
    <message>
        <source>cannot read: %1</source>
        <translation>読み取れません: %1</translation>
    </message>
    <message>
        <source>the database file is empty (0 bytes)</source>
        <translation>データベースファイルが空です (0 バイト)</translation>
    </message>
    <message>
        <source>not an SQLite database</source>
        <translation>SQLite データベースではありません</translation>
    </message>
    <message>
        <source>the database file is truncated (%1 bytes, not even a header)</source>
        <translation>データベースファイルが途中で切れています (%1 バイトで、ヘッダーすらありません)</translation>
    </message>
    <message>
        <source>the database file is truncated (%1 of %2 bytes): it is damaged</source>
        <translation>データベースファイルが途中で切れています (%2 バイト中 %1 バイト)。破損しています</translation>
    </message>
    <message>
        <source>an empty SQLite database: no OpenCode tables in it</source>
        <translation>空の SQLite データベースです。OpenCode のテーブルがありません</translation>
    </message>
    <message>
        <source>not an OpenCode database: it has no session table</source>
        <translation>OpenCode のデータベースではありません。session テーブルがありません</translation>
    </message>
    <message>
        <source>; it was written by a newer OpenCode (migration %1) than Weft knows</source>
        <translation>。Weft が対応しているより新しい OpenCode (マイグレーション %1) で書き込まれています</translation>
    </message>
    <message>
        <source>unknown OpenCode database schema: no %1%2</source>
        <translation>不明な OpenCode データベーススキーマです: %1 がありません%2</translation>
    </message>
    <message>
        <source>not valid JSON in column %1: %2</source>
        <translation>列 %1 の JSON が不正です: %2</translation>
    </message>
    <message>
        <source>unexpected shape: %1</source>
        <translation>想定外の構造です: %1</translation>
    </message>
    <message>
        <source>not valid JSON in column data: %1</source>
        <translation>列 data の JSON が不正です: %1</translation>
    </message>
    <message>
        <source>column data does not hold a JSON object</source>
        <translation>列 data に JSON オブジェクトがありません</translation>
    </message>
    <message>
        <source>OpenCode&apos;s database is read-only in Weft: copy the session into Weft&apos;s own store first (weft import --from-db %1 SESSION_ID)</source>
        <translation>OpenCode のデータベースは Weft では読み取り専用です。先にセッションを Weft 自身のストアにコピーしてください (weft import --from-db %1 SESSION_ID)</translation>
    </message>
    <message>
        <source>the target store is read-only</source>
        <translation>インポート先のストアは読み取り専用です</translation>
    </message>
    <message>
        <source>no session %1 in %2</source>
        <translation>%2 にセッション %1 はありません</translation>
    </message>
    <message>
        <source>the database was closed</source>
        <translation>データベースは閉じられました</translation>
    </message>
    <message>
        <source>Weft is quitting</source>
        <translation>Weft を終了しています</translation>
    </message>
    <message>
        <source>the database connection was lost</source>
        <translation>データベースへの接続が失われました</translation>
    </message>
</context>
<context>
    <name>weft::OpencodeSource</name>
    <message>
        <source>OpenCode (%1)</source>
        <translation>OpenCode (%1)</translation>
    </message>
    <message>
        <source>This folder holds no OpenCode sessions (no opencode.db and no storage folder).</source>
        <translation>このフォルダーには OpenCode のセッションがありません (opencode.db も storage フォルダーもありません)。</translation>
    </message>
</context>
<context>
    <name>weft::ProblemsDialog</name>
    <message>
        <source>Problems Found</source>
        <translation>見つかった問題</translation>
    </message>
    <message>
        <source>Weft skipped these files because they are damaged. Everything else was loaded. The files were left as they are.</source>
        <translation>Weft は破損しているため次のファイルをスキップしました。それ以外はすべて読み込まれました。ファイルはそのまま残されています。</translation>
    </message>
    <message>
        <source>File</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>問題</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>コピー(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Open Containing Folder</source>
        <translation>このファイルがあるフォルダーを開く(&amp;O)</translation>
    </message>
</context>
<context>
    <name>weft::Processor</name>
    <message>
        <source>the %1 is too large to attach (%2; at most %3)</source>
        <translation>%1 が大きすぎて添付できません (%2、上限は %3)</translation>
    </message>
    <message>
        <source>image</source>
        <translation>画像</translation>
    </message>
    <message>
        <source>cannot attach a binary file (%1): only text files, PNG, JPEG, GIF and WebP images, PDFs and folders can be attached</source>
        <translation>バイナリファイルは添付できません (%1)。添付できるのはテキストファイル、PNG・JPEG・GIF・WebP 画像、PDF、フォルダーのみです</translation>
    </message>
    <message>
        <source>an empty path cannot be attached</source>
        <translation>空のパスは添付できません</translation>
    </message>
    <message>
        <source>the path holds a NUL byte or a line break</source>
        <translation>パスに NUL バイトまたは改行が含まれています</translation>
    </message>
    <message>
        <source>no such file or folder</source>
        <translation>そのようなファイルまたはフォルダーはありません</translation>
    </message>
    <message>
        <source>cannot read the folder: permission denied</source>
        <translation>フォルダーを読み取れません: アクセスが拒否されました</translation>
    </message>
    <message>
        <source>not a regular file or folder (a device, pipe or socket cannot be attached)</source>
        <translation>通常のファイルまたはフォルダーではありません (デバイス、パイプ、ソケットは添付できません)</translation>
    </message>
    <message>
        <source>cannot read the file: %1</source>
        <translation>ファイルを読み取れません: %1</translation>
    </message>
    <message>
        <source>not a base64 data: URL</source>
        <translation>base64 の data: URL ではありません</translation>
    </message>
    <message>
        <source>only PNG, JPEG, GIF and WebP images can be pasted (this is %1)</source>
        <translation>貼り付けられるのは PNG、JPEG、GIF、WebP の画像のみです (これは %1 です)</translation>
    </message>
    <message>
        <source>of no type</source>
        <translation>種類のないデータ</translation>
    </message>
    <message>
        <source>the image is too large to attach (at most %1)</source>
        <translation>画像が大きすぎて添付できません (上限は %1)</translation>
    </message>
    <message>
        <source>the pasted image is empty or damaged</source>
        <translation>貼り付けた画像は空か破損しています</translation>
    </message>
    <message>
        <source>the pasted data is not a %1 image</source>
        <translation>貼り付けたデータは %1 の画像ではありません</translation>
    </message>
    <message>
        <source>unknown action &quot;%1&quot; (expected allow, ask or deny)</source>
        <translation>不明なアクション「%1」です (allow、ask、deny のいずれかが必要です)</translation>
    </message>
    <message>
        <source>expected a rule object {permission, pattern, action}</source>
        <translation>ルールオブジェクト {permission, pattern, action} が必要です</translation>
    </message>
    <message>
        <source>missing &quot;permission&quot; (a string)</source>
        <translation>&quot;permission&quot; (文字列) がありません</translation>
    </message>
    <message>
        <source>&quot;pattern&quot; must be a string</source>
        <translation>&quot;pattern&quot; は文字列である必要があります</translation>
    </message>
    <message>
        <source>&quot;action&quot; must be allow, ask or deny</source>
        <translation>&quot;action&quot; は allow、ask、deny のいずれかである必要があります</translation>
    </message>
    <message>
        <source>expected an object, an array of rules or an action, not %1</source>
        <translation>オブジェクト、ルールの配列、アクションのいずれかが必要です (%1 ではなく)</translation>
    </message>
    <message>
        <source>expected an action or an object of pattern: action</source>
        <translation>アクション、または pattern: action のオブジェクトが必要です</translation>
    </message>
    <message>
        <source>expected allow, ask or deny</source>
        <translation>allow、ask、deny のいずれかが必要です</translation>
    </message>
    <message>
        <source>the project folder does not exist</source>
        <translation>プロジェクトフォルダーが存在しません</translation>
    </message>
    <message>
        <source>cannot create the snapshot repository</source>
        <translation>スナップショットのリポジトリを作成できません</translation>
    </message>
    <message>
        <source>git init failed: %1</source>
        <translation>git init に失敗しました: %1</translation>
    </message>
    <message>
        <source>git write-tree failed: %1</source>
        <translation>git write-tree に失敗しました: %1</translation>
    </message>
    <message>
        <source>unknown snapshot</source>
        <translation>不明なスナップショットです</translation>
    </message>
    <message>
        <source>git diff failed: %1</source>
        <translation>git diff に失敗しました: %1</translation>
    </message>
    <message>
        <source>cannot list the snapshot&apos;s files: %1</source>
        <translation>スナップショットのファイル一覧を取得できません: %1</translation>
    </message>
    <message>
        <source>git read-tree failed: %1</source>
        <translation>git read-tree に失敗しました: %1</translation>
    </message>
    <message>
        <source>git checkout-index failed: %1</source>
        <translation>git checkout-index に失敗しました: %1</translation>
    </message>
    <message>
        <source>some files could not be reverted: %1</source>
        <translation>一部のファイルを元に戻せませんでした: %1</translation>
    </message>
    <message>
        <source>git gc failed: %1</source>
        <translation>git gc に失敗しました: %1</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>オブジェクトが必要です</translation>
    </message>
    <message>
        <source>prompt must be a string</source>
        <translation>prompt は文字列である必要があります</translation>
    </message>
    <message>
        <source>model must be &quot;provider/model&quot;, found &quot;%1&quot;</source>
        <translation>model は &quot;provider/model&quot; の形式である必要がありますが、「%1」です</translation>
    </message>
    <message>
        <source>mode must be primary, subagent or all, found &quot;%1&quot;</source>
        <translation>mode は primary、subagent、all のいずれかである必要がありますが、「%1」です</translation>
    </message>
    <message>
        <source>the message is empty</source>
        <translation>メッセージが空です</translation>
    </message>
    <message>
        <source>no session with ID &quot;%1&quot;</source>
        <translation>ID「%1」のセッションはありません</translation>
    </message>
    <message>
        <source>this session is in a read-only store; import it into Weft first</source>
        <translation>このセッションは読み取り専用のストアにあります。先に Weft にインポートしてください</translation>
    </message>
    <message>
        <source>no command &quot;%1&quot;%2</source>
        <translation>コマンド「%1」はありません%2</translation>
    </message>
    <message>
        <source>; no commands are configured</source>
        <translation>。コマンドは設定されていません</translation>
    </message>
    <message>
        <source>; available: %1</source>
        <translation>。使用できるコマンド: %1</translation>
    </message>
    <message>
        <source>unknown agent &quot;%1&quot;</source>
        <translation>不明なエージェント「%1」です</translation>
    </message>
    <message>
        <source>session %1 is busy</source>
        <translation>セッション %1 は実行中です</translation>
    </message>
    <message>
        <source>no command &quot;%1&quot;</source>
        <translation>コマンド「%1」はありません</translation>
    </message>
    <message>
        <source>the command /%1 gave an empty prompt</source>
        <translation>コマンド /%1 のプロンプトが空になりました</translation>
    </message>
    <message>
        <source>The context is still over the limit after compaction (%1 tokens, %2 usable)</source>
        <translation>コンパクト化の後もコンテキストが上限を超えています (%1 トークン、使用可能 %2)</translation>
    </message>
    <message>
        <source>cannot compact: %1</source>
        <translation>コンパクト化できません: %1</translation>
    </message>
    <message>
        <source>Nothing to compact: the session has no messages</source>
        <translation>コンパクト化するものがありません: セッションにメッセージがありません</translation>
    </message>
    <message>
        <source>Nothing to summarise: the history is too short to keep a tail (no user message to split at)</source>
        <translation>要約するものがありません: 履歴が短すぎて末尾を残せません (区切りにできるユーザーメッセージがありません)</translation>
    </message>
    <message>
        <source>Compaction refused: the summary and the kept messages (~%1 tokens) are not smaller than the history they would replace (~%2 tokens); the history was kept as it was</source>
        <translation>コンパクト化を中止しました: 要約と残すメッセージ (約 %1 トークン) が、置き換える履歴 (約 %2 トークン) より小さくなりません。履歴はそのまま残しました</translation>
    </message>
    <message>
        <source>session &quot;%1&quot; has no message &quot;%2&quot;%3</source>
        <translation>セッション「%1」にメッセージ「%2」%3はありません</translation>
    </message>
    <message>
        <source> with part &quot;%1&quot;</source>
        <translation> のパート「%1」</translation>
    </message>
    <message>
        <source>cannot save the current files before reverting: %1</source>
        <translation>元に戻す前に現在のファイルを保存できません: %1</translation>
    </message>
    <message>
        <source>cannot restore the files: %1</source>
        <translation>ファイルを復元できません: %1</translation>
    </message>
    <message>
        <source>the diff names no file</source>
        <translation>差分にファイル名がありません</translation>
    </message>
    <message>
        <source>the path &quot;%1&quot; is not a valid file name</source>
        <translation>パス「%1」は有効なファイル名ではありません</translation>
    </message>
    <message>
        <source>the session&apos;s directory &quot;%1&quot; does not exist</source>
        <translation>セッションのディレクトリ「%1」が存在しません</translation>
    </message>
    <message>
        <source>&quot;%1&quot; goes through a broken symbolic link</source>
        <translation>「%1」は壊れたシンボリックリンクを経由しています</translation>
    </message>
    <message>
        <source>cannot resolve &quot;%1&quot;</source>
        <translation>「%1」を解決できません</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is outside the session&apos;s directory %2; not touching it</source>
        <translation>「%1」はセッションのディレクトリ %2 の外にあるため、変更しません</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a folder now; not deleting it</source>
        <translation>「%1」は現在フォルダーになっているため、削除しません</translation>
    </message>
    <message>
        <source>cannot delete &quot;%1&quot;</source>
        <translation>「%1」を削除できません</translation>
    </message>
    <message>
        <source>the change of &quot;%1&quot; has no text to restore (a binary or very large file)</source>
        <translation>「%1」の変更には復元するテキストがありません (バイナリファイルか、非常に大きなファイルです)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a folder now; not replacing it</source>
        <translation>「%1」は現在フォルダーになっているため、置き換えません</translation>
    </message>
    <message>
        <source>cannot read &quot;%1&quot;: %2</source>
        <translation>「%1」を読み取れません: %2</translation>
    </message>
    <message>
        <source>cannot create the folder of &quot;%1&quot;</source>
        <translation>「%1」のフォルダーを作成できません</translation>
    </message>
    <message>
        <source>cannot write &quot;%1&quot;: %2</source>
        <translation>「%1」に書き込めません: %2</translation>
    </message>
    <message>
        <source>no model configured: set &quot;model&quot; in %1, give --model PROVIDER/MODEL, or export an API key such as ANTHROPIC_API_KEY or OPENAI_API_KEY</source>
        <translation>モデルが設定されていません: %1 で &quot;model&quot; を設定するか、--model PROVIDER/MODEL を指定するか、ANTHROPIC_API_KEY や OPENAI_API_KEY などの API キーを export してください</translation>
    </message>
    <message>
        <source>template must be a string</source>
        <translation>template は文字列である必要があります</translation>
    </message>
    <message>
        <source>no processor</source>
        <translation>プロセッサーがありません</translation>
    </message>
    <message>
        <source>Weft could not write this session to its data folder (%1), so the run was stopped; everything written before is kept</source>
        <translation>Weft はこのセッションをデータフォルダーに書き込めなかったため (%1)、実行を停止しました。それまでに書き込まれた内容はすべて残っています</translation>
    </message>
    <message>
        <source>the snapshot %1 was not made by Weft on this machine for %2 (a session imported from elsewhere names snapshots of another machine); refusing to change files from it</source>
        <translation>スナップショット %1 はこのマシンの Weft が %2 用に作成したものではありません (他の場所からインポートしたセッションは別のマシンのスナップショットを指します)。これを使ったファイルの変更を拒否します</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(なし)</translation>
    </message>
    <message>
        <source>refusing to revert: no snapshot can hold the current content of these files (larger than %1 KB, or ignored), so they could not be brought back afterwards: %2</source>
        <translation>取り消しを拒否します: これらのファイルの現在の内容を保持できるスナップショットがないため (%1 KB より大きいか、無視されています)、後で元に戻せません: %2</translation>
    </message>
    <message>
        <source>the session&apos;s pending revert names the snapshot %1, which Weft did not make on this machine for %2; refusing to revert from it</source>
        <translation>セッションの保留中の取り消しはスナップショット %1 を指していますが、これはこのマシンの Weft が %2 用に作成したものではありません。これを使った取り消しを拒否します</translation>
    </message>
</context>
<context>
    <name>weft::QuestionDialog</name>
    <message>
        <source>The Agent Asks</source>
        <translation>エージェントからの質問</translation>
    </message>
    <message>
        <source>Or type your own answer</source>
        <translation>または自分で回答を入力</translation>
    </message>
    <message>
        <source>Your own answer</source>
        <translation>自分の回答</translation>
    </message>
    <message>
        <source>&amp;Answer</source>
        <translation>回答(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Decline</source>
        <translation>断る(&amp;D)</translation>
    </message>
</context>
<context>
    <name>weft::Search</name>
    <message>
        <source>the search index needs SQLite 3.43 or newer; this system has %1</source>
        <translation>検索インデックスには SQLite 3.43 以降が必要です。このシステムのものは %1 です</translation>
    </message>
    <message>
        <source>the search index is not open</source>
        <translation>検索インデックスが開かれていません</translation>
    </message>
    <message>
        <source>cannot create the folder of the search index</source>
        <translation>検索インデックスのフォルダーを作成できません</translation>
    </message>
    <message>
        <source>cannot open the search index: %1</source>
        <translation>検索インデックスを開けません: %1</translation>
    </message>
    <message>
        <source>cannot create the search index: %1</source>
        <translation>検索インデックスを作成できません: %1</translation>
    </message>
    <message>
        <source>cannot search for &quot;%1&quot;: %2</source>
        <translation>「%1」を検索できません: %2</translation>
    </message>
    <message>
        <source>not an open SQLite connection</source>
        <translation>開いている SQLite 接続ではありません</translation>
    </message>
    <message>
        <source>this SQLite has no FTS5</source>
        <translation>この SQLite には FTS5 がありません</translation>
    </message>
    <message>
        <source>cannot register the search tokenizer: %1</source>
        <translation>検索用のトークナイザーを登録できません: %1</translation>
    </message>
    <message>
        <source>this build of Weft has no SQLite C API for its search tokenizer</source>
        <translation>この Weft のビルドには、検索用トークナイザーのための SQLite C API がありません</translation>
    </message>
</context>
<context>
    <name>weft::SearchPanel</name>
    <message>
        <source>Indexing is off: turn it on in Settings › Search.</source>
        <translation>インデックス作成はオフです。設定 › 検索 でオンにしてください。</translation>
    </message>
    <message>
        <source>Search All Sessions</source>
        <translation>すべてのセッションを検索</translation>
    </message>
    <message>
        <source>Search every session: words, &quot;a phrase&quot;, prefix*, -excluded</source>
        <translation>すべてのセッションを検索: 単語、&quot;フレーズ&quot;、前方一致*、-除外</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>検索</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>開く(&amp;O)</translation>
    </message>
    <message>
        <source>Indexing sessions: %1 of %2…</source>
        <translation>セッションをインデックス化しています: %1 / %2…</translation>
    </message>
    <message>
        <source>The search index is not available.</source>
        <translation>検索インデックスを利用できません。</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>検索しています…</translation>
    </message>
    <message>
        <source>Nothing found for “%1”.</source>
        <translation>「%1」に一致するものは見つかりませんでした。</translation>
    </message>
    <message numerus="yes">
        <source>%n result(s)</source>
        <translation>
            <numerusform>%n 件の結果</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>weft::SearchResultsModel</name>
    <message>
        <source>Session title</source>
        <translation>セッションのタイトル</translation>
    </message>
    <message>
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>アシスタント</translation>
    </message>
    <message>
        <source>reasoning</source>
        <translation>推論</translation>
    </message>
    <message>
        <source>tool call</source>
        <translation>ツール呼び出し</translation>
    </message>
    <message>
        <source>attached file</source>
        <translation>添付ファイル</translation>
    </message>
    <message>
        <source>changed files</source>
        <translation>変更されたファイル</translation>
    </message>
    <message>
        <source>subtask</source>
        <translation>サブタスク</translation>
    </message>
    <message>
        <source>agent</source>
        <translation>エージェント</translation>
    </message>
    <message>
        <source>retried error</source>
        <translation>再試行されたエラー</translation>
    </message>
    <message>
        <source>error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1、%2</translation>
    </message>
    <message>
        <source>Untitled session</source>
        <translation>無題のセッション</translation>
    </message>
</context>
<context>
    <name>weft::Server</name>
    <message>
        <source>the server made no worktree</source>
        <translation>サーバーはワークツリーを作成しませんでした</translation>
    </message>
    <message>
        <source>worktrees are not available on this server</source>
        <translation>このサーバーではワークツリーを使用できません</translation>
    </message>
    <message>
        <source>the session does not work in a worktree of the server</source>
        <translation>このセッションはサーバーのワークツリーで作業していません</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service is not running (its process %1 is gone)</source>
        <translation>OpenCode サービスは動作していません (プロセス %1 は終了しています)</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file is too large</source>
        <translation>OpenCode のサービスファイルが大きすぎます</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file may be read or changed by others (mode %1, not 600): it is not used</source>
        <translation>OpenCode のサービスファイルは他のユーザーが読み書きできます (モード %1、600 ではありません): 使用しません</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file belongs to another user: it is not used</source>
        <translation>OpenCode のサービスファイルは別のユーザーのものです: 使用しません</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file is not a regular file</source>
        <translation>OpenCode のサービスファイルは通常のファイルではありません</translation>
    </message>
    <message>
        <source>no OpenCode service runs (no %1)</source>
        <translation>OpenCode サービスは動作していません (%1 がありません)</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file names %1, not an http:// address on this machine (127.0.0.1)</source>
        <translation>OpenCode のサービスファイルが指すのは %1 で、このマシン上の http:// アドレス (127.0.0.1) ではありません</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file lacks its url, pid or password</source>
        <translation>OpenCode のサービスファイルに url、pid、password のいずれかがありません</translation>
    </message>
    <message>
        <source>OpenCode&apos;s service file is not valid JSON</source>
        <translation>OpenCode のサービスファイルは有効な JSON ではありません</translation>
    </message>
    <message>
        <source>the OpenCode server is not connected</source>
        <translation>OpenCode サーバーに接続していません</translation>
    </message>
    <message>
        <source>forms are OpenCode 2&apos;s</source>
        <translation>フォームは OpenCode 2 の機能です</translation>
    </message>
    <message>
        <source>steering or queueing a prompt needs an OpenCode 2 server (this is OpenCode %1)</source>
        <translation>プロンプトの割り込み (steer) やキュー投入には OpenCode 2 のサーバーが必要です (これは OpenCode %1 です)</translation>
    </message>
    <message>
        <source>OpenCode %1 is a version Weft does not know (it speaks to OpenCode 1.x and 2.x servers)</source>
        <translation>OpenCode %1 は Weft が知らないバージョンです (Weft が対応するのは OpenCode 1.x と 2.x のサーバーです)</translation>
    </message>
    <message>
        <source>this is not an OpenCode server (it has neither /global/health nor /api/health)</source>
        <translation>これは OpenCode サーバーではありません (/global/health も /api/health もありません)</translation>
    </message>
    <message>
        <source>the request to the OpenCode server was given up</source>
        <translation>OpenCode サーバーへのリクエストは中止されました</translation>
    </message>
    <message>
        <source>no OpenCode server given</source>
        <translation>OpenCode サーバーが指定されていません</translation>
    </message>
    <message>
        <source>Weft is quitting</source>
        <translation>Weft を終了しています</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a server address (http://HOST:PORT)</source>
        <translation>「%1」はサーバーのアドレスではありません (http://HOST:PORT)</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: an OpenCode server is reached over http:// or https:// (or ssh://)</source>
        <translation>「%1」: OpenCode サーバーには http:// または https:// (あるいは ssh://) で接続します</translation>
    </message>
    <message>
        <source>&quot;%1&quot;: a server address has no query or fragment</source>
        <translation>「%1」: サーバーのアドレスにクエリやフラグメントは付けられません</translation>
    </message>
    <message>
        <source>the OpenCode server did not answer %1 %2 within %3 s</source>
        <translation>OpenCode サーバーが %3 秒以内に %1 %2 に応答しませんでした</translation>
    </message>
    <message>
        <source>cannot reach the OpenCode server: %1</source>
        <translation>OpenCode サーバーに接続できません: %1</translation>
    </message>
    <message>
        <source>the OpenCode server asks for a password (OPENCODE_SERVER_PASSWORD or --password-file)</source>
        <translation>OpenCode サーバーがパスワードを求めています (OPENCODE_SERVER_PASSWORD または --password-file)</translation>
    </message>
    <message>
        <source>the OpenCode server refused the password</source>
        <translation>OpenCode サーバーがパスワードを拒否しました</translation>
    </message>
    <message>
        <source>%1 %2 failed (HTTP %3)%4</source>
        <extracomment>Keep &quot;(HTTP %3)&quot; as it is: health() looks for &quot;(HTTP 404)&quot; in this message.</extracomment>
        <translation>%1 %2 に失敗しました (HTTP %3)%4</translation>
    </message>
    <message>
        <source>%1 %2 answered something that is not JSON (is this an OpenCode server?)</source>
        <translation>%1 %2 が JSON ではない応答を返しました (OpenCode サーバーですか?)</translation>
    </message>
    <message>
        <source>this is not an OpenCode server (/global/health has no version)</source>
        <translation>これは OpenCode サーバーではありません (/global/health にバージョンがありません)</translation>
    </message>
    <message>
        <source>the sessions of an OpenCode server are changed by the server (through its API), not written by Weft</source>
        <translation>OpenCode サーバーのセッションはサーバーが (その API を通じて) 変更します。Weft は書き込みません</translation>
    </message>
    <message>
        <source>a model is named PROVIDER/MODEL, not &quot;%1&quot;</source>
        <translation>モデルは PROVIDER/MODEL の形式で指定します (「%1」ではありません)</translation>
    </message>
    <message>
        <source>the session has used no model yet: name one with --model PROVIDER/MODEL</source>
        <translation>このセッションはまだモデルを使っていません。--model PROVIDER/MODEL で指定してください</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an ssh:// address: %2</source>
        <translation>「%1」は ssh:// のアドレスではありません: %2</translation>
    </message>
    <message>
        <source>it does not start with ssh://</source>
        <translation>ssh:// で始まっていません</translation>
    </message>
    <message>
        <source>it has control characters</source>
        <translation>制御文字が含まれています</translation>
    </message>
    <message>
        <source>it has a space before the folder</source>
        <translation>フォルダーの前に空白があります</translation>
    </message>
    <message>
        <source>a password does not go in the address (ssh uses your keys and agent)</source>
        <translation>パスワードはアドレスに含めません (ssh はあなたの鍵と ssh-agent を使います)</translation>
    </message>
    <message>
        <source>an ssh:// address has no query or fragment</source>
        <translation>ssh:// のアドレスにクエリやフラグメントは付けられません</translation>
    </message>
    <message>
        <source>no host</source>
        <translation>ホストがありません</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a host name</source>
        <translation>「%1」はホスト名ではありません</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a user name</source>
        <translation>「%1」はユーザー名ではありません</translation>
    </message>
    <message>
        <source>ssh to %1 failed</source>
        <translation>%1 への ssh に失敗しました</translation>
    </message>
</context>
<context>
    <name>weft::ServerSource</name>
    <message>
        <source>OpenCode service %1 · %2</source>
        <translation>OpenCode サービス %1 · %2</translation>
    </message>
    <message>
        <source>OpenCode service · %1</source>
        <translation>OpenCode サービス · %1</translation>
    </message>
    <message>
        <source>OpenCode server · %1</source>
        <translation>OpenCode サーバー · %1</translation>
    </message>
    <message>
        <source>%1 (connecting…)</source>
        <translation>%1（接続中…）</translation>
    </message>
    <message>
        <source>%1 (reconnecting…)</source>
        <translation>%1（再接続中…）</translation>
    </message>
    <message>
        <source>%1 (not connected)</source>
        <translation>%1（未接続）</translation>
    </message>
</context>
<context>
    <name>weft::Session</name>
    <message>
        <source>the model proposed no message</source>
        <translation>モデルはメッセージを提案しませんでした</translation>
    </message>
    <message>
        <source>no model is configured</source>
        <translation>モデルが設定されていません</translation>
    </message>
    <message>
        <source>no session %1</source>
        <translation>セッション %1 はありません</translation>
    </message>
    <message>
        <source>nothing is queued for session %1</source>
        <translation>セッション %1 に待機中のプロンプトはありません</translation>
    </message>
    <message>
        <source>session %1 is running</source>
        <translation>セッション %1 は実行中です</translation>
    </message>
    <message>
        <source>the trash is closed</source>
        <translation>ゴミ箱は閉じられています</translation>
    </message>
    <message>
        <source>an OpenCode server&apos;s sessions have no trash</source>
        <translation>OpenCode サーバーのセッションにはゴミ箱がありません</translation>
    </message>
    <message>
        <source>the files of an OpenCode server&apos;s session are on the server</source>
        <translation>OpenCode サーバーのセッションのファイルはサーバー上にあります</translation>
    </message>
    <message>
        <source>session %1 is being run by %2</source>
        <translation>セッション %1 は %2 が実行中です</translation>
    </message>
    <message>
        <source>session %1 is running; stop it first</source>
        <translation>セッション %1 は実行中です。先に停止してください</translation>
    </message>
    <message>
        <source>%1 is read-only (an OpenCode database); import the session into Weft&apos;s own store to change it</source>
        <translation>%1 は読み取り専用です (OpenCode のデータベース)。変更するにはセッションを Weft 自身のストアにインポートしてください</translation>
    </message>
    <message>
        <source>invalid project ID &quot;%1&quot;</source>
        <translation>不正なプロジェクト ID「%1」です</translation>
    </message>
    <message>
        <source>no session with ID &quot;%1&quot;</source>
        <translation>ID「%1」のセッションはありません</translation>
    </message>
    <message>
        <source>a session title cannot be empty</source>
        <translation>セッションのタイトルは空にできません</translation>
    </message>
    <message>
        <source>session &quot;%1&quot; has no message &quot;%2&quot;</source>
        <translation>セッション「%1」にメッセージ「%2」はありません</translation>
    </message>
    <message>
        <source>sessions nested more than 64 levels deep (a parentID cycle?)</source>
        <translation>セッションの入れ子が 64 階層を超えています (parentID が循環していませんか?)</translation>
    </message>
    <message>
        <source>Session not found: %1</source>
        <translation>セッションが見つかりません: %1</translation>
    </message>
    <message>
        <source>not a valid session export:
  %1</source>
        <translation>有効なセッションのエクスポートではありません:
  %1</translation>
    </message>
    <message>
        <source>the store is read-only</source>
        <translation>ストアは読み取り専用です</translation>
    </message>
    <message>
        <source>cannot open: %1</source>
        <translation>開けません: %1</translation>
    </message>
    <message>
        <source>the file is larger than 2 GB</source>
        <translation>ファイルが 2 GB を超えています</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>ファイルが空です</translation>
    </message>
    <message>
        <source>not valid JSON (%1)</source>
        <translation>有効な JSON ではありません (%1)</translation>
    </message>
    <message>
        <source>not a folder</source>
        <translation>フォルダーではありません</translation>
    </message>
    <message>
        <source>no such folder</source>
        <translation>そのようなフォルダーはありません</translation>
    </message>
    <message>
        <source>cannot create the data dir</source>
        <translation>データフォルダーを作成できません</translation>
    </message>
    <message>
        <source>session %1 is being run by %2; stop it before deleting it</source>
        <translation>セッション %1 は %2 が実行中です。削除する前に停止してください</translation>
    </message>
    <message>
        <source>this process</source>
        <translation>このプロセス</translation>
    </message>
    <message>
        <source>these sessions have no trash</source>
        <translation>これらのセッションにはごみ箱がありません</translation>
    </message>
    <message>
        <source>the restored session cannot be read</source>
        <translation>復元したセッションを読み取れません</translation>
    </message>
    <message>
        <source>%1 cannot keep the note of an imported session</source>
        <translation>%1 にはインポートしたセッションの記録を保存できません</translation>
    </message>
    <message>
        <source>cannot create the folder of imported sessions</source>
        <translation>インポートしたセッションのフォルダーを作成できません</translation>
    </message>
    <message>
        <source>cannot write the note of an imported session: %1</source>
        <translation>インポートしたセッションの記録を書き込めません: %1</translation>
    </message>
    <message>
        <source>session %1 was imported and works in %2, a directory you have not confirmed yet; check that this is the folder you mean, then accept it (`weft session accept %1`, or --accept-directory)</source>
        <translation>セッション %1 はインポートされたもので、まだ確認されていないディレクトリ %2 で作業します。意図したフォルダーであることを確認してから承認してください (`weft session accept %1`、または --accept-directory)</translation>
    </message>
    <message>
        <source>(no directory)</source>
        <translation>(ディレクトリなし)</translation>
    </message>
    <message>
        <source>permission rules dropped (%1), as they would have granted what your config may not: %2</source>
        <translation>権限ルールを破棄しました (%1 件)。設定が許可しない権限を与えるものでした: %2</translation>
    </message>
</context>
<context>
    <name>weft::SessionDelegate</name>
    <message>
        <source>Not migrated</source>
        <translation>未移行</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>Compacting</source>
        <translation>コンパクト化中</translation>
    </message>
    <message>
        <source>Subagent</source>
        <translation>サブエージェント</translation>
    </message>
    <message>
        <source>Fork</source>
        <translation>フォーク</translation>
    </message>
</context>
<context>
    <name>weft::SessionSidebar</name>
    <message>
        <source>Filter sessions…</source>
        <translation>セッションを絞り込み…</translation>
    </message>
    <message>
        <source>Filter sessions</source>
        <translation>セッションを絞り込み</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>セッション</translation>
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
バージョン %2 で書き込まれたセッション</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今日</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>昨日</translation>
    </message>
    <message>
        <source>This Week</source>
        <translation>今週</translation>
    </message>
    <message>
        <source>Older</source>
        <translation>それ以前</translation>
    </message>
    <message>
        <source>Archived</source>
        <translation>アーカイブ済み</translation>
    </message>
</context>
<context>
    <name>weft::SessionsModel</name>
    <message>
        <source>Not migrated: OpenCode 2 skipped this OpenCode 1 session and does not list it. Import it into Weft to keep working on it.</source>
        <translation>未移行: OpenCode 2 はこの OpenCode 1 のセッションを移行しておらず、一覧に表示しません。作業を続けるには Weft にインポートしてください。</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>グローバル</translation>
    </message>
</context>
<context>
    <name>weft::SettingsDialog</name>
    <message>
        <source>Search</source>
        <translation>検索</translation>
    </message>
    <message>
        <source>For projects that have not chosen yet: each project remembers its last choice.</source>
        <translation>まだ選んでいないプロジェクト向けです。各プロジェクトは最後の選択を記憶します。</translation>
    </message>
    <message>
        <source>New Session (Folder, Worktree)… offers a new git &amp;worktree first</source>
        <translation>「新しいセッション (フォルダー、ワークツリー)…」で新しい ワークツリーを最初から選択(&amp;W)</translation>
    </message>
    <message>
        <source>While the agent &amp;replies, Enter:</source>
        <translation>エージェントの応答中の Enter(&amp;R):</translation>
    </message>
    <message>
        <source>Alt+Enter does the other.</source>
        <translation>Alt+Enter はもう一方を行います。</translation>
    </message>
    <message>
        <source>Steers it into the reply at its next step</source>
        <translation>次のステップで応答に差し込む</translation>
    </message>
    <message>
        <source>Queues the prompt for when the reply ends</source>
        <translation>応答が終わったときのためにプロンプトをキューに入れる</translation>
    </message>
    <message>
        <source>Configure</source>
        <translation>設定</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>プロバイダ</translation>
    </message>
    <message>
        <source>Compaction</source>
        <translation>コンパクト化</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>外観</translation>
    </message>
    <message>
        <source>This file has comments. Saving here writes it again without them; everything else is kept.</source>
        <translation>このファイルにはコメントがあります。ここで保存するとコメントなしで書き直されます。それ以外はすべて保持されます。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Add a provider</source>
        <translation>プロバイダを追加します</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Remove the selected provider from the config</source>
        <translation>選択したプロバイダを設定から削除します</translation>
    </message>
    <message>
        <source>The name models are referred to by: provider/model</source>
        <translation>モデルを参照するときの名前: プロバイダ/モデル</translation>
    </message>
    <message>
        <source>The AI SDK package OpenCode uses for this provider. Weft speaks the Anthropic protocol for @ai-sdk/anthropic and the OpenAI-compatible one for the others.</source>
        <translation>OpenCode がこのプロバイダに使用する AI SDK パッケージ。Weft は @ai-sdk/anthropic には Anthropic プロトコルを、それ以外には OpenAI 互換プロトコルを使用します。</translation>
    </message>
    <message>
        <source>From the environment</source>
        <translation>環境から</translation>
    </message>
    <message>
        <source>Stored in the config file</source>
        <translation>設定ファイルに保存</translation>
    </message>
    <message>
        <source>From an environment variable</source>
        <translation>環境変数から</translation>
    </message>
    <message>
        <source>From a file</source>
        <translation>ファイルから</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>コンテキスト</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>In $/M</source>
        <translation>入力 $/100万</translation>
    </message>
    <message>
        <source>Out $/M</source>
        <translation>出力 $/100万</translation>
    </message>
    <message>
        <source>Cached $/M</source>
        <translation>キャッシュ読込 $/100万</translation>
    </message>
    <message>
        <source>Cache write $/M</source>
        <translation>キャッシュ書込 $/100万</translation>
    </message>
    <message>
        <source>The model&apos;s ID at the provider</source>
        <translation>プロバイダでのモデルの ID</translation>
    </message>
    <message>
        <source>Context window, in tokens</source>
        <translation>コンテキストウィンドウ (トークン数)</translation>
    </message>
    <message>
        <source>Longest answer, in tokens</source>
        <translation>最長の応答 (トークン数)</translation>
    </message>
    <message>
        <source>US dollars per million input tokens</source>
        <translation>入力 100 万トークンあたりの米ドル</translation>
    </message>
    <message>
        <source>US dollars per million output tokens</source>
        <translation>出力 100 万トークンあたりの米ドル</translation>
    </message>
    <message>
        <source>US dollars per million input tokens read from the cache</source>
        <translation>キャッシュから読み込む入力 100 万トークンあたりの米ドル</translation>
    </message>
    <message>
        <source>US dollars per million input tokens written to the cache</source>
        <translation>キャッシュに書き込む入力 100 万トークンあたりの米ドル</translation>
    </message>
    <message>
        <source>Add Model</source>
        <translation>モデルを追加</translation>
    </message>
    <message>
        <source>Remove Model</source>
        <translation>モデルを削除</translation>
    </message>
    <message>
        <source>&amp;ID:</source>
        <translation>ID(&amp;I):</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <source>&amp;Package:</source>
        <translation>パッケージ(&amp;P):</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>ベース URL(&amp;B):</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>API キー(&amp;K):</translation>
    </message>
    <message>
        <source>Models:</source>
        <translation>モデル:</translation>
    </message>
    <message>
        <source>Chosen by Weft from the keys it finds</source>
        <translation>見つかったキーから Weft が選択</translation>
    </message>
    <message>
        <source>A small model of the default model&apos;s provider</source>
        <translation>既定のモデルのプロバイダの小さなモデル</translation>
    </message>
    <message>
        <source>Used for session titles and other small tasks</source>
        <translation>セッションのタイトルなどの小さな作業に使用されます</translation>
    </message>
    <message>
        <source>&amp;Default model:</source>
        <translation>既定のモデル(&amp;D):</translation>
    </message>
    <message>
        <source>&amp;Small model:</source>
        <translation>小さなモデル(&amp;S):</translation>
    </message>
    <message>
        <source>Compact &amp;automatically when the context is full</source>
        <translation>コンテキストがいっぱいになったら自動的にコンパクト化する(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Prune old tool outputs before they fill the context</source>
        <translation>古いツール出力がコンテキストを埋める前に消去する(&amp;P)</translation>
    </message>
    <message>
        <source>Summarize the whole conversation (OpenCode)</source>
        <translation>会話全体を要約する (OpenCode)</translation>
    </message>
    <message>
        <source>Summarize the older 70%, keep the newest 30% (Gemini CLI)</source>
        <translation>古い 70% を要約し、最新の 30% を残す (Gemini CLI)</translation>
    </message>
    <message>
        <source>Characters ÷ 4 (OpenCode)</source>
        <translation>文字数 ÷ 4 (OpenCode)</translation>
    </message>
    <message>
        <source>By kind of character (Gemini CLI; closer for Chinese and Japanese)</source>
        <translation>文字の種類ごと (Gemini CLI。中国語と日本語ではより正確)</translation>
    </message>
    <message>
        <source>The larger of the two</source>
        <translation>2 つのうち大きい方</translation>
    </message>
    <message>
        <source>The model&apos;s output limit</source>
        <translation>モデルの出力上限</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> トークン</translation>
    </message>
    <message>
        <source>Tokens kept free for the answer when deciding that the context is full</source>
        <translation>コンテキストがいっぱいかどうかを判断するときに、応答用に空けておくトークン数</translation>
    </message>
    <message>
        <source>The session&apos;s model</source>
        <translation>セッションのモデル</translation>
    </message>
    <message>
        <source>&amp;Strategy:</source>
        <translation>方式(&amp;S):</translation>
    </message>
    <message>
        <source>&amp;Token estimate:</source>
        <translation>トークンの見積もり(&amp;T):</translation>
    </message>
    <message>
        <source>&amp;Reserved for the answer:</source>
        <translation>応答用に予約(&amp;R):</translation>
    </message>
    <message>
        <source>Summary &amp;model:</source>
        <translation>要約モデル(&amp;M):</translation>
    </message>
    <message>
        <source>%1 is set in the environment and overrides these settings.</source>
        <translation>%1 が環境で設定されており、これらの設定より優先されます。</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>システムに従う</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>ライト</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>ダーク</translation>
    </message>
    <message>
        <source>Use a &amp;different font for the conversation</source>
        <translation>会話に別のフォントを使用する(&amp;D)</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>&amp;Colors:</source>
        <translation>配色(&amp;C):</translation>
    </message>
    <message>
        <source>&amp;Font:</source>
        <translation>フォント(&amp;F):</translation>
    </message>
    <message>
        <source>Saved in %1</source>
        <translation>%1 に保存されます</translation>
    </message>
    <message>
        <source>Weft cannot read its config file, so providers and compaction cannot be changed here until it is fixed: %1</source>
        <translation>Weft は設定ファイルを読み込めないため、修正されるまでここでプロバイダとコンパクト化を変更できません: %1</translation>
    </message>
    <message>
        <source>https://example.com/v1</source>
        <translation>https://example.com/v1</translation>
    </message>
    <message>
        <source>No key: for a local server that needs none.</source>
        <translation>キーなし: キーを必要としないローカルサーバー用です。</translation>
    </message>
    <message>
        <source>Weft reads the key from %1 when it starts.</source>
        <translation>Weft は起動時に %1 からキーを読み込みます。</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <source>The key is written into the config file, which only you can read. Weft never writes it to its logs.</source>
        <translation>キーは、あなただけが読み取れる設定ファイルに書き込まれます。Weft がキーをログに書き込むことはありません。</translation>
    </message>
    <message>
        <source>Variable name, such as MY_PROVIDER_API_KEY</source>
        <translation>変数名 (例: MY_PROVIDER_API_KEY)</translation>
    </message>
    <message>
        <source>The config file holds {env:VARIABLE}; Weft and OpenCode read the variable when they start.</source>
        <translation>設定ファイルには {env:VARIABLE} が書き込まれ、Weft と OpenCode は起動時にその変数を読み込みます。</translation>
    </message>
    <message>
        <source>Path of a file that holds the key</source>
        <translation>キーを保存しているファイルのパス</translation>
    </message>
    <message>
        <source>The config file holds {file:path}; the key is read from that file.</source>
        <translation>設定ファイルには {file:path} が書き込まれ、キーはそのファイルから読み込まれます。</translation>
    </message>
    <message>
        <source>A provider ID must not be empty or contain &quot;/&quot; or spaces: &quot;%1&quot;.</source>
        <translation>プロバイダ ID は空にできず、&quot;/&quot; や空白を含めることもできません: &quot;%1&quot;。</translation>
    </message>
    <message>
        <source>Two providers have the ID &quot;%1&quot;.</source>
        <translation>2 つのプロバイダの ID が同じ &quot;%1&quot; です。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an environment variable name (provider %2).</source>
        <translation>&quot;%1&quot; は環境変数名ではありません (プロバイダ %2)。</translation>
    </message>
    <message>
        <source>Give the file that holds the key of provider %1.</source>
        <translation>プロバイダ %1 のキーを保存しているファイルを指定してください。</translation>
    </message>
    <message>
        <source>A model of provider %1 has no ID.</source>
        <translation>プロバイダ %1 のモデルに ID がありません。</translation>
    </message>
    <message>
        <source>Provider %1 has the model &quot;%2&quot; twice.</source>
        <translation>プロバイダ %1 にモデル &quot;%2&quot; が 2 つあります。</translation>
    </message>
    <message>
        <source>Limits and prices of model %1/%2 must be numbers of 0 or more.</source>
        <translation>モデル %1/%2 の上限と価格は 0 以上の数値でなければなりません。</translation>
    </message>
    <message>
        <source>Compaction: %1</source>
        <translation>コンパクト化: %1</translation>
    </message>
    <message>
        <source>The settings were not saved: %1</source>
        <translation>設定は保存されませんでした: %1</translation>
    </message>
    <message>
        <source>MCP Servers</source>
        <translation>MCP サーバー</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>&amp;Desktop notifications</source>
        <translation>デスクトップ通知(&amp;D)</translation>
    </message>
    <message>
        <source>A notification when a run finishes, fails or needs your answer while Weft&apos;s window is not the active one. Clicking it opens the session.</source>
        <translation>Weft のウィンドウがアクティブでないときに、実行の終了・失敗・回答の必要を通知します。クリックするとセッションを開きます。</translation>
    </message>
</context>
<context>
    <name>weft::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>キーボードショートカット</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>ショートカット</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>場所</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>タイムライン</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>変更</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>差分</translation>
    </message>
    <message>
        <source>Find bar</source>
        <translation>検索バー</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>セッション</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>プロンプト</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>ウィンドウ</translation>
    </message>
    <message>
        <source>Send the prompt</source>
        <translation>プロンプトを送信</translation>
    </message>
    <message>
        <source>New line in the prompt</source>
        <translation>プロンプト内で改行</translation>
    </message>
    <message>
        <source>Stop the run</source>
        <translation>実行を停止</translation>
    </message>
    <message>
        <source>Earlier prompt of this session (in an empty prompt)</source>
        <translation>このセッションの前のプロンプト(空のプロンプトで)</translation>
    </message>
    <message>
        <source>Later prompt of this session</source>
        <translation>このセッションの次のプロンプト</translation>
    </message>
    <message>
        <source>Attach a project file or an MCP resource</source>
        <translation>プロジェクトのファイルや MCP リソースを添付</translation>
    </message>
    <message>
        <source>Run a command</source>
        <translation>コマンドを実行</translation>
    </message>
    <message>
        <source>Message menu: copy, fork from here</source>
        <translation>メッセージのメニュー: コピー、ここからフォーク</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>キーボードショートカット</translation>
    </message>
    <message>
        <source>Search actions, keys or places…</source>
        <translation>操作、キー、場所を検索…</translation>
    </message>
    <message>
        <source>Search shortcuts</source>
        <translation>ショートカットを検索</translation>
    </message>
</context>
<context>
    <name>weft::Store</name>
    <message>
        <source>this store keeps no todo lists</source>
        <translation>このストアには ToDo リストを保存できません</translation>
    </message>
    <message>
        <source>empty storage key</source>
        <translation>ストレージキーが空です</translation>
    </message>
    <message>
        <source>refusing unsafe storage key component &quot;%1&quot; (empty, &quot;.&quot;, &quot;..&quot;, a path separator, NUL or control characters)</source>
        <translation>安全でないストレージキーの要素「%1」は使用できません (空、&quot;.&quot;、&quot;..&quot;、パス区切り文字、NUL または制御文字)</translation>
    </message>
    <message>
        <source>cannot open: %1</source>
        <translation>開けません: %1</translation>
    </message>
    <message>
        <source>file is %1 MB, larger than any OpenCode record; skipped</source>
        <translation>ファイルが %1 MB あり、どの OpenCode のレコードよりも大きいため、スキップしました</translation>
    </message>
    <message>
        <source>file is larger than any OpenCode record; skipped</source>
        <translation>ファイルがどの OpenCode のレコードよりも大きいため、スキップしました</translation>
    </message>
    <message>
        <source>read error: %1</source>
        <translation>読み取りエラー: %1</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>ファイルが空です</translation>
    </message>
    <message>
        <source>the file holds only NUL bytes (%1 bytes; typically left by a crash during a write)</source>
        <translation>ファイルに NUL バイトしかありません (%1 バイト。通常は書き込み中のクラッシュで残ったものです)</translation>
    </message>
    <message>
        <source>not valid JSON (%1)</source>
        <translation>有効な JSON ではありません (%1)</translation>
    </message>
    <message>
        <source>cannot write: %1</source>
        <translation>書き込めません: %1</translation>
    </message>
    <message>
        <source>write failed: %1</source>
        <translation>書き込みに失敗しました: %1</translation>
    </message>
    <message>
        <source>cannot save: %1</source>
        <translation>保存できません: %1</translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation>フォルダー %1 を作成できません</translation>
    </message>
    <message>
        <source>refusing unsafe storage key component &quot;%1&quot;</source>
        <translation>安全でないストレージキーの要素「%1」は使用できません</translation>
    </message>
    <message>
        <source>cannot create the folder: %1</source>
        <translation>フォルダーを作成できません: %1</translation>
    </message>
    <message>
        <source>cannot open the storage folder to flush it</source>
        <translation>フラッシュのためにストレージフォルダーを開けません</translation>
    </message>
    <message>
        <source>cannot flush the written files: %1</source>
        <translation>書き込んだファイルをフラッシュできません: %1</translation>
    </message>
    <message>
        <source>cannot remove: %1</source>
        <translation>削除できません: %1</translation>
    </message>
    <message>
        <source>cannot create the storage folder</source>
        <translation>ストレージフォルダーを作成できません</translation>
    </message>
    <message>
        <source>cannot read the migration file: %1</source>
        <translation>マイグレーションファイルを読み取れません: %1</translation>
    </message>
    <message>
        <source>the migration file does not hold a number</source>
        <translation>マイグレーションファイルに数値が書かれていません</translation>
    </message>
    <message>
        <source>this storage was migrated to version %1 by a newer OpenCode; Weft knows version %2</source>
        <translation>このストレージは新しい OpenCode によってバージョン %1 に移行されています。Weft が対応しているのはバージョン %2 です</translation>
    </message>
    <message>
        <source>cannot write the migration file: %1</source>
        <translation>マイグレーションファイルを書き込めません: %1</translation>
    </message>
    <message>
        <source>unexpected shape: %1</source>
        <translation>想定外の構造です: %1</translation>
    </message>
    <message>
        <source>the file name does not match the session ID &quot;%1&quot;</source>
        <translation>ファイル名がセッション ID「%1」と一致しません</translation>
    </message>
    <message>
        <source>the message&apos;s id or sessionID does not match its file</source>
        <translation>メッセージの id または sessionID がファイルと一致しません</translation>
    </message>
    <message>
        <source>the part&apos;s id or messageID does not match its file</source>
        <translation>パートの id または messageID がファイルと一致しません</translation>
    </message>
    <message>
        <source>expected an array of file diffs</source>
        <translation>ファイル差分の配列が必要です</translation>
    </message>
    <message>
        <source>not a stream journal of Weft</source>
        <translation>Weft のストリームジャーナルではありません</translation>
    </message>
    <message>
        <source>expected an array of todo items</source>
        <translation>ToDo 項目の配列が必要です</translation>
    </message>
    <message>
        <source>another Weft process</source>
        <translation>別の Weft プロセス</translation>
    </message>
    <message>
        <source>%1 (an unknown process)</source>
        <extracomment>%1 what runs it (&quot;weft run&quot;), %2 its process ID, %3 its host, %4 since when</extracomment>
        <translation>%1 (不明なプロセス)</translation>
    </message>
    <message>
        <source>%1 (process %2 on %3)</source>
        <translation>%1 (%3 上のプロセス %2)</translation>
    </message>
    <message>
        <source>%1 (process %2 on %3, since %4)</source>
        <translation>%1 (%3 上のプロセス %2、%4 から)</translation>
    </message>
    <message>
        <source>%1 (process %2)</source>
        <translation>%1 (プロセス %2)</translation>
    </message>
    <message>
        <source>%1 (process %2, since %3)</source>
        <translation>%1 (プロセス %2、%3 から)</translation>
    </message>
    <message>
        <source>cannot create the folder of the session locks</source>
        <translation>セッションのロック用フォルダーを作成できません</translation>
    </message>
    <message>
        <source>cannot open the session&apos;s lock file: %1</source>
        <translation>セッションのロックファイルを開けません: %1</translation>
    </message>
    <message>
        <source>cannot lock the session: %1</source>
        <translation>セッションをロックできません: %1</translation>
    </message>
    <message>
        <source>session %1 is busy: this process is running it</source>
        <translation>セッション %1 は実行中です: このプロセスが実行しています</translation>
    </message>
    <message>
        <source>session %1 is being run by %2; wait for it to finish, or stop it there</source>
        <translation>セッション %1 は %2 が実行中です。終わるまで待つか、そちらで停止してください</translation>
    </message>
    <message>
        <source>cannot move to %1: %2</source>
        <translation>%1 に移動できません: %2</translation>
    </message>
    <message>
        <source>cannot create the folder</source>
        <translation>フォルダーを作成できません</translation>
    </message>
    <message>
        <source>the trash entry has no manifest</source>
        <translation>ごみ箱の項目にマニフェストがありません</translation>
    </message>
    <message>
        <source>cannot read the manifest: %1</source>
        <translation>マニフェストを読み取れません: %1</translation>
    </message>
    <message>
        <source>the manifest is damaged: %1</source>
        <translation>マニフェストが壊れています: %1</translation>
    </message>
    <message>
        <source>invalid session ID &quot;%1&quot;</source>
        <translation>無効なセッション ID「%1」</translation>
    </message>
    <message>
        <source>no sessions</source>
        <translation>セッションがありません</translation>
    </message>
    <message>
        <source>unexpected file &quot;%1&quot;</source>
        <translation>想定外のファイル「%1」</translation>
    </message>
    <message>
        <source>no session to move to the trash</source>
        <translation>ごみ箱に移動するセッションがありません</translation>
    </message>
    <message>
        <source>the session has no file to move</source>
        <translation>セッションに移動するファイルがありません</translation>
    </message>
    <message>
        <source>cannot create the trash folder</source>
        <translation>ごみ箱フォルダーを作成できません</translation>
    </message>
    <message>
        <source>cannot create the trash entry</source>
        <translation>ごみ箱の項目を作成できません</translation>
    </message>
    <message>
        <source>cannot write the trash manifest: %1</source>
        <translation>ごみ箱のマニフェストを書き込めません: %1</translation>
    </message>
    <message numerus="yes">
        <source>moving the session to the trash failed (%1), and %n file(s) could not be moved back; they are in %2</source>
        <translation>
            <numerusform>セッションをごみ箱に移動できず (%1)、%n 個のファイルを元に戻せませんでした。それらは %2 にあります</numerusform>
        </translation>
    </message>
    <message>
        <source>moving the session to the trash failed, nothing was deleted: %1</source>
        <translation>セッションをごみ箱に移動できませんでした。何も削除されていません: %1</translation>
    </message>
    <message>
        <source>not a folder</source>
        <translation>フォルダーではありません</translation>
    </message>
    <message>
        <source>no trash entry &quot;%1&quot;</source>
        <translation>ごみ箱の項目「%1」はありません</translation>
    </message>
    <message>
        <source>the trash entry is not a folder</source>
        <translation>ごみ箱の項目がフォルダーではありません</translation>
    </message>
    <message>
        <source>a session with the ID %1 exists again; delete or rename it before restoring this one</source>
        <translation>ID %1 のセッションが再び存在します。このセッションを復元する前に、それを削除するか名前を変更してください</translation>
    </message>
    <message>
        <source>the trash entry is damaged: %1</source>
        <translation>ごみ箱の項目が壊れています: %1</translation>
    </message>
    <message>
        <source>no storage folder</source>
        <translation>ストレージフォルダーがありません</translation>
    </message>
    <message>
        <source>refusing to restore outside the storage folder</source>
        <translation>ストレージフォルダーの外には復元しません</translation>
    </message>
    <message>
        <source>the trash entry is incomplete: %1 is missing</source>
        <translation>ごみ箱の項目が不完全です: %1 がありません</translation>
    </message>
    <message>
        <source>%1 is not a plain file</source>
        <translation>%1 は通常のファイルではありません</translation>
    </message>
    <message>
        <source>%1 exists in the store again; nothing was restored</source>
        <translation>%1 がストアに再び存在します。何も復元されていません</translation>
    </message>
    <message>
        <source>restoring failed, the session stays in the trash: %1</source>
        <translation>復元に失敗しました。セッションはごみ箱に残ります: %1</translation>
    </message>
    <message>
        <source>cannot delete the trash entry</source>
        <translation>ごみ箱の項目を削除できません</translation>
    </message>
</context>
<context>
    <name>weft::Style</name>
    <message>
        <source>just now</source>
        <translation>たった今</translation>
    </message>
    <message numerus="yes">
        <source>%n min ago</source>
        <translation>
            <numerusform>%n 分前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h ago</source>
        <translation>
            <numerusform>%n 時間前</numerusform>
        </translation>
    </message>
    <message>
        <source>yesterday</source>
        <translation>昨日</translation>
    </message>
</context>
<context>
    <name>weft::TimelineDelegate</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ミリ秒</translation>
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
        <translation>保留中</translation>
    </message>
    <message>
        <source>Interrupted</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>不明</translation>
    </message>
    <message>
        <source>Conversation compacted automatically</source>
        <translation>会話は自動的にコンパクト化されました</translation>
    </message>
    <message>
        <source>Conversation compacted</source>
        <translation>会話はコンパクト化されました</translation>
    </message>
    <message>
        <source>Earlier messages are summarised below and no longer sent to the model</source>
        <translation>以前のメッセージは下に要約され、今後モデルには送信されません</translation>
    </message>
    <message>
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>要約</translation>
    </message>
    <message>
        <source>assistant</source>
        <translation>アシスタント</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 トークン</translation>
    </message>
    <message>
        <source>Not in context</source>
        <translation>コンテキスト外</translation>
    </message>
    <message>
        <source>Compaction summary</source>
        <translation>コンパクト化の要約</translation>
    </message>
    <message>
        <source>Thought for %1</source>
        <translation>思考時間 %1</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考中</translation>
    </message>
    <message>
        <source>cleared from context</source>
        <translation>コンテキストから消去済み</translation>
    </message>
    <message>
        <source>Needs approval</source>
        <translation>承認が必要</translation>
    </message>
    <message>
        <source>Output — cleared from context</source>
        <translation>出力 — コンテキストから消去済み</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>(no output)</source>
        <translation>(出力なし)</translation>
    </message>
    <message numerus="yes">
        <source>Changed %n file(s): %1</source>
        <translation>
            <numerusform>%n 個のファイルを変更: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Retried after an error (attempt %1): %2</source>
        <translation>エラーの後に再試行しました (%1 回目): %2</translation>
    </message>
    <message>
        <source>Agent: @%1</source>
        <translation>エージェント: @%1</translation>
    </message>
    <message>
        <source>Subtask for @%1: %2</source>
        <translation>@%1 へのサブタスク: %2</translation>
    </message>
    <message>
        <source>A part of type “%1” (from a newer OpenCode)</source>
        <translation>種類「%1」のパート (新しい OpenCode から)</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) changed in this turn</source>
        <translation>
            <numerusform>このターンで %n 個のファイルを変更</numerusform>
        </translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>作業中…</translation>
    </message>
    <message numerus="yes">
        <source>… %n more line(s)</source>
        <translation>
            <numerusform>… ほか %n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>Input</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>Took %1</source>
        <translation>所要時間 %1</translation>
    </message>
    <message>
        <source>Output cleared from context on %1</source>
        <translation>%1 に出力をコンテキストから消去</translation>
    </message>
    <message>
        <source>Click to show or hide the input and output</source>
        <translation>クリックすると入力と出力の表示を切り替えます</translation>
    </message>
    <message>
        <source>Not in context: this message is before the last compaction and is no longer sent to the model.</source>
        <translation>コンテキスト外: このメッセージは最後のコンパクト化より前のもので、今後モデルには送信されません。</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>モデル: %1</translation>
    </message>
    <message>
        <source>Cost: %1</source>
        <translation>コスト: %1</translation>
    </message>
    <message>
        <source>Tokens: %1 in, %2 out, %3 reasoning, %4 cache read, %5 cache write</source>
        <translation>トークン: 入力 %1、出力 %2、推論 %3、キャッシュ読込 %4、キャッシュ書込 %5</translation>
    </message>
    <message>
        <source>Step %1: %2, %3 in, %4 out</source>
        <translation>ステップ %1: %2、入力 %3、出力 %4</translation>
    </message>
    <message>
        <source>Finished: %1</source>
        <translation>終了理由: %1</translation>
    </message>
    <message>
        <source>Click to show or hide the reasoning</source>
        <translation>クリックすると推論の表示を切り替えます</translation>
    </message>
    <message>
        <source>pasted data</source>
        <translation>貼り付けたデータ</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>フォルダー</translation>
    </message>
    <message>
        <source>Image (%1)</source>
        <translation>画像 (%1)</translation>
    </message>
    <message>
        <source>PDF</source>
        <translation>PDF</translation>
    </message>
    <message>
        <source>Text file</source>
        <translation>テキストファイル</translation>
    </message>
    <message>
        <source>(the image cannot be shown)</source>
        <translation>(画像を表示できません)</translation>
    </message>
    <message>
        <source>Asked to compact the conversation</source>
        <translation>会話の圧縮を依頼しました</translation>
    </message>
    <message>
        <source>Attached %1</source>
        <translation>%1 を添付</translation>
    </message>
    <message>
        <source>Tool %1: %2</source>
        <translation>ツール %1: %2</translation>
    </message>
    <message>
        <source>Tool %1 (%2): %3</source>
        <translation>ツール %1 (%2): %3</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>エラー: %1</translation>
    </message>
    <message>
        <source>Still being written</source>
        <translation>書き込み中</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>コピー済み</translation>
    </message>
</context>
<context>
    <name>weft::TimelineView</name>
    <message>
        <source>Conversation</source>
        <translation>会話</translation>
    </message>
    <message>
        <source>Select a session in the sidebar, or start a new one.</source>
        <translation>サイドバーでセッションを選択するか、新しいセッションを開始してください。</translation>
    </message>
    <message>
        <source>&amp;Copy Text</source>
        <translation>テキストをコピー(&amp;C)</translation>
    </message>
    <message>
        <source>Copy as &amp;Markdown</source>
        <translation>Markdown としてコピー(&amp;M)</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>読み込んでいます…</translation>
    </message>
    <message>
        <source>No messages yet. Write the first one below.</source>
        <translation>まだメッセージはありません。下に最初のメッセージを書いてください。</translation>
    </message>
    <message>
        <source>&amp;Fork from Here</source>
        <translation>ここからフォーク(&amp;F)</translation>
    </message>
    <message>
        <source>A new session with the messages before this one</source>
        <translation>このメッセージより前のメッセージを含む新しいセッション</translation>
    </message>
    <message>
        <source>A new session with the messages up to and including this reply</source>
        <translation>この応答までのメッセージ (この応答を含む) を含む新しいセッション</translation>
    </message>
    <message>
        <source>&amp;Jump to Latest</source>
        <translation>最新へ移動(&amp;J)</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>すべて選択(&amp;A)</translation>
    </message>
    <message>
        <source>Select the text of every loaded message</source>
        <translation>読み込まれたすべてのメッセージのテキストを選択します</translation>
    </message>
    <message>
        <source>Copy &amp;Message Text</source>
        <translation>メッセージのテキストをコピー(&amp;M)</translation>
    </message>
    <message>
        <source>Copy Code &amp;Block</source>
        <translation>コードブロックをコピー(&amp;B)</translation>
    </message>
</context>
<context>
    <name>weft::TodoPanel</name>
    <message>
        <source>Show or hide the todo list</source>
        <translation>やることリストの表示を切り替える</translation>
    </message>
    <message>
        <source>Todo · %1 of %2 done</source>
        <translation>やること · %2 件中 %1 件完了</translation>
    </message>
</context>
<context>
    <name>weft::TrashDialog</name>
    <message>
        <source>Trash</source>
        <translation>ごみ箱</translation>
    </message>
    <message>
        <source>Deleted sessions stay here for 30 days, then they are deleted for good.</source>
        <translation>削除したセッションはここに 30 日間残り、その後完全に削除されます。</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>セッション</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>フォルダー</translation>
    </message>
    <message>
        <source>Deleted</source>
        <translation>削除日時</translation>
    </message>
    <message>
        <source>Deleted sessions</source>
        <translation>削除したセッション</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>復元(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Delete Permanently</source>
        <translation>完全に削除(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Empty Trash</source>
        <translation>ごみ箱を空にする(&amp;E)</translation>
    </message>
    <message>
        <source>(untitled)</source>
        <translation>(無題)</translation>
    </message>
    <message numerus="yes">
        <source>(+%n subagent session(s))</source>
        <translation>
            <numerusform>(+サブエージェントのセッション %n 件)</numerusform>
        </translation>
    </message>
    <message>
        <source>This entry cannot be restored: %1</source>
        <translation>この項目は復元できません: %1</translation>
    </message>
    <message>
        <source>The session could not be restored:
%1</source>
        <translation>セッションを復元できませんでした:
%1</translation>
    </message>
    <message>
        <source>Delete Permanently</source>
        <translation>完全に削除</translation>
    </message>
    <message>
        <source>Delete “%1” for good?

This cannot be undone.</source>
        <translation>「%1」を完全に削除しますか？

この操作は元に戻せません。</translation>
    </message>
    <message>
        <source>The session could not be deleted:
%1</source>
        <translation>セッションを削除できませんでした:
%1</translation>
    </message>
    <message>
        <source>Empty Trash</source>
        <translation>ごみ箱を空にする</translation>
    </message>
    <message numerus="yes">
        <source>Delete the %n session(s) in the trash for good?</source>
        <translation>
            <numerusform>ごみ箱にある %n 件のセッションを完全に削除しますか？</numerusform>
        </translation>
    </message>
    <message>
        <source>This cannot be undone.</source>
        <translation>この操作は元に戻せません。</translation>
    </message>
    <message>
        <source>The trash could not be emptied:
%1</source>
        <translation>ごみ箱を空にできませんでした:
%1</translation>
    </message>
</context>
<context>
    <name>weft::ErrorWording</name>
    <message>
        <source>Copy into Weft</source>
        <translation>Weft にコピー</translation>
    </message>
    <message>
        <source>This session is read-only. Import it into Weft to continue it.</source>
        <translation>このセッションは読み取り専用です。続けるには Weft にインポートしてください。</translation>
    </message>
    <message>
        <source>The imported session&apos;s folder was not accepted; nothing was sent.</source>
        <translation>インポートしたセッションのフォルダーが承認されなかったため、何も送信されませんでした。</translation>
    </message>
    <message>
        <source>No model is configured, so the prompt cannot be sent. Add a provider and a &quot;model&quot; (&quot;provider/model&quot;) to %1 (OpenCode&apos;s config format), start Weft with --config FILE, or set an API key such as ANTHROPIC_API_KEY or OPENAI_API_KEY.</source>
        <translation>モデルが設定されていないため、プロンプトを送信できません。%1 (OpenCode の設定形式) にプロバイダと &quot;model&quot; (&quot;provider/model&quot;) を追加するか、--config FILE を付けて Weft を起動するか、ANTHROPIC_API_KEY や OPENAI_API_KEY などの API キーを設定してください。</translation>
    </message>
    <message>
        <source>The model %1 cannot be used: %2. Configure its provider in %3 (OpenCode&apos;s config format) or choose another model.</source>
        <translation>モデル %1 は使用できません: %2。%3 (OpenCode の設定形式) でプロバイダを設定するか、別のモデルを選択してください。</translation>
    </message>
    <message>
        <source>The provider %1 of the model %2 has no API key. Set %3, or give an &quot;apiKey&quot; in the provider&apos;s &quot;options&quot; in %4, or choose another model.</source>
        <translation>モデル %2 のプロバイダ %1 に API キーがありません。%3 を設定するか、%4 でプロバイダの &quot;options&quot; に &quot;apiKey&quot; を指定するか、別のモデルを選択してください。</translation>
    </message>
    <message>
        <source> or </source>
        <translation> または </translation>
    </message>
    <message>
        <source>The prompt could not be sent: %1</source>
        <translation>プロンプトを送信できませんでした: %1</translation>
    </message>
    <message>
        <source>Fork</source>
        <translation>フォーク</translation>
    </message>
    <message>
        <source>The session could not be forked:
%1</source>
        <translation>セッションをフォークできませんでした:
%1</translation>
    </message>
    <message>
        <source>The session could not be copied into Weft:
%1</source>
        <translation>セッションを Weft にコピーできませんでした:
%1</translation>
    </message>
    <message>
        <source>Undo Compaction</source>
        <translation>コンパクト化を取り消す</translation>
    </message>
    <message>
        <source>The compaction could not be undone:
%1</source>
        <translation>コンパクト化を取り消せませんでした:
%1</translation>
    </message>
    <message>
        <source>Unrevert</source>
        <translation>元に戻す操作を取り消す</translation>
    </message>
    <message>
        <source>The reverted messages could not be brought back:
%1</source>
        <translation>元に戻したメッセージを復元できませんでした:
%1</translation>
    </message>
    <message>
        <source>Weft cannot connect to the OpenCode server: %1</source>
        <translation>Weft は OpenCode サーバーに接続できません: %1</translation>
    </message>
    <message>
        <source>The OpenCode server refused: %1</source>
        <translation>OpenCode サーバーが拒否しました: %1</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>実行に失敗しました。</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>実行に失敗しました: %1</translation>
    </message>
    <message>
        <source>The compaction ended without a summary.</source>
        <translation>コンパクト化は要約なしで終了しました。</translation>
    </message>
    <message>
        <source>The compaction failed: %1</source>
        <translation>コンパクト化に失敗しました: %1</translation>
    </message>
    <message>
        <source>The compaction was cancelled; the session is as it was.</source>
        <translation>コンパクト化はキャンセルされました。セッションは元のままです。</translation>
    </message>
    <message>
        <source>The compaction failed; the session is as it was: %1</source>
        <translation>コンパクト化に失敗しました。セッションは元のままです: %1</translation>
    </message>
    <message numerus="yes">
        <source>Closed %n interrupted run(s) whose process ended before finishing; what was written is kept.</source>
        <translation>
            <numerusform>処理中にプロセスが終了した実行 %n 件を閉じました。書き込まれた内容は残っています。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>weft::WindowActions</name>
    <message>
        <source>Every running or waiting session as a tile, live</source>
        <translation>実行中または待機中のすべてのセッションをタイルでライブ表示</translation>
    </message>
    <message>
        <source>Show &amp;Board</source>
        <translation>ボードを表示(&amp;B)</translation>
    </message>
    <message>
        <source>Run on Several &amp;Models…</source>
        <translation>複数のモデルで実行(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Undo Compaction</source>
        <translation>コンパクト化を取り消す(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>削除(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;New Session</source>
        <translation>新しいセッション(&amp;N)</translation>
    </message>
    <message>
        <source>Start a new session in the current session&apos;s folder</source>
        <translation>現在のセッションのフォルダーで新しいセッションを開始します</translation>
    </message>
    <message>
        <source>&amp;Fork</source>
        <translation>フォーク(&amp;F)</translation>
    </message>
    <message>
        <source>Copy the whole session into a new one, to try another direction</source>
        <translation>セッション全体を新しいセッションにコピーして、別の方向を試します</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>名前を変更(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Archive</source>
        <translation>アーカイブ(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>削除(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>エクスポート(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the session as an OpenCode export file</source>
        <translation>セッションを OpenCode のエクスポートファイルとして保存します</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>インポート(&amp;I)…</translation>
    </message>
    <message>
        <source>Add sessions from OpenCode export files (or drop the files on the window)</source>
        <translation>OpenCode のエクスポートファイルからセッションを追加します(ファイルをウィンドウにドロップしても追加できます)</translation>
    </message>
    <message>
        <source>Show Data &amp;File</source>
        <translation>データファイルを表示(&amp;F)</translation>
    </message>
    <message>
        <source>Open the folder that holds the session&apos;s file</source>
        <translation>セッションのファイルがあるフォルダーを開きます</translation>
    </message>
    <message>
        <source>&amp;Find in Session…</source>
        <translation>セッション内を検索(&amp;F)…</translation>
    </message>
    <message>
        <source>Find text in the open session</source>
        <translation>開いているセッション内のテキストを検索します</translation>
    </message>
    <message>
        <source>&amp;Search All Sessions…</source>
        <translation>すべてのセッションを検索(&amp;S)…</translation>
    </message>
    <message>
        <source>Search the text of every session: messages, reasoning, tool calls, files, errors</source>
        <translation>すべてのセッションのテキストを検索します: メッセージ、推論、ツール呼び出し、ファイル、エラー</translation>
    </message>
    <message>
        <source>&amp;Go to Session…</source>
        <translation>セッションへ移動(&amp;G)…</translation>
    </message>
    <message>
        <source>Filter the sessions in the sidebar by title</source>
        <translation>サイドバーのセッションをタイトルで絞り込みます</translation>
    </message>
    <message>
        <source>&amp;Compact…</source>
        <translation>コンパクト化(&amp;C)…</translation>
    </message>
    <message>
        <source>Remove the last compaction&apos;s summary: the model reads the whole conversation again</source>
        <translation>最後のコンパクト化の要約を削除します。モデルは再び会話全体を読み込みます</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Jump to Latest</source>
        <translation>最新へ移動(&amp;J)</translation>
    </message>
    <message>
        <source>Show &amp;Sidebar</source>
        <translation>サイドバーを表示(&amp;S)</translation>
    </message>
    <message>
        <source>Show &amp;Changes</source>
        <translation>変更を表示(&amp;C)</translation>
    </message>
    <message>
        <source>Show &amp;OpenCode Sessions</source>
        <translation>OpenCode のセッションを表示(&amp;O)</translation>
    </message>
    <message>
        <source>Show the sessions of OpenCode&apos;s own data folder in the sidebar, read-only and live</source>
        <translation>OpenCode 自身のデータフォルダーのセッションをサイドバーに表示します (読み取り専用、リアルタイム)</translation>
    </message>
    <message>
        <source>Choose OpenCode &amp;Folder…</source>
        <translation>OpenCode のフォルダーを選択(&amp;F)…</translation>
    </message>
    <message>
        <source>Show the OpenCode sessions of another data folder</source>
        <translation>別のデータフォルダーにある OpenCode のセッションを表示します</translation>
    </message>
    <message>
        <source>Connect to OpenCode &amp;Server…</source>
        <translation>OpenCode サーバーに接続(&amp;S)…</translation>
    </message>
    <message>
        <source>Show the sessions of a running OpenCode server and run them there</source>
        <translation>実行中の OpenCode サーバーのセッションを表示し、そこで実行します</translation>
    </message>
    <message>
        <source>&amp;Disconnect from Server</source>
        <translation>サーバーから切断(&amp;D)</translation>
    </message>
    <message>
        <source>Stop showing the OpenCode server of the selected session</source>
        <translation>選択したセッションの OpenCode サーバーを表示しないようにします</translation>
    </message>
    <message>
        <source>&amp;Undo Delete</source>
        <translation>削除を元に戻す(&amp;U)</translation>
    </message>
    <message>
        <source>Bring back the session deleted last</source>
        <translation>最後に削除したセッションを戻します</translation>
    </message>
    <message>
        <source>&amp;Trash…</source>
        <translation>ごみ箱(&amp;T)…</translation>
    </message>
    <message>
        <source>The sessions deleted in the last 30 days, to restore them</source>
        <translation>過去 30 日間に削除したセッション (復元できます)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Configure Weft…</source>
        <translation>Weft を設定(&amp;C)…</translation>
    </message>
    <message>
        <source>Providers and models, compaction, appearance</source>
        <translation>プロバイダとモデル、コンパクト化、外観</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>キーボードショートカット(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Weft</source>
        <translation>Weft について(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Qt について(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>セッション(&amp;S)</translation>
    </message>
    <message>
        <source>Se&amp;ttings</source>
        <translation>設定(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>Main Toolbar</source>
        <translation>メインツールバー</translation>
    </message>
    <message>
        <source>Un&amp;archive</source>
        <translation>アーカイブを解除(&amp;A)</translation>
    </message>
    <message>
        <source>Move the session back to the list</source>
        <translation>セッションを一覧に戻します</translation>
    </message>
    <message>
        <source>Move the session to the Archived group</source>
        <translation>セッションを「アーカイブ済み」グループに移動します</translation>
    </message>
</context>
<context>
    <name>weft::SourcesPresenter</name>
    <message>
        <source>%1 (its OpenCode service is not used: %2)</source>
        <translation>%1 (その OpenCode サービスは使用しません: %2)</translation>
    </message>
    <message>
        <source>An OpenCode service is not shown: %1</source>
        <translation>OpenCode サービスを表示しません: %1</translation>
    </message>
    <message>
        <source>In “%1”: %2</source>
        <translation>「%1」内: %2</translation>
    </message>
    <message>
        <source>OpenCode&apos;s sessions are in %1. Show them in the sidebar beside Weft&apos;s? They stay OpenCode&apos;s: Weft reads them live and never changes them.</source>
        <translation>OpenCode のセッションが %1 にあります。Weft のセッションと並べてサイドバーに表示しますか？セッションは OpenCode のものとして残り、Weft はリアルタイムで読み取るだけで変更はしません。</translation>
    </message>
    <message>
        <source>&amp;Show OpenCode Sessions</source>
        <translation>OpenCode のセッションを表示(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Not Now</source>
        <translation>今はしない(&amp;N)</translation>
    </message>
    <message>
        <source>OpenCode Sessions</source>
        <translation>OpenCode のセッション</translation>
    </message>
    <message>
        <source>OpenCode&apos;s sessions in %1 cannot be shown:
%2</source>
        <translation>%1 にある OpenCode のセッションを表示できません:
%2</translation>
    </message>
    <message>
        <source>OpenCode&apos;s Data Folder</source>
        <translation>OpenCode のデータフォルダー</translation>
    </message>
    <message>
        <source>OpenCode&apos;s data: %1 (%2)</source>
        <translation>OpenCode のデータ: %1 (%2)</translation>
    </message>
    <message>
        <source>“%1” is one of OpenCode&apos;s sessions: Weft shows it but never writes to OpenCode&apos;s data. To %2, copy it into Weft&apos;s own sessions first; the copy opens in the Weft list.</source>
        <translation>「%1」は OpenCode のセッションです。Weft は表示はしますが、OpenCode のデータには書き込みません。%2には、まず Weft 自身のセッションにコピーしてください。コピーは Weft の一覧で開きます。</translation>
    </message>
    <message>
        <source>Copy into Weft</source>
        <translation>Weft にコピー</translation>
    </message>
    <message>
        <source>&amp;Copy into Weft</source>
        <translation>Weft にコピー(&amp;C)</translation>
    </message>
    <message>
        <source>Copying into Weft…</source>
        <translation>Weft にコピーしています…</translation>
    </message>
    <message>
        <source>Connect to OpenCode Server</source>
        <translation>OpenCode サーバーに接続</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>%1 に接続しています…</translation>
    </message>
    <message>
        <source>Connected to OpenCode %1 at %2</source>
        <translation>%2 の OpenCode %1 に接続しました</translation>
    </message>
    <message>
        <source>The connection to %1 dropped (%2); reconnecting…</source>
        <translation>%1 への接続が切れました（%2）。再接続しています…</translation>
    </message>
    <message>
        <source>The agent asks: %1</source>
        <translation>エージェントの質問: %1</translation>
    </message>
    <message numerus="yes">
        <source>The agent asks %n question(s).</source>
        <translation>
            <numerusform>エージェントから %n 件の質問があります。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Answer…</source>
        <translation>回答(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Decline</source>
        <translation>断る(&amp;D)</translation>
    </message>
</context>
<context>
    <name>weft::Worktree</name>
    <message>
        <source>cannot read the commits of %1</source>
        <translation>%1 のコミットを読み取れません</translation>
    </message>
    <message>
        <source>cannot copy the uncommitted changes of %1 into %2: %3</source>
        <translation>%1 の未コミットの変更を %2 にコピーできません: %3</translation>
    </message>
    <message>
        <source>%1 is not in a linked worktree of %2</source>
        <translation>%1 は %2 のリンクされたワークツリーにありません</translation>
    </message>
    <message>
        <source>the setup script %1 failed (exit code %2); the worktree %3 stays:
%4</source>
        <translation>セットアップスクリプト %1 が失敗しました (終了コード %2)。ワークツリー %3 は残ります:
%4</translation>
    </message>
    <message numerus="yes">
        <source>the setup script %1 did not finish in %n minute(s); the worktree %2 stays</source>
        <translation>
            <numerusform>セットアップスクリプト %1 が %n 分以内に終了しませんでした。ワークツリー %2 は残ります</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot run the setup script %1: %2</source>
        <translation>セットアップスクリプト %1 を実行できません: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 has %n uncommitted change(s)</source>
        <translation>
            <numerusform>%1 に未コミットの変更が %n 件あります</numerusform>
        </translation>
    </message>
    <message>
        <source>the main checkout %1 has uncommitted changes: commit or stash them first</source>
        <translation>メインのチェックアウト %1 に未コミットの変更があります: 先にコミットするか退避してください</translation>
    </message>
    <message>
        <source>the main checkout %1 has no branch checked out</source>
        <translation>メインのチェックアウト %1 ではブランチがチェックアウトされていません</translation>
    </message>
    <message>
        <source>the folder for worktrees must be an absolute path: %1</source>
        <translation>ワークツリーのフォルダーは絶対パスでなければなりません: %1</translation>
    </message>
    <message>
        <source>the branch %1 exists already</source>
        <translation>ブランチ %1 は既に存在します</translation>
    </message>
    <message>
        <source>no folder %1</source>
        <translation>フォルダー %1 がありません</translation>
    </message>
    <message>
        <source>cannot stage the changes of %1</source>
        <translation>%1 の変更をステージできません</translation>
    </message>
    <message>
        <source>cannot remove %1</source>
        <translation>%1 を削除できません</translation>
    </message>
    <message>
        <source>cannot record the base of %1</source>
        <translation>%1 の基点を記録できません</translation>
    </message>
    <message>
        <source>cannot rebase %1 onto %2</source>
        <translation>%1 を %2 の上にリベースできません</translation>
    </message>
    <message>
        <source>cannot read the state of %1</source>
        <translation>%1 の状態を読めません</translation>
    </message>
    <message>
        <source>cannot read the changes of %1</source>
        <translation>%1 の変更を読めません</translation>
    </message>
    <message>
        <source>cannot merge %1</source>
        <translation>%1 をマージできません</translation>
    </message>
    <message>
        <source>cannot make the worktree %1</source>
        <translation>ワークツリー %1 を作成できません</translation>
    </message>
    <message>
        <source>cannot make the folder %1</source>
        <translation>フォルダー %1 を作成できません</translation>
    </message>
    <message>
        <source>cannot list the worktrees</source>
        <translation>ワークツリーを一覧できません</translation>
    </message>
    <message>
        <source>cannot commit in %1</source>
        <translation>%1 でコミットできません</translation>
    </message>
    <message>
        <source>cannot bring %1 into %2</source>
        <translation>%1 を %2 に取り込めません</translation>
    </message>
    <message>
        <source>cannot apply the changes of %1</source>
        <translation>%1 の変更を適用できません</translation>
    </message>
    <message>
        <source>a commit needs a message</source>
        <translation>コミットにはメッセージが必要です</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a commit</source>
        <translation>「%1」はコミットではありません</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a commit of %2</source>
        <translation>「%1」は %2 のコミットではありません</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot name a worktree: use up to 64 letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, starting with a letter, digit or &apos;_&apos;</source>
        <translation>「%1」はワークツリー名に使えません: 英字・数字・「.」「_」「-」で 64 文字まで、先頭は英字・数字・「_」にしてください</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot name a worktree</source>
        <translation>「%1」はワークツリー名に使えません</translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot name a branch</source>
        <translation>「%1」はブランチ名に使えません</translation>
    </message>
    <message>
        <source>%1: a bare repository has no checkout to work in</source>
        <translation>%1: ベアリポジトリには作業するチェックアウトがありません</translation>
    </message>
    <message>
        <source>%1 is the main checkout</source>
        <translation>%1 はメインのチェックアウトです</translation>
    </message>
    <message>
        <source>%1 is not in a git repository</source>
        <translation>%1 は git リポジトリの中にありません</translation>
    </message>
    <message>
        <source>%1 is not a worktree of %2</source>
        <translation>%1 は %2 のワークツリーではありません</translation>
    </message>
    <message>
        <source>%1 has nothing to commit</source>
        <translation>%1 にはコミットするものがありません</translation>
    </message>
    <message>
        <source>%1 has no recorded base commit</source>
        <translation>%1 には記録された基点コミットがありません</translation>
    </message>
    <message>
        <source>%1 has no branch to merge</source>
        <translation>%1 にはマージするブランチがありません</translation>
    </message>
    <message>
        <source>%1 exists already</source>
        <translation>%1 は既に存在します</translation>
    </message>
</context>
<context>
    <name>weft::QueuedPromptsView</name>
    <message>
        <source>Remove from the queue</source>
        <translation>キューから削除</translation>
    </message>
    <message>
        <source>Send later</source>
        <translation>後で送信</translation>
    </message>
    <message>
        <source>Send earlier</source>
        <translation>先に送信</translation>
    </message>
    <message>
        <source>Queued prompt %1</source>
        <translation>キューのプロンプト %1</translation>
    </message>
    <message>
        <source>Queued (%1): waiting, as the last reply did not finish</source>
        <translation>キュー (%1): 前回の応答が完了しなかったため待機中です</translation>
    </message>
    <message>
        <source>Queued (%1): sent one by one when the reply has ended</source>
        <translation>キュー (%1): 応答が終わると 1 件ずつ送信されます</translation>
    </message>
    <message>
        <source>Send the first queued prompt now</source>
        <translation>キューの最初のプロンプトを今すぐ送信します</translation>
    </message>
    <message>
        <source>Send Next</source>
        <translation>次を送信</translation>
    </message>
</context>
<context>
    <name>weft::BestOfDialog</name>
    <message>
        <source>%1 at once, %2 waiting for a free place</source>
        <translation>同時に %1、空きを待つもの %2</translation>
    </message>
    <message>
        <source>all runs at once</source>
        <translation>すべて同時に実行</translation>
    </message>
    <message>
        <source>Model of run %1</source>
        <translation>実行 %1 のモデル</translation>
    </message>
    <message>
        <source>Remove this run</source>
        <translation>この実行を削除</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>実行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Test command:</source>
        <translation>テストコマンド(&amp;T):</translation>
    </message>
    <message>
        <source>Run with sh in each worktree when its run has finished; exit code 0 passes</source>
        <translation>各ワークツリーで実行の終了後に sh で実行します。終了コード 0 で合格です</translation>
    </message>
    <message>
        <source>e.g. make test (optional)</source>
        <translation>例: make test (任意)</translation>
    </message>
    <message>
        <source>At &amp;once:</source>
        <translation>同時実行数(&amp;O):</translation>
    </message>
    <message>
        <source>&amp;Models:</source>
        <translation>モデル(&amp;M):</translation>
    </message>
    <message>
        <source>Another run, on the same model or another one (up to %1)</source>
        <translation>同じモデルまたは別のモデルでもう一つ実行(最大 %1)</translation>
    </message>
    <message>
        <source>&amp;Add a Run</source>
        <translation>実行を追加(&amp;A)</translation>
    </message>
    <message>
        <source>A&amp;gent:</source>
        <translation>エージェント(&amp;G):</translation>
    </message>
    <message>
        <source>&amp;Prompt:</source>
        <translation>プロンプト(&amp;P):</translation>
    </message>
    <message>
        <source>What every run is asked</source>
        <translation>各実行に送るプロンプト</translation>
    </message>
    <message>
        <source>Each run gets a git worktree and a session of its own. When they have finished, compare their changes and test results, and keep one.</source>
        <translation>各実行には専用の git ワークツリーとセッションが用意されます。終了したら変更とテスト結果を比べ、一つを残します。</translation>
    </message>
    <message>
        <source>Run on Several Models</source>
        <translation>複数のモデルで実行</translation>
    </message>
</context>
<context>
    <name>weft::BestOfView</name>
    <message>
        <source>&amp;Stop and Close</source>
        <translation>停止して閉じる(&amp;S)</translation>
    </message>
    <message>
        <source>Closing stops the runs that have not ended. Their worktrees and sessions stay.</source>
        <translation>閉じると、終了していない実行は停止します。ワークツリーとセッションは残ります。</translation>
    </message>
    <message>
        <source>Stop the Runs</source>
        <translation>実行を停止</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>Run %1 applied to the main checkout; the other worktrees were removed.</source>
        <translation>実行 %1 をメインのチェックアウトに適用し、他のワークツリーを削除しました。</translation>
    </message>
    <message>
        <source>Run %1 applied; not removed: %2</source>
        <translation>実行 %1 を適用しました。削除できなかったもの: %2</translation>
    </message>
    <message>
        <source>Run %1 conflicts with the main checkout in: %2. The other worktrees were kept.</source>
        <translation>実行 %1 はメインのチェックアウトと競合しています: %2。他のワークツリーは残してあります。</translation>
    </message>
    <message>
        <source>Applying run %1…</source>
        <translation>実行 %1 を適用中…</translation>
    </message>
    <message>
        <source>&amp;Keep and Remove the Others</source>
        <translation>残して他を削除(&amp;K)</translation>
    </message>
    <message>
        <source>Apply the work of run %1 (%2) to the main checkout %3, and remove the worktrees of the other runs (%4)? Their branches stay.</source>
        <translation>実行 %1 (%2) の成果を%3メインのチェックアウトに適用し、他の実行のワークツリー (%4) を削除しますか? それらのブランチは残ります。</translation>
    </message>
    <message>
        <source>Keep Run %1</source>
        <translation>実行 %1 を残す</translation>
    </message>
    <message>
        <source>Kept</source>
        <translation>残しました</translation>
    </message>
    <message>
        <source>Collecting its changes…</source>
        <translation>変更を収集中…</translation>
    </message>
    <message>
        <source>No changes</source>
        <translation>変更なし</translation>
    </message>
    <message>
        <source>Tests fail (exit %1)</source>
        <translation>テスト失敗 (終了コード %1)</translation>
    </message>
    <message>
        <source>Tests timed out</source>
        <translation>テストがタイムアウト</translation>
    </message>
    <message>
        <source>Tests pass</source>
        <translation>テスト合格</translation>
    </message>
    <message>
        <source>Not tested</source>
        <translation>未テスト</translation>
    </message>
    <message>
        <source>No test command</source>
        <translation>テストコマンドなし</translation>
    </message>
    <message>
        <source>Files: %1  +%2 −%3</source>
        <translation>ファイル: %1  +%2 −%3</translation>
    </message>
    <message>
        <source>%1 tokens · %2</source>
        <translation>%1 トークン · %2</translation>
    </message>
    <message>
        <source>%1 running, %2 waiting (at most %3 at once)</source>
        <translation>実行中 %1、待機中 %2 (同時に最大 %3)</translation>
    </message>
    <message>
        <source>All runs ended: keep one</source>
        <translation>すべての実行が終了: 一つを残してください</translation>
    </message>
    <message>
        <source>Run %1 kept</source>
        <translation>実行 %1 を残しました</translation>
    </message>
    <message>
        <source>Keep run %1</source>
        <translation>実行 %1 を残す</translation>
    </message>
    <message>
        <source>&amp;Keep This One</source>
        <translation>これを残す(&amp;K)</translation>
    </message>
    <message>
        <source>Files changed by run %1</source>
        <translation>実行 %1 が変更したファイル</translation>
    </message>
    <message>
        <source>Test output of run %1</source>
        <translation>実行 %1 のテスト出力</translation>
    </message>
    <message>
        <source>Show the test command&apos;s last lines</source>
        <translation>テストコマンドの最後の行を表示</translation>
    </message>
    <message>
        <source>Open the session of run %1</source>
        <translation>実行 %1 のセッションを開く</translation>
    </message>
    <message>
        <source>Open its session in the main window</source>
        <translation>メインウィンドウでセッションを開く</translation>
    </message>
    <message>
        <source>Keep a run&apos;s work in the main checkout &amp;by:</source>
        <translation>実行の成果をメインのチェックアウトに取り込む方法(&amp;B):</translation>
    </message>
    <message>
        <source>by rebasing its branch</source>
        <translation>ブランチをリベースして</translation>
    </message>
    <message>
        <source>by merging its branch</source>
        <translation>ブランチをマージして</translation>
    </message>
    <message>
        <source>as uncommitted changes</source>
        <translation>未コミットの変更として</translation>
    </message>
    <message>
        <source>Show &amp;Tiles</source>
        <translation>タイルを表示(&amp;T)</translation>
    </message>
    <message>
        <source>Keep Run</source>
        <translation>実行を残す</translation>
    </message>
    <message>
        <source>Run %1 was not applied: %2</source>
        <translation>実行 %1 は適用されませんでした: %2</translation>
    </message>
    <message>
        <source>&amp;Stop All</source>
        <translation>すべて停止(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>比較(&amp;C)</translation>
    </message>
    <message>
        <source>Best of %1: %2</source>
        <translation>%1 件から選ぶ: %2</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失敗: %1</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>停止しました</translation>
    </message>
    <message>
        <source>Finished, checking…</source>
        <translation>完了、確認中…</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>Making its worktree…</source>
        <translation>ワークツリーを作成中…</translation>
    </message>
    <message>
        <source>Waiting for a free place</source>
        <translation>空きを待っています</translation>
    </message>
</context>
<context>
    <name>weft::BestOfLauncher</name>
    <message>
        <source>Send a prompt to several models, each in a worktree of its own, and keep the best</source>
        <translation>プロンプトを複数のモデルに送り、それぞれ専用のワークツリーで実行して、最良のものを残します</translation>
    </message>
    <message>
        <source>The session&apos;s folder is not in a git repository: each run needs a worktree</source>
        <translation>セッションのフォルダーは git リポジトリ内にありません。各実行にはワークツリーが必要です</translation>
    </message>
    <message>
        <source>Looking for the session&apos;s git repository…</source>
        <translation>セッションの git リポジトリを探しています…</translation>
    </message>
    <message>
        <source>Open a session of Weft&apos;s own, in a git repository, to run its prompt on several models</source>
        <translation>複数のモデルでプロンプトを実行するには、git リポジトリ内の Weft のセッションを開いてください</translation>
    </message>
</context>
<context>
    <name>weft::ApplyWorktreeDialog</name>
    <message>
        <source>Files in conflict (%1)</source>
        <translation>競合しているファイル (%1)</translation>
    </message>
    <message>
        <source>Files in conflict</source>
        <translation>競合しているファイル</translation>
    </message>
    <message numerus="yes">
        <source>Not applied: %n file(s) conflict. Nothing was changed: the main checkout and the worktree are as they were. Resolve it in the worktree, or apply as uncommitted changes.</source>
        <translation>
            <numerusform>適用されませんでした: %n 個のファイルが競合します。何も変更されていません。メインのチェックアウトとワークツリーは元のままです。ワークツリーで解決するか、未コミットの変更として適用してください。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Applied with conflicts in %n file(s): they hold conflict markers in the main checkout; resolve them there.</source>
        <translation>
            <numerusform>%n 個のファイルで競合して適用されました。メインのチェックアウトのそれらのファイルに競合マーカーがあります。そこで解決してください。</numerusform>
        </translation>
    </message>
    <message>
        <source>Applied: the main checkout has the work of %1.</source>
        <translation>適用しました: メインのチェックアウトに %1 の作業が入りました。</translation>
    </message>
    <message>
        <source>Applied: the main checkout has the changes of %1, not committed.</source>
        <translation>適用しました: メインのチェックアウトに %1 の変更が未コミットで入りました。</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>適用されませんでした: %1</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>閉じる(&amp;C)</translation>
    </message>
    <message>
        <source>Applying…</source>
        <translation>適用しています…</translation>
    </message>
    <message>
        <source>Files (%1)</source>
        <translation>ファイル (%1)</translation>
    </message>
    <message>
        <source>Commits (%1)</source>
        <translation>コミット (%1)</translation>
    </message>
    <message>
        <source>Commits (%1, their changes come as uncommitted ones)</source>
        <translation>コミット (%1、変更は未コミットとして取り込まれます)</translation>
    </message>
    <message>
        <source>Its branch has no commits since it was made: there is nothing to merge.</source>
        <translation>ブランチには作成以降のコミットがありません。マージするものはありません。</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) changed in the worktree are not committed: merging or rebasing leaves them behind (commit them first, or apply as uncommitted changes).</source>
        <translation>
            <numerusform>ワークツリーで変更された %n 個のファイルが未コミットです。マージやリベースでは取り込まれません (先にコミットするか、未コミットの変更として適用してください)。</numerusform>
        </translation>
    </message>
    <message>
        <source>The main checkout has uncommitted changes: merging and rebasing need it clean (commit or stash them first).</source>
        <translation>メインのチェックアウトに未コミットの変更があります。マージとリベースには変更のない状態が必要です (先にコミットするか退避してください)。</translation>
    </message>
    <message>
        <source>Not committed in the worktree</source>
        <translation>ワークツリーで未コミット</translation>
    </message>
    <message>
        <source>Bring the work of %1 (%2) into the main checkout %3, on %4.</source>
        <translation>%1 (%2) の作業をメインのチェックアウト %3 (%4) に取り込みます。</translation>
    </message>
    <message>
        <source>Bring the work of %1 (%2) into the main checkout %3.</source>
        <translation>%1 (%2) の作業をメインのチェックアウト %3 に取り込みます。</translation>
    </message>
    <message>
        <source>What %1 holds cannot be read: %2</source>
        <translation>%1 の内容を読み取れません: %2</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>適用(&amp;A)</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <source>Commits</source>
        <translation>コミット</translation>
    </message>
    <message>
        <source>Apply everything as &amp;uncommitted changes (committed or not)</source>
        <translation>すべてを未コミットの変更として適用(&amp;U) (コミット済みかどうかを問わず)</translation>
    </message>
    <message>
        <source>&amp;Rebase its branch onto the main checkout&apos;s, then fast-forward</source>
        <translation>ブランチをメインのチェックアウトのブランチにリベースし、早送り(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Merge its branch (a merge commit; uncommitted changes stay behind)</source>
        <translation>ブランチをマージ(&amp;M) (マージコミット。未コミットの変更は残ります)</translation>
    </message>
    <message>
        <source>How</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Reading what %1 holds…</source>
        <translation>%1 の内容を読み取っています…</translation>
    </message>
    <message>
        <source>Apply to Main Checkout</source>
        <translation>メインのチェックアウトに適用</translation>
    </message>
</context>
<context>
    <name>weft::CommitWorktreeDialog</name>
    <message>
        <source>Not committed: %1</source>
        <translation>コミットされませんでした: %1</translation>
    </message>
    <message>
        <source>Committing…</source>
        <translation>コミットしています…</translation>
    </message>
    <message>
        <source>No message was proposed: %1</source>
        <translation>メッセージは提案されませんでした: %1</translation>
    </message>
    <message>
        <source>The model&apos;s proposal was not put in: you had started writing.</source>
        <translation>入力を始めていたため、モデルの提案は入れませんでした。</translation>
    </message>
    <message>
        <source>Proposed by the session&apos;s model: edit it as you like.</source>
        <translation>セッションのモデルによる提案です。自由に編集してください。</translation>
    </message>
    <message>
        <source>&amp;Commit</source>
        <translation>コミット(&amp;C)</translation>
    </message>
    <message>
        <source>The session&apos;s model is writing a message…</source>
        <translation>セッションのモデルがメッセージを書いています…</translation>
    </message>
    <message>
        <source>The commit message</source>
        <translation>コミットメッセージ</translation>
    </message>
    <message>
        <source>Commit everything %1 holds, new files too, on %2.</source>
        <translation>%1 のすべて (新しいファイルも) を %2 にコミットします。</translation>
    </message>
    <message>
        <source>Commit in Worktree</source>
        <translation>ワークツリーでコミット</translation>
    </message>
</context>
<context>
    <name>weft::NewSessionDialog</name>
    <message>
        <source>Looking for the folder&apos;s git repository…</source>
        <translation>フォルダーの git リポジトリを探しています…</translation>
    </message>
    <message>
        <source>The folder is in no git repository: the session works in the folder itself.</source>
        <translation>このフォルダーは git リポジトリにありません。セッションはフォルダーそのもので作業します。</translation>
    </message>
    <message>
        <source>On a new branch: %1</source>
        <translation>新しいブランチ: %1</translation>
    </message>
    <message>
        <source>Run the &amp;setup script %1 there</source>
        <translation>そこでセットアップスクリプト %1 を実行(&amp;S)</translation>
    </message>
    <message>
        <source>Run the setup script (the repository has no %1)</source>
        <translation>セットアップスクリプトを実行 (リポジトリに %1 はありません)</translation>
    </message>
    <message>
        <source>Folder for Worktrees</source>
        <translation>ワークツリーのフォルダー</translation>
    </message>
    <message>
        <source>Folder of the New Session</source>
        <translation>新しいセッションのフォルダー</translation>
    </message>
    <message>
        <source>&amp;Create</source>
        <translation>作成(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Put it in:</source>
        <translation>作成場所(&amp;P):</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>フォルダー(&amp;F):</translation>
    </message>
    <message>
        <source>B&amp;rowse…</source>
        <translation>参照(&amp;R)…</translation>
    </message>
    <message>
        <source>The session works on a branch of its own in a copy of the repository, and its work comes back when you apply it (Session › Worktree).</source>
        <translation>セッションはリポジトリのコピー上の専用ブランチで作業し、適用すると作業が戻ってきます (セッション › ワークツリー)。</translation>
    </message>
    <message>
        <source>In a new git &amp;worktree</source>
        <translation>新しい ワークツリーで(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>参照(&amp;B)…</translation>
    </message>
    <message>
        <source>New Session</source>
        <translation>新しいセッション</translation>
    </message>
</context>
<context>
    <name>weft::WorktreePresenter</name>
    <message>
        <source>The server makes the worktree…</source>
        <translation>サーバーがワークツリーを作成しています…</translation>
    </message>
    <message>
        <source>The server is not connected any more.</source>
        <translation>サーバーはもう接続されていません。</translation>
    </message>
    <message>
        <source>The server makes a new worktree of this session&apos;s project and starts a session there.
Name of the worktree (empty: the server names it):</source>
        <translation>サーバーがこのセッションのプロジェクトの新しいワークツリーを作成し、そこでセッションを開始します。
ワークツリーの名前 (空の場合はサーバーが名付けます):</translation>
    </message>
    <message>
        <source>New Session in a Server Worktree</source>
        <translation>サーバーのワークツリーで新しいセッション</translation>
    </message>
    <message>
        <source>Not available on this server</source>
        <translation>このサーバーでは使用できません</translation>
    </message>
    <message>
        <source>The fork works in %1</source>
        <translation>フォークは %1 で作業します</translation>
    </message>
    <message>
        <source>Fork the Worktree</source>
        <translation>ワークツリーのフォーク</translation>
    </message>
    <message>
        <source>Forking the worktree %1…</source>
        <translation>ワークツリー %1 をフォークしています…</translation>
    </message>
    <message>
        <source>Fork &amp;Worktree</source>
        <translation>ワークツリーをフォーク(&amp;W)</translation>
    </message>
    <message>
        <source>The session works in the worktree %1 (%2). Give the fork a worktree of its own? It is made from that worktree&apos;s last commit, with its uncommitted changes copied. Otherwise the fork works in the same folder.</source>
        <translation>このセッションはワークツリー %1 (%2) で作業しています。フォークに専用のワークツリーを用意しますか? そのワークツリーの最新コミットから作成され、未コミットの変更もコピーされます。用意しない場合、フォークは同じフォルダーで作業します。</translation>
    </message>
    <message>
        <source>Fork the Worktree Too?</source>
        <translation>ワークツリーもフォークしますか?</translation>
    </message>
    <message>
        <source>No terminal program was found: set TERMINAL to the one you use.</source>
        <translation>端末プログラムが見つかりません。使用するものを TERMINAL に設定してください。</translation>
    </message>
    <message>
        <source>%1 could not be started.</source>
        <translation>%1 を起動できませんでした。</translation>
    </message>
    <message>
        <source>Open in Terminal</source>
        <translation>端末で開く</translation>
    </message>
    <message>
        <source>Its branch %1 stays, with its commits.</source>
        <translation>ブランチ %1 はコミットとともに残ります。</translation>
    </message>
    <message>
        <source>Remove the worktree %1? Its folder is deleted.</source>
        <translation>ワークツリー %1 を削除しますか? フォルダーが削除されます。</translation>
    </message>
    <message numerus="yes">
        <source>%1 has %n uncommitted change(s), which are lost when it is removed. Remove it anyway?</source>
        <translation>
            <numerusform>%1 には未コミットの変更が %n 件あり、削除すると失われます。それでも削除しますか?</numerusform>
        </translation>
    </message>
    <message>
        <source>Removed the worktree %1</source>
        <translation>ワークツリー %1 を削除しました</translation>
    </message>
    <message>
        <source>Not removed</source>
        <translation>削除されませんでした</translation>
    </message>
    <message>
        <source>Remove the server&apos;s worktree %1? The server deletes its folder and its branch.</source>
        <translation>サーバーのワークツリー %1 を削除しますか? サーバーがフォルダーとブランチを削除します。</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>削除(&amp;R)</translation>
    </message>
    <message>
        <source>Remove Worktree</source>
        <translation>ワークツリーを削除</translation>
    </message>
    <message>
        <source>Committed %1 on %2</source>
        <translation>%2 に %1 をコミットしました</translation>
    </message>
    <message>
        <source>Applied to the main checkout</source>
        <translation>メインのチェックアウトに適用しました</translation>
    </message>
    <message>
        <source>New session in %1</source>
        <translation>%1 に新しいセッション</translation>
    </message>
    <message>
        <source>The session could not be created:
%1</source>
        <translation>セッションを作成できませんでした:
%1</translation>
    </message>
    <message>
        <source>New Session</source>
        <translation>新しいセッション</translation>
    </message>
    <message>
        <source>Making the worktree %1…</source>
        <translation>ワークツリー %1 を作成しています…</translation>
    </message>
    <message>
        <source>Making the worktree %1 and running its setup script…</source>
        <translation>ワークツリー %1 を作成し、セットアップスクリプトを実行しています…</translation>
    </message>
    <message>
        <source>&amp;Worktree (%1)</source>
        <translation>ワークツリー (%1)(&amp;W)</translation>
    </message>
    <message>
        <source>Not while the session runs</source>
        <translation>セッションの実行中はできません</translation>
    </message>
    <message>
        <source>The session does not work in a worktree (File › New Session (Folder, Worktree)… makes one)</source>
        <translation>このセッションはワークツリーで作業していません (ファイル › 新しいセッション (フォルダー、ワークツリー)… で作成できます)</translation>
    </message>
    <message>
        <source>Not available for OpenCode&apos;s sessions: copy the session into Weft first</source>
        <translation>OpenCode のセッションでは使用できません: 先にセッションを Weft にコピーしてください</translation>
    </message>
    <message>
        <source>Not available on this server: its files are the server&apos;s</source>
        <translation>このサーバーでは使用できません: ファイルはサーバー上にあります</translation>
    </message>
    <message>
        <source>&amp;Worktree</source>
        <translation>ワークツリー(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Remove Worktree…</source>
        <translation>ワークツリーを削除(&amp;R)…</translation>
    </message>
    <message>
        <source>Open in &amp;File Manager</source>
        <translation>ファイルマネージャーで開く(&amp;F)</translation>
    </message>
    <message>
        <source>Open in &amp;Terminal</source>
        <translation>端末で開く(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Commit…</source>
        <translation>コミット(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Apply to Main Checkout…</source>
        <translation>メインのチェックアウトに適用(&amp;A)…</translation>
    </message>
    <message>
        <source>A new session in a folder you choose, or in a new git worktree</source>
        <translation>選んだフォルダー、または新しい ワークツリーでの新しいセッション</translation>
    </message>
    <message>
        <source>New Session (&amp;Folder, Worktree)…</source>
        <translation>新しいセッション (フォルダー、ワークツリー)(&amp;F)…</translation>
    </message>
</context>
<context>
    <name>weft::BoardView</name>
    <message>
        <source>Runs in another process</source>
        <translation>別のプロセスで実行中</translation>
    </message>
    <message>
        <source>%1 ended</source>
        <translation>%1 件終了</translation>
    </message>
    <message>
        <source>%1 waiting for you</source>
        <translation>%1 件があなたを待っています</translation>
    </message>
    <message>
        <source>%1 running</source>
        <translation>%1 件実行中</translation>
    </message>
    <message>
        <source>Dismiss &amp;All Ended</source>
        <translation>終了したものをすべて閉じる(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Dismiss</source>
        <translation>閉じる(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Stop Run</source>
        <translation>実行を停止(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>開く(&amp;O)</translation>
    </message>
    <message>
        <source>By title</source>
        <translation>タイトル順</translation>
    </message>
    <message>
        <source>By cost</source>
        <translation>コスト順</translation>
    </message>
    <message>
        <source>By time</source>
        <translation>時間順</translation>
    </message>
    <message>
        <source>By state</source>
        <translation>状態順</translation>
    </message>
    <message>
        <source>Sort the board</source>
        <translation>ボードの並べ替え</translation>
    </message>
    <message>
        <source>Running sessions</source>
        <translation>実行中のセッション</translation>
    </message>
    <message>
        <source>None of these sessions is running</source>
        <translation>これらのセッションはどれも実行されていません</translation>
    </message>
    <message>
        <source>No session is running</source>
        <translation>実行中のセッションはありません</translation>
    </message>
    <message>
        <source>Nothing written yet</source>
        <translation>まだ出力はありません</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>開始中…</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 時間 %2 分</translation>
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
        <translation>%1 トークン</translation>
    </message>
    <message>
        <source>Queued prompts: %1</source>
        <translation>待機中のプロンプト: %1</translation>
    </message>
    <message>
        <source>Stopped by you.</source>
        <translation>あなたが停止しました。</translation>
    </message>
    <message>
        <source>The run failed.</source>
        <translation>実行に失敗しました。</translation>
    </message>
    <message>
        <source>⚑ %1</source>
        <translation>⚑ %1</translation>
    </message>
    <message>
        <source>⚑ %1 (+%2 more)</source>
        <translation>⚑ %1（ほか %2 件）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Thinking: %1</source>
        <translation>思考中: %1</translation>
    </message>
    <message>
        <source>%1 · branch %2</source>
        <translation>%1 · ブランチ %2</translation>
    </message>
    <message>
        <source>branch %1</source>
        <translation>ブランチ %1</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>待機中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>Needs approval</source>
        <translation>承認待ち</translation>
    </message>
    <message>
        <source>Asks you</source>
        <translation>質問があります</translation>
    </message>
</context>
<context>
    <name>weft::Board</name>
    <message>
        <source>Board</source>
        <translation>ボード</translation>
    </message>
</context>
<context>
    <name>weft::SessionPane</name>
    <message numerus="yes">
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n 件のメッセージ</numerusform>
        </translation>
    </message>
    <message>
        <source>archived</source>
        <translation>アーカイブ済み</translation>
    </message>
    <message>
        <source>%1 (arguments: %2)</source>
        <translation>%1（引数: %2）</translation>
    </message>
    <message numerus="yes">
        <source>+%1 −%2 in %n file(s)</source>
        <translation>
            <numerusform>%n 個のファイルで +%1 −%2</numerusform>
        </translation>
    </message>
    <message>
        <source>This session is being run by %1. It follows live here; fork it to work on it meanwhile.</source>
        <translation>このセッションは %1 が実行中です。ここではその様子をリアルタイムで表示します。その間に作業するにはフォークしてください。</translation>
    </message>
    <message>
        <source>No Session</source>
        <translation>セッションなし</translation>
    </message>
</context>
<context>
    <name>weft::PaneArea</name>
    <message>
        <source>Split &amp;Right</source>
        <translation>右に分割(&amp;R)</translation>
    </message>
    <message>
        <source>Split &amp;Down</source>
        <translation>下に分割(&amp;D)</translation>
    </message>
    <message>
        <source>Move to New &amp;Window</source>
        <translation>新しいウィンドウに移動(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Close Tab</source>
        <translation>タブを閉じる(&amp;C)</translation>
    </message>
</context>
<context>
    <name>weft::PaneGroup</name>
    <message>
        <source>Open sessions</source>
        <translation>開いているセッション</translation>
    </message>
</context>
<context>
    <name>weft::IndexingGuest</name>
    <message>
        <source>Filter sessions…</source>
        <translation>セッションを絞り込み…</translation>
    </message>
    <message>
        <source>Indexing %L1/%L2…</source>
        <translation>インデックス作成中 %L1/%L2…</translation>
    </message>
</context>
<context>
    <name>weft::SearchSettingsPage</name>
    <message>
        <source>&amp;Index sessions for search</source>
        <translation>検索用にセッションをインデックス化(&amp;I)</translation>
    </message>
    <message>
        <source>Index &amp;tool outputs (their first and last few KB, each once per session)</source>
        <translation>ツールの出力もインデックス化(&amp;T)（先頭と末尾の数キロバイト、同じ出力はセッションごとに 1 回）</translation>
    </message>
    <message>
        <source>all sessions</source>
        <translation>すべてのセッション</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 日</translation>
    </message>
    <message>
        <source>Only sessions updated within</source>
        <translation>次の期間内に更新されたセッションのみ</translation>
    </message>
    <message>
        <source>Only these project folders</source>
        <translation>これらのプロジェクトフォルダーのみ</translation>
    </message>
    <message>
        <source>Every project (one folder per line)</source>
        <translation>すべてのプロジェクト（1 行に 1 フォルダー）</translation>
    </message>
    <message>
        <source>Never these project folders</source>
        <translation>これらのプロジェクトフォルダーは除外</translation>
    </message>
    <message>
        <source>None (one folder per line)</source>
        <translation>なし（1 行に 1 フォルダー）</translation>
    </message>
    <message>
        <source>The index is built in the background at idle priority and waits while a session runs or you type. Turning it off keeps the index file as it is; turning it on again goes on from there. Sessions outside these limits are dropped from it.</source>
        <translation>インデックスはバックグラウンドで最低の優先度で作成され、セッションの実行中や入力中は待機します。オフにしてもインデックスファイルはそのまま残り、再びオンにするとその続きから作成します。この範囲外のセッションはインデックスから削除されます。</translation>
    </message>
    <message>
        <source>Only sessions updated within:</source>
        <translation>次の期間内に更新されたセッションのみ:</translation>
    </message>
    <message>
        <source>Only these project folders:</source>
        <translation>これらのプロジェクトフォルダーのみ:</translation>
    </message>
    <message>
        <source>Never these project folders:</source>
        <translation>これらのプロジェクトフォルダーは除外:</translation>
    </message>
</context>
</TS>

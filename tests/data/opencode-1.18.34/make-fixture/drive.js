// SPDX-License-Identifier: GPL-3.0-or-later
// Drives `opencode serve` through its HTTP API to write a fixture database.
const base = 'http://127.0.0.1:' + (process.argv[2] || '18767');
const dir = process.argv[3];
const model = {providerID: 'fake', modelID: 'm1'};
async function call(method, path, body) {
  const r = await fetch(base + path, {method, headers: {'content-type': 'application/json', 'x-opencode-directory': dir}, body: body === undefined ? undefined : JSON.stringify(body)});
  const text = await r.text();
  if (!r.ok) throw new Error(method + ' ' + path + ' -> ' + r.status + ' ' + text.slice(0, 500));
  return text ? JSON.parse(text) : null;
}
const prompt = (id, text) => call('POST', `/session/${id}/message`, {model, parts: [{type: 'text', text}]});
const sleep = ms => new Promise(r => setTimeout(r, ms));
(async () => {
  const out = {};
  const main = await call('POST', '/session', {});
  out.main = main.id;
  await prompt(main.id, 'REPLY 全文検索のテストです。Qt 6 と SQLite で実装します。');
  const second = await prompt(main.id, `TOOL write {"filePath":"${dir}/notes.md","content":"# 笔记\\n数据库测试 note: weft fixture\\n"}`);
  await prompt(main.id, 'TOOL bash {"command":"echo hello-from-bash && ls","description":"List the project files"}');
  await prompt(main.id, 'TOOL read {"filePath":"/nonexistent/missing-file.txt"}');
  await prompt(main.id, 'THINK 用户想要中文回复，先想一想。|中文回复：数据库已经准备好了。');
  const msgs = await call('GET', `/session/${main.id}/message`);
  const users = msgs.filter(m => m.info.role === 'user');
  // a fork at the third user message
  const fork = await call('POST', `/session/${main.id}/fork`, {messageID: users[2].info.id});
  out.fork = fork.id;
  // a child session (as a subagent would make)
  const child = await call('POST', '/session', {parentID: main.id, title: 'child of main'});
  out.child = child.id;
  await prompt(child.id, 'REPLY 子セッションの返事です。');
  // a renamed session with metadata, then archived
  const named = await call('POST', '/session', {});
  out.named = named.id;
  await prompt(named.id, 'REPLY Hand-named session reply.');
  await call('PATCH', `/session/${named.id}`, {title: 'Hand-named セッション 手动命名', metadata: {label: 'fixture', n: 1}});
  // a reverted session
  const rev = await call('POST', '/session', {});
  out.reverted = rev.id;
  await prompt(rev.id, 'REPLY first answer before the revert');
  const r2 = await prompt(rev.id, 'REPLY second answer, reverted later');
  const revMsgs = await call('GET', `/session/${rev.id}/message`);
  const lastUser = revMsgs.filter(m => m.info.role === 'user').pop();
  await call('POST', `/session/${rev.id}/revert`, {messageID: lastUser.info.id});
  // a compacted session: compaction, then one more turn
  const comp = await call('POST', '/session', {});
  out.compacted = comp.id;
  await prompt(comp.id, 'REPLY before compaction: the 要約 test');
  await call('POST', `/session/${comp.id}/summarize`, model);
  await sleep(500);
  await prompt(comp.id, 'REPLY after compaction');
  // a deleted session
  const del = await call('POST', '/session', {});
  await prompt(del.id, 'REPLY this session gets deleted');
  await call('DELETE', `/session/${del.id}`);
  out.deleted = del.id;
  // an archived one
  const arch = await call('POST', '/session', {});
  out.archived = arch.id;
  await prompt(arch.id, 'REPLY archived session');
  await call('PATCH', `/session/${arch.id}`, {time: {archived: Date.now()}});
  console.log(JSON.stringify(out, null, 2));
})().catch(e => { console.error(e); process.exit(1); });

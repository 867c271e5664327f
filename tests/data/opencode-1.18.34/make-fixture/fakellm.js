// SPDX-License-Identifier: GPL-3.0-or-later
// Scripted OpenAI-compatible chat completions server for making OpenCode fixtures.
const http = require('http');
const fs = require('fs');
const port = +process.argv[2] || 18765;
let n = 0;
function sse(res, chunks) {
  res.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache'});
  let i = 0;
  const tick = () => {
    if (i < chunks.length) { res.write('data: ' + JSON.stringify(chunks[i++]) + '\n\n'); setTimeout(tick, 5); }
    else { res.write('data: [DONE]\n\n'); res.end(); }
  };
  tick();
}
function chunk(delta, finish, usage) {
  const c = {id: 'c' + n, object: 'chat.completion.chunk', created: 1, model: 'm1', choices: [{index: 0, delta, finish_reason: finish || null}]};
  if (usage) c.usage = usage;
  return c;
}
function textReply(text) {
  const parts = text.match(/.{1,12}/gsu) || [''];
  return [chunk({role: 'assistant', content: ''}), ...parts.map(p => chunk({content: p})), chunk({}, 'stop', {prompt_tokens: 1200, completion_tokens: 15, total_tokens: 1215})];
}
function toolReply(name, args) {
  return [chunk({role: 'assistant', content: null, tool_calls: [{index: 0, id: 'call_' + n, type: 'function', function: {name, arguments: ''}}]}),
          chunk({tool_calls: [{index: 0, function: {arguments: JSON.stringify(args)}}]}),
          chunk({}, 'tool_calls', {prompt_tokens: 1300, completion_tokens: 20, total_tokens: 1320})];
}
http.createServer((req, res) => {
  let body = '';
  req.on('data', d => body += d);
  req.on('end', () => {
    n++;
    fs.appendFileSync('requests.log', req.method + ' ' + req.url + ' ' + body.slice(0, 3000) + '\n');
    if (req.url.endsWith('/models')) { res.writeHead(200, {'content-type': 'application/json'}); res.end(JSON.stringify({data: [{id: 'm1'}]})); return; }
    let j = {};
    try { j = JSON.parse(body); } catch (e) {}
    const msgs = j.messages || [];
    const sys = msgs.filter(m => m.role === 'system').map(m => typeof m.content === 'string' ? m.content : JSON.stringify(m.content)).join('\n');
    const last = msgs[msgs.length - 1] || {};
    const lastText = typeof last.content === 'string' ? last.content : Array.isArray(last.content) ? last.content.map(c => c.text || '').join('\n') : '';
    if (/title generator|generate a title|Generate a title/i.test(sys) || (!j.tools && /title/i.test(sys))) {
      return sse(res, textReply('Scripted: ' + lastText.replace(/^(REPLY|THINK|TOOL \w+)\s*/, '').replace(/[^\p{L}\p{N} ]/gu, '').slice(0, 24).trim()));
    }
    if (last.role === 'tool') return sse(res, textReply('Done. The tool said: ' + lastText.slice(0, 60).replace(/\n/g, ' ')));
    const m = /TOOL (\w+) (\{.*\})/s.exec(lastText);
    if (m) return sse(res, toolReply(m[1], JSON.parse(m[2])));
    const th = /THINK (.*?)\|(.*)/s.exec(lastText);
    if (th) {
      const out = textReply(th[2]);
      return sse(res, [chunk({role: 'assistant', content: ''}), ...(th[1].match(/.{1,10}/gsu) || []).map(p => chunk({reasoning_content: p})), ...out.slice(1)]);
    }
    const r = /REPLY (.*)/s.exec(lastText);
    return sse(res, textReply(r ? r[1] : 'Hello from the scripted model. Summary: the user asked for notes; 要約: ノートを作成しました。'));
  });
}).listen(port, '127.0.0.1', () => console.log('listening', port));

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/) from the test
fixtures (tests/data: real OpenCode data) and from the stream shapes of tests/support's fake
LLM server. Run it again after the fixtures change; the corpora are committed, the corpora the
fuzzer grows (build-fuzz/corpus) are not."""
import glob
import hashlib
import json
import os
import shutil
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
CORPUS = os.path.join(HERE, "corpus")
SEP = b"\n~~~\n"


def put(target, content):
    if isinstance(content, str):
        content = content.encode()
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(content).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(content)


def compact(o):
    return json.dumps(o, ensure_ascii=False, separators=(",", ":"))


def sse(data, event=None):
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {compact(data)}\n\n"


# ---- json: fixture files of both eras, and the corners of the grammar
files = sorted(glob.glob(os.path.join(DATA, "opencode-1.1.53/storage/**/*.json"), recursive=True))
for path in files[:: max(1, len(files) // 24)]:
    if os.path.getsize(path) < 16384:
        put("json", open(path, "rb").read())
for text in ['{"a":1,"a":2,"b":[1,2.5e-3,-0,1e400,18446744073709551616]}', '"\\ud83d\\ude00 \\ud800 \\u00e9"',
             '\ufeff{"bom":true}', '[' * 600 + ']' * 600, '{"x": nul}', '[1,]', '"tab\tinside"', '  \n null \n',
             '{"key with \\"escape\\"":"v","k":{"n":[true,false,null]}}', '123456789012345678901234567890']:
    put("json", text)

# ---- sse: OpenCode server event streams (first byte: how the target splits the stream)
for path in sorted(glob.glob(os.path.join(DATA, "opencode-1.18.34-server/*.sse"))):
    raw = open(path, "rb").read()
    put("sse", b"\x05" + raw[:8192])
put("sse", b"\x00\xef\xbb\xbfdata: a\r\ndata: b\r\n\r\n: ping\rretry: 100\nid: 7\nevent: x\ndata\n\n")

# ---- provider streams, as tests/support/fakellmserver.cpp builds them
def openai_chunk(delta, finish=None):
    return sse({"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1700000000, "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

usage = sse({"id": "chatcmpl-test", "object": "chat.completion.chunk", "model": "m", "choices": [],
             "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15,
                       "prompt_tokens_details": {"cached_tokens": 2},
                       "completion_tokens_details": {"reasoning_tokens": 1}}})
put("openai_stream", "\x03" + openai_chunk({"role": "assistant", "content": ""}) + openai_chunk({"content": "Hel"})
    + openai_chunk({"content": "lo ✓"}) + openai_chunk({}, "stop") + usage + "data: [DONE]\n\n")
put("openai_stream", "\x11" + openai_chunk({"content": None, "reasoning_content": "think"})
    + openai_chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                    "function": {"name": "read", "arguments": ""}}]})
    + openai_chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{\"filePath\":"}}]})
    + openai_chunk({"tool_calls": [{"index": 0, "function": {"arguments": " \"/tmp/a\"}"}}]})
    + openai_chunk({}, "tool_calls") + "data: [DONE]\n\n")
put("openai_stream", "\x07" + "data: {\"error\":{\"message\":\"Upstream overloaded\",\"type\":\"server_error\"}}\n\n")

def anthropic(type_, data):
    return sse(dict({"type": type_}, **data), type_)

a_usage = {"input_tokens": 12, "cache_creation_input_tokens": 500, "cache_read_input_tokens": 3000, "output_tokens": 1}
a_start = anthropic("message_start", {"message": {"id": "msg_test", "type": "message", "role": "assistant", "model": "m",
                                                  "content": [], "stop_reason": None, "stop_sequence": None,
                                                  "usage": a_usage}})
put("anthropic_stream", "\x02" + a_start + anthropic("ping", {})
    + anthropic("content_block_start", {"index": 0, "content_block": {"type": "thinking", "thinking": ""}})
    + anthropic("content_block_delta", {"index": 0, "delta": {"type": "thinking_delta", "thinking": "Let me"}})
    + anthropic("content_block_delta", {"index": 0, "delta": {"type": "signature_delta", "signature": "sig=="}})
    + anthropic("content_block_stop", {"index": 0})
    + anthropic("content_block_start", {"index": 1, "content_block": {"type": "text", "text": ""}})
    + anthropic("content_block_delta", {"index": 1, "delta": {"type": "text_delta", "text": "I'll read"}})
    + anthropic("content_block_stop", {"index": 1})
    + anthropic("content_block_start", {"index": 2, "content_block": {"type": "tool_use", "id": "toolu_01",
                                                                       "name": "read", "input": {}}})
    + anthropic("content_block_delta", {"index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"filePath\":"}})
    + anthropic("content_block_delta", {"index": 2, "delta": {"type": "input_json_delta", "partial_json": "\"/tmp/a\"}"}})
    + anthropic("content_block_stop", {"index": 2})
    + anthropic("message_delta", {"delta": {"stop_reason": "tool_use", "stop_sequence": None}, "usage": {"output_tokens": 87}})
    + anthropic("message_stop", {}))
put("anthropic_stream", "\x09" + a_start
    + anthropic("content_block_start", {"index": 0, "content_block": {"type": "redacted_thinking", "data": "xyz"}})
    + anthropic("content_block_stop", {"index": 0})
    + anthropic("error", {"error": {"type": "overloaded_error", "message": "Overloaded"}}))

seq = [0]
def responses(type_, data):
    o = {"type": type_, "sequence_number": seq[0]}
    seq[0] += 1
    o.update(data)
    return sse(o, type_)

def response(status, **extra):
    r = {"id": "resp_1", "object": "response", "created_at": 1700000000, "status": status, "model": "m",
         "output": [], "incomplete_details": None, "usage": None}
    r.update(extra)
    return r

r_created = responses("response.created", {"response": response("in_progress")})
item = {"id": "msg_1", "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
where = {"item_id": "msg_1", "output_index": 1, "content_index": 0}
call = {"id": "fc_1", "type": "function_call", "status": "in_progress", "arguments": "", "call_id": "call_1", "name": "read"}
put("responses_stream", "\x04" + r_created
    + responses("response.output_item.added", {"output_index": 0, "item": {"id": "rs_1", "type": "reasoning", "summary": [],
                                                                          "encrypted_content": "enc"}})
    + responses("response.reasoning_summary_part.added", {"item_id": "rs_1", "output_index": 0, "summary_index": 0,
                                                          "part": {"type": "summary_text", "text": ""}})
    + responses("response.reasoning_summary_text.delta", {"item_id": "rs_1", "output_index": 0, "summary_index": 0, "delta": "Think"})
    + responses("response.output_item.done", {"output_index": 0, "item": {"id": "rs_1", "type": "reasoning",
                                                                         "summary": [{"type": "summary_text", "text": "Think"}]}})
    + responses("response.output_item.added", {"output_index": 1, "item": item})
    + responses("response.content_part.added", dict(where, part={"type": "output_text", "annotations": [], "text": ""}))
    + responses("response.output_text.delta", dict(where, delta="Hello"))
    + responses("response.output_text.done", dict(where, text="Hello"))
    + responses("response.output_item.done", {"output_index": 1, "item": dict(item, status="completed")})
    + responses("response.output_item.added", {"output_index": 2, "item": call})
    + responses("response.function_call_arguments.delta", {"item_id": "fc_1", "output_index": 2, "delta": "{\"filePath\":\"/a\"}"})
    + responses("response.function_call_arguments.done", {"item_id": "fc_1", "output_index": 2, "arguments": "{\"filePath\":\"/a\"}"})
    + responses("response.output_item.done", {"output_index": 2, "item": dict(call, status="completed", arguments="{\"filePath\":\"/a\"}")})
    + responses("response.completed", {"response": response("completed", usage={
        "input_tokens": 10, "input_tokens_details": {"cached_tokens": 2}, "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 1}, "total_tokens": 15})}))
put("responses_stream", "\x0b" + r_created
    + responses("response.failed", {"response": response("failed", error={"code": "server_error", "message": "boom"})}))
put("responses_stream", "\x01" + r_created
    + responses("response.incomplete", {"response": response("incomplete", incomplete_details={"reason": "max_output_tokens"})}))

# ---- database rows (V1: message/part/session columns; V2: session_message rows)
db = sqlite3.connect(os.path.join(DATA, "opencode-1.18.34/opencode.db"))
pairs = db.execute("SELECT m.data, p.data FROM part p JOIN message m ON m.id = p.message_id ORDER BY p.id").fetchall()
sessions = db.execute("SELECT title, permission, revert, model, summary_diffs, metadata FROM session").fetchall()
for i, (m, p) in enumerate(pairs[:: max(1, len(pairs) // 12)]):
    s = sessions[i % len(sessions)]
    fields = [m, p] + [c if c is not None else "" for c in s]
    put("dbrow_v1", SEP.join(f.encode() for f in fields))
db = sqlite3.connect(os.path.join(DATA, "opencode-1.18.34-v2/opencode.db"))
for (sid,) in db.execute("SELECT DISTINCT session_id FROM session_message").fetchall():
    rows = db.execute("SELECT type, data FROM session_message WHERE session_id = ? ORDER BY seq", (sid,)).fetchall()
    put("dbrow_v2", SEP.join(f"{t}\n{d}".encode() for t, d in rows[:8]))

# ---- import: OpenCode's own `opencode export` files
for path in sorted(glob.glob(os.path.join(DATA, "opencode-*/export/*.json"))):
    if os.path.getsize(path) < 12000:
        put("import", open(path, "rb").read())

# ---- diff: the patches OpenCode's edit tools recorded, with the texts before and after
for path in sorted(glob.glob(os.path.join(DATA, "opencode-1.1.53/storage/part/**/*.json"), recursive=True)):
    part = json.load(open(path))
    meta = part.get("state", {}).get("metadata", {}) or {}
    diff = meta.get("diff")
    filediff = meta.get("filediff") or {}
    if isinstance(diff, str) and len(diff) < 6000:
        put("diff", SEP.join([diff.encode(), filediff.get("before", "").encode(), filediff.get("after", "").encode()]))
def walk(o, out):
    if isinstance(o, dict):
        if isinstance(o.get("diff"), str) or ("before" in o and "after" in o):
            out.append(o)
        for v in o.values():
            walk(v, out)
    elif isinstance(o, list):
        for v in o:
            walk(v, out)

found = []
for path in sorted(glob.glob(os.path.join(DATA, "opencode-*/export/*.json"))):
    walk(json.load(open(path)), found)
for o in found[:16]:
    patch = o.get("diff") if isinstance(o.get("diff"), str) else ""
    before, after = str(o.get("before", "")), str(o.get("after", ""))
    if len(patch) + len(before) + len(after) < 12000:
        put("diff", SEP.join([patch.encode(), before.encode(), after.encode()]))
import difflib
for path in sorted(glob.glob(os.path.join(DATA, "opencode-*/storage/session_diff/*.json"))):
    for d in json.load(open(path))[:4]:
        before, after = d.get("before", ""), d.get("after", "")
        if 0 < len(before) + len(after) < 8000:
            patch = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), "a/" + d.get("file", "x"),
                                                 "b/" + d.get("file", "x")))
            put("diff", SEP.join([patch.encode(), before.encode(), after.encode()]))
pairs = [("import sys\n\n\ndef parse(args):\n    return [int(a) for a in args]\n\n\ndef main():\n    values = parse(sys.argv[1:])\n    print(sum(values))\n",
          "import sys\n\n\ndef parse(args):\n    return [float(a) for a in args if a]\n\n\ndef main():\n    values = parse(sys.argv[1:])\n    print(sum(values) / len(values))\n    return 0\n"),
         ("one\r\ntwo\r\nthree", "one\r\n2\r\nthree\r\nfour"),
         ("", "new file\n"), ("gone\n", "")]
for before, after in pairs:
    patch = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), "a/f", "b/f"))
    put("diff", SEP.join([patch.encode(), before.encode(), after.encode()]))
put("diff", SEP.join([b"--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n",
                      b"a\nb\nc\n", b"a\nB\nc\nd"]))

# ---- apply_patch
put("patch", "*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** Delete File: old.txt\n"
    "*** Update File: a.py\n*** Move to: b.py\n@@ def f():\n-    return 1\n+    return 2\n@@\n x\n-y\n+z\n*** End of File\n"
    "*** End Patch" + SEP.decode() + "def f():\n    return 1\nx\ny\n")
put("patch", "cat <<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n@@\n-a “quoted” —\n+A\n*** End Patch\nEOF"
    + SEP.decode() + "a \"quoted\" -  \nb\n")

# ---- markdown: assistant texts of the fixtures, and the constructs the renderer treats apart
for path in sorted(glob.glob(os.path.join(DATA, "opencode-1.1.53/storage/part/**/*.json"), recursive=True)):
    part = json.load(open(path))
    if part.get("type") == "text" and 40 < len(part.get("text", "")) < 4000:
        put("markdown", part["text"])
put("markdown", "# Title\n\nSome `inline` code and **bold**.\n\n```cpp\nint main() { return 0; }\n```\n\n"
    "```python\ndef f():\n    pass\n```\n```\nplain\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- item\n\n> quote\n")

# ---- config (JSONC, {env:}, {file:}) and front matter
cfg = open(os.path.join(DATA, "opencode-1.18.34/make-fixture/opencode.json")).read()
put("config", cfg)
put("config", '{\n  // a comment\n  "model": "{env:KEY}/m", /* block */\n  "provider": {\n    "p": {\n'
    '      "npm": "@ai-sdk/anthropic",\n      "options": {"apiKey": "{env:KEY}", "baseURL": "http://x/v1",'
    ' "headers": {"h": "{file:a.txt}"}, "timeout": 5000},\n      "models": {"m": {"limit": {"context": 1000, "output": 10},'
    ' "options": {"thinking": {"type": "enabled", "budgetTokens": 2000}}}},\n    },\n  },\n'
    '  "instructions": ["{file:sub/b.md}", "AGENTS.md"],\n  // "x": "{file:missing.txt}"\n  "disabled_providers": ["q"],\n}\n')
for fm in ["---\ndescription: Reviews code\nmode: subagent\ntemperature: 0.1\nsteps: 5\nhidden: true\nmodel: anthropic/claude-sonnet-4\n---\nBody\n",
           "---\ntools:\n  write: false\n  bash: false\npermission:\n  bash:\n    \"git *\": allow\n    \"*\": ask\n  edit: deny\n---\n",
           "---\ndescription: Fix: the build, then test\n---\nx",
           "---\n# a comment\na: \"x: y # not a comment\"\nb: 'it''s' # a comment\nc: plain # trailing\n---\n",
           "---\nlist:\n  - one\n  - 2\nflow: [a, \"b c\", 3]\nmap: {x: 1, y: two}\nitems:\n- name: a\n  v: 1\n- name: b\n---\n",
           "---\nprompt: |\n  line one\n  line two\nfolded: >-\n  a\n  b\nq: \"\\u00e9\\n\"\nn: ~\n---\nbody"]:
    put("frontmatter", fm)

#!/usr/bin/env python3
"""A tiny OpenAI-compatible streaming server for the compatibility check (not used by CTest).

Replies, in order: a write tool call, a text answer, then a title; then plain text forever."""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLIES = []


def chunk(delta, finish=None):
    return {"id": "c1", "object": "chat.completion.chunk", "model": "gpt-test",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def script(target):
    args = json.dumps({"filePath": target, "content": "written by weft run\n"})
    tool = [chunk({"role": "assistant", "content": "Writing the file."}),
            chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                   "function": {"name": "write", "arguments": args[:10]}}]}),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": args[10:]}}]}),
            chunk({}, "tool_calls"),
            {"id": "c1", "object": "chat.completion.chunk", "choices": [],
             "usage": {"prompt_tokens": 1200, "completion_tokens": 40, "total_tokens": 1240}}]
    text = [chunk({"role": "assistant", "content": "Done: "}), chunk({"content": "the file exists."}),
            chunk({}, "stop"),
            {"id": "c1", "object": "chat.completion.chunk", "choices": [],
             "usage": {"prompt_tokens": 1300, "completion_tokens": 12, "total_tokens": 1312}}]
    title = [chunk({"role": "assistant", "content": "Write the compat file"}), chunk({}, "stop")]
    return [tool, text, title]


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        self.rfile.read(length)
        events = REPLIES.pop(0) if REPLIES else [chunk({"role": "assistant", "content": "ok"}), chunk({}, "stop")]
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()
        for e in events:
            self.wfile.write(b"data: " + json.dumps(e).encode() + b"\n\n")
        self.wfile.write(b"data: [DONE]\n\n")

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    REPLIES.extend(script(sys.argv[2]))
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.serve_forever()

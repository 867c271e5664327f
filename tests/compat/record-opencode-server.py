#!/usr/bin/env python3
"""Records the HTTP traffic of a real `opencode serve` (1.18.34) for Weft's replay tests.

    python3 tests/compat/record-opencode-server.py /tmp/oc118/package/bin/opencode [--keep]

Starts a scripted OpenAI-compatible model server and `opencode serve` (basic auth opencode/secret)
in a throwaway HOME, plays the scenario described in tests/data/opencode-1.18.34-server/README.md,
and writes tests/data/opencode-1.18.34-server/{exchanges.json,events-*.sse,session_message.json}.
The throwaway home becomes /home/dev and the project (home/src/demo) /home/dev/src/demo in
everything written; the model server's port becomes 4097 and OpenCode's port 4096.
Not part of CTest (it needs the real binary); stdlib only.

start_server() (the two servers in a throwaway home, without the recording) is also used by
tests/compat/opencode-serve-e2e.py, which loads this file with importlib."""
import base64
import http.client
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(SRC, "tests", "data", "opencode-1.18.34-server")
USER, PASSWORD = "opencode", "secret"
STABLE_HOME = "/home/dev"
STABLE_SERVER_PORT, STABLE_MODEL_PORT = 4096, 4097

# ---------------------------------------------------------------------------------------------
# The scripted model
# ---------------------------------------------------------------------------------------------

MODEL_LOG = []  # one summary per request the model server answered


def chunk(delta, finish=None):
    return {"id": "chatcmpl-rec", "object": "chat.completion.chunk", "created": 1700000000,
            "model": "m1", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def usage(prompt, completion):
    return {"id": "chatcmpl-rec", "object": "chat.completion.chunk", "created": 1700000000,
            "model": "m1", "choices": [],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion}}


def text_reply(*pieces, tokens=(100, 10)):
    out = [chunk({"role": "assistant", "content": pieces[0]})]
    out += [chunk({"content": p}) for p in pieces[1:]]
    return out + [chunk({}, "stop"), usage(*tokens)]


def tool_reply(preamble, call_id, name, args, tokens=(1200, 40)):
    raw = json.dumps(args)
    cut = raw.find(', "')  # streamed in two pieces, cut after the first value (not inside a path)
    cut = cut if cut > 0 else len(raw) // 2
    return [chunk({"role": "assistant", "content": preamble}),
            chunk({"tool_calls": [{"index": 0, "id": call_id, "type": "function",
                                   "function": {"name": name, "arguments": raw[:cut]}}]}),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": raw[cut:]}}]}),
            chunk({}, "tool_calls"), usage(*tokens)]


def content_text(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


class ModelHandler(BaseHTTPRequestHandler):
    project = ""

    def reply_for(self, body):
        messages = body.get("messages", [])
        system = "\n".join(content_text(m.get("content")) for m in messages if m.get("role") == "system")
        tools = {t.get("function", {}).get("name"): t.get("function", {}).get("parameters", {})
                 for t in body.get("tools", []) or []}
        last = messages[-1] if messages else {}
        last_user = next((content_text(m.get("content")) for m in reversed(messages)
                          if m.get("role") == "user"), "")
        summary = {"kind": "?", "tools": sorted(tools), "lastRole": last.get("role"),
                   "messages": len(messages)}
        MODEL_LOG.append(summary)
        if "title generator" in system:
            summary["kind"] = "title"
            return text_reply("Recorded ", "title", tokens=(50, 3))
        summary["system"] = system[:80]
        if ("context summarization agent" in system or "Summarize what was done" in system
                or (not tools and "summar" in last_user.lower())):
            summary["kind"] = "summary"
            return text_reply("## Summary\n", "The user asked for hello.txt and `echo hi`; both were done.",
                              tokens=(900, 20))
        if last.get("role") == "tool":
            output = content_text(last.get("content"))
            summary["kind"] = "answer after tool"
            if "hi" in output and "echo" in json.dumps(messages[-2:]):
                return text_reply("The command ", "printed `hi`.", tokens=(1400, 8))
            return text_reply("Done: ", "the file exists.", tokens=(1300, 12))
        if "WRITE_HELLO" in last_user or "WRITE_V2" in last_user:
            name = "hello.txt" if "WRITE_HELLO" in last_user else "v2.txt"
            summary["kind"] = "write call"
            # V1's write tool takes filePath, V2's (session.next) takes path
            key = "filePath" if "filePath" in tools.get("write", {}).get("properties", {}) else "path"
            args = {key: os.path.join(self.project, name), "content": "hello from the recorder\n"}
            return tool_reply("Writing the file.", "call_write_1", "write", args)
        if "RUN_BASH" in last_user and "bash" in tools:
            summary["kind"] = "bash call"
            args = {"command": "echo hi"}
            if "description" in tools["bash"].get("properties", {}):
                args["description"] = "Print hi"
            return tool_reply("Running it.", "call_bash_1", "bash", args)
        summary["kind"] = "plain"
        return text_reply("Hello ", "from the fake model.")

    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            body = {}
        events = self.reply_for(body)
        if body.get("stream", True):
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.end_headers()
            for e in events:
                self.wfile.write(b"data: " + json.dumps(e).encode() + b"\n\n")
            self.wfile.write(b"data: [DONE]\n\n")
            return
        text = "".join(e["choices"][0]["delta"].get("content", "") for e in events if e.get("choices"))
        data = json.dumps({"id": "chatcmpl-rec", "object": "chat.completion", "created": 1700000000,
                           "model": "m1", "choices": [{"index": 0, "finish_reason": "stop",
                                                       "message": {"role": "assistant", "content": text}}],
                           "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        data = json.dumps({"object": "list", "data": [{"id": "m1", "object": "model"}]}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


# ---------------------------------------------------------------------------------------------
# Recording
# ---------------------------------------------------------------------------------------------

CURSOR = re.compile(r"eyJ[A-Za-z0-9_-]{8,}")


def decode_cursor(token):
    try:
        return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Recorder:
    def __init__(self, port, home, model_port):
        self.port, self.home, self.model_port = port, home, model_port
        self.exchanges = []
        self.failures = []

    def stable(self, text):
        text = text.replace(self.home, STABLE_HOME)
        text = text.replace(urllib.parse.quote(self.home, safe=""), urllib.parse.quote(STABLE_HOME, safe=""))
        # paging cursors are base64url JSON that may hold the directory
        text = CURSOR.sub(lambda m: self.stable_cursor(m.group(0)), text)
        for real, fixed in ((self.port, STABLE_SERVER_PORT), (self.model_port, STABLE_MODEL_PORT)):
            text = text.replace(f"127.0.0.1:{real}", f"127.0.0.1:{fixed}")
            text = text.replace(f"localhost:{real}", f"localhost:{fixed}")
        return text

    def stable_cursor(self, token):
        decoded = decode_cursor(token)
        if decoded is None or self.home not in decoded:
            return token
        fixed = decoded.replace(self.home, STABLE_HOME).encode()
        return base64.urlsafe_b64encode(fixed).decode().rstrip("=")

    def headers(self, auth):
        h = {"Accept": "application/json"}
        if auth is not None:
            h["Authorization"] = "Basic " + base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
        return h

    def call(self, name, method, path, body=None, auth=(USER, PASSWORD), timeout=60, stream_seconds=None,
             record=True):
        """One exchange; returns (status, parsed body). stream_seconds: read an SSE body that long."""
        h = self.headers(auth)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        entry = {"name": name, "method": method, "path": self.stable(path),
                 "requestBody": json.loads(self.stable(json.dumps(body))) if body is not None else None}
        status, ctype, headers, raw = None, None, {}, b""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        started = time.monotonic()
        try:
            conn.request(method, path, data, h)
            resp = conn.getresponse()
            status, ctype = resp.status, resp.getheader("content-type")
            headers = {k: self.stable(v) for k, v in resp.getheaders() if k.lower() not in ("date",)}
            if stream_seconds is not None and ctype and "event-stream" in ctype:
                conn.sock.settimeout(None)
                closed_by_us = threading.Event()

                def close():
                    closed_by_us.set()
                    conn.sock.shutdown(socket.SHUT_RDWR)
                closer = threading.Timer(stream_seconds, close)
                closer.start()
                try:
                    while True:
                        piece = resp.read1(65536)
                        if not piece:
                            break
                        raw += piece
                except Exception:
                    pass
                closer.cancel()
                entry["note"] = ("event stream; the server ended it" if not closed_by_us.is_set() else
                                 f"event stream; still open after {stream_seconds} s, closed by the recorder")
            else:
                raw = resp.read()
        except (socket.timeout, TimeoutError):
            entry["note"] = f"timeout after {timeout} s"
        except Exception as e:  # keep going, record what happened
            entry["note"] = f"error: {type(e).__name__}: {e}"
        finally:
            conn.close()
        entry["elapsedMs"] = int((time.monotonic() - started) * 1000)
        text = self.stable(raw.decode("utf-8", "replace"))
        parsed = text
        if ctype and "json" in ctype and text:
            try:
                parsed = json.loads(text)
            except ValueError:
                pass
        entry.update({"status": status, "contentType": ctype, "responseHeaders": headers,
                      "responseBody": parsed})
        self.last_entry = entry
        if record:
            self.exchanges.append(entry)
        marker = "" if status and status < 400 else "   <-- " + str(entry.get("note", status))
        print(f"{status or '---'} {method} {path[:90]} [{name}]{marker}", flush=True)
        if status is None or status >= 500:
            self.failures.append(f"{name}: {method} {path} -> {status} {entry.get('note', '')}")
        # return the unrewritten body so the scenario can use real paths
        real = raw.decode("utf-8", "replace")
        if ctype and "json" in ctype and real:
            try:
                return status, json.loads(real)
            except ValueError:
                pass
        return status, real


class EventStream:
    """Reads an SSE route in a thread, keeping the raw bytes."""

    def __init__(self, rec, name, path):
        self.rec, self.name, self.path = rec, name, path
        self.buf = b""
        self.cond = threading.Condition()
        self.status = None
        self.conn = None
        self.done = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        self.wait(lambda events: True, 10)  # server.connected
        time.sleep(float(os.environ.get("RECORD_SETTLE", "0.5")))

    def run(self):
        try:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.rec.port, timeout=None)
            h = self.rec.headers((USER, PASSWORD))
            h["Accept"] = "text/event-stream"
            self.conn.request("GET", self.path, None, h)
            resp = self.conn.getresponse()
            self.status = resp.status
            while True:
                piece = resp.read1(65536)
                if not piece:
                    break
                with self.cond:
                    self.buf += piece
                    self.cond.notify_all()
        except Exception:
            pass
        finally:
            with self.cond:
                self.done = True
                self.cond.notify_all()

    def events(self):
        out = []
        for block in self.buf.decode("utf-8", "replace").split("\n\n"):
            data = "\n".join(l[5:].lstrip() for l in block.split("\n") if l.startswith("data:"))
            if data:
                try:
                    out.append(json.loads(data))
                except ValueError:
                    pass
        return out

    def wait(self, predicate, timeout):
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                if predicate(self.events()):
                    return True
                left = end - time.monotonic()
                if left <= 0 or self.done:
                    return False
                self.cond.wait(left)

    def stop(self, filename, linger=1.0):
        time.sleep(linger)
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except Exception:
            pass
        self.thread.join(5)
        with open(os.path.join(OUT, filename), "wb") as f:
            f.write(self.rec.stable(self.buf.decode("utf-8", "replace")).encode())
        print(f"     wrote {filename}: {len(self.buf)} bytes, {len(self.events())} events (HTTP {self.status})")


def payload(e):
    """The event itself, whichever stream it came from."""
    return e.get("payload", e) if isinstance(e, dict) else {}


def props(e):
    p = payload(e)
    return p.get("properties", p.get("data", {})) or {}


def is_idle(session_id):
    def pred(events):
        for e in events:
            p, pr = payload(e), props(e)
            if pr.get("sessionID") != session_id:
                continue
            if p.get("type") == "session.idle":
                return True
            if p.get("type") == "session.status" and (pr.get("status") or {}).get("type") == "idle":
                return True
        return False
    return pred


def find_event(kind_prefix, session_id=None):
    def pred(events):
        return any(payload(e).get("type", "").startswith(kind_prefix)
                   and (session_id is None or props(e).get("sessionID") == session_id) for e in events)
    return pred


class OpencodeServer:
    """What start_server() started: a scripted model server and `opencode serve` on 127.0.0.1.

    base (the temp dir), home, project, port, model_port, url, user, password, env (of opencode),
    log_path (its stdout and stderr), db (its opencode.db); stop() ends both servers and, unless
    keep, removes base."""

    def __init__(self, base, home, project, port, model_port, model, env, log_path):
        self.base, self.home, self.project = base, home, project
        self.port, self.model_port, self.model = port, model_port, model
        self.url = f"http://127.0.0.1:{port}"
        self.user, self.password = USER, PASSWORD
        self.env, self.log_path = env, log_path
        self.db = os.path.join(home, ".local/share", "opencode", "opencode.db")
        self.process = None
        self.log = None

    def headers(self, auth=(USER, PASSWORD)):
        h = {"Accept": "application/json"}
        if auth is not None:
            h["Authorization"] = "Basic " + base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
        return h

    def log_tail(self, lines=15):
        try:
            with open(self.log_path) as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def stop(self, remove=False):
        """Ends opencode and the model server; remove=True also deletes the temp dir."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
        if self.model is not None:
            self.model.shutdown()
            self.model.server_close()
            self.model = None
        if self.log is not None:
            self.log.close()
            self.log = None
        if remove:
            shutil.rmtree(self.base, ignore_errors=True)


def start_server(opencode, handler=None, prefix="weft-rec.", startup_seconds=60):
    """Starts the scripted model (handler: a ModelHandler subclass, default ModelHandler) and
    `opencode serve` (password `secret`) in a throwaway HOME with a fresh git project
    ($HOME/src/demo, one commit with a fixed author and date) whose opencode.json has provider
    `fake` (model `m1`) and `"permission": {"bash": "ask"}`. Waits until /global/health answers
    and returns an OpencodeServer; on failure stops everything and raises RuntimeError."""
    handler = handler or ModelHandler
    base = tempfile.mkdtemp(prefix=prefix)
    home = os.path.join(base, "home")
    project = os.path.join(home, "src", "demo")
    os.makedirs(project)
    for d in (".local/share", ".config", ".cache", ".local/state"):
        os.makedirs(os.path.join(home, d), exist_ok=True)

    model_port, port = free_port(), free_port()
    handler.project = project
    model = ThreadingHTTPServer(("127.0.0.1", model_port), handler)
    threading.Thread(target=model.serve_forever, daemon=True).start()

    # A project whose root commit (hence OpenCode's project id) is the same on every run.
    git_env = dict(os.environ, GIT_AUTHOR_NAME="Dev", GIT_AUTHOR_EMAIL="dev@example.com",
                   GIT_COMMITTER_NAME="Dev", GIT_COMMITTER_EMAIL="dev@example.com",
                   GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z",
                   HOME=home)
    with open(os.path.join(project, "README.md"), "w") as f:
        f.write("# demo\n")
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=project, check=True, env=git_env)
    subprocess.run(["git", "add", "README.md"], cwd=project, check=True, env=git_env)
    subprocess.run(["git", "commit", "-qm", "init"], cwd=project, check=True, env=git_env)
    config = {"$schema": "https://opencode.ai/config.json", "model": "fake/m1", "small_model": "fake/m1",
              "autoupdate": False, "share": "disabled",
              "permission": {"bash": "ask"},
              "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake",
                                    "options": {"baseURL": f"http://127.0.0.1:{model_port}/v1", "apiKey": "x"},
                                    "models": {"m1": {}}}}}
    with open(os.path.join(project, "opencode.json"), "w") as f:
        json.dump(config, f, indent=2)
    with open(os.path.join(project, ".git", "info", "exclude"), "a") as f:
        f.write("opencode.json\n")

    return serve(opencode, base, home, project, port, model_port, model, startup_seconds)


def serve(opencode, base, home, cwd, port, model_port=None, model=None, startup_seconds=60, env_overrides=None,
          health="/global/health"):
    """Starts `opencode serve` (password `secret`) on 127.0.0.1:@p port in @p cwd, with HOME and
    the XDG folders in @p home (so its opencode.db is home/.local/share/opencode/opencode.db;
    @p env_overrides may move the others), its log in @p base. Waits until @p health answers
    (`/api/health` for an OpenCode 2 server) and returns an OpencodeServer (which also stops
    @p model, if given); on failure stops it and raises RuntimeError."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENCODE")}
    env.update(HOME=home, XDG_DATA_HOME=os.path.join(home, ".local/share"),
               XDG_CONFIG_HOME=os.path.join(home, ".config"), XDG_CACHE_HOME=os.path.join(home, ".cache"),
               XDG_STATE_HOME=os.path.join(home, ".local/state"),
               OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_MODELS_FETCH="1",
               OPENCODE_DISABLE_DEFAULT_PLUGINS="1", OPENCODE_DISABLE_LSP_DOWNLOAD="1",
               OPENCODE_DISABLE_SHARE="1", OPENCODE_DISABLE_CLAUDE_CODE="1",
               OPENCODE_DISABLE_EXTERNAL_SKILLS="1", OPENCODE_SERVER_PASSWORD=PASSWORD)
    env.update(env_overrides or {})
    srv = OpencodeServer(base, home, cwd, port, model_port, model, env, os.path.join(base, "server.log"))
    try:
        srv.log = open(srv.log_path, "w")
        srv.process = subprocess.Popen([opencode, "serve", "--port", str(port), "--hostname", "127.0.0.1"],
                                       cwd=cwd, env=env, stdout=srv.log, stderr=subprocess.STDOUT)
        for _ in range(int(startup_seconds * 2)):
            if srv.process.poll() is not None:
                raise RuntimeError(f"opencode serve exited ({srv.process.returncode}):\n" + srv.log_tail())
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                c.request("GET", health, None, srv.headers())
                if c.getresponse().status == 200:
                    break
            except OSError:
                pass
            time.sleep(0.5)
        else:
            raise RuntimeError("opencode serve did not come up:\n" + srv.log_tail())
    except BaseException:
        srv.stop()
        raise
    return srv


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    opencode = os.path.abspath(sys.argv[1])
    keep = "--keep" in sys.argv
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        if name.startswith("events-") or name in ("exchanges.json", "session_message.json"):
            os.remove(os.path.join(OUT, name))

    srv = start_server(opencode)
    base, home, project = srv.base, srv.home, srv.project
    rec = Recorder(srv.port, home, srv.model_port)
    try:
        scenario(rec, project)
    finally:
        srv.stop()

    dump_session_messages(rec, srv.db)
    with open(os.path.join(OUT, "exchanges.json"), "w") as f:
        json.dump(rec.exchanges, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("\nmodel requests:")
    for m in MODEL_LOG:
        print("  ", json.dumps(m))
    leftovers = []
    for name in sorted(os.listdir(OUT)):
        with open(os.path.join(OUT, name), "rb") as f:
            data = f.read().decode("utf-8", "replace")
            data += "".join(decode_cursor(t) or "" for t in CURSOR.findall(data))
            if os.path.basename(base) in data:
                leftovers.append(name)
    print(f"\n{len(rec.exchanges)} exchanges written to {OUT}")
    if leftovers:
        print("WARNING: the temp dir still appears in", leftovers)
    if rec.failures:
        print("failures:\n  " + "\n  ".join(rec.failures))
    print("server log tail:\n" + srv.log_tail())
    if keep:
        print("kept", base)
    else:
        shutil.rmtree(base, ignore_errors=True)


def dump_session_messages(rec, db):
    """The session_message rows of the V2 session, to compare with /api/session/{id}/message."""
    if not os.path.exists(db) or not getattr(rec, "v2_session", None):
        return
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    cols = [r[1] for r in con.execute("PRAGMA table_info(session_message)")]
    rows = []
    for r in con.execute("SELECT * FROM session_message WHERE session_id = ? ORDER BY seq", (rec.v2_session,)):
        row = {c: r[c] for c in cols}
        if isinstance(row.get("data"), str):
            try:
                row["data"] = json.loads(rec.stable(row["data"]))
            except ValueError:
                pass
        rows.append(row)
    con.close()
    with open(os.path.join(OUT, "session_message.json"), "w") as f:
        f.write(rec.stable(json.dumps(rows, indent=1, ensure_ascii=False)) + "\n")


def scenario(rec, project):
    q = "directory=" + urllib.parse.quote(project, safe="/")
    unknown_session = "ses_0000000000000000000000unkn"

    # 1. basics and auth
    rec.call("health", "GET", "/global/health")
    rec.call("health without auth", "GET", "/global/health", auth=None)
    rec.call("health with wrong password", "GET", "/global/health", auth=(USER, "wrong"))
    rec.call("session list with wrong password", "GET", f"/session?{q}", auth=(USER, "wrong"))
    rec.call("v2 health", "GET", "/api/health")
    rec.call("path", "GET", f"/path?{q}")
    rec.call("project list", "GET", f"/project?{q}")
    rec.call("current project", "GET", f"/project/current?{q}")
    rec.call("providers", "GET", f"/config/providers?{q}")
    rec.call("agents", "GET", f"/agent?{q}")

    # 2. V1 session, a prompt with a write tool call, while /event and /global/event are read
    _, session = rec.call("create V1 session", "POST", f"/session?{q}", {"title": "Recorded V1"})
    sid = session["id"]
    ev = EventStream(rec, "event", f"/event?{q}")
    gev = EventStream(rec, "global", "/global/event")
    _, reply = rec.call("V1 prompt (write tool, then text)", "POST", f"/session/{sid}/message?{q}",
                        {"model": {"providerID": "fake", "modelID": "m1"},
                         "parts": [{"type": "text", "text": "WRITE_HELLO: please create hello.txt"}]},
                        timeout=180)
    if not ev.wait(is_idle(sid), 60):
        print("     no idle event on /event for", sid)
    gev.wait(is_idle(sid), 10)
    ev.stop("events-v1-prompt.sse")
    gev.stop("events-global-v1-prompt.sse", linger=0)
    assistant_id = reply["info"]["id"] if isinstance(reply, dict) and "info" in reply else None
    rec.call("session list", "GET", f"/session?{q}")
    rec.call("session", "GET", f"/session/{sid}?{q}")
    _, msgs = rec.call("messages", "GET", f"/session/{sid}/message?{q}")
    user_ids = [m["info"]["id"] for m in msgs if m["info"]["role"] == "user"] if isinstance(msgs, list) else []
    if assistant_id:
        rec.call("one message", "GET", f"/session/{sid}/message/{assistant_id}?{q}")
    rec.call("diff", "GET", f"/session/{sid}/diff?{q}")
    if user_ids:
        rec.call("diff of the first user message", "GET", f"/session/{sid}/diff?{q}&messageID={user_ids[0]}")
    rec.call("children", "GET", f"/session/{sid}/children?{q}")
    rec.call("status (idle)", "GET", f"/session/status?{q}")
    rec.call("messages, limit 1", "GET", f"/session/{sid}/message?{q}&limit=1")

    # 3. a bash call that asks for permission (opencode.json: "permission": {"bash": "ask"})
    ev = EventStream(rec, "event", f"/event?{q}")
    gev = EventStream(rec, "global", "/global/event")
    rec.call("V1 prompt_async (bash tool asks)", "POST", f"/session/{sid}/prompt_async?{q}",
             {"model": {"providerID": "fake", "modelID": "m1"},
              "parts": [{"type": "text", "text": "RUN_BASH: run echo hi"}]})
    request_id = None
    if ev.wait(find_event("permission.", sid), 60):
        for e in ev.events():
            if payload(e).get("type", "").startswith("permission.") and props(e).get("sessionID") == sid:
                request_id = props(e).get("id")
                break
    else:
        print("     no permission event seen")
    rec.call("status (busy, waiting for permission)", "GET", f"/session/status?{q}")
    rec.call("pending permissions", "GET", f"/permission?{q}")
    rec.call("pending permissions (V2 route)", "GET", "/api/permission/request")
    rec.call("session permissions (V2 route)", "GET", f"/api/session/{sid}/permission")
    if request_id:
        rec.call("reply to permission", "POST", f"/permission/{request_id}/reply?{q}", {"reply": "once"})
        rec.call("reply to the same permission again", "POST", f"/permission/{request_id}/reply?{q}",
                 {"reply": "once"})
    if not ev.wait(is_idle(sid), 60):
        print("     session did not become idle after the permission")
    gev.wait(is_idle(sid), 10)
    ev.stop("events-v1-permission.sse")
    gev.stop("events-global-permission.sse", linger=0)
    _, msgs = rec.call("messages after bash", "GET", f"/session/{sid}/message?{q}")
    user_ids = [m["info"]["id"] for m in msgs if m["info"]["role"] == "user"] if isinstance(msgs, list) else user_ids
    rec.call("abort an idle session", "POST", f"/session/{sid}/abort?{q}")

    # 4. fork, summarize, revert, unrevert, delete, unknown session
    _, fork1 = rec.call("fork whole session", "POST", f"/session/{sid}/fork?{q}", {})
    fork2 = None
    if len(user_ids) >= 2:
        _, fork2 = rec.call("fork before the 2nd user message", "POST", f"/session/{sid}/fork?{q}",
                            {"messageID": user_ids[1]})
        if isinstance(fork2, dict) and "id" in fork2:
            rec.call("messages of the partial fork", "GET", f"/session/{fork2['id']}/message?{q}")
    ev = EventStream(rec, "event", f"/event?{q}")
    rec.call("summarize", "POST", f"/session/{sid}/summarize?{q}", {"providerID": "fake", "modelID": "m1"},
             timeout=180)
    ev.wait(is_idle(sid), 30)
    ev.stop("events-v1-summarize.sse")
    _, msgs = rec.call("messages after summarize", "GET", f"/session/{sid}/message?{q}")
    if len(user_ids) >= 2:
        rec.call("revert to the 2nd user message", "POST", f"/session/{sid}/revert?{q}",
                 {"messageID": user_ids[1]})
        rec.call("session while reverted", "GET", f"/session/{sid}?{q}")
        rec.call("messages while reverted", "GET", f"/session/{sid}/message?{q}")
        rec.call("unrevert", "POST", f"/session/{sid}/unrevert?{q}")
    if isinstance(fork1, dict) and "id" in fork1:
        rec.call("delete the fork", "DELETE", f"/session/{fork1['id']}?{q}")
        rec.call("get the deleted fork", "GET", f"/session/{fork1['id']}?{q}")
    rec.call("unknown session", "GET", f"/session/{unknown_session}?{q}")
    rec.call("messages of an unknown session", "GET", f"/session/{unknown_session}/message?{q}")
    rec.call("prompt an unknown session (V2)", "POST", f"/api/session/{unknown_session}/prompt",
             {"prompt": {"text": "hi"}})

    # 5. V2 session, while /api/event (and /global/event, /event) are read
    _, created = rec.call("create V2 session", "POST", "/api/session", {"location": {"directory": project}})
    v2 = created.get("data", {}).get("id") if isinstance(created, dict) else None
    if not v2:
        print("     V2 session not created; skipping V2")
        return
    rec.v2_session = v2
    aev = EventStream(rec, "api", "/api/event")
    gev = EventStream(rec, "global", "/global/event")
    ev = EventStream(rec, "event", f"/event?{q}")
    rec.call("V2 prompt (write tool, then text)", "POST", f"/api/session/{v2}/prompt",
             {"prompt": {"text": "WRITE_V2: please create v2.txt"}})
    wait_inactive(rec, v2)
    aev.stop("events-v2-prompt.sse")
    gev.stop("events-global-v2-prompt.sse", linger=0)
    ev.stop("events-v1-during-v2-prompt.sse", linger=0)
    rec.call("V2 session list", "GET", "/api/session")
    rec.call("V2 session list for the project", "GET",
             "/api/session?directory=" + urllib.parse.quote(project, safe="/"))
    rec.call("V2 session", "GET", f"/api/session/{v2}")
    _, v2msgs = rec.call("V2 messages", "GET", f"/api/session/{v2}/message")
    items = v2msgs.get("data", []) if isinstance(v2msgs, dict) else []
    if items and isinstance(items[0], dict) and "id" in items[0]:
        rec.call("V2 one message", "GET", f"/api/session/{v2}/message/{items[-1]['id']}")
    rec.call("V2 context", "GET", f"/api/session/{v2}/context")
    _, hist = rec.call("V2 history", "GET", f"/api/session/{v2}/history")
    rec.call("V2 history, limit 3", "GET", f"/api/session/{v2}/history?limit=3")
    mid = None
    hdata = hist.get("data", []) if isinstance(hist, dict) else []
    if len(hdata) > 2:
        mid = (hdata[len(hdata) // 2].get("durable") or {}).get("seq")
    if mid is not None:
        rec.call("V2 history after the middle", "GET", f"/api/session/{v2}/history?after={mid}")
    rec.call("V2 session events after=0", "GET", f"/api/session/{v2}/event?after=0", stream_seconds=3)
    if mid is not None:
        rec.call("V2 session events after the middle", "GET", f"/api/session/{v2}/event?after={mid}",
                 stream_seconds=3)
    rec.call("V1 messages of a V2 session", "GET", f"/session/{v2}/message?{q}")
    rec.call("V1 get of a V2 session", "GET", f"/session/{v2}?{q}")
    rec.call("V2 messages of a V1 session", "GET", f"/api/session/{sid}/message")
    rec.call("V2 active (idle)", "GET", "/api/session/active")

    # 5b. a V2 bash call that asks for permission
    aev = EventStream(rec, "api", "/api/event")
    rec.call("V2 prompt (bash tool asks)", "POST", f"/api/session/{v2}/prompt",
             {"prompt": {"text": "RUN_BASH: run echo hi"}})
    asked = lambda events: [e for e in events if "permission" in payload(e).get("type", "")
                            and "ask" in payload(e).get("type", "")]
    v2_request = None
    if aev.wait(lambda events: bool(asked(events)), 60):
        found = re.search(r'"(per_[A-Za-z0-9]+)"', json.dumps(asked(aev.events())[0]))
        v2_request = found.group(1) if found else None
    else:
        print("     no V2 permission event seen on /api/event")
    rec.call("V2 active (waiting for permission)", "GET", "/api/session/active")
    rec.call("V2 pending permissions", "GET", "/api/permission/request")
    rec.call("V2 session permissions", "GET", f"/api/session/{v2}/permission")
    rec.call("V1 pending permissions during a V2 ask", "GET", f"/permission?{q}")
    if v2_request:
        rec.call("V2 one permission", "GET", f"/api/session/{v2}/permission/{v2_request}")
        rec.call("V2 reply to permission", "POST", f"/api/session/{v2}/permission/{v2_request}/reply",
                 {"reply": "once"})
    wait_inactive(rec, v2)
    aev.stop("events-v2-permission.sse")
    rec.call("V2 messages after bash", "GET", f"/api/session/{v2}/message")
    aev = EventStream(rec, "api", "/api/event")
    rec.call("V2 compact", "POST", f"/api/session/{v2}/compact", timeout=120)
    wait_inactive(rec, v2)
    aev.stop("events-v2-compact.sse")
    rec.call("V2 messages after compact", "GET", f"/api/session/{v2}/message")
    rec.call("V2 unknown session", "GET", f"/api/session/{unknown_session}")


def wait_inactive(rec, session_id, timeout=90):
    """Polls /api/session/active until the session is not running; records each change."""
    end = time.monotonic() + timeout
    last = None
    time.sleep(0.3)
    while time.monotonic() < end:
        status, body = rec.call("V2 active (poll)", "GET", "/api/session/active", record=False)
        if body != last:
            rec.exchanges.append(rec.last_entry)
            last = body
        if status == 200 and isinstance(body, dict) and session_id not in body.get("data", {}):
            time.sleep(0.5)
            return True
        time.sleep(0.3)
    print("     session still active after", timeout, "s")
    return False


if __name__ == "__main__":
    main()

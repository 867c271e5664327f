#!/usr/bin/env python3
"""End-to-end check of `weft --server` against the real OpenCode V2 server (`opencode2`).

    python3 tests/compat/opencode2-e2e.py WEFT OPENCODE2

WEFT is the weft command (build/weft, the launcher), OPENCODE2 the unpacked preview build of
../shared/tools/opencode-v2-preview (tests/compat/opencode2-e2e.sh unpacks and caches it). Starts a
scripted OpenAI-compatible model on loopback and `opencode2 serve` offline in a throwaway HOME
(own XDG folders, password `secret`, a config whose provider `fake` is that model and which asks
before `shell`), runs weft's server commands against it and checks their output against what the
server itself answers through its `/api`. Prints one `ok`/`FAIL` line per check and a table of the
time each weft command took; exits 1 when a check failed. Stdlib only.

The scripted model answers by the words in the last user message:
  WRITE_V2      a `write` tool call ({path, content}) that makes v2.txt in the project
  RUN_SHELL     a `shell` tool call (`echo hi`), which the config makes ask for permission
  ASK_QUESTION  a `question` tool call with one question and two options
  SLOW          a text streamed over SLOW_SECONDS (something to abort, steer or queue into)
and with a plain text otherwise (a summary for a compaction, a title for the title agent)."""
import base64
import importlib.util
import json
import os
import shutil
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("record_opencode_server",
                                               os.path.join(HERE, "record-opencode-server.py"))
rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rec)

USER, PASSWORD = "opencode", "secret"
RUN_TIMEOUT = 120
SLOW_SECONDS = 10
BIG_SESSION = int(os.environ.get("WEFT_E2E_BIG_SESSION", "3000"))  # messages of the long session
MODEL_LOG = rec.MODEL_LOG


# ---------------------------------------------------------------------------------------------
# The scripted model
# ---------------------------------------------------------------------------------------------

class V2Model(rec.ModelHandler):
    """The recorder's model with V2's tools (`write`/`shell` with `path`, `question`) and a slow
    answer. Streams through the recorder's do_POST; SLOW answers are streamed here."""

    def reply_for(self, body):
        messages = body.get("messages", [])
        system = "\n".join(rec.content_text(m.get("content")) for m in messages if m.get("role") == "system")
        tools = {t.get("function", {}).get("name") for t in body.get("tools", []) or []}
        last = messages[-1] if messages else {}
        last_user = next((rec.content_text(m.get("content")) for m in reversed(messages)
                          if m.get("role") == "user"), "")
        summary = {"kind": "?", "messages": len(messages)}
        MODEL_LOG.append(summary)
        if "title" in system.lower() and "generat" in system.lower() and not tools:
            summary["kind"] = "title"
            return rec.text_reply("V2 ", "title", tokens=(50, 3))
        if not tools or "summar" in system.lower() and "compact" in system.lower():
            summary["kind"] = "summary"
            return rec.text_reply("## Summary\n", "v2.txt was written and `echo hi` was run.", tokens=(900, 20))
        if last.get("role") == "tool":
            output = rec.content_text(last.get("content"))
            summary["kind"] = "answer after tool"
            if "hi" in output and "echo" in json.dumps(messages[-2:]):
                return rec.text_reply("The command ", "printed `hi`.", tokens=(1400, 8))
            if "question" in json.dumps(messages[-2:]):
                return rec.text_reply("You chose: ", output[:80], tokens=(1400, 8))
            return rec.text_reply("Done: ", "the file exists.", tokens=(1300, 12))
        if "WRITE_V2" in last_user and "write" in tools:
            summary["kind"] = "write call"
            return rec.tool_reply("Writing the file.", "call_write_1", "write",
                                  {"path": os.path.join(self.project, "v2.txt"), "content": "hello from V2\n"})
        if "RUN_SHELL" in last_user and "shell" in tools:
            summary["kind"] = "shell call"
            return rec.tool_reply("Running it.", "call_shell_1", "shell", {"command": "echo hi"})
        if "ASK_QUESTION" in last_user and "question" in tools:
            summary["kind"] = "question call"
            return rec.tool_reply("Let me ask.", "call_question_1", "question", {"questions": [
                {"question": "Which colour?", "header": "Colour",
                 "options": [{"label": "Red", "description": "warm"}, {"label": "Blue", "description": "cold"}]}]})
        summary["kind"] = "slow" if "SLOW" in last_user else "plain"
        if "SLOW" in last_user:
            return None
        return rec.text_reply("Hello ", "from the fake model.")

    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        events = self.reply_for(body)
        if events is None:
            return self.slow()
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()
        for e in events:
            self.wfile.write(b"data: " + json.dumps(e).encode() + b"\n\n")
        self.wfile.write(b"data: [DONE]\n\n")

    def slow(self):
        """A text streamed a word every 0.2 s for SLOW_SECONDS: a run long enough to interrupt."""
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()
        try:
            self.wfile.write(b"data: " + json.dumps(rec.chunk({"role": "assistant", "content": "Slowly"})).encode()
                             + b"\n\n")
            for _ in range(int(SLOW_SECONDS / 0.2)):
                time.sleep(0.2)
                self.wfile.write(b"data: " + json.dumps(rec.chunk({"content": " word"})).encode() + b"\n\n")
                self.wfile.flush()
            for e in (rec.chunk({}, "stop"), rec.usage(100, 50)):
                self.wfile.write(b"data: " + json.dumps(e).encode() + b"\n\n")
            self.wfile.write(b"data: [DONE]\n\n")
        except OSError:
            pass  # the server hung up: the run was interrupted


# ---------------------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------------------

class Opencode2:
    """`opencode2 serve` in a throwaway HOME (base/home), its project base/home/src/demo, and the
    scripted model. start() (again after stop(), on the same HOME and database) starts it as a
    plain server on a fixed port, or as the background service (`serve --service`); stop()
    ends it, close() ends the model too."""

    def __init__(self, binary):
        self.binary = binary
        self.base = tempfile.mkdtemp(prefix="weft-e2e-oc2.", dir="/tmp")
        self.home = os.path.join(self.base, "home")
        self.project = os.path.join(self.home, "src", "demo")
        os.makedirs(self.project)
        for d in (".local/share", ".config/opencode", ".cache", ".local/state"):
            os.makedirs(os.path.join(self.home, d), exist_ok=True)
        self.model_port, self.port = rec.free_port(), rec.free_port()
        V2Model.project = self.project
        self.model = ThreadingHTTPServer(("127.0.0.1", self.model_port), V2Model)
        self.model.daemon_threads = True
        threading.Thread(target=self.model.serve_forever, daemon=True).start()
        git_env = dict(os.environ, GIT_AUTHOR_NAME="Dev", GIT_AUTHOR_EMAIL="dev@example.com",
                       GIT_COMMITTER_NAME="Dev", GIT_COMMITTER_EMAIL="dev@example.com",
                       GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z",
                       HOME=self.home)
        with open(os.path.join(self.project, "README.md"), "w") as f:
            f.write("# demo\n")
        for cmd in (["git", "init", "-q", "-b", "main"], ["git", "add", "README.md"], ["git", "commit", "-qm", "init"]):
            subprocess.run(cmd, cwd=self.project, check=True, env=git_env)
        # V1's config format, which V2 accepts and migrates (the preview's README).
        config = {"$schema": "https://opencode.ai/config.json", "model": "fake/m1", "small_model": "fake/m1",
                  "autoupdate": False, "share": "disabled",
                  "permission": {"shell": "ask", "bash": "ask"},
                  "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake",
                                        "options": {"baseURL": f"http://127.0.0.1:{self.model_port}/v1",
                                                    "apiKey": "x"},
                                        "models": {"m1": {"limit": {"context": 100000, "output": 4096}}}}}}
        with open(os.path.join(self.home, ".config", "opencode", "opencode.json"), "w") as f:
            json.dump(config, f, indent=2)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENCODE", "XDG_"))}
        self.env.update(HOME=self.home, XDG_CONFIG_HOME=os.path.join(self.home, ".config"),
                        XDG_DATA_HOME=os.path.join(self.home, ".local/share"),
                        XDG_STATE_HOME=os.path.join(self.home, ".local/state"),
                        XDG_CACHE_HOME=os.path.join(self.home, ".cache"),
                        OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_MODELS_FETCH="1",
                        OPENCODE_DISABLE_DEFAULT_PLUGINS="1", OPENCODE_DISABLE_LSP_DOWNLOAD="1",
                        OPENCODE_DISABLE_SHARE="1", OPENCODE_DISABLE_CLAUDE_CODE="1",
                        OPENCODE_DISABLE_EXTERNAL_SKILLS="1", OPENCODE_PASSWORD=PASSWORD)
        self.process = None
        self.log = None
        self.log_path = os.path.join(self.base, "server.log")
        self.service = False
        self.password = PASSWORD
        self.url = f"http://127.0.0.1:{self.port}"

    @property
    def service_file(self):
        return os.path.join(self.home, ".local", "state", "opencode", "service.json")

    def start(self, service=False, seconds=60):
        """Starts the server (the service: `serve --service`, whose URL and password come from
        the service file it writes) and waits until /api/health answers."""
        self.service = service
        args = [self.binary, "serve"] + (["--service"] if service else
                                         ["--hostname", "127.0.0.1", "--port", str(self.port)])
        self.log = open(self.log_path, "a")
        self.log.write(f"\n==== {' '.join(args[1:])}\n")
        self.log.flush()
        self.process = subprocess.Popen(args, cwd=self.project, env=self.env, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"opencode2 serve exited ({self.process.returncode}):\n" + self.log_tail())
            if service:
                try:
                    with open(self.service_file) as f:
                        entry = json.load(f)
                    self.url, self.password = entry["url"].rstrip("/"), entry["password"]
                except (OSError, ValueError, KeyError):
                    time.sleep(0.2)
                    continue
            status, _ = self.api("GET", "/api/health", timeout=2)
            if status == 200:
                return
            time.sleep(0.2)
        raise RuntimeError("opencode2 serve did not come up:\n" + self.log_tail())

    def stop(self, remove=False):
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            self.process = None
        if self.log is not None:
            self.log.close()
            self.log = None
        if remove:
            shutil.rmtree(self.base, ignore_errors=True)

    def close(self, remove=True):
        self.stop(remove=remove)
        if self.model is not None:
            self.model.shutdown()
            self.model.server_close()
            self.model = None

    def log_tail(self, lines=15):
        try:
            with open(self.log_path) as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def headers(self, password=None):
        token = base64.b64encode(f"{USER}:{password or self.password}".encode()).decode()
        return {"Accept": "application/json", "Authorization": "Basic " + token}

    def api(self, method, path, body=None, timeout=60):
        """One request to the server's own API: (status, the parsed body); (None, why) when the
        server cannot be reached."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=self.headers())
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                raw = r.read()
                return r.status, (json.loads(raw) if raw.strip() else None)
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, json.loads(raw)
            except ValueError:
                return e.code, raw.decode("utf-8", "replace")
        except OSError as e:
            return None, str(e)


def start(binary, service=False):
    """An Opencode2 started (for probing by hand: tests/compat/opencode2-e2e.py imports fine)."""
    srv = Opencode2(binary)
    try:
        srv.start(service=service)
    except BaseException:
        srv.close(remove=False)
        raise
    return srv


# ---------------------------------------------------------------------------------------------
# The checks
# ---------------------------------------------------------------------------------------------

class Test:
    def __init__(self, weft, srv, work):
        self.weft, self.srv, self.work = weft, srv, work
        self.failures = []
        self.timings = []  # (label, ms, exit code)
        self.home = os.path.join(work, "home")
        os.makedirs(self.home, exist_ok=True)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENCODE", "WEFT_", "XDG_"))}
        self.env.update(HOME=self.home, XDG_DATA_HOME=os.path.join(self.home, ".local/share"),
                        XDG_CONFIG_HOME=os.path.join(self.home, ".config"),
                        XDG_CACHE_HOME=os.path.join(self.home, ".cache"),
                        XDG_STATE_HOME=os.path.join(self.home, ".local/state"),
                        OPENCODE_SERVER_PASSWORD=PASSWORD, LANG="C.UTF-8")

    def check(self, name, ok, detail=""):
        if ok:
            print(f"ok    {name}", flush=True)
        else:
            self.failures.append(name)
            print(f"FAIL  {name}" + (("\n      " + detail.replace("\n", "\n      ")) if detail else ""),
                  flush=True)
        return ok

    def weft_cmd(self, label, args, server=None, env=None, timeout=RUN_TIMEOUT):
        """Runs weft --server URL ARGS; returns the CompletedProcess (returncode None on timeout)."""
        cmd = [self.weft, "--server", server or self.srv.url] + list(args)
        started = time.monotonic()
        try:
            p = subprocess.run(cmd, env=dict(self.env, **(env or {})), cwd=self.work, capture_output=True,
                               timeout=timeout)
            code, out, err = p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            code = None
            out = (e.stdout or b"").decode("utf-8", "replace")
            err = (e.stderr or b"").decode("utf-8", "replace") + f"\n(killed after {timeout} s)"
        self.timings.append((label, int((time.monotonic() - started) * 1000), code))
        return subprocess.CompletedProcess(cmd, code, out, err)

    def weft_start(self, args):
        """Starts weft --server URL ARGS in the background (Popen, text mode), in a process group
        of its own: Ctrl+C at a terminal signals the group (the launcher and weft in the build
        root alike)."""
        return subprocess.Popen([self.weft, "--server", self.srv.url] + list(args), env=self.env, cwd=self.work,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)

    @staticmethod
    def show(p):
        return (f"exit {p.returncode}\nstdout: {p.stdout.strip()[:1500]!r}\n"
                f"stderr: {p.stderr.strip()[:1500]!r}")

    # -- the server's own view ------------------------------------------------------------------

    def api(self, method, path, body=None, timeout=60):
        return self.srv.api(method, path, body, timeout=timeout)

    def session_ids(self):
        ids, cursor = set(), None
        for _ in range(50):
            status, body = self.api("GET", "/api/session?limit=50" + (f"&cursor={cursor}" if cursor else ""))
            data = body.get("data", []) if status == 200 and isinstance(body, dict) else []
            ids |= {s["id"] for s in data}
            cursor = (body.get("cursor") or {}).get("next") if isinstance(body, dict) else None
            if not data or not cursor:
                break
        return ids

    def history(self, sid):
        """The server's whole history of @p sid, oldest first (it pages newest first)."""
        items, cursor, seen = [], None, set()
        for _ in range(100):
            status, body = self.api("GET", f"/api/session/{sid}/message?limit=50" + (f"&cursor={cursor}" if cursor else ""))
            data = body.get("data", []) if status == 200 and isinstance(body, dict) else []
            fresh = [m for m in data if m.get("id") not in seen]
            seen |= {m.get("id") for m in fresh}
            items += fresh
            cursor = (body.get("cursor") or {}).get("next") if isinstance(body, dict) else None
            if not fresh or not cursor:
                break
        return list(reversed(items))

    def active(self):
        status, body = self.api("GET", "/api/session/active")
        return (body or {}).get("data", {}) if status == 200 and isinstance(body, dict) else {}

    def wait_until(self, predicate, seconds=30):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if predicate():
                return True
            time.sleep(0.2)
        return False

    def wait_idle(self, sid, seconds=30):
        return self.wait_until(lambda: sid not in self.active(), seconds)

    def user_ids(self, sid):
        return [m["id"] for m in self.history(sid) if m.get("type") == "user"]

    # -- the scenario --------------------------------------------------------------------------

    def detection(self):
        p = self.weft_cmd("session list (empty server)", ["session", "list", "--format", "json"])
        try:
            listed = json.loads(p.stdout)
        except ValueError:
            listed = None
        self.check("a V2-only server is detected: session list --format json exits 0 with a JSON list",
                   p.returncode == 0 and isinstance(listed, list), self.show(p))
        p = self.weft_cmd("session list (wrong password)", ["session", "list"], env={"OPENCODE_SERVER_PASSWORD": "wrong"})
        lines = p.stderr.strip().splitlines()
        self.check("wrong password: non-zero exit, one stderr line about the password",
                   p.returncode not in (0, None) and len(lines) == 1 and "password" in lines[0].lower(), self.show(p))

    def run_write(self):
        before = self.session_ids()
        p = self.weft_cmd("run (new session, write tool)",
                          ["run", "--dir", self.srv.project, "WRITE_V2: please create v2.txt"])
        self.check("run with a write tool call: exit 0, the answer and a line starting with '✓ write'",
                   p.returncode == 0 and "Done: the file exists." in p.stdout
                   and any(l.startswith("✓ write") for l in p.stdout.splitlines()), self.show(p))
        path = os.path.join(self.srv.project, "v2.txt")
        self.check("run: the model's write made v2.txt in the project",
                   os.path.exists(path) and open(path).read() == "hello from V2\n")
        new = self.session_ids() - before
        self.check("run: made exactly one new session on the server", len(new) == 1, f"new: {sorted(new)}")
        return next(iter(new)) if len(new) == 1 else None

    def api_session(self):
        """When weft could not make one: a session made through the API, so that the other checks run."""
        status, body = self.api("POST", "/api/session", {"location": {"directory": self.srv.project}})
        sid = (body.get("data") or {}).get("id") if status == 200 and isinstance(body, dict) else None
        if sid:
            print(f"      (the next checks use {sid}, made and prompted through the server's API)")
            self.api("POST", f"/api/session/{sid}/prompt", {"text": "WRITE_V2: please create v2.txt"})
            self.api("POST", f"/api/session/{sid}/wait")
        return sid

    def shell_tools(self, sid):
        return [c for m in self.history(sid) if m.get("type") == "assistant" for c in m.get("content", [])
                if c.get("type") == "tool" and c.get("name") == "shell"]

    def permission(self, sid):
        p = self.weft_cmd("run --session (shell refused)", ["run", "--session", sid, "RUN_SHELL: run echo hi"])
        self.check("a permission asked, no --auto-approve: refused (stderr says so), the shell did not run",
                   "refused" in p.stderr.lower() and p.returncode is not None
                   and not any(l.startswith("✓ shell") for l in p.stdout.splitlines()), self.show(p))
        self.wait_idle(sid)
        tools = self.shell_tools(sid)
        self.check("refused: the server's shell tool did not complete",
                   bool(tools) and tools[-1].get("state", {}).get("status") != "completed",
                   json.dumps([t.get("state", {}).get("status") for t in tools]))
        p = self.weft_cmd("run --session --auto-approve (shell)",
                          ["run", "--session", sid, "--auto-approve", "RUN_SHELL: run echo hi"])
        self.check("a permission asked and answered (--auto-approve): exit 0, '✓ shell' and the answer",
                   p.returncode == 0 and any(l.startswith(("✓ shell", "✓ bash")) for l in p.stdout.splitlines())
                   and "The command printed `hi`." in p.stdout, self.show(p))
        self.wait_idle(sid)
        tools = self.shell_tools(sid)
        self.check("answered: the server's last shell tool completed",
                   bool(tools) and tools[-1].get("state", {}).get("status") == "completed",
                   json.dumps([t.get("state", {}).get("status") for t in tools]))

    def question(self, sid):
        p = self.weft_cmd("run --session (question form)", ["run", "--session", sid, "ASK_QUESTION: ask me"], timeout=90)
        self.check("a question form: weft declines it on stderr, naming the question, and ends",
                   p.returncode is not None and "colour" in p.stderr.lower(), self.show(p))
        self.wait_idle(sid)
        status, forms = self.api("GET", f"/api/session/{sid}/form")
        pending = forms.get("data", []) if isinstance(forms, dict) else forms
        asked = [c for m in self.history(sid) if m.get("type") == "assistant" for c in m.get("content", [])
                 if c.get("type") == "tool" and c.get("name") == "question"]
        self.check("the question form is closed on the server (the question tool ended, no form pending, the "
                   "session idle)", bool(asked) and asked[-1].get("state", {}).get("status") != "running"
                   and status == 200 and not pending and sid not in self.active(),
                   f"{status} {json.dumps(forms)[:300]} {json.dumps(asked)[:300]}")

    def list_and_export(self, sid):
        p = self.weft_cmd("session list --format json", ["session", "list", "--format", "json"])
        status, info = self.api("GET", f"/api/session/{sid}")
        info = info.get("data") if isinstance(info, dict) else None
        try:
            listed = json.loads(p.stdout)
        except ValueError:
            listed = None
        entry = next((s for s in listed or [] if s.get("id") == sid), None)
        self.check("session list --format json: the session with the server's title "
                   f"({info.get('title') if isinstance(info, dict) else '?'!r})",
                   p.returncode == 0 and entry is not None and isinstance(info, dict)
                   and entry.get("title") == info.get("title") and bool(entry.get("title")), self.show(p))
        ids = {s.get("id") for s in listed or []}
        self.check("session list: the same sessions as GET /api/session", ids == self.session_ids(),
                   f"weft {sorted(ids)} server {sorted(self.session_ids())}")
        self.export_equal(sid, "export")

    def export_equal(self, sid, label):
        p = self.weft_cmd(label, ["export", sid])
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = None
        ok = self.check(f"{label}: exit 0, valid JSON, info.id is the session",
                        p.returncode == 0 and isinstance(doc, dict) and doc.get("info", {}).get("id") == sid,
                        self.show(p))
        if not ok:
            return None
        status, info = self.api("GET", f"/api/session/{sid}")
        info = info.get("data") if isinstance(info, dict) else {}
        mine_info = doc.get("info", {})
        self.check(f"{label}: info's title and folder are the server's",
                   mine_info.get("title") == info.get("title")
                   and mine_info.get("directory") == (info.get("location") or {}).get("directory"),
                   f"weft {json.dumps(mine_info)[:300]}\nserver {json.dumps(info)[:300]}")
        server = [digest_v2(m) for m in self.history(sid)]
        mine = [digest_v1(m) for m in doc.get("messages", [])]
        self.check(f"{label}: the messages equal the server's history ({len(server)} items: ids, roles, "
                   "texts, tool calls and states)", mine == server and len(server) > 0,
                   rec.first_difference(mine, server))
        return doc

    def fork(self, sid):
        p = self.weft_cmd("session fork", ["session", "fork", sid])
        fork1 = p.stdout.strip()
        self.check("session fork: exit 0, prints a new ses_ ID the server has",
                   p.returncode == 0 and fork1.startswith("ses_") and fork1 != sid and fork1 in self.session_ids(),
                   self.show(p))
        if p.returncode == 0 and fork1.startswith("ses_"):
            self.check("session fork: the fork has all the messages",
                       len(self.history(fork1)) == len(self.history(sid)))
        users = self.user_ids(sid)
        if self.check("the session has at least 2 user messages", len(users) >= 2, str(users)):
            p = self.weft_cmd("session fork --message", ["session", "fork", sid, "--message", users[1]])
            fork2 = p.stdout.strip()
            n_all = len(self.history(sid))
            n_fork = len(self.history(fork2)) if fork2.startswith("ses_") else -1
            self.check(f"session fork --message (2nd user message): a fork with fewer messages ({n_fork} < {n_all})",
                       p.returncode == 0 and fork2.startswith("ses_") and 0 < n_fork < n_all, self.show(p))
        return fork1

    def compact(self, sid):
        p = self.weft_cmd("session compact", ["session", "compact", sid], timeout=180)
        self.check("session compact: exit 0", p.returncode == 0, self.show(p))
        self.wait_idle(sid)
        items = [m for m in self.history(sid) if m.get("type") == "compaction"]
        self.check("session compact: the server's history has a completed compaction",
                   len(items) == 1 and items[0].get("status") == "completed", json.dumps(items)[:500])
        self.export_equal(sid, "export (after compact)")

    def revert(self, sid):
        users = self.user_ids(sid)
        if len(users) < 2:
            return self.check("revert needs 2 user messages", False)
        p = self.weft_cmd("session revert", ["session", "revert", sid, users[1]])
        status, info = self.api("GET", f"/api/session/{sid}")
        revert = (info.get("data") or {}).get("revert") if isinstance(info, dict) else None
        self.check("session revert: exit 0, the server's session has revert.messageID = the message",
                   p.returncode == 0 and isinstance(revert, dict) and revert.get("messageID") == users[1],
                   self.show(p) + f"\nserver revert: {revert!r}")
        e = self.weft_cmd("export (reverted)", ["export", sid])
        try:
            doc = json.loads(e.stdout)
        except ValueError:
            doc = {}
        self.check("export of the reverted session: info.revert.messageID is the server's",
                   (doc.get("info", {}).get("revert") or {}).get("messageID") == users[1], self.show(e))
        p = self.weft_cmd("session unrevert", ["session", "unrevert", sid])
        status, info = self.api("GET", f"/api/session/{sid}")
        data = info.get("data") if isinstance(info, dict) else None
        self.check("session unrevert: exit 0, the server's session has no revert",
                   p.returncode == 0 and isinstance(data, dict) and "revert" not in data,
                   self.show(p) + f"\nserver: {json.dumps(data)[:300]}")

    def delete(self, fork1, sid):
        if not fork1.startswith("ses_"):
            return self.check("session delete (no fork to delete)", False)
        p = self.weft_cmd("session delete", ["session", "delete", fork1])
        status, _ = self.api("GET", f"/api/session/{fork1}")
        self.check("session delete FORK: exit 0, GET /api/session/FORK -> 404", p.returncode == 0 and status == 404,
                   self.show(p) + f"\nGET -> {status}")
        status, _ = self.api("GET", f"/api/session/{sid}")
        self.check("session delete FORK: the forked session is still there", status == 200, f"GET -> {status}")

    def slow_run(self, sid, text):
        """Starts `weft run --session SID TEXT` (a SLOW prompt) and waits until the model streams it."""
        slow_before = sum(1 for m in MODEL_LOG if m.get("kind") == "slow")
        proc = self.weft_start(["run", "--session", sid, text])
        streaming = self.wait_until(lambda: proc.poll() is not None or (
            sum(1 for m in MODEL_LOG if m.get("kind") == "slow") > slow_before and sid in self.active()), 60)
        streaming = streaming and proc.poll() is None
        return proc, streaming

    @staticmethod
    def finish(proc, seconds):
        try:
            out, err = proc.communicate(timeout=seconds)
            return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            return subprocess.CompletedProcess(proc.args, None, out, err + f"\n(killed after {seconds} s)")

    def steer_and_queue(self, sid):
        proc, streaming = self.slow_run(sid, "SLOW: a long answer")
        if not self.check("steer/queue: a slow run is streaming", streaming):
            self.finish(proc, 5)
            return
        queued = self.weft_start(["run", "--session", sid, "--queue", "QUEUED: after the run"])
        pending_queue = self.wait_until(lambda: any(
            m.get("data", {}).get("text", "").startswith("QUEUED") and m.get("delivery") == "queue"
            for m in self.pending(sid)), 30)
        steered = self.weft_start(["run", "--session", sid, "--steer", "STEERED: this too"])
        pending_steer = self.wait_until(lambda: any(
            m.get("data", {}).get("text", "").startswith("STEERED") and m.get("delivery") == "steer"
            for m in self.pending(sid)) or any(m.get("text", "").startswith("STEERED") for m in self.history(sid)), 30)
        self.check("run --queue while a run goes on: the server holds the prompt with delivery \"queue\"",
                   pending_queue, json.dumps(self.pending(sid))[:600])
        self.check("run --steer while a run goes on: the server takes the prompt with delivery \"steer\"",
                   pending_steer, json.dumps(self.pending(sid))[:600])
        results = [self.finish(p, 90) for p in (proc, queued, steered)]
        self.wait_idle(sid, 60)
        for name, p in zip(("the slow run", "run --queue", "run --steer"), results):
            self.check(f"steer/queue: {name} exits 0", p.returncode == 0, self.show(p))
        order = [m.get("text", "")[:7] for m in self.history(sid) if m.get("type") == "user"]
        self.check("steer/queue: the server's history has both prompts, the queued one last",
                   "STEERED" in order and order[-1:] == ["QUEUED:"], str(order))

    def pending(self, sid):
        status, body = self.api("GET", f"/api/session/{sid}/pending")
        return body.get("data", []) if status == 200 and isinstance(body, dict) else []

    def abort(self, sid):
        proc, streaming = self.slow_run(sid, "SLOW: abort me")
        if not self.check("abort: a slow run is streaming", streaming):
            self.finish(proc, 5)
            return
        os.killpg(proc.pid, signal.SIGINT)
        p = self.finish(proc, 30)
        self.check("abort (Ctrl+C during weft run): exit 130, stderr says the run was stopped on the server",
                   p.returncode == 130 and "stopped" in p.stderr, self.show(p))
        self.check("abort: the session is idle on the server within 10 s", self.wait_idle(sid, 10))
        last = next((m for m in reversed(self.history(sid)) if m.get("type") == "assistant"), {})
        self.check("abort: the server's last answer ended interrupted, not finished",
                   last.get("finish") != "stop" and bool(last.get("error") or last.get("finish") in (None, "aborted")),
                   json.dumps(last)[:600])

    def reconnect(self, sid):
        before = self.session_ids()
        proc, streaming = self.slow_run(sid, "SLOW: across a restart")
        if not self.check("reconnect: a slow run is streaming", streaming):
            self.finish(proc, 5)
            return
        self.srv.stop()
        self.srv.start()
        p = self.finish(proc, 60)
        self.wait_idle(sid, 30)
        last = next((m for m in reversed(self.history(sid)) if m.get("type") == "assistant"), {})
        completed = last.get("finish") == "stop" and not last.get("error")
        self.check("reconnect: weft run, whose server restarted mid-run, ends within 60 s and says what the "
                   f"server holds (server: {'finished' if completed else 'not finished'})",
                   p.returncode is not None and (p.returncode == 0) == completed, self.show(p))
        q = self.weft_cmd("session list (after the restart)", ["session", "list", "--format", "json"])
        try:
            ids = {s["id"] for s in json.loads(q.stdout)}
        except (ValueError, KeyError, TypeError):
            ids = set()
        self.check("after the restart: session list shows the same sessions", ids == before and ids, self.show(q))

    def service(self, sid):
        """`serve --service`: weft finds it through service.json (`--server service`)."""
        self.srv.stop()
        self.srv.start(service=True)
        state = os.path.join(self.srv.home, ".local", "state")
        env = {"XDG_STATE_HOME": state, "OPENCODE_SERVER_PASSWORD": ""}
        mode = os.stat(self.srv.service_file).st_mode & 0o777
        self.check(f"serve --service wrote service.json (mode {mode:o}) with its URL and password",
                   mode == 0o600 and self.srv.url.startswith("http://127.0.0.1:"))
        p = self.weft_cmd("session list (--server service)", ["session", "list", "--format", "json"],
                          server="service", env=env)
        try:
            ids = {s["id"] for s in json.loads(p.stdout)}
        except (ValueError, KeyError, TypeError):
            ids = set()
        self.check("--server service: the service found in service.json, its sessions listed (its password "
                   "from the file)", p.returncode == 0 and sid in ids and ids == self.session_ids(), self.show(p))
        self.check("--server service: the password appears nowhere in weft's output",
                   self.srv.password not in p.stdout + p.stderr)
        p = self.weft_cmd("export (--server service)", ["export", sid], server="service", env=env)
        self.check("--server service: export works through the service", p.returncode == 0 and sid in p.stdout,
                   self.show(p))
        os.chmod(self.srv.service_file, 0o644)
        p = self.weft_cmd("session list (service.json readable by others)", ["session", "list"], server="service", env=env)
        os.chmod(self.srv.service_file, 0o600)
        self.check("a service.json others can read is refused: non-zero exit, one line saying so",
                   p.returncode not in (0, None) and len(p.stderr.strip().splitlines()) == 1
                   and "service.json" in p.stderr and self.srv.password not in p.stderr, self.show(p))
        with open(self.srv.service_file) as f:
            saved = f.read()
        self.srv.stop()
        self.check("the service removes service.json on a clean shutdown", not os.path.exists(self.srv.service_file))
        with open(self.srv.service_file, "w") as f:
            f.write(saved)
        os.chmod(self.srv.service_file, 0o600)
        p = self.weft_cmd("session list (stale service.json)", ["session", "list"], server="service", env=env)
        self.check("a service.json whose PID is gone: non-zero exit, one line saying the service is not running",
                   p.returncode not in (0, None) and len(p.stderr.strip().splitlines()) == 1
                   and "not running" in p.stderr, self.show(p))
        os.remove(self.srv.service_file)

    def big_session(self):
        """A session of BIG_SESSION messages (written into the server's database while it is
        stopped, as the rows a prompt leaves): the time weft takes to list and to export it."""
        status, body = self.api("POST", "/api/session", {"location": {"directory": self.srv.project}})
        sid = (body.get("data") or {}).get("id") if status == 200 and isinstance(body, dict) else None
        if not self.check("a session for the long history", bool(sid), f"{status} {body!r}"[:300]):
            return
        self.srv.stop()
        con = sqlite3.connect(os.path.join(self.srv.home, ".local", "share", "opencode", "opencode.db"))
        try:
            seq = con.execute("SELECT COALESCE(MAX(seq), 0) FROM session_message").fetchone()[0]
            t = int(time.time() * 1000) - BIG_SESSION * 10
            rng = random.Random(35)
            rows = []
            for i in range(BIG_SESSION):
                t += 10
                seq += 1
                user = i % 2 == 0
                data = ({"time": {"created": t}, "text": f"Question {i // 2}"} if user else
                        {"time": {"created": t, "completed": t + 5}, "agent": "build",
                         "model": {"id": "m1", "providerID": "fake"},
                         "content": [{"type": "text", "text": f"Answer {i // 2}: " + "lorem ipsum " * 20}],
                         "finish": "stop", "cost": 0,
                         "tokens": {"input": 10, "output": 10, "reasoning": 0, "cache": {"read": 0, "write": 0}}})
                # OpenCode's IDs: 12 hex digits of time, then 14 random characters.
                mid = "msg_%012x" % (t * 0x1000 + 1) + "".join(rng.choice("abcdefghijkmnopqrstuvwxyzABCDEFGH0123456789")
                                                               for _ in range(14))
                rows.append((mid, sid, "user" if user else "assistant", seq, t, t, json.dumps(data)))
            con.executemany("INSERT INTO session_message (id, session_id, type, seq, time_created, time_updated, data)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            con.commit()
        finally:
            con.close()
        self.srv.start()
        started = time.monotonic()
        n = len(self.history(sid))
        api_ms = int((time.monotonic() - started) * 1000)
        p = self.weft_cmd(f"session list (with the {BIG_SESSION}-message session)", ["session", "list"])
        self.check("session list with a long session there: exit 0", p.returncode == 0, self.show(p))
        p = self.weft_cmd(f"export ({BIG_SESSION} messages)", ["export", sid], timeout=300)
        try:
            exported = len(json.loads(p.stdout).get("messages", []))
        except (ValueError, AttributeError):
            exported = -1
        self.check(f"export of a {BIG_SESSION}-message session: every message ({exported} of {n})",
                   p.returncode == 0 and exported == n == BIG_SESSION, self.show(p)[:600])
        print(f"      (the server's own paged read of it: {api_ms} ms)")
        return sid

    def timing_table(self):
        print("\nweft command                                      ms   exit")
        for label, ms, code in self.timings:
            print(f"  {label:<45} {ms:>6}   {code}")
        print(f"  {'total':<45} {sum(ms for _, ms, _ in self.timings):>6}")


def digest_v2(item):
    """What of a server history item an export must say too: id, role, texts, tools' calls. As
    Weft maps V2 to V1 (SessionMessageV2): every item but an assistant's is a user message (a
    compaction's summary its text), a tool state other than pending, running or completed an
    error."""
    kind = item.get("type")
    if kind == "assistant":
        texts = [c.get("text", "") for c in item.get("content", []) if c.get("type") == "text"]
        tools = [[c.get("id"), c.get("name"), tool_status((c.get("state") or {}).get("status"))]
                 for c in item.get("content", []) if c.get("type") == "tool"]
        return {"id": item.get("id"), "role": "assistant", "text": texts, "tools": tools}
    if kind == "compaction":
        texts = [item["summary"]] if item.get("summary") else []
    else:
        texts = [item.get("text", "")]
    return {"id": item.get("id"), "role": "user", "text": texts, "tools": []}


def tool_status(status):
    return status if status in ("pending", "running", "completed") else "error"


def digest_v1(message):
    """The same of an exported (V1-shaped) message."""
    info, parts = message.get("info", {}), message.get("parts", [])
    texts = [p.get("text", "") for p in parts if p.get("type") == "text"]
    tools = [[p.get("callID"), p.get("tool"), (p.get("state") or {}).get("status")] for p in parts if p.get("type") == "tool"]
    return {"id": info.get("id"), "role": info.get("role"), "text": texts, "tools": tools}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    weft, binary = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    # Under /tmp: the build root the weft launcher enters binds /tmp (and the cwd) at their paths.
    work = tempfile.mkdtemp(prefix="weft-e2e2.", dir="/tmp")
    started = time.monotonic()
    srv = test = None
    try:
        srv = start(binary)
        status, health = srv.api("GET", "/api/health")
        print(f"opencode2 serve {srv.url} ({(health or {}).get('version')}, project {srv.project}) up in "
              f"{time.monotonic() - started:.1f} s", flush=True)
        test = Test(weft, srv, work)
        test.check("the server itself: GET /api/health answers {healthy: true}", status == 200 and health.get("healthy"))
        status, _ = srv.api("GET", "/global/health")
        test.check("the server itself: V1's GET /global/health answers 404 (a V2-only server)", status == 404,
                   f"status {status}")
        test.detection()
        sid = test.run_write() or test.api_session()
        if sid:
            test.permission(sid)
            test.question(sid)
            test.list_and_export(sid)
            fork1 = test.fork(sid)
            test.compact(sid)
            test.revert(sid)
            test.delete(fork1, sid)
            if BIG_SESSION > 0:
                test.big_session()
            test.steer_and_queue(sid)
            test.abort(sid)
            test.reconnect(sid)
            test.service(sid)
    except Exception as e:  # a broken harness is a failure too
        import traceback
        traceback.print_exc()
        print(f"FAIL  the test itself: {type(e).__name__}: {e}")
        if srv is not None:
            print(srv.log_tail())
        if test is not None:
            test.failures.append("the test itself")
    finally:
        if srv is not None:
            srv.close(remove="WEFT_E2E_KEEP" not in os.environ)
    if "WEFT_E2E_KEEP" in os.environ:
        print("kept", work, srv.base if srv else "")
    else:
        shutil.rmtree(work, ignore_errors=True)
    if test is None:
        return 1
    test.timing_table()
    kinds = [m.get("kind") for m in MODEL_LOG]
    print(f"\nmodel requests: {len(kinds)} ({', '.join(kinds)})")
    if test.failures:
        print(f"{len(test.failures)} check(s) failed:\n  " + "\n  ".join(test.failures))
    else:
        print("all checks passed")
    print(f"in {time.monotonic() - started:.1f} s")
    return 1 if test.failures else 0


if __name__ == "__main__":
    sys.exit(main())

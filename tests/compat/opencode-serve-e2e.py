#!/usr/bin/env python3
"""End-to-end check of `weft --server` against the real `opencode serve` (1.18.34).

    python3 tests/compat/opencode-serve-e2e.py WEFT OPENCODE

WEFT is the weft command (build/weft, the launcher), OPENCODE the real opencode binary. Starts the
scripted model server and `opencode serve` through start_server() of record-opencode-server.py
(throwaway HOME, git project, password `secret`, `"permission": {"bash": "ask"}`), runs weft's
server commands against it and checks their output and what the server holds afterwards through
its own API. Prints one `ok`/`FAIL` line per check and a table of the time each weft command took;
exits 1 when a check failed. Normally started by opencode-serve-e2e.sh; stdlib only."""
import base64
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("record_opencode_server",
                                               os.path.join(HERE, "record-opencode-server.py"))
rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rec)

RUN_TIMEOUT = 180
MODEL_FAILURE = "scripted model failure: the quota is gone"
FAILURE_STATUS = int(os.environ.get("WEFT_E2E_FAILURE_STATUS", "400"))


class E2EModel(rec.ModelHandler):
    """The recorder's scripted model, plus FAIL_MODEL: an HTTP error with an OpenAI error body."""

    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        messages = body.get("messages", [])
        system = "\n".join(rec.content_text(m.get("content")) for m in messages if m.get("role") == "system")
        last_user = next((rec.content_text(m.get("content")) for m in reversed(messages)
                          if m.get("role") == "user"), "")
        if "FAIL_MODEL" in last_user and "title generator" not in system:
            rec.MODEL_LOG.append({"kind": "failure", "status": FAILURE_STATUS})
            data = json.dumps({"error": {"message": MODEL_FAILURE, "type": "invalid_request_error",
                                         "code": "scripted_failure"}}).encode()
            self.send_response(FAILURE_STATUS)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        # The base class reads the body itself: hand it what was read.
        original, self.rfile = self.rfile, _Replay(raw)
        try:
            super().do_POST()
        finally:
            self.rfile = original


class _Replay:
    def __init__(self, data):
        self.data = data

    def read(self, n=-1):
        out, self.data = (self.data, b"") if n is None or n < 0 else (self.data[:n], self.data[n:])
        return out


class NotOpencode(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Test:
    def __init__(self, weft, srv, work):
        self.weft, self.srv, self.work = weft, srv, work
        self.failures = 0
        self.timings = []  # (label, ms, exit code)
        self.home = os.path.join(work, "home")
        os.makedirs(self.home, exist_ok=True)
        self.password_file = os.path.join(work, "password")
        with open(self.password_file, "w") as f:
            f.write(srv.password + "\n")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENCODE", "WEFT_", "XDG_"))}
        self.env.update(HOME=self.home, XDG_DATA_HOME=os.path.join(self.home, ".local/share"),
                        XDG_CONFIG_HOME=os.path.join(self.home, ".config"),
                        XDG_CACHE_HOME=os.path.join(self.home, ".cache"),
                        OPENCODE_SERVER_PASSWORD=srv.password, LANG="C.UTF-8")

    # -- checks and commands -------------------------------------------------------------------

    def check(self, name, ok, detail=""):
        if ok:
            print(f"ok    {name}", flush=True)
        else:
            self.failures += 1
            print(f"FAIL  {name}" + (("\n      " + detail.replace("\n", "\n      ")) if detail else ""),
                  flush=True)
        return ok

    def weft_cmd(self, label, args, server=None, password=True, timeout=RUN_TIMEOUT):
        """Runs weft --server URL ARGS; returns the CompletedProcess (returncode None on timeout)."""
        env = dict(self.env)
        if password is None:
            env.pop("OPENCODE_SERVER_PASSWORD")
        elif password is not True:
            env["OPENCODE_SERVER_PASSWORD"] = password
        cmd = [self.weft, "--server", server or self.srv.url] + list(args)
        started = time.monotonic()
        try:
            p = subprocess.run(cmd, env=env, cwd=self.work, capture_output=True, timeout=timeout)
            code, out, err = p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            code = None
            out = (e.stdout or b"").decode("utf-8", "replace")
            err = (e.stderr or b"").decode("utf-8", "replace") + f"\n(killed after {timeout} s)"
        ms = int((time.monotonic() - started) * 1000)
        self.timings.append((label, ms, code))
        return subprocess.CompletedProcess(cmd, code, out, err)

    @staticmethod
    def show(p):
        return (f"exit {p.returncode}\nstdout: {p.stdout.strip()[:1500]!r}\n"
                f"stderr: {p.stderr.strip()[:1500]!r}")

    def one_error_line(self, name, p, must_contain=()):
        lines = p.stderr.strip().splitlines()
        ok = (p.returncode not in (0, None) and len(lines) == 1 and lines[0].startswith("weft: error: ")
              and all(w.lower() in lines[0].lower() for w in must_contain))
        if self.check(name, ok, self.show(p)):
            print(f"      ({lines[0]})")
        return ok

    # -- the server's own API ------------------------------------------------------------------

    def api(self, method, path, body=None, directory=True):
        if directory:
            path += ("&" if "?" in path else "?") + "directory=" + urllib.parse.quote(self.srv.project, safe="/")
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.srv.url + path, data=data, method=method, headers=self.srv.headers())
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                raw = r.read()
                return r.status, (json.loads(raw) if raw.strip() else None)
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, json.loads(raw)
            except ValueError:
                return e.code, raw.decode("utf-8", "replace")

    def session_ids(self):
        status, body = self.api("GET", "/session")
        return {s["id"] for s in body} if status == 200 else set()

    def messages(self, sid):
        status, body = self.api("GET", f"/session/{sid}/message")
        return body if status == 200 and isinstance(body, list) else []

    def user_ids(self, sid):
        return [m["info"]["id"] for m in self.messages(sid) if m["info"]["role"] == "user"]

    def wait_idle(self, sid, seconds=30):
        """The server may still finish a session after weft returned; waits until it is idle."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            status, body = self.api("GET", "/session/status")
            if status == 200 and sid not in (body or {}):
                return True
            time.sleep(0.2)
        return False

    # -- the scenario --------------------------------------------------------------------------

    def connection_errors(self):
        p = self.weft_cmd("session list (wrong password)", ["session", "list"], password="wrong")
        self.one_error_line("wrong password: non-zero exit, one stderr line about the password", p, ["password"])
        p = self.weft_cmd("session list (no password)", ["session", "list"], password=None)
        self.one_error_line("no password: non-zero exit, one stderr line about the password", p, ["password"])

        closed = f"http://127.0.0.1:{rec.free_port()}"
        p = self.weft_cmd("session list (closed port)", ["session", "list"], server=closed)
        self.one_error_line("unreachable server (closed port): non-zero exit, one stderr line", p)

        empty = os.path.join(self.work, "not-opencode")
        os.makedirs(empty, exist_ok=True)
        handler = lambda *a, **k: NotOpencode(*a, directory=empty, **k)
        other = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        try:
            p = self.weft_cmd("session list (not OpenCode)", ["session", "list"],
                              server=f"http://127.0.0.1:{other.server_address[1]}")
            self.one_error_line("a non-OpenCode HTTP server (404 on /global/health): non-zero exit, one stderr line",
                                p, ["opencode"])
        finally:
            other.shutdown()
            other.server_close()

        p = self.weft_cmd("session list (password file)", ["--password-file", self.password_file, "session", "list"],
                          password=None)
        self.check("--password-file without OPENCODE_SERVER_PASSWORD: session list exits 0",
                   p.returncode == 0 and not p.stderr.strip(), self.show(p))

    def run_write(self):
        before = self.session_ids()
        p = self.weft_cmd("run (new session, write tool)",
                          ["run", "--dir", self.srv.project, "WRITE_HELLO: please create hello.txt"])
        self.check("run with a write tool call: exit 0", p.returncode == 0, self.show(p))
        self.check("run: stdout has the answer text", "Done: the file exists." in p.stdout, self.show(p))
        self.check("run: stdout has a line starting with '✓ write'",
                   any(l.startswith("✓ write") for l in p.stdout.splitlines()), self.show(p))
        path = os.path.join(self.srv.project, "hello.txt")
        self.check("run: the model's write made hello.txt in the project",
                   os.path.exists(path) and open(path).read() == "hello from the recorder\n")
        new = self.session_ids() - before
        self.check("run: made exactly one new session on the server", len(new) == 1, f"new: {sorted(new)}")
        return next(iter(new)) if len(new) == 1 else None

    def run_bash(self, sid):
        n_before = len(self.messages(sid))
        p = self.weft_cmd("run --session (bash refused)", ["run", "--session", sid, "RUN_BASH: run echo hi"])
        self.check("run --session without --auto-approve: the bash permission is refused (stderr says so)",
                   "refused" in p.stderr.lower() and "✓ bash" not in p.stdout and p.returncode is not None,
                   self.show(p))
        print(f"      (refused run: exit {p.returncode}; stdout {p.stdout.strip()!r}; stderr {p.stderr.strip()!r})")
        self.wait_idle(sid)
        msgs = self.messages(sid)
        self.check("run --session continued the same session (more messages there)", len(msgs) > n_before,
                   f"{n_before} -> {len(msgs)} messages")
        bash_parts = [pt for m in msgs for pt in m["parts"] if pt.get("type") == "tool" and pt.get("tool") == "bash"]
        self.check("refused: the server's bash tool part did not complete",
                   bool(bash_parts) and bash_parts[-1]["state"]["status"] != "completed",
                   json.dumps([pt["state"].get("status") for pt in bash_parts]))
        p = self.weft_cmd("run --session --auto-approve (bash)",
                          ["run", "--session", sid, "--auto-approve", "--model", "fake/m1", "RUN_BASH: run echo hi"])
        self.check("run --session --auto-approve: exit 0, stdout has '✓ bash' and the answer",
                   p.returncode == 0 and any(l.startswith("✓ bash") for l in p.stdout.splitlines())
                   and "The command printed `hi`." in p.stdout, self.show(p))
        self.check("run --auto-approve: nothing about a refusal on stderr", "refused" not in p.stderr.lower(),
                   self.show(p))
        self.wait_idle(sid)

    def list_and_export(self, sid):
        p = self.weft_cmd("session list --format json", ["session", "list", "--format", "json"])
        status, info = self.api("GET", f"/session/{sid}")
        try:
            listed = json.loads(p.stdout)
        except ValueError:
            listed = None
        entry = next((s for s in listed or [] if s.get("id") == sid), None)
        self.check("session list --format json: valid JSON with the session and the server's title "
                   f"({info.get('title') if isinstance(info, dict) else '?'!r})",
                   p.returncode == 0 and entry is not None and isinstance(info, dict)
                   and entry.get("title") == info.get("title") and bool(entry.get("title")),
                   self.show(p))
        p = self.weft_cmd("export", ["export", sid])
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = None
        self.check("export: exit 0, valid JSON, info.id is the session",
                   p.returncode == 0 and isinstance(doc, dict) and doc.get("info", {}).get("id") == sid,
                   self.show(p))
        server = self.messages(sid)
        mine = doc.get("messages") if isinstance(doc, dict) else None
        self.check(f"export: messages and parts equal GET /session/{{id}}/message ({len(server)} messages)",
                   mine == server and len(server) > 0, rec.first_difference(mine, server))
        if isinstance(doc, dict) and isinstance(info, dict):
            self.check("export: info equals GET /session/{id}", doc.get("info") == info,
                       rec.first_difference(doc.get("info"), info))
        return doc

    def fork(self, sid):
        p = self.weft_cmd("session fork", ["session", "fork", sid])
        fork1 = p.stdout.strip()
        listed = self.weft_cmd("session list --format json", ["session", "list", "--format", "json"])
        try:
            ids = {s["id"] for s in json.loads(listed.stdout)}
        except (ValueError, KeyError, TypeError):
            ids = set()
        self.check("session fork: exit 0, prints a new ses_ ID that session list shows",
                   p.returncode == 0 and fork1.startswith("ses_") and fork1 != sid and fork1 in ids,
                   self.show(p))
        if p.returncode == 0 and fork1.startswith("ses_"):
            self.check("session fork: the fork has all the messages",
                       len(self.messages(fork1)) == len(self.messages(sid)))
        users = self.user_ids(sid)
        fork2 = None
        if self.check("the session has at least 2 user messages", len(users) >= 2, str(users)):
            p = self.weft_cmd("session fork --message", ["session", "fork", sid, "--message", users[1]])
            fork2 = p.stdout.strip()
            n_all, n_fork = len(self.messages(sid)), len(self.messages(fork2)) if fork2.startswith("ses_") else -1
            self.check(f"session fork --message (2nd user message): a fork with fewer messages ({n_fork} < {n_all})",
                       p.returncode == 0 and fork2.startswith("ses_") and 0 < n_fork < n_all, self.show(p))
        return fork1, fork2

    def compact(self, sid):
        p = self.weft_cmd("session compact", ["session", "compact", sid], timeout=300)
        self.check("session compact: exit 0", p.returncode == 0, self.show(p))
        self.wait_idle(sid)
        msgs = self.messages(sid)
        summaries = [m for m in msgs if m["info"]["role"] == "assistant" and m["info"].get("summary") is True]
        self.check("session compact: the server's messages now include an assistant summary (summary: true)",
                   len(summaries) == 1, f"{len(summaries)} summaries in {len(msgs)} messages")
        p = self.weft_cmd("export (after compact)", ["export", sid])
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = {}
        self.check("export after compact: has the summary message too",
                   any(m["info"].get("summary") is True for m in doc.get("messages", [])), self.show(p))

    def revert(self, sid):
        users = self.user_ids(sid)
        if len(users) < 2:
            return self.check("revert needs 2 user messages", False)
        p = self.weft_cmd("session revert", ["session", "revert", sid, users[1]])
        status, info = self.api("GET", f"/session/{sid}")
        revert = info.get("revert") if isinstance(info, dict) else None
        self.check("session revert: exit 0, the server's session has revert.messageID = the message",
                   p.returncode == 0 and isinstance(revert, dict) and revert.get("messageID") == users[1],
                   self.show(p) + f"\nserver revert: {revert!r}")
        e = self.weft_cmd("export (reverted)", ["export", sid])
        try:
            doc = json.loads(e.stdout)
        except ValueError:
            doc = {}
        self.check("export of the reverted session: info.revert is the server's",
                   doc.get("info", {}).get("revert") == revert and revert is not None, self.show(e))
        p = self.weft_cmd("session unrevert", ["session", "unrevert", sid])
        status, info = self.api("GET", f"/session/{sid}")
        self.check("session unrevert: exit 0, the server's session has no revert",
                   p.returncode == 0 and isinstance(info, dict) and "revert" not in info,
                   self.show(p) + f"\nserver revert: {info.get('revert') if isinstance(info, dict) else info!r}")

    def delete(self, fork1, sid):
        if not fork1.startswith("ses_"):
            return self.check("session delete (no fork to delete)", False)
        p = self.weft_cmd("session delete", ["session", "delete", fork1])
        status, _ = self.api("GET", f"/session/{fork1}")
        self.check("session delete FORK: exit 0, GET /session/FORK -> 404", p.returncode == 0 and status == 404,
                   self.show(p) + f"\nGET -> {status}")
        status, _ = self.api("GET", f"/session/{sid}")
        self.check("session delete FORK: the forked session is still there", status == 200, f"GET -> {status}")

    def model_failure(self):
        before = self.session_ids()
        p = self.weft_cmd("run (model fails)", ["run", "--dir", self.srv.project, "FAIL_MODEL: this one fails"])
        self.check(f"run whose model answers HTTP {FAILURE_STATUS}: non-zero exit, the model's error on stderr",
                   p.returncode not in (0, None) and MODEL_FAILURE in p.stderr
                   and "weft: error:" in p.stderr, self.show(p))
        print(f"      (failed run: exit {p.returncode}; stderr {p.stderr.strip()!r})")
        for sid in self.session_ids() - before:
            self.wait_idle(sid)

    def unknown_session(self):
        p = self.weft_cmd("export (unknown session)", ["export", "ses_0000000000000000000000unkn"])
        self.one_error_line("export of an unknown session: non-zero exit, one stderr line", p)

    def timing_table(self):
        print("\nweft command                                   ms   exit")
        for label, ms, code in self.timings:
            print(f"  {label:<42} {ms:>6}   {code}")
        print(f"  {'total':<42} {sum(ms for _, ms, _ in self.timings):>6}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    weft, opencode = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    # Under /tmp: the build root the weft launcher enters binds /tmp (and the cwd) at their paths.
    work = tempfile.mkdtemp(prefix="weft-e2e.", dir="/tmp")
    started = time.monotonic()
    srv = None
    test = None
    try:
        srv = rec.start_server(opencode, handler=E2EModel, prefix="weft-e2e-oc.")
        print(f"opencode serve {srv.url} (project {srv.project}) up in {time.monotonic() - started:.1f} s", flush=True)
        test = Test(weft, srv, work)
        _, health = test.api("GET", "/global/health", directory=False)
        version = health.get("version") if isinstance(health, dict) else None
        if version != "1.18.34":
            print(f"note: this is OpenCode {version}; the test was written against 1.18.34")
        test.connection_errors()
        sid = test.run_write()
        if sid:
            test.run_bash(sid)
            test.list_and_export(sid)
            fork1, fork2 = test.fork(sid)
            test.compact(sid)
            test.revert(sid)
            test.delete(fork1, sid)
        test.model_failure()
        test.unknown_session()
    except Exception as e:  # a broken harness is a failure too
        print(f"FAIL  the test itself: {type(e).__name__}: {e}")
        if srv is not None:
            print(srv.log_tail())
        if test is None:
            shutil.rmtree(work, ignore_errors=True)
            if srv is not None:
                srv.stop(remove=True)
            return 1
        test.failures += 1
    finally:
        if srv is not None:
            srv.stop(remove="WEFT_E2E_KEEP" not in os.environ)
    if "WEFT_E2E_KEEP" in os.environ:
        print("kept", work, srv.base if srv else "")
    else:
        shutil.rmtree(work, ignore_errors=True)
    test.timing_table()
    kinds = [m.get("kind") for m in rec.MODEL_LOG]
    print(f"\nmodel requests: {len(kinds)} ({', '.join(kinds)})")
    print(f"{test.failures} check(s) failed" if test.failures else "all checks passed",
          f"in {time.monotonic() - started:.1f} s")
    return 1 if test.failures else 0


if __name__ == "__main__":
    sys.exit(main())

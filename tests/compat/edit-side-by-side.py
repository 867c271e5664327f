#!/usr/bin/env python3
"""Weft and the real OpenCode side by side on the same scripted edit tasks (not part of CTest).

    python3 tests/compat/edit-side-by-side.py WEFT OPENCODE

WEFT is the launcher build/weft (or a weft binary), OPENCODE the `opencode` 1.18.34 binary
(npm pack opencode-linux-x64@1.18.34). For every task, each program runs once in a fresh git
project with a throwaway HOME, against the same scripted OpenAI-compatible model on loopback:
the model reads the file, then makes the task's edit call(s) (oldString not quite as in the file:
other indentation, trailing spaces, escaped newlines, ...), then answers. The file afterwards is
compared with what the edit means; the tool result the model saw is shown. Prints a Markdown
table; exits 0 (the table is the result). stdlib only."""
import difflib  # noqa: F401 (WEFT_SIDE_DEBUG)
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("rec", os.path.join(HERE, "record-opencode-server.py"))
rec = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rec)

PY = '''def total(items):
    result = 0
    for item in items:
        if item.price > 0:
            result += item.price
    return result


def count(items):
    return len(items)
'''

# name, original text, edits [(oldString, newString, replaceAll)], expected text (None: refused, file unchanged)
TASKS = [
    ("exact match", PY, [("        if item.price > 0:\n", "        if item.price >= 0:\n", False)],
     PY.replace("price > 0", "price >= 0")),
    ("trailing spaces in oldString", PY, [("    return result   \n", "    return result or 0", False)],
     PY.replace("    return result\n", "    return result or 0\n")),
    ("indentation off by two", PY,
     [("  for item in items:\n      if item.price > 0:\n          result += item.price",
       "  for item in items:\n      result += item.price", False)],
     # the matched block becomes newString as written (neither program re-indents it)
     PY.replace("    for item in items:\n        if item.price > 0:\n            result += item.price",
                "  for item in items:\n      result += item.price")),
    ("collapsed whitespace", PY, [("result  +=   item.price", "result += item.price * 2", False)],
     PY.replace("result += item.price", "result += item.price * 2")),
    ("escaped newlines", PY, [("def count(items):\\n    return len(items)", "def count(items):\n    return sum(1 for _ in items)", False)],
     PY.replace("    return len(items)", "    return sum(1 for _ in items)")),
    ("block anchors, middle differs", PY,
     [("def total(items):\n    result = 0\n    for each in items:\n        if each.price > 0:\n            result += item.price\n    return result",
       "def total(items):\n    return sum(i.price for i in items if i.price > 0)", False)],
     PY.replace("def total(items):\n    result = 0\n    for item in items:\n        if item.price > 0:\n            result += item.price\n    return result",
                "def total(items):\n    return sum(i.price for i in items if i.price > 0)")),
    ("blank lines around oldString", PY, [("\n\ndef count(items):\n\n", "def size(items):", False)],
     PY.replace("def count(items):", "def size(items):")),
    ("ambiguous match (must refuse)", PY, [("items", "things", False)], None),
    ("replaceAll", PY, [("items", "things", True)], PY.replace("items", "things")),
    ("two edits in a row", PY,
     [("    result = 0\n", "    result = 0.0\n", False), ("    return len(items)\n", "    return len(list(items))\n", False)],
     PY.replace("    result = 0\n", "    result = 0.0\n").replace("    return len(items)\n", "    return len(list(items))\n")),
    ("oldString not in the file (must refuse)", PY, [("def average(items):", "def mean(items):", False)], None),
]


class TaskModel(rec.ModelHandler):
    """Per request: read the file, then the task's edits one by one, then a short answer."""
    task = None
    path = ""
    seen = []  # tool results the model was given

    def reply_for(self, body):
        messages = body.get("messages", [])
        system = "\n".join(rec.content_text(m.get("content")) for m in messages if m.get("role") == "system")
        if "title generator" in system or "Generate a title" in system or "generate a short title" in system.lower():
            return rec.text_reply("Edit task", tokens=(50, 3))
        tools = {t.get("function", {}).get("name"): t.get("function", {}).get("parameters", {})
                 for t in body.get("tools", []) or []}
        if not tools:
            return rec.text_reply("Edit task", tokens=(50, 3))
        results = [m for m in messages if m.get("role") == "tool"]
        if results:
            TaskModel.seen.append(rec.content_text(results[-1].get("content")))
        step = len(results)
        name, _, edits, _ = TaskModel.task
        if step == 0:
            return rec.tool_reply("Reading it.", "call_read", "read", {"filePath": TaskModel.path})
        if step <= len(edits):
            old, new, replace_all = edits[step - 1]
            props = tools.get("edit", {}).get("properties", {})
            args = {"filePath": TaskModel.path, "oldString": old, "newString": new}
            if replace_all:
                args["replaceAll"] = True
            if "filePath" not in props and "path" in props:
                args["path"] = args.pop("filePath")
            return rec.tool_reply("Editing.", "call_edit_%d" % step, "edit", args)
        return rec.text_reply("Done.", tokens=(1300, 5))


def git_project(root):
    os.makedirs(root)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "root"],
                   cwd=root, check=True)


def run_one(program, kind, task, port, work):
    name, original, edits, expected = task
    home = os.path.join(work, kind, "home")
    project = os.path.join(work, kind, "project")
    git_project(project)
    os.makedirs(home, exist_ok=True)
    path = os.path.join(project, "shop.py")
    with open(path, "w") as f:
        f.write(original)
    config = {"$schema": "https://opencode.ai/config.json", "model": "fake/m1", "small_model": "fake/m1",
              "snapshot": False,
              "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake",
                                    "options": {"baseURL": "http://127.0.0.1:%d/v1" % port, "apiKey": "sk-fake"},
                                    "models": {"m1": {"name": "m1", "limit": {"context": 100000, "output": 4000}}}}},
              "permission": {"edit": "allow", "bash": "allow", "external_directory": "allow"}}
    cfg = os.path.join(home, "config.json")
    with open(cfg, "w") as f:
        json.dump(config, f)
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("OPENCODE")}
    env.update({"HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
                "XDG_DATA_HOME": os.path.join(home, ".local/share"), "XDG_CACHE_HOME": os.path.join(home, ".cache"),
                "XDG_STATE_HOME": os.path.join(home, ".local/state"), "OPENCODE_CONFIG": cfg,
                "OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "1"})
    TaskModel.task, TaskModel.path, TaskModel.seen = task, path, []
    message = "Please make this change in shop.py: " + name
    if kind == "weft":
        cmd = [program, "--data-dir", os.path.join(home, "weft-data"), "--config", cfg, "run", "--auto-approve", message]
    else:
        cmd = [program, "run", "-m", "fake/m1", message]
    try:
        p = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True, timeout=180)
        status = p.returncode
    except subprocess.TimeoutExpired:
        status = "timeout"
    with open(path) as f:
        after = f.read()
    want = original if expected is None else expected
    ok = after == want
    if not ok and os.environ.get("WEFT_SIDE_DEBUG"):
        import difflib
        sys.stderr.write("--- %s, %s: expected vs got\n" % (kind, name))
        sys.stderr.writelines(difflib.unified_diff(want.splitlines(True), after.splitlines(True)))
    said = [s.strip().splitlines()[0][:90] if s.strip() else "" for s in TaskModel.seen[1:1 + len(edits)]]
    return ok, status, said


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    weft, opencode = sys.argv[1], sys.argv[2]
    port = rec.free_port()
    server = ThreadingHTTPServer(("127.0.0.1", port), TaskModel)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    work = tempfile.mkdtemp(prefix="weft-side-by-side-")
    rows = []
    score = {"weft": 0, "opencode": 0}
    try:
        for i, task in enumerate(TASKS):
            cells = []
            for kind, program in (("weft", weft), ("opencode", opencode)):
                ok, status, said = run_one(program, kind, task, port, os.path.join(work, str(i)))
                score[kind] += ok
                cells.append(("right" if ok else "WRONG") + (" (exit %s)" % status if status not in (0,) else "")
                             + ("<br>" + " / ".join("`%s`" % s.replace("|", "\\|") for s in said if s) if said else ""))
            rows.append("| %s | %s | %s |" % (task[0], cells[0], cells[1]))
    finally:
        server.shutdown()
        if not os.environ.get("WEFT_E2E_KEEP"):
            shutil.rmtree(work, ignore_errors=True)
    print("| task | Weft | OpenCode 1.18.34 |")
    print("|---|---|---|")
    print("\n".join(rows))
    print("| **right** | **%d of %d** | **%d of %d** |" % (score["weft"], len(TASKS), score["opencode"], len(TASKS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

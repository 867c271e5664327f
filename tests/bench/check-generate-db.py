#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`generate_store --db` writes the rows that `generate_store --db-from` writes of the same
generated store (the runner's heavy stores are made with --db, its other database stores with
--db-from): a small store both ways, every table compared row by row (by ID: the order of
insertion differs). With --all-v2 the sessions have no `message` or `part` rows but a
`session_message` row per message.

    check-generate-db.py GENERATE_STORE
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

ARGS = ["--shape", "S", "--sessions", "12", "--messages", "20", "--seed", "7"]
TABLES = {"project": "id", "session": "id", "message": "id", "part": "id", "session_message": "id",
          "migration": "id"}


def rows(db, table, key):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute(f"SELECT * FROM {table} ORDER BY {key}").fetchall()
    finally:
        con.close()


def generate(exe, *args):
    p = subprocess.run([exe] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join([exe] + list(args))} failed: {p.stderr}")
    return json.loads(p.stdout)


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        generate(exe, *ARGS, "--out", os.path.join(tmp, "json"))
        via_json = generate(exe, "--db-from", os.path.join(tmp, "json"), "--out", os.path.join(tmp, "db-from"))
        direct = generate(exe, "--db", *ARGS, "--out", os.path.join(tmp, "db"))
        v2 = generate(exe, "--db", "--all-v2", *ARGS, "--out", os.path.join(tmp, "v2"))
        failures = []
        # The project directory is each store's own; the rest must be equal.
        a_dir, b_dir = via_json["projectDir"], direct["projectDir"]
        for table, key in TABLES.items():
            a = rows(via_json["database"], table, key)
            b = [tuple(v.replace(b_dir, a_dir) if isinstance(v, str) else v for v in row)
                 for row in rows(direct["database"], table, key)]
            if not a and table not in ("session_message",):
                failures.append(f"{table}: no rows")
            if a != b:
                first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                failures.append(f"{table}: {len(a)} rows from --db-from, {len(b)} from --db; first difference at "
                                f"row {first}: {a[first:first + 1]} / {b[first:first + 1]}")
        if direct["largestSession"] != via_json["largestSession"] or direct["sessions"] != 12:
            failures.append(f"store.json: {direct['largestSession']} / {via_json['largestSession']}")
        # --all-v2: the same sessions, each message a session_message row, no V1 rows.
        sessions = rows(v2["database"], "session", "id")
        messages = rows(via_json["database"], "message", "id")
        v2_rows = rows(v2["database"], "session_message", "id")
        if len(sessions) != 12 or rows(v2["database"], "message", "id") or rows(v2["database"], "part", "id"):
            failures.append("--all-v2: V1 rows written")
        if sorted(r[0] for r in v2_rows) != [m[0] for m in messages]:
            failures.append(f"--all-v2: {len(v2_rows)} session_message rows for {len(messages)} messages")
        for f in failures:
            print(f"FAIL: {f}")
        if failures:
            sys.exit(1)
        print(f"ok: {len(rows(direct['database'], 'part', 'id'))} parts, {len(messages)} messages, "
              f"{len(v2_rows)} V2 rows")


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# Compatibility check against the real OpenCode 1.1.53 (npm package opencode-linux-x64): a store
# that Weft wrote (import, fork, create, `weft run` with tool calls) must be read by OpenCode
# with the same values, compacted sessions included. Not part of CTest (it downloads 54 MB); run it by hand after
# `packaging/dev.sh build`:
#
#   tests/compat/opencode-reads-weft.sh [path/to/opencode]
#
# Prints one line per check and exits non-zero when OpenCode and Weft disagree.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
WEFT="$SRC/build/weft"
WORK=$(mktemp -d /tmp/weft-compat.XXXXXX)
trap 'kill ${SERVER_PID:-0} 2>/dev/null || true; rm -rf "$WORK"' EXIT

OPENCODE=${1:-}
if [ -z "$OPENCODE" ]; then
    (cd "$WORK" && npm pack --silent opencode-linux-x64@1.1.53 >/dev/null && tar xzf opencode-linux-x64-1.1.53.tgz)
    OPENCODE="$WORK/package/bin/opencode"
fi

H="$WORK/home"
DATA="$H/.local/share/opencode"
mkdir -p "$DATA" "$H/src" "$H/.config/weft"
git clone -q "$SRC/tests/data/opencode-1.1.53/project/demo.bundle" "$H/src/demo"
export HOME="$H" XDG_DATA_HOME="$H/.local/share" XDG_CONFIG_HOME="$H/.config" XDG_CACHE_HOME="$H/.cache"
export OPENCODE_DISABLE_AUTOUPDATE=1

PORT=$((20000 + RANDOM % 20000))
python3 "$SRC/tests/compat/fake_openai.py" "$PORT" "$H/src/demo/compat.txt" &
SERVER_PID=$!
cat >"$H/.config/weft/weft.json" <<JSON
{ "model": "fake/gpt-test", "small_model": "fake/gpt-test",
  "provider": { "fake": { "npm": "@ai-sdk/openai-compatible",
    "options": { "baseURL": "http://127.0.0.1:$PORT/v1", "apiKey": "none" },
    "models": { "gpt-test": { "limit": { "context": 100000, "output": 4000 } } } } } }
JSON
sleep 0.5

cd "$H/src/demo"
ids=()
for f in "$SRC"/tests/data/opencode-1.1.53/export/*.json; do
    ids+=("$("$WEFT" --data-dir "$DATA" import "$f")")
done
ids+=("$("$WEFT" --data-dir "$DATA" session fork ses_dff058141ffeXJnTNzT8vnXcKt)")
"$WEFT" --data-dir "$DATA" run --auto-approve "write compat.txt please" >/dev/null
run_id=$("$WEFT" --data-dir "$DATA" session list --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
ids+=("$run_id")
# Compaction: a compaction part, a summary message (the fake server's plain text), then a prompt
# that continues after it, on the run session and on an imported one.
"$WEFT" --data-dir "$DATA" session compact "$run_id" >/dev/null
"$WEFT" --data-dir "$DATA" run --session "$run_id" "carry on" >/dev/null
"$WEFT" --data-dir "$DATA" session compact "${ids[0]}" >/dev/null

fail=0
compare() { python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(0 if a==b else 1)' "$1" "$2"; }
for id in "${ids[@]}"; do
    "$OPENCODE" export "$id" >"$WORK/oc.json" 2>/dev/null
    "$WEFT" --data-dir "$DATA" export "$id" >"$WORK/weft.json"
    parts=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(len(m["parts"]) for m in d["messages"]), "parts,", len(d["messages"]), "messages")' "$WORK/oc.json")
    if compare "$WORK/oc.json" "$WORK/weft.json"; then echo "ok    opencode export $id ($parts)"; else echo "FAIL  opencode export $id"; fail=1; fi
done
"$OPENCODE" session list --format json 2>/dev/null >"$WORK/oc-list.json"
"$WEFT" --data-dir "$DATA" session list --format json >"$WORK/weft-list.json"
if compare "$WORK/oc-list.json" "$WORK/weft-list.json"; then echo "ok    opencode session list ($(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$WORK/oc-list.json") sessions)"; else echo "FAIL  opencode session list"; diff "$WORK/oc-list.json" "$WORK/weft-list.json" | head; fail=1; fi
exit $fail

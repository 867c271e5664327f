#!/usr/bin/env bash
# Compatibility check against the real OpenCode 1.18.34 (npm package opencode-linux-x64): every V2
# session of tests/data/opencode-1.18.34-v2 (stored as session_message rows), exported by Weft in
# OpenCode's export format, is imported by `opencode import` and exported back by `opencode
# export` with the same messages and parts. Not part of CTest (it downloads 60 MB); run it by
# hand after `packaging/dev.sh build`:
#
#   tests/compat/opencode-imports-v2.sh [path/to/opencode]
#
# Prints one line per session and exits non-zero when a session does not come back the same.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
WEFT="$SRC/build/weft"
FIXTURE="$SRC/tests/data/opencode-1.18.34-v2"
WORK=$(mktemp -d /tmp/weft-compat-v2.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

OPENCODE=${1:-}
if [ -z "$OPENCODE" ]; then
    (cd "$WORK" && npm pack --silent opencode-linux-x64@1.18.34 >/dev/null && tar xzf opencode-linux-x64-1.18.34.tgz)
    OPENCODE="$WORK/package/bin/opencode"
fi

mkdir -p "$WORK/weft-data" "$WORK/home" "$WORK/project"
cp "$FIXTURE/opencode.db" "$WORK/weft-data/"
git -C "$WORK/project" init -q
export HOME="$WORK/home" XDG_DATA_HOME="$WORK/home/.local/share" XDG_CONFIG_HOME="$WORK/home/.config" \
    XDG_CACHE_HOME="$WORK/home/.cache" OPENCODE_DISABLE_AUTOUPDATE=1

status=0
for id in $(python3 -c "import json,sys; print(' '.join(json.load(open(sys.argv[1]))))" "$FIXTURE/v2ids.json"); do
    "$WEFT" --data-dir "$WORK/weft-data" export "$id" >"$WORK/$id.weft.json"
    (cd "$WORK/project" && "$OPENCODE" import "$WORK/$id.weft.json" >/dev/null 2>&1 &&
        "$OPENCODE" export "$id" >"$WORK/$id.opencode.json" 2>/dev/null)
    if python3 - "$WORK/$id.weft.json" "$WORK/$id.opencode.json" <<'PY'
import json, sys
weft, back = (json.load(open(p)) for p in sys.argv[1:3])
parts = sum(len(m["parts"]) for m in weft["messages"])
same = weft["messages"] == back["messages"] and len(weft["messages"]) > 0
print(("ok   " if same else "DIFF ") + f" {weft['info']['id']}: {len(weft['messages'])} messages, {parts} parts")
sys.exit(0 if same else 1)
PY
    then :; else status=1; fi
done
exit $status

#!/usr/bin/env bash
# End-to-end check of `weft --server` against the real OpenCode V2 server, the preview build in
# ../shared/tools/opencode-v2-preview (tests/compat/opencode2-e2e.py does the work: a scripted model,
# `opencode2 serve` offline, and every weft command checked against the server's own /api). Not part
# of CTest (it needs that binary); run it by hand after `packaging/dev.sh build`:
#
#   tests/compat/opencode2-e2e.sh [path/to/opencode2]
#
# Without an argument opencode2 is unpacked once from $WEFT_OPENCODE2_XZ (default
# ../shared/tools/opencode-v2-preview/opencode2.xz beside the checkout), its SHA-256 checked against
# opencode2.sha256 beside it, into ${WEFT_OPENCODE2_CACHE:-/var/cache/weft/opencode2}/SHA256/.
# Exits 77 (skipped) when neither is there. Prints one ok/FAIL line per check and exits non-zero
# when one failed. WEFT_E2E_KEEP=1 keeps the temp dirs.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
WEFT=${WEFT:-"$SRC/build/weft"}  # the launcher: runs the build's weft (in the build root if there is one)

skip() { printf 'SKIP: %s\n' "$*"; exit 77; }
die() { printf 'opencode2-e2e: error: %s\n' "$*" >&2; exit 2; }

[ -x "$WEFT" ] || die "no weft at $WEFT: build it first (packaging/dev.sh build)"
command -v python3 >/dev/null || skip "python3 is needed to drive the real OpenCode server"

OPENCODE2=${1:-}
if [ -z "$OPENCODE2" ]; then
    [ "$(uname -m)" = x86_64 ] || skip "the opencode2 preview build is for x86-64 Linux, not $(uname -m)"
    XZ=${WEFT_OPENCODE2_XZ:-"$SRC/../shared/tools/opencode-v2-preview/opencode2.xz"}
    [ -f "$XZ" ] || skip "no opencode2 preview build at $XZ (set WEFT_OPENCODE2_XZ)"
    [ -f "${XZ%.xz}.sha256" ] || die "no ${XZ%.xz}.sha256 beside $XZ"
    SHA=$(tr -dc 0-9a-f < "${XZ%.xz}.sha256")
    [ ${#SHA} -eq 64 ] || die "${XZ%.xz}.sha256 holds no SHA-256"
    CACHE="${WEFT_OPENCODE2_CACHE:-/var/cache/weft/opencode2}/$SHA"
    OPENCODE2="$CACHE/opencode2"
    if [ ! -x "$OPENCODE2" ]; then
        command -v xz >/dev/null || skip "opencode2 is not in $CACHE and there is no xz to unpack $XZ"
        if ! mkdir -p "$CACHE" 2>/dev/null || [ ! -w "$CACHE" ]; then
            die "cannot write $CACHE; set WEFT_OPENCODE2_CACHE to a writable folder"
        fi
        printf 'unpacking %s (222 MB, once) into %s\n' "$XZ" "$CACHE"
        tmp=$(mktemp "$CACHE/.opencode2.XXXXXX")
        trap 'rm -f "$tmp"' EXIT
        xz -dc "$XZ" > "$tmp" || die "cannot unpack $XZ"
        got=$(sha256sum "$tmp" | cut -d' ' -f1)
        [ "$got" = "$SHA" ] || die "the unpacked opencode2 has SHA-256 $got, not $SHA"
        chmod +x "$tmp"
        mv "$tmp" "$OPENCODE2"
        trap - EXIT
    fi
fi
[ -x "$OPENCODE2" ] || die "$OPENCODE2 is not an executable"

exec python3 "$SRC/tests/compat/opencode2-e2e.py" "$WEFT" "$OPENCODE2"

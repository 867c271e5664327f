#!/usr/bin/env bash
# End-to-end check of `weft --server` against the real `opencode serve` 1.18.34 with a scripted
# model (tests/compat/opencode-serve-e2e.py does the work). Not part of CTest (it needs the real
# OpenCode, 60 MB from the npm registry once); run it by hand after `packaging/dev.sh build`:
#
#   tests/compat/opencode-serve-e2e.sh [path/to/opencode]
#
# Without an argument OpenCode comes from ${WEFT_OPENCODE_CACHE:-/var/cache/weft/opencode}/1.18.34,
# filled once by `npm pack opencode-linux-<arch>@1.18.34`. Exits 77 (skipped) when it is not
# there and npm is missing or the registry cannot be reached. Prints one ok/FAIL line per check
# and exits non-zero when one failed. WEFT_E2E_KEEP=1 keeps the temp dirs.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
VERSION=1.18.34
WEFT=${WEFT:-"$SRC/build/weft"}  # the launcher: runs the build's weft (in the build root if there is one)

# shellcheck source=tests/compat/npm-cache.sh
. "$SRC/tests/compat/npm-cache.sh"
die() { printf 'opencode-serve-e2e: error: %s\n' "$*" >&2; exit 2; }

[ -x "$WEFT" ] || die "no weft at $WEFT: build it first (packaging/dev.sh build)"
command -v python3 >/dev/null || skip "python3 is needed to drive the real OpenCode server"

OPENCODE=${1:-}
if [ -z "$OPENCODE" ]; then
    case "$(uname -m)" in
    x86_64) arch=x64;;
    aarch64|arm64) arch=arm64;;
    *) skip "OpenCode $VERSION has no npm package for $(uname -m)";;
    esac
    CACHE="${WEFT_OPENCODE_CACHE:-/var/cache/weft/opencode}/$VERSION"
    OPENCODE="$CACHE/package/bin/opencode"
    if [ ! -x "$OPENCODE" ]; then
        npm_available_or_skip "opencode-linux-$arch@$VERSION" "$VERSION" "OpenCode $VERSION" "$CACHE" \
            " (give its path as the argument)"
        if ! mkdir -p "$(dirname "$CACHE")" 2>/dev/null || [ ! -w "$(dirname "$CACHE")" ]; then
            die "cannot write $(dirname "$CACHE"); set WEFT_OPENCODE_CACHE to a writable folder"
        fi
        printf 'downloading OpenCode %s (npm pack opencode-linux-%s@%s, about 60 MB, once) into %s\n' \
            "$VERSION" "$arch" "$VERSION" "$CACHE"
        tmp=$(mktemp -d "$(dirname "$CACHE")/.download.XXXXXX")
        trap 'rm -rf "$tmp"' EXIT
        (cd "$tmp" && npm pack --silent "opencode-linux-$arch@$VERSION" >/dev/null &&
            tar xzf "opencode-linux-$arch-$VERSION.tgz" && rm "opencode-linux-$arch-$VERSION.tgz") ||
            die "downloading OpenCode $VERSION with npm failed"
        [ -x "$tmp/package/bin/opencode" ] || die "the npm package has no package/bin/opencode"
        rm -rf "$CACHE"
        mv "$tmp" "$CACHE"
        trap - EXIT
    fi
fi
[ -x "$OPENCODE" ] || die "$OPENCODE is not an executable"

exec python3 "$SRC/tests/compat/opencode-serve-e2e.py" "$WEFT" "$OPENCODE"

#!/usr/bin/env bash
# Weft's MCP client against the reference server, @modelcontextprotocol/server-everything
# 2026.8.31 from the npm registry, over stdio, streamable HTTP and HTTP+SSE (the CTest test
# tst_mcp_everything, which skips itself without this script). Run it after building the test:
#
#   WEFT_TARGETS=tst_mcp_everything packaging/dev.sh build && tests/compat/mcp-everything.sh
#
# The server is installed once with `npm ci` (tests/compat/mcp-everything/package-lock.json pins
# every package) into ${WEFT_MCP_CACHE:-/var/cache/weft/mcp-everything}/2026.8.31, which is bound
# into the build root. Exits 77 (skipped) when it is not there and npm is missing or the registry
# cannot be reached; otherwise with the test's exit code.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
VERSION=2026.8.31
BUILD=${WEFT_BUILD_DIR:-"$SRC/build"}
CACHE="${WEFT_MCP_CACHE:-/var/cache/weft/mcp-everything}/$VERSION"
SERVER="$CACHE/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

# shellcheck source=tests/compat/npm-cache.sh
. "$SRC/tests/compat/npm-cache.sh"
die() { printf 'mcp-everything: error: %s\n' "$*" >&2; exit 2; }

[ -x "$BUILD/tests/tst_mcp_everything" ] ||
    die "no $BUILD/tests/tst_mcp_everything: build it first (WEFT_TARGETS=tst_mcp_everything packaging/dev.sh build)"

if [ ! -f "$SERVER" ]; then
    npm_available_or_skip "@modelcontextprotocol/server-everything@$VERSION" "$VERSION" "server-everything $VERSION" "$CACHE"
    if ! mkdir -p "$(dirname "$CACHE")" 2>/dev/null || [ ! -w "$(dirname "$CACHE")" ]; then
        die "cannot write $(dirname "$CACHE"); set WEFT_MCP_CACHE to a writable folder"
    fi
    printf 'installing server-everything %s (npm ci, about 10 MB, once) into %s\n' "$VERSION" "$CACHE"
    tmp=$(mktemp -d "$(dirname "$CACHE")/.install.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    cp "$SRC/tests/compat/mcp-everything/package.json" "$SRC/tests/compat/mcp-everything/package-lock.json" "$tmp/"
    (cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --silent) || die "npm ci of server-everything $VERSION failed"
    [ -f "$tmp/node_modules/@modelcontextprotocol/server-everything/dist/index.js" ] ||
        die "the npm package has no dist/index.js"
    rm -rf "$CACHE"
    mv "$tmp" "$CACHE"
    trap - EXIT
fi

# The test runs where the build does (the build root on Debian 12), with the cache bound in.
export WEFT_EXTRA_BINDS="${WEFT_EXTRA_BINDS:+$WEFT_EXTRA_BINDS }$CACHE"
exec "$SRC/packaging/dev.sh" shell env WEFT_MCP_EVERYTHING="$SERVER" QT_QPA_PLATFORM=offscreen LC_ALL=C.UTF-8 \
    "$BUILD/tests/tst_mcp_everything"

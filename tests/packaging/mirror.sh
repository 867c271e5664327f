#!/usr/bin/env bash
# packaging/dev.sh takes the build root's Debian mirror from the host's apt sources (deb822 and
# one-line formats, with options; security and backports mirrors are not the archive), lets
# WEFT_DEBIAN_MIRROR override it, and has no hard-coded fallback.
set -euo pipefail
src=$1
eval "$(sed -n '/^host_mirror() {/,/^}/p' "$src/packaging/dev.sh")"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
check() { # expected, description
    local got; got=$(host_mirror) || got="(none)"
    [ "$got" = "$1" ] || { echo "FAIL: $2: expected '$1', got '$got'"; exit 1; }
    echo "ok: $2"
}
export WEFT_APT_ETC=$t
mkdir -p "$t/sources.list.d"
check "(none)" "no sources: no mirror (dev.sh stops and says what to configure)"
printf 'deb [arch=amd64 signed-by=/usr/share/keyrings/x.gpg] http://mirror.example/debian bookworm main\ndeb http://security.debian.org/debian-security bookworm-security main\n' >"$t/sources.list"
check "http://mirror.example/debian" "one-line format with options"
printf 'Types: deb\nURIs: http://security.debian.org/debian-security\nSuites: bookworm-security\n\nTypes: deb\nURIs: https://deb822.example/debian\nSuites: bookworm\nComponents: main\n' >"$t/sources.list.d/debian.sources"
check "https://deb822.example/debian" "deb822 .sources first, security skipped"
WEFT_DEBIAN_MIRROR=http://override.example/debian check "http://override.example/debian" "WEFT_DEBIAN_MIRROR wins"
grep -q 'deb.debian.org' "$src/packaging/dev.sh" && { echo "FAIL: dev.sh names a mirror of its own"; exit 1; }
echo "ok: no hard-coded mirror"

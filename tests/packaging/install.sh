#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `cmake --install` into a staging folder (DESTDIR) yields the binary, the desktop file, the
# metainfo, the icons and the translations folder, and the installed files validate.
#   install.sh BUILD_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=$1
stage=$(mktemp -d "${TMPDIR:-/tmp}/weft-install.XXXXXX")
trap 'rm -rf "$stage"' EXIT

DESTDIR=$stage cmake --install "$build" --prefix /usr >"$stage.log" 2>&1 || { cat "$stage.log"; rm -f "$stage.log"; fail "cmake --install"; }
rm -f "$stage.log"
check_tree "$stage" /usr
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$stage/usr/share/applications/$APP_ID.desktop" || fail "the installed desktop file does not validate"
fi
if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$stage/usr/share/metainfo/$APP_ID.metainfo.xml" >/dev/null \
        || fail "the installed metainfo does not validate"
fi
# Every screenshot the metainfo names is one of packaging/screenshots/, with the size it states.
metainfo="$stage/usr/share/metainfo/$APP_ID.metainfo.xml"
shots=$(grep -o '<image type="source" width="[0-9]*" height="[0-9]*">[^<]*</image>' "$metainfo" || true)
[ -n "$shots" ] || fail "the metainfo names no screenshots"
while read -r shot; do
    name=$(basename "$(sed 's/.*>\(.*\)<.*/\1/' <<<"$shot")")
    width=$(sed 's/.*width="\([0-9]*\)".*/\1/' <<<"$shot")
    height=$(sed 's/.*height="\([0-9]*\)".*/\1/' <<<"$shot")
    png="$(dirname "$0")/../../packaging/screenshots/$name"
    [ -f "$png" ] || fail "the metainfo names screenshot $name, which packaging/screenshots/ lacks"
    size=$(od -An -tu1 -j16 -N8 "$png" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }')
    [ "$size" = "$width $height" ] || fail "screenshot $name is $size, the metainfo says $width $height"
done <<<"$shots"
# Nothing else is installed: no tests, no headers, no static libraries.
extra=$(cd "$stage" && find . -type f | grep -v -e '^./usr/bin/weft$' -e '^./usr/libexec/weft/weft-window$' -e '^./usr/share/applications/' \
    -e '^./usr/share/metainfo/' -e '^./usr/share/icons/hicolor/' -e '^./usr/share/weft/translations/' \
    -e '^./usr/share/man/' || true)
[ -z "$extra" ] || fail "unexpected files installed: $extra"
# The staged binary answers.
version=$("$stage/usr/bin/weft" --version) || fail "the installed weft does not run"
[ -n "$version" ] || fail "the installed weft prints no version"
note "ok: cmake --install"

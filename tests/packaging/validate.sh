#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The desktop file and the AppStream metainfo pass their validators, and they, the icon and the
# application agree on the application ID and the version.
#   validate.sh SOURCE_DIR VERSION
set -euo pipefail
. "$(dirname "$0")/common.sh"
src=$1 version=$2
desktop=$src/packaging/$APP_ID.desktop
metainfo=$src/packaging/$APP_ID.metainfo.xml
need desktop-file-validate
need appstreamcli

# desktop-file-validate prints errors and hints; Weft's file has none of either.
out=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate: $out"
[ -z "$out" ] || fail "desktop-file-validate complains: $out"
note "ok: desktop-file-validate $desktop"

appstreamcli validate --no-net --explain "$metainfo" || fail "appstreamcli validate --no-net $metainfo"
note "ok: appstreamcli validate --no-net $metainfo"

grep -qx "Icon=$APP_ID" "$desktop" || fail "the desktop file's Icon is not $APP_ID"
grep -qx "Exec=weft" "$desktop" || fail "the desktop file does not start weft"
grep -q "<id>$APP_ID</id>" "$metainfo" || fail "the metainfo's ID is not $APP_ID"
grep -q "<binary>weft</binary>" "$metainfo" || fail "the metainfo does not provide the weft binary"
# The newest release is the project's version (CMakeLists.txt).
first_release=$(grep -o '<release version="[^"]*"' "$metainfo" | head -n1 | sed 's/.*version="//; s/"//')
[ "$first_release" = "$version" ] || fail "the newest release in the metainfo is $first_release, the project is $version"
# The application sets the same desktop file name and icon name.
grep -q "u\"$APP_ID\"_s" "$src/views/appearance.cpp" || fail "views/appearance.cpp does not use $APP_ID"
grep -q "setDesktopFileName(weft::Appearance::applicationId())" "$src/app/window.cpp" \
    || fail "app/window.cpp (weft-window) does not set the desktop file name"
[ -f "$src/resources/icons/app/$APP_ID.svg" ] || fail "no application icon $APP_ID.svg"
note "ok: ID $APP_ID and version $version agree"

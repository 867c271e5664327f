# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the packaging tests: the application ID, the icon sizes, checks of an installed tree.
APP_ID=dev.weft.Weft
ICON_SIZES="16 22 32 48 64 128 256 512"
SKIP=77

fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
note() { printf '%s\n' "$*"; }
need() { command -v "$1" >/dev/null 2>&1 || { note "SKIP: $1 is not installed"; exit $SKIP; }; }

# check_tree ROOT PREFIX: what a desktop needs under ROOT/PREFIX (ROOT may be empty).
check_tree() {
    local root=$1 prefix=$2 p
    p=$root$prefix
    [ -x "$p/bin/weft" ] || fail "$p/bin/weft is missing or not executable"
    [[ "$(file -L "$p/bin/weft")" == *ELF* ]] || fail "$p/bin/weft is not an executable"
    [ -f "$p/share/applications/$APP_ID.desktop" ] || fail "no desktop file in $p/share/applications"
    [ -f "$p/share/metainfo/$APP_ID.metainfo.xml" ] || fail "no metainfo in $p/share/metainfo"
    [ -f "$p/share/icons/hicolor/scalable/apps/$APP_ID.svg" ] || fail "no scalable icon"
    local size png
    for size in $ICON_SIZES; do
        png=$p/share/icons/hicolor/${size}x${size}/apps/$APP_ID.png
        [ -f "$png" ] || fail "no ${size}x${size} icon"
        [[ "$(file "$png")" == *"PNG image data, $size x $size,"* ]] || fail "$png is not a ${size}x${size} PNG: $(file "$png")"
    done
    [ -d "$p/share/weft/translations" ] || fail "no translations folder $p/share/weft/translations"
    # Every .qm there is a Qt translation file (magic 3C B8 64 18).
    local qm
    for qm in "$p"/share/weft/translations/*.qm; do
        [ -e "$qm" ] || continue
        [ "$(od -An -tx1 -N4 "$qm" | tr -d ' \n')" = 3cb86418 ] || fail "$qm is not a Qt translation file"
    done
    # The installed files name each other.
    grep -qx "Icon=$APP_ID" "$p/share/applications/$APP_ID.desktop" || fail "the desktop file's Icon is not $APP_ID"
    grep -q "<launchable type=\"desktop-id\">$APP_ID.desktop</launchable>" "$p/share/metainfo/$APP_ID.metainfo.xml" \
        || fail "the metainfo does not launch $APP_ID.desktop"
    note "ok: binary, desktop file, metainfo, icons (scalable and $ICON_SIZES), translations folder under $p"
}

# token_pids TOKEN: the processes whose environment has WEFT_LAUNCH_TOKEN=TOKEN (the ones a
# test started, and nobody else's).
token_pids() {
    local e
    for e in /proc/[0-9]*/environ; do
        if grep -qxzF "WEFT_LAUNCH_TOKEN=$1" "$e" 2>/dev/null; then
            e=${e#/proc/}
            printf '%s\n' "${e%/environ}"
        fi
    done
}

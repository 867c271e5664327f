#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the .deb for real (dpkg -i), starts Weft from its installed desktop entry with
# `gio launch` under Xvfb as a desktop would on a double click, checks that a window appears and
# stays, then removes the package again (dpkg -r), whatever happened.
#
# It changes the system's package database, so it runs only as root inside Weft's own build root
# (packaging/dev.sh), or where WEFT_TEST_DPKG_INSTALL=1 allows it; it skips elsewhere.
#   launch.sh OUT_DIR SCREENSHOT_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
out=$1 shots=$2
deb=$out/weft.deb

if [ "$(id -u)" != 0 ]; then note "SKIP: dpkg -i needs root"; exit $SKIP; fi
[ -w /var/lib/dpkg/status ] || { note "SKIP: the package database is not writable here"; exit $SKIP; }
if [ ! -f /.weft-stamp ] && [ "${WEFT_TEST_DPKG_INSTALL:-}" != 1 ]; then
    note "SKIP: not in Weft's build root (set WEFT_TEST_DPKG_INSTALL=1 to install the package on this system)"
    exit $SKIP
fi
need dpkg
need gio
need xvfb-run
need xwd
need convert
[ -f "$deb" ] || fail "no package $deb (the packaging_deb test makes it)"

work=$(mktemp -d "${TMPDIR:-/tmp}/weft-launch.XXXXXX")
token=weft-launch-$$-$RANDOM$RANDOM
installed=0
cleanup() {
    set +e
    local pid
    # Only the processes this test started: they carry its token in their environment.
    for pid in $(token_pids "$token"); do kill -TERM "$pid" 2>/dev/null; done
    sleep 0.5
    for pid in $(token_pids "$token"); do kill -KILL "$pid" 2>/dev/null; done
    if [ $installed = 1 ]; then
        dpkg -r weft >"$work/dpkg-r.log" 2>&1 || { cat "$work/dpkg-r.log"; echo "FAIL: dpkg -r weft" >&2; }
        [ ! -e /usr/bin/weft ] || echo "FAIL: /usr/bin/weft is still there after dpkg -r" >&2
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# A package left by an interrupted run of this test goes first.
status=$(dpkg-query -W -f='${Status}' weft 2>/dev/null || true)
if [[ "$status" == *"install ok installed"* ]]; then
    note "removing a weft package left by an earlier run"
    dpkg -r weft >/dev/null
fi

installed=1
dpkg -i "$deb" >"$work/dpkg-i.log" 2>&1 || { cat "$work/dpkg-i.log"; fail "dpkg -i $deb"; }
[ "$(command -v weft)" = /usr/bin/weft ] || fail "weft is not on PATH after dpkg -i"
entry=/usr/share/applications/$APP_ID.desktop
[ -f "$entry" ] || fail "no $entry after dpkg -i"
note "ok: dpkg -i"

# A desktop session of its own: a fresh home, config and data, nothing of the caller's.
mkdir -p "$work/home" "$work/config" "$work/data" "$work/cache" "$work/run"
chmod 700 "$work/run"
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache" \
    XDG_RUNTIME_DIR="$work/run" XDG_DATA_DIRS=/usr/local/share:/usr/share \
    WEFT_LAUNCH_TOKEN="$token" ENTRY="$entry" WORK="$work" SHOTS="$shots" \
    xvfb-run -a -s "-br -screen 0 1280x800x24 -nolisten tcp" bash "$(dirname "$0")/launch-session.sh" \
    || fail "Weft did not start from its desktop entry"

# The launched Weft made its data dir in the fresh home: it really was the installed Weft.
[ -d "$work/data/weft" ] || fail "the launched weft did not create its data dir $work/data/weft"
note "ok: Weft started from $entry"

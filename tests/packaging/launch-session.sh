#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs inside xvfb-run for launch.sh: starts the installed desktop entry with `gio launch` and
# waits for Weft's window. Environment: ENTRY, WORK, SHOTS, WEFT_LAUNCH_TOKEN.
set -euo pipefail
. "$(dirname "$0")/common.sh"
export QT_QPA_PLATFORM=xcb

# Xvfb's root is black (-br): a mapped window lights the screen up.
lit() { xwd -root -silent | convert xwd:- -format '%[fx:mean>0.02]' info:; }
[ "$(lit)" = 0 ] || fail "the screen is not empty before the launch"

gio launch "$ENTRY" >"$WORK/gio.log" 2>&1 || { cat "$WORK/gio.log"; fail "gio launch $ENTRY"; }
n=0
while [ "$(lit)" = 0 ]; do
    n=$((n + 1))
    [ $n -le 60 ] || fail "no window within 30 s of gio launch"
    sleep 0.5
done
note "ok: a window appeared within $(((n + 1) / 2)) s of gio launch"
# It stays: Weft did not show something and crash.
sleep 3
pids=$(token_pids "$WEFT_LAUNCH_TOKEN")
[ -n "$pids" ] || fail "weft is gone 3 s after its window appeared"
found=0
for pid in $pids; do
    # /usr/bin/weft without a command becomes the window, /usr/libexec/weft/weft-window (execv).
    [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = /usr/libexec/weft/weft-window ] && found=1
done
[ $found = 1 ] || fail "gio launch did not start /usr/bin/weft and its window"
mkdir -p "$SHOTS"
xwd -root -silent | convert xwd:- "$SHOTS/packaging-launch.png"
note "ok: weft runs; screenshot $SHOTS/packaging-launch.png"

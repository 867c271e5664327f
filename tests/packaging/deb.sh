#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CPack builds the .deb for Debian 13: its control data (name, version, section, maintainer,
# description, library dependencies from dpkg-shlibdeps) and its files (unpacked with dpkg -x).
# The package is left in OUT_DIR for launch.sh.
#   deb.sh BUILD_DIR VERSION OUT_DIR
set -euo pipefail
. "$(dirname "$0")/common.sh"
build=$1 version=$2 out=$3
need cpack
need dpkg-deb
need dpkg-shlibdeps

rm -rf "$out"
mkdir -p "$out"
# -B keeps CPack's staging out of the build dir's top level.
if ! cpack -G DEB -B "$out/cpack" --config "$build/CPackConfig.cmake" >"$out/cpack.log" 2>&1; then
    cat "$out/cpack.log"
    fail "cpack -G DEB"
fi
deb=$(ls "$out"/cpack/weft_"$version"_*.deb 2>/dev/null | head -n1)
[ -n "$deb" ] || { cat "$out/cpack.log"; fail "cpack made no weft_${version}_*.deb"; }
cp "$deb" "$out/weft.deb"
note "ok: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"

field() { dpkg-deb --field "$out/weft.deb" "$1"; }
[ "$(field Package)" = weft ] || fail "Package is $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version is $(field Version), not $version"
[ "$(field Section)" = devel ] || fail "Section is $(field Section)"
# (Comparisons on captured text: `producer | grep -q` fails under pipefail when grep stops early.)
[[ "$(field Maintainer)" == *\<*@*\>* ]] || fail "no maintainer address"
[[ "$(field Description)" == *"coding-agent sessions"* ]] || fail "no description"
depends=$(field Depends)
for lib in libqt6core6 libqt6gui6 libqt6widgets6 libqt6network6 libqt6sql6 libkf6syntaxhighlighting6 libc6 libstdc++6; do
    [[ "$depends" == *"$lib"* ]] || fail "Depends lacks $lib (from dpkg-shlibdeps): $depends"
done
[[ "$depends" == *libqt6sql6-sqlite* ]] || fail "Depends lacks the SQLite driver: $depends"
note "ok: control: Depends: $depends"

dpkg-deb -x "$out/weft.deb" "$out/root"
check_tree "$out/root" /usr
# Files are owned by root in the archive, and the binaries are stripped.
owners=$(dpkg-deb --contents "$out/weft.deb" | awk '{print $2}' | sort -u)
[ "$owners" = root/root ] || fail "files not owned by root/root: $owners"
for binary in usr/bin/weft usr/libexec/weft/weft-window; do
    if [[ "$(file "$out/root/$binary")" == *"not stripped"* ]]; then fail "the packaged $binary is not stripped"; fi
done
rm -rf "$out/root" "$out/cpack/_CPack_Packages"
note "ok: the .deb's contents"

#!/usr/bin/env bash
# Weft developer entry point: build, run, test and benchmark Weft on any supported host.
#
#   packaging/dev.sh run [ARGS...]   build, then start Weft (GUI) on its default data dir
#   packaging/dev.sh test            build, then run the whole test suite through CTest
#   packaging/dev.sh build           build only
#   packaging/dev.sh bench [...]     release build, then the benchmark runner
#   packaging/dev.sh shell [CMD...]  a shell (or CMD) in the build environment
#   packaging/dev.sh fuzz [--minutes N] [--jobs J] [TARGET...]
#                                    libFuzzer on every parser of outside bytes (tests/fuzz), N
#                                    minutes each (default 10), J targets at a time (default 1),
#                                    all targets or those named
#
# Where the distribution packages Qt 6 and KF6 SyntaxHighlighting (Debian 13, Ubuntu 24.10+,
# Fedora 40+, Arch) everything runs natively. Where it does not (Debian 12), the script makes a
# Debian 13 build root with debootstrap once, caches it outside the source tree
# ($WEFT_BUILDROOT, default /var/cache/weft/buildroot-trixie) and runs the build inside it with
# the source tree, $HOME, /tmp and the current directory mounted at their own paths, so that
# build/weft works from the host shell.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
ROOT=${WEFT_BUILDROOT:-/var/cache/weft/buildroot-trixie}
BUILDROOT_PACKAGES="g++ cmake ninja-build git ca-certificates qt6-base-dev qt6-base-dev-tools \
qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n libqt6sql6-sqlite \
libqt6svg6 qt6-svg-dev libkf6syntaxhighlighting-dev libkf6syntaxhighlighting-data \
xvfb xauth x11-apps imagemagick fonts-dejavu-core fonts-noto-cjk \
desktop-file-utils appstream libglib2.0-bin dpkg-dev file libsqlite3-dev sqlite3 \
qt6-qpa-plugins libgl-dev procps libsimdjson-dev openssh-client openssh-server nodejs libtree-sitter-dev mold"

log() { printf '\033[1mweft:\033[0m %s\n' "$*" >&2; }

# Phases and their times: `timed NAME CMD...` runs CMD and records its wall time and the CPU time
# of everything it ran (user + system of the processes it waited for); print_phases prints them
# (at the end of `test`, whether it passed or not: a phase that failed shows as such). On a shared
# machine the CPU time is the steadier figure.
PHASE_NAMES=() PHASE_WALL=() PHASE_CPU=() PHASE_RUNNING=""
child_cpu_ticks() { awk '{ print $16 + $17 }' "/proc/$$/stat"; }
timed() {
    local name=$1 start=$SECONDS ticks
    shift
    ticks=$(child_cpu_ticks)
    PHASE_RUNNING=$name PHASE_START=$start PHASE_TICKS=$ticks
    "$@"
    PHASE_RUNNING=""
    PHASE_NAMES+=("$name")
    PHASE_WALL+=($((SECONDS - start)))
    PHASE_CPU+=($(( ($(child_cpu_ticks) - ticks) / $(getconf CLK_TCK) )))
}
print_phases() {
    local i total=0
    if [ -n "$PHASE_RUNNING" ]; then
        PHASE_NAMES+=("$PHASE_RUNNING (failed)")
        PHASE_WALL+=($((SECONDS - PHASE_START)))
        PHASE_CPU+=($(( ($(child_cpu_ticks) - PHASE_TICKS) / $(getconf CLK_TCK) )))
    fi
    [ ${#PHASE_NAMES[@]} -gt 0 ] || return 0
    printf '\033[1mweft:\033[0m %-19s %9s %9s\n' phase wall cpu >&2
    for i in "${!PHASE_NAMES[@]}"; do
        printf '\033[1mweft:\033[0m %-19s %6dm%02ds %6dm%02ds\n' "${PHASE_NAMES[$i]}" \
            $((PHASE_WALL[i] / 60)) $((PHASE_WALL[i] % 60)) $((PHASE_CPU[i] / 60)) $((PHASE_CPU[i] % 60)) >&2
        total=$((total + PHASE_WALL[i]))
    done
    printf '\033[1mweft:\033[0m %-19s %6dm%02ds\n' total $((total / 60)) $((total % 60)) >&2
}
die() { printf 'weft: error: %s\n' "$*" >&2; exit 1; }

have_native_kf6() {
    [ -n "${WEFT_FORCE_BUILDROOT:-}" ] && return 1
    command -v cmake >/dev/null 2>&1 || return 1
    local d
    for d in /usr/lib/cmake /usr/lib64/cmake /usr/lib/*-linux-gnu*/cmake /usr/share/cmake /usr/local/lib/cmake; do
        [ -f "$d/KF6SyntaxHighlighting/KF6SyntaxHighlightingConfig.cmake" ] && \
            [ -f "$d/Qt6/Qt6Config.cmake" ] && return 0
    done
    return 1
}

# The Debian mirror for the build root: $WEFT_DEBIAN_MIRROR, else the one the host's own apt uses
# (deb822 .sources files and one-line .list files; security and backports mirrors are not the
# main archive). Never a hard-coded mirror: a machine may only reach its own.
host_mirror() {
    if [ -n "${WEFT_DEBIAN_MIRROR:-}" ]; then printf '%s\n' "$WEFT_DEBIAN_MIRROR"; return 0; fi
    local f uri etc=${WEFT_APT_ETC:-/etc/apt}
    for f in "$etc"/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        for uri in $(sed -n 's/^URIs:[[:space:]]*//p' "$f"); do
            case "$uri" in *security*|*backports*|*-updates*) continue;; http://*|https://*|file:*) printf '%s\n' "$uri"; return 0;; esac
        done
    done
    for f in "$etc"/sources.list "$etc"/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        # "deb [options] URI suite components": the URI is the first field after the options.
        uri=$(sed -n 's/^[[:space:]]*deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\{0,1\}\([^[:space:]]\+\).*/\2/p' "$f" \
              | grep -v -e security -e backports | head -n1)
        [ -n "$uri" ] && { printf '%s\n' "$uri"; return 0; }
    done
    return 1
}

# The stamp records the package list so that a changed list refreshes the cached root.
stamp_value() { printf '%s\n' "$BUILDROOT_PACKAGES" | md5sum | cut -d' ' -f1; }

# Runs "$@" inside the build root, with the paths the host sees.
in_root() {
    local cwd=$PWD
    # Each folder once, and none inside one bound already (a recursive bind brings it): every
    # bind is a mount process, and build/weft pays for them at every start.
    local binds=() b kept
    for b in "$SRC" /tmp "$cwd" ${HOME:+"$HOME"} ${WEFT_EXTRA_BINDS:-}; do
        [ -d "$b" ] || [ "$b" = "$cwd" ] || continue
        for kept in "${binds[@]}"; do
            case "$b/" in "$kept"/*) continue 2;; esac
        done
        binds+=("$b")
    done
    local env_args=(HOME="${HOME:-/root}" PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
                    LANG="${LANG:-C.UTF-8}" TERM="${TERM:-dumb}")
    local v
    for v in DISPLAY XAUTHORITY WAYLAND_DISPLAY QT_QPA_PLATFORM LANGUAGE LC_ALL XDG_DATA_HOME XDG_STATE_HOME \
             XDG_CONFIG_HOME XDG_CACHE_HOME XDG_RUNTIME_DIR WEFT_DATA_DIR QT_LOGGING_RULES CTEST_PARALLEL_LEVEL \
             ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS WEFT_TEST_ARGS OPENCODE_DISABLE_AUTOCOMPACT OPENCODE_DISABLE_PRUNE \
             WEFT_BENCH_ARGS QT_SCALE_FACTOR; do
        [ -n "${!v:-}" ] && env_args+=("$v=${!v}")
    done
    # Every environment variable that names an API key in the user's config reaches Weft too.
    for v in $(compgen -e); do
        case "$v" in *_API_KEY|*_KEY|WEFT_*|OPENCODE_*) env_args+=("$v=${!v}");; esac
    done
    local script='set -e
mount --rbind /proc "$R/proc"
mount --rbind /dev "$R/dev"
mount --rbind /sys "$R/sys" 2>/dev/null || true
shift
for b in "$@"; do
  [ "$b" = "--" ] && break
  [ -d "$R$b" ] || mkdir -p "$R$b"
  mount --rbind "$b" "$R$b"
  shift
done
shift
exec chroot "$R" "$@"'
    local runner=(unshare --mount --fork)
    if [ "$EUID" != 0 ]; then
        runner=(unshare --user --map-root-user --mount --fork)
    fi
    R="$ROOT" "${runner[@]}" sh -c "$script" sh x "${binds[@]}" -- env -i -C "$cwd" "${env_args[@]}" "$@"
}

ensure_buildroot() {
    if [ -f "$ROOT/.weft-stamp" ] && [ "$(cat "$ROOT/.weft-stamp")" = "$(stamp_value)" ]; then
        return 0
    fi
    [ "$(id -u)" = 0 ] || die "this host has no Qt 6 + KF6 packages; making the Debian 13 build root in $ROOT needs root once (sudo $0 $*)"
    command -v apt-get >/dev/null || die "no KF6 SyntaxHighlighting found and this host has no apt for a build root; install Qt 6 and KF6 SyntaxHighlighting development packages"
    local mirror
    mirror=$(host_mirror) || die "no Debian mirror found in this host's apt sources (/etc/apt/sources.list, /etc/apt/sources.list.d/); configure apt, or set WEFT_DEBIAN_MIRROR=URL (a Debian archive that has trixie)"
    if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
        command -v debootstrap >/dev/null || { log "installing debootstrap"; apt-get install -y -q debootstrap >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q debootstrap >/dev/null; }; }
        log "creating the Debian 13 build root in $ROOT from $mirror (once, about a minute)"
        rm -rf "$ROOT"; mkdir -p "$(dirname "$ROOT")"
        debootstrap --variant=minbase trixie "$ROOT.tmp" "$mirror" >"$(dirname "$ROOT")/debootstrap.log" 2>&1 \
            || { tail -n 30 "$(dirname "$ROOT")/debootstrap.log" >&2; rm -rf "$ROOT.tmp"; die "debootstrap failed"; }
        mv "$ROOT.tmp" "$ROOT"
    fi
    log "installing Qt 6 and KF6 into the build root"
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
    printf 'deb %s trixie main\n' "$mirror" >"$ROOT/etc/apt/sources.list"
    rm -f "$ROOT/etc/apt/sources.list.d/"*.sources 2>/dev/null || true
    # shellcheck disable=SC2086
    unshare --mount --fork sh -c "
        mount -t proc proc '$ROOT/proc' && mount --rbind /dev '$ROOT/dev' &&
        chroot '$ROOT' sh -c 'apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $BUILDROOT_PACKAGES >/dev/null && apt-get clean'" \
        || die "installing packages into the build root failed"
    stamp_value >"$ROOT/.weft-stamp"
}

# Makes the build root where the host needs one (once; then it only checks its stamp).
prepare_build_env() {
    have_native_kf6 || ensure_buildroot
}

# Runs a command in the build environment (natively or in the build root).
build_env() {
    if have_native_kf6; then
        "$@"
    else
        ensure_buildroot
        in_root "$@"
    fi
}

# Debug information as line tables only (-g1): backtraces, gdb's stacks and the sanitizers'
# reports keep their files and lines. Full debug information (-g) took a quarter of the compile
# time and most of the link time of the test build; configure with your own flags to have it.
RELEASE_FLAGS="-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
DEBUG_FLAGS="-DCMAKE_CXX_FLAGS_DEBUG=-g1"

configure_and_build() {
    local dir=$1; shift
    local launcher_mode=native targets=()
    have_native_kf6 || launcher_mode=buildroot
    # WEFT_TARGETS (space-separated) builds only those targets instead of everything.
    [ -n "${WEFT_TARGETS:-}" ] && for t in $WEFT_TARGETS; do targets+=(--target "$t"); done
    # ccache, where the build environment has it, makes rebuilds after a branch switch cheap.
    local launcher=()
    build_env sh -c 'command -v ccache' >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    timed configure build_env cmake -S "$SRC" -B "$dir" -G Ninja -DWEFT_LAUNCHER_MODE="$launcher_mode" \
        -DWEFT_BUILDROOT="$ROOT" "${launcher[@]}" "$@" >/dev/null
    timed build build_env cmake --build "$dir" --parallel "$(nproc)" "${targets[@]}"
}

# clang and libFuzzer's runtime, for `fuzz` only (not in BUILDROOT_PACKAGES: every other build
# would install them for nothing). In the build root they are installed on demand.
FUZZ_PACKAGES="clang libclang-rt-dev"
ensure_fuzz_toolchain() {
    local probe='command -v clang++ >/dev/null && f=$(clang++ -print-file-name=libclang_rt.fuzzer-x86_64.a) &&
        { [ -f "$f" ] || [ -f "$(clang++ -print-runtime-dir)/libclang_rt.fuzzer.a" ] ||
          [ -f "$(clang++ -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a" ]; }'
    if have_native_kf6; then
        sh -c "$probe" || die "fuzzing needs clang with libFuzzer: install clang and libclang-rt-dev (Debian, Ubuntu), clang and compiler-rt (Fedora, Arch)"
        return 0
    fi
    ensure_buildroot
    in_root sh -c "$probe" && return 0
    [ "$(id -u)" = 0 ] || die "installing clang into the build root $ROOT needs root once (sudo $0 fuzz)"
    log "installing clang and libFuzzer into the build root (once)"
    unshare --mount --fork sh -c "
        mount -t proc proc '$ROOT/proc' && mount --rbind /dev '$ROOT/dev' &&
        chroot '$ROOT' sh -c 'apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $FUZZ_PACKAGES >/dev/null && apt-get clean'" \
        || die "installing $FUZZ_PACKAGES into the build root failed"
}

# fuzz [--minutes N] [--jobs J] [TARGET...]: builds tests/fuzz with clang and libFuzzer in
# build-fuzz and runs each target for N minutes on its corpus (build-fuzz/corpus/<target>, grown
# from the seeds in tests/fuzz/corpus/<target>), J targets at a time. A crasher is copied to
# tests/fuzz/regressions/<target>/.
fuzz() {
    local minutes=10 jobs=1 targets=() all=()
    while [ $# -gt 0 ]; do
        case "$1" in
        --minutes) [ $# -ge 2 ] || die "--minutes needs a number"; minutes=$2; shift 2;;
        --minutes=*) minutes=${1#--minutes=}; shift;;
        --jobs) [ $# -ge 2 ] || die "--jobs needs a number"; jobs=$2; shift 2;;
        --jobs=*) jobs=${1#--jobs=}; shift;;
        -*) die "unknown fuzz option '$1'";;
        *) targets+=("${1#fuzz_}"); shift;;
        esac
    done
    case "$minutes" in ''|*[!0-9.]*|0|0.0) die "--minutes needs a number above 0";; esac
    case "$jobs" in ''|*[!0-9]*|0) die "--jobs needs a whole number above 0";; esac
    local t
    for t in "$SRC"/tests/fuzz/corpus/*/; do all+=("$(basename "$t")"); done
    [ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
    for t in "${targets[@]}"; do
        [ -d "$SRC/tests/fuzz/corpus/$t" ] || die "no fuzz target '$t' (targets: ${all[*]})"
    done
    ensure_fuzz_toolchain
    local dir=${WEFT_BUILD_DIR:-$SRC/build-fuzz} names=()
    for t in "${targets[@]}"; do names+=("fuzz_$t"); done
    # Coverage, ASan and UBSan on everything: -O1 keeps the build short and the fuzzing fast.
    WEFT_TARGETS="${names[*]}" configure_and_build "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DWEFT_FUZZ=ON -DBUILD_TESTING=OFF \
        -DCMAKE_BUILD_TYPE=Fuzz "-DCMAKE_CXX_FLAGS_FUZZ=-O1 -gline-tables-only"
    local seconds summary="$dir/fuzz-summary.txt" failed=0 running=0
    seconds=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')
    for t in "${targets[@]}"; do
        if [ "$running" -ge "$jobs" ]; then
            wait -n || true
            running=$((running - 1))
        fi
        fuzz_target "$dir" "$t" "$minutes" "$seconds" &
        running=$((running + 1))
    done
    wait || true
    printf '%-18s %12s %8s %8s %8s\n' target executions minutes crashes load >"$summary"
    for t in "${targets[@]}"; do
        cat "$dir/fuzz-$t.row" >>"$summary"
        local crashes
        crashes=$(find "$dir/artifacts/$t" -type f | wc -l)
        if [ "$crashes" -gt 0 ]; then
            failed=1
            mkdir -p "$SRC/tests/fuzz/regressions/$t"
            cp "$dir/artifacts/$t"/* "$SRC/tests/fuzz/regressions/$t/"
            log "$t: $crashes crasher(s) saved to tests/fuzz/regressions/$t/ (see $dir/fuzz-$t.log): fix the" \
                "parser, then commit them, the replay test (ctest -R fuzz_${t}_replay) keeps them fixed"
        fi
    done
    cat "$summary"
    return $failed
}

# fuzz_target DIR TARGET MINUTES SECONDS: libFuzzer on TARGET for SECONDS; its summary row goes to
# DIR/fuzz-TARGET.row. A timeout is tried again alone: one that does not come back was the load of
# a shared machine (libFuzzer measures wall time), not a bug, so the input is set aside in
# DIR/unreproduced/TARGET/ and fuzzing goes on for the rest of the time. A crash, or a timeout
# that comes back, ends the target's run and counts.
fuzz_target() {
    local dir=$1 t=$2 minutes=$3 seconds=$4
    local corpus="$dir/corpus/$t" artifacts="$dir/artifacts/$t" logfile="$dir/fuzz-$t.log"
    local unreproduced="$dir/unreproduced/$t" timeout=${WEFT_FUZZ_TIMEOUT:-10}
    mkdir -p "$corpus" "$artifacts" "$unreproduced"
    rm -f "$artifacts"/* "$dir/fuzz-$t.row" "$logfile"
    log "fuzzing $t for $minutes min (log: $logfile)"
    local start end left execs=0 runs=0 setaside=0 part
    start=$(date +%s)
    while :; do
        left=$((seconds - ($(date +%s) - start)))
        [ "$left" -gt 0 ] || break
        runs=$((runs + 1))
        # At low priority: the machine is shared. The first corpus folder is the one that grows.
        build_env env UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
            nice -n 15 "$dir/fuzz/fuzz_$t" -max_total_time="$left" -timeout="$timeout" -rss_limit_mb=4096 \
            -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "$SRC/tests/fuzz/corpus/$t" \
            >"$logfile.part" 2>&1 || true
        cat "$logfile.part" >>"$logfile"
        part=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logfile.part" | tail -n1)
        [ -n "$part" ] || part=$(grep -o '^#[0-9]*' "$logfile.part" | tail -n1 | tr -d '#')
        execs=$((execs + ${part:-0}))
        rm -f "$logfile.part"
        local found f real=0
        found=$(find "$artifacts" -type f | wc -l)
        [ "$found" -gt 0 ] || continue
        for f in "$artifacts"/*; do
            case "$(basename "$f")" in
            timeout-*)
                if build_env "$dir/fuzz/fuzz_$t" -runs=3 -timeout="$timeout" "$f" >>"$logfile" 2>&1; then
                    mv "$f" "$unreproduced/"
                    setaside=$((setaside + 1))
                    log "$t: a timeout did not come back alone (the machine's load); fuzzing goes on"
                    continue
                fi
                ;;
            esac
            real=1
        done
        [ "$real" -eq 0 ] || break
    done
    end=$(date +%s)
    local crashes
    crashes=$(find "$artifacts" -type f | wc -l)
    printf '%-18s %12s %8s %8s %8s\n' "$t" "$execs" "$(awk -v s=$((end - start)) 'BEGIN { printf "%.1f", s / 60 }')" \
        "$crashes" "$setaside" >"$dir/fuzz-$t.row"
}

main() {
    local cmd=${1:-}
    [ $# -gt 0 ] && shift
    case "$cmd" in
    build)
        configure_and_build "${WEFT_BUILD_DIR:-$SRC/build}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$RELEASE_FLAGS" "$@"
        ;;
    run)
        configure_and_build "${WEFT_BUILD_DIR:-$SRC/build}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$RELEASE_FLAGS"
        exec "${WEFT_BUILD_DIR:-$SRC/build}/weft" "$@"
        ;;
    test)
        # The tests wait on disks, processes and loopback servers more than they compute (on 2
        # cores the suite used 0.8 of a core at --parallel 2): twice as many as cores at once
        # took it from 191 to 115 s. The sanitized build's tests compute 2-3 times as much: one
        # per core there.
        local dir=${WEFT_BUILD_DIR:-$SRC/build} extra=() jobs=$(( $(nproc) * 2 ))
        if [ "${1:-}" = "--sanitize" ]; then
            jobs=$(nproc)
            # Each file compiled on its own (no unity build): this build also checks that every
            # file includes what it uses, which a unity batch can hide.
            shift; dir=${WEFT_BUILD_DIR:-$SRC/build-sanitize}
            extra=(-DWEFT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug "$DEBUG_FLAGS" -DWEFT_SHARED_LIBRARIES=ON
                   -DWEFT_UNITY_BUILD=OFF)
        else
            # The benchmarks are not tests: the sanitized build (.ci/run) checks that they build.
            extra=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "$RELEASE_FLAGS" -DWEFT_BENCHMARKS=OFF)
        fi
        trap print_phases EXIT
        timed "build root" prepare_build_env
        configure_and_build "$dir" -DWEFT_WERROR=ON "${extra[@]}"
        timed tests build_env env QT_QPA_PLATFORM=offscreen ctest --test-dir "$dir" --output-on-failure \
            --parallel "$jobs" --timeout 600 "$@"
        ;;
    bench)
        # Options: --runs N, --only FIGURE[,...], --compare-opencode, --cold (tests/bench/run-benchmarks.py).
        local dir=${WEFT_BUILD_DIR:-$SRC/build-bench}
        # Only what the runner starts: not the test suite.
        WEFT_TARGETS="weft generate_store bench_model bench_gui bench_stream bench_search bench_json" \
            configure_and_build "$dir" -DCMAKE_BUILD_TYPE=Release
        case " $* " in
        *" --compare-opencode "*)
            # The real OpenCode from the npm registry, once, with the host's npm (the build root has none).
            if [ ! -x "$dir/opencode/package/bin/opencode" ]; then
                command -v npm >/dev/null || die "--compare-opencode needs npm to download opencode-linux-x64@1.1.53"
                log "downloading OpenCode 1.1.53 (npm pack opencode-linux-x64@1.1.53, about 55 MB, once)"
                mkdir -p "$dir/opencode"
                (cd "$dir/opencode" && npm pack --silent opencode-linux-x64@1.1.53 >/dev/null &&
                    tar xzf opencode-linux-x64-1.1.53.tgz) || die "downloading OpenCode failed"
            fi
            # And OpenCode 1.18.34 for the database era (its opencode.db).
            if [ ! -x "$dir/opencode-1.18.34/package/bin/opencode" ]; then
                command -v npm >/dev/null || die "--compare-opencode needs npm to download opencode-linux-x64@1.18.34"
                log "downloading OpenCode 1.18.34 (npm pack opencode-linux-x64@1.18.34, once)"
                mkdir -p "$dir/opencode-1.18.34"
                (cd "$dir/opencode-1.18.34" && npm pack --silent opencode-linux-x64@1.18.34 >/dev/null &&
                    tar xzf opencode-linux-x64-1.18.34.tgz) || die "downloading OpenCode 1.18.34 failed"
            fi;;
        esac
        build_env "$SRC/tests/bench/run-benchmarks.sh" "$dir" "$@"
        ;;
    shell)
        if [ $# -eq 0 ]; then build_env bash; else build_env "$@"; fi
        ;;
    fuzz)
        fuzz "$@"
        ;;
    exec-in-root)
        # Used by the build/weft launcher on hosts that need the build root.
        in_root "$@"
        ;;
    ""|-h|--help|help)
        sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
        ;;
    *) die "unknown command '$cmd' (try: build, run, test, bench, shell, fuzz)";;
    esac
}

main "$@"

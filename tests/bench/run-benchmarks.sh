#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The benchmark runner (see run-benchmarks.py): `packaging/dev.sh bench [OPTIONS]` builds
# build-bench in release mode and runs this with it.
#
#   tests/bench/run-benchmarks.sh BUILD_DIR [--runs N] [--only FIGURE,...] [--compare-opencode] [--cold]
exec python3 "$(dirname "$0")/run-benchmarks.py" "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures a sanitizer build tree (default build/asan, scripts/fuzz.sh's): clang 14, AddressSanitizer +
# UndefinedBehaviorSanitizer (any undefined behaviour is fatal) and libFuzzer instrumentation, -O1 with line tables
# only (a third faster to build than -O2 -g; reports still name file and line). NPUSCOPE_ASAN_OPT replaces -O1:
# scripts/test.sh builds its own tree (build/asan-ci) at -O0, which clang builds 2.4 times as fast (Detector.cpp
# 45.7 -> 18.9 s) and which checks the same, only slower, for the few seconds of replay and smoke CI runs.
# simdjson turns on its development checks when the compiler does not optimise, and with NDEBUG those checks are
# __builtin_unreachable() assumptions: at -O0 UBSan stopped the replay of json-deep-nesting-object.input in
# json_iterator::set_start_position (nesting deeper than the parser's max depth, which simdjson then handles as a
# depth error). SIMDJSON_DEVELOPMENT_CHECKS=0 keeps the header as every optimised build compiles it.
#   scripts/asan-configure.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/asan}"
cxx="$(command -v clang++-14 || command -v clang++ || true)"
[[ -n "$cxx" ]] || { echo "asan-configure.sh: clang++ is needed (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 2; }
# ccache keys on paths relative to the build folder: trees of other checkouts at the same depth share entries.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="${NPUSCOPE_ASAN_OPT:--O1} -gline-tables-only -DNDEBUG -DSIMDJSON_DEVELOPMENT_CHECKS=0" -DCMAKE_CXX_COMPILER="$cxx" \
    -DNPUSCOPE_FUZZ=ON -DNPUSCOPE_WERROR=ON >/dev/null

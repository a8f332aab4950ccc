#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures the sanitizer build tree (default build/asan) that scripts/test.sh and scripts/fuzz.sh share: clang 14,
# AddressSanitizer + UndefinedBehaviorSanitizer (any undefined behaviour is fatal) and libFuzzer instrumentation,
# -O1 with line tables only (a third faster to build than -O2 -g; reports still name file and line).
#   scripts/asan-configure.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/asan}"
cxx="$(command -v clang++-14 || command -v clang++ || true)"
[[ -n "$cxx" ]] || { echo "asan-configure.sh: clang++ is needed (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 2; }
# ccache keys on paths relative to the build folder: trees of other checkouts at the same depth share entries.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DCMAKE_CXX_COMPILER="$cxx" \
    -DNPUSCOPE_FUZZ=ON -DNPUSCOPE_WERROR=ON >/dev/null

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is missing, builds with warnings as errors and runs every test through ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/deps.sh"
cmake -S "$root" -B "$root/build/ci" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNPUSCOPE_WERROR=ON >/dev/null
cmake --build "$root/build/ci" -j2
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$root/build/ci" --output-on-failure -j2 --timeout 600

# The core tests and the fuzz-regression replay under AddressSanitizer + UndefinedBehaviorSanitizer (clang, one
# build that also holds the libFuzzer executable), then a fuzz smoke run of a few seconds per target
# (docs/robustness.md). Opt-in for now (NPUSCOPE_SANITIZERS=1): the whole step has not yet completed once on a clean
# clone (clang 14 rejected code gcc accepts), so it does not gate CI until it has (issue 15).
if [[ "${NPUSCOPE_SANITIZERS:-0}" != 0 ]]; then
  start=$SECONDS
  cmake -S "$root" -B "$root/build/asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
    -DNPUSCOPE_FUZZ=ON -DNPUSCOPE_WERROR=ON >/dev/null
  cmake --build "$root/build/asan" -j2 --target npuscope_core_tests npuscope-fuzz
  # Only the core suite: the GUI tests and the layer-rule builds are not part of this build.
  ctest --test-dir "$root/build/asan" --output-on-failure -j2 --timeout 600 -E '^LayerRule|NOT_BUILT'
  FUZZ_BUILD="$root/build/asan" FUZZ_NO_BUILD=1 "$root/scripts/fuzz.sh" all "${NPUSCOPE_FUZZ_SMOKE_SECONDS:-3}"
  echo "sanitizer build, tests and fuzz smoke: $((SECONDS - start)) s"
fi

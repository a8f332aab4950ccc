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

# The sanitizer step (docs/robustness.md): the clang tree build/asan-ci (scripts/asan-configure.sh at -O0: ASan + UBSan +
# LSan, any undefined behaviour fatal, libFuzzer instrumentation; scripts/fuzz.sh's build/asan is the -O1 tree for long
# runs). NPUSCOPE_SANITIZERS selects how much:
#   fuzz (default)  npuscope-fuzz only (every importer, detection, loader and parse cache under the sanitizers): the
#                   fuzz-regression replay of every target, then a fuzz smoke run of NPUSCOPE_FUZZ_SMOKE_SECONDS
#                   (default 3) per target. With a cold ccache on 2 idle cores: the -O0 build about 5 min, the
#                   replay 20 s, the smoke 3 min (at -O1 the build took 10 min).
#   full            also the core test suite (npuscope_core_tests and the CLI under the sanitizers): about twice the
#                   build (roughly 20 min more from a cold ccache on 2 cores), so not the default.
#   0               none.
level="${NPUSCOPE_SANITIZERS:-fuzz}"
if [[ "$level" != 0 ]]; then
  start=$SECONDS
  NPUSCOPE_ASAN_OPT=-O0 "$root/scripts/asan-configure.sh" "$root/build/asan-ci"
  targets=(npuscope-fuzz)
  [[ "$level" == full ]] && targets+=(npuscope_core_tests)
  cmake --build "$root/build/asan-ci" -j2 --target "${targets[@]}"
  built=$SECONDS
  exe="$root/build/asan-ci/fuzz/npuscope-fuzz"
  # The replay: every file of tests/data/fuzz-regressions through every target (FuzzRegression.* does the same in
  # the gcc build); any sanitizer report or crash fails.
  while IFS=$'\t' read -r name _; do
    NPUSCOPE_FUZZ_TARGET="$name" "$exe" "$root"/tests/data/fuzz-regressions/*.input >"$root/build/asan-ci/replay-$name.log" 2>&1 \
      || { echo "fuzz regression replay failed: $name"; tail -30 "$root/build/asan-ci/replay-$name.log"; exit 1; }
  done < <(NPUSCOPE_FUZZ_LIST=1 "$exe")
  if [[ "$level" == full ]]; then
    # Only the core suite: the GUI tests and the layer-rule builds (gcc's message) are not part of this tree.
    ctest --test-dir "$root/build/asan-ci" --output-on-failure -j2 --timeout 600 -E '^LayerRule|NOT_BUILT'
  fi
  tested=$SECONDS
  smoke="${NPUSCOPE_FUZZ_SMOKE_SECONDS:-3}"
  if ((smoke > 0)); then
    FUZZ_BUILD="$root/build/asan-ci" FUZZ_NO_BUILD=1 FUZZ_NICE=0 "$root/scripts/fuzz.sh" all "$smoke"
  fi
  echo "sanitizer step ($level): build $((built - start)) s, replay/tests $((tested - built)) s, fuzz smoke $((SECONDS - tested)) s"
fi

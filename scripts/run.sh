#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what is missing, builds Release and opens the GUI on PATH... (or on the bundled demo, tests/data/torch_npu_2rank_level1).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/deps.sh"
cmake -S "$root" -B "$root/build/release" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNPUSCOPE_BUILD_TESTS=OFF >/dev/null
cmake --build "$root/build/release" -j2 --target npuscope npuscope-cli
if [ $# -eq 0 ]; then
  # The bundled demo: two real ranks of an 8-rank torch_npu job (see its SOURCE.txt).
  set -- "$root/tests/data/torch_npu_2rank_level1"
fi
exec "$root/build/release/npuscope" "$@"

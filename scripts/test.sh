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

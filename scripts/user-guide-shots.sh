#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates the screenshots of docs/user-guide.md: the welcome page and every view, on the bundled demo (two real
# torch_npu ranks) unless a PATH is given, at 1366x768 (a laptop screen; override with SIZE=WxH).
#   scripts/user-guide-shots.sh [BUILD_DIR] [PATH]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build/dev}"
input="${2:-$here/tests/data/torch_npu_2rank_level1}"
size="${SIZE:-1366x768}"
out="$here/docs/user-guide"
mkdir -p "$out"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
"$build/npuscope" --screenshot "$out/welcome.png" --view welcome --size "$size"
for view in all steps overview timeline timeoverview matrix commduration links groups operators memory memorydetail \
  flops strategy marey advice collectives blame compare statistics issues; do
  args=()
  case "$view" in
    memorydetail | links) args=(--rank 0) ;;
    timeline) args=(--step 50) ;;
    compare) args=(--baseline "$here/tests/data/torch_npu_2rank_level0") ;; # the same job's Level0 export as the base
  esac
  "$build/npuscope" --screenshot "$out/$view.png" --view "$view" --size "$size" "${args[@]}" "$input"
done
# MindSpore's FLOPs per scope: the demo (torch_npu) has no flops_scope file; MindInsight's old profiler folder has one.
"$build/npuscope" --screenshot "$out/flopsscope.png" --view flopsscope --size "$size" \
  "$here/tests/data/mindspore_flops_profiler"

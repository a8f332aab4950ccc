#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The screenshots of issue 16's "done when": the welcome page and every view at 1920x1080 and 1366x768, at scale
# factors 1 and 2, in English and Chinese, light and dark, on the bundled two-rank torch_npu sample and on a generated
# 1,024-rank cluster (made once, kept in $G1024). One npuscope run per input and combination writes every view ({view}
# in the file name).
#   scripts/ux-shots.sh [BUILD_DIR] [OUT_DIR]        (default build/dev, /tmp/ux-shots)
# SIZES, SCALES, LANGS, THEMES, INPUTS and VIEWS narrow it down, e.g. SIZES=1366x768 SCALES=2 LANGS=zh_CN THEMES=dark
# INPUTS=2rank. A size is the screen in device pixels: at scale 2 the window is half as wide and high in logical
# pixels (QT_SCALE_FACTOR=2) and the image keeps the screen's size.
# File names: OUT_DIR/<view>-<input>-<size>-s<scale>-<lang>-<theme>.png and
# OUT_DIR/welcome-<size>-s<scale>-<lang>-<theme>.png.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build/dev}"
out="${2:-/tmp/ux-shots}"
g1024="${G1024:-/tmp/ux-shots-g1024}"
sizes="${SIZES:-1920x1080 1366x768}"
scales="${SCALES:-1 2}"
langs="${LANGS:-en zh_CN}"
themes="${THEMES:-light dark}"
inputs="${INPUTS:-2rank g1024}"
views="${VIEWS:-all,steps,overview,timeline,timeoverview,matrix,commduration,links,groups,operators,memory,memorydetail,flops,strategy,marey,advice,collectives,blame,issues,compare}"
mkdir -p "$out"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
if [[ " $inputs " == *" g1024 "* && ! -d "$g1024" ]]; then
  "$build/npuscope-cli" generate --out "$g1024" --ranks 1024 --pp 4 --tp 8 >/dev/null
fi
for size in $sizes; do
  for scale in $scales; do
    # The window in logical pixels: the screen's size divided by the scale factor.
    window="$((${size%x*} / scale))x$((${size#*x} / scale))"
    for lang in $langs; do
      for theme in $themes; do
        tag="$size-s$scale-$lang-$theme"
        QT_SCALE_FACTOR="$scale" "$build/npuscope" --screenshot "$out/welcome-$tag.png" --view welcome \
          --size "$window" --lang "$lang" --theme "$theme" >/dev/null
        for input in $inputs; do
          case "$input" in
            2rank) path="$here/tests/data/torch_npu_2rank_level1"; args=(--rank 0 --step 50) ;;
            g1024) path="$g1024"; args=(--rank 0) ;;
            *) path="$input"; args=() ;;
          esac
          name="$(basename "$input")"
          QT_SCALE_FACTOR="$scale" "$build/npuscope" --screenshot "$out/{view}-$name-$tag.png" --view "$views" \
            --size "$window" --lang "$lang" --theme "$theme" "${args[@]}" "$path" >/dev/null
        done
        echo "$tag done"
      done
    done
  done
done
ls "$out" | wc -l

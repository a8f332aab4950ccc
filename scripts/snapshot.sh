#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Writes what npuscope prints and draws for every sample folder, so two builds can be diffed:
#   scripts/snapshot.sh BUILD_DIR OUT_DIR [SAMPLES_DIR...]
# For each folder (every directory up to five levels under each SAMPLES_DIR, default ../shared/samples and
# tests/data): npuscope-cli summary --json --with-timeline, comm --json, memory --json, ops --json, and with SHOTS=1 a screenshot of every
# view. Exit codes are kept next to the output. Nothing is written into the sample folders.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "$1" && pwd)"
out="$2"
shift 2
dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=("$root/../shared/samples" "$root/tests/data")
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen XDG_CACHE_HOME="$(mktemp -d)"
views=(steps overview issues timeline matrix commduration links groups timeoverview operators memory)
for base in "${dirs[@]}"; do
  base="$(cd "$base" && pwd)"
  while IFS= read -r d; do
    name="$(basename "$base")__$(realpath --relative-to="$base" "$d" | tr '/' '_')"
    "$build/npuscope-cli" summary --json --with-timeline --no-cache "$d" >"$out/$name.summary.json" 2>/dev/null
    echo "exit $?" >>"$out/$name.summary.json"
    "$build/npuscope-cli" comm --json "$d" >"$out/$name.comm.json" 2>/dev/null
    echo "exit $?" >>"$out/$name.comm.json"
    "$build/npuscope-cli" memory --json --capacity-gb 64 "$d" >"$out/$name.memory.json" 2>/dev/null
    echo "exit $?" >>"$out/$name.memory.json"
    "$build/npuscope-cli" ops --json "$d" >"$out/$name.ops.json" 2>/dev/null
    echo "exit $?" >>"$out/$name.ops.json"
    if [ "${SHOTS:-0}" = 1 ]; then
      for v in "${views[@]}"; do
        timeout 120 "$build/npuscope" --screenshot "$out/$name.$v.png" --view "$v" --size 1600x1000 "$d" \
          >/dev/null 2>&1
      done
    fi
  done < <(find "$base" -mindepth 0 -maxdepth 5 -type d | sort)
done
rm -rf "$XDG_CACHE_HOME"

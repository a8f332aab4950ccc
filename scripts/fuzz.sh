#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer executable (clang, ASan + UBSan, -O1, in the sanitizer tree build/asan; scripts/test.sh's smoke
# run uses its own -O0 tree build/asan-ci) and fuzzes one target or every target in turn, one at a time.
#   scripts/fuzz.sh [TARGET|all] [SECONDS]        (default: all, 60 s each)
# Environment: FUZZ_BUILD (build folder, default build/asan), FUZZ_JOBS (build jobs, default 2), FUZZ_RSS_MB
# (memory limit per input, default 2048), FUZZ_NO_BUILD=1 (use the executable as it is), FUZZ_NICE (default 19),
# FUZZ_CORPUS (where the corpora live and grow, one folder per target; default $FUZZ_BUILD/corpus; keep it outside
# the repository and outside build trees to accumulate over runs: docs/robustness.md).
# Every run appends a line to $FUZZ_CORPUS/runs.tsv (date, target, seconds, execs, exec/s, cov, ft, corpus,
# findings, commit); the summary line printed per target gives this run and the total over runs.tsv. Crashes and
# hangs are written to $FUZZ_BUILD/artifacts/<target>-*. Exit status 1 when a target found something: reproduce with
#   NPUSCOPE_FUZZ_TARGET=<target> $FUZZ_BUILD/fuzz/npuscope-fuzz <artifact>,
# fix the bug and copy the artifact to tests/data/fuzz-regressions/<target>-<what>.input.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${1:-all}"
seconds="${2:-60}"
build="${FUZZ_BUILD:-$root/build/asan}"
corpora="${FUZZ_CORPUS:-$build/corpus}"
exe="$build/fuzz/npuscope-fuzz"

if [[ "${FUZZ_NO_BUILD:-0}" != 1 ]]; then
    "$root/scripts/asan-configure.sh" "$build"
    nice cmake --build "$build" -j"${FUZZ_JOBS:-2}" --target npuscope-fuzz
fi

# Seeds: copies of the tests/data files each target reads (libFuzzer truncates them to the target's max_len),
# folder descriptions of every tests/data case (detection, whole loads), valid parse-cache entries.
make_seeds() {
    local name="$1" globs="$2" dir="$3"
    rm -rf "$dir" && mkdir -p "$dir"
    case "$globs" in
    @folders)
        python3 - "$root/tests/data" "$dir" <<'PY'
import os, sys
data, out = sys.argv[1], sys.argv[2]
def esc(b):
    return b.decode("utf-8", "replace").replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")
for case in sorted(os.listdir(data)):
    if case == "fuzz-regressions" or not os.path.isdir(os.path.join(data, case)):
        continue
    lines = []
    for dirpath, _, files in os.walk(os.path.join(data, case)):
        for f in sorted(files):
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, data)
            size = os.path.getsize(full)
            # Small files with their content (rank ids, metadata), big ones as names only.
            lines.append(rel + ("\t" + esc(open(full, "rb").read()) if size <= 2048 else ""))
    open(os.path.join(out, case + ".txt"), "w").write("\n".join(lines[:64]) + "\n")
PY
        ;;
    @cache)
        NPUSCOPE_FUZZ_TARGET="$name" NPUSCOPE_FUZZ_WRITE_SEEDS="$dir" "$exe" >/dev/null 2>&1 || true
        ;;
    *)
        local n=0
        for g in $globs; do
            while IFS= read -r -d '' f; do
                n=$((n + 1))
                cp "$f" "$dir/seed-$n-$(basename "$f")"
            done < <(find "$root/tests/data" -path "$root/tests/data/fuzz-regressions" -prune -o -type f -name "$g" -print0)
        done
        ;;
    esac
    # The hostile inputs of the regression folder are seeds of every target.
    cp "$root"/tests/data/fuzz-regressions/* "$dir"/ 2>/dev/null || true
    rm -f "$dir/README.md"
}

dict_for() {
    case "$1" in
    *.csv*) echo "$root/fuzz/dict/csv.dict" ;;
    *.json* | *info.json*) echo "$root/fuzz/dict/json.dict" ;;
    @folders) echo "$root/fuzz/dict/folder.dict" ;;
    *) echo "" ;;
    esac
}

status=0
found=0
commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
mkdir -p "$corpora"
ledger="$corpora/runs.tsv"
[[ -f "$ledger" ]] || printf 'date\ttarget\tseconds\texecs\texec_per_s\tcov\tft\tcorpus\tfindings\tcommit\n' >"$ledger"
while IFS=$'\t' read -r name maxlen globs; do
    [[ "$target" == all || "$target" == "$name" ]] || continue
    found=1
    corpus="$corpora/$name" seeds="$build/seeds/$name" artifacts="$build/artifacts"
    mkdir -p "$corpus" "$artifacts"
    make_seeds "$name" "$globs" "$seeds"
    dict="$(dict_for "$globs")"
    log="$build/logs/$name.log"
    mkdir -p "$(dirname "$log")"
    before=$(find "$artifacts" -name "$name-*" | wc -l)
    NPUSCOPE_FUZZ_TARGET="$name" nice -n "${FUZZ_NICE:-19}" "$exe" "$corpus" "$seeds" -max_total_time="$seconds" \
        -max_len="$maxlen" -timeout=20 -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -print_final_stats=1 \
        -artifact_prefix="$artifacts/$name-" ${dict:+-dict="$dict"} >"$log" 2>&1 || true
    after=$(find "$artifacts" -name "$name-*" | wc -l)
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
    [[ -n "$execs" ]] || { status=1; tail -3 "$log"; }
    size=$(find "$corpus" -type f | wc -l)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "$seconds" "${execs:-0}" \
        "${rate:-0}" "${cov:-}" "${ft:-}" "$size" "$((after - before))" "$commit" >>"$ledger"
    total=$(awk -F'\t' -v t="$name" '$2 == t { s += $4 } END { print s + 0 }' "$ledger")
    printf '%-30s execs %-9s exec/s %-6s cov %-6s ft %-6s corpus %-6s findings %s  (total execs %s)\n' "$name" \
        "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$size" "$((after - before))" "$total"
    if ((after > before)) || grep -q 'ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:\|ERROR: libFuzzer' "$log"; then
        status=1
        grep -m3 'ERROR\|runtime error\|SUMMARY' "$log" || true
    fi
done < <(NPUSCOPE_FUZZ_LIST=1 "$exe" 2>/dev/null)
((found)) || { echo "fuzz.sh: no target named $target (NPUSCOPE_FUZZ_LIST=1 $exe lists them)" >&2; exit 2; }
exit $status

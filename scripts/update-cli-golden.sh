#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates tests/golden/cli: the output of every npuscope-cli report command on every real sample in tests/data,
# as CliGolden.* (tests/core/cli/CliGoldenTest.cpp) compares it. Review the diff before committing it: a changed figure
# must be explained in the commit message.
#   scripts/update-cli-golden.sh [CLI]        (default build/ci/npuscope-cli)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/ci/npuscope-cli}"
out="$root/tests/golden/cli"
data="$root/tests/data"
cache="$(mktemp -d)"
copies="$(mktemp -d)"
trap 'rm -rf "$cache" "$copies"' EXIT
# The commands and their arguments; the list CliGoldenTest.cpp reads (tests/golden/cli/COMMANDS).
commands="$out/COMMANDS"
rm -rf "${out:?}"/*/
while IFS= read -r original; do
  name="$(basename "$original")"
  # A copy whose files and folders all carry one time, as CliGoldenTest runs it: the detector keeps the newest of
  # several folders of one rank by file time, and a fresh clone's checkout times are in no fixed order.
  sample="$copies/$name"
  cp -r "$original" "$sample"
  find "$sample" -depth -exec touch -d '2025-01-01 00:00:00' {} +
  mkdir -p "$out/$name"
  while IFS='|' read -r file args; do
    [[ -z "$file" || "$file" == \#* ]] && continue
    status=0
    # shellcheck disable=SC2086
    XDG_CACHE_HOME="$cache" "$cli" $args "$sample" >"$out/$name/$file.tmp" 2>/dev/null || status=$?
    sed "s|$copies|<data>|g" "$out/$name/$file.tmp" >"$out/$name/$file"
    echo "# exit $status" >>"$out/$name/$file"
    rm "$out/$name/$file.tmp"
  done <"$commands"
done < <(find "$data" -mindepth 1 -maxdepth 1 -type d ! -name fuzz-regressions | sort)
du -sh "$out"

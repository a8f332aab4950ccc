#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A scripted session in a real X11 window, as a user would drive it: Xvfb (+ openbox when installed) at a screen size,
# npuscope opened on each PATH, then the command palette (Ctrl+K) and the view shortcuts (Ctrl+1…9), "Expand all ranks",
# a rank and a step selected by name, screenshots along the way. npuscope runs with its stall watchdog
# (NPUSCOPE_STALL_WATCHDOG=1): every GUI-thread stall over 100 ms is logged with its stack, and the longest one is
# written at exit. The script fails when that longest stall is over --max-stall-ms (default 100) or the window froze.
#
#   scripts/gui-session.sh [--size 1920x1080] [--out DIR] [--exe build/ci/npuscope] [--max-stall-ms 100]
#                          [--wait-seconds 120] PATH...
#
# Needs xvfb and xdotool from Debian (scripts/deps.sh installs them), imagemagick's import for the screenshots
# (NPUSCOPE_SESSION_SHOTS=0 takes none and does not need it); openbox is optional (a window manager gives the window
# focus the way a desktop does). Exits 77 when a tool is missing (ctest counts that as skipped). Prints one
# "name value unit" line per figure.
#
# ctest runs it as GuiSession.Samples (tests/CMakeLists.txt) on two real samples at 1366x768 without screenshots and
# with --max-stall-ms 1000: there it proves the window opens, loads, answers the palette and the shortcuts and quits
# (no frozen frame), and prints the longest stall; the 100 ms figure is checked by running this script by hand, as a
# benchmark, at 1366x768 and 1920x1080, never as a timed pass/fail on a shared CI machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
size=1920x1080
out="$root/build/gui-session"
exe="$root/build/ci/npuscope"
maxStall=100
waitSeconds=120
paths=()
while (($#)); do
  case "$1" in
    --size) size="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --exe) exe="$2"; shift 2 ;;
    --max-stall-ms) maxStall="$2"; shift 2 ;;
    --wait-seconds) waitSeconds="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) paths+=("$1"); shift ;;
  esac
done
if ((${#paths[@]} == 0)); then
  echo "usage: scripts/gui-session.sh [--size WxH] [--out DIR] [--exe EXE] [--max-stall-ms MS] PATH..." >&2
  exit 2
fi
tools=(Xvfb xdotool)
[ "${NPUSCOPE_SESSION_SHOTS:-1}" = 0 ] || tools+=(import)
for tool in "${tools[@]}"; do
  command -v "$tool" >/dev/null || { echo "gui-session: $tool is not installed (apt-get install xvfb xdotool imagemagick)" >&2; exit 77; }
done
[[ -x "$exe" ]] || { echo "gui-session: no executable $exe (build first)" >&2; exit 2; }
mkdir -p "$out"

# A free display number.
display=99
while [[ -e /tmp/.X11-unix/X$display || -e /tmp/.X$display-lock ]]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 "${size}x24" -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb=$!
wm=""
cleanup() {
  [[ -n "${app:-}" ]] && kill "$app" 2>/dev/null || true
  [[ -n "$wm" ]] && kill "$wm" 2>/dev/null || true
  kill "$xvfb" 2>/dev/null || true
}
trap cleanup EXIT
export DISPLAY=":$display"
# The real X11 platform, also when the caller runs the offscreen one (scripts/test.sh exports QT_QPA_PLATFORM=offscreen).
export QT_QPA_PLATFORM=xcb
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
if command -v openbox >/dev/null; then
  openbox >"$out/openbox.log" 2>&1 &
  wm=$!
  sleep 0.5
fi

# NPUSCOPE_SESSION_SHOTS=0 takes none: a 1920x1080 grab (import -window root, one GetImage) holds the
# single-threaded X server for ~0.1 s, and a paint that needs a reply meanwhile waits for it.
shot() { [ "${NPUSCOPE_SESSION_SHOTS:-1}" = 0 ] && return 0; import -window root "$out/$1.png" 2>/dev/null || true; }
key() { xdotool key --clearmodifiers "$@"; sleep 0.4; }
# Types a query into the command palette and runs the first match.
palette() {
  key ctrl+k
  xdotool type --delay 20 "$1"
  sleep 0.3
  key Return
}

status=0
n=0
for path in "${paths[@]}"; do
  n=$((n + 1))
  name="session$n"
  report="$out/$name-stalls.txt"
  rm -f "$report"
  # A fresh settings folder: the first-run layout, no recent list, no saved session.
  export XDG_CONFIG_HOME="$out/$name-config"
  rm -rf "$XDG_CONFIG_HOME"
  # Its own parse cache too: the user's cache is neither read nor filled.
  export XDG_CACHE_HOME="$out/$name-cache"
  rm -rf "$XDG_CACHE_HOME"
  NPUSCOPE_STALL_WATCHDOG=1 NPUSCOPE_STALL_REPORT="$report" "$exe" "$path" >"$out/$name.log" 2>&1 &
  app=$!
  start=$SECONDS
  win=""
  for _ in $(seq 100); do
    win=$(xdotool search --onlyvisible --name npuscope 2>/dev/null | head -1 || true)
    [[ -n "$win" ]] && break
    sleep 0.1
  done
  [[ -n "$win" ]] || { echo "gui-session: no window for $path" >&2; status=1; continue; }
  # Maximised, as on a laptop (the window manager keeps the title bar and the status bar on the screen); the title
  # gets the folder's name once the profile is loaded.
  xdotool windowstate --add MAXIMIZED_VERT,MAXIMIZED_HORZ "$win" 2>/dev/null || xdotool windowsize "$win" 100% 100% 2>/dev/null || true
  xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus "$win" 2>/dev/null || true
  loaded=0
  while ((SECONDS - start < waitSeconds)); do
    title=$(xdotool getwindowname "$win" 2>/dev/null || true)
    if [[ "$title" == *" — npuscope" ]]; then loaded=1; break; fi
    sleep 0.2
  done
  echo "$name.open_s $((SECONDS - start)) s"
  ((loaded)) || { echo "gui-session: $path did not load in ${waitSeconds}s" >&2; status=1; }
  sleep 2
  shot "$name-1-opened"
  # The main views by their shortcuts, then by the palette.
  for k in 1 2 3 4 5 6 7 8 9; do key "ctrl+$k"; done
  shot "$name-2-shortcuts"
  palette "timeline"
  palette "expand all ranks"
  sleep 1
  shot "$name-3-expand-all"
  palette "advice"
  palette "blame"
  palette "critical path"
  sleep 3
  shot "$name-3b-critical-path"
  palette "rank 1"
  palette "step"
  palette "operators"
  palette "cluster steps"
  sleep 2
  shot "$name-4-views"
  key Escape
  # Quit through the menu shortcut so the stall report is written.
  key ctrl+q
  for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$app" 2>/dev/null; then
    echo "gui-session: npuscope did not quit on Ctrl+Q (frozen?)" >&2
    kill "$app" 2>/dev/null || true
    status=1
  fi
  wait "$app" 2>/dev/null || true
  app=""
  if [[ ! -s "$report" ]]; then
    echo "gui-session: no stall report from $path" >&2
    status=1
    continue
  fi
  stall=$(awk '/^max_stall_ms/ {print $2}' "$report")
  over=$(awk '/^stalls_over_100ms/ {print $2}' "$report")
  echo "$name.max_stall_ms $stall ms"
  echo "$name.stalls_over_100ms $over stalls"
  if awk -v s="$stall" -v m="$maxStall" 'BEGIN { exit !(s > m) }'; then
    echo "gui-session: $path: the GUI thread stalled ${stall} ms (limit ${maxStall} ms); stacks in $report" >&2
    status=1
  fi
done
exit $status

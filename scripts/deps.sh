#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian 12 packages npuscope needs, only when something is missing.
set -euo pipefail

PACKAGES=(build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libgl-dev libxkbcommon-dev
  libsqlite3-dev nlohmann-json3-dev libsimdjson-dev libspdlog-dev libfmt-dev libgtest-dev libgmock-dev
  zlib1g-dev qt6-l10n-tools qt6-tools-dev)
# GUI: CJK glyphs for the Chinese interface (without them Chinese text shows as boxes).
PACKAGES+=(fonts-noto-cjk)
# Optional, with --test-extras: what tests/core/cli/CollectTest.cpp needs (it starts its own sshd on 127.0.0.1 and is
# skipped without them). npuscope-cli collect itself needs only the ssh client and rsync.
if [ "${1:-}" = "--test-extras" ]; then
  PACKAGES+=(openssh-client openssh-server rsync)
fi
# The scripted X11 session of the tests (scripts/gui-session.sh, ctest GuiSession.Samples): a virtual X server, a
# small window manager for focus, and xdotool to type and click.
PACKAGES+=(xvfb openbox xdotool)
# The sanitizer build and the fuzz smoke run of scripts/test.sh (clang with libFuzzer and its sanitizer runtimes).
PACKAGES+=(clang-14 libclang-rt-14-dev)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "npuscope: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

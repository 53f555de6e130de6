#!/usr/bin/env bash
# Installs the Debian packages collide builds with, skipping those already present; given
# package names, installs those instead (scripts/install-clang.sh).
# Usage: install-deps.sh [PACKAGE...]
set -euo pipefail
pkgs=(g++ cmake ninja-build pkg-config libcli11-dev libyaml-cpp-dev libfmt-dev catch2
      libbenchmark-dev libmuparser-dev ccache libtbb-dev nlohmann-json3-dev python3 clang-format
      help2man dpkg-dev libtinyobjloader-dev libbullet-dev libode-dev)
[ $# -gt 0 ] && pkgs=("$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

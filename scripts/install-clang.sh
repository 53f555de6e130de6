#!/usr/bin/env bash
# Installs Clang and its libFuzzer and sanitizer runtimes (the sanitizer job builds with them:
# scripts/sanitize.sh, scripts/fuzz.sh), skipping what is already present. The main set-up
# (scripts/install-deps.sh) does not need them.
set -euo pipefail
missing=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

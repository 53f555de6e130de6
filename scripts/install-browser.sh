#!/usr/bin/env bash
# Installs headless Chromium for the browser tests (scripts/browser-test.py), when missing.
# scripts/test.sh calls it under CI; the main job's set-up (scripts/build.sh) does not need it.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends chromium

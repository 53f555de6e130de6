#!/usr/bin/env bash
# Installs Clang and its libFuzzer and sanitizer runtimes, which the sanitizer job builds with
# (scripts/sanitize.sh, scripts/fuzz.sh); the main set-up (scripts/install-deps.sh) does not
# need them.
set -euo pipefail
bash "$(dirname "$0")/install-deps.sh" clang libclang-rt-14-dev

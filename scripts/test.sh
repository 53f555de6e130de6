#!/usr/bin/env bash
# Builds collide and runs every test: the Catch2 suite through ctest, then `collide check`
# over the shipped scenarios against their goldens in expected/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh all
# The browser tests need headless Chromium: CI installs it; elsewhere they say they are skipped.
if [ -n "${CI:-}" ]; then bash scripts/install-browser.sh; fi
ctest --test-dir build --output-on-failure -j"$(nproc)"
bash scripts/skipped-tests.sh build # each skipped test with its reason
# The shipped scenarios against their goldens (and their expectations).
./build/collide check --jobs "$(nproc)"

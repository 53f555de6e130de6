#!/usr/bin/env bash
# Builds collide and runs every test: the Catch2 suite through ctest, then `collide check`
# over the shipped scenarios against their goldens in expected/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh all
# The browser tests need headless Chromium and the Slurm test slurm-wlm and munge: CI installs
# them; elsewhere they say they are skipped.
if [ -n "${CI:-}" ]; then
  bash scripts/install-browser.sh
  bash scripts/install-slurm.sh
fi
ctest --test-dir build --output-on-failure -j"$(nproc)"
bash scripts/skipped-tests.sh build # each skipped test with its reason
# The shipped scenarios against their goldens (and their expectations).
./build/collide check --jobs "$(nproc)"
# The same scenarios run by every other engine against its goldens (expected/NAME.ENGINE.log).
bash scripts/check-engines.sh build "$(nproc)"
# Every golden written afresh, byte for byte the committed one (check passes a value within its
# tolerance: a golden gone stale in its low digits would pass for ever).
bash scripts/check-goldens-afresh.sh build "$(nproc)"

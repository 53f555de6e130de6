#!/usr/bin/env bash
# Re-blesses the determinism hashes (tests/determinism/hashes.txt) from ./build: use it when a
# change moves the physics on purpose, then commit the file and say in the commit why the
# results moved. Every other build of the CI matrix (scripts/second-build.sh) must then give
# the same hashes.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build --target collide_tests
COLLIDE_BLESS_HASHES=1 ./build/collide_tests "[determinism]"
git --no-pager diff --stat -- tests/determinism/hashes.txt

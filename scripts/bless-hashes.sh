#!/usr/bin/env bash
# Regenerates the committed determinism hashes, tests/determinism/hashes.txt, from ./build: the
# one command to run when a change moves the physics on purpose (README, Testing). It builds
# collide_tests (configuring ./build as scripts/build.sh does if needed), runs the determinism
# tests with COLLIDE_BLESS_HASHES=1 (which writes every scene's hash), runs them again as CI
# does to show the new file reproduces, and prints which scenes changed. Commit the file and say
# in the commit why the results moved; every other build of the CI matrix
# (scripts/second-build.sh) must then give the same hashes. The goldens are regenerated apart:
# `./build/collide check --update` (or `collide review`).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f build/build.ninja ]; then
  cmake --build build --target collide_tests # as configured (CI's -Werror kept)
else
  bash scripts/build.sh collide_tests
fi
COLLIDE_BLESS_HASHES=1 ./build/collide_tests "[determinism]"
./build/collide_tests "[determinism]"
git --no-pager diff --stat -- tests/determinism/hashes.txt
git --no-pager diff -U0 -- tests/determinism/hashes.txt | grep '^[-+][a-z]' || echo "bless-hashes: no hash changed"

#!/usr/bin/env bash
# Installs what is missing, configures and builds collide in ./build (Release, Ninja).
# Builds the program only (target `collide`), or the targets given: `build.sh all` builds the
# tests, the benchmarks and the man page too (scripts/test.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# CI builds with warnings as errors.
werror=OFF
[ -n "${CI:-}" ] && werror=ON
# -DCOLLIDE_ENGINES=ON: a missing Bullet fails the build instead of skipping its tests.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_WERROR="$werror" -DCOLLIDE_ENGINES=ON >/dev/null
cmake --build build -j"$(nproc)" --target "${@:-collide}"

#!/usr/bin/env bash
# Records tests/determinism/tumble.clang.rec with a Clang build of this source: the recording
# ctest holds this build's run of scenarios/tumble.yaml to, bit for bit
# (tests/determinism/other_build_test.cpp). Builds the program alone in build-clang/ (Release).
# Run it when the physics moves on purpose (or the scenario changes), and commit the recording
# with the goldens.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang++ >/dev/null || { echo "record-other-build: needs clang++ (apt-get install clang)" >&2; exit 2; }
werror=OFF
[ -n "${CI:-}" ] && werror=ON
cmake -S . -B build-clang -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BENCH=OFF -DCOLLIDE_WERROR="$werror" \
  -DCOLLIDE_ENGINES=ON -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build build-clang -j"${COLLIDE_JOBS:-$(nproc)}" --target collide
./build-clang/collide sim scenarios/tumble.yaml --record tests/determinism/tumble.clang.rec >/dev/null
echo "record-other-build: tests/determinism/tumble.clang.rec ($(stat -c %s tests/determinism/tumble.clang.rec) bytes)"

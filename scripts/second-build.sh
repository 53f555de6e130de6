#!/usr/bin/env bash
# The same source built another way, as README's Reliability section promises it: with GCC for
# this machine's CPU (-march=native: FMA where the CPU has it, so any a*b + c the floating-point
# contract failed to keep unfused would show), in build-native/, which builds only the program
# and collide_fp_tests (the contract, the project's sine and cosine, the determinism hashes, the
# watertight mesh queries); then `collide check` runs the shipped scenarios against the goldens
# the default build wrote, collide_fp_tests must pass, hashes included, and its recordings of
# three scenes must be the default build's bit for bit (scripts/compare-recordings.sh). Collide's
# own engine only (-DCOLLIDE_ENGINES=OFF): this build checks collide's goldens, and the other
# engines (the vendored Box3D's C among them) would double its compile time for nothing it checks.
# The Clang build is the sanitizer job's (scripts/sanitize.sh). CI runs this from .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs="${COLLIDE_JOBS:-$(nproc)}"
werror=OFF
[ -n "${CI:-}" ] && werror=ON

dir=build-native
start=$SECONDS
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BENCH=OFF -DCOLLIDE_WERROR="$werror" -DCOLLIDE_ENGINES=OFF \
  -DCMAKE_CXX_FLAGS=-march=native >/dev/null
cmake --build "$dir" -j"$jobs" --target collide collide_fp_tests
# CI=true: a difference is a failure, never a pending result beside the goldens.
CI=true "./$dir/collide" check --jobs "$jobs"
"./$dir/collide_fp_tests" --warn NoAssertions
bash scripts/compare-recordings.sh build "$dir"
echo "second-build: native passed in $((SECONDS - start)) s"

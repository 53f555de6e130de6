#!/usr/bin/env bash
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer, built with Clang: one
# build in build-asan/ (Debug, -O1, -fsanitize=address,undefined, any UB report fails) that is
# also CI's Clang build and its libFuzzer build, so the three share one compile:
#  - ctest: the whole Catch2 suite, which runs the built collide for its end-to-end tests, also
#    instrumented. The install, engine-plugin and package tests, the format check, the Slurm and
#    GitHub Actions recipes and the browser test (Chromium's time, not collide's memory: the
#    pages' writers run instrumented in the Catch2 suite) are left to the main job, and so are
#    the tests labelled `heavy` (the suite's slowest, the same code as smaller tests at a larger
#    scale — thousands of bodies, every shipped scenario again, 20 killed sweeps, the Bullet
#    sweeps of hundreds of cells; cmake/discover_tests.cmake), which would take most of this
#    job's time.
#  - Clang's bits: the suite above holds the floating-point contract, the project's sine and
#    cosine and the determinism hashes; then `collide check` of the shipped scenarios against the
#    goldens the default GCC build wrote (CI=true: a difference fails), every other engine's
#    goldens, and recordings of three scenes that must be the default build's bit for bit
#    (collide diverge). Optimised differently (-O1) and instrumented, and still the same bits:
#    README's Reliability.
#  - the libFuzzer harness (COLLIDE_FUZZ=ON: the library also carries libFuzzer's coverage
#    counters, which cost the tests nothing they check) for SECONDS seconds (default 60,
#    scripts/fuzz.sh).
# The vendored Box3D (C, not instrumented) is built at -O2: only collide's C++ is what this job
# checks.
# Usage: sanitize.sh [FUZZ_SECONDS]. Needs the default build in build/ (scripts/build.sh) for the
# recordings it compares against.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz_seconds="${1:-60}"
bash scripts/install-clang.sh
jobs="${COLLIDE_JOBS:-2}"
werror=OFF
[ -n "${CI:-}" ] && werror=ON
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# -g1: line tables only, enough for the reports' stack traces with file and line, at a fraction
# of full debug information's compile and link time.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" -DCMAKE_C_FLAGS_DEBUG="-g1 -O2" -DCOLLIDE_BENCH=OFF -DCOLLIDE_ENGINES=ON \
  -DCOLLIDE_FUZZ=ON -DCOLLIDE_WERROR="$werror" \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build build-asan -j"$jobs"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Known leaks of the libraries (not collide's), each with its reason in the file.
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0"
ctest --test-dir build-asan -j"$jobs" --output-on-failure -LE heavy \
  -E '^(format|install|engine-plugin|package|slurm|slurm-from-private-clone|github-example|browser-[0-9]+)$'
CI=true ./build-asan/collide check --jobs "$jobs"
bash scripts/check-engines.sh build-asan "$jobs"
bash scripts/compare-recordings.sh build build-asan
bash scripts/fuzz.sh "$fuzz_seconds" build-asan

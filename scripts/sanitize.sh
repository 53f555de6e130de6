#!/usr/bin/env bash
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer: a Debug build in
# build-asan/ with -fsanitize=address,undefined (any UB report fails), then ctest (the whole
# Catch2 suite, which runs the built collide for its end-to-end tests, also instrumented) and
# `collide check` of the shipped scenarios; the install, engine-plugin and package tests, the format check and
# the Slurm and GitHub Actions recipes and the browser test (Chromium's time, not collide's
# memory: the pages' writers run instrumented in the Catch2 suite) are left to the main job, and so
# are the test cases tagged [heavy] (ctest label `heavy`: the suite's slowest, the same code as
# smaller tests at a larger scale — thousands of bodies, every shipped scenario again, 20 killed
# sweeps; cmake/discover_tests.cmake), which would take most of this job's time. About
# 6–9 minutes on 2 cores from a cold cache. The vendored Box3D (C, not instrumented) is built
# at -O2: only collide's C++ is what this job checks.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${COLLIDE_JOBS:-2}"
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# -g1: line tables only, enough for the reports' stack traces with file and line, at a fraction
# of full debug information's compile and link time.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" -DCMAKE_C_FLAGS_DEBUG="-g1 -O2" -DCOLLIDE_BENCH=OFF -DCOLLIDE_ENGINES=ON \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build build-asan -j"$jobs"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Known leaks of the libraries (not collide's), each with its reason in the file.
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0"
ctest --test-dir build-asan -j"$jobs" --output-on-failure -LE heavy -E '^(format|install|engine-plugin|package|slurm|github-example|browser)$'
./build-asan/collide check --jobs "$jobs"
bash scripts/check-engines.sh build-asan "$jobs"

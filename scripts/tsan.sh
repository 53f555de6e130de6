#!/usr/bin/env bash
# The world's tests under ThreadSanitizer (issue 30): collide_world_tests (tests/world/ and the
# determinism hashes; CMakeLists.txt) built with -fsanitize=thread (-O1, build-tsan/), then all of
# them — one world stepped on 1, 2, 3 and 8 threads, the thread pool, the broadphase's chunks —
# with any report failing the run. The world's threads are its own (std::thread, atomics, a mutex
# and a condition variable: lib/world/parallel.cpp), all of which ThreadSanitizer sees: a report
# is a race between blocks of one stage of the step, or in the threads' own hand-over.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${COLLIDE_JOBS:-2}"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOLLIDE_BENCH=OFF -DCOLLIDE_ENGINES=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS="-fsanitize=thread" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" >/dev/null
cmake --build build-tsan -j"$jobs" --target collide_world_tests
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
# All but the [heavy] test cases that step on one thread (the broadphase against all pairs, the
# grid of impacts inside a step: 56 s here, and no second thread for ThreadSanitizer to watch);
# the [heavy] one that steps every scene on 1, 2, 3 and 8 threads runs.
./build-tsan/collide_world_tests "~[heavy],[threads]"
echo "tsan: the world's tests ran clean under ThreadSanitizer"

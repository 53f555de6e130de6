#!/usr/bin/env bash
# Runs the libFuzzer harness for SECONDS seconds (default 60) from fuzz/corpus/. New inputs go to
# BUILD_DIR/corpus/, crashes to BUILD_DIR/ (the run fails on the first one). BUILD_DIR (default
# build-fuzz/) is a Clang build with COLLIDE_FUZZ=ON (ASan + UBSan + coverage); this script
# configures build-fuzz/ itself when it is not given one (scripts/sanitize.sh gives it build-asan/).
# Usage: fuzz.sh [SECONDS] [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
dir="${2:-build-fuzz}"
bash scripts/install-clang.sh
jobs="${COLLIDE_JOBS:-2}"
if [ ! -f "$dir/CMakeCache.txt" ]; then
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
    -DCOLLIDE_FUZZ=ON -DCOLLIDE_TESTS=OFF -DCOLLIDE_BENCH=OFF -DCOLLIDE_ENGINES=OFF >/dev/null # collide's own engine only
fi
cmake --build "$dir" -j"$jobs" --target collide_fuzz
mkdir -p "$dir/corpus"
"./$dir/fuzz/collide_fuzz" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -max_total_time="$seconds" \
  -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" fuzz/corpus

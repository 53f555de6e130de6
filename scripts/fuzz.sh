#!/usr/bin/env bash
# Builds the libFuzzer harness with clang (build-fuzz/, COLLIDE_FUZZ=ON: ASan + UBSan + coverage)
# and runs it for SECONDS seconds (default 60) from fuzz/corpus/. New inputs go to
# build-fuzz/corpus/, crashes to build-fuzz/ (the run fails on the first one).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
# clang and its libFuzzer runtime: only this job needs them, so the main set-up does not install them.
for p in clang libclang-rt-14-dev; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev
    break
  fi
done
jobs="${COLLIDE_JOBS:-2}"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
  -DCOLLIDE_FUZZ=ON -DCOLLIDE_TESTS=OFF -DCOLLIDE_BENCH=OFF -DCOLLIDE_ENGINES=OFF >/dev/null # collide's own engine only
cmake --build build-fuzz -j"$jobs" --target collide_fuzz
mkdir -p build-fuzz/corpus
./build-fuzz/fuzz/collide_fuzz -max_len=4096 -timeout=10 -rss_limit_mb=2048 -max_total_time="$seconds" \
  -print_final_stats=1 -artifact_prefix=build-fuzz/ build-fuzz/corpus fuzz/corpus

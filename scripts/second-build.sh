#!/usr/bin/env bash
# The same source built two more ways, as README's Reliability section promises it: with Clang,
# and with GCC for this machine's CPU (-march=native: FMA where the CPU has it, so any a*b + c
# the floating-point contract failed to keep unfused would show). Each build has a folder of
# its own (build-clang/, build-native/) and builds only the program and collide_fp_tests (the
# contract, the project's sine and cosine, the determinism hashes, the watertight mesh queries);
# then `collide check` runs the shipped scenarios against the goldens the default build wrote,
# and collide_fp_tests must pass, hashes included, and its recordings of three scenes must be the
# default build's bit for bit (collide diverge). Collide's own engine only (-DCOLLIDE_ENGINES=OFF):
# these builds check collide's goldens, and the other engines (the vendored Box3D's C among them)
# would double their compile time for nothing they check. CI runs this from .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# clang (scripts/fuzz.sh needs it as well).
if ! dpkg-query -W -f='${Status}' clang 2>/dev/null | grep -q 'install ok installed'; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends clang
fi
jobs="${COLLIDE_JOBS:-$(nproc)}"
werror=OFF
[ -n "${CI:-}" ] && werror=ON

one_build() { # NAME CMAKE_ARGS...
  local name="$1"
  shift
  local dir="build-$name"
  local start=$SECONDS
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BENCH=OFF -DCOLLIDE_WERROR="$werror" -DCOLLIDE_ENGINES=OFF "$@" >/dev/null
  cmake --build "$dir" -j"$jobs" --target collide collide_fp_tests
  # CI=true: a difference is a failure, never a pending result beside the goldens.
  CI=true "./$dir/collide" check --jobs "$jobs"
  "./$dir/collide_fp_tests" --warn NoAssertions
  # A recording of this build against the default build's, frame by frame and bit for bit
  # (collide diverge: exit 0 when they never differ): a tumbling crate and a pile of turned ones.
  local runs
  runs=$(mktemp -d)
  for scenario in scenarios/tumble.yaml scenarios/stack.yaml scenarios/dominoes.yaml; do
    ./build/collide sim "$scenario" --record "$runs/default.rec" >/dev/null
    "./$dir/collide" sim "$scenario" --record "$runs/$name.rec" >/dev/null
    ./build/collide diverge "$runs/default.rec" "$runs/$name.rec" | tail -1
  done
  rm -rf "$runs"
  echo "second-build: $name passed in $((SECONDS - start)) s"
}

one_build clang -DCMAKE_CXX_COMPILER=clang++
one_build native -DCMAKE_CXX_FLAGS=-march=native

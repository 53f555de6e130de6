#!/usr/bin/env bash
# Shows that the goldens do not depend on the last bits of the C library's transcendental
# functions (README, Reliability): `collide check` of the shipped scenarios with every sin,
# cos, tan, asin, acos, atan, atan2, exp, log, pow, … result of the system libm moved by one ulp
# up, one ulp down, and by two ulps up or down as a hash of the argument decides
# (scripts/libm_perturb.c, preloaded). What still reaches libm — the functions in scenario
# expressions (muparser calls the system's) and lib/response/'s acos, pow, sin and cos — must
# then still reproduce every golden within its tolerance. Uses the program in BUILD_DIR (./build).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
shim="$build/libm_perturb.so"
cc -O2 -fno-builtin -shared -fPIC -o "$shim" scripts/libm_perturb.c -ldl -lm
for ulps in +1 -1 h2; do
  echo "libm-perturb: collide check with libm results moved by $ulps ulp"
  CI=true COLLIDE_LIBM_ULPS="$ulps" COLLIDE_LIBM_REPORT=1 LD_PRELOAD="$PWD/$shim" \
    "./$build/collide" check --jobs "${COLLIDE_JOBS:-$(nproc)}" | tail -n 1
done

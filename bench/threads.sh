#!/usr/bin/env bash
# One world stepped on 1 and 2 threads (issue 30), beside Box3D on 1 and 2 workers, in one run:
# Box3D's large_pyramid (100 rows of touching cubes, 200 steps, sleeping off: scripts/make-pyramid.py)
# and the 10,000-sphere rain (bullet_rain's layout, 60 frames: bench/rain.h). Whole-process wall
# seconds of `collide sim FILE --jobs J`, the best of REPEAT runs taken in turn (the machine is
# shared: the best is the least disturbed), the speed-up of --jobs 2 over --jobs 1, whether the
# two logs are the same bytes; and Box3D's step seconds on as many workers, run in turn with
# collide's and the best of as many kept, with collide's ratio to it on each count — and the same
# for Box3D's whole process (`box3d_process`: its scene built, as collide's is loaded) (BOX3D_RIGID,
# default $HOME/box3d_rigid/box3d_rigid; see ../shared/peers/box3d_rigid/README.md).
# Usage: bench/threads.sh            (REPEAT=3 JOBS="1 2" COLLIDE=./build/collide FRAMES=200)
set -euo pipefail
cd "$(dirname "$0")/.."
exe="${COLLIDE:-./build/collide}"
box3d="${BOX3D_RIGID:-$HOME/box3d_rigid/box3d_rigid}"
repeat="${REPEAT:-3}"
frames="${FRAMES:-200}"
read -r -a jobs <<< "${JOBS:-1 2}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 scripts/make-pyramid.py --rows 100 --frames "$frames" --touching --density 100 --gravity -10 \
  --ground-half 400 --no-sleep > "$dir/large_pyramid.yaml"
# bullet_rain's 10,000 spheres (r 0.2, 0.5 m apart, side 22: 20 full slabs in x, 14 rows, 12 more).
python3 - > "$dir/rain.yaml" <<'PY'
import math
n, side = 10000, math.ceil(round(10000 ** (1 / 3), 9))
slabs, rows, rest = n // (side * side), (n % (side * side)) // side, n % side
x0 = z0 = -side * 0.25
print("name: rain\nworld: { rate: 60, frames: 60, gravity: [0, -9.81, 0] }\nbodies:")
print("  floor: { static: true, box: { min: [-50, -2, -50], max: [50, 0, 50] }, restitution: 0.2, friction: 0.3 }")
def array(name, x, z, nx, ny, nz):
    print(f"  {name}: {{ sphere: {{ radius: 0.2 }}, position: [{x}, 1, {z}], restitution: 0.2, friction: 0.3, "
          f"array: {{ count: [{nx}, {ny}, {nz}], spacing: [0.5, 0.5, 0.5] }} }}")
if slabs: array("s", x0, z0, slabs, side, side)
if rows: array("t", x0 + slabs * 0.5, z0, 1, side, rows)
if rest: array("u", x0 + slabs * 0.5, z0 + rows * 0.5, 1, rest, 1)
print("log:\n  - final: { body: s0 }\n  - max_overlap: {}")
PY
box3d_ok=no
if [ "$frames" = 200 ] && [ -x "$box3d" ]; then box3d_ok=yes; fi
box3d_args_large_pyramid="large_pyramid"
box3d_args_rain="rain 10000 60"
# Box3D's seconds: its step loop's, as it prints them (setup not counted), and its whole process's
# wall seconds after a space (as collide's are taken).
box3d_seconds() {
  local start end steps
  start=$(date +%s.%N)
  steps=$("$box3d" "$@" | sed -n 's/.* seconds=\([0-9.]*\) .*/\1/p')
  end=$(date +%s.%N)
  echo "$steps $(echo "$end - $start" | bc)"
}
# keep_least ARRAY KEY VALUE: ARRAY[KEY] becomes VALUE if it has none or a larger one.
keep_least() {
  local -n least=$1
  if [ -z "${least[$2]:-}" ] || [ "$(echo "$3 < ${least[$2]}" | bc)" = 1 ]; then least[$2]=$3; fi
}
# peer_line LABEL ARRAY: Box3D's best seconds on each worker count and collide's ratio to them.
peer_line() {
  local -n seconds=$2
  local line="$1 $scene" j
  for j in "${jobs[@]}"; do line+=" workers${j}_seconds=$(printf '%.3f' "${seconds[$j]}")"; done
  for j in "${jobs[@]}"; do
    line+=" collide_over_box3d_$j=$(printf '%.2f' "$(echo "${best[$j]} / ${seconds[$j]}" | bc -l)")"
  done
  echo "$line"
}
for scene in large_pyramid rain; do
  declare -A best=()
  declare -A peer=()
  declare -A process=()
  args_var="box3d_args_$scene"
  read -r -a args <<< "${!args_var}"
  for ((r = 0; r < repeat; r++)); do
    for j in "${jobs[@]}"; do
      start=$(date +%s.%N)
      "$exe" sim "$dir/$scene.yaml" --jobs "$j" > "$dir/$scene.$j.log"
      end=$(date +%s.%N)
      t=$(echo "$end - $start" | bc)
      keep_least best "$j" "$t"
      if [ "$box3d_ok" = yes ]; then
        read -r t whole <<< "$(box3d_seconds "${args[@]}" --workers "$j")"
        keep_least peer "$j" "$t"
        keep_least process "$j" "$whole"
      fi
    done
  done
  line="collide $scene"
  for j in "${jobs[@]}"; do line+=" jobs${j}_seconds=$(printf '%.3f' "${best[$j]}")"; done
  if [ -n "${best[1]:-}" ] && [ -n "${best[2]:-}" ]; then
    line+=" speedup_2=$(printf '%.2f' "$(echo "${best[1]} / ${best[2]}" | bc -l)")"
  fi
  same=yes
  for j in "${jobs[@]}"; do cmp -s "$dir/$scene.${jobs[0]}.log" "$dir/$scene.$j.log" || same=no; done
  echo "$line same_log=$same"
  if [ "$box3d_ok" = yes ]; then
    peer_line box3d peer
    peer_line box3d_process process
  fi
  unset best peer process
done
if [ "$frames" != 200 ]; then
  echo "threads: Box3D's large_pyramid is 200 frames: not run beside FRAMES=$frames"
elif [ "$box3d_ok" != yes ]; then
  echo "threads: Box3D's harness not at $box3d (see ../shared/peers/box3d_rigid/README.md)"
fi

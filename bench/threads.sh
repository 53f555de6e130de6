#!/usr/bin/env bash
# One world stepped on 1 and 2 threads (issue 30), beside Box3D on 1 and 2 workers, in one run:
# Box3D's large_pyramid (100 rows of touching cubes, 200 steps, sleeping off: scripts/make-pyramid.py)
# and the 10,000-sphere rain (bullet_rain's layout, 60 frames: bench/rain.h). Whole-process wall
# seconds of `collide sim FILE --jobs J`, the best of REPEAT runs taken in turn (the machine is
# shared: the best is the least disturbed), the speed-up of --jobs 2 over --jobs 1, whether the
# two logs are the same bytes, and then Box3D's line for each scene and worker count (BOX3D_RIGID,
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
for scene in large_pyramid rain; do
  declare -A best=()
  for ((r = 0; r < repeat; r++)); do
    for j in "${jobs[@]}"; do
      start=$(date +%s.%N)
      "$exe" sim "$dir/$scene.yaml" --jobs "$j" > "$dir/$scene.$j.log"
      end=$(date +%s.%N)
      t=$(echo "$end - $start" | bc)
      if [ -z "${best[$j]:-}" ] || [ "$(echo "$t < ${best[$j]}" | bc)" = 1 ]; then best[$j]=$t; fi
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
  unset best
done
if [ "$frames" != 200 ]; then
  echo "threads: Box3D's large_pyramid is 200 frames: not run beside FRAMES=$frames"
elif [ -x "$box3d" ]; then
  for w in 1 2; do "$box3d" large_pyramid --workers "$w"; done
  for w in 1 2; do "$box3d" rain 10000 60 --workers "$w"; done
else
  echo "threads: Box3D's harness not at $box3d (see ../shared/peers/box3d_rigid/README.md)"
fi

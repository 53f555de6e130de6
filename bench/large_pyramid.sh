#!/usr/bin/env bash
# Box3D's own stacking benchmark beside Box3D in one run (issue 29): large_pyramid, 100 rows of
# touching unit cubes (5,050), density 100, friction 0.6, gravity -10, on a ground box of half
# extents (400, 1, 400) whose top is y = 0, sleeping off, 200 steps at 60 Hz — the scene of
# ../shared/peers/box3d_rigid's `large_pyramid`, written as a scenario by scripts/make-pyramid.py.
# For each budget (a quoted list of world settings; "" is collide's defaults) it prints collide's
# whole-process wall and CPU seconds and peak memory, the top cube's drift from its start and its
# speed, the bottom corner cube's drift, and the deepest overlap; then, when the Box3D harness is
# built (BOX3D_RIGID, default $HOME/box3d_rigid/box3d_rigid), Box3D's own line for the scene, on
# one worker and on two.
# With ENGINE=box3d the scenario runs through `--engine box3d` (budgets are collide's: give none)
# and the last line is the top cube's sag beside Box3D's own for the same scene, and their difference.
# Usage: bench/large_pyramid.sh [BUDGET...]   e.g. bench/large_pyramid.sh "" \
#          "velocity_iterations=10 position_iterations=4"        (ROWS=100 FRAMES=200 COLLIDE=./build/collide)
#        ENGINE=box3d bench/large_pyramid.sh
set -euo pipefail
cd "$(dirname "$0")/.."
exe="${COLLIDE:-./build/collide}"
box3d="${BOX3D_RIGID:-$HOME/box3d_rigid/box3d_rigid}"
rows="${ROWS:-100}"
frames="${FRAMES:-200}"
engine="${ENGINE:-collide}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
budgets=("$@")
if [ ${#budgets[@]} -eq 0 ]; then
  if [ "$engine" = collide ]; then budgets=("" "velocity_iterations=10 position_iterations=4"); else budgets=(""); fi
fi
for budget in "${budgets[@]}"; do
  # shellcheck disable=SC2086 # the budget is a list of KEY=VALUE words
  python3 scripts/make-pyramid.py --rows "$rows" --frames "$frames" --touching --density 100 --gravity -10 \
    --ground-half 400 --no-sleep $budget > "$dir/large_pyramid.yaml"
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S %M" -o "$dir/time" "$exe" sim "$dir/large_pyramid.yaml" --engine "$engine" --format json \
    > "$dir/log.json"
  end=$(date +%s.%N)
  read -r user sys rss < "$dir/time"
  python3 - "$dir/log.json" "$rows" "${budget:-defaults}" "$(echo "$end - $start" | bc)" "$(echo "$user + $sys" | bc)" \
    "$rss" "$engine" <<'PY' | tee "$dir/line"
import json, math, sys
log, rows, budget, wall, cpu, rss, engine = sys.argv[1:]
rows = int(rows)
entries = {e["id"]: e["fields"] for e in json.load(open(log))[0]["entries"]}
top, corner, overlap = entries["final"], entries["final_2"], entries["max_overlap"]
top_drift = math.dist((top["x"], top["y"], top["z"]), (0, rows - 0.5, 0))
corner_drift = math.dist((corner["x"], corner["y"], corner["z"]), (-(rows - 1) / 2, 0.5, 0))
speed = math.hypot(top["vx"], top["vy"], top["vz"])
who = "collide" if engine == "collide" else "collide --engine " + engine
print(f"{who} large_pyramid rows={rows} [{budget}] seconds={float(wall):.3f} cpu_seconds={float(cpu):.3f} "
      f"peak_mb={int(rss) // 1024} top_drift_m={top_drift:.5f} top_speed={speed:.4f} "
      f"corner_drift_m={corner_drift:.5f} deepest_overlap_m={overlap.get('depth', 0.0):.2e}")
PY
done
if [ "$rows" != 100 ] || [ "$frames" != 200 ]; then
  echo "large_pyramid: Box3D's large_pyramid is 100 rows and 200 frames: not run beside ROWS=$rows FRAMES=$frames"
elif [ -x "$box3d" ]; then
  "$box3d" large_pyramid | tee "$dir/box3d"
  "$box3d" large_pyramid --workers 2
  if [ "$engine" = box3d ]; then
    ours=$(sed -nE 's/.* top_drift_m=([0-9.]+) .*/\1/p' "$dir/line")
    theirs=$(sed -nE 's/.* top_drift_m=([0-9.]+) .*/\1/p' "$dir/box3d")
    python3 -c "import sys; a, b = map(float, sys.argv[1:]); print(f'top cube sag: collide --engine box3d {a:.5f} m, ' \
      f'Box3D\'s own {b:.5f} m, difference {abs(a - b):.2e} m')" "$ours" "$theirs"
  fi
else
  echo "large_pyramid: Box3D's harness not at $box3d (see ../shared/peers/box3d_rigid/README.md)"
fi

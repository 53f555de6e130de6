#!/usr/bin/env bash
# The rigid-body benchmark beside Bullet in one run (issue 18): a pyramid of B rows of unit cubes
# (B(B+1)/2 cubes in the x-y plane, 1 cm apart in x, stacked touching, friction 0.6, on a ground
# box), 500 frames at 60 Hz, as ../shared/peers/bullet_rigid builds it. Prints collide's wall and
# CPU seconds, the largest distance any cube ends from its start and whether the top cube came
# to rest; then, when the Bullet harness is built (BULLET_RIGID, default $HOME/bullet_rigid/
# bullet_rigid), Bullet's own line for the same scene.
# Usage: bench/rigid.sh [ROWS...] (default 20 50 100); COLLIDE=./build/collide
set -euo pipefail
cd "$(dirname "$0")/.."
exe="${COLLIDE:-./build/collide}"
bullet="${BULLET_RIGID:-$HOME/bullet_rigid/bullet_rigid}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
rows=("$@")
[ ${#rows[@]} -eq 0 ] && rows=(20 50 100)
for B in "${rows[@]}"; do
  python3 - "$B" "$dir/pyramid$B.yaml" <<'PY'
import sys
B, path = int(sys.argv[1]), sys.argv[2]
lines = [f"name: pyramid{B}", "world: { rate: 60, frames: 500, gravity: [0, -9.81, 0] }", "bodies:",
         "  ground: { static: true, box: { min: [-200, -1, -5], max: [200, 0, 5] }, friction: 0.6 }"]
k = 0
for r in range(B):
    n = B - r
    for c in range(n):
        lines.append(f"  c{k}: {{ box: {{ half: [0.5, 0.5, 0.5] }}, position: [{(c - (n - 1) / 2) * 1.01!r}, {0.5 + r!r}, 0], friction: 0.6 }}")
        k += 1
lines += ["log:", f"  - at_rest: {{ body: c{k - 1} }}"]
open(path, "w").write("\n".join(lines) + "\n")
PY
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$dir/time" "$exe" sim "$dir/pyramid$B.yaml" > "$dir/log.txt"
  end=$(date +%s.%N)
  "$exe" sim "$dir/pyramid$B.yaml" --trace "$dir/trace.csv" > /dev/null # untimed: for the drift
  drift=$(python3 - "$dir/trace.csv" <<'PY'
import csv, math, sys
start, end = {}, {}
with open(sys.argv[1]) as f:
    for row in csv.reader(f):
        if len(row) > 7 and row[2] == "state" and row[3].startswith("c"):
            p = (float(row[5]), float(row[6]), float(row[7]))
            start.setdefault(row[3], p)
            end[row[3]] = p
print(f"{max(math.dist(start[k], end[k]) for k in start):.4f}")
PY
)
  read -r user sys < "$dir/time"
  # Load and 500 frames (the trace's run is apart); the rest of the line is the top cube's at_rest.
  printf 'collide pyramid %d (%d cubes): %.2f s wall, %.2f s CPU, max drift %s m, %s\n' \
    "$B" $((B * (B + 1) / 2)) "$(echo "$end - $start" | bc)" "$(echo "$user + $sys" | bc)" "$drift" "$(cat "$dir/log.txt")"
  if [ -x "$bullet" ]; then
    printf 'bullet  pyramid %d: ' "$B"
    "$bullet" pyramid "$B" 500
  fi
done

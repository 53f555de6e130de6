#!/usr/bin/env bash
# Box3D's own stacking benchmark beside Box3D in one run (issue 29): large_pyramid, 100 rows of
# touching unit cubes (5,050), density 100, friction 0.6, gravity -10, on a ground box of half
# extents (400, 1, 400) whose top is y = 0, sleeping off, 200 steps at 60 Hz — the scene of
# ../shared/peers/box3d_rigid's `large_pyramid`. Prints collide's whole-process wall and CPU
# seconds, the top cube's drift from its start and speed, the worst cube's drift and the deepest
# overlap; then, when the Box3D harness is built (BOX3D_RIGID, default
# $HOME/box3d_rigid/box3d_rigid), Box3D's own line for the same scene.
# Usage: bench/large_pyramid.sh [ROWS [FRAMES [KEY=VALUE...]]]  (default 100 200; KEY=VALUE are
# extra world settings, e.g. velocity_iterations=10 position_iterations=4); COLLIDE=./build/collide
set -euo pipefail
cd "$(dirname "$0")/.."
exe="${COLLIDE:-./build/collide}"
box3d="${BOX3D_RIGID:-$HOME/box3d_rigid/box3d_rigid}"
rows="${1:-100}"
frames="${2:-200}"
shift $(( $# > 2 ? 2 : $# ))
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 scripts/make-pyramid.py --rows "$rows" --frames "$frames" --touching --density 100 --gravity -10 \
  --ground-half 400 --no-sleep "$@" > "$dir/large_pyramid.yaml"
start=$(date +%s.%N)
/usr/bin/time -f "%U %S %M" -o "$dir/time" "$exe" sim "$dir/large_pyramid.yaml" > "$dir/log.txt"
end=$(date +%s.%N)
read -r user sys rss < "$dir/time"
printf 'collide large_pyramid rows=%d frames=%d %s: %.2f s wall, %.2f s CPU, %d MB\n' "$rows" "$frames" "${*:-defaults}" \
  "$(echo "$end - $start" | bc)" "$(echo "$user + $sys" | bc)" $((rss / 1024))
sed 's/^/  /' "$dir/log.txt"
if [ -x "$box3d" ] && [ "$rows" = 100 ] && [ "$frames" = 200 ]; then
  "$box3d" large_pyramid
fi

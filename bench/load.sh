#!/usr/bin/env bash
# Loading speed and memory: scenes of N spheres written one body per line (as a level exporter
# writes them, ~124 bytes a body) and the 200,000-body `array:` scene, loaded by `collide
# validate` (read, parse, build the model, instantiate it) REPEAT times each; prints the
# median wall and CPU (user + sys) time, MB/s over each, and the peak resident memory
# (/usr/bin/time -v's "Maximum resident set size"). Give a second program to measure it beside
# the first in the same session (e.g. a build of an older commit):
#   bash bench/load.sh build/collide [/path/to/old/collide] [REPEAT]
set -euo pipefail
new=${1:-build/collide}
old=${2:-}
repeat=${3:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# N spheres one per line on a grid over a floor box (bench/rain.h's scene, written out).
lines() {
  python3 - "$1" > "$dir/lines-$1.yaml" <<'EOF'
import sys
n = int(sys.argv[1])
side = int(round(n ** (1 / 3) + 0.5))
out = ["name: rain-lines", "world: { rate: 60, frames: 60, gravity: [0, -9.81, 0] }", "bodies:",
       "  floor: { static: true, box: { min: [-500, -2, -500], max: [500, 0, 500] }, restitution: 0.2, friction: 0.3 }"]
for k in range(n):
    x, z, y = k % side, (k // side) % side, k // (side * side)
    out.append(f"  s{k}: {{ sphere: {{ radius: 0.2 }}, position: [{-side * 0.25 + x * 0.5:.2f}, {1 + y * 0.5:.2f}, "
               f"{-side * 0.25 + z * 0.5:.2f}], velocity: [0, 0, 0], restitution: 0.2, friction: 0.3 }}")
out.append("log:\n  - final: { body: s0 }\n  - max_overlap: {}")
print("\n".join(out))
EOF
}
lines 10000
lines 100000
lines 199999 # and the floor: the 200,000-body cap
cat > "$dir/array-200000.yaml" <<'EOF'
name: rain-array
world: { rate: 60, frames: 60, gravity: [0, -9.81, 0] }
bodies:
  floor: { static: true, box: { min: [-500, -2, -500], max: [500, 0, 500] }, restitution: 0.2, friction: 0.3 }
  s: { sphere: { radius: 0.2 }, position: [-50, 1, -50], restitution: 0.2, friction: 0.3, array: { count: [200, 10, 99], spacing: [0.5, 0.5, 0.5] } }
log:
  - final: { body: s0 }
  - max_overlap: {}
EOF

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

measure() { # program, file
  local walls=() cpus=() rss=()
  for _ in $(seq "$repeat"); do
    local t
    t=$(/usr/bin/time -f "%e %U %S %M" "$1" validate "$2" 2>&1 >/dev/null | tail -1)
    read -r wall user sys kb <<<"$t"
    walls+=("$wall")
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')")
    rss+=("$kb")
  done
  local w c r mb
  w=$(printf '%s\n' "${walls[@]}" | median)
  c=$(printf '%s\n' "${cpus[@]}" | median)
  r=$(printf '%s\n' "${rss[@]}" | median)
  mb=$(stat -c %s "$2" | awk '{ print $1 / 1e6 }')
  awk -v f="$(basename "$2")" -v mb="$mb" -v w="$w" -v c="$c" -v r="$r" -v p="$3" 'BEGIN {
    printf "%-18s %-8s %7.2f MB  wall %6.2f s (%6.1f MB/s)  cpu %6.2f s (%6.1f MB/s)  peak RSS %7.1f MB\n",
           f, p, mb, w, mb / w, c, (c > 0 ? mb / c : 0), r / 1024 }'
}

echo "load: collide validate, median of $repeat runs ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
for f in lines-10000 lines-100000 lines-199999 array-200000; do
  measure "$new" "$dir/$f.yaml" new
  if [ -n "$old" ]; then measure "$old" "$dir/$f.yaml" old; fi
done

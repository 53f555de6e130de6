#!/usr/bin/env bash
# Merge memory and time: 16 shards of a sweep of 10^8 cells (default; the exponent is the
# first argument: 7 makes 10^7) of a cheap scenario (one slope entry, no world to step: the
# cells cost little, the CSV is what is measured) in a scratch folder (about 13.5 GB at 10^8:
# the shards, the one-process sweep and the merge; check `df -h` first), merged with
# `/usr/bin/time -v` (wall, CPU, peak resident memory), compared byte for byte with the
# one-process sweep, then removed. A second program is measured on the same shards. The grid
# is a (10^4 values) × b; AXES=1 makes it b alone (10^EXPONENT values on one axis):
#   [AXES=1] bash bench/merge.sh [EXPONENT] [build/collide] [/path/to/old/collide] [SCRATCH]
set -euo pipefail
exponent=${1:-8}
new=$(realpath "${2:-build/collide}")
old=${3:-}
scratch=${4:-$(mktemp -d -p "${TMPDIR:-/tmp}")}
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
printf 'name: slopes\nparams: { a: 0, b: 0 }\nworld: { rate: 60, frames: 1 }\nlog:\n  - slope: { surface_degrees: $a, limit: 45 }\n' >slopes.yaml
b_to=$((10 ** (exponent - 4) - 1)) # a: 10^4 values, b: 10^(exponent-4)
vary=(--vary a=0:99.99:0.01 --vary "b=0:$b_to:1")
if [ "${AXES:-2}" = 1 ]; then vary=(--vary "b=0:$((10 ** exponent - 1)):1"); fi
for k in $(seq 1 16); do "$new" sweep slopes.yaml "${vary[@]}" --format csv --shard "$k/16" -o "part-$k.csv" 2>/dev/null; done
"$new" sweep slopes.yaml "${vary[@]}" --format csv -o whole.csv 2>/dev/null
echo "merge: 16 shards of 10^$exponent cells (${vary[*]}), $(du -ch part-*.csv | tail -1 | cut -f1) ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
measure() { # label, program
  /usr/bin/time -v "$2" merge part-*.csv -o merged.csv 2>time.txt
  cmp -s merged.csv whole.csv && same="byte-identical to the one-process sweep" || same="DIFFERS from the one-process sweep"
  awk -v l="$1" -v s="$same" -F': ' '/Elapsed/ { w = $2 } /User time/ { u = $2 } /System time/ { y = $2 }
    /Maximum resident/ { r = $2 } END { printf "%-4s wall %s, cpu %.1f s, peak RSS %.1f MB, %s\n", l, w, u + y, r / 1024, s }' time.txt
  rm -f merged.csv
}
measure new "$new"
if [ -n "$old" ]; then measure old "$old"; fi

#!/usr/bin/env bash
# Recordings of three scenes made by two builds must be the same, frame by frame and bit for bit
# (collide diverge exits 0 only when they never differ): a tumbling crate, a stack of turned
# crates and leaning dominoes. CI compares the default build with its Clang build
# (scripts/sanitize.sh) and its -march=native build (scripts/second-build.sh).
# Usage: compare-recordings.sh DEFAULT_BUILD_DIR OTHER_BUILD_DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: compare-recordings.sh DEFAULT_BUILD_DIR OTHER_BUILD_DIR" >&2; exit 2; }
cd "$(dirname "$0")/.."
runs=$(mktemp -d)
trap 'rm -rf "$runs"' EXIT
for scenario in scenarios/tumble.yaml scenarios/stack.yaml scenarios/dominoes.yaml; do
  "./$1/collide" sim "$scenario" --record "$runs/default.rec" >/dev/null
  "./$2/collide" sim "$scenario" --record "$runs/other.rec" >/dev/null
  "./$1/collide" diverge "$runs/default.rec" "$runs/other.rec" | tail -1
done

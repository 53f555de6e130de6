#!/usr/bin/env bash
# Renders the plots README.md shows into docs/ with the built collide, or, with --check, renders
# them into a temporary folder and fails when docs/ is not current (the test suite's docs-plots).
# Usage: scripts/render-docs.sh [--check] [COLLIDE_EXE]   (default ./build/collide)
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
exe="${1:-./build/collide}"
plots=(bouncing wall-slide)
out=docs
if [ "$check" = 1 ]; then out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT; fi
mkdir -p "$out"
for name in "${plots[@]}"; do
  "$exe" sim "scenarios/$name.yaml" --plot "$out/$name.svg" >/dev/null
done
if [ "$check" = 1 ]; then
  stale=0
  for name in "${plots[@]}"; do
    if ! cmp -s "$out/$name.svg" "docs/$name.svg"; then
      echo "render-docs: docs/$name.svg is not current: run scripts/render-docs.sh and commit docs/" >&2
      stale=1
    fi
  done
  [ "$stale" = 0 ] && echo "render-docs: docs/ is current (${plots[*]})"
  exit "$stale"
fi
echo "render-docs: wrote ${plots[*]/%/.svg} into docs/"

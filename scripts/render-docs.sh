#!/usr/bin/env bash
# Renders the pictures README.md shows into docs/ with the built collide, or, with --check, renders
# them into a temporary folder and fails when docs/ is not current (the test suite's docs-plots).
# The SVGs are compared byte for byte. The 3D view's screenshot (docs/rain-3d.png, taken in
# headless Chromium in a 960×640 window) is pinned by the page it was taken of: docs/rain-3d.sha256 holds the page's
# digest, which --check compares exactly without a browser; the browser test compares the
# picture itself (a software rasteriser's pixels may move by a shade between Chromium versions).
# Usage: scripts/render-docs.sh [--check] [COLLIDE_EXE]   (default ./build/collide)
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
exe="${1:-./build/collide}"
plots=(bouncing wall-slide)
out=docs
page="$(mktemp -d)" # the 3D view's page (never kept)
temporary=("$page")
if [ "$check" = 1 ]; then out="$(mktemp -d)"; temporary+=("$out"); fi
trap 'rm -rf "${temporary[@]}"' EXIT
mkdir -p "$out"
for name in "${plots[@]}"; do
  "$exe" sim "scenarios/$name.yaml" --plot "$out/$name.svg" >/dev/null
done
"$exe" sim scenarios/rain.yaml --plot "$page/rain-3d.html" --view 3d >/dev/null
digest="$(sha256sum "$page/rain-3d.html" | cut -d' ' -f1)"
if [ "$check" = 1 ]; then
  stale=0
  for name in "${plots[@]}"; do
    if ! cmp -s "$out/$name.svg" "docs/$name.svg"; then
      echo "render-docs: docs/$name.svg is not current: run scripts/render-docs.sh and commit docs/" >&2
      stale=1
    fi
  done
  if [ "$digest" != "$(cut -d' ' -f1 docs/rain-3d.sha256)" ]; then
    echo "render-docs: docs/rain-3d.png was taken of another page than this build draws: run scripts/render-docs.sh" >&2
    stale=1
  fi
  [ "$stale" = 0 ] && echo "render-docs: docs/ is current (${plots[*]}, rain-3d)"
  exit "$stale"
fi
python3 scripts/browser-test.py --screenshot "$page/rain-3d.html" "#frame=24" docs/rain-3d.png
echo "$digest  collide sim scenarios/rain.yaml --plot rain-3d.html --view 3d" > docs/rain-3d.sha256
echo "render-docs: wrote ${plots[*]/%/.svg} and rain-3d.png into docs/"

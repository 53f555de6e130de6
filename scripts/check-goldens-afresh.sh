#!/usr/bin/env bash
# Every shipped golden written afresh from a clean build and compared byte for byte with the
# committed one: `collide check` passes a value within its tolerance, so a golden whose low
# digits went stale (code changed after it was blessed) would pass for ever; this fails on it.
# Collide's goldens (expected/NAME.log, .values, .frames) and Bullet's (expected/NAME.bullet.log, .values,
# for the scenarios Bullet can run: those without a character). Every committed golden must be
# written again (none left over from a scenario that is gone).
# usage: check-goldens-afresh.sh BUILD_DIR [JOBS]
# With BLESS=1 in the environment, each moved golden is copied over the committed one (`check
# --update` leaves a golden within its tolerance as it is, so it cannot re-bless low digits).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
jobs="${2:-2}"
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
mkdir "$fresh/collide" "$fresh/bullet"
mapfile -t runnable < <(grep -L 'character: true' scenarios/*.yaml)
# (CI makes goldens read only; these are written to a folder of their own.)
env -u CI "./$build/collide" check --jobs "$jobs" --expected "$fresh/collide" --update scenarios/*.yaml >/dev/null
env -u CI "./$build/collide" check --engine bullet --jobs "$jobs" --expected "$fresh/bullet" --update \
  "${runnable[@]}" >/dev/null 2>"$fresh/bullet.err" || true # (a new golden may be left pending: .new)
for f in "$fresh"/bullet/*.new; do if [ -e "$f" ]; then mv "$f" "${f%.new}"; fi; done
moved=0
written=0
for f in "$fresh"/collide/* "$fresh"/bullet/*; do
  name=$(basename "$f")
  written=$((written + 1))
  if [ ! -f "expected/$name" ]; then
    echo "check-goldens-afresh: expected/$name is not committed (written afresh: $f)" >&2
    moved=$((moved + 1))
  elif ! cmp -s "$f" "expected/$name"; then
    echo "check-goldens-afresh: expected/$name differs from the golden written afresh:" >&2
    diff "expected/$name" "$f" | head -20 >&2 || true
    moved=$((moved + 1))
    if [ -n "${BLESS:-}" ]; then cp "$f" "expected/$name" && echo "check-goldens-afresh: blessed expected/$name" >&2; fi
  fi
done
for f in expected/*.log expected/*.values expected/*.frames; do
  name=$(basename "$f")
  if [ ! -f "$fresh/collide/$name" ] && [ ! -f "$fresh/bullet/$name" ]; then
    echo "check-goldens-afresh: $f was not written again (no scenario makes it)" >&2
    moved=$((moved + 1))
  fi
done
if [ "$moved" -ne 0 ]; then
  grep -v "has no character controller" "$fresh/bullet.err" >&2 || true
  echo "check-goldens-afresh: $moved of $written goldens moved; re-bless them (BLESS=1 bash scripts/check-goldens-afresh.sh $build $jobs) in a commit that says why" >&2
  exit 1
fi
echo "check-goldens-afresh: all $written goldens written afresh are byte for byte the committed ones"

#!/usr/bin/env bash
# Every shipped golden written afresh from a clean build and compared byte for byte with the
# committed one: `collide check` passes a value within its tolerance, so a golden whose low
# digits went stale (code changed after it was blessed) would pass for ever; this fails on it.
# Collide's goldens (expected/NAME.log, .values, .frames) and every other engine's this build has
# (expected/NAME.ENGINE.log, .values, for the scenarios it can run; `collide --version` names the
# engines). Every committed golden must be written again (none left over from a scenario that is
# gone).
# usage: check-goldens-afresh.sh BUILD_DIR [JOBS]
# With BLESS=1 in the environment, each moved golden is copied over the committed one (`check
# --update` leaves a golden within its tolerance as it is, so it cannot re-bless low digits).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
jobs="${2:-2}"
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
line=$("./$build/collide" --version | grep '^engines:' | sed 's/^engines: //')
mapfile -t engines < <(grep -oE '(^|\), )[a-z0-9_]+ \(' <<<"$line" | sed -E 's/^\), //; s/ \($//')
# (CI makes goldens read only; these are written to a folder of their own. A scenario an engine
# cannot run is skipped; a new golden may be left pending as .new.)
for engine in "${engines[@]}"; do
  mkdir "$fresh/$engine"
  env -u CI "./$build/collide" check --engine "$engine" --jobs "$jobs" --expected "$fresh/$engine" --update \
    scenarios/*.yaml >/dev/null 2>"$fresh/$engine.err" || true
  for f in "$fresh/$engine"/*.new; do if [ -e "$f" ]; then mv "$f" "${f%.new}"; fi; done
done
moved=0
written=0
for f in "${engines[@]/#/$fresh/}"; do for f in "$f"/*; do
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
done; done
for f in expected/*.log expected/*.values expected/*.frames; do
  name=$(basename "$f")
  if ! compgen -G "$fresh/*/$name" >/dev/null; then
    echo "check-goldens-afresh: $f was not written again (no scenario makes it)" >&2
    moved=$((moved + 1))
  fi
done
if [ "$moved" -ne 0 ]; then
  cat "$fresh"/*.err >&2 || true
  echo "check-goldens-afresh: $moved of $written goldens moved; re-bless them (BLESS=1 bash scripts/check-goldens-afresh.sh $build $jobs) in a commit that says why" >&2
  exit 1
fi
echo "check-goldens-afresh: all $written goldens written afresh are byte for byte the committed ones"

#!/usr/bin/env bash
# `collide check --engine E` of every shipped scenario against E's goldens (expected/NAME.E.log,
# .values), for every engine beside collide's own that this build has (`collide --version`), or
# for the engines named. A scenario E cannot run must be skipped (and fail with --strict), and
# `sim --engine E` must refuse it: exit 2 with one located line (FILE:LINE:COL: error: --engine E …).
# usage: check-engines.sh BUILD_DIR [JOBS] [ENGINE...]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
jobs="${2:-2}"
shift $(($# < 2 ? $# : 2))
engines=("$@")
if [ ${#engines[@]} -eq 0 ]; then
  # "engines: collide (…), bullet (…), box3d (…)": every name but collide's.
  line=$("./$build/collide" --version | grep '^engines:' | sed 's/^engines: //')
  mapfile -t engines < <(grep -oE '(^|\), )[a-z0-9_]+ \(' <<<"$line" | sed -E 's/^\), //; s/ \($//' | grep -v '^collide$')
fi
for engine in "${engines[@]}"; do
  echo "check-engines: $engine"
  set +e
  out=$("./$build/collide" check --engine "$engine" --jobs "$jobs")
  code=$?
  set -e
  echo "$out"
  if [ "$code" -ne 0 ]; then
    echo "check-engines: check --engine $engine exited $code" >&2
    exit 1
  fi
  mapfile -t skipped < <(sed -nE 's/^skipped  ([^ ]+) \((.*)\)$/\1/p' <<<"$out")
  if [ ${#skipped[@]} -gt 0 ]; then
    set +e
    "./$build/collide" check --engine "$engine" --jobs "$jobs" --strict >/dev/null 2>&1
    code=$?
    set -e
    if [ "$code" -ne 2 ]; then
      echo "check-engines: check --engine $engine --strict exited $code, expected 2 (what it cannot run is bad input)" >&2
      exit 1
    fi
  fi
  for name in "${skipped[@]}"; do
    f="scenarios/$name.yaml"
    set +e
    err=$("./$build/collide" sim --engine "$engine" "$f" 2>&1 >/dev/null)
    code=$?
    set -e
    if [ "$code" -ne 2 ] || [ "$(wc -l <<<"$err")" -ne 1 ] ||
      ! grep -Eq "^$f:[0-9]+:[0-9]+: error: --engine $engine " <<<"$err"; then
      echo "check-engines: $f: expected exit 2 and one located line from --engine $engine, got $code: $err" >&2
      exit 1
    fi
    echo "refused  $name ($err)"
  done
done

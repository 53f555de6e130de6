#!/usr/bin/env bash
# `collide check --engine bullet` of every shipped scenario against its Bullet golden,
# expected/NAME.bullet.log: those with a character must be skipped (and fail with --strict), and
# `sim --engine bullet` must refuse each: exit 2 with one located line naming the character.
# usage: check-bullet.sh BUILD_DIR [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
jobs="${2:-2}"
mapfile -t refused < <(grep -l 'character: true' scenarios/*.yaml)
out=$("./$build/collide" check --engine bullet --jobs "$jobs")
echo "$out"
if ! grep -q "^check: .*, ${#refused[@]} skipped (bullet cannot run them" <<<"$out"; then
  echo "check-bullet: expected the ${#refused[@]} scenarios with a character skipped" >&2
  exit 1
fi
set +e
"./$build/collide" check --engine bullet --jobs "$jobs" --strict >/dev/null 2>&1
code=$?
set -e
if [ "$code" -ne 2 ]; then
  echo "check-bullet: check --engine bullet --strict exited $code, expected 2 (the characters are bad input)" >&2
  exit 1
fi
for f in "${refused[@]}"; do
  set +e
  err=$("./$build/collide" sim --engine bullet "$f" 2>&1 >/dev/null)
  code=$?
  set -e
  if [ "$code" -ne 2 ] || ! grep -Eq "^$f:[0-9]+:[0-9]+: error: --engine bullet has no character controller: body '[^']+' is a character$" <<<"$err"; then
    echo "check-bullet: $f: expected exit 2 and a located character error, got $code: $err" >&2
    exit 1
  fi
  echo "refused  $(basename "$f" .yaml) ($err)"
done

#!/usr/bin/env bash
# `collide check --engine bullet` of every shipped scenario Bullet can run (those without a
# character) against its Bullet golden, expected/NAME.bullet.log; each scenario with a
# character must be refused: exit 2 with one located line naming the character.
# usage: check-bullet.sh BUILD_DIR [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
jobs="${2:-2}"
mapfile -t runnable < <(grep -L 'character: true' scenarios/*.yaml)
mapfile -t refused < <(grep -l 'character: true' scenarios/*.yaml)
"./$build/collide" check --engine bullet --jobs "$jobs" "${runnable[@]}"
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

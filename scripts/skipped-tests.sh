#!/usr/bin/env bash
# Lists the tests the last ctest run in BUILD_DIR skipped, each with the reason it printed
# (tests/support/skip.h prints "skipped: REASON" before it exits 77): ctest itself only says
# "Skipped". Prints nothing when none was.
set -euo pipefail
log="${1:-build}/Testing/Temporary/LastTest.log"
[ -f "$log" ] || exit 0
awk '
  /^[0-9]+\/[0-9]+ Test: / { sub(/^[0-9]+\/[0-9]+ Test: /, ""); name = $0; next }
  /^skipped: / { sub(/^skipped: /, ""); printf "skipped: %s -- %s\n", name, $0 }
' "$log"

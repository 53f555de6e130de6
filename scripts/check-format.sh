#!/usr/bin/env bash
# Checks that every C++ file in lib/, cli/, include/, examples/, tests/, bench/, fuzz/ and engines/,
# and every C file but the plain Box3D program (tests/engines/box3d/plain/, in Box3D's own style), is
# formatted by .clang-format.
set -euo pipefail
cd "$(dirname "$0")/.."
find lib cli include examples tests bench fuzz engines \( -name '*.h' -o -name '*.cpp' -o -name '*.c' \) \
  -not -path 'tests/engines/box3d/plain/*' | sort | xargs clang-format --dry-run --Werror
echo "check-format: clean"

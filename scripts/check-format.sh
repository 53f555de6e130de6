#!/usr/bin/env bash
# Checks that every C++ file in lib/, cli/, include/, examples/, tests/, bench/, fuzz/ and engines/ is
# formatted by .clang-format.
set -euo pipefail
cd "$(dirname "$0")/.."
find lib cli include examples tests bench fuzz engines -name '*.h' -o -name '*.cpp' | sort | xargs clang-format --dry-run --Werror
echo "check-format: clean"

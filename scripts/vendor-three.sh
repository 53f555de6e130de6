#!/usr/bin/env bash
# Copies build/three.module.min.js and LICENSE of the npm package `three` at VERSION into
# third_party/three/ (see its README.md). Needs npm; not part of the build or CI.
# Usage: scripts/vendor-three.sh VERSION    e.g. scripts/vendor-three.sh 0.170.0
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:?usage: scripts/vendor-three.sh VERSION}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "three@$version" >/dev/null && tar xzf "three-$version.tgz")
module="$work/package/build/three.module.min.js"
[ -f "$module" ] || { echo "vendor-three: three@$version has no build/three.module.min.js" >&2; exit 1; }
if grep -q '^import\|import{' "$module"; then
  echo "vendor-three: three@$version's minified module imports other files; the page needs one file" >&2
  exit 1
fi
cp "$module" third_party/three/three.module.min.js
cp "$work/package/LICENSE" third_party/three/LICENSE
echo "vendor-three: three@$version copied; sha256 $(sha256sum third_party/three/three.module.min.js | cut -d' ' -f1)"
echo "vendor-three: update third_party/three/README.md and run the browser test"

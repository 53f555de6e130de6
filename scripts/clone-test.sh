#!/usr/bin/env bash
# The project cloned under a private folder (mode 0700, as a home folder on Debian 12 or a
# `mktemp -d` folder is) runs its Slurm test from the clone: munged cannot serve a socket below
# a folder it may not enter, so the test must keep the daemons' files elsewhere whatever the
# clone's parents are (two clean-clone CI runs failed this way). The clone is of the committed
# tree (`git clone --local`), and the test uses the collide already built.
# Usage: clone-test.sh COLLIDE_EXE. Exits 77 (ctest: skipped, with the reason) without git,
# outside a git checkout, or when the Slurm test is skipped (no slurm-wlm and munge, not root).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: clone-test.sh COLLIDE_EXE" >&2; exit 2; }
source_dir=$(cd "$(dirname "$0")/.." && pwd)
collide=$(realpath "$1")
if ! command -v git >/dev/null; then
  echo "clone-test: skipped: git is not installed"
  exit 77
fi
if ! git -C "$source_dir" rev-parse --verify -q HEAD >/dev/null; then
  echo "clone-test: skipped: $source_dir is not a git checkout (nothing to clone)"
  exit 77
fi
private=$(mktemp -d)
trap 'rm -rf "$private"' EXIT
mode=$(stat -c %a "$private")
if [ "$mode" != 700 ]; then
  echo "clone-test: FAILED: $private is mode $mode, not 0700"
  exit 1
fi
git clone --quiet --local "$source_dir" "$private/collide"
echo "clone-test: cloned $(git -C "$private/collide" rev-parse --short HEAD) into $private/collide (its parent mode 0700)"
status=0
python3 "$private/collide/scripts/slurm-test.py" "$collide" "$private/work" || status=$?
echo "clone-test: the clone's slurm-test.py exited $status"
exit "$status"

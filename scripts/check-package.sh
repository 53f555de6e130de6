#!/usr/bin/env bash
# Packs a built tree with `cpack -G DEB` into a temporary folder and checks that the package
# holds the program, its man page and the completions. Usage: check-package.sh BUILD_DIR
set -euo pipefail
build="$(cd "${1:-build}" && pwd)"
work="$(mktemp -d /tmp/collide-package.XXXXXX)"
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work" >/dev/null)
deb="$(ls "$work"/collide_*.deb)"
contents="$(dpkg-deb -c "$deb" | awk '{print $6}')"
for f in ./usr/bin/collide ./usr/share/man/man1/collide.1 ./usr/share/bash-completion/completions/collide \
         ./usr/share/zsh/vendor-completions/_collide ./usr/lib/cmake/collide/collideConfig.cmake; do
  grep -qxF "$f" <<<"$contents" || { echo "check-package: $(basename "$deb") lacks $f" >&2; exit 1; }
done
dpkg-deb -f "$deb" Package Version Depends
echo "check-package: $(basename "$deb") ok"

#!/usr/bin/env bash
# Installs a built tree to a temporary prefix and checks what a user of the installed collide
# sees: the program, the man page, the completions, pkg-config's flags, and examples/consumer
# built with find_package(collide) and run. Usage: check-install.sh BUILD_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
work="$(mktemp -d /tmp/collide-install.XXXXXX)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/collide lib/libcollide.a include/collide/collide.h include/collide/math/vec3.h \
         lib/cmake/collide/collideConfig.cmake lib/cmake/collide/collideConfigVersion.cmake \
         lib/pkgconfig/collide.pc share/man/man1/collide.1 \
         share/bash-completion/completions/collide share/zsh/vendor-completions/_collide; do
  [ -e "$prefix/$f" ] || { echo "check-install: $f was not installed" >&2; exit 1; }
done
"$prefix/bin/collide" --version
# The library and its headers depend on no engine but collide's own (Bullet and ODE are linked
# into the program only): no installed header includes theirs, libcollide.a defines none of their
# symbols, and the CMake package and pkg-config file do not name them.
if grep -rlE '#\s*include\s*[<"](bt|Bullet|LinearMath|ode/)' "$prefix/include" ||
   grep -liE 'bullet|libode|-lode\b' "$prefix/lib/cmake/collide/"*.cmake "$prefix/lib/pkgconfig/collide.pc"; then
  echo "check-install: the installed library or its headers depend on Bullet or ODE" >&2
  exit 1
fi
if nm -C "$prefix/lib/libcollide.a" 2>/dev/null | grep -qE ' [TW] (bt|dWorld|dBody|dGeom|dCollide)'; then
  echo "check-install: libcollide.a defines Bullet or ODE symbols" >&2
  exit 1
fi
expected="contact: normal (0, 1, 0), depth 0.100 m"
# The CMake package.
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root/examples/consumer" -B "$work/consumer" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
out="$("$work/consumer/consumer")"
echo "find_package: $out"
[ "$out" = "$expected" ] || { echo "check-install: expected '$expected'" >&2; exit 1; }
# pkg-config.
flags="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs collide)"
# shellcheck disable=SC2086
${CXX:-c++} "$root/examples/consumer/main.cpp" -o "$work/consumer-pc" $flags
out="$("$work/consumer-pc")"
echo "pkg-config: $out"
[ "$out" = "$expected" ] || { echo "check-install: expected '$expected'" >&2; exit 1; }
# The bash completion completes a command and an option value.
bash -n "$prefix/share/bash-completion/completions/collide"
complete_words() { # prints what bash would offer for the words given (the last one being typed)
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _collide || true; echo "${COMPREPLY[*]}"' \
    _ "$prefix/share/bash-completion/completions/collide" "$@"
}
[ "$(complete_words collide si)" = "sim" ] || { echo "check-install: bash completion of 'si'" >&2; exit 1; }
[ "$(complete_words collide check --color a)" = "auto always" ] ||
  { echo "check-install: bash completion of --color" >&2; exit 1; }
echo "check-install: ok"

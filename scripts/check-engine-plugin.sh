#!/usr/bin/env bash
# Installs a built tree to a temporary prefix, builds examples/engine-plugin (the `bounce` engine,
# in C) against the installed package with find_package(collide), and runs it as a user would:
#   - `collide sim scenarios/bouncing.yaml --engine PATH/libbounce.so`: the log starts with the
#     plugin's engine line, and each ball's first apex after bouncing from 2 m is the closed form
#     h·e² within the bound of bounce's integrator worked out below, and is the step-by-step
#     prediction of its semi-implicit Euler recurrence to 1e-9 m;
#   - `collide check --engine PATH --update` writes goldens named by the plugin's name
#     (bouncing.bounce.log), and a second check passes;
#   - a scenario bounce cannot run (scenarios/ramp.yaml: friction) is refused: exit 2, one line
#     located at the body.
# Usage: check-engine-plugin.sh BUILD_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
work="$(mktemp -d /tmp/collide-engine-plugin.XXXXXX)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
[ -e "$prefix/include/collide/engine_abi.h" ] || { echo "check-engine-plugin: engine_abi.h was not installed" >&2; exit 1; }
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root/examples/engine-plugin" -B "$work/plugin" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/plugin" >/dev/null
plugin="$work/plugin/libbounce.so"
[ -f "$plugin" ] || { echo "check-engine-plugin: $plugin was not built" >&2; exit 1; }
collide="$prefix/bin/collide"
cd "$root"

# The log, as text: the plugin's engine line first.
text="$("$collide" sim scenarios/bouncing.yaml --engine "$plugin")"
echo "$text" | head -3
grep -qx 'engine → bounce 1.0, spheres on boxes and planes (collide.s example plugin, engine ABI 1)' <<<"$text" ||
  { echo "check-engine-plugin: the log does not start with bounce's engine line" >&2; exit 1; }

# The first apexes against the closed form and against bounce's recurrence.
"$collide" sim scenarios/bouncing.yaml --engine "$plugin" --format json >"$work/bouncing.json"
python3 - "$work/bouncing.json" <<'EOF'
import json, math, sys

doc = json.load(open(sys.argv[1]))[0]  # one object per scenario file
fields = {e["id"]: e["fields"] for e in doc["entries"]}
g, tau, H, r = 9.81, 1 / 60, 2.0, 0.1  # bouncing.yaml: 60 Hz, centres 2.1 m up, radius 0.1 m, floor top y = 0
frames = round(4.2 / tau)


def first_apex(e, swept):
    """bounce's semi-implicit Euler step by step (v += g·h; x += v·h; a swept ball stops at its time of
    impact with the floor, a discrete one is pushed out of it; the normal speed is reflected with e
    above max(rest_speed, g·h)), and collide's apex probe on it: the highest lowest point seen from the
    start of the first bouncing step to the start of the second."""
    y, v, bounces, best = 2.1, 0.0, 0, None
    threshold = max(0.01, g * tau)
    for _ in range(1, frames):  # frame 0 is the start (phase 0: no step)
        before = y
        v -= g * tau
        bounced = False
        gap, move = y - r, v * tau
        if swept and gap >= 0 and move < 0 and gap + move <= 0:
            t = gap / -move  # the fraction of the step at the impact
            y += move * t
            if -v > threshold:
                bounced, v = True, -e * v
            else:
                v = 0.0
            y += v * (tau - tau * t)
        else:
            y += v * tau
            if y - r < 0:
                y += r - y
                if -v > threshold:
                    bounced, v = True, -e * v
                elif v < 0:
                    v = 0.0
        if bounced:
            bounces += 1
            if bounces == 2:
                return best
            best = before - r
        if best is not None:
            best = max(best, before - r, y - r)
    return best


worst = 0.0
for ident, e, swept in [("swept_0_5", 0.5, True), ("swept_0_8", 0.8, True), ("swept_0_95", 0.95, True),
                        ("swept_1", 1.0, True), ("discrete_0_5", 0.5, False), ("discrete_0_8", 0.8, False)]:
    apex = fields[ident]["apex_1"]
    closed = H * e * e
    # The bound (README, Your engine): the Euler impact speed V = g·τ·(n+1) at the step n+1 that reaches
    # the floor satisfies |V² − 2gH| < g·τ·V, so V < √(2gH) + g·τ, and the rebound u = e·V gives a
    # sampled apex within [u²/2g − u·τ/2, u²/2g + u·τ/2 + g·τ²/8] (the positions lie on a parabola
    # shifted by half a step; the swept ball's rest of the impact step adds at most u·τ):
    # |apex − h·e²| < (e² + e)·V·τ/2 + g·τ²/8.
    V = math.sqrt(2 * g * H) + g * tau
    bound = (e * e + e) * V * tau / 2 + g * tau * tau / 8
    predicted = first_apex(e, swept)
    print(f"{ident}: apex_1 {apex:.6f} m, h·e² {closed:.6f} m (|diff| {abs(apex - closed):.4f} < bound {bound:.4f}),"
          f" recurrence {predicted:.9f} m")
    if not abs(apex - closed) < bound:
        sys.exit(f"check-engine-plugin: {ident}: apex {apex} is not within {bound} of h·e² = {closed}")
    if not abs(apex - predicted) < 1e-9:
        sys.exit(f"check-engine-plugin: {ident}: apex {apex} is not the recurrence's {predicted}")
EOF

# check --update writes the plugin's goldens under its name; a second check passes.
mkdir -p "$work/expected"
"$collide" check scenarios/bouncing.yaml --engine "$plugin" --expected "$work/expected" --update >/dev/null
[ -f "$work/expected/bouncing.bounce.log" ] && [ -f "$work/expected/bouncing.bounce.values" ] ||
  { echo "check-engine-plugin: check --update wrote no bouncing.bounce.log and .values" >&2; exit 1; }
"$collide" check scenarios/bouncing.yaml --engine "$plugin" --expected "$work/expected"

# What bounce cannot run: exit 2, one line, at the body that has friction.
set +e
err="$("$collide" sim scenarios/ramp.yaml --engine "$plugin" 2>&1 >/dev/null)"
code=$?
set -e
line="$(grep -n '^  ramp:' scenarios/ramp.yaml | cut -d: -f1)"
echo "$err"
[ "$code" -eq 2 ] && [ "$(wc -l <<<"$err")" -eq 1 ] &&
  grep -qx "scenarios/ramp.yaml:$line:3: error: --engine bounce cannot run body 'ramp' (friction): .*" <<<"$err" ||
  { echo "check-engine-plugin: sim of ramp.yaml exited $code; expected 2 and one line at ramp.yaml:$line:3" >&2; exit 1; }
echo "check-engine-plugin: ok"

#!/usr/bin/env python3
"""Writes a pyramid of unit cubes as a collide scenario on standard output.

Row r (from 0 at the bottom) holds ROWS - r cubes centred on x = 0 at y = 0.5 + r, GAP apart
(1 m when --touching: Box3D's large_pyramid; 1.01 m otherwise: bench/rigid.sh's). The log gives
the top cube's final state (drift from (0, ROWS - 0.5, 0) and speed), a bottom corner cube's, and
the deepest overlap of the run.
"""
import argparse

p = argparse.ArgumentParser(description=__doc__)
p.add_argument("--rows", type=int, default=100)
p.add_argument("--frames", type=int, default=200)
p.add_argument("--rate", type=float, default=60)
p.add_argument("--touching", action="store_true", help="neighbours in a row touch (Box3D's large_pyramid)")
p.add_argument("--density", type=float, default=None, help="kg/m^3 (default: mass 1)")
p.add_argument("--gravity", type=float, default=-9.81)
p.add_argument("--friction", type=float, default=0.6)
p.add_argument("--ground-half", type=float, default=200, help="the ground box's half width in x and z (m)")
p.add_argument("--no-sleep", action="store_true")
p.add_argument("settings", nargs="*", help="extra world settings KEY=VALUE")
a = p.parse_args()

gap = 1.0 if a.touching else 1.01
world = [f"rate: {a.rate:g}", f"frames: {a.frames}", f"gravity: [0, {a.gravity:g}, 0]"]
if a.no_sleep:
    world.append("sleep: false")
world += [s.replace("=", ": ", 1) for s in a.settings]
mass = f"density: {a.density:g}" if a.density is not None else "mass: 1"
g = a.ground_half
out = [f"name: pyramid{a.rows}", "world: { " + ", ".join(world) + " }", "bodies:",
       f"  ground: {{ static: true, box: {{ min: [{-g:g}, -2, {-g:g}], max: [{g:g}, 0, {g:g}] }}, friction: {a.friction:g} }}"]
for r in range(a.rows):
    n = a.rows - r
    x0 = -(n - 1) / 2 * gap
    out.append(f"  r{r}_: {{ box: {{ half: [0.5, 0.5, 0.5] }}, position: [{x0!r}, {0.5 + r!r}, 0], {mass}, "
               f"friction: {a.friction:g}, array: {{ count: [{n}, 1, 1], spacing: [{gap!r}, 0, 0] }} }}")
top = f"r{a.rows - 1}_0"
out += ["log:",
        f"  - final: {{ body: {top} }}",
        f"    note: \"the top cube, put at (0, {a.rows - 0.5:g}, 0)\"",
        "  - final: { body: r0_0 }",
        f"    note: \"the bottom row's first cube, put at ({-(a.rows - 1) / 2 * gap:g}, 0.5, 0)\"",
        "  - max_overlap: {}"]
print("\n".join(out))

#!/usr/bin/env python3
"""The Bullet tunnel map of `collide sweep --engine bullet`, discrete and CCD, must equal cell
for cell what the plain Bullet program (tunnel_grid.cpp) gives over the README's grid.
Usage: compare_tunnel.py PLAIN_EXE COLLIDE_EXE SOURCE_DIR"""
import subprocess
import sys

plain_exe, collide_exe, source = sys.argv[1:4]
plain = subprocess.run([plain_exe], capture_output=True, text=True, check=True)
print(plain.stderr.strip())
expected = {}
for line in plain.stdout.splitlines():
    speed, offset, d, c = line.split(",")
    expected[(float(speed), float(offset))] = (d == "1", c == "1")
sweep = subprocess.run([collide_exe, "sweep", "scenarios/tunnel.yaml", "--vary", "speed=30:300:15", "--vary",
                        "offset=0:0.95:0.05", "--engine", "bullet", "--detection", "both", "--format", "csv"],
                       cwd=source, capture_output=True, text=True, check=True)
got = {}
rows = [r for r in sweep.stdout.splitlines() if r and not r.startswith("#")]
header = rows[0].split(",")
for r in rows[1:]:
    f = dict(zip(header, r.split(",")))
    key = (float(f["speed"]), float(f["offset"]))
    got.setdefault(key, [None, None])[0 if f["detection"] == "discrete" else 1] = f["hit"] == "true"
if len(expected) != 380 or len(got) != 380:
    sys.exit(f"compare_tunnel: {len(expected)} plain cells, {len(got)} swept cells; expected 380 each")
bad = [k for k in sorted(expected) if tuple(got[k]) != expected[k]]
for k in bad[:20]:
    print(f"cell speed {k[0]:g} offset {k[1]:g}: plain Bullet (discrete, CCD) = {expected[k]}, collide = {tuple(got[k])}")
counts = [sum(v[i] for v in expected.values()) for i in (0, 1)]
print(f"compare_tunnel: {380 - len(bad)} of 380 cells equal; caught: discrete {counts[0]}, CCD {counts[1]}")
sys.exit(1 if bad else 0)

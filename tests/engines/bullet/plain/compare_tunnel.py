#!/usr/bin/env python3
"""The Bullet first-contact map of `collide sweep --engine bullet` (its `first_contact.hit`
column: caught or not), discrete and CCD, must equal cell for cell what the plain Bullet program
(tunnel_grid.cpp) gives over the README's grid; so must the Bullet maps of `--engine
collide,bullet`, beside collide's swept map, which catches all 380.
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
    got.setdefault(key, [None, None])[0 if f["detection"] == "discrete" else 1] = f["first_contact.hit"] == "true"
if len(expected) != 380 or len(got) != 380:
    sys.exit(f"compare_tunnel: {len(expected)} plain cells, {len(got)} swept cells; expected 380 each")
bad = [k for k in sorted(expected) if tuple(got[k]) != expected[k]]
for k in bad[:20]:
    print(f"cell speed {k[0]:g} offset {k[1]:g}: plain Bullet (discrete, CCD) = {expected[k]}, collide = {tuple(got[k])}")
# The side-by-side sweep: its Bullet rows are the plain program's too; collide's swept catches all.
both = subprocess.run([collide_exe, "sweep", "scenarios/tunnel.yaml", "--vary", "speed=30:300:15", "--vary",
                       "offset=0:0.95:0.05", "--engine", "collide,bullet", "--detection", "both", "--format", "csv"],
                      cwd=source, capture_output=True, text=True, check=True)
rows = [r for r in both.stdout.splitlines() if r and not r.startswith("#")]
header = rows[0].split(",")
side = {}
for r in rows[1:]:
    f = dict(zip(header, r.split(",")))
    side.setdefault(f["engine"], {}).setdefault((float(f["speed"]), float(f["offset"])), [None, None])[
        0 if f["detection"] == "discrete" else 1] = f["first_contact.hit"] == "true"
side_bad = [k for k in sorted(expected) if tuple(side.get("bullet", {}).get(k, ())) != expected[k]]
for k in side_bad[:20]:
    print(f"cell speed {k[0]:g} offset {k[1]:g}: plain Bullet = {expected[k]}, --engine collide,bullet's bullet = "
          f"{side.get('bullet', {}).get(k)}")
collide_swept = sum(1 for v in side.get("collide", {}).values() if v[1])
print(f"compare_tunnel: --engine collide,bullet: {380 - len(side_bad)} of 380 Bullet cells equal the plain "
      f"program's; collide's swept map catches {collide_swept} of 380")
if side_bad or collide_swept != 380 or len(side.get("collide", {})) != 380:
    bad = bad or side_bad or ["collide swept"]
counts = [sum(v[i] for v in expected.values()) for i in (0, 1)]
print(f"compare_tunnel: {380 - len(bad)} of 380 cells equal; caught: discrete {counts[0]}, CCD {counts[1]}")
sys.exit(1 if bad else 0)

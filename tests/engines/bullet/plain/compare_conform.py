#!/usr/bin/env python3
"""The Bullet column of `collide conform` on the bounce and the ramp must give the numbers of a
plain Bullet program of the same scenes (bounce_ramp.cpp): every value an expectation of
scenarios/bouncing.yaml and scenarios/ramp.yaml names, bit for bit.

Bullet's ramp is chaotic at the last bit (a block started 1e-15 m elsewhere ends up to 6 mm
elsewhere 1.5 s later), so the plain program is given the ramp's start point and turn as collide
evaluated them from the scenario (`collide sim --trace`, frame 0): muparser's `_pi` is
3.141592653589 under GCC, which puts 2·cos 20° − sin 20° 1.4e-13 m off the C expression's value.
Its own run from the C expressions is printed beside, to show that spread.
Usage: compare_conform.py PLAIN_EXE COLLIDE_EXE SOURCE_DIR"""
import csv
import io
import json
import subprocess
import sys

plain_exe, collide_exe, source = sys.argv[1:4]


def run_plain(args):
    out = subprocess.run([plain_exe] + args, capture_output=True, text=True, check=True)
    values = {}
    for line in out.stdout.splitlines():
        scene, field, value = line.split()
        values[(scene, field)] = float(value)
    return values, out.stderr.strip()


trace = subprocess.run([collide_exe, "sim", "scenarios/ramp.yaml", "--engine", "bullet", "--trace", "-"], cwd=source,
                       capture_output=True, text=True, check=True).stdout
block = next(r for r in csv.DictReader(io.StringIO(trace)) if r["kind"] == "state" and r["body"] == "block")
start = [block["x"], block["y"], block["qw"], block["qz"]]
expected, version = run_plain(start)
own, _ = run_plain([])
print(f"{version}; the ramp started at x y qw qz = {' '.join(start)} (collide's evaluation of ramp.yaml)")
report = subprocess.run([collide_exe, "conform", "--engine", "bullet", "--format", "json", "scenarios/bouncing.yaml",
                         "scenarios/ramp.yaml"], cwd=source, capture_output=True, text=True, check=True)
doc = json.loads(report.stdout)
compared, worst, spread, bad = 0, 0.0, 0.0, []
for scenario in doc["scenarios"]:
    cell = scenario["cells"][0]
    if cell["engine"] != "bullet" or cell["status"] != "ran":
        sys.exit(f"compare_conform: {scenario['name']}: Bullet's cell is {cell['status']}")
    for e in cell["expectations"]:
        key = (scenario["name"], e["field"])
        if key not in expected:
            continue
        got, want = e["value"], expected[key]
        diff = abs(got - want) if got is not None else float("inf")
        worst = max(worst, diff)
        spread = max(spread, abs(own[key] - want))
        compared += 1
        print(f"{key[0]:9} {key[1]:18} conform {got!r:24} plain {want!r:24} (from C's evaluation {own[key]!r})")
        if diff != 0:
            bad.append(key)
if compared != 22:  # bouncing: 4 swept balls × 3 apexes, one of them checked twice (13); ramp: 9
    bad.append(f"{compared} values compared; expected 22")
print(f"compare_conform: {compared} values of Bullet's conform column against the plain program: largest "
      f"difference {worst:.3g} (the plain program from C's evaluation of the start: up to {spread:.3g} away)")
for b in bad:
    print(f"compare_conform: differs: {b}")
sys.exit(1 if bad else 0)

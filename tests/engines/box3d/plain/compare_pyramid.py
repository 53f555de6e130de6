#!/usr/bin/env python3
"""`collide sim --engine box3d` of a pyramid of touching cubes (scripts/make-pyramid.py: Box3D's
large_pyramid scene, ROWS rows, FRAMES frames) must sag its top cube as the plain Box3D program of
the same scene (pyramid.c) does, within BOUND metres (default 0.01: the issue's bound for the
100-row pyramid). The same engine runs the same scene both ways; what may differ is rounding (the
adapter gives Box3D collide's mass properties, worked out in double and rounded once, where the
plain program has Box3D work them out in single precision), far below a millimetre.
Prints both figures. Usage: compare_pyramid.py PLAIN_EXE COLLIDE_EXE SOURCE_DIR ROWS FRAMES [BOUND]"""
import json
import math
import os
import subprocess
import sys
import tempfile

plain_exe, collide_exe, source, rows, frames = sys.argv[1:6]
rows, frames = int(rows), int(frames)
bound = float(sys.argv[6]) if len(sys.argv) > 6 else 0.01
plain = subprocess.run([plain_exe, str(rows), str(frames)], capture_output=True, text=True, check=True).stdout
fields = dict(part.split("=") for part in plain.split())
plain_drift = float(fields["top_drift_m"])

with tempfile.TemporaryDirectory() as scratch:
    scenario = os.path.join(scratch, "pyramid.yaml")
    with open(scenario, "w") as out:
        subprocess.run([sys.executable, os.path.join(source, "scripts", "make-pyramid.py"), "--rows", str(rows),
                        "--frames", str(frames), "--touching", "--density", "100", "--gravity", "-10",
                        "--ground-half", "400", "--no-sleep"], stdout=out, check=True)
    run = subprocess.run([collide_exe, "sim", scenario, "--engine", "box3d", "--format", "json"], capture_output=True,
                         text=True, check=True)
entries = {e["id"]: e["fields"] for e in json.loads(run.stdout)[0]["entries"]}
top = entries["final"]
collide_drift = math.dist((top["x"], top["y"], top["z"]), (0, rows - 0.5, 0))
difference = abs(collide_drift - plain_drift)
print(f"compare_pyramid: {rows} rows, {frames} frames: top cube's drift {collide_drift:.5f} m by collide --engine "
      f"box3d, {plain_drift:.5f} m by the plain Box3D program; difference {difference:.2e} m (bound {bound:g} m)")
sys.exit(0 if difference <= bound else 1)

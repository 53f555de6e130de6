#!/usr/bin/env python3
"""Checks that lib/ is layered as README.md's Architecture table says.

The table lists lib/'s folders from the bottom up. A file may include headers of its own
folder and of folders listed before (below) it, never of a folder listed after it, so there is
no upward include and no cycle. Every folder under lib/ must be in the table, and every folder
in the table must exist. Prints each violation as FILE:LINE: ... and exits 1 when there is one.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
readme = (root / "README.md").read_text(encoding="utf-8")
section = readme.split("## Architecture", 1)[1].split("\n## ", 1)[0]
order = re.findall(r"^\| `([a-z_]+)/` \|", section, flags=re.M)
if not order:
    sys.exit("check-layers: no folder table under '## Architecture' in README.md")
rank = {name: i for i, name in enumerate(order)}
folders = sorted(p.name for p in (root / "lib").iterdir() if p.is_dir())
problems = []
for name in folders:
    if name not in rank:
        problems.append(f"README.md: lib/{name}/ is missing from the Architecture table")
for name in order:
    if name not in folders:
        problems.append(f"README.md: the Architecture table lists {name}/, which lib/ does not have")
include = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"')
for path in sorted((root / "lib").rglob("*")):
    if path.suffix not in (".h", ".cpp") or not path.is_file():
        continue
    own = path.relative_to(root / "lib").parts[0]
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = include.match(line)
        if not m or own not in rank:
            continue
        target = m.group(1)
        if target not in rank:
            problems.append(f"{path.relative_to(root)}:{number}: includes {target}/, which is not in the table")
        elif rank[target] > rank[own]:
            problems.append(f"{path.relative_to(root)}:{number}: {own}/ includes {target}/, a layer above it")
for p in problems:
    print(p)
print(f"check-layers: {len(order)} layers, {len(problems)} problems")
sys.exit(1 if problems else 0)

#!/usr/bin/env python3
"""Runs examples/github-actions/sharded.yml's jobs here, as GitHub would run them.

Each job's `run:` steps are taken from the workflow (the build step is skipped: COLLIDE_EXE is
already built), once per value of its matrix, in a temporary folder that sees the repository's
scenarios/ and expected/; then: the check shards' JUnit files must list every shipped scenario
once, the merge must equal the sweep run in one process byte for byte, and README.md must show
the workflow's sweep command as it is. Usage: check-github-example.py COLLIDE_EXE.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKFLOW = os.path.join(SOURCE, "examples", "github-actions", "sharded.yml")


def jobs_of(text):
    """{job: (matrix values, [run commands])} from the workflow's simple layout."""
    jobs, job, lines = {}, None, text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^  ([a-z]+):\s*$", line)
        if m:
            job = m.group(1)
            jobs[job] = ([None], [])
        m = re.match(r"^\s+shard: \[(.*)\]\s*$", line)
        if m and job:
            jobs[job] = ([v.strip() for v in m.group(1).split(",")], jobs[job][1])
        m = re.match(r"^(\s+)- run: (.*)$", line)
        if m and job:
            command = m.group(2)
            if command.strip() == ">-":  # a folded block: the lines indented below it, joined by spaces
                indent, parts = len(m.group(1)) + 4, []
                while i + 1 < len(lines) and lines[i + 1].startswith(" " * indent):
                    i += 1
                    parts.append(lines[i].strip())
                command = " ".join(parts)
            jobs[job][1].append(command)
        i += 1
    return jobs


def main():
    collide = os.path.abspath(sys.argv[1])
    with open(WORKFLOW) as f:
        jobs = jobs_of(f.read())
    assert set(jobs) == {"check", "sweep", "merge"}, jobs.keys()
    work = tempfile.mkdtemp(prefix="collide-gha-")
    try:
        for folder in ("scenarios", "expected"):
            os.symlink(os.path.join(SOURCE, folder), os.path.join(work, folder))
        env = dict(os.environ, CI="true")  # as on GitHub: no pending file is written into expected/
        for job in ("check", "sweep", "merge"):
            shards, commands = jobs[job]
            for shard in shards:
                for command in commands:
                    if "scripts/build.sh" in command:
                        continue
                    command = command.replace("${{ matrix.shard }}", shard or "")
                    command = command.replace("./build/collide", collide)
                    r = subprocess.run(command, shell=True, cwd=work, env=env, capture_output=True, text=True)
                    if r.returncode != 0:
                        sys.exit(f"check-github-example: `{command}` exited {r.returncode}:\n{r.stdout}{r.stderr}")
        # Every shipped scenario once in the JUnit files.
        names = []
        for shard in jobs["check"][0]:
            with open(os.path.join(work, f"junit-{shard}.xml")) as f:
                names += re.findall(r'<testcase name="([^"]*)"', f.read())
        shipped = sorted(n[:-5] for n in os.listdir(os.path.join(SOURCE, "scenarios")) if n.endswith(".yaml"))
        if sorted(names) != shipped:
            sys.exit(f"check-github-example: the JUnit files list {sorted(names)}, not {shipped}")
        # The merge is the one-process sweep.
        sweep = next(c for c in jobs["sweep"][1] if "collide sweep" in c)
        whole = sweep.replace("${{ matrix.shard }}", "K").replace("./build/collide", collide)
        whole = re.sub(r" --shard \S+ -o \S+", " -o whole.csv", whole)
        subprocess.run(whole, shell=True, cwd=work, check=True, capture_output=True)
        with open(os.path.join(work, "whole.csv"), "rb") as a, open(os.path.join(work, "tunnel.csv"), "rb") as b:
            if a.read() != b.read():
                sys.exit("check-github-example: the merged CSV differs from the one-process sweep")
        # README shows this very sweep.
        with open(os.path.join(SOURCE, "README.md")) as f:
            readme = f.read()
        if sweep not in readme:
            sys.exit(f"check-github-example: README.md does not show the workflow's sweep:\n  {sweep}")
        print(f"check-github-example: {len(names)} scenarios in {len(jobs['check'][0])} JUnit files, "
              f"{len(jobs['sweep'][0])} sweep shards merged as one process writes them")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Loads collide's HTML pages in headless Chromium and checks them as a user's browser sees them.

Usage: browser-test.py COLLIDE_EXE [OUT_DIR]

For each page (sim --plot for the tunnel, bouncing, wall-slide and stack scenarios, the tunnel
sweep with --detection both, the check report): no console error and nothing in the page's
#errors element, the page's script ran (body[data-ready]), the DOM holds what it should (one
path per body in each view of a plot, 760 data-cell elements in the tunnel sweep, every
scenario's name in the check report) and a screenshot is not blank.

Without Chromium it prints why it skips and exits 77, which ctest reports as skipped (never a pass).
"""
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77
PAGES_SWEEP = True   # collide sweep --format html
PAGES_REPORT = True  # collide check --html
root = pathlib.Path(__file__).resolve().parent.parent


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium_args(browser, profile):
    return [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--disable-extensions", "--user-data-dir=" + str(profile),
            "--virtual-time-budget=3000"]


def dump_dom(browser, profile, url):
    r = subprocess.run(chromium_args(browser, profile) + ["--enable-logging=stderr", "--v=0", "--dump-dom", url],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise AssertionError(f"chromium --dump-dom {url} exited {r.returncode}: {r.stderr[-2000:]}")
    return r.stdout, r.stderr


def console_errors(stderr):
    """Console messages that are errors: Chromium logs them as CONSOLE lines on stderr."""
    out = []
    for line in stderr.splitlines():
        if "CONSOLE" in line and re.search(r"error|uncaught|refused|failed", line, re.I):
            out.append(line)
    return out


def png_distinct_bytes(path):
    """How many distinct byte values the decompressed image holds (a blank page has a handful)."""
    data = pathlib.Path(path).read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise AssertionError(f"{path}: not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    return len(set(raw)), len(raw)


def screenshot(browser, profile, url, path):
    r = subprocess.run(chromium_args(browser, profile) + ["--window-size=1400,1000", "--hide-scrollbars",
                                                          "--screenshot=" + str(path), url],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or not pathlib.Path(path).exists():
        raise AssertionError(f"chromium --screenshot {url} failed ({r.returncode}): {r.stderr[-2000:]}")
    distinct, size = png_distinct_bytes(path)
    if distinct < 16:
        raise AssertionError(f"{path}: the screenshot is blank ({distinct} distinct byte values in {size})")


def run(exe, args, cwd, env=None):
    r = subprocess.run([exe] + args, cwd=cwd, capture_output=True, text=True, timeout=300, env=env)
    return r


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    exe = str(pathlib.Path(sys.argv[1]).resolve())
    browser = find_chromium()
    if not browser:
        print("browser-test: SKIPPED: Chromium is not installed (install it with scripts/install-browser.sh; "
              ".ci/run does); the HTML pages were not checked in a browser")
        sys.exit(SKIP)
    out = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else pathlib.Path(tempfile.mkdtemp(prefix="collide-browser-"))
    out.mkdir(parents=True, exist_ok=True)
    profile = pathlib.Path(tempfile.mkdtemp(prefix="collide-chromium-profile-"))
    failures = []
    pages = []  # (name, html path, check(dom), URL fragment)

    def plot_check(scenario):
        def check(dom):
            bodies = count_bodies(scenario)
            views = re.findall(r'<g class="view" data-view="(\w+)">(.*?)</g>\s*(?=<g class="view"|<g class="legend")',
                               dom, re.S)
            if not views:
                return ["no view in the plot"]
            problems = []
            for view, text in views:
                paths = len(re.findall(r'<path class="track"', text))
                if paths != bodies:
                    problems.append(f"view {view}: {paths} paths for {bodies} bodies")
            # The page opened at #frame=3 shows frame 3 (its script moved the slider and the outlines).
            if "frame 3 · t = " not in dom:
                problems.append("#frame=3 did not show frame 3")
            return problems
        return check

    def count_bodies(scenario):
        r = run(exe, ["sim", f"scenarios/{scenario}.yaml", "--trace", "-"], root)
        names = {line.split(",")[3] for line in r.stdout.splitlines()[1:] if ",state," in line}
        return len(names)

    for scenario in ("tunnel", "bouncing", "wall-slide", "stack"):
        page = out / f"{scenario}.html"
        r = run(exe, ["sim", f"scenarios/{scenario}.yaml", "--plot", str(page)], root)
        if r.returncode not in (0, 1) or not page.exists():
            failures.append(f"{scenario}: sim --plot exited {r.returncode}: {r.stderr}")
            continue
        pages.append((scenario, page, plot_check(scenario), "#frame=3"))

    if PAGES_SWEEP:
        sweep = out / "tunnel-sweep.html"
        r = run(exe, ["sweep", "scenarios/tunnel.yaml", "--vary", "speed=30:300:15", "--vary", "offset=0:0.95:0.05",
                      "--detection", "both", "--format", "html", "-o", str(sweep)], root)
        if r.returncode == 0 and sweep.exists():
            def sweep_check(dom):
                cells = len(re.findall(r"<\w+ [^>]*data-cell=", dom))
                problems = [] if cells == 760 else [f"{cells} data-cell elements, expected 760"]
                # Opened at #cell=45 (speed 60, offset 0.25): that cell drawn, discrete and swept.
                if "cell 45: speed = 60, offset = 0.25" not in dom:
                    problems.append("#cell=45 did not select cell 45")
                views = re.findall(r'<svg [^>]*data-mode="(\w+)"', dom)
                if views != ["discrete", "swept"]:
                    problems.append(f"the cell is drawn for {views}, expected discrete and swept")
                if len(re.findall(r'class="ring"', dom)) < 2 * 10:
                    problems.append("the cell's frames are not drawn")
                return problems
            pages.append(("tunnel sweep", sweep, sweep_check, "#cell=45"))
        else:
            failures.append(f"tunnel sweep --format html exited {r.returncode}: {r.stderr[-500:]}")

    if PAGES_REPORT:
        report = out / "check.html"
        # With CI set, check never writes a pending file into expected/.
        r = run(exe, ["check", "--html", str(report)], root, dict(os.environ, CI="true"))
        if report.exists():
            names = sorted(p.stem for p in (root / "scenarios").glob("*.yaml"))

            def report_check(dom):
                return [f"scenario {n} is not in the report" for n in names if f'data-scenario="{n}"' not in dom]
            pages.append(("check report", report, report_check, ""))
        else:
            failures.append(f"check --html exited {r.returncode} without a report: {r.stderr[-500:]}")

    for name, page, check, fragment in pages:
        url = page.resolve().as_uri() + fragment
        try:
            dom, stderr = dump_dom(browser, profile, url)
            problems = [f"console: {line}" for line in console_errors(stderr)]
            m = re.search(r'<div id="errors"[^>]*>(.*?)</div>', dom, re.S)
            if m is None:
                problems.append("no #errors element")
            elif m.group(1).strip():
                problems.append(f"page errors: {m.group(1).strip()}")
            if 'data-ready="1"' not in dom:
                problems.append("the page's script did not finish (no body[data-ready])")
            problems += check(dom)
            screenshot(browser, profile, url, out / f"{page.stem}.png")
        except (AssertionError, subprocess.TimeoutExpired) as e:
            problems = [str(e)]
        status = "ok" if not problems else "FAILED"
        print(f"browser-test: {name}: {status} ({page})")
        for p in problems:
            print(f"  {p}")
            failures.append(f"{name}: {p}")
    shutil.rmtree(profile, ignore_errors=True)
    print(f"browser-test: {len(pages)} pages, {len(failures)} problems")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

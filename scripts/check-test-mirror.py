#!/usr/bin/env python3
"""Checks that tests/ mirrors lib/ file for file where a file holds logic.

For every lib/FOLDER/NAME.cpp or .h there must be tests/FOLDER/NAME_test.cpp, unless the file is
listed below: DECLARATIONS holds only types and declarations (nothing to test on its own), and
ELSEWHERE names the behaviour-named test files that test it today (each must exist; their owners
split them file for file in time). Prints each missing test file and exits 1 when there is one.
"""
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent

DECLARATIONS = {
    "detection/contact.h", "detection/sat.h", "math/overloaded.h", "model/bodies.h", "model/scenario.h",
    "scenario/reader_state.h", "scenario/template_data.h", "sweep/format.h", "sweep/map.h",
    "engines/builtin.h", "world/body_table.h", "world/step_context.h", "world/observer.h",
}
ELSEWHERE = {
    "detection/manifold": ["detection/manifold_properties_test.cpp", "detection/manifold_degenerate_test.cpp"],
    "detection/manifold_clip": ["detection/manifold_box_box_test.cpp", "detection/manifold_polytope_test.cpp"],
    "app/check_html": ["cli/check_command_test.cpp"],
    "app/measure": ["app/sim_test.cpp", "app/check_test.cpp"],
    "app/validate": ["cli/sim_command_test.cpp", "app/errors_test.cpp"],
    "model/log_kinds": ["model/log_test.cpp"],
    "plot/html": ["plot/plot_test.cpp"],
    "plot/view3d": ["plot/scene3d_test.cpp", "cli/sim_view3d_test.cpp"],
    "scenario/expression": ["scenario/strict_numbers_test.cpp"],
    "scenario/read_bodies": ["scenario/load_test.cpp", "scenario/scenario_errors_test.cpp"],
    "scenario/read_expect": ["scenario/load_test.cpp", "scenario/scenario_errors_test.cpp"],
    "scenario/read_log": ["scenario/load_test.cpp", "scenario/scenario_errors_test.cpp"],
    "scenario/read_numbers": ["scenario/strict_numbers_test.cpp", "scenario/scenario_errors_test.cpp"],
    "scenario/reader": ["scenario/load_test.cpp", "scenario/scenario_errors_test.cpp"],
    "scenario/yaml_schema": ["scenario/scenario_errors_test.cpp"],
    "sweep/executor": ["sweep/sweep_grid_test.cpp", "sweep/tunnel_map_test.cpp"],
    "sweep/checkpoint": ["sweep/resume_test.cpp"],
    "sweep/format_csv": ["sweep/sweep_grid_test.cpp"],
    "sweep/format_html": ["sweep/sweep_grid_test.cpp"],
    "sweep/format_json": ["sweep/sweep_grid_test.cpp"],
    "sweep/format_svg": ["sweep/sweep_grid_test.cpp"],
    "sweep/format_table": ["sweep/sweep_grid_test.cpp"],
    "sweep/scenario_model": ["sweep/sweep_grid_test.cpp", "sweep/tunnel_map_test.cpp"],
}

problems = []
stems = set()
for path in sorted((root / "lib").rglob("*")):
    if path.suffix not in (".h", ".cpp") or not path.is_file():
        continue
    rel = path.relative_to(root / "lib").as_posix()
    if rel in DECLARATIONS:
        continue
    stems.add(rel.rsplit(".", 1)[0])
# engines/ (the engines outside the library, linked only into the program and the tests) is
# mirrored the same way, as tests/engines/.
for path in sorted((root / "engines").rglob("*")):
    if path.suffix not in (".h", ".cpp") or not path.is_file():
        continue
    rel = path.relative_to(root).as_posix()
    if rel not in DECLARATIONS:
        stems.add(rel.rsplit(".", 1)[0])
for stem in sorted(stems):
    if (root / "tests" / (stem + "_test.cpp")).is_file():
        continue
    if stem in ELSEWHERE:
        for other in ELSEWHERE[stem]:
            if not (root / "tests" / other).is_file():
                problems.append(f"tests/{other}: listed as testing lib/{stem}, but it does not exist")
        continue
    problems.append(f"tests/{stem}_test.cpp: missing (lib/{stem} holds logic)")
for stem in sorted(ELSEWHERE):
    if (root / "tests" / (stem + "_test.cpp")).is_file():
        problems.append(f"scripts/check-test-mirror.py: lib/{stem} has its own test file now; drop it from ELSEWHERE")
for p in problems:
    print(p)
print(f"check-test-mirror: {len(stems)} files with logic, {len(problems)} problems")
sys.exit(1 if problems else 0)

"""Exact-cover packages from PyPI against this project's solver and a compiled program: 6x10,
every solution, each as a whole process (interpreter start, imports, the matrix, the search).

Run: ``.venv/bin/python bench/bench_exact_cover.py [--runs N] [--versus PROGRAM]``.

The packages are not dependencies of the project (none was faster, see docs/notes/solverc.md):
install the ones to time first (``.venv/bin/pip install miniexact pyxcc xcover exact-cover``);
those not installed are skipped (with none and no ``--versus``, nothing is run, so ``make bench``
stays short). ``--versus PROGRAM`` adds a program that prints the 2339
solutions (benhoyt/python-pentomino's C, built with ``gcc -O2``), which the ratios are taken
against. Every solver gets the same problem: 72 items (the 60 squares, the 12 pieces) and one
option per placement, X only at one placement per orbit of the rectangle's symmetries (2,032
options), so each class of solutions is found once: 2339. The runs go in turn (one of each,
then again), and both CPU (user + system of the child) and wall time are printed, with the load
average: on a shared machine the CPU time is the fairer figure.
"""

from __future__ import annotations

import importlib
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.puzzominos import solver  # noqa: E402
from games.puzzominos.targets import TARGETS  # noqa: E402

Rows = list[tuple[str, list[str]]]
"""The options of the problem: the piece's name and the squares it covers (item names)."""


def matrix() -> tuple[list[str], Rows]:
    """The primary items (squares, then pieces) and the options of 6x10 with X restricted."""
    compiled = solver.problem(TARGETS["6x10"])
    orbits = compiled.orbits(compiled.masks_of["X"], list(compiled.symmetries))
    rows: Rows = []
    for name in compiled.names:
        masks = [mask for mask, _ in orbits] if name == "X" else compiled.masks_of[name]
        rows += [(name, [f"s{bit:03d}" for bit in solver.bits_of(mask)]) for mask in masks]
    squares = [f"s{bit:03d}" for bit in sorted(compiled.bit.values())]
    return squares + list(compiled.names), rows


def run_miniexact(items: list[str], rows: Rows) -> int:
    """Knuth's Algorithm X (dancing links) in C: one ``solve()`` per solution."""
    miniexact: Any = importlib.import_module("miniexact")
    problem = miniexact.miniexacts_x()
    number = {item: problem.primary(item) for item in items}
    for name, squares in rows:
        problem.add([number[name]] + [number[square] for square in squares])
    found = 0
    while problem.solve() == 10:
        found += 1
    return found


def run_pyxcc(items: list[str], rows: Rows) -> int:
    """Knuth's exact cover with Dancing Cells, in Rust."""
    pyxcc: Any = importlib.import_module("pyxcc")
    options = [pyxcc.Option(f"o{i}", [*squares, name], []) for i, (name, squares) in enumerate(rows)]
    return int(pyxcc.solve(pyxcc.Problem(items, [], options), True).count())


def run_xcover(items: list[str], rows: Rows) -> int:
    """Dancing Cells building a ZDD with a memo cache (Knuth's Algorithm Z), numba-compiled;
    the solutions are counted on the ZDD."""
    xcover: Any = importlib.import_module("xcover")
    options = [[*squares, name] for name, squares in rows]
    paths = {0: 0, 1: 1}
    last = 1
    for index, _, lo, hi in xcover.covers_zdd(options, primary=items, use_memo_cache=True):
        paths[index] = paths[lo] + paths[hi]
        last = index
    return paths[last]


def run_exact_cover(items: list[str], rows: Rows) -> int:
    """Algorithm X in C on a numpy 0/1 matrix (``get_solution_count``)."""
    numpy: Any = importlib.import_module("numpy")
    exact_cover: Any = importlib.import_module("exact_cover")
    column = {item: i for i, item in enumerate(items)}
    table = numpy.zeros((len(rows), len(items)), dtype=bool)
    for i, (name, squares) in enumerate(rows):
        table[i, [column[name]] + [column[square] for square in squares]] = True
    return int(exact_cover.get_solution_count(table))


PACKAGES: dict[str, tuple[str, Callable[[list[str], Rows], int]]] = {
    "miniexact": ("miniexact", run_miniexact),
    "pyxcc": ("pyxcc", run_pyxcc),
    "xcover": ("xcover", run_xcover),
    "exact-cover": ("exact_cover", run_exact_cover),
}


def installed(module: str) -> bool:
    """Whether ``module`` and what it needs can be imported."""
    try:
        found = importlib.import_module(module)
    except ImportError:
        return False
    return getattr(found, "__file__", None) is not None  # not the leftovers of an uninstall


def timed_process(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of ``command`` run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def load() -> str:
    """The load averages, 1, 5 and 15 minutes."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def compare(runs: int, program: str | None) -> None:
    """Every available solver ``runs`` times in turn; medians and ratios to ``program``."""
    ours = ["-m", "games", "solve", "puzzominos", "6x10", "--count"]
    commands: dict[str, list[str]] = {
        "this project (python -m games solve puzzominos 6x10 --count)": [sys.executable, *ours]
    }
    for label, (module, _) in PACKAGES.items():
        if installed(module):
            commands[label] = [sys.executable, __file__, "--run", label]
        else:
            print(f"{label}: not installed, skipped")
    if len(commands) == 1 and not program:
        print("no exact-cover package installed and no --versus PROGRAM: nothing to compare")
        return
    if program:
        commands[program] = program.split()
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    print(f"load average {load()}, {os.cpu_count()} cores, {runs} runs in turn")
    for _ in range(runs):
        for label, command in commands.items():
            times[label].append(timed_process(command))
    print(f"load average {load()}")
    base = statistics.median(cpu for _, cpu in times[program]) if program else None
    header = f"{'solver':62} {'CPU median':>10} {'wall median':>11} {'CPU runs':>30}"
    print(header + ("  vs C" if base else ""))
    for label, pairs in times.items():
        cpu = statistics.median(cpu for _, cpu in pairs)
        wall = statistics.median(wall for wall, _ in pairs)
        each = " ".join(f"{c:.2f}" for _, c in pairs)
        ratio = f"  {cpu / base:5.1f}x" if base else ""
        print(f"{label:62} {cpu:9.3f}s {wall:10.3f}s {each:>30}{ratio}")


def main() -> None:
    if "--run" in sys.argv:
        label = sys.argv[sys.argv.index("--run") + 1]
        items, rows = matrix()
        print(f"{label}: {PACKAGES[label][1](items, rows)} solutions")
        return
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
    program = sys.argv[sys.argv.index("--versus") + 1] if "--versus" in sys.argv else None
    compare(runs, program)


if __name__ == "__main__":
    main()

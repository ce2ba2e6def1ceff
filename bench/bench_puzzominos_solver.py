"""Puzz-Ominos solver benchmark: counting every target's solutions, completing positions, the
cost of a position of the search (what the budgets are sized from), and the 6x10 count against
another solver's program.

Run: ``.venv/bin/python bench/bench_puzzominos_solver.py [--copies] [--versus PROGRAM]``.
Counts are of distinct solutions (symmetric copies once); "compile" is the one-off preparation of
a target (placements, symmetries), cached afterwards. ``--copies`` also counts every symmetric
copy (slower: no symmetry to exploit). ``--versus PROGRAM`` times PROGRAM (for instance a
compiled 6x10 solver that finds all 2339 solutions) as a whole process beside ``python -m games
solve puzzominos 6x10 --count``, run in turn, and prints both medians and their ratio.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.puzzominos import solver
from games.puzzominos.board import Place
from games.puzzominos.targets import TARGETS, Target, parse_target
from games.puzzosolo import rules

T = TypeVar("T")

SINGLE_SET = [name for name, target in TARGETS.items() if len(target.pieces) == 12]
TWO_SETS = [name for name, target in TARGETS.items() if len(target.pieces) == 24]


def timed(action: Callable[[], T]) -> tuple[T, float]:
    """The result of ``action`` and its wall time in seconds."""
    start = time.perf_counter()
    result = action()
    return result, time.perf_counter() - start


def bench_counts(runs: int, every_copy: bool) -> None:
    """Distinct counts of every one-set target (median of ``runs`` for 6x10)."""
    print(
        f"{'target':12} {'compile':>8} {'distinct':>9} {'time':>8}"
        + ("   with copies   time" if every_copy else "")
    )
    for name in SINGLE_SET:
        target = TARGETS[name]
        solver.problem.cache_clear()
        _, compile_time = timed(lambda: solver.problem(target))  # noqa: B023
        times = []
        total = 0
        for _ in range(runs if name == "6x10" else 1):
            total, seconds = timed(lambda: solver.count_solutions(target))  # noqa: B023
            times.append(seconds)
        line = f"{name:12} {compile_time * 1000:6.0f}ms {total:9} {statistics.median(times):7.2f}s"
        if every_copy:
            copies, seconds = timed(lambda: solver.count_solutions(target, distinct=False))  # noqa: B023
            line += f"   {copies:11} {seconds:6.2f}s"
        print(line, flush=True)
        if name == "6x10":
            median, best = statistics.median(times), min(times)
    print(f"6x10 distinct count over {runs} runs: median {median:.2f}s, best {best:.2f}s")


def random_position(target: Target, pieces: int, rng: random.Random) -> list[Place]:
    """``pieces`` random non-overlapping placements (often hopeless: a hard test)."""
    compiled = solver.problem(target)
    masks = list(compiled.place_of)
    placed: list[Place] = []
    empty, left = compiled.full, compiled.all_pieces
    while len(placed) < pieces:
        mask = rng.choice(masks)
        place = compiled.place_of[mask]
        field, unit = compiled.fields[place.piece]
        if mask & empty == mask and left & field:
            placed.append(place)
            empty ^= mask
            left -= unit
    return placed


def bench_completions(samples: int) -> None:
    """``complete`` (hints) from empty and from random positions."""
    print(f"\ncomplete(): from empty, and from {samples} random positions (seconds)")
    header = ["empty", "pieces", "solvable", "none", "gave up", "median", "max"]
    print(f"{'target':12} " + " ".join(f"{word:>8}" for word in header))
    for name in TARGETS:
        target = TARGETS[name]
        solver.problem(target)
        _, from_empty = timed(lambda: solver.complete(target, ()))  # noqa: B023
        pieces = 4 if name in TWO_SETS else 1
        rng = random.Random(2024)
        outcomes = {"solvable": 0, "none": 0, "gave up": 0}
        times = []
        for _ in range(samples):
            placed = random_position(target, pieces, rng)
            start = time.perf_counter()
            try:
                found = solver.complete(target, placed)
                outcomes["solvable" if found is not None else "none"] += 1
            except solver.SearchLimitError:
                outcomes["gave up"] += 1
            times.append(time.perf_counter() - start)
        print(
            f"{name:12} {from_empty:8.2f} {pieces:8} {outcomes['solvable']:8} {outcomes['none']:8} "
            f"{outcomes['gave up']:8} {statistics.median(times):8.3f} {max(times):8.2f}",
            flush=True,
        )


def bench_positions() -> None:
    """CPU per position of the completion search on the hard cases, and what each budget costs
    at that rate (budgets are positions, so these are the worst times on this machine)."""
    print("\ncost of a position (completion search, CPU time)")
    cases: list[tuple[str, Target, list[Place]]] = [
        ("3x20 from empty", TARGETS["3x20"], []),
        ("5x12 from empty", TARGETS["5x12"], []),
        ("10x12, two Is on top", TARGETS["10x12"], two_is()),
        ("drawn 120-square blob", parse_target(DRAWN_120), []),
    ]
    worst = 0.0
    for label, target, placed in cases:
        budget = solver.Budget(solver.DEFAULT_LIMIT)
        start = time.process_time()
        try:
            found = solver.complete(target, placed, budget=budget)
            outcome = "solved" if found is not None else "no solution"
        except solver.SearchLimitError:
            outcome = "limit"
        seconds = time.process_time() - start
        per = seconds / max(1, budget.spent)
        if budget.spent >= 1000:  # a rate from fewer positions is mostly the set-up
            worst = max(worst, per)
        rate = f"{per * 1e6:5.0f} us a position"
        print(f"{label:24} {budget.spent:7} positions {seconds:6.2f}s  {rate} ({outcome})")
    for name, limit in (
        ("target check", solver.CHECK_LIMIT),
        ("give-up (both searches)", rules.GIVE_UP_MOST),
        ("hint", rules.HINT_LIMIT),
    ):
        print(f"{name:24} {limit:7} positions: at most {limit * worst:.1f} s of CPU at the worst rate above")


DRAWN_120 = (
    ".....X.XX/.....XXXXXX.X/.....XXXXXXXX/.XXXXXXXXXXXX/..XXXXXXXXXXXX/...XXXXXXXXXXX/..XXXXXXXXX/"
    "XXXXXXXXXXX/.X.XXXXXXXX/.XXXXXXXXX/.XXXXXXXXX/.XX.XXXXXXX/.XXXXXXXXXXX"
)
"""A random blob of 120 squares drawn for the tests (both sets, all 24 pieces left)."""


def two_is() -> list[Place]:
    from games.puzzominos.pieces import Orientation

    return [Place("I", Orientation(0, False), 0, 0), Place("I", Orientation(0, False), 5, 0)]


def bench_versus(program: str, runs: int) -> None:
    """Whole-process times of the 6x10 count here and of ``program``, run in turn."""
    ours = [sys.executable, "-m", "games", "solve", "puzzominos", "6x10", "--count"]
    theirs = program.split()
    times: dict[str, list[float]] = {"ours": [], "theirs": []}
    root = Path(__file__).resolve().parent.parent
    for _ in range(runs):
        for key, command in (("ours", ours), ("theirs", theirs)):
            start = time.perf_counter()
            subprocess.run(command, cwd=root, check=True, capture_output=True, env=os.environ)
            times[key].append(time.perf_counter() - start)
    mine, other = statistics.median(times["ours"]), statistics.median(times["theirs"])
    ratios = sorted(a / b for a, b in zip(times["ours"], times["theirs"], strict=True))
    print(f"\n6x10 all solutions, whole process, median of {runs} runs in turn:")
    print(f"  python -m games solve puzzominos 6x10 --count  {mine:6.2f}s")
    print(f"  {program:46} {other:6.2f}s")
    print(f"  ratio {mine / other:.1f}x (pairwise median {statistics.median(ratios):.1f}x)")


def main() -> None:
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average {load}, {os.cpu_count()} cores")
    bench_counts(runs=3, every_copy="--copies" in sys.argv)
    bench_completions(samples=20)
    bench_positions()
    if "--versus" in sys.argv:
        bench_versus(sys.argv[sys.argv.index("--versus") + 1], runs=5)
    print(f"load average {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()

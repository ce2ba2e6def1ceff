"""Tournament pairing benchmark: the time to pair each round of simulated Swiss tournaments (at
two, three and four a table) and to draw whole round-robin schedules, for field sizes a Discord
server may have. Pairing runs in a worker process, off the event loop; this says how long a
round's pairing holds one.

Run: ``.venv/bin/python bench/bench_tournaments.py``. Results are random (seeded), so the figures
are reproducible; the work budget of the branch and bound is counted in nodes, not seconds.
"""

from __future__ import annotations

import os
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.tournaments.model import Plan
from bot.tournaments.pairing import history, round_robin, swiss


def swiss_rounds(players: int, rounds: int, size: int, seed: int = 1) -> list[float]:
    """Seconds to pair each round of a simulated Swiss (random results, a fifth of them draws)."""
    rng = random.Random(seed)
    points = {p: Fraction(0) for p in range(1, players + 1)}
    plans: list[Plan] = []
    times = []
    for _ in range(rounds):
        ranking = sorted(points, key=lambda p: (-points[p], p))
        started = time.perf_counter()
        plan = swiss(ranking, points, history(plans), size, 2)
        times.append(time.perf_counter() - started)
        plans.append(plan)
        for table in plan.tables:
            if rng.random() < 0.2:
                for p in table:
                    points[p] += Fraction(1, len(table))
            else:
                points[rng.choice(table)] += 1
        for p in plan.byes:
            points[p] += 1
    return times


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    for size in (2, 3, 4):
        for players in (8, 32, 64, 128):
            times = swiss_rounds(players, 7, size)
            print(
                f"swiss  {players:>3} players, {size} a table, 7 rounds: "
                f"worst round {max(times) * 1000:7.1f} ms, mean {sum(times) / len(times) * 1000:7.1f} ms"
            )
    for size, players in ((2, 32), (2, 64), (3, 9), (3, 16), (4, 16)):
        started = time.perf_counter()
        plans = round_robin(list(range(1, players + 1)), size, 2)
        took = time.perf_counter() - started
        print(
            f"round robin {players:>3} players, {size} a table: "
            f"{len(plans)} rounds drawn in {took * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()

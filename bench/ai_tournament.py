"""Computer levels against each other: the win rate of the first level, with a 95 % interval.

    .venv/bin/python bench/ai_tournament.py GAME --games N [--levels hard,normal] [--players 2]
        [--budget SECONDS] [--iterations N] [--seed S] [--jobs J] [--json]

    e.g. --levels hard,normal   --levels normal,easy   --levels hard@2,hard@0.25

Game ``k`` deals from seed ``S + k // players`` (so every deal is played once with the first
level in each seat: seats alternate and luck evens out) and puts the first level in seat
``k % players``, the second level in every other seat. A game counts 1 for the first level when
it alone ranks first, 1/w when it shares first place with w - 1 others, else 0; the win rate is
the mean, with a Wilson score interval (95 %). The largest decision time is the wall clock of
the slowest single decision of either level. ``--budget`` is the hard player's seconds per
decision (default 2), unless the level names its own (``hard@0.25``); ``--iterations`` caps its
playouts instead of (or as well as) time (``--budget 0`` for no time limit).
``--jobs`` plays games in parallel processes. Solitaire games (one seat) report the solve rate
of the first level instead.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from games.ai import Budget, level_of, profile_of  # noqa: E402
from games.ai.match import play_match  # noqa: E402

Z95 = 1.959964


@dataclass(frozen=True)
class Entrant:
    """A level with its budget (``hard@0.5``: hard with half a second a decision)."""

    level: str
    budget: Budget

    @property
    def label(self) -> str:
        """How the table names it."""
        seconds = self.budget.seconds
        if self.level != "hard":
            return self.level
        limit = f"{seconds:g} s" if seconds is not None else f"{self.budget.iterations} playouts"
        return f"hard ({limit})"


def entrant(text: str, seconds: float | None, iterations: int | None) -> Entrant:
    """``hard`` or ``hard@0.25`` (seconds) -> an entrant; ``seconds``/``iterations`` otherwise."""
    name, _, own = text.strip().partition("@")
    limit = float(own) if own else seconds
    return Entrant(level_of(name), Budget(seconds=limit or None, iterations=iterations))


@dataclass(frozen=True)
class GameSummary:
    """What one tournament game contributes."""

    index: int
    seed: int
    seat: int
    score: float
    reason: str
    slowest: float
    plies: int


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be fractional: shared wins)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def one_game(
    name: str,
    first: Entrant,
    second: Entrant,
    players: int,
    base_seed: int,
    index: int,
    changes: dict[str, Any] | None = None,
) -> GameSummary:
    """Play game ``index`` of the tournament (``changes`` alter the hard player's profile)."""
    game = registry.get(name)
    seed = base_seed + index // players
    seat = index % players
    entrants = [second] * players
    entrants[seat] = first
    levels = [entrant.level for entrant in entrants]
    budgets = [entrant.budget for entrant in entrants]
    profile = dataclasses.replace(profile_of(game), **changes) if changes else None
    result = play_match(game, levels, seed, profile=profile, budgets=budgets)
    outcome = result.outcome
    if players == 1:
        score = 0.0 if outcome.forfeited else 1.0
    else:
        winners = outcome.winners
        score = 1.0 / len(winners) if seat in winners else 0.0
    plies = len(result.record.moves)
    return GameSummary(index, seed, seat, score, outcome.reason, max(result.slowest), plies)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Play the tournament; the summary as a dict."""
    game = registry.get(args.game)
    first, second = (entrant(text, args.budget, args.iterations) for text in args.levels.split(","))
    players = args.players or game.min_players
    started = time.perf_counter()
    changes = parse_changes(args.profile)
    jobs = [(game.name, first, second, players, args.seed, index, changes) for index in range(args.games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            games = list(pool.map(one_game, *zip(*jobs, strict=True)))
    else:
        games = []
        for job in jobs:
            games.append(one_game(*job))
            if args.progress:
                done = games[-1]
                print(
                    f"  game {done.index}: seat {done.seat} score {done.score} ({done.reason}, "
                    f"{done.plies} plies, slowest {done.slowest:.2f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    won = sum(g.score for g in games)
    low, high = wilson(won, len(games))
    return {
        "game": game.name,
        "players": players,
        "levels": [first.label, second.label],
        "games": len(games),
        "score": won,
        "win_rate": won / len(games) if games else 0.0,
        "ci95": [low, high],
        "largest_decision_seconds": max((g.slowest for g in games), default=0.0),
        "budget_seconds": args.budget,
        "iterations": args.iterations,
        "seed": args.seed,
        "profile": changes,
        "end_reasons": dict(Counter(g.reason for g in games)),
        "wall_seconds": time.perf_counter() - started,
    }


def parse_changes(text: str | None) -> dict[str, Any]:
    """``horizon=4,scale=20`` -> profile fields with numbers (for experiments)."""
    changes: dict[str, Any] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        key, _, value = item.partition("=")
        number = float(value)
        changes[key.strip()] = int(number) if number.is_integer() and "." not in value else number
    return changes


def table_row(summary: dict[str, Any]) -> str:
    """One row of the README's table."""
    low, high = summary["ci95"]
    levels = " vs ".join(summary["levels"])
    return (
        f"| {summary['game']} | {levels} | {summary['players']} | {summary['games']} | "
        f"{100 * summary['win_rate']:.0f} % | {100 * low:.0f}–{100 * high:.0f} % | "
        f"{summary['largest_decision_seconds']:.2f} s |"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the tournament from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument(
        "--levels", default="hard,normal", help="two levels, the first measured; hard@0.5: its own seconds"
    )
    parser.add_argument("--players", type=int)
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per hard decision")
    parser.add_argument("--iterations", type=int, help="iterations per hard decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--profile", help="experiments: hard profile changes, e.g. horizon=4,scale=20")
    parser.add_argument("--progress", action="store_true", help="a line per game on stderr")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    summary = run(args)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print("| game | levels | players | games | win rate | 95 % CI | largest decision |")
        print("|---|---|---|---|---|---|---|")
        print(table_row(summary))
        print(f"end reasons: {summary['end_reasons']}; {summary['wall_seconds']:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Computer levels against each other: the win rate of the first level, with a 95 % interval.

    .venv/bin/python bench/ai_tournament.py GAME [GAME ...] --games N --pairs hard:normal,...
        [--seed S] [--jobs J] [--out bench/results/NAME.json] [--players 2] [--table]

An entrant is a level, and for ``hard`` its budget: ``hard`` (the game's default playouts),
``hard/10`` (a tenth of them), ``hard*2`` (twice), ``hard@400`` (400 playouts). ``--pairs``
lists pairs ``first:second`` (the first is measured); ``--pairs final`` is the issue's four:
``hard:normal, hard/10:normal, normal:easy, hard:hard/10``.

Game ``k`` of a pair deals from seed ``S + k // players`` and puts the first entrant in seat
``k % players`` (the second in every other seat), so every deal is played with the first
entrant in each seat: seats alternate and luck evens out. A game counts 1 for the first entrant
when it alone ranks first, 1/w when it shares first place with w - 1 others, else 0; the win
rate is the mean, with a Wilson score interval (95 %). Per game the bench records the first and
the second entrant's thinking (seconds, decisions, the slowest decision).

The games run in ``--jobs`` processes (one per core), the pairs interleaved (game 0 of every pair
first, then game 1, ...: a run stopped early has about as many games in every pair), and every
finished game is written at once to the ``--out`` JSON file; running the same command again
resumes where it stopped (games already in the file are not played again). ``--table`` prints the
table of a results file without playing. The budgets are playouts, so a game's result does not
depend on the machine or its load; only the times do (the table gives the wall-clock and the
processor seconds of the first entrant's decisions).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from games.ai import Budget, level_of  # noqa: E402
from games.ai.match import play_match  # noqa: E402

Z95 = 1.959964
FINAL_PAIRS = "hard:normal,hard/10:normal,normal:easy,hard:hard/10"
"""The pairs issue 27 asks for."""


@dataclass(frozen=True)
class Entrant:
    """A level with its budget (``hard/10``: hard with a tenth of its game's playouts)."""

    text: str
    level: str
    budget: Budget | None

    @property
    def label(self) -> str:
        """How the table names it."""
        return self.text


def entrant(text: str, cap: float | None = None) -> Entrant:
    """``hard``, ``hard/10``, ``hard*2``, ``hard@400`` or another level -> an entrant; ``cap``:
    the hard player's time cap in seconds (None: none, so that results never depend on time)."""
    text = text.strip()
    for mark in "/*@":
        if mark in text:
            name, _, amount = text.partition(mark)
            break
    else:
        name, mark, amount = text, "", ""
    level = level_of(name)
    if level != "hard":
        if mark:
            raise ValueError(f"only hard takes a budget, not {text!r}")
        return Entrant(text, level, None)
    if not mark:
        return Entrant(text, level, Budget(seconds=cap))
    number = float(amount)
    if mark == "@":
        return Entrant(text, level, Budget(playouts=int(number), seconds=cap))
    return Entrant(text, level, Budget(seconds=cap, scale=1 / number if mark == "/" else number))


@dataclass(frozen=True)
class GameSummary:
    """What one tournament game contributes."""

    index: int
    seed: int
    seat: int
    score: float
    reason: str
    plies: int
    thinking: tuple[float, float]
    """Seconds the first and the second entrant spent deciding, in all."""
    cpu: tuple[float, float]
    """Processor seconds the first and the second entrant spent deciding, in all."""
    decisions: tuple[int, int]
    slowest: tuple[float, float]
    """The longest single decision of the first and of the second entrant (wall clock)."""
    slowest_cpu: tuple[float, float]
    """The costliest single decision of the first and of the second entrant (processor)."""


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
    name: str, first: Entrant, second: Entrant, players: int, base_seed: int, index: int
) -> GameSummary:
    """Play game ``index`` of a pair."""
    game = registry.get(name)
    seed = base_seed + index // players
    seat = index % players
    entrants = [second] * players
    entrants[seat] = first
    result = play_match(game, [e.level for e in entrants], seed, budgets=[e.budget for e in entrants])
    outcome = result.outcome
    if players == 1:
        score = 0.0 if outcome.forfeited else 1.0
    else:
        winners = outcome.winners
        score = 1.0 / len(winners) if seat in winners else 0.0
    others = [other for other in range(players) if other != seat]
    return GameSummary(
        index,
        seed,
        seat,
        score,
        outcome.reason,
        len(result.record.moves),
        (result.thinking[seat], sum(result.thinking[o] for o in others)),
        (result.cpu[seat], sum(result.cpu[o] for o in others)),
        (result.decisions[seat], sum(result.decisions[o] for o in others)),
        (result.slowest[seat], max((result.slowest[o] for o in others), default=0.0)),
        (result.slowest_cpu[seat], max((result.slowest_cpu[o] for o in others), default=0.0)),
    )


def pair_key(name: str, players: int, first: Entrant, second: Entrant, seed: int) -> str:
    """The key of a pair's games in a results file."""
    return f"{name}|{players}p|{first.text}:{second.text}|seed {seed}"


def load(path: Path) -> dict[str, Any]:
    """A results file (an empty one if there is none)."""
    if path.exists():
        data: dict[str, Any] = json.loads(path.read_text())
        return data
    return {"runs": {}}


def save(path: Path, data: dict[str, Any]) -> None:
    """Write the results file whole, atomically (a crash leaves the last complete one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_suffix(".tmp")
    scratch.write_text(json.dumps(data, indent=1, sort_keys=True))
    os.replace(scratch, path)


def machine() -> dict[str, Any]:
    """Where the tournament ran."""
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load_average_at_start": list(os.getloadavg()),
    }


Job = tuple[str, str, Entrant, Entrant, int, int, int]
"""(pair key, game, first, second, players, base seed, game index)."""


def jobs_to_play(args: argparse.Namespace, data: dict[str, Any]) -> Iterator[Job]:
    """Every game of every pair not yet in ``data`` (creating the pairs' entries)."""
    for name in args.game:
        game = registry.get(name)
        players = args.players or game.min_players
        for first_text, second_text in pairs(args.pairs):
            first, second = entrant(first_text, args.cap), entrant(second_text, args.cap)
            key = pair_key(game.name, players, first, second, args.seed)
            run = data["runs"].setdefault(
                key,
                {
                    "game": game.name,
                    "players": players,
                    "levels": [first.label, second.label],
                    "seed": args.seed,
                    "games": {},
                    "started": time.strftime("%Y-%m-%d %H:%M:%S"),
                },
            )
            for index in range(args.games):
                if str(index) not in run["games"]:
                    yield key, game.name, first, second, players, args.seed, index


def pairs(text: str) -> list[tuple[str, str]]:
    """``a:b,c:d`` (or ``final``) -> the pairs."""
    text = FINAL_PAIRS if text == "final" else text
    found = []
    for item in text.split(","):
        first, _, second = item.partition(":")
        if not second:
            raise ValueError(f"a pair is first:second, not {item!r}")
        found.append((first.strip(), second.strip()))
    return found


def play_all(args: argparse.Namespace) -> dict[str, Any]:
    """Play every missing game, saving after each one; returns the results."""
    path = Path(args.out)
    data = load(path)
    data.setdefault("machine", machine())
    todo = sorted(jobs_to_play(args, data), key=lambda job: job[-1])  # pairs interleaved
    save(path, data)
    print(f"{len(todo)} games to play in {args.jobs} process(es)", file=sys.stderr, flush=True)
    started = time.perf_counter()
    done = 0

    def record(job: Job, summary: GameSummary) -> None:
        nonlocal done
        run = data["runs"][job[0]]
        run["games"][str(summary.index)] = asdict(summary)
        run["finished"] = time.strftime("%Y-%m-%d %H:%M:%S")
        save(path, data)
        done += 1
        if args.progress:
            rate = (time.perf_counter() - started) / done
            print(
                f"  {done}/{len(todo)} {job[0]} game {summary.index}: {summary.score:g} "
                f"({summary.reason}, thinking {summary.thinking[0]:.1f}+{summary.thinking[1]:.1f} s, "
                f"cpu {summary.cpu[0]:.1f} s); "
                f"~{rate * (len(todo) - done) / 60:.0f} min left",
                file=sys.stderr,
                flush=True,
            )

    if args.jobs <= 1:
        for job in todo:
            record(job, one_game(*job[1:]))
        return data
    with ProcessPoolExecutor(args.jobs) as pool:
        pending: dict[Future[GameSummary], Job] = {}
        queue = iter(todo)
        for job in queue:
            pending[pool.submit(one_game, *job[1:])] = job
            if len(pending) >= 2 * args.jobs:
                break
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                record(pending.pop(future), future.result())
                for job in queue:
                    pending[pool.submit(one_game, *job[1:])] = job
                    break
    return data


def summary(run: dict[str, Any]) -> dict[str, Any]:
    """A pair's figures: games, win rate and interval, thinking per decision, end reasons."""
    games = list(run["games"].values())
    won = sum(g["score"] for g in games)
    low, high = wilson(won, len(games))
    decisions = sum(g["decisions"][0] for g in games)
    thinking = sum(g["thinking"][0] for g in games)
    cpu = sum(g.get("cpu", g["thinking"])[0] for g in games)
    return {
        "game": run["game"],
        "players": run["players"],
        "levels": run["levels"],
        "seed": run["seed"],
        "games": len(games),
        "score": won,
        "win_rate": won / len(games) if games else 0.0,
        "ci95": [low, high],
        "first_mean_decision_seconds": thinking / decisions if decisions else 0.0,
        "first_thinking_per_game_seconds": thinking / len(games) if games else 0.0,
        "first_cpu_per_decision_seconds": cpu / decisions if decisions else 0.0,
        "first_cpu_per_game_seconds": cpu / len(games) if games else 0.0,
        "slowest_decision_seconds": max((max(g["slowest"]) for g in games), default=0.0),
        "costliest_decision_cpu_seconds": max((max(g.get("slowest_cpu", [0.0])) for g in games), default=0.0),
        "end_reasons": dict(Counter(g["reason"] for g in games)),
        "seeds": [run["seed"], run["seed"] + max((g["index"] for g in games), default=0) // run["players"]],
    }


def table(data: dict[str, Any], keys: Sequence[str] | None = None) -> str:
    """The results as a Markdown table."""
    lines = [
        "| game | first vs second | games | win rate | 95 % interval | seeds | first's mean decision "
        "(wall · cpu) | costliest (cpu) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for key in keys or sorted(data["runs"]):
        s = summary(data["runs"][key])
        if not s["games"]:
            continue
        low, high = s["ci95"]
        lines.append(
            f"| {s['game']} | {' vs '.join(s['levels'])} | {s['games']} | {100 * s['win_rate']:.1f} % | "
            f"{100 * low:.1f}–{100 * high:.1f} % | {s['seeds'][0]}–{s['seeds'][1]} | "
            f"{s['first_mean_decision_seconds']:.2f} s · {s['first_cpu_per_decision_seconds']:.2f} s | "
            f"{s['costliest_decision_cpu_seconds']:.2f} s |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run (or resume) a tournament from the command line and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="+")
    parser.add_argument("--games", type=int, default=0, help="games per pair (seats alternate)")
    parser.add_argument("--pairs", default="hard:normal", help="first:second,... or 'final'")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--cap", type=float, help="hard's time cap in seconds (default: none)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (one per core)")
    parser.add_argument("--out", default="bench/results/tournament.json", help="results file (resumable)")
    parser.add_argument("--table", action="store_true", help="print the table of --out without playing")
    parser.add_argument("--progress", action="store_true", help="a line per game on stderr")
    parser.add_argument("--json", action="store_true", help="print the pairs' figures as JSON")
    args = parser.parse_args(argv)
    data = load(Path(args.out)) if args.table else play_all(args)
    names = {registry.get(name).name for name in args.game}
    keys = [key for key in sorted(data["runs"]) if data["runs"][key]["game"] in names]
    if args.json:
        print(json.dumps([summary(data["runs"][key]) for key in keys], indent=2))
    else:
        print(table(data, keys))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What a ``hard`` decision costs, per game: wall-clock and processor seconds of every decision
of ``hard`` (the game's default playouts, no time cap) against ``normal``, two players, seats
alternating, on fixed seeds; median, 90th percentile and costliest, and how many decisions.

Every move of every game is kept (``--save``), so a later run on the same seeds can prove that
the decisions did not change (``--compare``: the move sequences must be identical, move by move).
With no time cap a decision depends only on the seed, never on the machine or its load.

Run: ``.venv/bin/python bench/bench_hard.py geominos puzzominos tileup --games 5 --seed 80000``
(``--save bench/results/hard-before.json``, then after a change ``--compare`` with that file).
One process, one search at a time: on a shared machine check ``uptime`` first and say the load.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.ai import Budget, player_for  # noqa: E402
from games.core import Game  # noqa: E402
from games.registry import get as get_game  # noqa: E402

GAMES = ("geominos", "puzzominos", "tileup", "triominos", "geronimos")


@dataclass
class Played:
    """One game: its seed, the seat ``hard`` held, every move in notation, and per ``hard``
    decision its wall-clock and processor seconds."""

    game: str
    seed: int
    hard_seat: int
    moves: list[str] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def play(game: Game[Any, Any], seed: int, hard_seat: int) -> Played:
    """One game of ``hard`` (in ``hard_seat``) against ``normal``, seeded like the tournament's
    (each seat's player from ``seed * 31 + seat``); ``hard`` has its default playouts and no
    time cap."""
    levels = ["normal", "normal"]
    levels[hard_seat] = "hard"
    uncapped = Budget(seconds=None)
    players = [player_for(level, seed * 31 + seat, uncapped) for seat, level in enumerate(levels)]
    state = game.new(2, game.Options(), seed=seed)
    played = Played(game.name, seed, hard_seat)
    while (seat := game.to_act(state)) is not None:
        started, processor = time.perf_counter(), time.process_time()
        move = players[seat].choose(game, state)
        wall, work = time.perf_counter() - started, time.process_time() - processor
        if seat == hard_seat:
            played.wall.append(wall)
            played.cpu.append(work)
        played.moves.append(game.format_move(state, move))
        state, _ = game.apply(state, move)
    return played


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def figures(values: list[float]) -> str:
    """Median, 90th percentile and maximum, in seconds."""
    return f"{percentile(values, 0.5):6.2f} {percentile(values, 0.9):6.2f} {max(values):6.2f}"


def report(name: str, games: list[Played]) -> None:
    """One line of the table: the game's decisions, wall and processor seconds."""
    wall = [value for played in games for value in played.wall]
    cpu = [value for played in games for value in played.cpu]
    if not wall:
        print(f"{name:11s} no hard decision")
        return
    print(f"{name:11s} {len(wall):5d}  {figures(wall)}  {figures(cpu)}  {sum(cpu):7.1f}")


def compare(mine: list[Played], path: Path) -> bool:
    """True when every game of ``mine`` has the very moves the same game has in ``path``."""
    rows = json.loads(path.read_text())
    saved = {(row["game"], row["seed"], row["hard_seat"]): row["moves"] for row in rows}
    same = True
    for played in mine:
        theirs = saved.get((played.game, played.seed, played.hard_seat))
        if theirs is None:
            print(f"{played.game} seed {played.seed}: not in {path}")
            same = False
            continue
        if theirs != played.moves:
            ply = next(
                (i for i, (a, b) in enumerate(zip(theirs, played.moves, strict=False)) if a != b),
                min(len(theirs), len(played.moves)),
            )
            print(f"{played.game} seed {played.seed}: DIFFERENT from move {ply + 1}")
            same = False
        else:
            print(f"{played.game} seed {played.seed}: same {len(played.moves)} moves")
    return same


def main() -> None:
    described = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=described)
    parser.add_argument("games", nargs="*", default=list(GAMES), help=f"games (default: {' '.join(GAMES)})")
    parser.add_argument("--games", dest="count", type=int, default=5, help="games per game (default 5)")
    parser.add_argument("--seed", type=int, default=80000, help="the first seed (default 80000)")
    parser.add_argument("--save", type=Path, help="write every game's moves and timings here (JSON)")
    parser.add_argument("--compare", type=Path, help="check the moves against a file saved by --save")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    heads = f"{'wall s: median p90 max':>20s}  {'cpu s: median p90 max':>20s}"
    print(f"{'game':11s} {'dec.':>5s}  {heads}  cpu sum")
    everything: list[Played] = []
    for name in args.games:
        game = get_game(name)
        games = [play(game, args.seed + index, index % 2) for index in range(args.count)]
        report(name, games)
        everything.extend(games)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.save:
        args.save.write_text(json.dumps([vars(played) for played in everything], indent=1) + "\n")
    if args.compare and not compare(everything, args.compare):
        raise SystemExit("the decisions changed")


if __name__ == "__main__":
    main()

"""Engine review benchmark: what a review of one player's game costs, per game, at the bot's
default budget (or one given), in this process (as one long worker runs it): the decisions, the
playouts per move, the seconds per decision and for the whole review, and the pictures.

And how steady its verdicts are: the same game reviewed again with other search seeds; how many
of the first review's three moves come back among the second's three, and the mean change of
the losses (the engine's noise at this budget).

Run: ``.venv/bin/python bench/bench_review.py [--games tileup,geronimos] [--playouts N]
[--worlds N] [--steady]``. Note the load average beside the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.between.review import ReviewBudget, decisions, review_decision, summary
from games import ai, records, registry
from games.records import Record, RecordedMove
from rendering.review import review_pictures

GAMES = ("geominos", "triominos", "geronimos", "puzzominos", "tileup")
SEED = 25_001
"""The games' deal (chosen before any measurement)."""


def played(name: str, players: int = 2) -> Record:
    """A whole game: the reviewed player (seat 0) at the ``easy`` level, the others ``normal``."""
    game = registry.get(name)
    record = records.new_record(game, ["Ann", "Ben", "Cy", "Di"][:players], {}, SEED)
    _, state = records.start(record)
    movers = [ai.EasyPlayer(SEED), *(ai.GreedyPlayer(SEED + n) for n in range(1, players))]
    lines = []
    while game.outcome(state) is None:
        seat = game.to_act(state)
        assert seat is not None
        move = movers[seat].choose(game, state)
        lines.append(RecordedMove(seat, game.format_move(state, move)))
        state, _ = game.apply(state, move)
    return record.with_moves(lines)


def review(record: Record, budget: ReviewBudget, salt: int = 0) -> tuple[dict[str, Any], list[float]]:
    """The review of seat 0 and the seconds each decision took."""
    game = registry.get(record.game)
    found, final, plies = decisions(record, 0)
    playouts, charted = budget.per_move(len(found), game.name), budget.charted(len(found))
    reviewed, seconds = [], []
    for decision in found:
        started = time.perf_counter()
        chart = decision.number in charted
        reviewed.append(
            review_decision(game, decision, 0, SEED + salt + decision.ply, playouts, budget.worlds, chart)
        )
        seconds.append(time.perf_counter() - started)
    return summary(game, 0, list(record.players), reviewed, final, plies, budget), seconds


def steadiness(first: dict[str, Any], second: dict[str, Any]) -> tuple[int, float]:
    """How many of the first review's top moves are among the second's, and the mean absolute
    change of the losses over the decisions both judged."""
    kept = len(set(first["mistakes"]) & set(second["mistakes"]))
    losses = [
        abs((a["loss"] or 0) - (b["loss"] or 0))
        for a, b in zip(first["decisions"], second["decisions"], strict=True)
    ]
    return kept, sum(losses) / max(1, len(losses))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--playouts", type=int, default=ReviewBudget().playouts)
    parser.add_argument("--worlds", type=int, default=ReviewBudget().worlds)
    parser.add_argument("--steady", action="store_true", help="review each game twice (other seeds)")
    args = parser.parse_args()
    budget = ReviewBudget(playouts=args.playouts, worlds=args.worlds)
    print(f"load average {os.getloadavg()[0]:.1f} · budget: {budget}")
    print(
        "game        decisions  playouts/move  s/decision (median, max)  review s  pictures s"
        + ("  top-3 kept  mean |Δloss|" if args.steady else "")
    )
    for name in args.games.split(","):
        record = played(name)
        started = time.perf_counter()
        data, seconds = review(record, budget)
        total = time.perf_counter() - started
        started = time.perf_counter()
        review_pictures(record, data)
        pictures = time.perf_counter() - started
        ordered = sorted(seconds)
        median = ordered[len(ordered) // 2] if ordered else 0.0
        slowest = max(seconds, default=0.0)
        line = (
            f"{name:<11} {len(seconds):>9}  {data['playouts']:>13}  {median:>10.2f}, {slowest:>6.2f}"
            f"        {total:>8.1f}  {pictures:>10.1f}"
        )
        if args.steady:
            again, _ = review(record, budget, salt=1_000)
            kept, change = steadiness(data, again)
            line += f"  {kept}/{len(data['mistakes'])}         {100 * change:>5.1f} %"
        print(line, flush=True)


if __name__ == "__main__":
    main()

"""The engine's review of a finished game, for one player: where they lost the most against the
``hard`` engine's own choice, and each player's expected final score over the game. Pure
computation over a record (no storage, no discord): the functions here run in worker processes.

At each of the player's decisions (a move with a real choice: not forced, not a resignation or
a timeout) the engine sees only what that player saw then (:meth:`games.core.Game.view`: their
own hand and the public table, never the later draws) and gives its verdict on the move played
(:func:`bot.between.engine.judge`). Beside it, from the same view:

- the points each move made at once (exact: the table is public);
- what each move gave away: the points the next player could take right after it (the reply
  the ``normal`` player would make, on average over worlds sampled from what the player could
  not see);
- what the engine's move set up: the player's own next moves in the line it expects;
- the expected final scores of every player after the move played (greedy playouts to the end
  of the game in sampled worlds): the chart's points.

Everything is counted in playouts, never in seconds: the same record, seat and budget give the
same review on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.between.engine import judge
from games import ai, records
from games.core import Game
from games.records import RESIGN, TIMEOUT, Record

VERSION = 2
"""The stored reviews' format and engine; a review stored with another version is made again
(2: a move's loss is in calibrated chances, see :class:`games.ai.profile.Result`)."""
MAX_PLIES = 5_000
"""A safety bound on one playout to the end of a game."""
MISTAKES = 3
DEARER = {"geominos": 0.64, "puzzominos": 0.32}
"""The share of the playouts a move gets in the games whose playouts cost the most (Geominos'
hundreds of placements a turn, Puzz-Ominos' open grid), measured so that a move takes about as
long as a hint (``bench/bench_review.py``)."""


@dataclass(frozen=True)
class ReviewBudget:
    """What one review may spend: ``playouts`` a move for the engine (the per-move budget),
    ``worlds`` sampled worlds a move for the replies and the expected scores, and ``cap``
    engine playouts for the whole request (a long game's moves get fewer each)."""

    playouts: int = 100
    worlds: int = 6
    cap: int = 4_000
    least: int = 24
    """The fewest playouts a move gets however long the game (below that, a verdict says little)."""
    chart_points: int = 16
    """At most this many decisions (spread over the game) get expected final scores: playing a
    long game to its end is the dearest part of a review."""

    def charted(self, moves: int) -> set[int]:
        """Which of ``moves`` decisions (numbered from 1) get expected final scores: spread
        evenly, the last one always."""
        if moves <= self.chart_points:
            return set(range(1, moves + 1))
        step = moves / self.chart_points
        return {moves - round(index * step) for index in range(self.chart_points)}

    def per_move(self, moves: int, game: str = "") -> int:
        """The engine's playouts for each of ``moves`` moves of ``game`` (fewer where a playout
        costs more, :data:`DEARER`; fewer each in a long game, never fewer than ``least``)."""
        share = DEARER.get(game, 1.0)
        playouts, cap = max(1, round(self.playouts * share)), round(self.cap * share)
        if moves <= 0:
            return playouts
        return max(min(playouts, cap // moves), min(self.least, playouts))


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed player: the record line's number, the state before it and
    the move played."""

    ply: int
    number: int
    """The player's decisions counted from 1."""
    state: Any
    notation: str


def decisions(record: Record, seat: int) -> tuple[list[Decision], list[int], int]:
    """Replay ``record``: ``seat``'s decisions (moves with a real choice), the final scores, and
    how many lines the record has. Runs in a worker process."""
    game, state = records.start(record)
    found: list[Decision] = []
    for ply, line in enumerate(record.moves, start=1):
        if (
            line.seat == seat
            and line.text not in (RESIGN, TIMEOUT)
            and game.to_act(state) == seat
            and game.forced_move(state) is None
            and len(game.legal_moves(state)) > 1
        ):
            found.append(Decision(ply, len(found) + 1, state, line.text))
        state, _ = records.play_line(game, state, line)
    return found, list(game.scores(state)), len(record.moves)


def review_decision(
    game: Game[Any, Any],
    decision: Decision,
    seat: int,
    seed: int,
    playouts: int,
    worlds: int,
    chart: bool = True,
) -> dict[str, Any]:
    """The engine's verdict on one decision, with the facts its words are made of (JSON-ready).
    Runs in a worker process."""
    state = decision.state
    played = game.parse_move(state, decision.notation)
    verdict = judge(game, state, seat, played, seed, playouts)
    rng = random.Random(f"review:{seed}")
    samples = _worlds(game, state, seat, rng, worlds)
    return {
        "ply": decision.ply,
        "number": decision.number,
        "played": decision.notation,
        "best": verdict.notation,
        "agreed": verdict.agreed,
        "loss": None if math.isnan(verdict.loss) else round(verdict.loss, 4),
        "error": verdict.error if verdict.error is not None and math.isfinite(verdict.error) else None,
        "points_played": _points_now(game, state, seat, played),
        "points_best": _points_now(game, state, seat, verdict.best),
        "gave_played": _gave_away(game, samples, seat, played, rng),
        "gave_best": _gave_away(game, samples, seat, verdict.best, rng),
        "setup": [[step.notation, round(step.points, 2)] for step in verdict.line if step.seat == seat][:2],
        "expected": _expected_finals(game, samples, played, rng) if chart else None,
        "playouts": verdict.playouts,
    }


def _worlds(game: Game[Any, Any], state: Any, seat: int, rng: random.Random, count: int) -> list[Any]:
    """``count`` states ``seat`` could not tell from ``state`` (the view itself, twice, where
    nothing is hidden: only ties then tell playouts apart)."""
    view = game.view(state, seat)
    if not game.hidden_information:
        return [view] * min(2, count)
    return [game.determinize(view, seat, rng) for _ in range(count)]


def _points_now(game: Game[Any, Any], state: Any, seat: int, move: Any) -> float:
    after, _ = game.apply(state, move)
    return float(game.scores(after)[seat] - game.scores(state)[seat])


def _gave_away(
    game: Game[Any, Any], worlds: Sequence[Any], seat: int, move: Any, rng: random.Random
) -> dict[str, Any] | None:
    """What the next player could take right after ``move``: the points of the reply the
    ``normal`` player would make (the best by the game's own measure of a move), mean over
    ``worlds``, with who that is; None when the mover plays on."""
    taken: list[float] = []
    replier: int | None = None
    player = ai.GreedyPlayer(rng.getrandbits(32))
    for world in worlds:
        after, _ = game.apply(world, move)
        nxt = game.to_act(after)
        if nxt is None or nxt == seat:
            return None
        replier = nxt
        reply, _ = game.apply(after, player.choose(game, after))
        taken.append(float(game.scores(reply)[nxt] - game.scores(after)[nxt]))
    if not taken or replier is None:
        return None
    return {"seat": replier, "points": round(sum(taken) / len(taken), 2)}


def _expected_finals(
    game: Game[Any, Any], worlds: Sequence[Any], move: Any, rng: random.Random
) -> list[float]:
    """Every seat's mean final score after ``move`` when everyone then plays the ``normal``
    (greedy) way to the end, over ``worlds``."""
    player = ai.GreedyPlayer(rng.getrandbits(32))
    totals: list[float] = []
    for world in worlds:
        state, _ = game.apply(world, move)
        for _ in range(MAX_PLIES):
            if game.outcome(state) is not None or game.to_act(state) is None:
                break
            state, _ = game.apply(state, player.choose(game, state))
        scores = game.scores(state)
        totals = (
            [a + b for a, b in zip(totals, scores, strict=True)] if totals else [float(s) for s in scores]
        )
    return [round(total / len(worlds), 2) for total in totals]


def summary(
    game: Game[Any, Any],
    seat: int,
    names: Sequence[str],
    reviewed: Sequence[dict[str, Any]],
    final: Sequence[int],
    plies: int,
    budget: ReviewBudget,
) -> dict[str, Any]:
    """The review as stored: the decisions with their verdicts, the three largest losses, and the
    expected final scores over the game (the start's come from the first decision's worlds)."""
    ranked = sorted(
        (d for d in reviewed if not d["agreed"] and d["loss"] is not None and d["loss"] > 0),
        key=lambda d: (-d["loss"], d["ply"]),
    )
    return {
        "version": VERSION,
        "game": game.name,
        "seat": seat,
        "names": list(names),
        "plies": plies,
        "final": list(final),
        "playouts": budget.per_move(len(reviewed), game.name),
        "worlds": budget.worlds,
        "decisions": list(reviewed),
        "mistakes": [d["ply"] for d in ranked[:MISTAKES]],
        "agreed": sum(1 for d in reviewed if d["agreed"]),
    }

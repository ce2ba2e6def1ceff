"""The one place the review asks the ``hard`` engine (:mod:`games.ai`) about a move: the
engine's own choice in a position, from one seat's view, and how much better it rates it than
the move that was played, both weighed on the same sampled worlds.

Built on the engine's public API as it stands: :class:`games.ai.SearchPlayer` decides with half
the playouts; when it would not play the move played, the other half races the two moves alone
on common worlds (the search with a :class:`games.ai.SearchProfile` that orders those two first,
keeps both to the end and never prefers one for being first), so their difference is paired. The engine's own
review API (``SearchPlayer.review``, on its way) does the same in one call; this adapter is the
only code to change when it lands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from games import ai
from games.core import Game


@dataclass(frozen=True)
class Verdict:
    """The engine on one move: its ``best`` move (and notation), how much better it rates it
    than the played one (``loss``, in expected result from 0 to 1: for two players about the
    chance of winning; 0 when they are the same move), the standard error where known, the
    line it expects after its move, and the playouts spent."""

    best: Any
    notation: str
    loss: float
    error: float | None
    line: tuple[ai.Step, ...]
    playouts: int
    agreed: bool


def budget(playouts: int) -> ai.Budget:
    """A budget of ``playouts`` only (no time limit: the same verdict on any machine, under any
    load; the work lane's time budget stops a runaway job)."""
    return ai.Budget(seconds=None, iterations=max(1, playouts))


def judge(game: Game[Any, Any], state: Any, seat: int, played: Any, seed: int, playouts: int) -> Verdict:
    """The engine's verdict on ``played`` (a legal move of ``seat``, to act in ``state``), seeing
    only ``seat``'s view of ``state``."""
    half = max(1, playouts // 2)
    decision = ai.SearchPlayer(seed, budget(half)).decide(game, state, seat)
    if decision.move == played:
        return Verdict(decision.move, decision.notation, 0.0, 0.0, decision.line, decision.iterations, True)
    # the two moves again, alone and on the same worlds: the decision's own values of a move it
    # dropped early rest on a few worlds, not the leader's
    race = _race(game, state, seat, decision.move, played, seed, playouts - half)
    spent = decision.iterations + race.iterations
    weighed = {choice.move: choice for choice in race.choices if choice.value is not None}
    best, mine = weighed.get(decision.move), weighed.get(played)
    if best is None or mine is None or best.value is None or mine.value is None:
        return Verdict(decision.move, decision.notation, math.nan, None, decision.line, spent, False)
    return Verdict(
        decision.move, decision.notation, best.value - mine.value, None, decision.line, spent, False
    )


def _race(
    game: Game[Any, Any], state: Any, seat: int, best: Any, played: Any, seed: int, playouts: int
) -> ai.Decision:
    """The two moves alone, on the same worlds, until the playouts are spent."""

    def both_first(_game: Game[Any, Any], _state: Any, moves: list[Any]) -> list[Any]:
        return [best, played, *(move for move in moves if move != best and move != played)]

    profile = replace(ai.profile_of(game), order=both_first, candidates=2, confidence=math.inf, switch=0.0)
    return ai.SearchPlayer(seed + 1, budget(max(2, playouts)), profile).decide(game, state, seat)

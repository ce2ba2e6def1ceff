"""The one place the review asks the ``hard`` engine (:mod:`games.ai`) about a move: the
engine's own choice in a position, from one seat's view, and how much better it rates it than
the move that was played, both weighed on the same sampled worlds.

The engine's review (:meth:`games.ai.SearchPlayer.review`) decides with half the playouts, then
weighs its move and the one played on the same fresh worlds with the other half, so their
difference is paired and has a standard error.
"""

from __future__ import annotations

from dataclasses import dataclass
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


def judge(game: Game[Any, Any], state: Any, seat: int, played: Any, seed: int, playouts: int) -> Verdict:
    """The engine's verdict on ``played`` (a legal move of ``seat``, to act in ``state``), seeing
    only ``seat``'s view of ``state``: a budget of ``playouts`` only (no time limit: the same
    verdict on any machine, under any load; the work lane's time budget stops a runaway job)."""
    player = ai.SearchPlayer(seed, ai.Budget(playouts=max(2, playouts), seconds=None))
    review = player.review(game, state, played, seat)
    loss, error = review.loss
    decision = review.decision
    return Verdict(
        decision.move,
        decision.notation,
        loss,
        error,
        decision.line,
        decision.playouts + review.weighing.playouts,
        decision.move == played,
    )

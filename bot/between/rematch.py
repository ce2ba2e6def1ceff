"""A rematch's seating, as pure functions (no storage, no discord): the previous game's seats
rotated by one, and a seed whose deal lets another player begin.

The seats of a rematch are planned, not drawn: the previous game's order rotated by one place
(the second player sits first, the first last). Where a game's rules choose who begins from the
deal (a coin flip, the highest tile, the start cards), the rematch's seed is the first of a few
drawn candidates whose deal gives the first turn to someone other than the player who began the
previous game; the deal itself stays a fair one among those.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from games import records
from games.core import Game
from games.records import Record

if TYPE_CHECKING:
    from bot.storage import SeatRow

SEED_TRIES = 16
"""Candidate seeds drawn for a rematch (one in two or more suits when the rules decide)."""


def identity(seat: SeatRow | dict[str, Any]) -> tuple[str, Any]:
    """Who sits in a seat, whatever its number: a person by id, a computer by its name."""
    if isinstance(seat, dict):
        user_id, name = seat.get("user_id"), seat.get("name")
    else:
        user_id, name = seat.user_id, seat.name
    return ("user", user_id) if user_id is not None else ("computer", name)


def rotated(seats: Sequence[SeatRow]) -> list[SeatRow]:
    """The seats in rematch order: the previous order moved on by one (the first player last)."""
    ordered = sorted(seats, key=lambda seat: seat.seat)
    return ordered[1:] + ordered[:1]


def seating(seats: Sequence[SeatRow]) -> list[dict[str, Any]]:
    """The planned order as stored with the rematch lobby."""
    return [{"user_id": s.user_id, "name": s.name, "ai_level": s.ai_level} for s in seats]


def as_planned(seats: Sequence[SeatRow], plan: Sequence[dict[str, Any]]) -> list[SeatRow]:
    """``seats`` (the lobby's, in joining order) in the planned order; anyone not in the plan
    (a computer the host added) after the planned players, in joining order."""
    place = {identity(entry): index for index, entry in enumerate(plan)}
    ranked = sorted(enumerate(seats), key=lambda item: (place.get(identity(item[1]), len(place)), item[0]))
    return [seat for _, seat in ranked]


def first_to_act(game: Game[Any, Any], header: Record) -> int | None:
    """The seat that acts first in the game ``header`` starts."""
    _, state = records.start(header)
    return game.to_act(state)


def rematch_seed(
    game: Game[Any, Any], previous: Record, order: Sequence[int], candidates: Sequence[int]
) -> int:
    """The first of ``candidates`` whose deal, with the previous game's players seated in
    ``order`` (previous seat numbers, new seat by new seat), does not give the first turn to
    the player who began ``previous``; the first candidate when none does. Runs in a worker
    process (it deals a game per candidate)."""
    began = first_to_act(game, previous)
    names = [previous.players[seat] for seat in order]
    for seed in candidates:
        header = records.new_record(game, names, previous.options, seed)
        first = first_to_act(game, header)
        if first is None or began is None or order[first] != began:
            return seed
    return candidates[0]

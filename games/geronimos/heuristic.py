"""How good a position is when there are no points: progress towards surrounding a card.

Every card on the table is weighed by how many enemy cards already stand around it: enemy
cards you besiege count for you, your own besieged cards count against you (a little more,
since the opponent may finish the ring first). Bonus cards and cards on top count a little.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from games.geronimos.cards import LEADER
from games.geronimos.hexgrid import Cell, neighbours
from games.geronimos.rules import (
    bonus_for,
    number_matches,
    owner_lookup,
    placed_piece,
    surround_after,
    top_counts,
)
from games.geronimos.state import Move, State

WIN = 1_000_000.0
SIEGE_WEIGHT = (0.0, 1.0, 3.0, 8.0, 20.0, 60.0, 0.0)
"""Value of an enemy card with 0..6 of your cards around it."""
DANGER = 1.25
"""How much more your own besieged cards weigh than the enemy's."""
BONUS_CARD = 4.0
TOP_CARD = 0.5

OwnerOf = Callable[[Cell], "int | None"]


def pressure(owner_of: OwnerOf, cells: Iterable[Cell], seat: int) -> float:
    """The siege value of ``cells`` for ``seat``."""
    total = 0.0
    for cell in cells:
        owner = owner_of(cell)
        if owner is None:
            continue
        around = sum(1 for other in neighbours(cell) if owner_of(other) == 1 - owner)
        weight = SIEGE_WEIGHT[around]
        total += weight if owner != seat else -DANGER * weight
    return total


def position_value(state: State, seat: int) -> float:
    """How good the table is for ``seat`` (the game not being over)."""
    tops = state.tops
    counts = top_counts(tops)
    value = pressure(owner_lookup(tops), tops, seat) + TOP_CARD * (counts[seat] - counts[1 - seat])
    if state.turn == seat and state.drawn:
        value += BONUS_CARD * state.bonus_left
    return value


def placement_gain(state: State, move: Move) -> float:
    """The immediate gain of ``move`` for the seat to act, computed around its cell only."""
    if move.cell is None:
        return 0.0
    seat = state.turn
    tops = state.tops
    cell = move.cell
    before = owner_lookup(tops)
    after = owner_lookup(tops, cell, seat)
    won = surround_after(after, cell, seat)
    if won is not None:
        return WIN if won[0] == seat else -WIN
    region = (cell, *neighbours(cell))
    gain = pressure(after, region, seat) - pressure(before, region, seat)
    covered = tops.get(cell)
    if covered is None:
        gain += TOP_CARD
    elif covered.owner != seat:
        gain += 2 * TOP_CARD
    if move.laid != LEADER and not state.opening:
        gain += BONUS_CARD * bonus_for(number_matches(tops, cell, placed_piece(move, seat)))
    return gain

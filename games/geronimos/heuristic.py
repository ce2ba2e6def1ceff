"""How good a position is when there are no points: progress towards surrounding a card.

Every card on the table is weighed by how many enemy cards already stand around it: enemy
cards you besiege count for you, your own besieged cards count against you (a little more,
since the opponent may finish the ring first). Bonus cards and cards on top count a little:
a bonus card is worth :data:`BONUS_CARD` from the moment it is earned until it is played.
Drawing it (``bonus``) turns that credit into the expected best placement of a card from the bag
(whose contents are public): a card that could only be laid where it loses the game makes
drawing a risk. Declining (``stop``) gives up the credit of every bonus card on offer.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from games.geronimos.hexgrid import Cell, neighbours
from games.geronimos.rules import earned_bonus, legal_moves, owner_lookup, surround_after, top_counts
from games.geronimos.state import BONUS, DISCARD, Move, MoveKind, State

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
    if state.turn == seat:
        value += BONUS_CARD * pending_bonus(state)
    return value


def pending_bonus(state: State) -> int:
    """Bonus cards the seat to act has earned and not played yet (the drawn one included)."""
    return state.bonus_left + (1 if state.bonus_card and state.drawn else 0)


def move_gain(state: State, move: Move) -> float:
    """The immediate gain of ``move`` for the seat to act."""
    if move.kind is MoveKind.PLACE:
        return placement_gain(state, move)
    if move.kind is MoveKind.STOP:
        return -BONUS_CARD * state.bonus_left
    if move.kind is MoveKind.BONUS:
        return draw_value(state) - BONUS_CARD
    return 0.0


def draw_value(state: State) -> float:
    """The expected gain of the next bonus card: the best placement of each card the bag may
    yield (nothing for one that fits nowhere), averaged over the bag."""
    bag = state.bags[state.turn]
    if not bag:
        return 0.0
    total = 0.0
    for card, copies in sorted(Counter(bag).items()):  # sorted: the same sum for any bag order
        drawn = replace(state, drawn=card, bonus_card=True, bonus_left=state.bonus_left - 1)
        moves = legal_moves(drawn)
        if moves != (DISCARD,):
            total += copies * max(placement_gain(drawn, move) for move in moves)
    return total / len(bag)


def placement_gain(state: State, move: Move) -> float:
    """The immediate gain of a placement for the seat to act, computed around its cell only."""
    assert move.cell is not None
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
    return gain + BONUS_CARD * earned_bonus(state, move)[1]


def playout_move(state: State, rng: random.Random, moves: Sequence[Move] | None = None) -> Move:
    """The search's playout policy: the greedy placement (ties at random), and always the next
    bonus card when one is on offer (weighing a draw against every card of the bag is the costly
    part of :func:`move_gain`, and declining is rarely right). ``moves``: the legal moves, when
    the caller has them already."""
    if moves is None:
        moves = legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    if BONUS in moves:
        return BONUS
    gains = [placement_gain(state, move) if move.kind is MoveKind.PLACE else 0.0 for move in moves]
    best = max(gains)
    ties = [move for move, gain in zip(moves, gains, strict=True) if gain >= best - 1e-9]
    return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

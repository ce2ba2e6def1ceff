"""How promising a Tile Up! move looks, for ordering moves and the greedy computer player.

Points for a score; for a placement a small bonus that grows when it completes or grows a shape
on one of the mover's cards, and that steers the leader towards the open corners (which end the
game) and the others away from them.
"""

from __future__ import annotations

from functools import lru_cache

from games.tileup import board as geo
from games.tileup.data import CORNERS, NEIGHBOURS, SIZE, Stack, card_colour, card_shape, fits_inside, shape_of
from games.tileup.rules import scorable_cards
from games.tileup.state import Move, MoveKind, State


def move_gain(state: State, move: Move) -> float:
    """Points for a score; a small heuristic for the rest (placements that set up a card)."""
    seat = state.to_act
    if move.kind == MoveKind.SCORE:
        return float(geo.points(state.board, geo.region(state.board, move.square)))
    if move.kind == MoveKind.PLACE:
        return _placement_gain(state, seat, move)
    if move.kind == MoveKind.TILES:
        return 0.15 if state.tile_counts[seat] < 3 else 0.05
    if move.kind == MoveKind.GOAL:
        return 0.1 if state.card_counts[seat] < 2 else 0.0
    if move.kind == MoveKind.DISCARD:
        return -0.01 * int(move.tile[1])
    return 0.0


def enabled_card(state: State, move: Move, squares: tuple[int, ...] | None = None) -> tuple[str, int] | None:
    """The card (and its points) that the placement ``move`` would make scorable for the seat to
    act, if any; ``squares`` is the region the tile would join, when already known."""
    if squares is None:
        squares = geo.region_after(state.board, move.tile, move.square)
    shape = shape_of(squares)
    if shape is None:
        return None
    for card in scorable_cards(state, state.to_act):
        if card_colour(card) == move.tile[0] and card_shape(card) == shape:
            return card, geo.points(state.board, squares) + 1
    return None


def _placement_gain(state: State, seat: int, move: Move) -> float:
    stack = state.board[move.square]
    if stack:
        gain = 0.15 + 0.02 * len(stack)
    else:
        # The leader heads for the open corners to close the game; the others keep away.
        closeness = 1 - _corner_distance(state, move.square) / 20
        gain = 0.2 + (0.1 * closeness if _leads(state, seat) else 0.05 * (1 - closeness))
    squares = geo.region_after(state.board, move.tile, move.square)
    enabled = enabled_card(state, move, squares)
    if enabled is not None:
        gain += 0.5 + min(enabled[1], 20) / 100
    elif _breaks_match(state.board, scorable_cards(state, seat), move):
        gain -= 0.3
    else:
        gain += _progress(state, seat, move, squares)
    return gain


def _progress(state: State, seat: int, move: Move, squares: tuple[int, ...]) -> float:
    """A bonus for growing a region of a card's colour that still fits inside the card's shape
    (bigger and taller regions more); ``squares`` is the region the tile would join."""
    if len(squares) > 4:
        return 0.0
    best = 0.0
    for card in scorable_cards(state, seat):
        if card_colour(card) == move.tile[0] and fits_inside(squares, card_shape(card)):
            height = geo.points(state.board, squares) + 1
            best = max(best, 0.04 * len(squares) + 0.01 * height)
    return best


def _corner_distance(state: State, square: int) -> int:
    row, column = divmod(square, SIZE)
    open_corners = [corner for corner in CORNERS if not state.board[corner]] or list(CORNERS)
    return min(abs(row - c // SIZE) + abs(column - c % SIZE) for c in open_corners)


def _leads(state: State, seat: int) -> bool:
    return all(state.scores[seat] > score for other, score in enumerate(state.scores) if other != seat)


@lru_cache(maxsize=16)
def _matched_squares(board: tuple[Stack, ...], cards: tuple[str, ...]) -> frozenset[int]:
    """Squares of regions that some card in ``cards`` could score now."""
    wanted = {(card_colour(card), card_shape(card)) for card in cards}
    found: set[int] = set()
    for colour, shape, squares in geo.shaped_regions(board):
        if (colour, shape) in wanted:
            found.update(squares)
    return frozenset(found)


def _breaks_match(board: tuple[Stack, ...], cards: tuple[str, ...], move: Move) -> bool:
    """True when the placement spoils a region that could be scored now."""
    matched = _matched_squares(board, cards)
    if not matched:
        return False
    if move.square in matched:
        return True
    return any(near in matched and board[near][-1][0] == move.tile[0] for near in NEIGHBOURS[move.square])

"""The Tri-Ominos notation: ``453@2,-1`` (the numbers as they lie, then the cell), ``draw``,
``pass``.

A placement reads the numbers from the top corner of an up cell (the bottom corner of a down
cell) clockwise. Accepted spellings: ``453@2,-1``, ``453 2,-1``, ``4-5-3@2,-1``,
``4-5-3 @ (2, -1)``.
"""

from __future__ import annotations

import re

from games.errors import IllegalMoveError, InvalidMoveError
from games.triominos.grid import Cell, corners, format_cell, neighbours, points_up
from games.triominos.state import DRAW, DRAW_MOVE, PASS, PASS_MOVE, PLACE, Move, State
from games.triominos.tiles import LAID_TO_TILE, ROTATIONS, digits

PLACEMENT = re.compile(
    r"^\s*([0-9])\s*-?\s*([0-9])\s*-?\s*([0-9])\s*(?:@\s*|\s+)\(?\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*\)?\s*$"
)
EXAMPLE = "`453@2,-1` (numbers as they lie from the top corner of an up cell clockwise, then x,y)"
CORNER_NAMES = {True: ("top", "lower right", "lower left"), False: ("bottom", "upper left", "upper right")}


def format_move(move: Move) -> str:
    """Canonical notation of ``move``."""
    if move.kind == PLACE:
        assert move.cell is not None
        return f"{move.laid}@{format_cell(move.cell)}"
    return move.kind


def parse_syntax(text: str) -> Move:
    """The move ``text`` names, without checking the rules; raises :class:`InvalidMoveError`."""
    cleaned = text.strip().lower()
    if cleaned in (DRAW, PASS):
        return DRAW_MOVE if cleaned == DRAW else PASS_MOVE
    match = PLACEMENT.match(cleaned)
    if match is None:
        raise InvalidMoveError(
            f"`{text.strip()}` is not a Tri-Ominos move. "
            f"Write a placement like {EXAMPLE}, or `draw` or `pass`."
        )
    laid = "".join(match.group(1, 2, 3))
    if laid not in LAID_TO_TILE:
        a, b, c = digits(laid)
        if max(a, b, c) > 5:
            raise InvalidMoveError(f"`{text.strip()}`: tiles only show the numbers 0 to 5.")
        mirror = laid[0] + laid[2] + laid[1]
        raise InvalidMoveError(
            f"`{text.strip()}`: no tile reads {laid} clockwise (tiles are never turned over); "
            f"tile {LAID_TO_TILE[mirror]} lies as {' or '.join(ROTATIONS[LAID_TO_TILE[mirror]])}."
        )
    return Move(PLACE, laid, (int(match.group(4)), int(match.group(5))))


def parse_move(state: State, text: str) -> Move:
    """Notation to a legal move; raises :class:`InvalidMoveError` or :class:`IllegalMoveError`."""
    move = parse_syntax(text)
    if move not in state.legal:
        raise IllegalMoveError(why_illegal(state, move, text.strip()))
    return move


def legal_summary(state: State, limit: int = 6) -> str:
    """What is legal now, in a few words."""
    moves = state.legal
    if not moves:
        return "the game is over."
    if moves[0].kind != PLACE:
        word = format_move(moves[0])
        why = "the draw found nothing that fits" if state.stuck else "nothing in your hand fits"
        return f"{why}: `{word}`." if word == PASS else f"nothing in your hand fits: `{word}` from the well."
    shown = ", ".join(f"`{format_move(move)}`" for move in moves[:limit])
    more = f" and {len(moves) - limit} more" if len(moves) > limit else ""
    return f"legal now: {shown}{more}."


def why_illegal(state: State, move: Move, text: str) -> str:
    """A message saying why ``move`` is not legal now and what is."""
    quoted = f"`{text}`"
    tail = legal_summary(state)
    if state.finished:
        return f"{quoted}: the game is over."
    if move.kind != PLACE:
        return f"{quoted} is not allowed now; {tail}"
    assert move.cell is not None
    tile = LAID_TO_TILE[move.laid]
    if state.opening:
        return f"{quoted}: the round opens at 0,0 with the opening tile; {tail}"
    if state.drawn and tile != state.drawn:
        return f"{quoted}: you must play the tile you drew, {state.drawn}; {tail}"
    if state.stuck:
        return f"{quoted}: nothing fits; {tail}"
    if tile not in state.hands[state.turn]:
        return f"{quoted}: tile {tile} is not in your hand; {tail}"
    return f"{quoted}: {cell_problem(state, move.laid, move.cell)}; {tail}"


def cell_problem(state: State, laid: str, cell: Cell) -> str:
    """Why ``laid`` cannot go on ``cell``."""
    where = format_cell(cell)
    if cell in state.cells:
        return f"cell {where} is taken"
    if not any(other in state.cells for other in neighbours(cell)):
        return f"cell {where} shares no edge with a tile"
    names = CORNER_NAMES[points_up(cell)]
    for name, corner, digit in zip(names, corners(cell), laid, strict=True):
        need = state.corner_numbers.get(corner)
        if need is not None and need != int(digit):
            return f"at cell {where} the {name} corner must show {need}, not {digit}"
    return f"{laid} does not fit at {where}"

"""Geominos notation: the tile's name, its side and clockwise rotation, and the square of the
top-left corner of its bounding box: ``Chair B90 K12``.

Names are case-insensitive and a unique prefix is enough (``cha b90 k12``); ``B`` alone means
``B0``; the spaces may be left out (``chairb90k12``).
"""

from __future__ import annotations

import re

from games.errors import IllegalMoveError, InvalidMoveError
from games.geominos.board import SIZE, fits_on_board, parse_square, square_name
from games.geominos.rules import move_cost
from games.geominos.state import Move, State
from games.geominos.tiles import ROTATIONS, TILE_NAMES, pose

MOVE_PATTERN = re.compile(
    r"^(?P<name>[a-z]+?)\s*(?P<side>[ab])\s*(?P<rot>\d+)?\s*(?P<square>[a-u]\s*\d{1,2})$"
)
HOW = "write the tile, its side and rotation, and the square of its top-left corner, e.g. `Chair B90 K12`"
LISTED = 5


def format_move(move: Move) -> str:
    """The canonical text: ``Chair B90 K12``."""
    return f"{move.tile} {move.side}{move.rotation} {square_name(move.row, move.col)}"


def listing(moves: list[Move]) -> str:
    """The cheapest few moves, for error messages."""
    cheapest = sorted(moves, key=move_cost)[:LISTED]
    shown = ", ".join(f"`{format_move(move)}` ({move_cost(move)})" for move in cheapest)
    more = len(moves) - len(cheapest)
    return shown + (f" and {more} more" if more > 0 else "")


def match_tile(prefix: str) -> list[str]:
    """The tiles whose name is ``prefix`` or starts with it (any case)."""
    low = prefix.lower()
    exact = [tile for tile in TILE_NAMES if tile.lower() == low]
    return exact or [tile for tile in TILE_NAMES if tile.lower().startswith(low)]


def _split(raw: str) -> tuple[str, str, int, tuple[int, int]]:
    """Read name prefix, side, rotation and square; raises :class:`InvalidMoveError`."""
    text = " ".join(raw.lower().split())
    if text in ("pass", "draw"):
        raise InvalidMoveError(
            f"`{raw}`: nobody passes or draws by choice in Geominos: a player with no legal placement "
            f"is passed over automatically (+5 points). Place a tile: {HOW}."
        )
    words = text.split(" ")
    match = None
    if len(words) == 3:
        match = MOVE_PATTERN.match(f"{words[0]} {words[1]} {words[2]}")
    if match is None:
        match = MOVE_PATTERN.match(text.replace(" ", ""))
    if match is None:
        raise InvalidMoveError(f"`{raw}` is not a Geominos move: {HOW}.")
    rotation = int(match["rot"]) if match["rot"] is not None else 0
    if rotation not in ROTATIONS:
        raise InvalidMoveError(
            f"`{raw}`: the rotation is 0, 90, 180 or 270 degrees clockwise, not {rotation}."
        )
    square = parse_square(match["square"].replace(" ", ""))
    if square is None:
        raise InvalidMoveError(f"`{raw}`: squares run from A1 to U21.")
    return match["name"], match["side"].upper(), rotation, square


def parse_move(state: State, text: str) -> Move:
    """Read a placement for the seat to act; raises with what would be legal instead."""
    raw = text.strip()
    if state.finished or state.turn is None:
        raise IllegalMoveError(f"`{raw}`: the game is over ({state.reason}).")
    prefix, side, rotation, (row, col) = _split(raw)
    hand = state.hands[state.turn]
    tiles = match_tile(prefix)
    if not tiles:
        raise InvalidMoveError(
            f"`{raw}`: there is no tile called {prefix!r}; the tiles are: {', '.join(TILE_NAMES)}."
        )
    held = [tile for tile in tiles if tile in hand]
    if len(held) > 1:
        raise InvalidMoveError(f"`{raw}`: {prefix!r} could be {' or '.join(held)}; write more of the name.")
    if not held:
        raise IllegalMoveError(
            f"`{raw}`: you do not hold {' or '.join(tiles)}; your tiles are {', '.join(hand)}."
        )
    move = Move(held[0], side, rotation, row, col)
    check_legal(state, move, raw)
    return move


def check_legal(state: State, move: Move, raw: str) -> None:
    """Raise :class:`IllegalMoveError` saying why ``move`` is not legal, and what is."""
    if move in state.legal:
        return
    shape = pose(move.tile, move.side, move.rotation)
    text = format_move(move)
    if not fits_on_board(shape, move.row, move.col):
        size = f"{shape.height}x{shape.width}"
        why = f"`{raw}`: {text} would stick out of the board (it is {size} from its top-left corner)"
    elif any(state.grid[(move.row + dr) * SIZE + move.col + dc] for dr, dc, _ in shape.sections):
        why = f"`{raw}`: {text} would cover a square that is already taken"
    else:
        why = f"`{raw}`: {text} matches no pips: a section must sit beside a section with the same number"
    same = [legal for legal in state.legal if legal.tile == move.tile]
    options = listing(same) if same else f"{move.tile} has no place; try {listing(list(state.legal))}"
    raise IllegalMoveError(f"{why}. Cheapest placements: {options}.")

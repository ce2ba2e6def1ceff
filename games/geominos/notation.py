"""Geominos notation: the tile's name, its side and clockwise rotation, and the square of the
top-left corner of its bounding box: ``Chair B90 K12``.

Names are case-insensitive and a unique prefix is enough (``cha b90 k12``); ``B`` alone means
``B0``; the spaces may be left out (``chairb90k12``). The reader makes one pass over the text:
it splits it into runs of letters and digits (``chairb`` ``90`` ``k`` ``12``) and reads the
parts from those runs.
"""

from __future__ import annotations

from games.errors import IllegalMoveError, InvalidMoveError, quote
from games.geominos.board import COLUMNS, SIZE, fits_on_board, square_name
from games.geominos.rules import legal_moves, move_cost
from games.geominos.state import Move, State
from games.geominos.tiles import ROTATIONS, SIDES, TILE_NAMES, pose

HOW = "write the tile, its side and rotation, and the square of its top-left corner, e.g. `Chair B90 K12`"
LISTED = 5
LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
DIGITS = frozenset("0123456789")
TILES_LOWER = tuple((tile.lower(), tile) for tile in TILE_NAMES)


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
    exact = [tile for lower, tile in TILES_LOWER if lower == low]
    return exact or [tile for lower, tile in TILES_LOWER if lower.startswith(low)]


def runs(text: str) -> list[str] | None:
    """``text`` (lower case, spaces removed) as runs of ASCII letters and of digits, or None
    when it holds anything else."""
    found: list[str] = []
    start = 0
    for index, char in enumerate(text):
        if char not in LETTERS and char not in DIGITS:
            return None
        if index and (char in DIGITS) != (text[index - 1] in DIGITS):
            found.append(text[start:index])
            start = index
    if text:
        found.append(text[start:])
    return found


def _split(raw: str) -> tuple[str, str, str, str, str]:
    """Name prefix, side, rotation digits, column and row digits; raises
    :class:`InvalidMoveError` when the text has another shape."""
    parts = runs("".join(raw.lower().split()))
    wrong = InvalidMoveError(f"{quote(raw)} is not a Geominos move: {HOW}.")
    if parts is None or len(parts) not in (2, 4) or parts[0][0] in DIGITS:
        raise wrong
    if len(parts) == 4:
        head, rotation, column, row = parts
        if len(column) != 1:
            raise wrong
    else:
        head, row = parts
        head, column, rotation = head[:-1], head[-1:], ""
    name, side = head[:-1], head[-1:]
    if not name or side not in ("a", "b"):
        raise wrong
    return name, side.upper(), rotation, column, row


def _square(raw: str, column: str, row: str) -> tuple[int, int]:
    number = int(row) if len(row) <= 2 else 0
    if column.upper() not in COLUMNS or not 1 <= number <= SIZE:
        raise InvalidMoveError(f"{quote(raw)}: squares run from A1 to U21.")
    return number - 1, COLUMNS.index(column.upper())


def _rotation(raw: str, digits: str) -> int:
    if not digits:
        return 0
    significant = digits.lstrip("0") or "0"
    rotation = int(significant) if len(significant) <= 3 else -1
    if rotation not in ROTATIONS:
        raise InvalidMoveError(
            f"{quote(raw)}: the rotation is 0, 90, 180 or 270 degrees clockwise, not {quote(digits, 8)}."
        )
    return rotation


def _held_tile(state: State, raw: str, prefix: str) -> str:
    """The one tile of the mover's hand that ``prefix`` names."""
    assert state.turn is not None
    hand = state.hands[state.turn]
    tiles = match_tile(prefix)
    if not tiles:
        raise InvalidMoveError(
            f"{quote(raw)}: there is no tile called {quote(prefix)}; the tiles are: {', '.join(TILE_NAMES)}."
        )
    held = [tile for tile in tiles if tile in hand]
    if len(held) > 1:
        could = " or ".join(held)
        raise InvalidMoveError(f"{quote(raw)}: {quote(prefix)} could be {could}; write more of the name.")
    if not held:
        raise IllegalMoveError(
            f"{quote(raw)}: you do not hold {' or '.join(tiles)}; your tiles are {', '.join(hand)}."
        )
    return held[0]


def parse_move(state: State, text: str) -> Move:
    """Read a placement for the seat to act (text stripped, game not over)."""
    if " ".join(text.lower().split()) in ("pass", "draw"):
        raise InvalidMoveError(
            f"{quote(text)}: nobody passes or draws by choice in Geominos: a player with no legal "
            f"placement is passed over automatically (+5 points). Place a tile: {HOW}."
        )
    prefix, side, rotation, column, row = _split(text)
    turned = _rotation(text, rotation)
    square = _square(text, column, row)
    return Move(_held_tile(state, text, prefix), side, turned, *square)


def why_illegal(state: State, move: Move) -> str:
    """Why ``move`` (a well-formed placement) is not legal now, and the cheapest that are."""
    legal = legal_moves(state)
    if move.tile not in TILE_NAMES or move.side not in SIDES or move.rotation not in ROTATIONS:
        return f"{quote(repr(move))} is not a Geominos placement. Cheapest placements: {listing(legal)}."
    assert state.turn is not None
    text = quote(format_move(move))
    if move.tile not in state.hands[state.turn]:
        hand = ", ".join(state.hands[state.turn])
        return f"{text}: you do not hold {move.tile}; your tiles are {hand}. Cheapest: {listing(legal)}."
    shape = pose(move.tile, move.side, move.rotation)
    if not fits_on_board(shape, move.row, move.col):
        size = f"{shape.height}x{shape.width}"
        why = f"{text} would stick out of the board (it is {size} from its top-left corner)"
    elif any(state.grid[(move.row + dr) * SIZE + move.col + dc] for dr, dc, _ in shape.sections):
        why = f"{text} would cover a square that is already taken"
    else:
        why = f"{text} matches no pips: a section must sit beside a section with the same number"
    same = [placement for placement in legal if placement.tile == move.tile]
    options = listing(same) if same else f"{move.tile} has no place; try {listing(legal)}"
    return f"{why}. Cheapest placements: {options}."

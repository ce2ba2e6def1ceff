"""The Tri-Ominos notation: ``453@2,-1`` (the numbers as they lie, then the cell), ``draw``,
``pass``.

A placement reads the numbers from the top corner of an up cell (the bottom corner of a down
cell) clockwise. Accepted spellings: ``453@2,-1``, ``453 2,-1``, ``4-5-3@2,-1``,
``4-5-3 @ (2, -1)``. The reader is one pass over the text (no backtracking).
"""

from __future__ import annotations

from games.errors import InvalidMoveError, quote
from games.triominos.grid import Cell, corners, format_cell, neighbours, points_up
from games.triominos.rules import legal_moves
from games.triominos.state import DRAW_MOVE, PASS_MOVE, Move, MoveKind, State
from games.triominos.tiles import LAID_TO_TILE, ROTATIONS, digits

EXAMPLE = "`453@2,-1` (numbers as they lie from the top corner of an up cell clockwise, then x,y)"
CORNER_NAMES = {True: ("top", "lower right", "lower left"), False: ("bottom", "upper left", "upper right")}
WORDS = {"draw": DRAW_MOVE, "pass": PASS_MOVE}
ASCII_DIGITS = frozenset("0123456789")


def format_move(move: Move) -> str:
    """Canonical notation of ``move``."""
    if move.kind == MoveKind.PLACE:
        assert move.cell is not None
        return f"{move.laid}@{format_cell(move.cell)}"
    return str(move.kind)


class _Reader:
    """A cursor over the text of a move; every method moves forward only."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def spaces(self) -> int:
        """Skip whitespace; how much was skipped."""
        start = self.at
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1
        return self.at - start

    def take(self, char: str) -> bool:
        """Skip ``char`` if it is next."""
        if self.text.startswith(char, self.at):
            self.at += 1
            return True
        return False

    def digit(self) -> str | None:
        """The next character if it is a digit 0-9."""
        if self.at < len(self.text) and self.text[self.at] in ASCII_DIGITS:
            self.at += 1
            return self.text[self.at - 1]
        return None

    def integer(self) -> int | None:
        """A whole number, ``-`` allowed in front."""
        start = self.at
        self.take("-")
        while self.digit() is not None:
            pass
        number = self.text[start : self.at]
        return int(number) if number.lstrip("-") else None

    def laid(self) -> str | None:
        """Three digits, with spaces and one ``-`` allowed between them."""
        first = self.digit()
        found = [first]
        for _ in range(2):
            self.spaces()
            if self.take("-"):
                self.spaces()
            found.append(self.digit())
        return None if None in found else "".join(d for d in found if d)

    def separator(self, mark: str) -> bool:
        """``mark`` with spaces around it, or at least one space."""
        skipped = self.spaces()
        if self.take(mark):
            self.spaces()
            return True
        return skipped > 0

    def cell(self) -> Cell | None:
        """``x,y``, in brackets or not, with spaces around its parts."""
        self.take("(")
        self.spaces()
        x = self.integer()
        if x is None or not self.separator(","):
            return None
        y = self.integer()
        self.spaces()
        self.take(")")
        self.spaces()
        return None if y is None else (x, y)

    def at_end(self) -> bool:
        """True when every character was read."""
        return self.at == len(self.text)


def parse_move(text: str) -> Move:
    """The move ``text`` names (legal or not); raises :class:`InvalidMoveError`."""
    cleaned = text.strip().lower()
    if cleaned in WORDS:
        return WORDS[cleaned]
    reader = _Reader(cleaned)
    laid = reader.laid()
    cell = reader.cell() if laid is not None and reader.separator("@") else None
    if laid is None or cell is None or not reader.at_end():
        raise InvalidMoveError(
            f"{quote(text)} is not a Tri-Ominos move. Write a placement like {EXAMPLE}, or `draw` or `pass`."
        )
    if laid not in LAID_TO_TILE:
        raise InvalidMoveError(f"{quote(text)}: {unknown_tile(laid)}")
    return Move(MoveKind.PLACE, laid, cell)


def unknown_tile(laid: str) -> str:
    """Why no tile reads ``laid``: a number above 5, or the mirror image of a tile."""
    if max(digits(laid)) > 5:
        return "tiles only show the numbers 0 to 5."
    tile = LAID_TO_TILE[laid[0] + laid[2] + laid[1]]
    return (
        f"no tile reads {laid} clockwise (tiles are never turned over); "
        f"tile {tile} lies as {' or '.join(ROTATIONS[tile])}."
    )


def legal_summary(state: State, limit: int = 6) -> str:
    """What is legal now, in a few words."""
    moves = legal_moves(state)
    if not moves:
        return "the game is over."
    if moves[0].kind != MoveKind.PLACE:
        word = format_move(moves[0])
        if word == "pass":
            why = "the draw found nothing that fits" if state.stuck else "nothing in your hand fits"
            return f"{why}: `pass`."
        return f"nothing in your hand fits: `{word}` from the well."
    shown = ", ".join(f"`{format_move(move)}`" for move in moves[:limit])
    more = f" and {len(moves) - limit} more" if len(moves) > limit else ""
    return f"legal now: {shown}{more}."


def why_illegal(state: State, move: Move) -> str:
    """Why the well-formed ``move`` is not legal now, and what is."""
    quoted = quote(format_move(move))
    tail = legal_summary(state)
    if state.finished:
        return f"{quoted}: the game is over."
    if move.kind != MoveKind.PLACE:
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

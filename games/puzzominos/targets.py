"""The Puzz-Ominos solitaire targets: shapes to fill with one set of pentominoes (or two).

A target is a set of ``(x, y)`` squares inside a ``width`` x ``height`` box (``x`` to the right,
``y`` downward, the box's top-left square is ``(0, 0)``). Rectangles are named ``WxH``: ``6x10``
is 6 squares wide and 10 high, as the source text's "10 squares high x 6 squares wide".
Squares are named like a chess board read from the top: the column letter then the row number,
``A1`` the top-left square, ``B3`` the second column of the third row.

The Free Turn pieces are never used; ``pieces`` lists the pentomino names available (each name
twice for the two-set targets), and ``needed`` is how many of them fill the target.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from dataclasses import dataclass

from games.errors import InvalidMoveError, InvalidOptionsError
from games.puzzominos.pieces import PENTOMINOES

Cell = tuple[int, int]

COLUMNS = string.ascii_uppercase
"""Column letters: ``A`` is ``x = 0``."""


@dataclass(frozen=True)
class Target:
    """A solitaire challenge: the squares to fill and the pieces to fill them with."""

    name: str
    title: str
    width: int
    height: int
    cells: frozenset[Cell]
    pieces: tuple[str, ...]
    needed: int

    def __contains__(self, cell: object) -> bool:
        return cell in self.cells

    def holes(self) -> frozenset[Cell]:
        """Squares of the bounding box that are not part of the target."""
        box = {(x, y) for x in range(self.width) for y in range(self.height)}
        return frozenset(box - self.cells)


def _make(name: str, title: str, width: int, height: int, cells: Iterable[Cell], sets: int = 1) -> Target:
    squares = frozenset(cells)
    assert all(0 <= x < width and 0 <= y < height for x, y in squares), name
    pieces = PENTOMINOES * sets
    return Target(name, title, width, height, squares, pieces, len(squares) // 5)


def _box(width: int, height: int) -> set[Cell]:
    return {(x, y) for x in range(width) for y in range(height)}


def rectangle(width: int, height: int, sets: int = 1) -> Target:
    """The ``width`` x ``height`` rectangle, named ``WxH``."""
    pieces = "both sets of 24 pentominoes" if sets == 2 else "the 12 pentominoes"
    title = f"{width}x{height} rectangle ({width} wide, {height} high) with {pieces}"
    return _make(f"{width}x{height}", title, width, height, _box(width, height), sets)


def eight_by_eight(name: str, title: str, holes: Iterable[str]) -> Target:
    """The 8x8 square without the four named squares."""
    empty = {parse_square(square) for square in holes}
    return _make(name, title, 8, 8, _box(8, 8) - empty)


def big_t() -> Target:
    """The big T: a 9x3 bar over a 3x6 stem (45 squares, any 9 of the 12 pentominoes)."""
    bar = {(x, y) for x in range(9) for y in range(3)}
    stem = {(x, y) for x in range(3, 6) for y in range(3, 9)}
    title = "big T, 9 wide and 9 high: a 9x3 bar over a 3x6 stem (any 9 of the 12 pentominoes)"
    return _make("T", title, 9, 9, bar | stem)


def square_name(x: int, y: int) -> str:
    """``A1`` for ``(0, 0)``: the column letter, then the row number (rows counted from the top)."""
    if not 0 <= x < len(COLUMNS) or y < 0:
        raise ValueError(f"no square name for {x},{y}")
    return f"{COLUMNS[x]}{y + 1}"


_SQUARE = re.compile(r"^\s*([a-z])\s*(\d+)\s*$", re.IGNORECASE)


def parse_square(text: str) -> Cell:
    """``(x, y)`` of a square name such as ``C4`` (any case).

    Raises :class:`InvalidMoveError` quoting ``text`` when it is not a square name.
    """
    match = _SQUARE.match(text)
    if match is None or int(match[2]) < 1:
        raise InvalidMoveError(
            f"`{text.strip()}` is not a square. Name a square by its column letter and row number, "
            "e.g. `A1` (top-left) or `C4` (third column, fourth row)."
        )
    return COLUMNS.index(match[1].upper()), int(match[2]) - 1


TARGETS: dict[str, Target] = {
    target.name: target
    for target in (
        rectangle(6, 10),
        rectangle(5, 12),
        rectangle(4, 15),
        rectangle(3, 20),
        eight_by_eight("8x8-corners", "8x8 square without its four corner squares", ["A1", "H1", "A8", "H8"]),
        eight_by_eight(
            "8x8-b2g7", "8x8 square without the squares B2, G2, B7 and G7", ["B2", "G2", "B7", "G7"]
        ),
        eight_by_eight(
            "8x8-center", "8x8 square without its middle 2x2 (D4, E4, D5, E5)", ["D4", "E4", "D5", "E5"]
        ),
        big_t(),
        rectangle(10, 12, sets=2),
        rectangle(6, 20, sets=2),
    )
}
"""Every target of the rules file, in its order."""


def get_target(name: str) -> Target:
    """The target called ``name`` (any case, surrounding spaces ignored; ``×`` reads as ``x``).

    Raises :class:`InvalidOptionsError` listing the targets when there is none by that name.
    """
    wanted = name.strip().lower().replace("×", "x").replace(" ", "")
    for target in TARGETS.values():
        if target.name.lower() == wanted:
            return target
    raise InvalidOptionsError(f"`{name}` is not a Puzz-Ominos target; the targets are {', '.join(TARGETS)}.")

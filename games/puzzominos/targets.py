"""The Puzz-Ominos solitaire targets: shapes to fill with one set of pentominoes (or two).

A target is a set of ``(x, y)`` squares inside a ``width`` x ``height`` box (``x`` to the right,
``y`` downward, the box's top-left square is ``(0, 0)``). Rectangles are named ``WxH``: ``6x10``
is 6 squares wide and 10 high, as the source text's "10 squares high x 6 squares wide".
Squares are named like a chess board read from the top: the column letter then the row number,
``A1`` the top-left square, ``B3`` the second column of the third row.

Besides the named targets (:data:`TARGETS`), a target may be any rectangle ``WxH`` or any shape
drawn as rows (:mod:`games.puzzominos.shapes`), checked by :func:`parse_target`: its area must be
a multiple of 5 that one set (up to 60 squares) or both sets (up to 120) can fill, and it must
hold together. The piece count follows from the area: 45 squares take any 9 of the 12
pentominoes, 65 any 13 of both sets' 24.

The Free Turn pieces are never used; ``pieces`` lists the pentomino names available (each name
twice for the two-set targets), and ``needed`` is how many of them fill the target.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from games.core import counted
from games.errors import InvalidMoveError, InvalidOptionsError, quote
from games.puzzominos.pieces import PENTOMINOES
from games.puzzominos.reading import DIGITS, Scanner
from games.puzzominos.shapes import (
    EMPTY_MARKS,
    ROW_BREAKS,
    SQUARE_MARKS,
    Cell,
    Shape,
    canonical,
    drawing,
    is_rectangle,
    parts,
    read_drawing,
    size_of,
)

COLUMNS = string.ascii_uppercase
"""Column letters: ``A`` is ``x = 0``."""
PIECE_SIZE = 5
SET_SQUARES = PIECE_SIZE * len(PENTOMINOES)
"""Squares one set covers (60); both sets cover twice as many."""
MAX_SETS = 2
MAX_WIDTH = len(COLUMNS)
"""A target is at most 26 squares wide: its columns are named ``A`` to ``Z``."""
MAX_HEIGHT = 60
MAX_SPEC = MAX_HEIGHT * (MAX_WIDTH + 1)
"""The longest target text read (a drawing of 60 rows of 26 squares)."""
DEFAULT_TARGET = "6x10"
DRAWING_MARKS = SQUARE_MARKS | EMPTY_MARKS | ROW_BREAKS


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
    spec: str = ""
    """The text that names it in a game's options: a name, ``WxH`` or a drawing."""

    def __contains__(self, cell: object) -> bool:
        return cell in self.cells

    def holes(self) -> frozenset[Cell]:
        """Squares of the bounding box that are not part of the target."""
        box = {(x, y) for x in range(self.width) for y in range(self.height)}
        return frozenset(box - self.cells)

    @property
    def sets(self) -> int:
        """How many sets of pentominoes it draws from."""
        return len(self.pieces) // len(PENTOMINOES)


def _make(name: str, title: str, cells: Iterable[Cell], spec: str = "") -> Target:
    squares = frozenset(cells)
    width, height = size_of(squares)
    sets = 1 if len(squares) <= SET_SQUARES else 2
    return Target(
        name, title, width, height, squares, PENTOMINOES * sets, len(squares) // PIECE_SIZE, spec or name
    )


def _box(width: int, height: int) -> set[Cell]:
    return {(x, y) for x in range(width) for y in range(height)}


def pieces_phrase(needed: int, sets: int) -> str:
    """``the 12 pentominoes``, ``any 9 of the 12 pentominoes``, ``both sets of 24 pentominoes``,
    ``any 13 of both sets' 24 pentominoes``."""
    if sets == 1:
        whole = f"the {len(PENTOMINOES)} pentominoes"
        return whole if needed == len(PENTOMINOES) else f"any {needed} of {whole}"
    total = len(PENTOMINOES) * sets
    if needed == total:
        return f"both sets of {total} pentominoes"
    return f"any {needed} of both sets' {total} pentominoes"


def rectangle(width: int, height: int) -> Target:
    """The ``width`` x ``height`` rectangle, named ``WxH`` (both sets above 60 squares)."""
    area = width * height
    sets = 1 if area <= SET_SQUARES else 2
    title = (
        f"{width}x{height} rectangle ({width} wide, {height} high) with "
        f"{pieces_phrase(area // PIECE_SIZE, sets)}"
    )
    return _make(f"{width}x{height}", title, _box(width, height))


def eight_by_eight(name: str, title: str, holes: Iterable[str]) -> Target:
    """The 8x8 square without the four named squares."""
    empty = {parse_square(square) for square in holes}
    return _make(name, title, _box(8, 8) - empty)


def big_t() -> Target:
    """The big T: a 9x3 bar over a 3x6 stem (45 squares, any 9 of the 12 pentominoes)."""
    bar = {(x, y) for x in range(9) for y in range(3)}
    stem = {(x, y) for x in range(3, 6) for y in range(3, 9)}
    title = "big T, 9 wide and 9 high: a 9x3 bar over a 3x6 stem (any 9 of the 12 pentominoes)"
    return _make("T", title, bar | stem)


def big_cross() -> Target:
    """The big cross: an upright bar 4 wide and 9 high across a bar 12 wide and 3 high, each
    arm the same length on both sides (60 squares, the 12 pentominoes). The only plus shapes of
    60 squares with arms of one width are 2 wide (no solution: six pentominoes need 3x3 room) or
    the 8x8 square without its corners; this one has 24 solutions."""
    upright = {(x, y) for x in range(4, 8) for y in range(9)}
    across = {(x, y) for x in range(12) for y in range(3, 6)}
    title = "big cross, 12 wide and 9 high: a 4-wide upright bar across a 3-high bar (the 12 pentominoes)"
    return _make("cross", title, upright | across)


def ring() -> Target:
    """A ring for both sets: a 12x14 frame 3 squares thick around a 6x8 hole (120 squares)."""
    cells = {(x, y) for x, y in _box(12, 14) if not (3 <= x < 9 and 3 <= y < 11)}
    title = "ring, 12 wide and 14 high, 3 squares thick around a 6x8 hole (both sets of 24 pentominoes)"
    return _make("ring", title, cells)


def square_name(x: int, y: int) -> str:
    """``A1`` for ``(0, 0)``: the column letter, then the row number (rows counted from the top).
    A square off the named grid (left of A, right of Z, above row 1) is written ``x,y``."""
    if not 0 <= x < len(COLUMNS) or y < 0:
        return f"{x},{y}"
    return f"{COLUMNS[x]}{y + 1}"


def parse_square(text: str) -> Cell:
    """``(x, y)`` of a square name such as ``C4`` (any case, spaces around ignored).

    Raises :class:`InvalidMoveError` quoting ``text`` when it is not a square name.
    """
    scan = Scanner(text)
    scan.skip_spaces()
    column = scan.letter()
    scan.skip_spaces()
    row = scan.number()
    if not column or row is None or row < 1 or not scan.done():
        raise InvalidMoveError(
            f"{quote(text.strip())} is not a square. Name a square by its column letter and row number, "
            "e.g. `A1` (top-left) or `C4` (third column, fourth row)."
        )
    return COLUMNS.index(column), row - 1


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
        big_cross(),
        rectangle(10, 12),
        rectangle(6, 20),
        ring(),
    )
}
"""Every named target: the rules file's, in its order, with the big cross after the T and the
ring after the two-set rectangles."""

HOW_TO_NAME = (
    f"name a target ({', '.join(TARGETS)}), give a rectangle as WIDTHxHEIGHT (e.g. `5x12`), "
    "or draw a shape as rows of `X` (a square) and `.` (none) separated by `/` (e.g. `..XX/XXXXXX/XXXX`)"
)


# -- reading a target ----------------------------------------------------------------------------


def _compact(text: str) -> str:
    return "".join(text.split()).lower().replace("×", "x")


def get_target(name: str) -> Target:
    """The named target called ``name`` (any case, spaces ignored; ``×`` reads as ``x``).

    Raises :class:`InvalidOptionsError` listing the targets when there is none by that name.
    """
    found = _named(name)
    if found is None:
        raise InvalidOptionsError(
            f"{quote(name)} is not a Puzz-Ominos target; the targets are {', '.join(TARGETS)}."
        )
    return found


def is_named(text: str) -> bool:
    """Whether ``text`` names one of :data:`TARGETS` (all of them proven fillable by the tests,
    so a solitaire on one needs no solver run before it starts)."""
    return _named(text) is not None


def _named(text: str) -> Target | None:
    wanted = _compact(text)
    return next((target for target in TARGETS.values() if target.name.lower() == wanted), None)


@lru_cache(maxsize=512)
def parse_target(text: str) -> Target:
    """The target ``text`` names: a named target, a rectangle ``WxH`` or a drawn shape.

    Raises :class:`InvalidOptionsError` saying what to fix: an unknown name, a rectangle or
    shape too wide (26 columns) or too tall (60 rows), an area that is not a multiple of 5 or
    more than both sets cover (120), a shape that falls apart. Whether it can be filled is the
    solver's question (:func:`games.puzzominos.solver.check`), not this one's.
    """
    _check_length(text)
    named = _named(text)
    if named is not None:
        return named
    size = _rectangle_size(_compact(text))
    if size is not None:
        return _custom_rectangle(*size)
    if "/" in text or all(char in DRAWING_MARKS for char in text.strip()):
        return parse_shape(text)
    raise InvalidOptionsError(f"{quote(text)} is not a target: {HOW_TO_NAME}.")


def _check_length(text: str) -> None:
    if not text.strip():
        raise InvalidOptionsError(f"Choose a target: {HOW_TO_NAME}.")
    if len(text) > MAX_SPEC:
        raise InvalidOptionsError(
            f"{quote(text)} is too long for a target ({len(text)} characters): a target is at most "
            f"{MAX_WIDTH} squares wide and {MAX_HEIGHT} high."
        )


def _rectangle_size(text: str) -> tuple[int, int] | None:
    width, sep, height = text.partition("x")
    if not sep or not width or not height or not set(width + height) <= DIGITS:
        return None
    if len(width) > 4 or len(height) > 4:
        raise InvalidOptionsError(
            f"{quote(text)} is far too big: a target is at most {MAX_WIDTH} squares wide "
            f"and {MAX_HEIGHT} high."
        )
    return int(width), int(height)


def _custom_rectangle(width: int, height: int) -> Target:
    spec = f"{width}x{height}"
    if width < 1 or height < 1:
        raise InvalidOptionsError(
            f"{quote(spec)}: a rectangle is at least 1 square wide and high, e.g. `6x10`."
        )
    if width > MAX_WIDTH:
        upright = f" Stand it upright: `{height}x{width}`." if height <= MAX_WIDTH else ""
        raise InvalidOptionsError(
            f"{quote(spec)} is {width} squares wide; a target is at most {MAX_WIDTH} wide "
            f"(its columns are A to Z).{upright}"
        )
    if height > MAX_HEIGHT:
        raise InvalidOptionsError(
            f"{quote(spec)} is {height} squares high; a target is at most {MAX_HEIGHT} high."
        )
    similar = [name for name in TARGETS if name.startswith(f"{spec}-")]
    _check_area(spec, width * height, f" (Did you mean {' or '.join(similar)}?)" if similar else "")
    return rectangle(width, height)


def _check_area(spec: str, area: int, advice: str = "") -> None:
    most = SET_SQUARES * MAX_SETS
    if area < PIECE_SIZE:
        raise InvalidOptionsError(
            f"{quote(spec)} has {counted(area, 'square')}; a target needs at least "
            f"{PIECE_SIZE} (one pentomino)."
        )
    if area > most:
        raise InvalidOptionsError(
            f"{quote(spec)} has {counted(area, 'square')}; both sets together cover at most {most}: "
            f"make it {counted(area - most, 'square')} smaller."
        )
    extra = area % PIECE_SIZE
    if extra:
        raise InvalidOptionsError(
            f"{quote(spec)} has {counted(area, 'square')}; a target needs a multiple of {PIECE_SIZE} (each "
            f"pentomino covers {PIECE_SIZE}): add {PIECE_SIZE - extra} or take {extra} away.{advice}"
        )


def parse_shape(text: str) -> Target:
    """A target drawn as rows of ``X`` and ``.`` separated by ``/``.

    Raises :class:`InvalidOptionsError` saying what to fix: a stray character, too wide or too
    tall, the wrong number of squares, or squares that do not hold together.
    """
    _check_length(text)
    cells, stray = read_drawing(text.strip())
    if stray is not None:
        index, char = stray
        raise InvalidOptionsError(
            f"{quote(text)}: {quote(char)} (character {index + 1}) is not part of a drawing. Draw a "
            "square with `X`, no square with `.`, and separate the rows with `/`, e.g. `..XX/XXXXXX/XXXX`."
        )
    if not cells:
        raise InvalidOptionsError(
            f"{quote(text)} draws no square: draw squares with `X`, e.g. `..XX/XXXXXX/XXXX`."
        )
    width, height = size_of(cells)
    spec = drawing(cells)
    if width > MAX_WIDTH:
        raise InvalidOptionsError(
            f"{quote(text)} is {width} squares wide; a target is at most {MAX_WIDTH} wide (columns A to Z)."
        )
    if height > MAX_HEIGHT:
        raise InvalidOptionsError(f"{quote(text)} is {height} rows high; a target is at most {MAX_HEIGHT}.")
    _check_area(spec, len(cells))
    _check_connected(text, cells)
    sets = 1 if len(cells) <= SET_SQUARES else 2
    title = (
        f"shape {width} wide and {height} high, {counted(len(cells), 'square')}, with "
        f"{pieces_phrase(len(cells) // PIECE_SIZE, sets)}"
    )
    return _make(f"shape {width}x{height}", title, cells, spec)


def _check_connected(text: str, cells: Shape) -> None:
    found = parts(cells)
    if len(found) > 1:
        stray = min(found[-1], key=lambda c: (c[1], c[0]))
        raise InvalidOptionsError(
            f"{quote(text)} falls apart into {len(found)} parts (squares join edge to edge, not by "
            f"their corners): join the part at {square_name(*stray)} to the rest."
        )


# -- one name per shape --------------------------------------------------------------------------


def shape_key(cells: Iterable[Cell]) -> str:
    """The same text for a shape however it is turned or mirrored: ``WxH`` (narrow side first)
    for a rectangle, else the canonical drawing."""
    shape = frozenset(cells)
    if is_rectangle(shape):
        width, height = sorted(size_of(shape))
        return f"{width}x{height}"
    return canonical(shape)


_NAMED_KEYS = {shape_key(target.cells): name for name, target in TARGETS.items()}


def standing_name(target: Target) -> str:
    """What standings group ``target`` under: the named target of the same shape (``6x10`` for a
    ``10x6`` typed or a 6x10 rectangle drawn sideways), else :func:`shape_key`."""
    key = shape_key(target.cells)
    return _NAMED_KEYS.get(key, key)


def target_option(target: str | None = None, shape: str | None = None) -> str:
    """The ``target`` option value for a solitaire chosen with a ``target`` (a name, ``WxH`` or
    a drawing) or a drawn ``shape``, at most one of them (neither: the default target).

    Raises :class:`InvalidOptionsError` saying what to fix. The value names the same target in
    a stored game's options and its record: a named target's name, ``WxH``, or the drawing
    without empty border rows and columns.
    """
    chosen = [text for text in (target, shape) if text is not None and text.strip()]
    if len(chosen) > 1:
        raise InvalidOptionsError("Choose a target or draw a shape, not both.")
    if shape is not None and shape.strip():
        return parse_shape(shape).spec
    if target is not None and target.strip():
        return parse_target(target).spec
    return DEFAULT_TARGET

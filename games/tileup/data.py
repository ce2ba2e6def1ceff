"""Tile Up! components: squares, tiles, goal shapes and goal cards (pure data, no rules)."""

from __future__ import annotations

from functools import cache

SIZE = 11
"""The board is SIZE × SIZE squares: columns A–K, rows 1–11 top to bottom."""

COLUMNS = "ABCDEFGHIJK"
SQUARES = SIZE * SIZE

COLOURS = ("O", "B", "P")
"""Tile colours by letter, in canonical order: orange, blue, purple."""

COLOUR_NAMES = {"O": "orange", "B": "blue", "P": "purple"}

NUMBER_COUNTS = {1: 8, 2: 8, 3: 8, 4: 7, 5: 7}
"""How many tiles of each number there are in every colour (38 a colour, 114 in all)."""

TILE_LIMIT = 7
CARD_LIMIT = 3
"""At the end of a turn a player holds at most this many tiles and goal cards."""

Cell = tuple[int, int]

Stack = tuple[str, ...]
"""The tiles on one square, bottom first (the last one is the top tile)."""

SHAPES: dict[str, tuple[Cell, ...]] = {
    "I3": ((0, 0), (1, 0), (2, 0)),
    "V3": ((0, 0), (0, 1), (1, 1)),
    "I4": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "L4": ((0, 0), (0, 1), (0, 2), (1, 2)),
    "T4": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "O4": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "S4": ((1, 0), (2, 0), (0, 1), (1, 1)),
    "P5": ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)),
    "X5": ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
}
"""The nine goal shapes as (x, y) cells; each matches in any rotation or reflection."""

SHAPE_NAMES = tuple(SHAPES)


def square_name(index: int) -> str:
    """``0`` -> ``A1``; squares are numbered in reading order (row by row from the top)."""
    row, column = divmod(index, SIZE)
    return f"{COLUMNS[column]}{row + 1}"


def square_index(column: int, row: int) -> int:
    """The index of the square at 0-based ``column`` and ``row``."""
    return row * SIZE + column


def parse_square(text: str) -> int | None:
    """``C5`` (any case) -> its index, or None when it is not a square of the board."""
    text = text.strip().upper()
    digits = text[1:]
    if len(text) < 2 or text[0] not in COLUMNS or not (digits.isascii() and digits.isdigit()):
        return None
    row = int(digits)
    if not 1 <= row <= SIZE:
        return None
    return square_index(COLUMNS.index(text[0]), row - 1)


CENTER = tuple(parse_square(name) or 0 for name in ("F5", "E6", "F6", "G6", "F7"))
"""The five green squares, in the order the set-up tiles are placed on them."""

CORNERS = tuple(parse_square(name) or 0 for name in ("A1", "K1", "A11", "K11"))


def _neighbours(index: int) -> tuple[int, ...]:
    row, column = divmod(index, SIZE)
    found = []
    for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
        c, r = column + dc, row + dr
        if 0 <= c < SIZE and 0 <= r < SIZE:
            found.append(square_index(c, r))
    return tuple(found)


NEIGHBOURS = tuple(_neighbours(index) for index in range(SQUARES))
"""The orthogonal neighbours of every square."""


# -- tiles -------------------------------------------------------------------------------


def tile_name(colour: str, number: int) -> str:
    """``("O", 4)`` -> ``O4``."""
    return f"{colour}{number}"


def tile_colour(tile: str) -> str:
    """The colour letter of a tile."""
    return tile[0]


def tile_number(tile: str) -> int:
    """The number of a tile."""
    return int(tile[1])


ALL_TILES = tuple(
    tile_name(colour, number)
    for colour in COLOURS
    for number, count in NUMBER_COUNTS.items()
    for _ in range(count)
)
"""The 114 tiles in canonical order."""

TILE_KINDS = tuple(dict.fromkeys(ALL_TILES))
"""The 15 distinct tiles, in canonical order."""


def tile_key(tile: str) -> tuple[int, int]:
    """Sort key: colour order, then number."""
    return COLOURS.index(tile[0]), int(tile[1])


def parse_tile(text: str) -> str | None:
    """``o4`` -> ``O4``, or None when it is not a tile."""
    text = text.strip().upper()
    if len(text) == 2 and text[0] in COLOURS and text[1] in "12345":
        return text
    return None


# -- goal cards --------------------------------------------------------------------------


def card_name(colour: str, shape: str) -> str:
    """``("O", "L4")`` -> ``O-L4`` (the form used in deals)."""
    return f"{colour}-{shape}"


def card_colour(card: str) -> str:
    """The colour letter of a goal card."""
    return card[0]


def card_shape(card: str) -> str:
    """The shape name of a goal card."""
    return card[2:]


def card_label(card: str) -> str:
    """``O-L4`` -> ``orange L4``."""
    return f"{COLOUR_NAMES[card[0]]} {card[2:]}"


ALL_CARDS = tuple(card_name(colour, shape) for colour in COLOURS for shape in SHAPE_NAMES)
"""The 27 goal cards in canonical order."""


def _normalise(cells: frozenset[Cell]) -> frozenset[Cell]:
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return frozenset((x - min_x, y - min_y) for x, y in cells)


def orientations(cells: tuple[Cell, ...]) -> frozenset[frozenset[Cell]]:
    """Every rotation and reflection of a shape, each moved to touch (0, 0)."""
    found = set()
    for flip in (False, True):
        current = [(-x, y) if flip else (x, y) for x, y in cells]
        for _ in range(4):
            current = [(-y, x) for x, y in current]
            found.add(_normalise(frozenset(current)))
    return frozenset(found)


@cache
def shape_lookup() -> dict[frozenset[Cell], str]:
    """Every orientation of every goal shape -> the shape's name."""
    lookup = {}
    for name, cells in SHAPES.items():
        for form in orientations(cells):
            lookup[form] = name
    return lookup


def shape_of(squares: frozenset[int] | tuple[int, ...]) -> str | None:
    """The goal shape a set of squares forms (any rotation or reflection), or None."""
    if not 3 <= len(squares) <= 5:
        return None
    cells = frozenset((index % SIZE, index // SIZE) for index in squares)
    return shape_lookup().get(_normalise(cells))


@cache
def _placements(shape: str) -> tuple[frozenset[Cell], ...]:
    """Every orientation of ``shape``, normalised to touch (0, 0)."""
    return tuple(orientations(SHAPES[shape]))


def fits_inside(squares: frozenset[int] | tuple[int, ...], shape: str) -> bool:
    """True when ``squares`` (connected) could grow into ``shape``: they fit inside some rotation,
    reflection and shift of it."""
    if not squares or len(squares) > len(SHAPES[shape]):
        return False
    return _fits(_normalise(frozenset((index % SIZE, index // SIZE) for index in squares)), shape)


@cache
def _fits(cells: frozenset[Cell], shape: str) -> bool:
    span = len(SHAPES[shape])
    for form in _placements(shape):
        for dx in range(span):
            for dy in range(span):
                if all((x + dx, y + dy) in form for x, y in cells):
                    return True
    return False

"""Board geometry: 21x21 squares in 3x3 light and dark blocks, the free center, square names.

Squares are indexed ``row * 21 + column`` (both from 0). Columns are written ``A``-``U`` left to
right and rows ``1``-``21`` top to bottom, so index 0 is ``A1`` and the center is ``K11``.
"""

from __future__ import annotations

import re
from functools import cache

from games.geominos.tiles import Pose, pose

SIZE = 21
COLUMNS = "ABCDEFGHIJKLMNOPQRSTU"
CENTER_LOW, CENTER_HIGH = 9, 11
"""Rows and columns 9..11 (from 0) form the center square ``J10:L12``."""
SQUARE_PATTERN = re.compile(r"^([a-u])(\d{1,2})$", re.IGNORECASE)


def is_light(row: int, col: int) -> bool:
    """Light squares: 3x3 blocks laid like a checkerboard, the corners and the center light."""
    return (col // 3 + row // 3) % 2 == 0


def in_center(row: int, col: int) -> bool:
    """True on the free center square ``J10:L12`` (its pips are never assessed)."""
    return CENTER_LOW <= row <= CENTER_HIGH and CENTER_LOW <= col <= CENTER_HIGH


def assessed(row: int, col: int) -> bool:
    """True where pips cost points: a light square outside the center."""
    return is_light(row, col) and not in_center(row, col)


ASSESSED: tuple[bool, ...] = tuple(assessed(i // SIZE, i % SIZE) for i in range(SIZE * SIZE))


def square_name(row: int, col: int) -> str:
    """``K11`` for row 10, column 10 (from 0)."""
    return f"{COLUMNS[col]}{row + 1}"


def parse_square(text: str) -> tuple[int, int] | None:
    """``(row, col)`` of a square name like ``k11`` (any case), or None if it is not one."""
    match = SQUARE_PATTERN.match(text.strip())
    if match is None:
        return None
    row = int(match[2]) - 1
    if not 0 <= row < SIZE:
        return None
    return row, COLUMNS.index(match[1].upper())


def fits_on_board(shape: Pose, row: int, col: int) -> bool:
    """True when every section of ``shape`` with its top-left corner at ``(row, col)`` is on the board."""
    return 0 <= row <= SIZE - shape.height and 0 <= col <= SIZE - shape.width


@cache
def placement_cost(tile: str, side: str, rotation: int, row: int, col: int) -> int:
    """Points for placing that pose there: the pips on light squares outside the center."""
    total = 0
    for dr, dc, pips in pose(tile, side, rotation).sections:
        if ASSESSED[(row + dr) * SIZE + col + dc]:
            total += pips
    return total


def center_origin(shape: Pose) -> tuple[int, int]:
    """Where the center tile's top-left corner goes: its bounding box centered on ``K11``
    (for an even size, the extra row or column goes down or right)."""
    return 10 - (shape.height - 1) // 2, 10 - (shape.width - 1) // 2

"""Hex grid geometry in axial coordinates ``q,r`` (pointy-top hexagons).

Sides are numbered 0-5 clockwise from the top-right side; side ``k`` of a cell touches side
``k+3 (mod 6)`` of the neighbour in direction ``k``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Cell = tuple[int, int]

DIRECTIONS: tuple[Cell, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
"""The neighbour across side 0 (top-right), 1 (right), ... 5 (top-left)."""

ORIGIN: Cell = (0, 0)


def neighbour(cell: Cell, side: int) -> Cell:
    """The cell across ``side`` of ``cell``."""
    dq, dr = DIRECTIONS[side]
    return cell[0] + dq, cell[1] + dr


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six neighbours of ``cell``, by side 0-5."""
    q, r = cell
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(cell: Cell, other: Cell = ORIGIN) -> int:
    """Hex distance between two cells (the ring number of ``cell`` by default)."""
    dq = cell[0] - other[0]
    dr = cell[1] - other[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring_size(n: int) -> int:
    """How many cells ring ``n`` has."""
    return 1 if n == 0 else 6 * n


def ring(n: int) -> Iterator[Cell]:
    """The cells of ring ``n`` (hex distance ``n`` from 0,0)."""
    if n == 0:
        yield ORIGIN
        return
    q, r = -n, 0  # start at the left corner (n steps across side 4)
    for side in range(6):
        for _ in range(n):
            yield q, r
            q, r = neighbour((q, r), side)


def full_rings(occupied: Iterable[Cell]) -> int:
    """The largest ``R`` such that rings 0..R are all occupied, or -1 when 0,0 is empty."""
    counts: dict[int, int] = {}
    for cell in occupied:
        ring_number = distance(cell)
        counts[ring_number] = counts.get(ring_number, 0) + 1
    full = -1
    while counts.get(full + 1, 0) == ring_size(full + 1):
        full += 1
    return full


def format_cell(cell: Cell) -> str:
    """``q,r`` as written in the notation."""
    return f"{cell[0]},{cell[1]}"

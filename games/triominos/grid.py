"""The triangular grid: cells, their corners and their neighbours.

Cell ``(x, y)`` points up when ``x + y`` is even and down otherwise; ``x`` grows to the right
and ``y`` downward. Corners are lattice points ``(u, r)``: ``r`` is the horizontal grid line
(line ``y`` is the top of row ``y``) and ``u`` counts half tile widths, so an up cell ``(x, y)``
has its apex at ``(x + 1, y)`` and its base corners at ``(x, y + 1)`` and ``(x + 2, y + 1)``.
Every corner is shared by six cells. Corners are listed as the notation reads them: from the top
corner of an up cell (from the bottom corner of a down cell), clockwise.
"""

from __future__ import annotations

from functools import lru_cache

Cell = tuple[int, int]
Corner = tuple[int, int]


def points_up(cell: Cell) -> bool:
    """True when ``cell`` points up (``x + y`` even)."""
    return (cell[0] + cell[1]) % 2 == 0


@lru_cache(maxsize=65536)
def corners(cell: Cell) -> tuple[Corner, Corner, Corner]:
    """The three corners in notation order (top or bottom corner first, then clockwise)."""
    x, y = cell
    if points_up(cell):
        return (x + 1, y), (x + 2, y + 1), (x, y + 1)
    return (x + 1, y + 1), (x, y), (x + 2, y)


@lru_cache(maxsize=65536)
def neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The three cells sharing an edge with ``cell``: left, right, then below or above."""
    x, y = cell
    return (x - 1, y), (x + 1, y), (x, y + 1) if points_up(cell) else (x, y - 1)


@lru_cache(maxsize=65536)
def cells_at(corner: Corner) -> tuple[Cell, ...]:
    """The six cells sharing ``corner``: three in the row above it, three in the row below."""
    u, r = corner
    return tuple((x, y) for y in (r - 1, r) for x in (u - 2, u - 1, u))


@lru_cache(maxsize=65536)
def corner_parts(cell: Cell, index: int) -> tuple[tuple[Cell, Cell], tuple[Cell, Cell, Cell], Cell]:
    """Around corner ``index`` of ``cell``: the two edge neighbours sharing that corner, the
    three cells touching ``cell`` only at that corner, and the edge neighbour across the side
    opposite the corner."""
    corner = corners(cell)[index]
    edge: list[Cell] = []
    opposite: Cell | None = None
    for other in neighbours(cell):
        if corner in corners(other):
            edge.append(other)
        else:
            opposite = other
    assert opposite is not None and len(edge) == 2
    only = tuple(c for c in cells_at(corner) if c != cell and c not in edge)
    assert len(only) == 3
    return (edge[0], edge[1]), (only[0], only[1], only[2]), opposite


def format_cell(cell: Cell) -> str:
    """``x,y`` as the notation writes a cell."""
    return f"{cell[0]},{cell[1]}"

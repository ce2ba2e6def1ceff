"""Geometry of the two-player table: placed cells, contacts, enclosed empty groups, placements;
and :class:`Place`, a piece put somewhere, on the table or on a solitaire target.

The table is an unbounded grid of ``(x, y)`` cells (``y`` downward). Everything here is a pure
function of sets of cells, so the rules module and the renderer share one geometry.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from operator import itemgetter

from games.puzzominos.pieces import Cell, Cells, Orientation, distinct_orientations, oriented_cells

STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
"""The four edge-to-edge directions (diagonals never count)."""

ROW_MAJOR = itemgetter(1, 0)
"""Orders cells top to bottom, then left to right."""

Bounds = tuple[int, int, int, int]
"""``(min_x, min_y, max_x, max_y)`` of the pieces on the table, inclusive."""


def placed_cells(piece: str, orientation: Orientation, x: int, y: int) -> Cells:
    """The cells ``piece`` covers in ``orientation`` with its bounding box's top-left at ``x,y``."""
    return tuple((x + cx, y + cy) for cx, cy in oriented_cells(piece, orientation))


@dataclass(frozen=True, order=True)
class Place:
    """``piece`` in ``orientation`` with its bounding box's top-left corner at ``x,y`` (on the
    duel's table, or on a solitaire target where ``0,0`` is the square ``A1``)."""

    piece: str
    orientation: Orientation
    x: int
    y: int

    @property
    def cells(self) -> Cells:
        """The squares it covers."""
        return placed_cells(self.piece, self.orientation, self.x, self.y)


def ring(cells: Iterable[Cell]) -> set[Cell]:
    """Cells edge-adjacent to ``cells`` and not among them."""
    group = set(cells)
    return {(x + dx, y + dy) for x, y in group for dx, dy in STEPS} - group


@cache
def ring_of(piece: str, orientation: Orientation) -> tuple[tuple[Cell, int], ...]:
    """The :func:`ring` of ``piece`` in ``orientation`` with its top-left at 0,0, in a fixed
    order, each cell with how many squares of the piece it touches edge to edge."""
    shape = set(oriented_cells(piece, orientation))
    return tuple(((x, y), sum((x + dx, y + dy) in shape for dx, dy in STEPS)) for x, y in sorted(ring(shape)))


def frontier(own: Collection[Cell], occupied: Collection[Cell]) -> set[Cell]:
    """Empty cells edge-adjacent to ``own``: a placement touches ``own`` iff it covers one."""
    return {cell for cell in ring(own) if cell not in occupied}


def bounds_of(cells: Iterable[Cell]) -> Bounds:
    """The inclusive bounding box of a non-empty collection of cells."""
    xs: list[int] = []
    ys: list[int] = []
    for x, y in cells:
        xs.append(x)
        ys.append(y)
    return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Group:
    """A finite group of empty cells (walled in by pieces of either colour)."""

    cells: frozenset[Cell]

    @property
    def size(self) -> int:
        """How many empty squares the group has."""
        return len(self.cells)


def _flood(
    start: Cell,
    occupied: Collection[Cell],
    placed: Collection[Cell],
    bounds: Bounds | None,
    limit: int | None,
    known_open: Collection[Cell],
) -> tuple[set[Cell], bool]:
    """The empty group of ``start``: ``(cells, finished)``.

    Stops early (``finished`` False) when the group leaves ``bounds`` (so it is open), meets a
    cell of ``known_open`` or grows past ``limit`` cells.
    """
    seen = {start}
    todo = [start]
    while todo:
        x, y = todo.pop()
        if bounds is not None and not (bounds[0] <= x <= bounds[2] and bounds[1] <= y <= bounds[3]):
            return seen, False
        for dx, dy in STEPS:
            nxt = (x + dx, y + dy)
            if nxt in seen or nxt in occupied or nxt in placed:
                continue
            if nxt in known_open:
                return seen, False
            seen.add(nxt)
            if limit is not None and len(seen) > limit:
                return seen, False
            todo.append(nxt)
    return seen, True


def adjacent_groups(
    placed: Cells, occupied: Collection[Cell], bounds: Bounds | None, limit: int | None = None
) -> list[Group]:
    """The enclosed (finite) empty groups edge-adjacent to ``placed``, once each.

    ``occupied`` holds the other pieces (``placed`` may be among them or not). With ``bounds``
    (the box of every piece, the new one included) the answer is exact: a group reaching
    outside the box is open. With ``limit`` a group larger than ``limit`` is treated as open
    and not explored further (a cheap estimate, exact for groups up to ``limit`` squares).
    """
    placed_set = set(placed)
    done: set[Cell] = set()
    open_cells: set[Cell] = set()
    groups: list[Group] = []
    for cell in ring(placed_set):
        if cell in occupied or cell in done or cell in open_cells:
            continue
        cells, finished = _flood(cell, occupied, placed_set, bounds, limit, open_cells)
        if not finished:
            open_cells |= cells
            continue
        done |= cells
        groups.append(Group(frozenset(cells)))
    return groups


def iter_placements(
    pieces: Iterable[str], targets: Collection[Cell], occupied: Collection[Cell]
) -> Iterator[tuple[str, Orientation, int, int]]:
    """Every ``(piece, orientation, x, y)`` that covers a cell of ``targets`` without
    overlapping ``occupied``; canonical orientations only, each placement once, in a fixed order.
    """
    blocked = Blocked(occupied)
    for piece in pieces:
        for orientation in distinct_orientations(piece):
            shape = oriented_cells(piece, orientation)
            anchors = {(tx - cx, ty - cy) for tx, ty in targets for cx, cy in shape}
            free = anchors.difference(*(blocked.by(cell) for cell in shape))
            for ax, ay in sorted(free, key=ROW_MAJOR):
                yield piece, orientation, ax, ay


class Blocked:
    """Where a piece may not put its top-left corner because of ``occupied``: for a square
    ``(cx, cy)`` of the piece's shape, the corners that would put that square on a taken cell
    (made when first asked, once per square of a shape)."""

    def __init__(self, occupied: Collection[Cell]) -> None:
        self.occupied = occupied
        self.shifted: dict[Cell, set[Cell]] = {}

    def by(self, cell: Cell) -> set[Cell]:
        """The corners that put ``cell`` of a shape on a taken square."""
        found = self.shifted.get(cell)
        if found is None:
            cx, cy = cell
            found = self.shifted[cell] = {(x - cx, y - cy) for x, y in self.occupied}
        return found

"""Shapes as sets of squares: drawings, connectedness, and the canonical form under rotation
and reflection (so that the same shape drawn turned or mirrored is recognised as one).

A drawing is rows of ``X`` (a square) and ``.`` (no square) separated by ``/``, top row first:
``..XX/XXXXXX``. Cells are ``(x, y)`` with ``x`` to the right and ``y`` downward.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

Cell = tuple[int, int]
Shape = frozenset[Cell]

SQUARE_MARKS = frozenset("Xx#")
"""Characters that draw a square."""
EMPTY_MARKS = frozenset("._- ")
"""Characters that draw no square."""
ROW_BREAKS = frozenset("/\n")

STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def normalise(cells: Iterable[Cell]) -> Shape:
    """``cells`` moved so that the bounding box starts at ``(0, 0)``."""
    found = list(cells)
    if not found:
        return frozenset()
    min_x = min(x for x, _ in found)
    min_y = min(y for _, y in found)
    return frozenset((x - min_x, y - min_y) for x, y in found)


def size_of(cells: Collection[Cell]) -> tuple[int, int]:
    """``(width, height)`` of the bounding box of non-empty ``cells`` placed at ``(0, 0)``."""
    return max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1


def drawing(cells: Collection[Cell]) -> str:
    """The drawing of normalised ``cells``: rows of ``X`` and ``.`` without trailing dots."""
    width, height = size_of(cells)
    rows = ("".join("X" if (x, y) in cells else "." for x in range(width)).rstrip(".") for y in range(height))
    return "/".join(rows)


def read_drawing(text: str) -> tuple[Shape, tuple[int, str] | None]:
    """The squares drawn in ``text`` (normalised), and the first character that is neither a
    square, an empty square nor a row break as ``(position, character)`` (None when all are)."""
    cells = []
    x = y = 0
    for index, char in enumerate(text):
        if char in ROW_BREAKS:
            x, y = 0, y + 1
            continue
        if char in SQUARE_MARKS:
            cells.append((x, y))
        elif char not in EMPTY_MARKS:
            return frozenset(), (index, char)
        x += 1
    return normalise(cells), None


def parts(cells: Collection[Cell]) -> list[Shape]:
    """The edge-connected parts of ``cells``, largest first (diagonal neighbours do not join)."""
    left = set(cells)
    found = []
    while left:
        start = min(left, key=lambda c: (c[1], c[0]))
        part = {start}
        todo = [start]
        left.discard(start)
        while todo:
            x, y = todo.pop()
            for dx, dy in STEPS:
                nxt = (x + dx, y + dy)
                if nxt in left:
                    left.discard(nxt)
                    part.add(nxt)
                    todo.append(nxt)
        found.append(frozenset(part))
    return sorted(found, key=len, reverse=True)


TRANSFORMS: tuple[Callable[[int, int], Cell], ...] = (
    lambda x, y: (x, y),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (-x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, x),
    lambda x, y: (y, -x),
    lambda x, y: (-y, -x),
)
"""The eight rotations and reflections of the square grid."""


def images(cells: Iterable[Cell]) -> list[Shape]:
    """``cells`` under each rotation and reflection, normalised."""
    found = list(cells)
    return [normalise(move(x, y) for x, y in found) for move in TRANSFORMS]


def canonical(cells: Iterable[Cell]) -> str:
    """One drawing for the shape whatever way it is turned or mirrored: the smallest drawing
    (shortest first, then in character order) of its eight images."""
    return min((drawing(image) for image in images(cells)), key=lambda text: (len(text), text))


def is_rectangle(cells: Collection[Cell]) -> bool:
    """True when normalised ``cells`` fill their bounding box."""
    width, height = size_of(cells)
    return len(cells) == width * height

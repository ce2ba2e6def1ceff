"""The Puzz-Ominos pieces: 12 pentominoes and the two Free Turn pieces, and their orientations.

Shapes are written row by row, rows separated by ``/``, ``X`` a square. Orientation ``r0``-``r3``
is that many quarter turns clockwise; ``f`` mirrors the piece left to right *before* rotating.
Cells are ``(x, y)`` with ``x`` to the right and ``y`` downward, normalised so that the bounding
box's top-left corner is ``(0, 0)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

Cell = tuple[int, int]
Cells = tuple[Cell, ...]

PENTOMINO_SHAPES: dict[str, str] = {
    "F": ".XX/XX./.X.",
    "I": "XXXXX",
    "L": "X./X./X./XX",
    "N": ".X/XX/X./X.",
    "P": "XX/XX/X.",
    "T": "XXX/.X./.X.",
    "U": "X.X/XXX",
    "V": "X../X../XXX",
    "W": "X../XX./.XX",
    "X": ".X./XXX/.X.",
    "Y": ".X/XX/.X/.X",
    "Z": "XX./.X./.XX",
}
FREE_TURN_SHAPES: dict[str, str] = {"V3": "XX/X.", "T4": "XXX/.X."}
SHAPES: dict[str, str] = {**PENTOMINO_SHAPES, **FREE_TURN_SHAPES}

PENTOMINOES: tuple[str, ...] = tuple(PENTOMINO_SHAPES)
FREE_TURN_PIECES: tuple[str, ...] = tuple(FREE_TURN_SHAPES)
ALL_PIECES: tuple[str, ...] = PENTOMINOES + FREE_TURN_PIECES
"""A full set in the order of the notation's names."""


@dataclass(frozen=True, order=True)
class Orientation:
    """Quarter turns clockwise (0-3) after an optional left-right mirror."""

    rotation: int
    flipped: bool

    def notation(self) -> str:
        """``r1f``, ``r0``, ..."""
        return f"r{self.rotation}{'f' if self.flipped else ''}"


ORIENTATIONS: tuple[Orientation, ...] = tuple(
    Orientation(rotation, flipped) for flipped in (False, True) for rotation in range(4)
)


def parse_shape(shape: str) -> Cells:
    """The cells of a ``/``-separated shape drawing, normalised."""
    cells = [(x, y) for y, row in enumerate(shape.split("/")) for x, mark in enumerate(row) if mark == "X"]
    return normalise(cells)


def normalise(cells: list[Cell] | Cells) -> Cells:
    """Shift cells so the bounding box starts at ``(0, 0)``; sorted by row, then column."""
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return tuple(sorted(((x - min_x, y - min_y) for x, y in cells), key=lambda c: (c[1], c[0])))


def transform(cells: Cells, orientation: Orientation) -> Cells:
    """``cells`` mirrored (if flipped) and then turned clockwise ``rotation`` times."""
    result = list(cells)
    if orientation.flipped:
        width = max(x for x, _ in result) + 1
        result = [(width - 1 - x, y) for x, y in result]
    for _ in range(orientation.rotation):
        height = max(y for _, y in result) + 1
        result = [(height - 1 - y, x) for x, y in result]
    return normalise(result)


@cache
def base_cells(piece: str) -> Cells:
    """The cells of ``piece`` in orientation ``r0``."""
    return parse_shape(SHAPES[piece])


@cache
def oriented_cells(piece: str, orientation: Orientation) -> Cells:
    """The cells of ``piece`` in ``orientation``."""
    return transform(base_cells(piece), orientation)


@cache
def canonical_orientation(piece: str, orientation: Orientation) -> Orientation:
    """The first orientation (in ``ORIENTATIONS`` order) that gives the same cells.

    Symmetric pieces look the same in several orientations; moves always carry the canonical
    one, so each distinct placement is exactly one move.
    """
    cells = oriented_cells(piece, orientation)
    for candidate in ORIENTATIONS:
        if oriented_cells(piece, candidate) == cells:
            return candidate
    raise AssertionError("unreachable: the orientation itself matches")


@cache
def distinct_orientations(piece: str) -> tuple[Orientation, ...]:
    """The canonical orientations of ``piece``: one per distinct shape on the grid."""
    return tuple(o for o in ORIENTATIONS if canonical_orientation(piece, o) == o)


def size(piece: str) -> int:
    """How many squares ``piece`` covers."""
    return len(base_cells(piece))


def find_piece(text: str) -> str | None:
    """The piece named ``text`` (any case), or None."""
    wanted = text.strip().upper()
    return wanted if wanted in SHAPES else None

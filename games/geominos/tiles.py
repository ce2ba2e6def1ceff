"""The 21 two-sided Geominos tiles (the table of the rules file is the data) and their poses.

A *pose* is a tile turned to one side and rotated clockwise by 0, 90, 180 or 270 degrees; its
sections are given relative to the top-left corner of its bounding box. Side B at rotation 0 is
the shape mirrored left to right (the tile turned over about its vertical axis).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

SIDES = ("A", "B")
ROTATIONS = (0, 90, 180, 270)

TILE_TABLE: tuple[tuple[str, str, str, str], ...] = (
    ("Hammer", "XXX/.X./.X.", "31542", "62115"),
    ("Stairs", "X../XX./.XX", "46133", "22564"),
    ("Star", ".X./XXX/.X.", "16553", "62423"),
    ("Boot", "X./X./X./XX", "43625", "36224"),
    ("Snake", "XX../.XX./..XX", "124146", "651422"),
    ("Sword", ".X./XXX/.X./.X.", "246341", "214543"),
    ("Flag", "XX/XX/X./X.", "621353", "533234"),
    ("Table", "XXXX/X..X", "526653", "564526"),
    ("Chair", "X../X../XXX/X.X", "1166615", "4663521"),
    ("Sailboat", ".X../.XX./XXXX", "2153351", "1226115"),
    ("Ladder", "X.X/XXX/X.X", "4233153", "4122543"),
    ("Dog", "X.../XXXX/X..X", "2162555", "2665411"),
    ("Camel", ".X.X./XXXXX", "3543365", "4223663"),
    ("Seahorse", "XX./.X./.X./XX./.XX", "21346462", "22264514"),
    ("Tree", ".X./XXX/XXX/.X.", "65222534", "23643531"),
    ("Rabbit", "X.X/X.X/XXX/.X.", "51423535", "36144614"),
    ("Crown", "X.X.X/XXXXX", "43616316", "45554211"),
    ("Gorilla", ".X./XXX/XXX/X.X", "652243661", "116443365"),
    ("Elephant", "XXX./XXXX/X.X.", "353445443", "645614314"),
    ("Giraffe", "X.../XX../.X../.XXX/.X.X", "616422426", "632641315"),
    ("Anchor", ".X./XXX/.X./.X./XXX", "155511125", "333415125"),
)
"""``(name, shape, side A pips, side B pips)``: shape rows split by ``/``, ``X`` a section;
pips listed section by section reading the shape row by row, left to right."""

TILE_NAMES: tuple[str, ...] = tuple(row[0] for row in TILE_TABLE)

Section = tuple[int, int, int]
"""``(row, column, pips)`` of one section relative to its pose's top-left corner."""


@dataclass(frozen=True)
class Pose:
    """A tile on one side at one rotation: its sections, bounding box and occupancy mask.

    ``mask`` has bit ``row * 21 + column`` set for each section (a 21-wide board), so the pose
    placed with its top-left corner on square index ``i`` covers ``mask << i``.
    """

    tile: str
    side: str
    rotation: int
    sections: tuple[Section, ...]
    height: int
    width: int
    mask: int

    @property
    def label(self) -> str:
        """Side and rotation as the notation writes them: ``B90``."""
        return f"{self.side}{self.rotation}"


def shape_cells(shape: str) -> list[tuple[int, int]]:
    """The ``(row, column)`` of each section of a shape, row by row, left to right."""
    return [(r, c) for r, line in enumerate(shape.split("/")) for c, mark in enumerate(line) if mark == "X"]


def _normalise(cells: list[Section]) -> tuple[Section, ...]:
    top = min(r for r, _, _ in cells)
    left = min(c for _, c, _ in cells)
    return tuple(sorted((r - top, c - left, p) for r, c, p in cells))


def _rotate(cells: list[Section]) -> list[Section]:
    """A quarter turn clockwise: (row, col) -> (col, -row)."""
    return [(c, -r, p) for r, c, p in cells]


def _build_pose(tile: str, side: str, rotation: int, width: int = 21) -> Pose:
    name, shape, side_a, side_b = TILE_TABLE[TILE_NAMES.index(tile)]
    cells = shape_cells(shape)
    pips = side_a if side == "A" else side_b
    sections: list[Section] = [(r, c, int(p)) for (r, c), p in zip(cells, pips, strict=True)]
    if side == "B":
        sections = [(r, -c, p) for r, c, p in sections]
    for _ in range(rotation // 90):
        sections = _rotate(sections)
    placed = _normalise(sections)
    height = 1 + max(r for r, _, _ in placed)
    wide = 1 + max(c for _, c, _ in placed)
    mask = 0
    for r, c, _ in placed:
        mask |= 1 << (r * width + c)
    return Pose(name, side, rotation, placed, height, wide, mask)


@cache
def pose(tile: str, side: str, rotation: int) -> Pose:
    """The pose of ``tile`` (a name from :data:`TILE_NAMES`) on ``side`` at ``rotation``."""
    return _build_pose(tile, side, rotation)


@cache
def poses(tile: str) -> tuple[Pose, ...]:
    """All eight poses of a tile: side A then B, rotations 0, 90, 180, 270."""
    return tuple(pose(tile, side, rotation) for side in SIDES for rotation in ROTATIONS)


def sections_count(tile: str) -> int:
    """How many sections (squares) a tile has."""
    return len(pose(tile, "A", 0).sections)

"""Exact-cover solver for the Puzz-Ominos solitaire targets.

The target's squares are numbered in a fixed scan order (down the short side first) and a
position is a bitmask of its empty squares. The search always fills the first empty square:
every placement that covers it, precomputed per square, is tried in turn. Pieces left are a
small integer with one bit field per piece name (two copies of a name with two sets).

Counting distinct solutions (a solution and its rotations/reflections of the whole target
count once) fixes one piece that every solution uses, normally ``X``, at one placement per
orbit of the target's symmetry group; when such a placement is itself symmetric, only the
solutions that are the smallest among their images under its stabiliser are counted.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from games.errors import GameError
from games.puzzominos.notation import Place
from games.puzzominos.pieces import distinct_orientations, oriented_cells
from games.puzzominos.targets import Cell, Target, get_target

Symmetry = Callable[[Cell], Cell]


@dataclass(frozen=True)
class Choice:
    """The placements of one piece name whose first square (in scan order) is a given square."""

    field: int
    """Bits of the piece's count in the pieces-left integer."""
    unit: int
    """One copy of the piece in the pieces-left integer."""
    masks: tuple[int, ...]


class Problem:
    """A target compiled for the search: scan order, placements, symmetries."""

    def __init__(self, target: Target) -> None:
        self.target = target
        by_row = target.width >= target.height
        self.order: tuple[Cell, ...] = tuple(
            sorted(target.cells, key=(lambda c: (c[0], c[1])) if by_row else (lambda c: (c[1], c[0])))
        )
        self.index: dict[Cell, int] = {cell: i for i, cell in enumerate(self.order)}
        self.full = (1 << len(self.order)) - 1
        counts = Counter(target.pieces)
        self.names: tuple[str, ...] = tuple(counts)
        width = max(counts.values()).bit_length()
        self.fields: dict[str, tuple[int, int]] = {}
        self.all_pieces = 0
        for i, name in enumerate(self.names):
            unit = 1 << (i * width)
            self.fields[name] = (unit * ((1 << width) - 1), unit)
            self.all_pieces += unit * counts[name]
        self.place_of: dict[int, Place] = {}
        self.masks_of: dict[str, list[int]] = {name: [] for name in self.names}
        for name in self.names:
            for orientation in distinct_orientations(name):
                shape = oriented_cells(name, orientation)
                span_x = max(x for x, _ in shape)
                span_y = max(y for _, y in shape)
                for oy in range(target.height - span_y):
                    for ox in range(target.width - span_x):
                        mask = self.mask_of((ox + x, oy + y) for x, y in shape)
                        if mask is not None:
                            self.place_of[mask] = Place(name, orientation, ox, oy)
                            self.masks_of[name].append(mask)
        self.table: list[tuple[Choice, ...]] = [self._choices(bit) for bit in range(len(self.order))]
        self.symmetries: tuple[tuple[int, ...], ...] = self._symmetries()

    def mask_of(self, cells: object) -> int | None:
        """The bitmask of ``cells`` (an iterable of squares), or None if one is off the target."""
        mask = 0
        for cell in cells:  # type: ignore[attr-defined]
            bit = self.index.get(cell)
            if bit is None:
                return None
            mask |= 1 << bit
        return mask

    def _choices(self, bit: int) -> tuple[Choice, ...]:
        choices = []
        for name in self.names:
            masks = tuple(m for m in self.masks_of[name] if (m & -m).bit_length() - 1 == bit)
            if masks:
                field, unit = self.fields[name]
                choices.append(Choice(field, unit, masks))
        return tuple(choices)

    def _symmetries(self) -> tuple[tuple[int, ...], ...]:
        """Permutations of square numbers for every symmetry of the target but the identity."""
        w, h = self.target.width - 1, self.target.height - 1
        maps: list[Symmetry] = [
            lambda c: (w - c[0], c[1]),
            lambda c: (c[0], h - c[1]),
            lambda c: (w - c[0], h - c[1]),
        ]
        if w == h:
            maps += [
                lambda c: (c[1], c[0]),
                lambda c: (h - c[1], c[0]),
                lambda c: (c[1], w - c[0]),
                lambda c: (h - c[1], w - c[0]),
            ]
        result = []
        for sym in maps:
            if all(sym(cell) in self.index for cell in self.order):
                result.append(tuple(self.index[sym(cell)] for cell in self.order))
        return tuple(result)

    def image(self, mask: int, perm: tuple[int, ...]) -> int:
        """``mask`` moved by the symmetry ``perm``."""
        out = 0
        while mask:
            low = mask & -mask
            out |= 1 << perm[low.bit_length() - 1]
            mask ^= low
        return out

    def grid(self, masks: Sequence[int], perm: tuple[int, ...] | None = None) -> tuple[str, ...]:
        """The piece name on every square (in scan order), optionally after a symmetry."""
        cells = [""] * len(self.order)
        for mask in masks:
            name = self.place_of[mask].piece
            moved = mask if perm is None else self.image(mask, perm)
            while moved:
                low = moved & -moved
                cells[low.bit_length() - 1] = name
                moved ^= low
        return tuple(cells)

    # -- search -------------------------------------------------------------------------------

    def search(self, empty: int, left: int) -> Iterator[list[int]]:
        """Every way to fill ``empty`` with pieces from ``left``, as lists of masks."""
        table = self.table
        chosen: list[int] = []

        def fill(empty: int, left: int) -> Iterator[list[int]]:
            if not empty:
                yield chosen
                return
            for choice in table[(empty & -empty).bit_length() - 1]:
                if left & choice.field:
                    rest = left - choice.unit
                    for mask in choice.masks:
                        if mask & empty == mask:
                            chosen.append(mask)
                            yield from fill(empty ^ mask, rest)
                            chosen.pop()

        yield from fill(empty, left)

    def count(self, empty: int, left: int) -> int:
        """How many ways fill ``empty`` with pieces from ``left``."""
        table = self.table
        shift = left.bit_length() + 1
        memo: dict[int, int] = {}

        def fill(empty: int, left: int) -> int:
            total = 0
            for choice in table[(empty & -empty).bit_length() - 1]:
                if left & choice.field:
                    rest = left - choice.unit
                    for mask in choice.masks:
                        if mask & empty == mask:
                            after = empty ^ mask
                            if not after:
                                total += 1
                                continue
                            key = after << shift | rest
                            found = memo.get(key)
                            if found is None:
                                found = memo[key] = fill(after, rest)
                            total += found
            return total

        return fill(empty, left) if empty else 1

    # -- positions ----------------------------------------------------------------------------

    def position(self, placed: Sequence[Place]) -> tuple[int, int] | None:
        """``(empty, left)`` after ``placed``, or None if they leave the target, overlap or
        use a piece that is not available."""
        empty, left = self.full, self.all_pieces
        for place in placed:
            if place.piece not in self.fields:
                return None
            cells = ((place.x + x, place.y + y) for x, y in oriented_cells(place.piece, place.orientation))
            mask = self.mask_of(cells)
            field, unit = self.fields[place.piece]
            if mask is None or mask & empty != mask or not left & field:
                return None
            empty ^= mask
            left -= unit
        return empty, left

    def is_canonical(self, masks: Sequence[int], perms: Sequence[tuple[int, ...]]) -> bool:
        """Whether the solution's letter grid is the smallest among its images under ``perms``."""
        grid = self.grid(masks)
        return all(grid <= self.grid(masks, perm) for perm in perms)

    def breaker(self) -> str | None:
        """The piece that every solution uses once with the fewest placements up to symmetry."""
        if self.target.needed != len(self.target.pieces):
            return None
        counts = Counter(self.target.pieces)
        singles = [name for name in self.names if counts[name] == 1]
        if not singles:
            return None
        return min(singles, key=lambda name: len(self.orbits(name)))

    def orbits(self, name: str) -> list[tuple[int, list[tuple[int, ...]]]]:
        """One placement of ``name`` per orbit under the symmetries, with its stabiliser."""
        seen: set[int] = set()
        result = []
        for mask in self.masks_of[name]:
            if mask in seen:
                continue
            images = [self.image(mask, perm) for perm in self.symmetries]
            seen.add(mask)
            seen.update(images)
            stabiliser = [perm for perm, moved in zip(self.symmetries, images, strict=True) if moved == mask]
            result.append((mask, stabiliser))
        return result

    def count_distinct(self) -> int:
        """Solutions counted once per rotation/reflection class of the whole target."""
        name = self.breaker()
        if name is None or not self.symmetries:
            if not self.symmetries:
                return self.count(self.full, self.all_pieces)
            return sum(
                1
                for masks in self.search(self.full, self.all_pieces)
                if self.is_canonical(masks, self.symmetries)
            )
        _, unit = self.fields[name]
        total = 0
        for mask, stabiliser in self.orbits(name):
            empty, left = self.full ^ mask, self.all_pieces - unit
            if not stabiliser:
                total += self.count(empty, left)
                continue
            for masks in self.search(empty, left):
                total += self.is_canonical([mask, *masks], stabiliser)
        return total


@cache
def problem(target: Target) -> Problem:
    """The compiled form of ``target`` (cached)."""
    return Problem(target)


def complete(target: Target, placed: Sequence[Place]) -> tuple[Place, ...] | None:
    """Placements (target coordinates) that fill the rest of ``target`` after ``placed``.

    ``()`` when the target is already full; None when the position cannot be completed
    (including when ``placed`` leaves the target, overlaps or uses a piece twice too often).
    """
    compiled = problem(target)
    start = compiled.position(placed)
    if start is None:
        return None
    for masks in compiled.search(*start):
        return tuple(compiled.place_of[mask] for mask in masks)
    return None


def solutions(target: Target) -> Iterator[tuple[Place, ...]]:
    """Every solution of ``target``, symmetric copies included, each in scan order of its pieces."""
    compiled = problem(target)
    for masks in compiled.search(compiled.full, compiled.all_pieces):
        yield tuple(compiled.place_of[mask] for mask in masks)


def count_solutions(target: Target, distinct: bool = True) -> int:
    """How many solutions ``target`` has; with ``distinct`` a whole-target rotation or
    reflection of a solution is the same solution."""
    compiled = problem(target)
    if distinct:
        return compiled.count_distinct()
    return compiled.count(compiled.full, compiled.all_pieces)


def render(target: Target, placed: Sequence[Place]) -> str:
    """A text grid of the target: each square shows its piece's letter, ``.`` empty, space a hole."""
    rows = [[" "] * target.width for _ in range(target.height)]
    for x, y in target.cells:
        rows[y][x] = "."
    for place in placed:
        for cx, cy in oriented_cells(place.piece, place.orientation):
            rows[place.y + cy][place.x + cx] = place.piece
    return "\n".join("".join(row).rstrip() for row in rows)


USAGE = "usage: python -m games solve puzzominos TARGET [--count] [--all]"


def main_solve(argv: list[str]) -> int:
    """``python -m games solve puzzominos TARGET [--count] [--all]``.

    Prints one solution as a grid of letters; with ``--count`` the number of distinct solutions
    (``--all`` counts symmetric copies too) and the time taken.
    """
    flags = {arg for arg in argv if arg.startswith("--")}
    names = [arg for arg in argv if not arg.startswith("--")]
    unknown = flags - {"--count", "--all"}
    if len(names) != 1 or unknown:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        target = get_target(names[0])
    except GameError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    if "--count" in flags:
        distinct = "--all" not in flags
        total = count_solutions(target, distinct=distinct)
        kind = "distinct solutions" if distinct else "solutions (symmetric copies included)"
        print(f"{target.name}: {total} {kind} in {time.perf_counter() - start:.2f} s")
        return 0
    solution = complete(target, ())
    if solution is None:
        print(f"{target.name}: no solution")
        return 1
    print(render(target, solution))
    print(f"{target.name}: solved in {time.perf_counter() - start:.2f} s")
    return 0

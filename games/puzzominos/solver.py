"""Exact-cover solver for the Puzz-Ominos solitaire targets.

A position is a bitmask of the target's empty squares. Bits number the target's bounding box
line by line along its *short* side (down the columns of a wide box, along the rows of a tall
one), so the lowest empty bit is the first empty square in that scan order. The search always
fills that square: every placement whose first square it is has been precomputed, and each is
tried in turn (a placement fits when ``mask & empty == mask``). The pieces left are one integer
with a small bit field per piece name (room for two copies of a name with two sets).

- Counting memoises the number of completions of each ``(empty, pieces left)`` position, which
  different orders of the same pieces reach again and again, and skips at once a placement that
  leaves an empty square with no empty neighbour. All 6x10 solutions take about a second.
- Distinct counting (a solution and its rotations/reflections of the whole target count once)
  fixes a piece that every solution uses once, normally ``X``, at one placement per orbit of the
  target's symmetry group, then counts the rest. When that placement is itself symmetric, a
  second piece is fixed the same way under the placement's stabiliser, and so on; if no piece is
  left to fix (the T uses 9 of the 12 pieces), each solution found is counted only if it is the
  smallest of its images.
- Completing a position (hints) looks ahead at every step: a square that no placement of the
  pieces left can cover, or an empty region whose size is not a multiple of 5, is a dead end; a
  square with only one or two possible placements is filled first, else the first square of the
  smallest region; awkward pieces (X, I, F, ...) are tried first. The search restarts with a
  growing budget (from alternate ends), keeping what it proved dead, and gives up with
  :class:`SearchLimitError` after ``limit`` positions: proving a two-set position hopeless can
  take very long.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

from games.errors import GameError
from games.puzzominos.board import Place
from games.puzzominos.pieces import distinct_orientations, oriented_cells
from games.puzzominos.targets import PIECE_SIZE, Cell, Target, parse_target, square_name

Perm = tuple[int, ...]
"""A symmetry of the target as a permutation of bit numbers."""

FIRST_BUDGET = 1000
"""Positions the first attempt of a completion search may look at (then 1.5 times more each)."""
DEFAULT_LIMIT = 50_000
"""Positions a completion (a hint) may look at in all before giving up. A position of the
completion search costs 0.04-0.07 ms of CPU on this project's 2-core machine (up to about
0.15 ms on a 120-square target with all 24 pieces left), so 50,000 positions are 2-4 s at
worst, whatever the target. Two-set positions can need that many: 10x12 with two Is along the
top edge takes 32,000. A budget is a count of positions, never seconds, so an answer never
depends on the machine's speed or load."""
CHECK_LIMIT = 20_000
"""Positions :func:`check` may look at to decide whether a target can be filled. Every named
target is solved within 7,600 (3x20, the hardest), so 20,000 leave room for drawn shapes; a
target not decided within it is refused (:func:`games.puzzosolo.rules.check_target`)."""
PADDING = 4
"""Unused bits after each line of the layout, so that shifted shapes never wrap onto the next line."""


class SearchLimitError(GameError):
    """The completion search looked at its limit of positions without an answer either way."""

    def __init__(self, message: str, positions: int = 0) -> None:
        super().__init__(message)
        self.positions = positions
        """How many positions were looked at (the limit)."""


class _OutOfBudget(Exception):
    """An attempt of the completion search used up its budget (the search restarts)."""


class Budget:
    """Positions a count or an enumeration may still look at, shared by its steps (a count of
    distinct solutions is several counts). ``limit`` None: no limit."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self.left = sys.maxsize if limit is None else limit

    def spend(self, positions: int) -> None:
        """Take ``positions`` from what is left."""
        self.left -= positions

    @property
    def spent(self) -> int:
        """Positions looked at so far."""
        return (sys.maxsize if self.limit is None else self.limit) - self.left

    def exhausted(self) -> SearchLimitError:
        """The error for a budget used up."""
        return SearchLimitError(
            f"The solver stopped after looking at {self.limit:,} positions: the count is beyond its limit.",
            self.spent,
        )


class Choice(NamedTuple):
    """The placements of one piece name whose first square (in scan order) is a given square."""

    field: int
    """Bits of the piece's count in the pieces-left integer."""
    unit: int
    """One copy of the piece in the pieces-left integer."""
    masks: tuple[int, ...]


AWKWARD_FIRST = "XIFWZTVYNULP"
"""Pentominoes from the hardest to fit to the easiest: a completion tries them in this order,
so that no X or I is left over for the last, oddly shaped gaps."""


def awkwardness(piece: str) -> int:
    """The rank of ``piece`` in :data:`AWKWARD_FIRST` (other pieces last)."""
    return AWKWARD_FIRST.find(piece) % (len(AWKWARD_FIRST) + 1)


def low_bit(mask: int) -> int:
    """The number of the lowest set bit of a non-zero ``mask``."""
    return (mask & -mask).bit_length() - 1


def bits_of(mask: int) -> Iterator[int]:
    """The numbers of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Problem:
    """A target compiled for the search: bit layout, placements per square, symmetries."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.columns = target.width >= target.height
        self.stride = (target.height if self.columns else target.width) + PADDING
        self.bit: dict[Cell, int] = {cell: self._bit_number(cell) for cell in target.cells}
        self.full = sum(1 << bit for bit in self.bit.values())
        self.size = self.full.bit_length()
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
        self.shapes: list[tuple[int, tuple[int, ...]]] = []
        self.masks_of: dict[str, list[int]] = {name: self._placements(name) for name in self.names}
        self.mask_of_place: dict[Place, int] = {place: mask for mask, place in self.place_of.items()}
        groups: dict[int, list[tuple[int, ...]]] = {}
        for field, offsets in self.shapes:
            groups.setdefault(field, []).append(offsets)
        self.shape_groups: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...] = tuple(
            (field, tuple(shapes)) for field, shapes in groups.items()
        )
        """``shapes`` grouped by piece name (its field): a name not left is skipped at once."""
        self.table: list[tuple[Choice, ...]] = [self._choices(bit) for bit in range(self.size)]
        """Per square: the placements whose first square it is, grouped by piece name."""
        self.probed: list[tuple[Choice, ...]] = [
            self._probe(bit, lines) for bit in range(self.size) for lines in range(4)
        ]
        """``table`` split by whether the next square along the line (bit 0 of the index's low
        two bits) and the square on the next line (bit 1) are empty: ``probed[4 * square + k]``
        holds only the placements that leave the filled ones alone."""
        self.covering: list[list[tuple[int, int, int]]] = [[] for _ in range(self.size)]
        for mask, place in sorted(self.place_of.items(), key=lambda item: awkwardness(item[1].piece)):
            field, unit = self.fields[place.piece]
            for bit in bits_of(mask):
                self.covering[bit].append((field, unit, mask))
        self.symmetries: tuple[Perm, ...] = self._symmetries()

    def _bit_number(self, cell: Cell) -> int:
        x, y = cell
        return x * self.stride + y if self.columns else y * self.stride + x

    def mask_of(self, cells: Iterable[Cell]) -> int | None:
        """The bitmask of ``cells``, or None if one of them is off the target."""
        mask = 0
        for cell in cells:
            bit = self.bit.get(cell)
            if bit is None:
                return None
            mask |= 1 << bit
        return mask

    def _placements(self, name: str) -> list[int]:
        """The masks of every placement of ``name`` inside the target (recorded in ``place_of``)."""
        masks = []
        field = self.fields[name][0]
        for orientation in distinct_orientations(name):
            shape = oriented_cells(name, orientation)
            self.shapes.append((field, tuple(self._bit_number(cell) for cell in shape)))
            span_x = max(x for x, _ in shape)
            span_y = max(y for _, y in shape)
            for oy in range(self.target.height - span_y):
                for ox in range(self.target.width - span_x):
                    mask = self.mask_of((ox + x, oy + y) for x, y in shape)
                    if mask is not None:
                        self.place_of[mask] = Place(name, orientation, ox, oy)
                        masks.append(mask)
        return masks

    def _choices(self, bit: int) -> tuple[Choice, ...]:
        choices = []
        for name in self.names:
            masks = tuple(mask for mask in self.masks_of[name] if low_bit(mask) == bit)
            if masks:
                field, unit = self.fields[name]
                choices.append(Choice(field, unit, masks))
        return tuple(choices)

    def _probe(self, bit: int, lines: int) -> tuple[Choice, ...]:
        filled = (0 if lines & 1 else 1 << (bit + 1)) | (0 if lines & 2 else 1 << (bit + self.stride))
        choices = (
            choice._replace(masks=tuple(m for m in choice.masks if not m & filled))
            for choice in self.table[bit]
        )
        return tuple(choice for choice in choices if choice.masks)

    def _symmetries(self) -> tuple[Perm, ...]:
        """Every symmetry of the target but the identity, as permutations of bit numbers."""
        w, h = self.target.width - 1, self.target.height - 1
        maps: list[Callable[[int, int], Cell]] = [
            lambda x, y: (w - x, y),
            lambda x, y: (x, h - y),
            lambda x, y: (w - x, h - y),
        ]
        if w == h:
            maps += [
                lambda x, y: (y, x),
                lambda x, y: (h - y, x),
                lambda x, y: (y, w - x),
                lambda x, y: (h - y, w - x),
            ]
        result = []
        for sym in maps:
            if all(sym(*cell) in self.bit for cell in self.bit):
                perm = list(range(self.size))
                for cell, bit in self.bit.items():
                    perm[bit] = self.bit[sym(*cell)]
                result.append(tuple(perm))
        return tuple(result)

    @staticmethod
    def image(mask: int, perm: Perm) -> int:
        """``mask`` moved by the symmetry ``perm``."""
        return sum(1 << perm[bit] for bit in bits_of(mask))

    def is_canonical(self, masks: Sequence[int], perms: Iterable[Perm]) -> bool:
        """Whether the solution (its placements, as sorted masks) is the smallest among its images
        under ``perms``. Placements, not letters: with two sets, two pieces of the same name side
        by side must not look like a different split of the same squares."""
        key = sorted(masks)
        return all(key <= sorted(self.image(mask, perm) for mask in masks) for perm in perms)

    # -- search -------------------------------------------------------------------------------

    def search(self, empty: int, left: int, budget: Budget | None = None) -> Iterator[list[int]]:
        """Every way to fill ``empty`` with pieces from ``left``, as a list of masks.

        The list is reused: copy it before the next one is asked for. Raises
        :class:`SearchLimitError` when ``budget`` runs out.
        """
        table = self.probed
        stride = self.stride
        chosen: list[int] = []
        spent = Budget() if budget is None else budget

        def fill(empty: int, left: int) -> Iterator[list[int]]:
            spent.left -= 1
            if spent.left < 0:
                raise spent.exhausted()
            first = (empty & -empty).bit_length() - 1
            beside = empty >> first
            for field, unit, masks in table[first << 2 | (beside >> 1 & 1) | (beside >> stride & 1) << 1]:
                if left & field:
                    rest = left - unit
                    for mask in masks:
                        if mask & empty == mask:
                            chosen.append(mask)
                            if mask == empty:
                                yield chosen
                            else:
                                after = empty ^ mask
                                if not after & ~(after << 1 | after >> 1 | after << stride | after >> stride):
                                    yield from fill(after, rest)
                            chosen.pop()

        if not empty:
            yield chosen
            return
        yield from fill(empty, left)

    def count(
        self,
        empty: int,
        left: int,
        memo: dict[int, int] | None = None,
        table: list[tuple[Choice, ...]] | None = None,
        budget: Budget | None = None,
    ) -> int:
        """How many ways fill ``empty`` with pieces from ``left`` (``memo`` may be shared
        between calls on the same problem and ``table``; ``table`` defaults to every placement,
        in the layout of :attr:`probed`). Raises :class:`SearchLimitError` when more positions
        than ``budget`` allows would be looked at.

        This is the hot loop: a placement that leaves an empty square with no empty neighbour
        is skipped at once, and every other position reached is counted once.
        """
        if not empty:
            return 1
        table = self.probed if table is None else table
        stride = self.stride
        shift = self.all_pieces.bit_length() + 1
        known: dict[int, int] = {} if memo is None else memo
        recall = known.get
        spent = Budget() if budget is None else budget
        allowance = spent.left
        visited = 0

        def fill(empty: int, left: int) -> int:
            nonlocal visited
            visited += 1
            if visited > allowance:
                raise spent.exhausted()
            total = 0
            first = (empty & -empty).bit_length() - 1
            beside = empty >> first
            for field, unit, masks in table[first << 2 | (beside >> 1 & 1) | (beside >> stride & 1) << 1]:
                if left & field:
                    rest = left - unit
                    for mask in masks:
                        if mask & empty == mask:
                            if mask == empty:
                                total += 1
                                continue
                            after = empty ^ mask
                            if after & ~(after << 1 | after >> 1 | after << stride | after >> stride):
                                continue
                            key = after << shift | rest
                            found = recall(key)
                            if found is None:
                                found = known[key] = fill(after, rest)
                            total += found
            return total

        try:
            return fill(empty, left)
        finally:
            spent.spend(visited)

    def regions(self, empty: int, seeds: int | None = None) -> list[int]:
        """The edge-connected regions of ``empty`` (only those with a square of ``seeds``), as masks."""
        stride = self.stride
        found = []
        rest = empty if seeds is None else seeds & empty
        while rest:
            region = rest & -rest
            while True:
                grown = (region | region << 1 | region >> 1 | region << stride | region >> stride) & empty
                if grown == region:
                    break
                region = grown
            found.append(region)
            rest &= ~region
        return found

    def beside(self, mask: int) -> int:
        """The squares edge-adjacent to ``mask`` (and ``mask`` itself), on or off the target."""
        stride = self.stride
        return mask << 1 | mask >> 1 | mask << stride | mask >> stride

    def options(self, empty: int, left: int) -> tuple[int, int, int]:
        """``(once, twice, thrice)``: the empty squares that at least one, two and three
        placements of the pieces left can cover."""
        once = twice = thrice = 0
        for field, shapes in self.shape_groups:
            if not left & field:
                continue
            for a, b, c, d, e in shapes:
                anchors = empty >> a & empty >> b & empty >> c & empty >> d & empty >> e
                if anchors:
                    for covered in (anchors << a, anchors << b, anchors << c, anchors << d, anchors << e):
                        thrice |= twice & covered
                        twice |= once & covered
                        once |= covered
        return once, twice, thrice

    def next_square(self, empty: int, left: int, backwards: bool) -> int | None:
        """The square to fill next (a one-bit mask), or None if ``empty`` cannot be filled.

        A square that no placement of the pieces left can cover, or a region whose size is not
        a multiple of 5, is a dead end. A square with the fewest placements (one, then two) is
        filled first; otherwise the first (``backwards``: last) square of the smallest region.
        """
        once, twice, thrice = self.options(empty, left)
        if empty & ~once:
            return None
        scarce = empty & ~twice or empty & ~thrice
        if not scarce:
            regions = self.regions(empty)
            if any(region.bit_count() % PIECE_SIZE for region in regions):
                return None
            scarce = min(regions, key=int.bit_count)
        return 1 << (scarce.bit_length() - 1) if backwards else scarce & -scarce

    def first_completion(
        self, empty: int, left: int, limit: int | None = None, budget: Budget | None = None
    ) -> list[int] | None:
        """One way to fill ``empty`` with pieces from ``left``, or None if there is none.

        The search restarts with a growing budget of positions, each time from the other end of
        the scan order, so that one unlucky early choice does not trap it;
        positions proven dead stay dead across restarts, so the restarts add little to a proof
        that there is no completion. Raises :class:`SearchLimitError` after ``limit`` positions
        (or when ``budget``, shared with other searches, runs out); the positions looked at are
        taken from ``budget``.
        """
        spent = Budget(limit) if budget is None else budget
        covering = self.covering
        shift = self.all_pieces.bit_length() + 1
        dead: set[int] = set()
        chosen: list[int] = []
        room = 0

        def fill(empty: int, left: int, attempt: int) -> bool:
            nonlocal room
            if not empty:
                return True
            key = empty << shift | left
            if key in dead:
                return False
            room -= 1
            if room < 0:
                raise _OutOfBudget
            square = self.next_square(empty, left, backwards=attempt % 2 == 1)
            if square is not None:
                for field, unit, mask in covering[square.bit_length() - 1]:
                    if left & field and mask & empty == mask:
                        chosen.append(mask)
                        if fill(empty ^ mask, left - unit, attempt):
                            return True
                        chosen.pop()
            dead.add(key)
            return False

        allowance = FIRST_BUDGET
        for attempt in itertools.count():
            room = start = max(0, min(allowance, spent.left))
            try:
                found = fill(empty, left, attempt)
            except _OutOfBudget:
                spent.spend(start)
                chosen.clear()
                if spent.left <= 0:
                    raise SearchLimitError(
                        f"The solver gave up after looking at {spent.spent:,} positions without deciding "
                        "whether this position can be completed.",
                        spent.spent,
                    ) from None
                allowance = allowance * 3 // 2
                continue
            spent.spend(start - room)
            return chosen if found else None
        raise AssertionError("unreachable")

    # -- positions and symmetry ---------------------------------------------------------------

    def position(self, placed: Sequence[Place]) -> tuple[int, int] | None:
        """``(empty, pieces left)`` after ``placed``, or None if a placement leaves the target,
        overlaps another or uses a piece that is not left."""
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

    def orbits(self, masks: Iterable[int], group: Sequence[Perm]) -> list[tuple[int, list[Perm]]]:
        """One of ``masks`` per orbit under ``group``, each with its stabiliser in ``group``."""
        seen: set[int] = set()
        result = []
        for mask in masks:
            if mask in seen:
                continue
            images = [self.image(mask, perm) for perm in group]
            seen.add(mask)
            seen.update(images)
            stabiliser = [perm for perm, moved in zip(group, images, strict=True) if moved == mask]
            result.append((mask, stabiliser))
        return result

    def homeless(self) -> tuple[str, ...]:
        """The piece names that have no place at all on the target."""
        return tuple(name for name in self.names if not self.masks_of[name])

    def homeless_squares(self) -> int:
        """How many squares the pieces that fit somewhere leave uncovered at best (more than 0:
        the target cannot be filled)."""
        counts = Counter(self.target.pieces)
        room = sum(counts[name] for name in self.names if self.masks_of[name])
        return (self.target.needed - min(room, self.target.needed)) * PIECE_SIZE

    def fixable(self) -> list[str]:
        """Piece names that every solution uses exactly once (none if some pieces stay out)."""
        if self.target.needed != len(self.target.pieces):
            return []
        counts = Counter(self.target.pieces)
        return [name for name in self.names if counts[name] == 1]

    def count_all(self, budget: Budget | None = None) -> int:
        """Every solution, symmetric copies included.

        With a piece every solution uses once, the solutions with that piece at any placement
        of an orbit are as many as with it at the orbit's representative.
        """
        fixable = self.fixable()
        if not fixable or not self.symmetries:
            return self.count(self.full, self.all_pieces, budget=budget)
        memo: dict[int, int] = {}
        group = list(self.symmetries)
        name = min(fixable, key=lambda name: len(self.orbits(self.masks_of[name], group)))
        unit = self.fields[name][1]
        return sum(
            (len(group) + 1)
            // (len(stabiliser) + 1)
            * self.count(self.full ^ mask, self.all_pieces - unit, memo, budget=budget)
            for mask, stabiliser in self.orbits(self.masks_of[name], group)
        )

    def symmetric(self, empty: int, left: int, perm: Perm, budget: Budget | None = None) -> int:
        """How many ways to fill ``empty`` with pieces from ``left`` are unchanged by ``perm``,
        when no piece name may be used twice: then every placement must be unchanged itself."""
        table = [
            tuple(
                choice._replace(masks=kept)
                for choice in choices
                if (kept := tuple(mask for mask in choice.masks if self.image(mask, perm) == mask))
            )
            for choices in self.probed
        ]
        return self.count(empty, left, {}, table, budget)

    def count_distinct(self, budget: Budget | None = None) -> int:
        """Solutions counted once per rotation/reflection class of the whole target.

        A piece that every solution uses once is fixed at one placement per orbit of the
        symmetries that keep the pieces fixed so far, preferring a piece none of whose
        placements is itself symmetric (then each class is counted exactly once). If every such
        piece has symmetric placements and no name is used twice, Burnside's lemma counts the
        classes: (all solutions + the solutions unchanged by each symmetry) / group size, where
        a solution unchanged by a symmetry is made of placements unchanged by it. Otherwise the
        solutions are listed and the smallest of each class counted.
        """
        memo: dict[int, int] = {}
        fixable = self.fixable()
        singles = max(Counter(self.target.pieces).values()) == 1

        def distinct(empty: int, left: int, fixed: list[int], group: list[Perm]) -> int:
            if not group:
                return self.count(empty, left, memo, budget=budget)
            options = [
                (name, self.orbits((m for m in self.masks_of[name] if m & empty == m), group))
                for name in fixable
                if left & self.fields[name][0]
            ]
            free = [option for option in options if not any(stabiliser for _, stabiliser in option[1])]
            if singles and not free and (fixed or not options):
                total = self.count(empty, left, memo, budget=budget) + sum(
                    self.symmetric(empty, left, perm, budget) for perm in group
                )
                return total // (len(group) + 1)
            if not options:
                found = self.search(empty, left, budget)
                return sum(self.is_canonical(fixed + masks, group) for masks in found)
            name, orbits = min((free if fixed and free else options), key=lambda option: len(option[1]))
            unit = self.fields[name][1]
            return sum(
                distinct(empty ^ mask, left - unit, [*fixed, mask], stabiliser) for mask, stabiliser in orbits
            )

        return distinct(self.full, self.all_pieces, [], list(self.symmetries))


@lru_cache(maxsize=32)
def problem(target: Target) -> Problem:
    """The compiled form of ``target`` (the most recent ones cached)."""
    return Problem(target)


def complete(
    target: Target, placed: Sequence[Place], limit: int | None = DEFAULT_LIMIT, budget: Budget | None = None
) -> tuple[Place, ...] | None:
    """Placements (target coordinates) that fill the rest of ``target`` after ``placed``.

    ``()`` when the target is already full; None when the position cannot be completed,
    including when ``placed`` leaves the target, overlaps or uses a piece more often than the
    target's set(s) hold it. Raises :class:`SearchLimitError` (a ``GameError`` whose message
    a player can read) if the search looks at more than ``limit`` positions without an answer:
    that can happen on the two-set targets, where proving that a position is hopeless may take
    a very long time (``limit=None`` searches to the end). With ``budget`` (then ``limit`` is
    not used) the positions are taken from it: several searches can share one budget.
    """
    compiled = problem(target)
    start = compiled.position(placed)
    if start is None or compiled.homeless_squares() > 0:
        return None
    masks = compiled.first_completion(*start, budget=Budget(limit) if budget is None else budget)
    return None if masks is None else tuple(compiled.place_of[mask] for mask in masks)


def solutions(target: Target, limit: int | None = None) -> Iterator[tuple[Place, ...]]:
    """Every solution of ``target``, symmetric copies included (raises
    :class:`SearchLimitError` after ``limit`` positions)."""
    compiled = problem(target)
    for masks in compiled.search(compiled.full, compiled.all_pieces, Budget(limit)):
        yield tuple(compiled.place_of[mask] for mask in masks)


def count_solutions(target: Target, distinct: bool = True, limit: int | None = None) -> int:
    """How many solutions ``target`` has; with ``distinct`` a solution and its rotations and
    reflections of the whole target count once. Raises :class:`SearchLimitError` when counting
    would look at more than ``limit`` positions (the count is beyond the solver's limit)."""
    compiled = problem(target)
    if compiled.homeless_squares() > 0:
        return 0
    budget = Budget(limit)
    if distinct:
        return compiled.count_distinct(budget)
    return compiled.count_all(budget)


class Verdict(StrEnum):
    """What the solver could prove about a target within its limit."""

    SOLVABLE = "solvable"
    UNSOLVABLE = "unsolvable"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class Check:
    """The answer of :func:`check`: the verdict, a solution when one was found, the pieces that
    have no place at all on the target when that is the proof, and the limit the search had."""

    verdict: Verdict
    solution: tuple[Place, ...] = ()
    homeless: tuple[str, ...] = ()
    limit: int | None = None
    positions: int = 0
    """How many positions the search looked at (at most ``limit``)."""


def check(target: Target, limit: int | None = CHECK_LIMIT) -> Check:
    """Whether ``target`` can be filled, proven within ``limit`` positions.

    Unsolvable at once when the pieces that fit somewhere cannot cover it (``2x30``: six
    pentominoes need three columns); else the completion search decides, or gives up
    (:attr:`Verdict.UNDECIDED`) after ``limit`` positions.
    """
    compiled = problem(target)
    if compiled.homeless_squares() > 0:
        return Check(Verdict.UNSOLVABLE, homeless=compiled.homeless(), limit=limit)
    budget = Budget(limit)
    try:
        masks = compiled.first_completion(compiled.full, compiled.all_pieces, budget=budget)
    except SearchLimitError:
        return Check(Verdict.UNDECIDED, limit=limit, positions=budget.spent)
    if masks is None:
        return Check(Verdict.UNSOLVABLE, limit=limit, positions=budget.spent)
    solution = tuple(compiled.place_of[mask] for mask in masks)
    return Check(Verdict.SOLVABLE, solution, limit=limit, positions=budget.spent)


def render(target: Target, placed: Sequence[Place]) -> str:
    """A text grid of the target: each square shows its piece's letter, ``.`` if empty, a space
    off the target."""
    rows = [[" "] * target.width for _ in range(target.height)]
    for x, y in target.cells:
        rows[y][x] = "."
    for place in placed:
        for cx, cy in oriented_cells(place.piece, place.orientation):
            rows[place.y + cy][place.x + cx] = place.piece
    return "\n".join("".join(row).rstrip() for row in rows)


def format_solitaire(place: Place) -> str:
    """A placement in solitaire notation: ``Lr1f@C4`` (top-left of its box on square C4)."""
    return f"{place.piece}{place.orientation.notation()}@{square_name(place.x, place.y)}"


USAGE = (
    "usage: python -m games solve puzzominos TARGET [--count [--all]] [--limit POSITIONS] [--json]\n"
    "TARGET: a named target (6x10, T, cross, ring, ...), a rectangle WxH (e.g. 7x5) or a shape "
    "drawn as rows of X and . separated by / (e.g. ..XX/XXXXXX/XXXX)"
)
FLAGS = frozenset({"--count", "--all", "--json"})
CLI_LIMIT = 3_000_000
"""Positions the command line looks at before it says the answer is beyond its limit (every
one-set named target is counted well within it); ``--limit 0`` lifts it."""


@dataclass(frozen=True)
class Command:
    """A ``solve`` command line, read."""

    target: str
    flags: frozenset[str]
    limit: int | None


def read_command(argv: Sequence[str]) -> Command | None:
    """The target, flags and limit of ``argv``, or None when it is not a valid command line."""
    names: list[str] = []
    flags: set[str] = set()
    limit: int | None = CLI_LIMIT
    items = iter(argv)
    for arg in items:
        if arg == "--limit" or arg.startswith("--limit="):
            value = arg.partition("=")[2] if "=" in arg else next(items, "")
            if not value.isascii() or not value.isdigit() or len(value) > 12:
                return None
            limit = int(value) or None
        elif arg.startswith("--"):
            flags.add(arg)
        else:
            names.append(arg)
    if len(names) != 1 or flags - FLAGS:
        return None
    return Command(names[0], frozenset(flags), limit)


def main_solve(argv: list[str]) -> int:
    """``python -m games solve puzzominos TARGET [--count [--all]] [--limit N] [--json]``.

    TARGET is a named target, a rectangle ``WxH`` or a drawn shape. Prints one solution as a
    grid of letters; with ``--count`` the number of distinct solutions (``--all``: symmetric
    copies counted too) and the time taken. Both stop after ``--limit`` positions (default
    :data:`CLI_LIMIT`, 0 for none) and then say the answer is beyond the limit. ``--json``
    prints the same as one JSON object (a solution as its placements in solitaire notation and
    its grid rows). Returns 0, 1 when the target has no solution, 2 for a bad command line or
    target, 3 when the answer is beyond the limit.
    """
    command = read_command(argv)
    if command is None:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        target = parse_target(command.target)
    except GameError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    report: dict[str, object] = {"target": target.name, "limit": command.limit}
    if "--count" in command.flags:
        status, text = _count(target, command, report)
    else:
        status, text = _solve(target, command, report)
    print(json.dumps(report, indent=2) if "--json" in command.flags else text)
    return status


def _count(target: Target, command: Command, report: dict[str, object]) -> tuple[int, str]:
    distinct = "--all" not in command.flags
    kind = "distinct solutions" if distinct else "solutions (symmetric copies included)"
    start = time.perf_counter()
    try:
        total: int | None = count_solutions(target, distinct=distinct, limit=command.limit)
    except SearchLimitError:
        total = None
    seconds = round(time.perf_counter() - start, 3)
    report |= {"distinct": distinct, "solutions": total, "beyond_limit": total is None, "seconds": seconds}
    if total is None:
        return (
            3,
            f"{target.name}: more {kind} than the solver counts within {command.limit:,} positions "
            f"({seconds:.2f} s)",
        )
    return 0, f"{target.name}: {total} {kind} in {seconds:.2f} s"


def _solve(target: Target, command: Command, report: dict[str, object]) -> tuple[int, str]:
    start = time.perf_counter()
    found = check(target, limit=command.limit)
    seconds = round(time.perf_counter() - start, 3)
    report |= {"verdict": str(found.verdict), "seconds": seconds}
    if found.verdict is Verdict.UNDECIDED:
        report["solution"] = None
        return 3, f"{target.name}: no solution found within {command.limit:,} positions ({seconds:.2f} s)"
    if found.verdict is Verdict.UNSOLVABLE:
        report["solution"] = None
        reason = f"; no place at all for {', '.join(found.homeless)}" if found.homeless else ""
        return 1, f"{target.name}: no solution{reason} ({seconds:.2f} s)"
    grid = render(target, found.solution)
    report |= {"solution": [format_solitaire(place) for place in found.solution], "grid": grid.splitlines()}
    return 0, f"{grid}\n{target.name}: solved in {seconds:.2f} s"

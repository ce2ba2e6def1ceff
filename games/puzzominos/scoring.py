"""Scoring a placement and ranking the final tally.

A placement scores 1 point for each distinct opponent square it touches edge to edge, plus the
squares of the enclosed empty groups it touches: groups of 1 or 2 squares only, except with
the player's last piece, which scores every group it encloses whatever its size.

"Newly enclosed": a group touching the placed piece always differs from every group before the
placement (the squares now covered were part of it), so each enclosed group the piece touches
counts, including a pocket carved out of an area that was already walled in. A group is
enclosed when it is finite; on the unbounded table that means its flood fill stays inside the
bounding box of all pieces (a group reaching the one-square margin around it is open).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from games.core import rank_by_scores
from games.puzzominos.board import Group, adjacent_groups, bounds_of, placed_cells, ring_of
from games.puzzominos.pieces import Cell, Cells, Orientation

SMALL_GROUP = 2
"""The largest enclosed group that scores with any piece."""

ESTIMATE_LIMIT = 60
"""How far ``estimate`` explores a group for a last piece before calling it open."""


@dataclass(frozen=True)
class PlacementScore:
    """What a placement earns: touched opponent squares and enclosed groups."""

    touched: int
    scoring_groups: tuple[int, ...]
    """Sizes of the enclosed groups that score."""
    idle_groups: tuple[int, ...] = ()
    """Sizes of enclosed groups of 3 or more that do not score (not the last piece)."""

    @property
    def total(self) -> int:
        """All the points of the placement."""
        return self.touched + sum(self.scoring_groups)


def touched_squares(placed: Cells, opponent: Collection[Cell]) -> int:
    """How many distinct opponent squares ``placed`` touches edge to edge."""
    placed_set = set(placed)
    return len(
        {(x + dx, y + dy) for x, y in placed_set for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        & set(opponent)
    )


def _split(groups: list[Group], last: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    sizes = sorted(group.size for group in groups)
    if last:
        return tuple(sizes), ()
    return tuple(s for s in sizes if s <= SMALL_GROUP), tuple(s for s in sizes if s > SMALL_GROUP)


def score_placement(
    placed: Cells, opponent: Collection[Cell], occupied: Collection[Cell], *, last: bool
) -> PlacementScore:
    """The exact score of ``placed`` (not yet in ``occupied``, which holds both colours)."""
    box = bounds_of([*occupied, *placed])
    groups = adjacent_groups(placed, occupied, box)
    scoring, idle = _split(groups, last)
    return PlacementScore(touched_squares(placed, opponent), scoring, idle)


def estimate(placed: Cells, opponent: Collection[Cell], occupied: Collection[Cell], *, last: bool) -> int:
    """A cheap score of ``placed``: exact, except that with a last piece an enclosed group
    larger than :data:`ESTIMATE_LIMIT` squares is missed."""
    limit = ESTIMATE_LIMIT if last else SMALL_GROUP
    groups = adjacent_groups(placed, occupied, None, limit)
    scoring, _ = _split(groups, last)
    return touched_squares(placed, opponent) + sum(scoring)


def estimate_place(
    piece: str,
    orientation: Orientation,
    x: int,
    y: int,
    opponent: Collection[Cell],
    occupied: Collection[Cell],
    *,
    last: bool,
    free: dict[Cell, tuple[Cell, ...]] | None = None,
) -> int:
    """:func:`estimate` of ``piece`` in ``orientation`` with its top-left at ``x,y``, the same
    number found with less work (the computer players weigh every legal placement with it).

    Before the last piece only groups of at most :data:`SMALL_GROUP` squares score, so a square
    beside the piece is a pocket when none of its empty neighbours is left once the piece is
    down (one square), or when one is left and that one has no other (two squares). ``free``
    may remember, square by square, the empty neighbours each has in ``occupied`` (a memo
    shared by the placements weighed on one table)."""
    if last or SMALL_GROUP != 2:  # the shortcut below knows pockets of one or two squares
        return estimate(placed_cells(piece, orientation, x, y), opponent, occupied, last=last)
    empties = {} if free is None else free
    points = 0
    paired: set[Cell] = set()
    for (dx, dy), touching in ring_of(piece, orientation):
        cell = (x + dx, y + dy)
        if cell in occupied:
            points += cell in opponent
            continue
        around = empties.get(cell)
        if around is None:
            around = empties[cell] = open_steps(cell, occupied)
        if len(around) == touching:
            points += 1
        elif len(around) == touching + 1 and cell not in paired:
            walls = placed_cells(piece, orientation, x, y)
            left = [step for step in around if step not in walls]
            if len(left) != 1:
                continue
            other = left[0]
            beyond = empties.get(other)
            if beyond is None:
                beyond = empties[other] = open_steps(other, occupied)
            if all(step == cell or step in walls for step in beyond):
                points += 2
                paired.add(other)
    return points


def open_steps(cell: Cell, occupied: Collection[Cell]) -> tuple[Cell, ...]:
    """The squares edge-adjacent to ``cell`` that are not in ``occupied``."""
    x, y = cell
    steps = ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
    return tuple(step for step in steps if step not in occupied)


def standings(
    scores: Sequence[int], played: Sequence[int], forfeited: Collection[int] = ()
) -> tuple[int, ...]:
    """Ranks: high score first; on a tie the player who played fewer pieces; then a draw."""
    return rank_by_scores(scores, forfeited=forfeited, tiebreak=[-count for count in played])

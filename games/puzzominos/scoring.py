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
from games.puzzominos.board import Group, adjacent_groups, bounds_of
from games.puzzominos.pieces import Cell, Cells

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


def standings(
    scores: Sequence[int], played: Sequence[int], forfeited: Collection[int] = ()
) -> tuple[int, ...]:
    """Ranks: high score first; on a tie the player who played fewer pieces; then a draw."""
    return rank_by_scores(scores, forfeited=forfeited, tiebreak=[-count for count in played])

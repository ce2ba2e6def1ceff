"""Ratings with OpenSkill (Plackett-Luce): one rating per player per game, per server and global.

Ranks come straight from the game's outcome, so draws (shared ranks), forfeits (ranked last)
and "fewest points wins" (Geominos) are already right. Games with a computer player are not
rated: a computer's strength is not a person's, and farming it would inflate ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from openskill.models import PlackettLuce

GLOBAL_SCOPE = 0
"""The scope id of the global ratings (server ratings use the guild id)."""


@dataclass(frozen=True)
class Rating:
    """A player's skill estimate: mean and uncertainty."""

    mu: float
    sigma: float

    @property
    def display(self) -> float:
        """The conservative skill shown on leaderboards (mu - 3 sigma), 0 for a newcomer."""
        return self.mu - 3 * self.sigma


@lru_cache(maxsize=1)
def _model() -> PlackettLuce:
    return PlackettLuce()


def initial() -> Rating:
    """The rating of a player who has not played yet."""
    fresh = _model().rating()
    return Rating(fresh.mu, fresh.sigma)


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """New ratings after a game where seat ``i`` (rating ``ratings[i]``) finished ``ranks[i]``
    (1 is first; equal ranks are a tie)."""
    if len(ratings) != len(ranks):
        raise ValueError("one rank per rating")
    model = _model()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    result = model.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Rating(team[0].mu, team[0].sigma) for team in result]

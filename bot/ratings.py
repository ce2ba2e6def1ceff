"""Ratings with OpenSkill (Plackett-Luce): one rating per player per game, per server and global.

This module decides who is rated and how; storage only keeps the ratings (and writes a game's
new ratings in the transaction that stores its result). Ranks come straight from the game's
outcome, so draws (shared ranks), forfeits (ranked last) and "fewest points wins" (Geominos)
are already right. Only games where every seat is a person, and there are at least two, are
rated: a computer's strength is not a person's (farming it would inflate ratings), and a
solitaire has nobody to be measured against.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

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


class Placing(Protocol):
    """What rating needs of a seat's result: who sat there (None: a computer) and its rank."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def rank(self) -> int: ...


@dataclass(frozen=True)
class RatingUpdate:
    """The ratings a finished game changes: ``players`` (user ids, seat order) finished
    ``ranks``, and each one's rating of ``game`` moves in every scope of ``scopes``."""

    game: str
    scopes: tuple[int, ...]
    players: tuple[int, ...]
    ranks: tuple[int, ...]

    def apply(self, current: Sequence[Rating | None]) -> list[Rating]:
        """The new ratings of ``players`` from their ``current`` ones in one scope (None: a
        player not rated there yet)."""
        return rate([rating or initial() for rating in current], self.ranks)


def scopes(guild_id: int | None) -> tuple[int, ...]:
    """The scopes a game of server ``guild_id`` is rated in: the server's and the global one
    (only the global one for a game in direct messages)."""
    return (GLOBAL_SCOPE,) if guild_id is None else (guild_id, GLOBAL_SCOPE)


def rating_update(game: str, guild_id: int | None, placings: Sequence[Placing]) -> RatingUpdate | None:
    """The rating change of a finished game, or None when the game is not rated (a computer
    at the table, or fewer than two people)."""
    people = [placing.user_id for placing in placings if placing.user_id is not None]
    if len(people) != len(placings) or len(people) < 2:
        return None
    return RatingUpdate(game, scopes(guild_id), tuple(people), tuple(p.rank for p in placings))

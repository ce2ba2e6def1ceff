"""What a game may tell the search player about itself: its :class:`SearchProfile`.

A game sets ``search_profile`` on its :class:`~games.core.Game` class to tune the search (how
far playouts go before the game's ``evaluate`` judges the position, how many points make a
clear lead) and, where it knows better than a greedy move, to give its own playout policy or an
expert move (a solver). Games without a profile get the defaults, which play any game through
the protocol alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from games.core import Game

Playout = Callable[[Game[Any, Any], Any, random.Random], Any]
"""A playout policy: the move for the seat to act in a (determinized) state, cheap to find."""
Expert = Callable[[Game[Any, Any], Any], Any]
"""An expert: the move to play in a state, or None to let the search decide."""
Order = Callable[[Game[Any, Any], Any, list[Any]], list[Any]]
"""An ordering of the legal moves, best first (the default: by ``move_gain``)."""
Chance = Callable[[Game[Any, Any], Any, int], float]
"""A calibrated chance: ``chance(game, state, seat)`` is ``seat``'s chance of finishing first
(for two players, of winning; 0 to 1) in an unfinished ``state`` where a playout stopped, when
both seats play on with the playout policy: a model fitted on such games, where the search's
own value (the logistic of the game's ``evaluate``) ranks moves well but is no chance."""
Stop = Callable[[Game[Any, Any], Any, Any], bool]
"""Whether a playout stops here (given the searched state and the state reached): a round
ended, say, where judging is easier than playing on."""


class Result(NamedTuple):
    """What one playout says about the searching seat: ``value`` from 0 (last) to 1 (first;
    what the search ranks moves by), its ``score`` and score ``lead`` over the best other seat
    where the playout ended (in the game's units; in Geominos points are bad), the ``points``
    the candidate move itself made, and its ``chance``: the seat's result (0 to 1) where the
    game ended, or the game's calibrated chance (:data:`Chance`) where the playout stopped
    short of the end (None: ``value`` is a chance as it is). Hints and reviews report chances;
    the search decides by values."""

    value: float
    score: float
    lead: float
    points: float
    chance: float | None = None


Run = Callable[[Any, random.Random], Result]
"""Plays one candidate move out in a prepared world: ``run(move, dice)``."""
Simulator = Callable[[Game[Any, Any], Any, int, "SearchProfile"], Run]
"""A game's own playouts: ``simulator(game, world, seat, profile)`` prepares one sampled world
(a whole state, the searching seat to act) and returns its :data:`Run`. Each ``run`` starts
from the same world; equal dice give equal luck (common random numbers)."""


@dataclass(frozen=True)
class SearchProfile:
    """How the search plays one game.

    ``candidates``: how many of the best ordered moves race at once (in games without hidden
    information or chance, further moves join in batches of this size while time remains).
    ``horizon``: plies played out after a candidate before the position is judged by the game's
    ``evaluate`` (a finished game is judged by its ranks), unless ``stop`` ends the playout
    sooner. ``scale``: the lead in ``evaluate`` units worth about a 73 % result (the logistic
    of lead / scale). ``confidence``: how many standard errors worse than the leader (paired
    over the same worlds) drop a candidate. ``margin``: how much the final score lead counts
    beside the ranks when a playout ends the game (0 to 1: a lead tells apart moves that would
    win, or lose, alike). ``switch``: when set, how many standard errors (paired) better than
    the game's own first choice another move must be to be played instead (in games where luck
    swamps a short search, the first choice is kept unless the search is sure). ``epsilon``: in
    the default playout, the chance of a random move instead of the greedy one. ``sample``: when
    set, the default playout weighs only that many random legal moves (cheap playouts in games
    with hundreds of moves).
    ``playouts``: how many playouts a ``hard`` decision makes by default (sized so that a
    decision takes at most about 2 s on a 2-core machine; see :mod:`games.ai.budget`).
    ``min_worlds``: worlds every candidate plays before any is dropped.
    ``per_candidate``: when set, the fewest playouts each racing candidate should get: a small
    budget races fewer of the best ordered moves (at least two) instead of spreading thin.
    ``playout``, ``order``, ``stop`` and ``expert`` are the game's own policy, move ordering,
    playout end and expert (see :data:`Playout`, :data:`Order`, :data:`Stop`, :data:`Expert`);
    ``simulator`` replaces the protocol-driven playouts with the game's own fast ones (see
    :data:`Simulator`; ``horizon``, ``stop``, ``playout`` and ``epsilon`` then do not apply).
    ``easy``: the ``easy`` level's policy, where the generic one (usually one of the three best
    moves by immediate gain) would play too well for a beginner (a :data:`Playout`).
    ``chance``: the game's calibrated chance of an unfinished position (a :data:`Chance`), for
    what hints and reviews report; None where the value is a chance already (playouts to the
    end of the game).
    """

    candidates: int = 8
    playouts: int = 200
    min_worlds: int = 3
    per_candidate: int | None = None
    horizon: int = 12
    scale: float = 10.0
    confidence: float = 2.0
    margin: float = 0.0
    switch: float = 0.0
    epsilon: float = 0.0
    sample: int | None = None
    playout: Playout | None = None
    order: Order | None = None
    stop: Stop | None = None
    expert: Expert | None = None
    simulator: Simulator | None = None
    easy: Playout | None = None
    chance: Chance | None = None


DEFAULT_PROFILE = SearchProfile()


def profile_of(game: Game[Any, Any]) -> SearchProfile:
    """The game's profile (its ``search_profile``), or the defaults."""
    found = game.search_profile
    return found if isinstance(found, SearchProfile) else DEFAULT_PROFILE

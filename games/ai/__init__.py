"""Computer players that play any registered game through the protocol alone, at three levels.

- ``easy`` (:class:`EasyPlayer`): usually one of the few best moves by immediate gain, now and
  then any move, so that beginners win sometimes;
- ``normal`` (:class:`GreedyPlayer`): the best immediate gain (``greedy`` in games stored before
  the levels);
- ``hard`` (:class:`SearchPlayer`): a Monte Carlo search over worlds sampled from what its
  seat can see, within a budget of playouts (each game's own number by default, sized for about
  2 s at most on a 2-core machine; a time cap only guards a busy machine); hints come from it.

For the bot: ``player_for(level, seed, budget).decide(game, state)`` returns a
:class:`Decision` (the move, its notation, the points it makes now, the search's estimate, how
sure it is, the line it sets up). ``state`` may be the true state: every player reads hidden
things only through the seat's view (the simple players use ``move_gain``, which looks at what
the mover can see; the search samples worlds from :meth:`~games.core.Game.view`). Players,
decisions and budgets pickle, so a worker process can run them.

For the post-game review: ``SearchPlayer(seed, budget).weigh(game, state, moves)`` weighs given
moves on common sampled worlds from the view of the seat to act (a :class:`Weighing`: expected
result, score and lead per move, paired gaps with standard errors), and ``review(game, state,
played)`` compares a played move with the engine's own choice (a :class:`Review`). See
:mod:`games.ai.search`.
"""

from __future__ import annotations

from games.ai.budget import DEFAULT_SECONDS, Budget, as_budget
from games.ai.decision import Choice, Confidence, Decision, Step, Why
from games.ai.players import EasyPlayer, GreedyPlayer, RandomPlayer, greedy_states
from games.ai.profile import SearchProfile, profile_of
from games.ai.search import Review, SearchPlayer, Weighed, Weighing

LEVELS: dict[str, str] = {
    "easy": "easy: often takes a good move, not always",
    "normal": "normal: the best points now",
    "hard": "hard: thinks ahead (a search of up to about 2 s a move)",
}
"""The computer levels a seat can be filled with, and how the lobby explains them."""
DEFAULT_LEVEL = "normal"
HINT_LEVEL = "hard"
"""The level whose decisions are given as hints."""
LEGACY_LEVELS = {"greedy": "normal"}
"""Levels stored before the three levels, and what they mean now."""

Player = GreedyPlayer | RandomPlayer | EasyPlayer | SearchPlayer


def level_of(level: str | None) -> str:
    """The level a stored level name means (``greedy`` and None are ``normal``); unknown
    names other than ``random`` raise ``KeyError``."""
    if level is None:
        return DEFAULT_LEVEL
    name = LEGACY_LEVELS.get(level, level)
    if name not in LEVELS and name != "random":
        raise KeyError(f"no computer level {level!r}; the levels are {', '.join(LEVELS)}")
    return name


def player_for(level: str | None, seed: int = 0, budget: Budget | float | None = None) -> Player:
    """The computer player of ``level`` (``easy``, ``normal``, ``hard``; ``greedy`` is
    ``normal``; ``random`` for tests). ``budget`` (a :class:`Budget`, or a time cap in seconds;
    default: the game's playouts, capped at :data:`DEFAULT_SECONDS`) limits the ``hard``
    player's thinking; the others answer at once."""
    name = level_of(level)
    if name == "random":
        return RandomPlayer(seed)
    if name == "easy":
        return EasyPlayer(seed)
    if name == "hard":
        return SearchPlayer(seed, as_budget(budget))
    return GreedyPlayer(seed)


__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_SECONDS",
    "HINT_LEVEL",
    "LEGACY_LEVELS",
    "LEVELS",
    "Budget",
    "Choice",
    "Confidence",
    "Decision",
    "EasyPlayer",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "Review",
    "SearchPlayer",
    "SearchProfile",
    "Step",
    "Weighed",
    "Weighing",
    "Why",
    "as_budget",
    "greedy_states",
    "level_of",
    "player_for",
    "profile_of",
]

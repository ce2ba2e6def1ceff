"""Computer players that play any registered game through the protocol alone, at three levels.

- ``easy`` (:class:`EasyPlayer`): usually one of the few best moves by immediate gain, now and
  then any move, so that beginners win sometimes;
- ``normal`` (:class:`GreedyPlayer`): the best immediate gain (``greedy`` in games stored before
  the levels);
- ``hard`` (:class:`SearchPlayer`): information-set Monte Carlo tree search from what its seat
  can see, within a time budget (2 s by default); hints come from it.

For the bot: ``player_for(level, seed, budget).decide(game, state)`` returns a
:class:`Decision` (the move, its notation, the points it makes now, the search's estimate, the
line it sets up). ``state`` may be the true state: every player reads hidden things only
through the seat's view (the simple players use ``move_gain``, which looks at what the mover can
see; the search samples worlds from :meth:`~games.core.Game.view`). Players, decisions and
budgets pickle, so a worker process can run them.
"""

from __future__ import annotations

from games.ai.budget import DEFAULT_SECONDS, Budget, as_budget
from games.ai.decision import Choice, Decision, Step, Why
from games.ai.players import EasyPlayer, GreedyPlayer, RandomPlayer, greedy_states
from games.ai.profile import SearchProfile, profile_of
from games.ai.search import SearchPlayer

LEVELS: dict[str, str] = {
    "easy": "easy: often takes a good move, not always",
    "normal": "normal: the best points now",
    "hard": "hard: thinks ahead (a search, about 2 s a move)",
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
    ``normal``; ``random`` for tests). ``budget`` (seconds or a :class:`Budget`; default 2 s)
    limits the ``hard`` player's thinking; the others answer at once."""
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
    "Decision",
    "EasyPlayer",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "SearchProfile",
    "Step",
    "Why",
    "as_budget",
    "greedy_states",
    "level_of",
    "player_for",
    "profile_of",
]

"""Computer players that play any registered game through the protocol alone.

:class:`GreedyPlayer` takes the move with the best immediate gain for the mover
(:meth:`games.core.Game.move_gain`), breaking ties with its own seeded generator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.core import Game, GameOptions
from games.errors import GameError

LEVELS = {
    "easy": "easy: often takes a good move, not always",
    "normal": "normal: the best points now",
}
"""The computer levels a seat can be filled with, and how the lobby explains them."""
DEFAULT_LEVEL = "normal"
EASY_SPREAD = 3
"""How many of the best moves the easy player picks among (at random, the better more often)."""


@dataclass
class GreedyPlayer:
    """Best immediate gain; equal gains are broken at random (seeded)."""

    seed: int = 0
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """The move to play in ``state`` (the seat to act is the mover)."""
        moves = game.legal_moves(state)
        if not moves:
            raise GameError("There is no legal move to choose from.")
        gains = [game.move_gain(state, move) for move in moves]
        best = max(gains)
        candidates = [move for move, gain in zip(moves, gains, strict=True) if gain >= best - 1e-9]
        return candidates[self.rng.randrange(len(candidates))]


@dataclass
class RandomPlayer:
    """A uniformly random legal move (seeded): for tests and benchmarks."""

    seed: int = 0
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """A random legal move."""
        moves = game.legal_moves(state)
        if not moves:
            raise GameError("There is no legal move to choose from.")
        return moves[self.rng.randrange(len(moves))]


@dataclass
class EasyPlayer:
    """Greedy with randomness, so that beginners win sometimes: usually one of the few best moves
    by immediate gain (the better the likelier), now and then any legal move."""

    seed: int = 0
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """A good move, not always the best."""
        moves = game.legal_moves(state)
        if not moves:
            raise GameError("There is no legal move to choose from.")
        if self.rng.random() < 0.15:
            return moves[self.rng.randrange(len(moves))]
        best = game.rank_moves(state, moves)[:EASY_SPREAD]
        weights = [2 ** (len(best) - index) for index in range(len(best))]
        return self.rng.choices(best, weights=weights)[0]


Player = GreedyPlayer | RandomPlayer | EasyPlayer


def player_for(level: str, seed: int = 0) -> Player:
    """The computer player of ``level``: ``easy``, ``normal`` (``greedy`` in games stored before
    the levels), or ``random`` (tests)."""
    if level == "random":
        return RandomPlayer(seed)
    if level == "easy":
        return EasyPlayer(seed)
    return GreedyPlayer(seed)


def greedy_states(
    game: Game[Any, Any],
    players: int,
    seed: int,
    options: GameOptions | None = None,
    plies: int | None = None,
) -> list[Any]:
    """Every state of a game between greedy computer players (seeded by ``seed``), from the
    first to the last, stopping after ``plies`` moves if given (for tests and benchmarks)."""
    state = game.new(players, options, seed=seed)
    player = GreedyPlayer(seed)
    states = [state]
    while game.to_act(state) is not None and (plies is None or len(states) <= plies):
        state, _ = game.apply(state, player.choose(game, state))
        states.append(state)
    return states

"""The simple computer players: greedy (``normal``), greedy with randomness (``easy``) and a
uniformly random one (tests and benchmarks).

They weigh moves by :meth:`games.core.Game.move_gain`, the game's measure of a move's immediate
gain, which uses only what the mover can see (the board, its own hand, public counts).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.ai.decision import Choice, Decision, Why
from games.ai.profile import profile_of
from games.core import Game, GameOptions
from games.errors import GameError

EASY_SPREAD = 3
"""How many of the best moves the easy player picks among (at random, the better more often)."""
EASY_BLUNDER = 0.15
"""How often the easy player plays any legal move at all."""


def legal_or_error(game: Game[Any, Any], state: Any) -> list[Any]:
    """The legal moves of ``state``; raises :class:`GameError` when there are none."""
    moves = game.legal_moves(state)
    if not moves:
        raise GameError("There is no legal move to choose from.")
    return moves


def seat_to_decide(game: Game[Any, Any], state: Any, seat: int | None) -> int:
    """The seat to act in ``state``; raises :class:`GameError` when the game is over or when
    ``seat`` is given and is not that seat."""
    to_act = game.to_act(state)
    if to_act is None:
        raise GameError("The game is over: there is no move to choose.")
    if seat is not None and seat != to_act:
        raise GameError("It is not that player's turn: moves are weighed for the player to act.")
    return to_act


@dataclass
class SimplePlayer:
    """A player that answers at once from the moves' immediate gains, with its own seeded
    generator for its random choices."""

    seed: int = 0
    rng: random.Random = field(init=False)
    level: ClassVar[str] = ""
    why: ClassVar[str] = ""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """The move to play in ``state`` (the seat to act is the mover)."""
        raise NotImplementedError

    def decide(self, game: Game[Any, Any], state: Any, seat: int | None = None) -> Decision:
        """:meth:`choose`, with its immediate points (``seat``, if given, must be to act)."""
        seat_to_decide(game, state, seat)
        move = self.choose(game, state)
        mover = game.to_act(state)
        assert mover is not None
        after, _ = game.apply(state, move)
        points = game.scores(after)[mover] - game.scores(state)[mover]
        notation = game.format_move(state, move)
        choice = Choice(move, notation, points=float(points), gain=game.move_gain(state, move))
        return Decision(move, notation, mover, self.level, self.why, choices=(choice,))


@dataclass
class GreedyPlayer(SimplePlayer):
    """Best immediate gain; equal gains are broken at random (seeded). The ``normal`` level."""

    level: ClassVar[str] = "normal"
    why: ClassVar[str] = Why.GREEDY

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """The move with the best ``move_gain``."""
        moves = legal_or_error(game, state)
        gains = [game.move_gain(state, move) for move in moves]
        best = max(gains)
        candidates = [move for move, gain in zip(moves, gains, strict=True) if gain >= best - 1e-9]
        return candidates[self.rng.randrange(len(candidates))]


@dataclass
class RandomPlayer(SimplePlayer):
    """A uniformly random legal move (seeded): for tests and benchmarks."""

    level: ClassVar[str] = "random"
    why: ClassVar[str] = Why.RANDOM

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """A random legal move."""
        moves = legal_or_error(game, state)
        return moves[self.rng.randrange(len(moves))]


@dataclass
class EasyPlayer(SimplePlayer):
    """Greedy with randomness, so that beginners win sometimes: usually one of the few best moves
    by immediate gain (the better the likelier), now and then any legal move; or the game's own
    beginner (its profile's ``easy``). The ``easy`` level."""

    level: ClassVar[str] = "easy"
    why: ClassVar[str] = Why.EASY

    def choose(self, game: Game[Any, Any], state: Any) -> Any:
        """A good move, not always the best."""
        moves = legal_or_error(game, state)
        beginner = profile_of(game).easy
        if beginner is not None:
            return beginner(game, state, self.rng)
        if self.rng.random() < EASY_BLUNDER:
            return moves[self.rng.randrange(len(moves))]
        best = game.rank_moves(state, moves)[:EASY_SPREAD]
        weights = [2 ** (len(best) - index) for index in range(len(best))]
        return self.rng.choices(best, weights=weights)[0]


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

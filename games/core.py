"""The game protocol: the one interface that the bot, the AI, the renderer and the tests share.

Every game is a subclass of :class:`Game` registered in :mod:`games.registry`. States and moves
are frozen dataclasses (moves hashable); :meth:`Game.apply` returns a new state and never
mutates its input. Randomness comes only from the game's seed (through :func:`seeded_rng`) or
from an explicit ``deal``, so that a record (header plus moves) replays to the identical state.
"""

from __future__ import annotations

import dataclasses
import random
import typing
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from games.errors import InvalidOptionsError

Seat = int
"""A seat is an index 0..n-1 in seat order (the order of play)."""


@dataclass(frozen=True)
class Event:
    """Something a move caused, for the turn message and the record of points.

    ``kind`` is one of: ``score`` (points with a reason), ``draw`` (tiles or cards drawn),
    ``pass``, ``bonus`` (an extra turn or placement), ``round_end``, ``game_end``, ``timeout``,
    ``forfeit`` or ``info``. ``text`` is what a player reads, e.g. ``"hexagon +50"``.
    """

    kind: str
    text: str
    seat: Seat | None = None
    points: int = 0


Events = tuple[Event, ...]


@dataclass(frozen=True)
class Outcome:
    """Final standings of a finished game.

    ``ranks[seat]`` is 1 for the winner(s); equal ranks share a place (a draw is every seat
    at rank 1). Forfeited seats rank last.
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    reason: str
    forfeited: frozenset[Seat] = frozenset()

    @property
    def winners(self) -> tuple[Seat, ...]:
        """The seats ranked first."""
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    @property
    def is_draw(self) -> bool:
        """True when more than one seat shares first place."""
        return len(self.winners) > 1

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "draw": self.is_draw,
            "reason": self.reason,
            "forfeited": sorted(self.forfeited),
        }


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Standard competition ranks ("1224") for sort keys where a larger key is better."""
    ranks = []
    for key in keys:
        ranks.append(1 + sum(1 for other in keys if other > key))
    return tuple(ranks)


def rank_by_scores(
    scores: Sequence[int],
    *,
    lower_is_better: bool = False,
    forfeited: Iterable[Seat] = (),
    tiebreak: Sequence[Any] | None = None,
) -> tuple[int, ...]:
    """Ranks from scores: higher (or lower) is better, then ``tiebreak`` (larger is better).

    Forfeited seats rank below every other seat; among themselves they share the last place.
    """
    gone = set(forfeited)
    keys = []
    for seat, score in enumerate(scores):
        primary = -score if lower_is_better else score
        secondary = tiebreak[seat] if tiebreak is not None else 0
        keys.append((0 if seat in gone else 1, primary, secondary))
    return competition_ranks(keys)


def seeded_rng(seed: int, *salt: object) -> random.Random:
    """A private generator derived from the game's seed and a salt (e.g. the round number).

    Deriving a fresh generator for each random event keeps states free of mutable RNGs.
    """
    material = ":".join(str(part) for part in (seed, *salt))
    return random.Random(material)


_OptionsT = TypeVar("_OptionsT", bound="GameOptions")


@dataclass(frozen=True)
class GameOptions:
    """Base of every game's ``Options``: a frozen dataclass that validates itself.

    Subclasses declare fields with defaults and override :meth:`validate`. Field values are
    ``int``, ``str`` or ``bool``.
    """

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise :class:`InvalidOptionsError` when a value is out of range."""

    @classmethod
    def from_dict(cls: type[_OptionsT], data: Mapping[str, Any] | None) -> _OptionsT:
        """Build options from a mapping (e.g. JSON), coercing strings to the field types."""
        data = dict(data or {})
        hints = typing.get_type_hints(cls)
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptionsError(
                f"Unknown option {', '.join(map(repr, unknown))}; "
                f"the options are: {', '.join(sorted(known)) or 'none'}."
            )
        values = {name: _coerce(name, value, hints[name]) for name, value in data.items()}
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """The options as a plain dict (every field, defaults included)."""
        return dataclasses.asdict(self)

    def describe(self) -> str:
        """A short human summary, e.g. ``target=400, max_draws=unlimited``."""
        return ", ".join(f"{key}={value}" for key, value in self.to_dict().items())


def _coerce(name: str, value: Any, kind: Any) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in {"1", "true", "yes", "on"}:
            return True
        if text in {"0", "false", "no", "off"}:
            return False
        raise InvalidOptionsError(f"Option {name!r} must be on or off, not {value!r}.")
    if kind is int:
        if isinstance(value, bool):
            raise InvalidOptionsError(f"Option {name!r} must be a whole number, not {value!r}.")
        try:
            return int(str(value).strip())
        except ValueError:
            raise InvalidOptionsError(f"Option {name!r} must be a whole number, not {value!r}.") from None
    return str(value).strip()


def require_choice(name: str, value: object, choices: Iterable[object]) -> None:
    """Raise :class:`InvalidOptionsError` unless ``value`` is one of ``choices``."""
    allowed = list(choices)
    if value not in allowed:
        listed = ", ".join(str(choice) for choice in allowed)
        raise InvalidOptionsError(f"Option {name!r} must be one of {listed}, not {value!r}.")


def require_range(name: str, value: int, low: int, high: int) -> None:
    """Raise :class:`InvalidOptionsError` unless ``low <= value <= high``."""
    if not low <= value <= high:
        raise InvalidOptionsError(f"Option {name!r} must be between {low} and {high}, not {value}.")


StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


class Game(ABC, Generic[StateT, MoveT]):
    """The protocol every game implements; one instance per game, registered by name.

    Abstract members are required. The others have defaults that a game overrides where it
    knows better (a cheap ``move_gain`` for move ordering, a ``turn_seconds`` for its own
    clock, a ``describe`` line for the public turn message).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[GameOptions]]
    lower_is_better: ClassVar[bool] = False
    """True where points are bad (Geominos): the fewest points wins."""
    hands_hidden: ClassVar[bool] = True
    """True where a seat's hand is private (shown only to its owner)."""
    table_per_player: ClassVar[bool] = False
    """True where every player has a table of their own (solitaire): a channel then holds one
    active game of this kind per player instead of one in all."""
    summary: ClassVar[str] = ""
    """A few lines of rules for ``/<game> rules``."""
    notation_help: ClassVar[str] = ""
    """How to write a move, with an example, for error messages and ``rules``."""

    # -- identity and setup -------------------------------------------------------------

    @abstractmethod
    def new(
        self,
        players: int,
        options: GameOptions | None = None,
        seed: int | None = None,
        deal: Any = None,
    ) -> StateT:
        """A new game for ``players`` seats. ``seed`` (None means 0) drives every random
        event; ``deal`` (JSON-ready, format in the game's module docstring) fixes them instead.
        """

    # -- play ----------------------------------------------------------------------------

    @abstractmethod
    def to_act(self, state: StateT) -> Seat | None:
        """The seat whose decision it is, or None when the game is over."""

    @abstractmethod
    def legal_moves(self, state: StateT) -> list[MoveT]:
        """Every legal move of the seat to act (draw, pass, end actions included)."""

    @abstractmethod
    def parse_move(self, state: StateT, text: str) -> MoveT:
        """Notation to move. Raises ``InvalidMoveError`` (syntax) or ``IllegalMoveError``."""

    @abstractmethod
    def format_move(self, state: StateT, move: MoveT) -> str:
        """Canonical notation: ``parse_move(s, format_move(s, m)) == m``."""

    @abstractmethod
    def apply(self, state: StateT, move: MoveT) -> tuple[StateT, Events]:
        """A new state after ``move`` (which must be legal) and the events it caused."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """Final standings when the game is over, else None."""

    @abstractmethod
    def scores(self, state: StateT) -> tuple[int, ...]:
        """The running score of every seat (match or game totals)."""

    @abstractmethod
    def resign(self, state: StateT, seat: Seat) -> tuple[StateT, Events]:
        """``seat`` forfeits: it ranks last; the others play on if the rules allow."""

    def on_timeout(self, state: StateT) -> tuple[StateT, Events]:
        """What the rules do when the seat to act runs out of time (default: it forfeits)."""
        seat = self.to_act(state)
        if seat is None:
            return state, ()
        return self.resign(state, seat)

    def continues_turn(self, before: StateT, after: StateT) -> bool:
        """True when a move left the mover's turn running (a bonus placement, a turn of several
        actions), so the turn clock keeps its deadline. By default a turn goes on while the same
        seat is to act; a game where the same seat can start a new turn (everyone else passed
        over) says so here."""
        return self.to_act(before) == self.to_act(after)

    def clock_label(self, options: GameOptions) -> str | None:
        """How the lobby describes the game's own clock under ``options`` (e.g. a live clock),
        or None when the session's turn clock applies."""
        return None

    def turn_seconds(self, state: StateT) -> float | None:
        """The time allowed for the current decision where the game sets it, else None
        (the session's own turn clock applies)."""
        return None

    # -- hidden information --------------------------------------------------------------

    @abstractmethod
    def view(self, state: StateT, seat: Seat | None) -> StateT:
        """What ``seat`` (or a spectator, None) may see: other hidden hands, screens and the
        order of bags removed. The result renders like a state but must not be played on."""

    @abstractmethod
    def hand(self, state: StateT, seat: Seat) -> tuple[str, ...] | None:
        """What ``seat`` holds, in notation, or None when it is hidden in this (view) state."""

    # -- presentation and AI helpers ----------------------------------------------------

    def describe(self, state: StateT) -> str:
        """Public facts for the turn message (hand sizes, bag size, ...)."""
        return ""

    def move_label(self, state: StateT, move: MoveT) -> str:
        """How autocomplete shows a move (notation plus, e.g., its points)."""
        return self.format_move(state, move)

    def evaluate(self, state: StateT, seat: Seat) -> float:
        """How good ``state`` is for ``seat`` (larger is better); the greedy AI maximises it."""
        result = self.outcome(state)
        if result is not None:
            rank = result.ranks[seat]
            return 1_000_000.0 if rank == 1 else -1_000_000.0 * rank
        points = self.scores(state)
        sign = -1 if self.lower_is_better else 1
        own = sign * points[seat]
        others = [sign * p for i, p in enumerate(points) if i != seat]
        return float(own - (max(others) if others else 0))

    def move_gain(self, state: StateT, move: MoveT) -> float:
        """The immediate gain of ``move`` for the mover (used to order moves, best first)."""
        seat = self.to_act(state)
        assert seat is not None
        after, _ = self.apply(state, move)
        return self.evaluate(after, seat) - self.evaluate(state, seat)

    def rank_moves(self, state: StateT, moves: Sequence[MoveT]) -> list[MoveT]:
        """``moves`` best first by :meth:`move_gain` (stable for equal gains)."""
        gains = {move: self.move_gain(state, move) for move in moves}
        return sorted(moves, key=lambda move: -gains[move])

    def players(self, state: StateT) -> int:
        """How many seats the game has."""
        return len(self.scores(state))


@dataclass(frozen=True)
class MoveSuggestion:
    """A legal move as autocomplete shows it."""

    notation: str
    label: str
    gain: float = field(default=0.0, compare=False)

"""The game protocol: the one interface that the bot, the AI, the renderer and the tests share.

Every game is a subclass of :class:`Game` registered in :mod:`games.registry`. The base class
owns the public protocol and its checks (player counts, options, move length, legality, game
over, who may resign); a game fills in the hooks, the methods whose names start with ``_``:

==========================  =====================================================================
hook                        what the game provides
==========================  =====================================================================
``_new``                    a new state for checked players and options (seed is an int)
``to_act``                  the seat to act, or None when the game is over
``_legal_moves``            every legal move of the seat to act (computed once per state here)
``_parse_move``             notation (stripped, at most :data:`MAX_MOVE_TEXT` characters) to a move
``_format_move``            a move to its canonical notation
``_why_illegal``            what is wrong with a well-formed move that is not legal now
``_apply``                  a new state and its events, for a move known to be legal
``_resign``                 a seat that still plays forfeits
``_on_timeout``             the rules for running out of time (default: the seat forfeits)
``_view`` / ``_determinize``  hidden information removed / filled in again at random
``outcome``, ``scores``, ``forfeited``, ``hand``  facts of a state
==========================  =====================================================================

States and moves are frozen dataclasses (moves hashable, a ``kind`` from a ``StrEnum`` where a
game has several kinds); :meth:`Game.apply` returns a new state and never mutates its input.
Randomness comes only from the game's seed (through :func:`seeded_rng`) or from an explicit
``deal``, so that a record (header plus moves) replays to the identical state.

Events are facts, never sentences: a :class:`EventKind`, the seat, points, a ``reason`` code and
what was counted or named. The game's :attr:`Game.phrases` turn a reason into words and the bot
puts display names in (see :func:`event_phrase`); no text in ``games/`` names a seat by number.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import random
import string
import threading
import typing
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from games.errors import GameError, IllegalMoveError, InvalidMoveError, InvalidOptionsError, quote

Seat = int
"""A seat is an index 0..n-1 in seat order (the order of play)."""

MAX_MOVE_TEXT = 64
"""The longest move text any game reads: longer input is refused before it is parsed."""


class EventKind(StrEnum):
    """What kind of thing happened. The words come from the game's phrases, by reason."""

    SCORE = "score"
    """Points won (or lost, when negative) for a reason."""
    PLAY = "play"
    """Something laid on the table, when the turn line should say more than the notation."""
    DRAW = "draw"
    """Tiles, cards or pieces taken (``count`` of them)."""
    PASS = "pass"
    """The turn passes without a play (a forced pass included)."""
    BONUS = "bonus"
    """An extra placement, card or turn."""
    DISCARD = "discard"
    """Something given up (``subject``)."""
    ROUND_END = "round_end"
    GAME_END = "game_end"
    TIMEOUT = "timeout"
    FORFEIT = "forfeit"
    INFO = "info"
    """A public fact worth telling (a pile turned over)."""


@dataclass(frozen=True)
class Event:
    """A fact a move caused, for the turn message and the record of points.

    ``reason`` is a code looked up in the game's :attr:`Game.phrases` (``"hexagon"``);
    ``seat`` is who it concerns, ``other`` a second seat (whose card was covered), ``points``
    the points it moved, ``count`` how many things and ``subject`` which thing, in notation.
    """

    kind: EventKind
    seat: Seat | None = None
    points: int = 0
    reason: str = ""
    count: int = 0
    subject: str = ""
    other: Seat | None = None


Events = tuple[Event, ...]

COMMON_PHRASES: Mapping[str, str] = {
    "resigned": "resigns",
    "timeout": "ran out of time",
    "forfeit": "forfeits",
    "forfeit_timeout": "ran out of time twice and forfeits",
    "last_standing": "{name} is the last player left",
    "everyone_resigned": "every player resigned",
}
"""Phrases every game may use; a game's own :attr:`Game.phrases` take precedence."""


@dataclass(frozen=True)
class Outcome:
    """Final standings of a finished game.

    ``ranks[seat]`` is 1 for the winner(s); equal ranks share a place (a draw is every seat
    at rank 1). Forfeited seats rank last. ``reason`` is a phrase code (or a short text with no
    seat in it); ``reason_seat`` is the seat the reason speaks of (``{name}`` in the phrase).
    ``helped`` are the seats whose result came with help (a solitaire solved with hints):
    standings count their win apart, never as a plain win.
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    reason: str
    forfeited: frozenset[Seat] = frozenset()
    reason_seat: Seat | None = None
    helped: frozenset[Seat] = frozenset()

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
            "reason_seat": self.reason_seat,
            "forfeited": sorted(self.forfeited),
            "helped": sorted(self.helped),
        }


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Standard competition ranks ("1224") for sort keys where a larger key is better."""
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


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


def counted(count: int, noun: str, many: str | None = None) -> str:
    """``count`` with ``noun`` in the singular or plural: ``1 tile``, ``3 tiles``, ``2 boxes``
    (``many``). The one helper for every count a player reads, in messages and on pictures
    (``games`` is the layer both ``bot`` and ``rendering`` import)."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def with_note(name: str, note: str) -> str:
    """``name`` with a note in parentheses, never two pairs: ``Ada (Red)``, and ``Ada (normal,
    Red)`` for a name that already ends with one (a computer's level)."""
    if not note:
        return name
    if name.endswith(")") and "(" in name:
        return f"{name[:-1]}, {note})"
    return f"{name} ({note})"


def signed(points: int) -> str:
    """Points with their sign, as players write them: ``+50``, ``−5``, ``0``."""
    if points > 0:
        return f"+{points}"
    return f"−{-points}" if points < 0 else "0"


# -- options -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game, as the lobby and the slash command offer it."""

    name: str
    default: Any
    kind: type
    help: str = ""
    choices: tuple[Any, ...] = ()
    labels: Mapping[Any, str] = field(default_factory=dict)
    low: int | None = None
    high: int | None = None
    offered: bool = True
    """False for an option players are not offered (one that keeps games stored before a rule
    change replaying as they were)."""

    def label(self, value: Any) -> str:
        """How a choice is shown: its label, marked when it is the default."""
        text = self.labels.get(value, str(value))
        return f"{text} (default)" if value == self.default else text


def option(
    default: Any,
    *,
    help: str = "",
    choices: Sequence[Any] = (),
    labels: Mapping[Any, str] | None = None,
    low: int | None = None,
    high: int | None = None,
    offered: bool = True,
) -> Any:
    """A field of a game's ``Options`` with what validates and offers it: the allowed
    ``choices`` (with ``labels`` to show) or a ``low``..``high`` range, and a ``help`` line.
    ``offered=False`` keeps an option out of lobbies and slash commands (a legacy rule that
    games stored before a change keep, set for them by a migration)."""
    meta = {
        "help": help,
        "choices": tuple(choices),
        "labels": dict(labels or {}),
        "low": low,
        "high": high,
        "offered": offered,
    }
    return field(default=default, metadata={"tilehost": meta})


_OptionsT = TypeVar("_OptionsT", bound="GameOptions")


@dataclass(frozen=True)
class GameOptions:
    """Base of every game's ``Options``: a frozen dataclass that validates itself.

    Subclasses declare fields with :func:`option` (choices or a range); :meth:`validate` checks
    them all, and a subclass extends it for rules between fields. Values are ``int``, ``str``
    or ``bool``.
    """

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise :class:`InvalidOptionsError` when a value is not one the option allows."""
        for spec in self.specs():
            value = getattr(self, spec.name)
            if spec.choices:
                require_choice(spec.name, value, spec.choices)
            if spec.low is not None and spec.high is not None:
                require_range(spec.name, value, spec.low, spec.high)

    @classmethod
    def specs(cls) -> tuple[OptionSpec, ...]:
        """Every option with its default, choices, range and help line."""
        hints = typing.get_type_hints(cls)
        found = []
        for item in dataclasses.fields(cls):
            meta = item.metadata.get("tilehost", {})
            found.append(
                OptionSpec(
                    name=item.name,
                    default=item.default,
                    kind=hints[item.name],
                    help=meta.get("help", ""),
                    choices=meta.get("choices", ()),
                    labels=meta.get("labels", {}),
                    low=meta.get("low"),
                    high=meta.get("high"),
                    offered=meta.get("offered", True),
                )
            )
        return tuple(found)

    @classmethod
    def spec(cls, name: str) -> OptionSpec:
        """The option called ``name``."""
        for spec in cls.specs():
            if spec.name == name:
                return spec
        raise KeyError(name)

    @classmethod
    def from_dict(cls: type[_OptionsT], data: Mapping[str, Any] | None) -> _OptionsT:
        """Build options from a mapping (e.g. JSON), coercing strings to the field types."""
        data = dict(data or {})
        hints = typing.get_type_hints(cls)
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptionsError(
                f"Unknown option {', '.join(quote(name) for name in unknown)}; "
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


MAX_OPTION_DIGITS = 12


def _coerce(name: str, value: Any, kind: Any) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in {"1", "true", "yes", "on"}:
            return True
        if text in {"0", "false", "no", "off"}:
            return False
        raise InvalidOptionsError(f"Option {name!r} must be on or off, not {quote(str(value))}.")
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        digits = text.lstrip("+-")
        if isinstance(value, bool) or not digits.isdigit() or len(digits) > MAX_OPTION_DIGITS:
            raise InvalidOptionsError(f"Option {name!r} must be a whole number, not {quote(str(value))}.")
        return int(text)
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise InvalidOptionsError(f"Option {name!r} must be text, not {quote(repr(value))}.")
    return str(value).strip()


def require_choice(name: str, value: object, choices: Iterable[object]) -> None:
    """Raise :class:`InvalidOptionsError` unless ``value`` is one of ``choices``."""
    allowed = list(choices)
    if value not in allowed:
        listed = ", ".join(str(choice) for choice in allowed)
        raise InvalidOptionsError(f"Option {name!r} must be one of {listed}, not {quote(str(value))}.")


def require_range(name: str, value: int, low: int, high: int) -> None:
    """Raise :class:`InvalidOptionsError` unless ``low <= value <= high``."""
    if not low <= value <= high:
        raise InvalidOptionsError(f"Option {name!r} must be between {low} and {high}, not {value}.")


# -- a cache of facts derived from a state ------------------------------------------------------

_K = TypeVar("_K")
_V = TypeVar("_V")


_D = TypeVar("_D")
_PLAIN_FIELDS: dict[type, tuple[tuple[str, ...] | None, frozenset[str]] | None] = {}
"""Per dataclass: what :func:`evolve` needs to copy its instances directly (None when it must
call :func:`dataclasses.replace`): the field names to copy one by one (None: the whole
``__dict__``, which holds nothing else), and the field names as a set."""


def evolve(instance: _D, **changes: Any) -> _D:
    """:func:`dataclasses.replace`, fast: a copy of the frozen dataclass ``instance`` with
    ``changes``. ``replace`` builds its arguments from the class's fields and runs ``__init__`` on
    every call, which was a fifth of a search's playouts. Here the fields' values are copied
    from the instance's ``__dict__`` (never what a ``cached_property`` keeps there) and updated,
    which is the same thing for the dataclasses it accepts: no ``__post_init__``, no ``InitVar``
    nor ``init=False`` field, no ``__slots__``. Others, and unknown field names (the
    ``TypeError`` ``replace`` raises), go to ``replace``."""
    kind = type(instance)
    try:
        plain = _PLAIN_FIELDS[kind]
    except KeyError:
        plain = _PLAIN_FIELDS[kind] = _plain_fields(kind)
    if plain is None or not plain[1].issuperset(changes):
        return dataclasses.replace(instance, **changes)  # type: ignore[type-var]
    copied = object.__new__(kind)
    source = instance.__dict__
    values = dict(source) if plain[0] is None else {name: source[name] for name in plain[0]}
    values.update(changes)
    object.__setattr__(copied, "__dict__", values)
    return copied


def _plain_fields(kind: type) -> tuple[tuple[str, ...] | None, frozenset[str]] | None:
    """What :func:`evolve` needs to copy instances of ``kind`` directly (see
    :data:`_PLAIN_FIELDS`), or None when it may not."""
    if not dataclasses.is_dataclass(kind) or hasattr(kind, "__post_init__") or "__slots__" in vars(kind):
        return None
    names = tuple(f.name for f in dataclasses.fields(kind) if f.init)
    parameters = set(inspect.signature(kind.__init__).parameters) - {"self"}
    if parameters != set(names) or len(names) != len(dataclasses.fields(kind)):  # InitVar, init=False
        return None
    caches = any(
        isinstance(value, functools.cached_property) for k in kind.__mro__ for value in vars(k).values()
    )
    return (names if caches else None), frozenset(names)


class StateCache(Generic[_K, _V]):
    """Remembers ``compute(state)`` for the most recent states, by identity.

    States are immutable, so a derived fact (the legal moves, say) never changes; keeping the
    state itself beside the value means an id is never reused while its entry lives. Safe to
    share between threads.
    """

    def __init__(self, compute: Callable[[_K], _V], size: int = 256) -> None:
        self._compute = compute
        self._size = size
        self._items: OrderedDict[int, tuple[_K, _V]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, state: _K) -> _V:
        key = id(state)
        with self._lock:
            hit = self._items.get(key)
            if hit is not None and hit[0] is state:
                self._items.move_to_end(key)
                return hit[1]
        value = self._compute(state)
        with self._lock:
            self._items[key] = (state, value)
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


class Game(ABC, Generic[StateT, MoveT]):
    """The protocol every game implements; one instance per game, registered by name.

    The public methods are the protocol and carry its checks; a game implements the hooks
    (see the module docstring) and may override the presentation and AI helpers where it knows
    better (a cheap ``move_gain`` for move ordering, a ``turn_seconds`` for its own clock, a
    ``describe`` line for the public turn message).
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
    hidden_information: ClassVar[bool] = True
    """True where a view hides anything (hands, a bag's order): the AI then samples what it
    cannot see (:meth:`determinize`)."""
    table_per_player: ClassVar[bool] = False
    """True where every player has a table of their own (solitaire): a channel then holds one
    active game of this kind per player instead of one in all."""
    summary: ClassVar[str] = ""
    """A few lines of rules for ``/<game> rules``."""
    notation_help: ClassVar[str] = ""
    """How to write a move, with an example, for error messages and ``rules``."""
    phrases: ClassVar[Mapping[str, str]] = {}
    """Reason code -> words, e.g. ``"hexagon": "closes a hexagon {points}"``. Placeholders:
    ``{name}`` (the event's seat), ``{other}``, ``{points}`` (signed), ``{count}``,
    ``{subject}``; ``{count:@tile}`` is the count with its noun (:func:`counted`: ``1 tile``,
    ``3 tiles``; ``{count:@box|boxes}`` for an irregular plural). A phrase without ``{name}`` is said of
    the event's seat (the bot adds the name where the mover is not meant)."""
    units: ClassVar[tuple[str, str]] = ("point", "points")
    """What scores count, singular and plural."""
    search_profile: ClassVar[object] = None
    """How the computer search plays this game: a :class:`games.ai.profile.SearchProfile`, or
    None for the defaults (typed as ``object`` because ``games.ai`` builds on this module)."""

    def __init__(self) -> None:
        self._legal_cache: StateCache[StateT, tuple[MoveT, ...]] = StateCache(self._compute_legal)
        # the set is made only when a legality check needs it (a game may check its own way)
        self._legal_sets: StateCache[StateT, frozenset[MoveT]] = StateCache(
            lambda state: frozenset(self._legal_cache(state))
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as its class (its only state is a cache), so that worker processes
        receive it with the states they work on."""
        return (type(self), ())

    # -- identity and setup -------------------------------------------------------------

    def new(
        self,
        players: int,
        options: GameOptions | None = None,
        seed: int | None = None,
        deal: Any = None,
    ) -> StateT:
        """A new game for ``players`` seats. ``seed`` (None means 0) drives every random
        event; ``deal`` (JSON-ready, format in the game's package docstring) fixes them instead.
        """
        if not self.min_players <= players <= self.max_players:
            between = (
                f"{self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise InvalidOptionsError(f"{self.title} is for {between} players, not {players}.")
        chosen = options if options is not None else self.Options()
        if not isinstance(chosen, self.Options):
            raise InvalidOptionsError(f"{self.title} needs its own options.")
        return self._new(players, chosen, 0 if seed is None else seed, deal)

    def _new(self, players: int, options: Any, seed: int, deal: Any) -> StateT:
        """Hook: a new state (players and options are checked)."""
        raise NotImplementedError

    # -- play ----------------------------------------------------------------------------

    @abstractmethod
    def to_act(self, state: StateT) -> Seat | None:
        """The seat whose decision it is, or None when the game is over."""

    def legal_moves(self, state: StateT) -> list[MoveT]:
        """Every legal move of the seat to act (draw, pass, end actions included)."""
        if self.to_act(state) is None:
            return []
        return list(self._legal_cache(state))

    def is_legal(self, state: StateT, move: Any) -> bool:
        """True when ``move`` is one of the legal moves of ``state``."""
        if self.to_act(state) is None:
            return False
        try:
            return move in self._legal_sets(state)
        except TypeError:  # an unhashable object is no move
            return False

    def _compute_legal(self, state: StateT) -> tuple[MoveT, ...]:
        return tuple(self._legal_moves(state))

    def _legal_moves(self, state: StateT) -> Sequence[MoveT]:
        """Hook: every legal move of the seat to act, in a stable order (the game is not over)."""
        raise NotImplementedError

    def parse_move(self, state: StateT, text: str) -> MoveT:
        """Notation to a legal move. Raises ``InvalidMoveError`` (syntax) or ``IllegalMoveError``
        (rules), each with a message a player can act on."""
        text = text.strip()
        if not text:
            raise InvalidMoveError(f"Write a move. {self.notation_help.splitlines()[0]}")
        if len(text) > MAX_MOVE_TEXT:
            raise InvalidMoveError(
                f"{quote(text)} is too long for a move ({len(text)} characters; moves are at most "
                f"{MAX_MOVE_TEXT}). Pick one from the suggestions."
            )
        if self.to_act(state) is None:
            raise IllegalMoveError(f"{quote(text)}: the game is over.")
        try:
            move = self._parse_move(state, text)
        except GameError:
            raise
        except (ValueError, LookupError, ArithmeticError, RecursionError) as error:
            raise InvalidMoveError(f"{quote(text)} is not a move: {error}") from None
        if not self.is_legal(state, move):
            raise self._refusal(state, move)
        return move

    def _parse_move(self, state: StateT, text: str) -> MoveT:
        """Hook: stripped notation (at most :data:`MAX_MOVE_TEXT` characters) to a move; raise
        ``InvalidMoveError`` when it is not one, or ``IllegalMoveError`` with a reason more
        precise than :meth:`_why_illegal` can give."""
        raise NotImplementedError

    def format_move(self, state: StateT, move: MoveT) -> str:
        """Canonical notation: ``parse_move(s, format_move(s, m)) == m``."""
        return self._format_move(state, move)

    def _format_move(self, state: StateT, move: MoveT) -> str:
        """Hook: a move's canonical notation."""
        raise NotImplementedError

    def _why_illegal(self, state: StateT, move: MoveT) -> str:
        """Hook: why a well-formed ``move`` is not legal now, quoting it and saying what is."""
        return f"{quote(self._describe_move(state, move))} is not a legal move now."

    def _refusal(self, state: StateT, move: Any) -> IllegalMoveError:
        """The error for a move that is not legal: the game's reason, or (for something that is
        not even a move of this game) a plain one."""
        try:
            return IllegalMoveError(self._why_illegal(state, move))
        except Exception:
            return IllegalMoveError(f"{quote(repr(move))} is not a move of {self.title}.")

    def _describe_move(self, state: StateT, move: Any) -> str:
        try:
            return self._format_move(state, move)
        except Exception:
            return repr(move)

    def apply(self, state: StateT, move: MoveT) -> tuple[StateT, Events]:
        """A new state after ``move`` and the events it caused. Raises ``IllegalMoveError`` for
        any move that is not legal in ``state`` (a stale move, one parsed on another state)."""
        if self.to_act(state) is None:
            raise IllegalMoveError(f"{quote(self._describe_move(state, move))}: the game is over.")
        if not self.is_legal(state, move):
            raise self._refusal(state, move)
        return self._apply(state, move)

    def _apply(self, state: StateT, move: MoveT) -> tuple[StateT, Events]:
        """Hook: the new state and events for a legal ``move``."""
        raise NotImplementedError

    def play_unchecked(self, state: StateT, move: MoveT) -> tuple[StateT, Events]:
        """:meth:`apply` without its checks, for a move known to be legal: the search's playouts
        play their policy's moves with it, where checking a move (the legal moves of every
        position) cost as much as playing it. A move that is not legal here is a bug in that
        policy: the tests play every game's policy with the checks on."""
        return self._apply(state, move)

    def searches(self, state: StateT, move: MoveT) -> bool:
        """True when applying ``move`` runs a search (a solitaire given up shows the solution
        the solver finds): the bot applies such a move in a worker process, within a budget,
        never where it would hold everyone else up. Most moves are quick."""
        return False

    def prepare(self, state: StateT) -> None:
        """Build what the rules keep for positions like ``state`` (a solitaire's compiled
        target), so that reading and checking its moves is quick afterwards. The bot calls it
        in a thread before a game's moves are read; most games keep nothing."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """Final standings when the game is over, else None."""

    @abstractmethod
    def scores(self, state: StateT) -> tuple[int, ...]:
        """The running score of every seat (match or game totals)."""

    def forfeited(self, state: StateT) -> frozenset[Seat]:
        """The seats that resigned or forfeited."""
        return frozenset(getattr(state, "forfeited", frozenset()))

    def resign(self, state: StateT, seat: Seat) -> tuple[StateT, Events]:
        """``seat`` forfeits: it ranks last; the others play on if the rules allow. Raises
        ``IllegalMoveError`` for a seat that does not exist or already forfeited, or when the
        game is over."""
        players = self.players(state)
        if not 0 <= seat < players:
            raise IllegalMoveError(f"There is no player {seat + 1} in this game (it has {players}).")
        if self.outcome(state) is not None:
            raise IllegalMoveError("The game is already over; nobody can resign.")
        if seat in self.forfeited(state):
            raise IllegalMoveError("That player has already resigned.")
        return self._resign(state, seat)

    def _resign(self, state: StateT, seat: Seat) -> tuple[StateT, Events]:
        """Hook: ``seat`` (still playing, game not over) forfeits."""
        raise NotImplementedError

    def on_timeout(self, state: StateT) -> tuple[StateT, Events]:
        """What the rules do when the seat to act runs out of time."""
        if self.to_act(state) is None:
            return state, ()
        return self._on_timeout(state)

    def _on_timeout(self, state: StateT) -> tuple[StateT, Events]:
        """Hook: the seat to act ran out of time (default: it forfeits)."""
        seat = self.to_act(state)
        assert seat is not None
        return self.resign(state, seat)

    def continues_turn(self, before: StateT, after: StateT) -> bool:
        """True when a move left the mover's turn running (a bonus placement, a turn of several
        actions), so the turn clock keeps its deadline and the turn keeps its board message. By
        default a turn goes on while the same seat is to act; a game where the same seat can
        start a new turn (everyone else passed over) says so here."""
        return self.to_act(before) == self.to_act(after)

    def forced_move(self, state: StateT) -> MoveT | None:
        """The move the seat to act must make when the rules leave it no choice worth asking
        for (a card that fits nowhere is discarded; nothing fits, so a tile is drawn): the
        session plays it at once, without a ping or a clock. None when there is a decision."""
        return None

    def variant(self, options: GameOptions) -> str | None:
        """What standings group results by, besides the game (the solitaire's target, as a
        canonical shape), or None where every game of this kind counts alike."""
        return None

    def clock_label(self, options: GameOptions) -> str | None:
        """How the lobby describes the game's own clock under ``options`` (e.g. a live clock),
        or None when the session's turn clock applies."""
        return None

    def turn_seconds(self, state: StateT) -> float | None:
        """The time allowed for the current decision where the game sets it, else None
        (the session's own turn clock applies)."""
        return None

    # -- hidden information --------------------------------------------------------------

    def view(self, state: StateT, seat: Seat | None) -> StateT:
        """What ``seat`` (or a spectator, None) may see: other hidden hands, screens, the order
        of bags and the seed removed, so that nothing hidden can be recomputed. The result
        renders like a state; the AI plays on :meth:`determinize` of it, never on it."""
        return self._view(state, seat)

    def _view(self, state: StateT, seat: Seat | None) -> StateT:
        """Hook: ``state`` with everything ``seat`` may not see removed."""
        raise NotImplementedError

    def determinize(self, view: StateT, seat: Seat | None, rng: random.Random) -> StateT:
        """A whole state that ``seat`` cannot tell from the true one: ``view(result, seat) ==
        view``, every hidden thing (other hands, bag and deck orders, a fresh seed for later
        shuffles) drawn from ``rng`` among what the view leaves possible. Playable."""
        return self._determinize(view, seat, rng)

    def _determinize(self, view: StateT, seat: Seat | None, rng: random.Random) -> StateT:
        """Hook: fill in what the view hid (default: nothing is hidden)."""
        if self.hidden_information:
            raise NotImplementedError(f"{self.title} hides information and must determinize")
        return view

    @abstractmethod
    def hand(self, state: StateT, seat: Seat) -> tuple[str, ...] | None:
        """What ``seat`` holds, in notation, or None when it is hidden in this (view) state."""

    # -- presentation and AI helpers ----------------------------------------------------

    def describe(self, state: StateT, names: Sequence[str]) -> str:
        """Public facts for the turn message (hand sizes, bag size, ...), with players called
        by ``names`` (display names in seat order)."""
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
        """``moves`` best first by :meth:`move_gain`; equal gains keep the notation order, so the
        ranking is the same every time."""
        keyed = [(-self.move_gain(state, move), self.format_move(state, move), move) for move in moves]
        keyed.sort(key=lambda item: (item[0], item[1]))
        return [move for _, _, move in keyed]

    def players(self, state: StateT) -> int:
        """How many seats the game has."""
        return len(self.scores(state))


def event_phrase(game: Game[Any, Any], event: Event, names: Sequence[str]) -> str:
    """The words of ``event`` with display names put in (see :attr:`Game.phrases`)."""
    template = game.phrases.get(event.reason) or COMMON_PHRASES.get(event.reason)
    if template is None:
        return event.reason
    return fill_phrase(
        template,
        names,
        seat=event.seat,
        other=event.other,
        points=event.points,
        count=event.count,
        subject=event.subject,
    )


def outcome_phrase(game: Game[Any, Any], outcome: Outcome, names: Sequence[str]) -> str:
    """Why the game ended, in words (an unknown reason code is shown as it is)."""
    template = game.phrases.get(outcome.reason) or COMMON_PHRASES.get(outcome.reason) or outcome.reason
    return fill_phrase(template, names, seat=outcome.reason_seat)


def fill_phrase(
    template: str,
    names: Sequence[str],
    *,
    seat: Seat | None = None,
    other: Seat | None = None,
    points: int = 0,
    count: int = 0,
    subject: str = "",
) -> str:
    """Fill a phrase's placeholders (a seat without a name is called "a player")."""

    def called(who: Seat | None) -> str:
        return names[who] if who is not None and 0 <= who < len(names) else "a player"

    return _PHRASE_FORMAT.format(
        template,
        name=called(seat),
        other=called(other),
        points=signed(points),
        count=count,
        subject=subject,
    )


class _Counting(string.Formatter):
    """``str.format`` where ``{count:@tile}`` (or ``{count:@box|boxes}``) is :func:`counted`."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("@") and isinstance(value, int):
            noun, _, many = format_spec[1:].partition("|")
            return counted(value, noun, many or None)
        return str(super().format_field(value, format_spec))


_PHRASE_FORMAT = _Counting()

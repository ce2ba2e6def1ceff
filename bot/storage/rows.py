"""What storage takes and returns: frozen dataclasses of plain values, and its errors.

Each row class that a query returns has ``from_row``, which reads a database row by column
name (``sqlite3.Row`` and ``asyncpg.Record`` both allow that), so no caller sees a tuple.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Protocol, TypeVar

from bot.ratings import RatingUpdate
from bot.status import Status


class Row(Protocol):
    """A database row: its values by column name."""

    def __getitem__(self, key: str, /) -> Any: ...


class StorageError(Exception):
    """A write could not be made (the stored game is unchanged)."""


UNAVAILABLE_WORDS = ("readonly", "read-only", "disk is full", "no space left", "disk i/o error")
UNAVAILABLE_SQLSTATES = frozenset({"53100", "25006"})
"""PostgreSQL's disk_full and read_only_sql_transaction."""


def unavailable(error: BaseException) -> bool:
    """True when a write failed because the database takes no writes now (a full disk, a
    read-only file or server), not because of what was written."""
    if getattr(error, "sqlstate", None) in UNAVAILABLE_SQLSTATES:
        return True
    text = str(error).lower()
    return isinstance(error, sqlite3.DatabaseError | OSError) and any(
        word in text for word in UNAVAILABLE_WORDS
    )


class ActiveGameExists(StorageError):
    """The channel already has an active game of that kind."""


class RematchExists(StorageError):
    """The game already has a rematch (a lobby, or a game under way or played)."""


class StaleMove(StorageError):
    """The game moved on since the move was made (another ply was stored first)."""


class Conflict(StorageError):
    """A transaction lost a race it may simply try again (PostgreSQL's serialization failure or
    deadlock): nothing of it was written."""


class UniqueViolation(StorageError):
    """A row with the same key exists already (both engines' errors become this one)."""


def _json(value: Any) -> Any:
    """A JSON column's value (SQLite and PostgreSQL both hand JSON over as text)."""
    return json.loads(value) if value is not None else None


def _float(value: Any) -> float | None:
    """A number column as a float (PostgreSQL's AVG is a decimal)."""
    return float(value) if value is not None else None


def _count(value: Any) -> int:
    """A count or sum column as an int (a sum over no rows is NULL)."""
    return int(value or 0)


T = TypeVar("T")


def _build(cls: type[T], row: Row, **convert: Callable[[Any], Any]) -> T:
    """``cls`` from the row's columns named like its fields, each through ``convert[name]``
    where given."""
    values = {}
    for name in _field_names(cls):
        value = row[name]
        values[name] = convert[name](value) if name in convert else value
    return cls(**values)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """The names of a row class's fields (``dataclasses.fields`` is slow for 10,000 rows)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(item.name for item in fields(cls))
    return names


@dataclass(frozen=True)
class SeatRow:
    """A seat at a table: a person (user_id) or a computer (ai_level)."""

    seat: int
    user_id: int | None
    name: str
    ai_level: str | None = None

    @property
    def is_computer(self) -> bool:
        """True for a computer player."""
        return self.ai_level is not None

    @classmethod
    def from_row(cls, row: Row) -> SeatRow:
        """The seat in a ``seats`` row."""
        return _build(cls, row)


@dataclass(frozen=True)
class GameRow:
    """One stored game (a session's header and where it stands)."""

    id: int
    game: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: Status
    options: dict[str, Any]
    seed: int
    deal: Any
    turn_seconds: int
    ply: int
    snapshot: dict[str, Any] | None
    deadline: float | None
    reminder_at: float | None
    outcome: dict[str, Any] | None
    message_id: int | None
    created_at: float
    updated_at: float
    finished_at: float | None
    started_at: float | None = None
    variant: str | None = None
    """What standings group this game's results by besides the game (``Game.variant``)."""
    thread_id: int | None = None
    """The thread the game plays in (None: its channel)."""
    lobby_message_id: int | None = None
    """The lobby's message (a thread made from it has its id)."""
    room_id: int | None = None
    """Where the boards go when that is not the game's thread: its channel, where it plays
    without a thread or went on after its thread went away."""
    table_key: int = 0
    """Which of the channel's tables: 0 for the shared one, the host's id for a table of one's
    own (solitaire), below 0 for a tournament's table."""
    rematch_of: int | None = None
    """The game this one is a rematch of."""
    seating: list[dict[str, Any]] | None = None
    """A rematch lobby's planned order of play: ``{user_id, name, ai_level}`` per seat."""

    COLUMNS: ClassVar[str] = (
        "id, game, guild_id, channel_id, host_id, status, options, seed, deal, turn_seconds, ply, "
        "snapshot, deadline, reminder_at, outcome, message_id, created_at, updated_at, finished_at, "
        "started_at, variant, thread_id, table_key, rematch_of, seating, lobby_message_id, room_id"
    )
    """The ``games`` columns :meth:`from_row` reads."""

    @property
    def in_tournament(self) -> bool:
        """True for a game a tournament paired (its table key is the tournament table's, negated)."""
        return self.table_key < 0

    @classmethod
    def columns(cls, alias: str) -> str:
        """:attr:`COLUMNS` of the ``games`` table named ``alias`` in a query that joins others."""
        return ", ".join(f"{alias}.{name.strip()}" for name in cls.COLUMNS.split(","))

    @classmethod
    def from_row(cls, row: Row) -> GameRow:
        """The game in a ``games`` row (selected with :attr:`COLUMNS`)."""
        return _build(
            cls,
            row,
            status=Status,
            options=_json,
            deal=_json,
            snapshot=_json,
            outcome=_json,
            seating=_json,
        )


@dataclass(frozen=True)
class MoveRow:
    """One stored record line."""

    ply: int
    seat: int
    notation: str
    user_id: int | None
    created_at: float

    @classmethod
    def from_row(cls, row: Row) -> MoveRow:
        """The record line in a ``moves`` row."""
        return _build(cls, row)


@dataclass(frozen=True)
class ResultRow:
    """One seat's result in a finished game."""

    seat: int
    user_id: int | None
    ai_level: str | None
    rank: int
    score: int
    forfeited: bool
    won: bool
    draw: bool
    helped: bool = False
    """A win with help (a solitaire solved with hints): standings count it apart, not as a win."""


@dataclass(frozen=True)
class Finish:
    """What is written with the last move of a game: the outcome, every seat's result, and the
    rating change (None: the game is not rated; :func:`bot.ratings.rating_update` decides)."""

    outcome: dict[str, Any]
    results: Sequence[ResultRow]
    ratings: RatingUpdate | None = None


@dataclass(frozen=True)
class Line:
    """A record line to store (:meth:`bot.storage.Storage.record_moves`): its ply, who made it,
    its notation, and the person who made it (None for computers, forced turns and the clock)."""

    ply: int
    seat: int
    notation: str
    user_id: int | None = None


@dataclass(frozen=True)
class Clock:
    """The turn clock of a game after a move."""

    deadline: float | None = None
    reminder_at: float | None = None


@dataclass(frozen=True)
class LeaderRow:
    """One line of a leaderboard."""

    user_id: int
    rating: float | None
    wins: int
    games: int

    @classmethod
    def from_row(cls, row: Row) -> LeaderRow:
        """A line of the leaderboard queries."""
        return _build(cls, row, rating=_float, wins=_count, games=_count)


@dataclass(frozen=True)
class Stats:
    """A player's record in one game (in one server, or everywhere)."""

    games: int
    wins: int
    """Wins without help."""
    draws: int
    forfeits: int
    best: int | None
    average: float | None
    streak: int
    """Positive: that many wins in a row now; negative: that many games without a win."""
    rating: float | None
    rated_games: int
    fastest_win: float | None = None
    """Seconds from start to the end of the quickest game won (solitaire solve times)."""
    helped: int = 0
    """Wins with help (solitaires solved with hints), counted apart from ``wins``."""


@dataclass(frozen=True)
class SolverRow:
    """A player on a solitaire leaderboard: distinct variants (targets) solved, solves, quickest
    solve (all without help), and solves with help, counted apart."""

    user_id: int
    targets: int
    solves: int
    fastest: float | None
    helped: int = 0

    @classmethod
    def from_row(cls, row: Row) -> SolverRow:
        """A line of the solitaire leaderboard query."""
        return _build(cls, row, targets=_count, solves=_count, fastest=_float, helped=_count)


@dataclass(frozen=True)
class SolvedTarget:
    """One solitaire variant (target) a player solved: solves without help, the quickest of
    them in seconds, and solves with help."""

    target: str
    solves: int
    fastest: float | None
    helped: int = 0

    @classmethod
    def from_row(cls, row: Row) -> SolvedTarget:
        """A line of the solved-targets query."""
        return _build(cls, row, solves=_count, fastest=_float, helped=_count)


@dataclass(frozen=True)
class HistoryRow:
    """A finished game in a player's history."""

    game_id: int
    game: str
    guild_id: int | None
    channel_id: int
    message_id: int | None
    rank: int
    score: int
    players: int
    won: bool
    finished_at: float
    helped: bool = False
    """The result came with help (a solitaire solved with hints)."""

    @classmethod
    def from_row(cls, row: Row) -> HistoryRow:
        """A line of the history query."""
        return _build(cls, row, players=_count, won=bool, helped=bool)


@dataclass(frozen=True)
class Season:
    """A server's leaderboard season: its results are those that finished after ``started_at``
    and until ``ended_at`` (None: the current season)."""

    number: int
    started_at: float
    ended_at: float | None = None

    @property
    def current(self) -> bool:
        """True for the season that is running."""
        return self.ended_at is None

    @classmethod
    def from_row(cls, row: Row) -> Season:
        """A row of ``seasons``."""
        return _build(cls, row, started_at=float, ended_at=_float)


@dataclass(frozen=True)
class LogEntry:
    """One thing a server's admin did (``admin_log``)."""

    number: int
    user_id: int
    action: str
    details: dict[str, Any]
    created_at: float
    undone_at: float | None = None

    @classmethod
    def from_row(cls, row: Row) -> LogEntry:
        """A row of ``admin_log``."""
        return _build(cls, row, details=_json, created_at=float, undone_at=_float)


@dataclass(frozen=True)
class Forgotten:
    """What removing a player's data from one server changed, table by table."""

    seats: int
    moves: int
    results: int
    ratings: int
    season_ratings: int
    hosted: int


@dataclass(frozen=True)
class TournamentHistoryRow:
    """A finished tournament in a player's history."""

    id: int
    name: str
    game: str
    format: str
    guild_id: int
    channel_id: int
    finished_at: float
    final_rank: int | None
    final_points: float | None
    entrants: int

    @classmethod
    def from_row(cls, row: Row) -> TournamentHistoryRow:
        """A line of the tournament history query."""
        return _build(cls, row, final_points=_float, entrants=_count)

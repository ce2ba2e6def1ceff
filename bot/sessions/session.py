"""The session types: a :class:`Session` (one game at one table), the :class:`Step` a stored
record line makes, the :class:`Update` a change publishes, and the checks every action shares."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot import errors, workers
from bot.status import Status
from bot.storage import GameRow, SeatRow
from games import ai
from games.core import Event, Game, Outcome
from games.records import Record, RecordedMove


class UpdateKind(StrEnum):
    """What an :class:`Update` announces."""

    STARTED = "started"
    MOVES = "moves"
    REMINDER = "reminder"
    ABORTED = "aborted"


@dataclass
class Session:
    """One game at one table: its stored header, seats and the current state."""

    row: GameRow
    game: Game[Any, Any]
    seats: list[SeatRow]
    state: Any = None
    header: Record | None = None
    """The record's header (game, options, players, seed); the moves are :attr:`lines`."""
    lines: list[RecordedMove] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    deadline: float | None = None
    reminder_at: float | None = None
    waiting: int = 0
    """How many actions are queued for the lock (for the "busy" answer)."""
    _suggested: tuple[Any, int, list[tuple[str, str]]] | None = None
    _hinted: tuple[Any, ai.Decision] | None = None
    """The last hint, with the state it was made for (autocomplete leads with it)."""
    moved: Callable[[Session], None] | None = field(default=None, repr=False, compare=False)
    """Called when a new :attr:`row` puts the game in other places (another channel or thread):
    the live tables' index by place (:class:`bot.sessions.lookup.Tables`) follows it."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name != "row":
            object.__setattr__(self, name, value)
            return
        before: GameRow | None = self.__dict__.get("row")
        object.__setattr__(self, name, value)
        moved = self.__dict__.get("moved")
        if moved is not None and before is not None and places(before) != places(value):
            moved(self)

    @property
    def id(self) -> int:
        """The game id."""
        return self.row.id

    @property
    def status(self) -> Status:
        """Lobby, playing, finished or aborted."""
        return self.row.status

    @property
    def is_over(self) -> bool:
        """True once the game has finished (not aborted)."""
        return self.status is Status.FINISHED

    loading: Loading | None = None
    """A restored game whose state is not loaded yet (see :class:`Loading`)."""

    @property
    def ply(self) -> int:
        """How many record lines have been played."""
        return len(self.lines)

    @property
    def record(self) -> Record | None:
        """The whole record (header and moves), or None before the start."""
        return self.header.with_moves(self.lines) if self.header is not None else None

    @property
    def names(self) -> list[str]:
        """Display names in seat order."""
        return [seat.name for seat in self.seats]

    @property
    def picture_names(self) -> list[str]:
        """Names for pictures: computers with their level (``Ada (hard)``)."""
        return [
            f"{seat.name} ({ai.level_of(seat.ai_level)})" if seat.is_computer else seat.name
            for seat in self.seats
        ]

    @property
    def humans(self) -> list[int]:
        """The user ids of the people seated, in seat order."""
        return [seat.user_id for seat in self.seats if seat.user_id is not None]

    @property
    def options(self) -> Any:
        """The game's options object."""
        return self.game.Options.from_dict(self.row.options)

    @property
    def room_id(self) -> int:
        """Where the game's boards go: its thread, or its channel (without a thread, or when its
        thread went away)."""
        return self.row.room_id or self.row.thread_id or self.row.channel_id

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id``, or None."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def to_act(self) -> int | None:
        """The seat to act, or None (lobby or game over)."""
        if self.state is None or self.status is not Status.PLAYING:
            return None
        return self.game.to_act(self.state)

    def seat_to_act(self) -> SeatRow | None:
        """The seat row to act, or None."""
        seat = self.to_act()
        return self.seats[seat] if seat is not None else None

    def outcome(self) -> Outcome | None:
        """The final standings, when over."""
        return self.game.outcome(self.state) if self.state is not None else None

    def view(self, seat: int | None) -> Any:
        """What ``seat`` (or a spectator) may see."""
        return self.game.view(self.state, seat)

    def scores(self) -> tuple[int, ...]:
        """Running scores in seat order."""
        return tuple(self.game.scores(self.state)) if self.state is not None else ()

    def snapshot(self) -> dict[str, Any]:
        """What storage keeps beside the record to list games without replaying them."""
        return {"ply": self.ply, "scores": list(self.scores()), "to_act": self.to_act()}

    def moment(self) -> Session:
        """A copy of the session as it stands now, which later moves do not change: an update
        is shown as of when it was made, not as the game stands by the time it is shown."""
        return Session(
            self.row,
            self.game,
            list(self.seats),
            self.state,
            self.header,
            list(self.lines),
            deadline=self.deadline,
            reminder_at=self.reminder_at,
        )


def places(row: GameRow) -> tuple[int, ...]:
    """Where commands may name a game: its channel, and its thread if it has one."""
    return (row.channel_id,) if row.thread_id is None else (row.channel_id, row.thread_id)


@dataclass(frozen=True)
class Step:
    """One stored record line: who, the line, what it caused, and how it came about."""

    seat: int
    line: str
    events: tuple[Event, ...] = ()
    forced: bool = False
    """Played by the session because the rules left no choice."""
    by_computer: bool = False
    new_turn: bool = False
    """True when the turn did not go on after this line (the game's ``continues_turn`` said
    no): the next line, whoever makes it, begins a new turn."""


@dataclass(frozen=True)
class Update:
    """What happened at a table, for the Discord layer to announce.

    ``steps`` are the record lines stored (in order); ``turn_passed`` is True when, after them,
    a new turn began (the next board gets its own message and pings its player) rather than
    the running turn going on (its message is edited).
    """

    session: Session
    kind: UpdateKind
    steps: tuple[Step, ...] = ()
    turn_passed: bool = False
    user_id: int | None = None
    """Who asked for it (None for computers and the clock)."""
    moment: Session = field(init=False, repr=False, compare=False)
    """The session as it stood when the update was made (see :meth:`Session.moment`): what
    the update shows and whom it pings, whatever moved on since."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "moment", self.session.moment())

    @property
    def finished(self) -> bool:
        """True when this update ended the game."""
        return self.session.is_over

    @property
    def seat(self) -> int | None:
        """The seat of the first step (the mover)."""
        return self.steps[0].seat if self.steps else None


Listener = Callable[[Update], Awaitable[None]]
Publish = Callable[[Update], Awaitable[None]]
"""Hands an update to every listener (see :meth:`SessionService.subscribe`)."""
Chooser = Callable[[Session], Awaitable[Any]]
"""Picks a computer seat's move for a session's current state (off the event loop)."""


class Queued:
    """The game's lock, counting who waits for it (so a long queue can answer "busy")."""

    def __init__(self, session: Session) -> None:
        self.session = session

    async def __aenter__(self) -> None:
        self.session.waiting += 1
        try:
            await self.session.lock.acquire()
        finally:
            self.session.waiting -= 1

    async def __aexit__(self, *exc: object) -> None:
        self.session.lock.release()


class Loading:
    """The state of a restored game, not loaded yet. The first thing that needs it starts the
    load at once (a command, a button, the clock, autocomplete: :func:`want`) as an urgent
    ``LOAD`` in the long lane, ahead of the background lane that loads the other restored games
    one at a time as ``RESTORE`` jobs (background work); a game is loaded once either way."""

    def __init__(self, load: Callable[[Loading], Coroutine[Any, Any, None]], name: str) -> None:
        self._load = load
        self._name = name
        self.wanted = False
        """Someone waits for this game: its replay is a ``LOAD``, not a background ``RESTORE``."""
        self.task: asyncio.Task[None] | None = None

    @property
    def kind(self) -> workers.Kind:
        """The kind of job the replay is, decided when it is handed to the workers."""
        return workers.LOAD if self.wanted else workers.RESTORE

    def start(self) -> asyncio.Task[None]:
        """The load, started now unless it already was."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._load(self), name=self._name)
        return self.task


def restore_key(game_id: int) -> tuple[str, int]:
    """The key of a game's background restore (someone waiting for the game promotes it)."""
    return ("restore", game_id)


def want(session: Session, loading: Loading) -> asyncio.Task[None]:
    """Someone waits for a restored game's state: its load, started now if the background lane
    has not started it, and promoted to the front of the long lane if its replay is waiting
    there as background work."""
    loading.wanted = True
    task = loading.start()
    workers.lanes().promote(restore_key(session.id))
    return task


async def ready(session: Session) -> Session:
    """``session`` once its state is loaded: a restored game not loaded yet is loaded now."""
    loading = session.loading
    if loading is not None:
        await asyncio.shield(want(session, loading))
        if session.state is None:
            raise errors.GameOver(
                f"{session.game.title} #{session.id} could not be loaded; the host can "
                f"`/{session.game.name} abort` it."
            )
    return session


def require_playing(session: Session) -> None:
    """Refuse unless the game is being played."""
    if session.status is Status.LOBBY:
        raise errors.NotStarted(
            f"{session.game.title} #{session.id} has not started yet: the host uses "
            f"`/{session.game.name} start`."
        )
    if session.status is not Status.PLAYING:
        raise errors.GameOver(f"{session.game.title} #{session.id} is over.")


def seat_for(session: Session, user_id: int) -> int:
    """The user's seat; refused when they do not play in this game."""
    seat = session.seat_of(user_id)
    if seat is None:
        raise errors.NotSeated(
            f"You are not playing in this {session.game.title} game; you can watch with "
            f"`/{session.game.name} board`."
        )
    return seat

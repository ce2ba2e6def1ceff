"""The session service: lobbies, moves, clocks, computer players, results. No discord here.

A session is one game at one table (a channel, or the game's own thread). Every change is made
under the game's lock and written to storage in one transaction before anything is returned or
announced: nothing a player did is ever lost, and an error leaves the stored game as it was.

After every committed change the service itself carries the game on, whatever Discord does with
the replies: it plays forced turns (a move the rules leave no choice about), lets computer seats
move, arms the turn clock, and publishes one :class:`Update` for the Discord layer to announce.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from bot import errors, workers
from bot.clock import TurnClock, reminder_time
from bot.ratings import rating_update
from bot.shards import Shards
from bot.storage import (
    ActiveGameExists,
    Clock,
    Finish,
    GameRow,
    ResultRow,
    SeatRow,
    StaleMove,
    Storage,
)
from games import ai, records, registry
from games.core import Event, Game, Outcome
from games.errors import GameError
from games.records import RESIGN, TIMEOUT, Record, RecordedMove

log = logging.getLogger(__name__)

COMPUTER_NAMES = ("Ada", "Babbage", "Hopper", "Turing", "Lovelace", "Knuth")
MAX_COMPUTER_PLIES = 2_000
"""A safety bound on consecutive computer or forced moves in one go."""
SUGGESTION_LIMIT = 25
CLOCK_RETRY_SECONDS = (1, 5, 30, 120, 600)
"""How long to wait before trying again a clock's write that failed (the last one repeats)."""


class Status(StrEnum):
    """Where a game stands."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"


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

    @property
    def id(self) -> int:
        """The game id."""
        return self.row.id

    @property
    def status(self) -> Status:
        """Lobby, playing, finished or aborted."""
        return Status(self.row.status)

    @property
    def is_over(self) -> bool:
        """True once the game has finished (not aborted)."""
        return self.status is Status.FINISHED

    loading: asyncio.Task[None] | None = None
    """While a restored game is replayed in the background."""

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
        """Where the game's boards go: its thread, or its channel."""
        return self.row.thread_id or self.row.channel_id

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
    """True when this line began a new turn of its seat (not the continuation of one)."""


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

    @property
    def finished(self) -> bool:
        """True when this update ended the game."""
        return self.session.is_over

    @property
    def seat(self) -> int | None:
        """The seat of the first step (the mover)."""
        return self.steps[0].seat if self.steps else None


Listener = Callable[[Update], Awaitable[None]]
Chooser = Callable[[Session], Awaitable[Any]]
"""Picks a computer seat's move for a session's current state (off the event loop)."""


class SessionService:
    """Runs every table. ``now``, ``sleep`` and ``seed_source`` are injectable for tests."""

    def __init__(
        self,
        storage: Storage,
        *,
        now: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        default_turn_seconds: int = 24 * 3600,
        seed_source: Callable[[], int] | None = None,
        chooser: Chooser | None = None,
        shards: Shards | None = None,
        computer_budget: ai.Budget | None = None,
    ) -> None:
        self.storage = storage
        self.shards = shards
        """The shards whose games this service drives (None: every game in the database)."""
        self.now = now
        self.default_turn_seconds = default_turn_seconds
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self.computer_budget = computer_budget or ai.Budget()
        """What a ``hard`` computer (and a hint) may spend on one decision."""
        self._chooser = chooser or self._computer_choice
        self._sleep = sleep
        self._sessions: dict[int, Session] = {}
        self._listeners: list[Listener] = []
        self._computer_tasks: dict[int, asyncio.Task[None]] = {}
        self._retries: set[asyncio.Task[None]] = set()
        self.clock = TurnClock(self._alarm, now=now, sleep=sleep)

    # -- listeners -----------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every update (commands, computers, the clock alike)."""
        self._listeners.append(listener)

    async def _publish(self, update: Update) -> None:
        for listener in self._listeners:
            try:
                await listener(update)
            except Exception:
                log.exception("listener failed for %s update of game %s", update.kind, update.session.id)

    # -- lookup --------------------------------------------------------------------------

    def get(self, game_id: int) -> Session | None:
        """The live session with that id."""
        return self._sessions.get(game_id)

    def sessions(self) -> list[Session]:
        """Every live (lobby or playing) session."""
        return list(self._sessions.values())

    def in_channel(self, channel_id: int, games: Sequence[str] | None = None) -> list[Session]:
        """The live sessions of a channel or thread (of some games, or all)."""
        return [
            session
            for session in self._sessions.values()
            if channel_id in (session.row.channel_id, session.row.thread_id)
            and (games is None or session.game.name in games)
        ]

    def table(self, channel_id: int, games: Sequence[str], user_id: int) -> Session:
        """The session a command in ``channel_id`` means: the game of this thread; else the
        user's own game from this channel; else the only game here. Raises :class:`NoGameHere`
        (or asks for the thread when the user plays several games from this channel)."""
        kind = registry.get(games[0])
        here = self.in_channel(channel_id, games)
        threaded = [s for s in here if s.row.thread_id == channel_id]
        if threaded:
            return threaded[0]
        mine = [s for s in here if s.seat_of(user_id) is not None]
        if len(mine) == 1:
            return mine[0]
        if len(mine) > 1:
            raise errors.NoGameHere(
                f"You play in {len(mine)} {kind.title} games from this channel: use the command in the "
                "game's thread."
            )
        if kind.table_per_player:
            raise errors.NoGameHere(
                f"You have no {kind.title} game in this channel. Start one with `/{kind.name} new`."
            )
        open_tables = [s for s in here if s.row.thread_id is None]
        if len(open_tables) == 1:
            return open_tables[0]
        if len(here) == 1:
            return here[0]
        if not here:
            raise errors.NoGameHere(f"There is no {kind.title} game here. Start one with `/{kind.name} new`.")
        raise errors.NoGameHere(f"Several {kind.title} games run from this channel: use the game's thread.")

    def lobby_in(self, channel_id: int, game: str) -> Session:
        """The open lobby of ``game`` in this channel (or its thread)."""
        kind = registry.get(game)
        for session in self.in_channel(channel_id, (kind.name,)):
            if session.status is Status.LOBBY:
                return session
        raise errors.NoGameHere(f"There is no {kind.title} lobby here. Open one with `/{kind.name} new`.")

    # -- lobby ---------------------------------------------------------------------------

    async def create(
        self,
        game_name: str,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        options: dict[str, Any] | None = None,
        turn_seconds: int | None = None,
        seed: int | None = None,
    ) -> Session:
        """Open a lobby with the host in seat 0; options are validated first."""
        game = registry.get(game_name)
        parsed = game.Options.from_dict(options or {})
        self._check_free_table(game, channel_id, user_id)
        seconds = self.default_turn_seconds if turn_seconds is None else turn_seconds
        host = SeatRow(0, user_id, name)
        try:
            game_id = await self.storage.create_game(
                game=game.name,
                guild_id=guild_id,
                channel_id=channel_id,
                host=host,
                options=parsed.to_dict(),
                seed=self._seed_source() if seed is None else seed,
                deal=None,
                turn_seconds=seconds,
                now=self.now(),
                table_key=user_id if game.table_per_player else 0,
                variant=game.variant(parsed),
            )
        except ActiveGameExists:
            raise errors.GameExists(f"This channel already has an open {game.title} table.") from None
        row = await self.storage.game(game_id)
        assert row is not None
        session = Session(row, game, [host])
        self._sessions[game_id] = session
        return session

    async def open_table(
        self,
        game_name: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        seats: Sequence[SeatRow],
        options: dict[str, Any],
        turn_seconds: int,
        table_key: int,
    ) -> Session:
        """A lobby with every seat taken, run by ``host_id`` (who need not play), at a table of
        its own (``table_key``, unique in the channel: a tournament's table), so that many such
        games open in one channel at once. The host starts it (:meth:`start`)."""
        game = registry.get(game_name)
        parsed = game.Options.from_dict(options)
        if not game.min_players <= len(seats) <= game.max_players:
            raise errors.GameFull(f"{game.title} is not played by {len(seats)}.")
        try:
            game_id = await self.storage.create_game(
                game=game.name,
                guild_id=guild_id,
                channel_id=channel_id,
                host=seats[0],
                options=parsed.to_dict(),
                seed=self._seed_source(),
                deal=None,
                turn_seconds=turn_seconds,
                now=self.now(),
                table_key=table_key,
                variant=game.variant(parsed),
                host_id=host_id,
            )
        except ActiveGameExists:
            raise errors.GameExists(f"This channel already has that {game.title} table.") from None
        for seat in seats[1:]:
            await self.storage.add_seat(game_id, seat)
        row = await self.storage.game(game_id)
        assert row is not None
        session = Session(row, game, list(seats))
        self._sessions[game_id] = session
        return session

    def _check_free_table(self, game: Game[Any, Any], channel_id: int, user_id: int) -> None:
        # the games at this table: those of the channel that have no thread of their own, or
        # the game whose thread this is
        here = [s for s in self.in_channel(channel_id, (game.name,)) if s.row.thread_id in (None, channel_id)]
        if game.table_per_player:
            if any(s.row.host_id == user_id for s in here):
                raise errors.GameExists(
                    f"You already have a {game.title} game in this channel; finish it (or give it up) first."
                )
            return
        if any(s.status is Status.LOBBY for s in here):
            raise errors.GameExists(
                f"This channel already has an open {game.title} lobby: `/{game.name} join` it, or ask its "
                f"host to start or `/{game.name} abort` it."
            )
        if here:
            raise errors.GameExists(
                f"A {game.title} game is being played in this channel. Finish it, or ask the host to "
                f"`/{game.name} abort` it, before opening another."
            )

    async def join(self, session: Session, user_id: int, name: str) -> Session:
        """Take the next free seat in the lobby."""
        async with session.lock:
            self._require_lobby(session)
            if session.seat_of(user_id) is not None:
                raise errors.AlreadySeated("You already have a seat at this table.")
            self._check_room(session)
            seat = SeatRow(len(session.seats), user_id, name)
            await self.storage.add_seat(session.id, seat)
            session.seats = [*session.seats, seat]
        return session

    async def add_computer(self, session: Session, user_id: int, level: str = "normal") -> Session:
        """The host fills the next free seat with a computer player."""
        async with session.lock:
            self._require_lobby(session)
            self._require_host(session, user_id)
            self._check_room(session)
            taken = {seat.name for seat in session.seats}
            name = next((n for n in COMPUTER_NAMES if n not in taken), "Computer")
            seat = SeatRow(len(session.seats), None, name, level)
            await self.storage.add_seat(session.id, seat)
            session.seats = [*session.seats, seat]
        return session

    async def leave(self, session: Session, user_id: int) -> Update | None:
        """Leave a lobby; when the host leaves, the lobby closes (the update says so)."""
        async with session.lock:
            self._require_lobby(session)
            if session.seat_of(user_id) is None:
                raise errors.NotSeated("You have no seat at this table.")
            if user_id == session.row.host_id:
                return await self._abort_locked(session, user_id)
            remaining = [seat for seat in session.seats if seat.user_id != user_id]
            renumbered = [SeatRow(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(remaining)]
            await self.storage.replace_seats(session.id, renumbered)
            session.seats = renumbered
        return None

    def _require_lobby(self, session: Session) -> None:
        if session.status is Status.LOBBY:
            return
        if session.status is Status.PLAYING:
            raise errors.AlreadyStarted(f"{session.game.title} #{session.id} has already started.")
        raise errors.GameOver(f"{session.game.title} #{session.id} is over.")

    def _check_room(self, session: Session) -> None:
        if len(session.seats) >= session.game.max_players:
            raise errors.GameFull(
                f"The table is full ({session.game.max_players} players is the most for "
                f"{session.game.title})."
            )

    def _require_host(self, session: Session, user_id: int, moderator: bool = False) -> None:
        if user_id != session.row.host_id and not moderator:
            raise errors.NotHost("Only the host who opened this game can do that.")

    async def start(self, session: Session, user_id: int, *, shuffle: bool = True) -> Update:
        """The host starts the game with the seats taken now; the order is drawn by the seed
        (or kept as seated, with ``shuffle`` False: a tournament balances who starts)."""
        async with session.lock:
            self._require_lobby(session)
            self._require_host(session, user_id)
            seats = tuple(session.seats)  # the seats this start starts with, whatever races it
            count = len(seats)
            if count < session.game.min_players:
                missing = session.game.min_players - count
                raise errors.NotStarted(
                    f"{session.game.title} needs at least {session.game.min_players} players; "
                    f"{missing} more must `/{session.game.name} join` (or the host adds a computer player)."
                )
            order = list(seats)
            if shuffle:
                random.Random(session.row.seed).shuffle(order)
            seated = [SeatRow(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(order)]
            header = records.new_record(
                session.game,
                [s.name for s in seated],
                session.row.options,
                session.row.seed,
                session.row.deal,
            )
            _, state = records.start(header)
            playing = replace(session.row, status=Status.PLAYING.value)
            probe = Session(playing, session.game, seated, state, header)
            clock = self._next_clock(probe, same_turn=False, force=True)
            snapshot = _snapshot(probe)
            try:
                await self.storage.start_game(session.id, seated, snapshot, clock, self.now())
            except StaleMove:
                raise errors.AlreadyStarted(
                    f"{session.game.title} #{session.id} has already started."
                ) from None
            session.seats, session.state, session.header, session.row = seated, state, header, playing
            self._set_clock(session, clock)
            steps = await self._play_forced(session)
            update = Update(session, UpdateKind.STARTED, steps, turn_passed=True, user_id=user_id)
        await self._publish(update)
        self._carry_on(session)
        return update

    # -- play ----------------------------------------------------------------------------

    def _require_playing(self, session: Session) -> None:
        if session.status is Status.LOBBY:
            raise errors.NotStarted(
                f"{session.game.title} #{session.id} has not started yet: the host uses "
                f"`/{session.game.name} start`."
            )
        if session.status is not Status.PLAYING:
            raise errors.GameOver(f"{session.game.title} #{session.id} is over.")

    def _seat_for(self, session: Session, user_id: int) -> int:
        seat = session.seat_of(user_id)
        if seat is None:
            raise errors.NotSeated(
                f"You are not playing in this {session.game.title} game; you can watch with "
                f"`/{session.game.name} board`."
            )
        return seat

    async def play(
        self, session: Session, user_id: int, text: str, expected_ply: int | None = None
    ) -> Update:
        """Make a move for the user's seat; stored (with any forced turns after it) before this
        returns, then announced."""
        await self.ready(session)
        async with self._locked(session):
            self._require_playing(session)
            seat = self._seat_for(session, user_id)
            if expected_ply is not None and expected_ply != session.ply:
                raise errors.StaleAction("The game has moved on since then; look at the latest board.")
            to_act = session.to_act()
            if to_act != seat:
                who = session.seats[to_act].name if to_act is not None else "nobody"
                raise errors.NotYourTurn(f"It is not your turn: {who} is to play.")
            move = session.game.parse_move(session.state, text)
            step = await self._commit_move(session, seat, move, user_id)
            steps = (step, *await self._play_forced(session))
            update = self._moves_update(session, steps, user_id)
        await self._publish(update)
        self._carry_on(session)
        return update

    async def resign(self, session: Session, user_id: int) -> Update:
        """The user's seat resigns (in or out of turn)."""
        await self.ready(session)
        async with self._locked(session):
            self._require_playing(session)
            seat = self._seat_for(session, user_id)
            before = session.to_act()
            state, events = session.game.resign(session.state, seat)
            step = await self._commit(session, seat, RESIGN, user_id, state, events)
            steps = (step, *await self._play_forced(session))
            update = self._moves_update(session, steps, user_id, before=before)
        await self._publish(update)
        self._carry_on(session)
        return update

    async def abort(self, session: Session, user_id: int, *, moderator: bool = False) -> Update:
        """The host (or a moderator) calls off a lobby or game: no result is recorded."""
        async with session.lock:
            if session.status not in (Status.LOBBY, Status.PLAYING):
                raise errors.GameOver(f"{session.game.title} #{session.id} is over.")
            self._require_host(session, user_id, moderator)
            update = await self._abort_locked(session, user_id)
        return update

    async def _abort_locked(self, session: Session, user_id: int | None) -> Update:
        await self.storage.abort(session.id, self.now())
        session.row = replace(session.row, status=Status.ABORTED.value)
        self.clock.disarm(session.id)
        self._sessions.pop(session.id, None)
        update = Update(session, UpdateKind.ABORTED, user_id=user_id)
        await self._publish(update)
        return update

    def _locked(self, session: Session) -> _Queued:
        return _Queued(session)

    def _moves_update(
        self, session: Session, steps: tuple[Step, ...], user_id: int | None, before: int | None = None
    ) -> Update:
        passed = any(step.new_turn for step in steps[1:]) or session.is_over
        after = session.to_act()
        if after is not None and steps and not passed:
            passed = after != steps[-1].seat or (before is not None and before != after)
        return Update(session, UpdateKind.MOVES, steps, turn_passed=passed, user_id=user_id)

    async def _commit_move(
        self,
        session: Session,
        seat: int,
        move: Any,
        user_id: int | None,
        *,
        forced: bool = False,
        by_computer: bool = False,
    ) -> Step:
        notation = session.game.format_move(session.state, move)
        state, events = session.game.apply(session.state, move)
        return await self._commit(
            session, seat, notation, user_id, state, events, forced=forced, by_computer=by_computer
        )

    async def _commit(
        self,
        session: Session,
        seat: int,
        notation: str,
        user_id: int | None,
        state: Any,
        events: tuple[Event, ...],
        *,
        forced: bool = False,
        by_computer: bool = False,
    ) -> Step:
        """Write one record line with its snapshot, clock and (if over) results; then adopt it.
        Nothing in memory changes unless the write succeeded."""
        before = session.state
        line = RecordedMove(seat, notation)
        probe = Session(
            session.row, session.game, session.seats, state, session.header, [*session.lines, line]
        )
        outcome = session.game.outcome(state)
        finish = self._finish(session, outcome) if outcome is not None else None
        same_turn = before is not None and session.game.continues_turn(before, state)
        probe.deadline, probe.reminder_at = session.deadline, session.reminder_at
        clock = Clock() if finish else self._next_clock(probe, same_turn=same_turn, force=notation == TIMEOUT)
        try:
            await self.storage.record_move(
                session.id,
                ply=probe.ply,
                seat=seat,
                notation=notation,
                user_id=user_id,
                snapshot=_snapshot(probe),
                clock=clock,
                now=self.now(),
                finish=finish,
            )
        except StaleMove:
            await self._reload(session)
            raise errors.StaleAction(
                "The game moved on while your move was being stored (someone else moved first); "
                "look at the latest board and try again."
            ) from None
        session.state = state
        session.lines.append(line)
        session._suggested = None
        if finish is not None:
            session.row = replace(session.row, status=Status.FINISHED.value)
            self.clock.disarm(session.id)
            self._sessions.pop(session.id, None)
        else:
            self._set_clock(session, clock)
        return Step(seat, notation, events, forced=forced, by_computer=by_computer, new_turn=not same_turn)

    async def _play_forced(self, session: Session) -> tuple[Step, ...]:
        """Play every forced turn of a person now (the lock is held): no ping, no clock for a
        formality. Computers take their forced moves in their own turn."""
        steps: list[Step] = []
        for _ in range(MAX_COMPUTER_PLIES):
            seat = session.seat_to_act()
            if seat is None or seat.is_computer:
                break
            move = session.game.forced_move(session.state)
            if move is None:
                break
            steps.append(await self._commit_move(session, seat.seat, move, None, forced=True))
        return tuple(steps)

    def _finish(self, session: Session, outcome: Outcome) -> Finish:
        results = [
            ResultRow(
                seat=seat.seat,
                user_id=seat.user_id,
                ai_level=seat.ai_level,
                rank=outcome.ranks[seat.seat],
                score=outcome.scores[seat.seat],
                forfeited=seat.seat in outcome.forfeited,
                won=outcome.ranks[seat.seat] == 1
                and not outcome.is_draw
                and seat.seat not in outcome.forfeited,
                draw=outcome.is_draw and outcome.ranks[seat.seat] == 1,
                helped=seat.seat in outcome.helped,
            )
            for seat in session.seats
        ]
        rated = rating_update(session.game.name, session.row.guild_id, results)
        return Finish(outcome.to_dict(), results, rated)

    def _period(self, session: Session) -> float:
        own = session.game.turn_seconds(session.state)
        return float(own) if own is not None else float(session.row.turn_seconds)

    def _next_clock(self, session: Session, *, same_turn: bool, force: bool) -> Clock:
        """The clock after a change: the running deadline while the mover's turn goes on, else a
        fresh period for the seat to act (none for computers)."""
        seat = session.seat_to_act()
        if seat is None or seat.is_computer:
            return Clock()
        if not force and same_turn and session.deadline is not None:
            return Clock(session.deadline, session.reminder_at)
        period = self._period(session)
        if period <= 0:
            return Clock()
        start = self.now()
        return Clock(start + period, reminder_time(start, period))

    def _set_clock(self, session: Session, clock: Clock) -> None:
        session.deadline, session.reminder_at = clock.deadline, clock.reminder_at
        self.clock.arm(session.id, clock.deadline, clock.reminder_at)

    # -- computers, clock, restart ---------------------------------------------------------

    def _carry_on(self, session: Session) -> None:
        """Let computer players move (in the background) if one of them is to act."""
        seat = session.seat_to_act()
        if seat is None or not seat.is_computer:
            return
        running = self._computer_tasks.get(session.id)
        if running is not None and not running.done():
            return
        task = asyncio.get_running_loop().create_task(
            self._run_computers(session), name=f"computers-{session.id}"
        )
        self._computer_tasks[session.id] = task
        task.add_done_callback(lambda _: self._computer_tasks.pop(session.id, None))

    async def _run_computers(self, session: Session) -> None:
        for _ in range(MAX_COMPUTER_PLIES):
            seat = session.seat_to_act()
            if seat is None or not seat.is_computer:
                return
            try:
                update = await self._computer_turn(session, seat)
            except errors.StaleAction:
                continue  # someone resigned or the clock ran meanwhile: look again
            except Exception:
                log.exception("game %s: the computer in seat %s could not move", session.id, seat.seat)
                return
            await self._publish(update)
        log.error("game %s: computers made %d moves in a row; stopping", session.id, MAX_COMPUTER_PLIES)

    async def _computer_turn(self, session: Session, seat: SeatRow) -> Update:
        """One whole turn of a computer seat (several moves where a turn has several steps)."""
        steps: list[Step] = []
        while session.to_act() == seat.seat and len(steps) < MAX_COMPUTER_PLIES:
            state = session.state
            move = session.game.forced_move(state)
            if move is None:
                move = await self._chooser(session)
            async with self._locked(session):
                if session.state is not state:
                    if steps:
                        break
                    raise errors.StaleAction("the position changed while the computer was thinking")
                steps.append(
                    await self._commit_move(session, seat.seat, move, None, forced=False, by_computer=True)
                )
                steps.extend(await self._play_forced(session))
            if any(step.new_turn for step in steps[1:]):
                break
        return self._moves_update(session, tuple(steps), None)

    async def _alarm(self, game_id: int, kind: str) -> None:
        session = self._sessions.get(game_id)
        if session is None or session.status is not Status.PLAYING:
            return
        try:
            await self.ready(session)
        except errors.SessionError:
            return
        if kind == "reminder":
            await self._remind(session)
            return
        try:
            update = await self._time_out(session)
        except Exception:
            log.exception("game %s: the timeout could not be stored; trying again", game_id)
            self._retry_alarm(session, 0)
            return
        if update is not None:
            await self._publish(update)
            self._carry_on(session)

    async def _time_out(self, session: Session) -> Update | None:
        async with session.lock:
            if session.deadline is None or session.deadline > self.now() + 1e-6:
                return None  # the deadline moved on since this alarm was set
            seat = session.to_act()
            if seat is None:
                return None
            state, events = session.game.on_timeout(session.state)
            step = await self._commit(session, seat, TIMEOUT, None, state, events)
            steps = (step, *await self._play_forced(session))
            return self._moves_update(session, steps, None, before=seat)

    def _retry_alarm(self, session: Session, attempt: int) -> None:
        """Try a failed deadline again later (the database may be full or read-only for a while);
        the deadline is never dropped, so the player to act cannot stall the game."""
        wait = CLOCK_RETRY_SECONDS[min(attempt, len(CLOCK_RETRY_SECONDS) - 1)]

        async def again() -> None:
            await self._sleep(wait)
            if self._sessions.get(session.id) is not session or session.status is not Status.PLAYING:
                return
            try:
                update = await self._time_out(session)
            except Exception:
                log.warning(
                    "game %s: the timeout still cannot be stored (attempt %d)", session.id, attempt + 2
                )
                self._retry_alarm(session, attempt + 1)
                return
            if update is not None:
                await self._publish(update)
                self._carry_on(session)

        task = asyncio.get_running_loop().create_task(again(), name=f"clock-retry-{session.id}")
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

    async def _remind(self, session: Session) -> None:
        session.reminder_at = None
        try:
            await self.storage.set_clock(session.id, Clock(session.deadline, None))
        except Exception:
            log.warning("game %s: could not store that the reminder was sent", session.id)
        await self._publish(Update(session, UpdateKind.REMINDER))

    async def restore(self) -> list[Session]:
        """Load every lobby and running game back after a restart. Headers and seats come in
        bulk and the clocks are re-armed at once; each record is then replayed in the background,
        off the event loop (games whose computer seat is to act first), and anything that needs a
        game's state waits for it (:meth:`ready`)."""
        rows = await self.storage.active_games(self.shards)
        seats = await self.storage.seats_of([row.id for row in rows])
        restored = []
        for row in sorted(rows, key=lambda r: not _computer_to_act(r, seats.get(r.id, []))):
            try:
                game = registry.get(row.game)
            except GameError:
                log.error(
                    "game %s is a %r game, which this bot does not have; it is left as it is",
                    row.id,
                    row.game,
                )
                continue
            session = Session(row, game, seats.get(row.id, []))
            self._sessions[row.id] = session
            restored.append(session)
            if session.status is Status.PLAYING:
                self._set_clock(session, Clock(row.deadline, row.reminder_at))
                session.loading = asyncio.get_running_loop().create_task(
                    self._load_state(session), name=f"restore-{row.id}"
                )
        return restored

    async def ready(self, session: Session) -> Session:
        """``session`` once its state is loaded (a restored game is replayed in the background)."""
        loading = session.loading
        if loading is not None:
            await asyncio.shield(loading)
            if session.state is None:
                raise errors.GameOver(
                    f"{session.game.title} #{session.id} could not be loaded; the host can "
                    f"`/{session.game.name} abort` it."
                )
        return session

    async def _load_state(self, session: Session) -> None:
        try:
            header, lines, state = await self._replay_stored(session.row, session.seats)
        except Exception:
            log.exception(
                "game %s (%s) could not be replayed; it is left as it is", session.id, session.row.game
            )
            self.clock.disarm(session.id)
            return
        session.header, session.lines, session.state = header, lines, state
        session.loading = None
        await self._resume(session)

    async def _replay_stored(
        self, row: GameRow, seats: Sequence[SeatRow]
    ) -> tuple[Record, list[RecordedMove], Any]:
        game = registry.get(row.game)
        header = records.new_record(game, [s.name for s in seats], row.options, row.seed, row.deal)
        lines = [RecordedMove(line.seat, line.notation) for line in await self.storage.moves(row.id)]
        state = await workers.run(workers.replay_final, game, header, lines, timeout=None)
        return header, lines, state

    async def _resume(self, session: Session) -> None:
        """After a restart: play forced turns left pending and wake computer seats."""
        try:
            async with session.lock:
                steps = await self._play_forced(session)
        except Exception:
            log.exception("game %s: forced turns could not be played after the restart", session.id)
            return
        if steps:
            await self._publish(self._moves_update(session, steps, None))
        self._carry_on(session)

    async def _reload(self, session: Session) -> None:
        """Read a game back from storage after another process moved it on."""
        row = await self.storage.game(session.id)
        if row is None:
            return
        seats = await self.storage.seats(row.id)
        session.row, session.seats = row, seats
        session._suggested = None
        if session.status is not Status.PLAYING:
            self.clock.disarm(session.id)
            self._sessions.pop(session.id, None)
            return
        session.header, session.lines, session.state = await self._replay_stored(row, seats)
        self._set_clock(session, Clock(row.deadline, row.reminder_at))

    async def close(self) -> None:
        """Stop the clock, the retries and the computer players."""
        await self.clock.close()
        tasks = [*self._computer_tasks.values(), *self._retries]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- queries for the Discord layer ----------------------------------------------------

    async def suggestions(self, session: Session, user_id: int, typed: str) -> list[tuple[str, str]]:
        """Up to 25 legal moves ``(label, notation)`` for the user, best first, filtered by
        every word typed (any order, any case). Ranked off the event loop, once per position:
        the ranking is kept with the state it was made from, so it never outlives it."""
        if session.loading is not None:
            return []  # autocomplete cannot wait: the game is still being loaded after a restart
        state = session.state
        if session.status is not Status.PLAYING or session.seat_of(user_id) != session.to_act():
            return []
        cached = session._suggested
        if cached is None or cached[0] is not state:
            ranked = await workers.run(workers.ranked_moves, session.game, state)
            cached = (state, session.ply, ranked)
            if session.state is state:
                session._suggested = cached
        ranked = cached[2]
        hinted = session._hinted
        if hinted is not None and hinted[0] is state:
            ranked = lead_with_hint(ranked, hinted[1].notation)
        return filter_suggestions(ranked, typed)

    async def hint(self, session: Session, user_id: int) -> ai.Decision:
        """The ``hard`` computer's choice for the user's seat (to act), from what that seat can
        see, with what it weighed; kept for the position, so autocomplete leads with it."""
        await self.ready(session)
        self._require_playing(session)
        seat = self._seat_for(session, user_id)
        if session.to_act() != seat:
            raise errors.NotYourTurn("A hint is for your own turn; it is not your turn now.")
        state = session.state
        hinted = session._hinted
        if hinted is not None and hinted[0] is state:
            return hinted[1]
        decision = await workers.run(
            workers.hint, session.game, state, seat, search_seed(session), self.computer_budget
        )
        if session.state is state:
            session._hinted = (state, decision)
        return decision

    async def _computer_choice(self, session: Session) -> Any:
        """The move of the computer seat to act, at its level (off the event loop)."""
        seat = session.seat_to_act()
        level = seat.ai_level if seat is not None else None
        return await workers.run(
            workers.computer_move,
            session.game,
            session.state,
            level,
            search_seed(session),
            self.computer_budget,
        )

    async def last_finished(self, channel_id: int, games: Sequence[str]) -> Session | None:
        """The last game of ``games`` to end in this channel (or a thread of it), loaded."""
        row = await self.storage.last_finished(channel_id, games)
        if row is None:
            return None
        seats = await self.storage.seats(row.id)
        session = Session(row, registry.get(row.game), seats)
        session.header, session.lines, session.state = await self._replay_stored(row, seats)
        return session

    async def finished_record(self, game_id: int) -> tuple[GameRow, Record]:
        """The record of any stored game (finished ones included)."""
        row = await self.storage.game(game_id)
        if row is None:
            raise errors.NoGameHere(f"There is no game #{game_id}.")
        seats = await self.storage.seats(game_id)
        record = records.new_record(
            registry.get(row.game), [s.name for s in seats], row.options, row.seed, row.deal
        )
        lines = await self.storage.moves(game_id)
        return row, record.with_moves([RecordedMove(line.seat, line.notation) for line in lines])


class _Queued:
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


def filter_suggestions(ranked: Sequence[tuple[str, str]], typed: str) -> list[tuple[str, str]]:
    """The suggestions whose label or notation holds every word typed (any order, any case)."""
    words = typed.lower().split()
    found = []
    for label, notation in ranked:
        haystack = f"{label} {notation}".lower()
        compact = haystack.replace(" ", "")
        if all(word in haystack or word in compact for word in words):
            found.append((label, notation))
            if len(found) == SUGGESTION_LIMIT:
                break
    return found


def search_seed(session: Session) -> int:
    """The seed of a computer's or a hint's decision: the game's and the position's, so that a
    decision is reproducible (the search itself sees only the seat's view)."""
    return session.row.seed + session.ply


def lead_with_hint(ranked: Sequence[tuple[str, str]], notation: str) -> list[tuple[str, str]]:
    """The suggestions with the hinted move first, marked as the hint."""
    hinted = [(f"💡 hint · {label}", move) for label, move in ranked if move == notation]
    return hinted + [(label, move) for label, move in ranked if move != notation]


def _computer_to_act(row: GameRow, seats: Sequence[SeatRow]) -> bool:
    to_act = (row.snapshot or {}).get("to_act")
    return any(seat.seat == to_act and seat.is_computer for seat in seats)


def _snapshot(session: Session) -> dict[str, Any]:
    return {"ply": session.ply, "scores": list(session.scores()), "to_act": session.to_act()}

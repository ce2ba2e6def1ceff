"""The session service: lobbies, moves, clocks, computer players, results. No discord here.

A session is one game in one channel. Every change is made under the game's lock and written
to storage in one transaction before anything is returned (and so before anything is replied):
nothing a player did is ever lost, and an error leaves the stored game as it was.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot import errors
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
from games.records import RESIGN, TIMEOUT, Record

log = logging.getLogger(__name__)

COMPUTER_NAMES = ("Ada", "Babbage", "Hopper", "Turing", "Lovelace", "Knuth")
MAX_COMPUTER_PLIES = 2_000
"""A safety bound on consecutive computer moves in one go."""
SUGGESTION_LIMIT = 25


@dataclass
class Session:
    """One game at one table: its stored header, seats and the current state."""

    row: GameRow
    game: Game[Any, Any]
    seats: list[SeatRow]
    state: Any = None
    record: Record | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_events: tuple[Event, ...] = ()
    last_move: str | None = None
    deadline: float | None = None
    reminder_at: float | None = None
    _ranked: tuple[int, list[tuple[str, str]]] | None = None

    @property
    def id(self) -> int:
        """The game id."""
        return self.row.id

    @property
    def status(self) -> str:
        """``lobby``, ``playing``, ``finished`` or ``aborted``."""
        return self.row.status

    @property
    def ply(self) -> int:
        """How many record lines have been played."""
        return len(self.record.moves) if self.record else 0

    @property
    def names(self) -> list[str]:
        """Display names in seat order."""
        return [seat.name for seat in self.seats]

    @property
    def options(self) -> Any:
        """The game's options object."""
        return self.game.Options.from_dict(self.row.options)

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id``, or None."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def to_act(self) -> int | None:
        """The seat to act, or None (lobby or game over)."""
        if self.state is None or self.status != "playing":
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
class Update:
    """What happened at a table, for the Discord layer to show.

    ``kind``: ``started``, ``move``, ``timeout``, ``resign``, ``aborted`` or ``reminder``.
    ``lines`` are the record lines played (notation), ``events`` what they caused.
    """

    session: Session
    kind: str
    seat: int | None = None
    lines: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()
    by_computer: bool = False

    @property
    def finished(self) -> bool:
        """True when this update ended the game."""
        return self.session.status == "finished"


Listener = Callable[[Update], Awaitable[None]]


class SessionService:
    """Runs every table. ``now`` and ``seed_source`` are injectable for tests."""

    def __init__(
        self,
        storage: Storage,
        *,
        now: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        default_turn_seconds: int = 24 * 3600,
        seed_source: Callable[[], int] | None = None,
        shards: Shards | None = None,
    ) -> None:
        self.storage = storage
        self.shards = shards
        """The shards whose games this service drives (None: every game in the database)."""
        self.now = now
        self.default_turn_seconds = default_turn_seconds
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._sessions: dict[int, Session] = {}
        self._listeners: list[Listener] = []
        self._computer_tasks: dict[int, asyncio.Task[None]] = {}
        self.clock = TurnClock(self._alarm, now=now, sleep=sleep)

    # -- listeners -----------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every update made in the background (computers, clock)."""
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

    def in_channel(self, channel_id: int, game: str | None = None) -> list[Session]:
        """The live sessions of a channel (of one game, or all)."""
        return [
            session
            for session in self._sessions.values()
            if session.row.channel_id == channel_id and (game is None or session.game.name == game)
        ]

    def find(self, channel_id: int, game: str, user_id: int | None = None) -> Session:
        """The live session of ``game`` in the channel; raises :class:`NoGameHere`.

        For games where every player has a table of their own, ``user_id`` picks that
        player's table (without it, the first one)."""
        kind = registry.get(game)
        found = self.in_channel(channel_id, kind.name)
        if kind.table_per_player and user_id is not None:
            found = [session for session in found if session.seat_of(user_id) is not None]
            if not found:
                raise errors.NoGameHere(f"You have no {kind.title} game in this channel.")
        if not found:
            raise errors.NoGameHere(
                f"There is no {kind.title} game in this channel. Start one with `/{kind.name} new`."
            )
        return found[0]

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
        table_key = user_id if game.table_per_player else 0
        tables = [s for s in self.in_channel(channel_id, game.name) if game.table_per_player]
        if any(s.row.host_id == user_id for s in tables):
            raise errors.GameExists(
                f"You already have a {game.title} game in this channel; finish it (or give it up) first."
            )
        if not game.table_per_player and self.in_channel(channel_id, game.name):
            raise errors.GameExists(
                f"This channel already has a {game.title} game. Finish it, or ask the host to "
                f"`/{game.name} abort` it, before opening another."
            )
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
                table_key=table_key,
                variant=game.variant(parsed),
            )
        except ActiveGameExists:
            raise errors.GameExists(f"This channel already has a {game.title} game.") from None
        row = await self.storage.game(game_id)
        assert row is not None
        session = Session(row, game, [host])
        self._sessions[game_id] = session
        return session

    def _lobby(self, channel_id: int, game: str, user_id: int | None = None) -> Session:
        session = self.find(channel_id, game, user_id)
        if session.status != "lobby":
            raise errors.AlreadyStarted(f"The {session.game.title} game here has already started.")
        return session

    async def join(self, channel_id: int, game: str, user_id: int, name: str) -> Session:
        """Take the next free seat in the lobby."""
        session = self._lobby(channel_id, game)
        async with session.lock:
            if session.seat_of(user_id) is not None:
                raise errors.AlreadySeated("You already have a seat at this table.")
            self._check_room(session)
            seat = SeatRow(len(session.seats), user_id, name)
            await self.storage.add_seat(session.id, seat)
            session.seats.append(seat)
        return session

    def _check_room(self, session: Session) -> None:
        if len(session.seats) >= session.game.max_players:
            raise errors.GameFull(
                f"The table is full ({session.game.max_players} players is the most for "
                f"{session.game.title})."
            )

    async def add_computer(self, channel_id: int, game: str, user_id: int, level: str = "greedy") -> Session:
        """The host fills the next free seat with a computer player."""
        session = self._lobby(channel_id, game)
        async with session.lock:
            self._require_host(session, user_id)
            self._check_room(session)
            taken = {seat.name for seat in session.seats}
            name = next(
                (f"{n} (computer)" for n in COMPUTER_NAMES if f"{n} (computer)" not in taken), "Computer"
            )
            seat = SeatRow(len(session.seats), None, name, level)
            await self.storage.add_seat(session.id, seat)
            session.seats.append(seat)
        return session

    async def leave(self, channel_id: int, game: str, user_id: int) -> Session:
        """Leave a lobby; when the host leaves, the lobby closes."""
        session = self._lobby(channel_id, game, user_id)
        async with session.lock:
            if session.seat_of(user_id) is None:
                raise errors.NotSeated("You have no seat at this table.")
            if user_id == session.row.host_id:
                await self._abort_locked(session)
                return session
            remaining = [seat for seat in session.seats if seat.user_id != user_id]
            renumbered = [SeatRow(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(remaining)]
            await self.storage.replace_seats(session.id, renumbered)
            session.seats = renumbered
        return session

    def _require_host(self, session: Session, user_id: int, moderator: bool = False) -> None:
        if user_id != session.row.host_id and not moderator:
            raise errors.NotHost("Only the host who opened this game can do that.")

    async def start(self, channel_id: int, game: str, user_id: int) -> Session:
        """The host starts the game: the seat order is drawn by the game's seed."""
        session = self._lobby(channel_id, game, user_id)
        async with session.lock:
            self._require_host(session, user_id)
            count = len(session.seats)
            if count < session.game.min_players:
                missing = session.game.min_players - count
                raise errors.NotStarted(
                    f"{session.game.title} needs at least {session.game.min_players} players; "
                    f"{missing} more must `/{session.game.name} join` (or add a computer player)."
                )
            order = list(session.seats)
            random.Random(session.row.seed).shuffle(order)
            seats = [SeatRow(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(order)]
            record = records.new_record(
                session.game, [s.name for s in seats], session.row.options, session.row.seed
            )
            _, state = records.start(record)
            lobby = (session.seats, session.row)
            session.seats, session.state, session.record = seats, state, record
            session.row = replace(session.row, status="playing")
            clock = self._next_clock(session, same_turn=False, force=True)
            try:
                await self.storage.start_game(session.id, seats, self._snapshot(session), clock, self.now())
            except BaseException:
                session.seats, session.row = lobby
                session.state = session.record = None
                raise
            self._set_clock(session, clock)
        return session

    # -- play ----------------------------------------------------------------------------

    def _playing(self, session: Session) -> None:
        if session.status == "lobby":
            raise errors.NotStarted(
                f"The {session.game.title} game here has not started yet: the host uses "
                f"`/{session.game.name} start`."
            )
        if session.status != "playing":
            raise errors.GameOver("That game is over.")

    def _seat_for(self, session: Session, user_id: int) -> int:
        seat = session.seat_of(user_id)
        if seat is None:
            raise errors.NotSeated(
                f"You are not playing in this {session.game.title} game; you can watch with "
                f"`/{session.game.name} board`."
            )
        return seat

    async def play(
        self, channel_id: int, game: str, user_id: int, text: str, expected_ply: int | None = None
    ) -> Update:
        """Make a move for the user's seat; stored before this returns."""
        session = self.find(channel_id, game, user_id)
        async with session.lock:
            self._playing(session)
            seat = self._seat_for(session, user_id)
            if expected_ply is not None and expected_ply != session.ply:
                raise errors.StaleAction("The game has moved on since then; look at the latest board.")
            to_act = session.to_act()
            if to_act != seat:
                name = session.seats[to_act].name if to_act is not None else "nobody"
                raise errors.NotYourTurn(f"It is not your turn: {name} is to play.")
            move = session.game.parse_move(session.state, text)
            notation = session.game.format_move(session.state, move)
            state, events = session.game.apply(session.state, move)
            await self._commit(session, seat, notation, user_id, state, events)
            return Update(session, "move", seat, (notation,), events)

    async def resign(self, channel_id: int, game: str, user_id: int) -> Update:
        """The user's seat resigns (in or out of turn)."""
        session = self.find(channel_id, game, user_id)
        async with session.lock:
            self._playing(session)
            seat = self._seat_for(session, user_id)
            state, events = session.game.resign(session.state, seat)
            await self._commit(session, seat, RESIGN, user_id, state, events)
            return Update(session, "resign", seat, (RESIGN,), events)

    async def abort(self, channel_id: int, game: str, user_id: int, *, moderator: bool = False) -> Session:
        """The host (or a moderator) aborts a lobby or game: no result is recorded."""
        try:
            session = self.find(channel_id, game, user_id)
        except errors.NoGameHere:
            if not moderator:
                raise
            session = self.find(channel_id, game)
        async with session.lock:
            self._require_host(session, user_id, moderator)
            await self._abort_locked(session)
        return session

    async def _abort_locked(self, session: Session) -> None:
        await self.storage.abort(session.id, self.now())
        session.row = replace(session.row, status="aborted")
        self.clock.disarm(session.id)
        self._sessions.pop(session.id, None)

    async def _commit(
        self,
        session: Session,
        seat: int,
        notation: str,
        user_id: int | None,
        state: Any,
        events: tuple[Event, ...],
    ) -> None:
        """Write one record line with its snapshot, clock and (if over) results; then adopt it."""
        before = session.state
        old = (session.state, session.record, session.row)
        session.state = state
        session.record = session.record.with_move(seat, notation) if session.record else None
        outcome = session.game.outcome(state)
        finish = self._finish(session, outcome) if outcome is not None else None
        same_turn = before is not None and session.game.continues_turn(before, state)
        timed_out = notation == TIMEOUT
        clock = Clock() if finish else self._next_clock(session, same_turn=same_turn, force=timed_out)
        try:
            await self.storage.record_move(
                session.id,
                ply=session.ply,
                seat=seat,
                notation=notation,
                user_id=user_id,
                snapshot=self._snapshot(session),
                clock=clock,
                now=self.now(),
                finish=finish,
            )
        except StaleMove:
            session.state, session.record, session.row = old
            await self._reload(session)
            raise errors.StaleAction("The game has moved on since then; look at the latest board.") from None
        except BaseException:
            session.state, session.record, session.row = old
            raise
        session.last_events = events
        session.last_move = notation
        session._ranked = None
        if finish is not None:
            session.row = replace(session.row, status="finished")
            self.clock.disarm(session.id)
            self._sessions.pop(session.id, None)
        else:
            self._set_clock(session, clock)

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

    def _snapshot(self, session: Session) -> dict[str, Any]:
        return {"ply": session.ply, "scores": list(session.scores()), "to_act": session.to_act()}

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

    def continue_game(self, session: Session) -> None:
        """Let computer players move (in the background) if one of them is to act."""
        seat = session.seat_to_act()
        if seat is None or not seat.is_computer:
            return
        running = self._computer_tasks.get(session.id)
        if running is not None and not running.done():
            return
        task = asyncio.get_running_loop().create_task(self._run_computers(session))
        self._computer_tasks[session.id] = task
        task.add_done_callback(lambda _: self._computer_tasks.pop(session.id, None))

    async def _run_computers(self, session: Session) -> None:
        for _ in range(MAX_COMPUTER_PLIES):
            seat = session.seat_to_act()
            if seat is None or not seat.is_computer or session.status != "playing":
                return
            lines: list[str] = []
            events: list[Event] = []
            while session.to_act() == seat.seat and len(lines) < MAX_COMPUTER_PLIES:
                notation, caused = await self._computer_move(session, seat)
                lines.append(notation)
                events.extend(caused)
            await self._publish(
                Update(session, "move", seat.seat, tuple(lines), tuple(events), by_computer=True)
            )
        log.error("game %s: computers made %d moves in a row; stopping", session.id, MAX_COMPUTER_PLIES)

    async def _computer_move(self, session: Session, seat: SeatRow) -> tuple[str, tuple[Event, ...]]:
        state = session.state
        player = ai.player_for(seat.ai_level or "greedy", seed=session.row.seed + session.ply)
        move = await asyncio.to_thread(player.choose, session.game, state)
        async with session.lock:
            if session.state is not state:
                raise errors.StaleAction("the position changed while the computer was thinking")
            notation = session.game.format_move(state, move)
            after, events = session.game.apply(state, move)
            await self._commit(session, seat.seat, notation, None, after, events)
        return notation, events

    async def _alarm(self, game_id: int, kind: str) -> None:
        session = self._sessions.get(game_id)
        if session is None or session.status != "playing":
            return
        if kind == "reminder":
            await self._remind(session)
            return
        async with session.lock:
            if session.deadline is None or session.deadline > self.now() + 1e-6:
                return  # the deadline moved on since this alarm was set
            seat = session.to_act()
            if seat is None:
                return
            state, events = session.game.on_timeout(session.state)
            await self._commit(session, seat, TIMEOUT, None, state, events)
            update = Update(session, "timeout", seat, (TIMEOUT,), events)
        await self._publish(update)
        self.continue_game(session)

    async def _remind(self, session: Session) -> None:
        session.reminder_at = None
        await self.storage.set_clock(session.id, Clock(session.deadline, None))
        await self._publish(Update(session, "reminder", session.to_act()))

    async def restore(self) -> list[Session]:
        """Load every lobby and running game back (after a restart) and re-arm their clocks."""
        restored = []
        for row in await self.storage.active_games(self.shards):
            try:
                session = await self._load(row)
            except GameError:
                log.exception("game %s (%s) could not be replayed; it is left as it is", row.id, row.game)
                continue
            self._sessions[row.id] = session
            restored.append(session)
            if session.status == "playing":
                self._set_clock(session, Clock(row.deadline, row.reminder_at))
        for session in restored:
            self.continue_game(session)
        return restored

    async def _reload(self, session: Session) -> None:
        """Bring ``session`` back in line with the database after another process moved its
        game on (the same object, so whoever holds it sees the stored game)."""
        row = await self.storage.game(session.id)
        if row is None:
            return
        fresh = await self._load(row)
        session.row, session.seats = fresh.row, fresh.seats
        session.state, session.record = fresh.state, fresh.record
        session.last_events, session.last_move, session._ranked = fresh.last_events, fresh.last_move, None
        if row.status == "playing":
            self._set_clock(session, Clock(row.deadline, row.reminder_at))
        else:
            self.clock.disarm(session.id)
            self._sessions.pop(session.id, None)

    async def _load(self, row: GameRow) -> Session:
        game = registry.get(row.game)
        seats = await self.storage.seats(row.id)
        session = Session(row, game, seats)
        if row.status == "playing":
            lines = await self.storage.moves(row.id)
            record = records.new_record(game, [s.name for s in seats], row.options, row.seed, row.deal)
            _, state = records.start(record)
            for line in lines:
                step = records.RecordedMove(line.seat, line.notation)
                state, events = records.play_line(game, state, step)
                record = record.with_move(line.seat, line.notation)
                session.last_events, session.last_move = events, line.notation
            session.state, session.record = state, record
        return session

    async def close(self) -> None:
        """Stop the clock and the computer players."""
        await self.clock.close()
        for task in list(self._computer_tasks.values()):
            task.cancel()
        await asyncio.gather(*self._computer_tasks.values(), return_exceptions=True)

    # -- queries for the Discord layer ----------------------------------------------------

    def suggestions(self, session: Session, user_id: int, typed: str) -> list[tuple[str, str]]:
        """Up to 25 legal moves ``(label, notation)`` for the user, best first, filtered by
        every word typed (any order, any case)."""
        if session.status != "playing" or session.seat_of(user_id) != session.to_act():
            return []
        if session._ranked is None or session._ranked[0] != session.ply:
            game, state = session.game, session.state
            ranked = game.rank_moves(state, game.legal_moves(state))
            session._ranked = (
                session.ply,
                [(game.move_label(state, move), game.format_move(state, move)) for move in ranked],
            )
        words = typed.lower().split()
        found = []
        for label, notation in session._ranked[1]:
            haystack = f"{label} {notation}".lower()
            compact = haystack.replace(" ", "")
            if all(word in haystack or word in compact for word in words):
                found.append((label, notation))
                if len(found) == SUGGESTION_LIMIT:
                    break
        return found

    async def hint(self, session: Session, user_id: int) -> str:
        """The greedy computer's choice for the user's seat, in notation."""
        self._playing(session)
        seat = self._seat_for(session, user_id)
        if session.to_act() != seat:
            raise errors.NotYourTurn("A hint is for your own turn; it is not your turn now.")
        state = session.state
        move = await asyncio.to_thread(
            ai.GreedyPlayer(session.row.seed + session.ply).choose, session.game, state
        )
        return str(session.game.format_move(state, move))

    def export(self, session: Session) -> str:
        """The session's record as text."""
        if session.record is None:
            raise errors.NotStarted("The game has not started, so there is no record yet.")
        return session.record.to_text()

    async def finished_record(self, game_id: int) -> tuple[GameRow, Record]:
        """The record of any stored game (finished ones included)."""
        row = await self.storage.game(game_id)
        if row is None:
            raise errors.NoGameHere(f"There is no game #{game_id}.")
        seats = await self.storage.seats(game_id)
        record = records.new_record(
            registry.get(row.game), [s.name for s in seats], row.options, row.seed, row.deal
        )
        for line in await self.storage.moves(game_id):
            record = record.with_move(line.seat, line.notation)
        return row, record

"""The lobby: opening a table, taking and leaving seats, computer players, the start, and
calling a lobby or game off."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot import errors
from bot.between.rematch import as_planned
from bot.sessions.clocks import Clocks
from bot.sessions.lookup import Shared
from bot.sessions.play import Referee
from bot.sessions.session import Session, Update, UpdateKind
from bot.status import Status
from bot.storage import ActiveGameExists, SeatRow, StaleMove
from games import records, registry
from games.core import Game

COMPUTER_NAMES = ("Ada", "Babbage", "Hopper", "Turing", "Lovelace", "Knuth")


class Lobby:
    """Opens tables and seats players until the host starts (or calls off) the game."""

    def __init__(
        self,
        shared: Shared,
        clocks: Clocks,
        referee: Referee,
        seed_source: Callable[[], int],
        turn_seconds: int,
    ) -> None:
        self.shared = shared
        self.clocks = clocks
        self.referee = referee
        self._seed_source = seed_source
        self.default_turn_seconds = turn_seconds
        """A move's time where the lobby sets none."""

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
            game_id = await self.shared.storage.create_game(
                game=game.name,
                guild_id=guild_id,
                channel_id=channel_id,
                host=host,
                options=parsed.to_dict(),
                seed=self._seed_source() if seed is None else seed,
                deal=None,
                turn_seconds=seconds,
                now=self.shared.now(),
                table_key=user_id if game.table_per_player else 0,
                variant=game.variant(parsed),
            )
        except ActiveGameExists:
            raise errors.GameExists(f"This channel already has an open {game.title} table.") from None
        row = await self.shared.storage.game(game_id)
        assert row is not None
        session = Session(row, game, [host])
        self.shared.tables.add(session)
        return session

    def check_free_table(self, game_name: str, channel_id: int, user_id: int) -> None:
        """Refuse (:class:`~bot.errors.GameExists`) when the user cannot open a ``game_name``
        table here now: a cheap check a command makes before any heavy work (``create`` makes it
        again)."""
        self._check_free_table(registry.get(game_name), channel_id, user_id)

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
            game_id = await self.shared.storage.create_game(
                game=game.name,
                guild_id=guild_id,
                channel_id=channel_id,
                host=seats[0],
                options=parsed.to_dict(),
                seed=self._seed_source(),
                deal=None,
                turn_seconds=turn_seconds,
                now=self.shared.now(),
                table_key=table_key,
                variant=game.variant(parsed),
                host_id=host_id,
            )
        except ActiveGameExists:
            raise errors.GameExists(f"This channel already has that {game.title} table.") from None
        for seat in seats[1:]:
            await self.shared.storage.add_seat(game_id, seat)
        row = await self.shared.storage.game(game_id)
        assert row is not None
        session = Session(row, game, list(seats))
        self.shared.tables.add(session)
        return session

    def _check_free_table(self, game: Game[Any, Any], channel_id: int, user_id: int) -> None:
        # the games at this table: those of the channel that have no thread of their own, or
        # the game whose thread this is
        channel = self.shared.tables.in_channel(channel_id, (game.name,))
        here = [s for s in channel if s.row.thread_id in (None, channel_id)]
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
            _require_lobby(session)
            if session.seat_of(user_id) is not None:
                raise errors.AlreadySeated("You already have a seat at this table.")
            _require_invited(session, user_id)
            await self._seat(session, user_id, name)
        return session

    async def add_computer(self, session: Session, user_id: int, level: str = "normal") -> Session:
        """The host fills the next free seat with a computer player."""
        async with session.lock:
            _require_lobby(session)
            _require_host(session, user_id)
            taken = {seat.name for seat in session.seats}
            name = next((n for n in COMPUTER_NAMES if n not in taken), "Computer")
            await self._seat(session, None, name, level)
        return session

    async def _seat(self, session: Session, user_id: int | None, name: str, level: str | None = None) -> None:
        if len(session.seats) >= session.game.max_players:
            raise errors.GameFull(
                f"The table is full ({session.game.max_players} players is the most for "
                f"{session.game.title})."
            )
        seat = SeatRow(len(session.seats), user_id, name, level)
        await self.shared.storage.add_seat(session.id, seat)
        session.seats = [*session.seats, seat]

    async def leave(self, session: Session, user_id: int) -> Update | None:
        """Leave a lobby; when the host leaves, the lobby closes (the update says so)."""
        async with session.lock:
            _require_lobby(session)
            if session.seat_of(user_id) is None:
                raise errors.NotSeated("You have no seat at this table.")
            if user_id == session.row.host_id:
                return await self._abort_locked(session, user_id)
            remaining = [seat for seat in session.seats if seat.user_id != user_id]
            renumbered = [SeatRow(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(remaining)]
            await self.shared.storage.replace_seats(session.id, renumbered)
            session.seats = renumbered
        return None

    async def start(self, session: Session, user_id: int, *, shuffle: bool = True) -> Update:
        """The host starts the game with the seats taken now; the order is drawn by the seed
        (or kept as seated, with ``shuffle`` False: a tournament balances who starts)."""
        async with session.lock:
            _require_lobby(session)
            _require_host(session, user_id)
            seats = tuple(session.seats)  # the seats this start starts with, whatever races it
            if len(seats) < session.game.min_players:
                missing = session.game.min_players - len(seats)
                raise errors.NotStarted(
                    f"{session.game.title} needs at least {session.game.min_players} players; "
                    f"{missing} more must `/{session.game.name} join` (or the host adds a computer player)."
                )
            order = list(seats)
            if session.row.seating is not None:
                order = as_planned(order, session.row.seating)  # a rematch: rotated, not drawn
            elif shuffle:
                random.Random(session.row.seed).shuffle(order)
            seated = [SeatRow(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(order)]
            row = session.row
            names = [s.name for s in seated]
            header = records.new_record(session.game, names, row.options, row.seed, row.deal)
            _, state = records.start(header)
            playing = replace(row, status=Status.PLAYING)
            probe = Session(playing, session.game, seated, state, header)
            clock = self.clocks.next_clock(probe, same_turn=False, force=True)
            try:
                now = self.shared.now()
                await self.shared.storage.start_game(session.id, seated, probe.snapshot(), clock, now)
            except StaleMove:
                raise errors.AlreadyStarted(
                    f"{session.game.title} #{session.id} has already started."
                ) from None
            session.seats, session.state, session.header, session.row = seated, state, header, playing
            self.clocks.set_clock(session, clock)
            steps = await self.referee.play_forced(session)
            update = Update(session, UpdateKind.STARTED, steps, turn_passed=True, user_id=user_id)
        await self.shared.publish(update)
        self.referee.carry_on(session)
        return update

    async def abort(self, session: Session, user_id: int, *, moderator: bool = False) -> Update:
        """The host (or a moderator) calls off a lobby or game: no result is recorded."""
        async with session.lock:
            if not session.status.is_active:
                raise errors.GameOver(f"{session.game.title} #{session.id} is over.")
            _require_host(session, user_id, moderator)
            update = await self._abort_locked(session, user_id)
        return update

    async def _abort_locked(self, session: Session, user_id: int | None) -> Update:
        await self.shared.storage.abort(session.id, self.shared.now())
        session.row = replace(session.row, status=Status.ABORTED)
        self.clocks.disarm(session)
        self.shared.tables.drop(session)
        update = Update(session, UpdateKind.ABORTED, user_id=user_id)
        await self.shared.publish(update)
        return update


def _require_lobby(session: Session) -> None:
    if session.status is Status.LOBBY:
        return
    if session.status is Status.PLAYING:
        raise errors.AlreadyStarted(f"{session.game.title} #{session.id} has already started.")
    raise errors.GameOver(f"{session.game.title} #{session.id} is over.")


def _require_invited(session: Session, user_id: int) -> None:
    """A rematch lobby seats the players of the game it follows, and nobody else."""
    plan = session.row.seating
    if plan is not None and not any(entry.get("user_id") == user_id for entry in plan):
        raise errors.NotSeated(
            f"{session.game.title} #{session.id} is the rematch of #{session.row.rematch_of}: its seats are "
            f"for that game's players. Open a table of your own with `/{session.game.name} new`."
        )


def _require_host(session: Session, user_id: int, moderator: bool = False) -> None:
    if user_id != session.row.host_id and not moderator:
        raise errors.NotHost("Only the host who opened this game can do that.")

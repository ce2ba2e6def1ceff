"""Rematches: a finished game's players ask for another game with the same players and options.

The first player to ask opens a lobby at the same table (the game's channel) with the same
options and clock, the computers seated, and the seats planned in the previous order rotated by
one (:mod:`bot.between.rematch`); the others take their seats with one click (the Rematch button
again, or the lobby's Join); the lobby says who has. The host (whoever asked first) starts it as
any lobby: the seats go in the planned order, not drawn. Nothing of the finished game changes.

Refused: a game not finished; a tournament's game (the tournament pairs the next round); a
solitaire; someone who did not play in it; a table that has a lobby or a game of its own
already; and a second rematch of the same game (a click twice opens one lobby only).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any

from bot import errors, workers
from bot.between.rematch import SEED_TRIES, identity, rematch_seed, rotated, seating
from bot.sessions.lobby import Lobby
from bot.sessions.lookup import Shared
from bot.sessions.session import Session
from bot.status import Status
from bot.storage import ActiveGameExists, GameRow, RematchExists, SeatRow
from games import records, registry
from games.core import Game

SEATING = workers.Kind("rematch seating", workers.Lane.INTERACTIVE, 20.0, retry=True)
"""Dealing a rematch's candidate games to find its seed (a few milliseconds: someone waits)."""


class Rematches:
    """Opens and fills rematch lobbies (the lobby itself is :class:`~bot.sessions.lobby.Lobby`'s)."""

    def __init__(self, shared: Shared, lobby: Lobby, seed_source: Callable[[], int]) -> None:
        self.shared = shared
        self.lobby = lobby
        self._seed_source = seed_source
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def rematch(self, game_id: int, user_id: int, name: str) -> tuple[Session, bool]:
        """The rematch lobby of finished game ``game_id`` for ``user_id``: opened (True) when
        there was none, else joined (False)."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:  # presses of one game's button one at a time (a double click opens one)
            row = await self.shared.storage.game(game_id)
            if row is None:
                raise errors.NoGameHere(f"There is no game #{game_id}.")
            game = registry.get(row.game)
            seats = await self.shared.storage.seats(game_id)
            await self._check(row, game, seats, user_id)
            existing = await self.shared.storage.rematch_of_game(game_id)
            if existing is not None:
                return await self._join(row, game, existing, user_id, name), False
            return await self._open(row, game, seats, user_id, name), True

    async def _check(self, row: GameRow, game: Game[Any, Any], seats: list[SeatRow], user_id: int) -> None:
        title = f"{game.title} #{row.id}"
        if row.status is Status.ABORTED:
            raise errors.GameOver(f"{title} was called off: there is no result to play again.")
        if row.status is not Status.FINISHED:
            raise errors.NotStarted(f"{title} is not over yet: a rematch comes after the result.")
        if game.max_players == 1:
            raise errors.SessionError(f"{title} is a solitaire: start another with `/{game.name} solo`.")
        if row.in_tournament or await self.shared.storage.tournament_game(row.id):
            raise errors.SessionError(
                f"{title} was a tournament game: the tournament pairs the next round, not a rematch."
            )
        if not any(seat.user_id == user_id for seat in seats):
            raise errors.NotSeated(f"Only the players of {title} can ask for its rematch.")

    async def _join(
        self, row: GameRow, game: Game[Any, Any], rematch: GameRow, user_id: int, name: str
    ) -> Session:
        title = f"The rematch of {game.title} #{row.id} is #{rematch.id}"
        session = self.shared.tables.get(rematch.id)
        if rematch.status is not Status.LOBBY or session is None:
            state = "being played" if rematch.status is Status.PLAYING else "over"
            raise errors.AlreadyStarted(f"{title}, and it is {state}.")
        if session.seat_of(user_id) is not None:
            raise errors.AlreadySeated(f"{title}, and you have a seat in it already.")
        return await self.lobby.join(session, user_id, name)

    async def _open(
        self, row: GameRow, game: Game[Any, Any], seats: list[SeatRow], user_id: int, name: str
    ) -> Session:
        try:
            self.lobby.check_free_table(game.name, row.channel_id, user_id)
        except errors.GameExists:
            existing = await self.shared.storage.rematch_of_game(row.id)
            if existing is None:
                raise
            return await self._join(row, game, existing, user_id, name)  # a press racing this one
        planned = rotated(seats)
        seed = await self._seed(row, game, seats, planned)
        host = SeatRow(0, user_id, name)
        computers = [
            SeatRow(number, None, seat.name, seat.ai_level)
            for number, seat in enumerate((s for s in planned if s.is_computer), start=1)
        ]
        try:
            new_id = await self.shared.storage.create_game(
                game=game.name,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                host=host,
                others=computers,
                options=row.options,
                seed=seed,
                deal=None,
                turn_seconds=row.turn_seconds,
                now=self.shared.now(),
                variant=row.variant,
                rematch_of=row.id,
                seating=seating(planned),
            )
        except (RematchExists, ActiveGameExists):
            # another press made it first (or the table was taken meanwhile)
            existing = await self.shared.storage.rematch_of_game(row.id)
            if existing is None:
                raise errors.GameExists(f"This channel already has an open {game.title} table.") from None
            return await self._join(row, game, existing, user_id, name)
        created = await self.shared.storage.game(new_id)
        assert created is not None
        session = Session(created, game, [host, *computers])
        self.shared.tables.add(session)
        return session

    async def _seed(
        self, row: GameRow, game: Game[Any, Any], seats: list[SeatRow], planned: list[SeatRow]
    ) -> int:
        """A seed whose deal lets someone other than the previous first player begin."""
        previous = records.new_record(game, [s.name for s in seats], row.options, row.seed, row.deal)
        order = [next(s.seat for s in seats if identity(s) == identity(p)) for p in planned]
        candidates = [self._seed_source() for _ in range(SEED_TRIES)]
        return await workers.run(rematch_seed, game, previous, order, candidates, kind=SEATING)

"""Restore: games read back from storage, after a restart (every live game), after another
process moved one on (reload), and finished games for boards, exports and replays."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from bot import errors, workers
from bot.sessions.clocks import Clocks, Flow
from bot.sessions.lookup import Shared
from bot.sessions.session import Session, restore_key
from bot.shards import Shards
from bot.status import Status
from bot.storage import Clock, GameRow, SeatRow
from games import records, registry
from games.errors import GameError
from games.records import Record, RecordedMove

log = logging.getLogger(__name__)


class Restorer:
    """Reads games back from storage into sessions.

    ``flow`` carries a restored game on once it is loaded; the service sets it once the referee
    exists.
    """

    def __init__(self, shared: Shared, clocks: Clocks, shards: Shards | None) -> None:
        self.shared = shared
        self.clocks = clocks
        self.shards = shards
        self.flow: Flow

    async def restore(self) -> list[Session]:
        """Load every lobby and running game back after a restart. Headers and seats come in
        bulk and the clocks are re-armed at once; each record is then replayed in the background,
        off the event loop (games whose computer seat is to act first), and anything that needs a
        game's state waits for it (:func:`~bot.sessions.session.ready`)."""
        rows = await self.shared.storage.active_games(self.shards)
        seats = await self.shared.storage.seats_of([row.id for row in rows])
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
            self.shared.tables.add(session)
            restored.append(session)
            if session.status is Status.PLAYING:
                self.clocks.set_clock(session, Clock(row.deadline, row.reminder_at))
                session.loading = asyncio.get_running_loop().create_task(
                    self._load(session), name=f"restore-{row.id}"
                )
        return restored

    async def _load(self, session: Session) -> None:
        try:
            header, lines, state = await self.replay_stored(
                session.row, session.seats, workers.RESTORE, key=restore_key(session.id)
            )
        except Exception:
            log.exception(
                "game %s (%s) could not be replayed; it is left as it is", session.id, session.row.game
            )
            self.clocks.disarm(session)
            return
        session.header, session.lines, session.state = header, lines, state
        session.loading = None
        await self.flow.resume(session)

    async def replay_stored(
        self,
        row: GameRow,
        seats: Sequence[SeatRow],
        kind: workers.Kind = workers.LOAD,
        key: tuple[str, int] | None = None,
    ) -> tuple[Record, list[RecordedMove], Any]:
        """A stored game's header, record lines and final state (replayed in the long lane, as a
        ``kind`` job: a load on demand, or a restore in the background)."""
        game = registry.get(row.game)
        header = records.new_record(game, [s.name for s in seats], row.options, row.seed, row.deal)
        lines = [RecordedMove(line.seat, line.notation) for line in await self.shared.storage.moves(row.id)]
        owner = workers.Owner(row.guild_id, game_id=row.id)
        state = await workers.run(workers.replay_final, game, header, lines, kind=kind, owner=owner, key=key)
        return header, lines, state

    async def reload(self, session: Session) -> None:
        """Read a game back from storage after another process moved it on."""
        row = await self.shared.storage.game(session.id)
        if row is None:
            return
        seats = await self.shared.storage.seats(row.id)
        session.row, session.seats = row, seats
        session._suggested = None
        if session.status is not Status.PLAYING:
            self.clocks.disarm(session)
            self.shared.tables.drop(session)
            return
        session.header, session.lines, session.state = await self.replay_stored(row, seats)
        self.clocks.set_clock(session, Clock(row.deadline, row.reminder_at))

    async def last_finished(
        self, channel_id: int, games: Sequence[str], user_id: int | None = None
    ) -> Session | None:
        """The last game of ``games`` to end in this thread or channel (on a tie, ``user_id``'s
        own first; see :meth:`bot.storage.Storage.last_finished`), loaded."""
        row = await self.shared.storage.last_finished(channel_id, games, user_id)
        if row is None:
            return None
        seats = await self.shared.storage.seats(row.id)
        session = Session(row, registry.get(row.game), seats)
        session.header, session.lines, session.state = await self.replay_stored(row, seats)
        return session

    async def finished_record(self, game_id: int) -> tuple[GameRow, Record]:
        """The record of any stored game (finished ones included)."""
        row = await self.shared.storage.game(game_id)
        if row is None:
            raise errors.NoGameHere(f"There is no game #{game_id}.")
        seats = await self.shared.storage.seats(game_id)
        record = records.new_record(
            registry.get(row.game), [s.name for s in seats], row.options, row.seed, row.deal
        )
        lines = await self.shared.storage.moves(game_id)
        return row, record.with_moves([RecordedMove(line.seat, line.notation) for line in lines])


def _computer_to_act(row: GameRow, seats: Sequence[SeatRow]) -> bool:
    to_act = (row.snapshot or {}).get("to_act")
    return any(seat.seat == to_act and seat.is_computer for seat in seats)

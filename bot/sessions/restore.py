"""Restore: games read back from storage, after a restart (every live game), after another
process moved one on (reload), and finished games for boards, exports and replays.

After a restart the bot answers as soon as every game's header, seats and clock are back: a
game's state (its record replayed in a worker) is loaded when something first needs it (a
command, a button, autocomplete, the clock), at once, and meanwhile a background lane loads the
others :data:`BACKGROUND_LOADS` at a time, games whose computer is to act first. A command never
waits for any replay but its own game's, and the workers never hold more than that many
background replays: never every replay queued at once.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Sequence
from typing import Any

from bot import errors, workers
from bot.sessions.clocks import Clocks, Flow
from bot.sessions.lookup import Shared
from bot.sessions.session import Loading, Session, restore_key
from bot.shards import Shards
from bot.status import Status
from bot.storage import Clock, GameRow, SeatRow
from games import records, registry
from games.errors import GameError
from games.records import Record, RecordedMove

log = logging.getLogger(__name__)

RESTORED_AT_A_TIME = 500
"""Games made into sessions between two turns of the event loop at start-up."""
BACKGROUND_LOADS = 1
"""Restored games the background lane replays at a time (a command's own game does not wait
for it: it is replayed at once)."""


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
        self._background: asyncio.Task[None] | None = None

    async def restore(self) -> list[Session]:
        """Load every lobby and running game back after a restart. Headers and seats come in
        bulk and the clocks are re-armed at once; each game's state is loaded when first needed
        (:func:`~bot.sessions.session.ready`) or by the background lane, off the event loop."""
        rows = await self.shared.storage.active_games(self.shards)
        seats = await self.shared.storage.seats_of([row.id for row in rows])
        restored = []
        waiting = []
        ordered = sorted(rows, key=lambda r: not _computer_to_act(r, seats.get(r.id, [])))
        for number, row in enumerate(ordered):
            if number and number % RESTORED_AT_A_TIME == 0:
                await asyncio.sleep(0)  # 10,000 games at once would hold the event loop for seconds
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
                session.loading = Loading(functools.partial(self._load, session), f"restore-{row.id}")
                waiting.append(session)
        if waiting:
            self._background = asyncio.get_running_loop().create_task(
                self._load_in_background(waiting), name="restore-background"
            )
        return restored

    async def _load_in_background(self, sessions: Sequence[Session]) -> None:
        """Load every restored game nothing asked for yet, in order, :data:`BACKGROUND_LOADS`
        at a time (a game already loading on demand is waited for, not loaded twice)."""
        pending = iter(sessions)

        async def lane() -> None:
            for session in pending:  # shared by the lanes: each game is taken once
                loading = session.loading
                if loading is not None:
                    await asyncio.shield(loading.start())

        await asyncio.gather(*(lane() for _ in range(BACKGROUND_LOADS)))

    async def close(self) -> None:
        """Stop the background lane (a replay under way finishes in its worker)."""
        if self._background is not None:
            self._background.cancel()
            await asyncio.gather(self._background, return_exceptions=True)

    async def _load(self, session: Session, loading: Loading) -> None:
        try:
            header, lines = await self.stored_record(session.row, session.seats)
            kind = loading.kind  # decided only now: someone may have asked for it meanwhile
            key = restore_key(session.id) if kind is workers.RESTORE else None
            state = await self._replay(session.row, header, lines, kind, key)
        except workers.Stopped:
            return  # the bot is stopping: the game stays stored as it is, for the next start
        except Exception:
            log.exception(
                "game %s (%s) could not be replayed; it is left as it is", session.id, session.row.game
            )
            self.clocks.disarm(session)
            return
        session.header, session.lines, session.state = header, lines, state
        session.loading = None
        await self.flow.resume(session)

    async def stored_record(
        self, row: GameRow, seats: Sequence[SeatRow]
    ) -> tuple[Record, list[RecordedMove]]:
        """A stored game's header and record lines."""
        game = registry.get(row.game)
        header = records.new_record(game, [s.name for s in seats], row.options, row.seed, row.deal)
        lines = [RecordedMove(line.seat, line.notation) for line in await self.shared.storage.moves(row.id)]
        return header, lines

    @staticmethod
    async def _replay(
        row: GameRow,
        header: Record,
        lines: list[RecordedMove],
        kind: workers.Kind,
        key: tuple[str, int] | None = None,
    ) -> Any:
        """The final state of a record, replayed in the long lane as a ``kind`` job."""
        owner = workers.Owner(row.guild_id, game_id=row.id)
        game = registry.get(row.game)
        return await workers.run(workers.replay_final, game, header, lines, kind=kind, owner=owner, key=key)

    async def replay_stored(
        self, row: GameRow, seats: Sequence[SeatRow], kind: workers.Kind = workers.LOAD
    ) -> tuple[Record, list[RecordedMove], Any]:
        """A stored game's header, record lines and final state (replayed in the long lane, as a
        ``kind`` job: a load on demand by default)."""
        header, lines = await self.stored_record(row, seats)
        return header, lines, await self._replay(row, header, lines, kind)

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

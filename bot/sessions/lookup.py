"""Lookup: the live sessions (lobbies and games being played) and which one a command means."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot import errors
from bot.sessions.session import Publish, Session
from bot.status import Status
from bot.storage import Storage
from games import registry


class Tables:
    """The live sessions by game id: added when a lobby opens or a game is restored, dropped
    when it ends."""

    def __init__(self) -> None:
        self._sessions: dict[int, Session] = {}

    def add(self, session: Session) -> None:
        """Keep ``session`` live."""
        self._sessions[session.id] = session

    def drop(self, session: Session) -> None:
        """Forget ``session`` (it finished or was called off)."""
        self._sessions.pop(session.id, None)

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

    def table(
        self, channel_id: int, games: Sequence[str], user_id: int, parent_id: int | None = None
    ) -> Session:
        """The session a command in ``channel_id`` means: the game of this thread; else the
        user's own game from this channel; else the only game here. Raises :class:`NoGameHere`
        (or asks for the thread when the user plays several games from this channel).

        In a thread (of channel ``parent_id``) that is no live game's: the game whose lobby
        message the thread was made from (the thread's id was never stored), else the user's own
        game in the channel (one that moved to a new thread when this one was locked)."""
        try:
            return self._table(channel_id, games, user_id)
        except errors.NoGameHere:
            if parent_id is None or any(s.row.thread_id == channel_id for s in self._sessions.values()):
                raise
            channel = self.in_channel(parent_id, games)
            lost = [s for s in channel if s.row.thread_id is None and s.row.lobby_message_id == channel_id]
            mine = [s for s in channel if s.seat_of(user_id) is not None]
            if lost or len(mine) == 1:
                return (lost or mine)[0]
            raise

    def _table(self, channel_id: int, games: Sequence[str], user_id: int) -> Session:
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


@dataclass(frozen=True)
class Shared:
    """What the service's collaborators work with alike: storage, the live tables, the time,
    and ``publish``, which hands an update to every listener."""

    storage: Storage
    tables: Tables
    now: Callable[[], float]
    publish: Publish

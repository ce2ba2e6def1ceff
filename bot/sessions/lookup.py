"""Lookup: the live sessions (lobbies and games being played) and which one a command means."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot import errors
from bot.sessions.session import Publish, Session, places
from bot.status import Status
from bot.storage import Storage
from games import registry


class Tables:
    """The live sessions by game id: added when a lobby opens or a game is restored, dropped
    when it ends; and by place (channel or thread), so that finding a command's game does not
    look at every live game. A live session's new row that moves it to another thread or
    channel refiles it (:attr:`Session.moved`)."""

    def __init__(self) -> None:
        self._sessions: dict[int, Session] = {}
        self._places: dict[int, dict[int, Session]] = {}
        """Channel or thread id -> the live sessions there, by game id."""
        self._filed: dict[int, tuple[int, ...]] = {}
        """Game id -> the places its session is filed under."""

    def add(self, session: Session) -> None:
        """Keep ``session`` live."""
        old = self._sessions.get(session.id)
        if old is not None and old is not session:
            old.moved = None
        self._sessions[session.id] = session
        session.moved = self._refile
        self._unfile(session.id)
        self._file(session)

    def drop(self, session: Session) -> None:
        """Forget ``session`` (it finished or was called off)."""
        if self._sessions.get(session.id) is not session:
            return
        del self._sessions[session.id]
        session.moved = None
        self._unfile(session.id)

    def _file(self, session: Session, keep: tuple[int, ...] = ()) -> None:
        where = places(session.row)
        self._filed[session.id] = where
        for place in where:
            if place not in keep:
                self._places.setdefault(place, {})[session.id] = session

    def _unfile(self, game_id: int, keep: tuple[int, ...] = ()) -> None:
        for place in self._filed.pop(game_id, ()):
            here = self._places.get(place)
            if here is not None and place not in keep:
                here.pop(game_id, None)
                if not here:
                    del self._places[place]

    def _refile(self, session: Session) -> None:
        """``session``'s row changed its places: file it where it is now (it keeps its rank in
        the places it stays in)."""
        if self._sessions.get(session.id) is session:
            stays = tuple(set(self._filed.get(session.id, ())) & set(places(session.row)))
            self._unfile(session.id, keep=stays)
            self._file(session, keep=stays)

    def get(self, game_id: int) -> Session | None:
        """The live session with that id."""
        return self._sessions.get(game_id)

    def sessions(self) -> list[Session]:
        """Every live (lobby or playing) session."""
        return list(self._sessions.values())

    def in_channel(self, channel_id: int, games: Sequence[str] | None = None) -> list[Session]:
        """The live sessions of a channel or thread (of some games, or all)."""
        here = self._places.get(channel_id)
        if not here:
            return []
        return [session for session in here.values() if games is None or session.game.name in games]

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
            if parent_id is None or any(s.row.thread_id == channel_id for s in self.in_channel(channel_id)):
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

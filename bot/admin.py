"""Server admins' tools (``/tilehost``, for members with Manage Server): the server's default turn
clock, leaderboard seasons, removing a player's data on request, and the log of what admins did
with how to undo it. Plain ids in, plain values and words out (the lobby cog parses and replies);
every change is stored with its line in the server's admin log (``bot.storage``).

What can be undone: a clock or threads change (while no later change of the same setting came
after it) and a new season (while no game has finished in it). What cannot: removing a player's
data (that is its point), and an undo itself (make the change again instead).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC, datetime

from bot.errors import SessionError
from bot.sessions import SessionService, Status
from bot.storage import Storage
from bot.storage.rows import Forgotten, LogEntry, Season
from bot.words import counted
from games.errors import GameError

log = logging.getLogger(__name__)

UNDOABLE = frozenset({"clock", "threads", "season"})


class AdminRefusal(SessionError):
    """An admin's request that cannot be done (the message says why); nothing was changed."""


def hours_words(hours: int | None, default_hours: int) -> str:
    """A default clock in words: ``48 hours a move``, ``no clock``, or the bot's default."""
    if hours is None:
        return f"the bot's default ({hours_words(default_hours, default_hours)})"
    return "no clock" if hours == 0 else f"{counted(hours, 'hour')} a move"


def date_words(when: float) -> str:
    """A date as players read it (UTC)."""
    return datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d")


async def turn_seconds(storage: Storage, guild_id: int | None) -> int | None:
    """The server's own default turn clock in seconds, or None for the bot's."""
    if guild_id is None:
        return None
    hours = await storage.guild_turn_hours(guild_id)
    return None if hours is None else hours * 3600


def season_words(season: Season) -> str:
    """``season 2 (since 2026-11-25)``, ``season 1 (2026-11-01 to 2026-11-25)``."""
    if season.ended_at is None:
        since = f" (since {date_words(season.started_at)})" if season.started_at else ""
        return f"season {season.number}{since}"
    start = date_words(season.started_at) if season.started_at else "the start"
    return f"season {season.number} ({start} to {date_words(season.ended_at)})"


def entry_words(entry: LogEntry, default_hours: int) -> str:
    """What one log line did, in words (a removed player is never named)."""
    details = entry.details
    if entry.action == "clock":
        was = hours_words(details["before"], default_hours)
        return f"default clock set to {hours_words(details['hours'], default_hours)} (was {was})"
    if entry.action == "threads":
        return f"games in threads turned {'on' if details['enabled'] else 'off'}"
    if entry.action == "season":
        return f"leaderboard season {details['season']} started"
    if entry.action == "forget":
        parts = [counted(details["seats"], "seat"), counted(details["results"], "result")]
        return f"a player's data removed on request ({', '.join(parts)} anonymised)"
    return f"undid #{details['undid']}"


def undo_hint(entry: LogEntry) -> str:
    """How that line can be undone, or why not."""
    if entry.undone_at is not None:
        return "undone"
    if entry.action in UNDOABLE:
        return f"undo: `/tilehost undo action:{entry.number}`"
    return "cannot be undone"


async def undo(storage: Storage, guild_id: int, number: int, *, by: int, now: float) -> tuple[LogEntry, int]:
    """Undo the log line ``number`` if it can be; the line and the undo's own line number.
    Raises :class:`AdminRefusal` saying why not."""
    entry = await storage.log_entry(guild_id, number)
    if entry is None:
        raise AdminRefusal(f"There is no #{number} in this server's log (see `/tilehost log`).")
    if entry.undone_at is not None:
        raise AdminRefusal(f"#{number} was undone already.")
    if entry.action == "forget":
        raise AdminRefusal("Removing a player's data cannot be undone: the data is gone.")
    if entry.action not in UNDOABLE:
        raise AdminRefusal("An undo cannot be undone; make the change again instead.")
    if entry.action == "season":
        current = await storage.season(guild_id)
        assert current is not None
        if current.number != entry.details["season"]:
            over = entry.details["season"]
            raise AdminRefusal(f"Season {over} is over; only the current season can be undone.")
        if await storage.results_since(guild_id, current.started_at):
            raise AdminRefusal(
                f"Games have finished in season {current.number}, so it cannot be undone (its results "
                "would lose their season). Start a new season instead."
            )
        return entry, await storage.undo_season(guild_id, entry, by=by, now=now)
    latest = await storage.latest_setting_change(guild_id, entry.action)
    if latest != number:
        raise AdminRefusal(f"#{latest} changed the same setting after #{number}: undo #{latest} first.")
    return entry, await storage.undo_setting(guild_id, entry, by=by, now=now)


async def forget_player(
    service: SessionService, guild_id: int, user_id: int, *, by: int, now: float
) -> tuple[Forgotten, int, int]:
    """Remove a player's data from one server: first they leave its lobbies (a lobby they host
    closes) and resign its running games (the others play on where the rules allow), then
    storage anonymises their seats, moves and results there and deletes their ratings there
    (:meth:`Storage.forget_player`), and the games still running show them as a former player.
    ``(what changed, the log line, the games they left or resigned)``."""
    left = 0
    for session in [session for session in service.sessions() if session.row.guild_id == guild_id]:
        if session.seat_of(user_id) is None or session.is_over:
            continue
        try:
            if session.status is Status.LOBBY:
                await service.leave(session, user_id)
            else:
                await service.resign(session, user_id)
        except (SessionError, GameError) as error:  # out of that game already (resigned, say)
            log.info("game %s: %s", session.id, error)
            continue
        left += 1
    forgotten, logged = await service.storage.forget_player(guild_id, user_id, by=by, now=now)
    for session in service.sessions():
        if session.row.guild_id == guild_id:
            session.seats = await service.storage.seats(session.id)
            if session.row.host_id == user_id:
                session.row = replace(session.row, host_id=0)
    log.info("server %s: a player's data was removed (%s)", guild_id, forgotten)
    return forgotten, logged, left

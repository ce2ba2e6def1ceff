"""The queries of what happens between games (issue 25), on SQLite or PostgreSQL, mixed into
:class:`bot.storage.Storage`: a member's running games at a glance, rematches, the engine's
reviews, and the daily solitaire challenge.

Tables (migration 0012): ``games.rematch_of`` and ``games.seating`` (a rematch lobby), ``reviews``
(a finished game's review per seat) and ``daily_attempts`` (one per member and day).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.engines import Database
from bot.storage.rows import (
    GameRow,
    Row,
    SeatRow,
    StorageError,
    UniqueViolation,
    _build,
    _count,
    _float,
    _json,
)

SEAT_COLUMNS = "s.seat AS seat_no, s.user_id AS seat_user, s.name AS seat_name, s.ai_level AS seat_level"
STREAK_DAYS = 400
"""How many of a member's latest days solved a streak is counted from (a streak is never
longer than the days the bot has run; this bounds the query)."""


class DailyTaken(StorageError):
    """The member has an attempt at that day's challenge already (:attr:`attempt`)."""

    def __init__(self, attempt: DailyAttempt) -> None:
        super().__init__(f"{attempt.user_id} has an attempt on {attempt.day}")
        self.attempt = attempt


@dataclass(frozen=True)
class DailyAttempt:
    """A member's attempt at one day's challenge: where it was asked for and its game (None
    while its thread and game are being made)."""

    day: str
    user_id: int
    guild_id: int | None
    channel_id: int
    target: str
    game_id: int | None
    claimed_at: float

    @classmethod
    def from_row(cls, row: Row) -> DailyAttempt:
        """The attempt in a ``daily_attempts`` row."""
        return _build(cls, row)


@dataclass(frozen=True)
class DailyResult:
    """Where a member's attempt at a day's challenge stands, from its game: ``status`` is the
    game's (``playing``, ``finished``), ``reason`` its outcome's (``solved``,
    ``solved_with_hints``, ``gave_up``); ``pieces`` on the board at the end (or now), ``hints``
    used, and the times of the first and last moves."""

    user_id: int
    guild_id: int | None
    game_id: int | None
    thread_id: int | None
    status: str | None
    reason: str | None
    pieces: int
    hints: int
    first_move: float | None
    last_move: float | None

    @property
    def solved(self) -> bool:
        """True when the target was filled (with or without hints)."""
        return self.reason in ("solved", "solved_with_hints")

    @property
    def finished(self) -> bool:
        """True once the attempt has ended (solved or given up)."""
        return self.status == "finished"

    @property
    def seconds(self) -> float | None:
        """From the first move to the last, once finished."""
        if not self.finished or self.first_move is None or self.last_move is None:
            return None
        return self.last_move - self.first_move

    @classmethod
    def from_row(cls, row: Row) -> DailyResult:
        """A line of :meth:`BetweenStore.daily_results`."""
        reason = _json(row["outcome"]).get("reason") if row["outcome"] is not None else None
        return cls(
            user_id=row["user_id"],
            guild_id=row["guild_id"],
            game_id=row["game_id"],
            thread_id=row["thread_id"],
            status=row["status"],
            reason=reason,
            pieces=_count(row["pieces"]),
            hints=_count(row["hints"]),
            first_move=_float(row["first_move"]),
            last_move=_float(row["last_move"]),
        )


PIECES = (
    "SUM(CASE WHEN m.notation = 'undo' THEN -1 "
    "WHEN m.notation IN ('giveup', '!resign', '!timeout') THEN 0 ELSE 1 END)"
)
"""The pieces a solitaire's moves leave on its board: each placement adds one, each undo takes
one back."""
HINTS = "SUM(CASE WHEN m.notation LIKE 'hint %' THEN 1 ELSE 0 END)"
"""The placements a solitaire's player let the solver make."""


class BetweenStore:
    """The between-games queries (mixed into :class:`Storage`)."""

    database: Database

    # -- your turns ------------------------------------------------------------------------------

    async def running_games_of(self, user_id: int) -> list[tuple[GameRow, list[SeatRow]]]:
        """Every game ``user_id`` plays in that is under way, with all its seats: one query
        (the stored snapshot holds the ply, the scores and the seat to act; nothing is replayed)."""
        rows = await self.database.fetch(
            f"SELECT {GameRow.columns('g')}, {SEAT_COLUMNS} FROM seats me "
            "JOIN games g ON g.id = me.game_id JOIN seats s ON s.game_id = g.id "
            "WHERE me.user_id = ? AND g.status = 'playing' ORDER BY g.id, s.seat",
            (user_id,),
        )
        games: dict[int, tuple[GameRow, list[SeatRow]]] = {}
        for row in rows:
            if row["id"] not in games:
                games[row["id"]] = (GameRow.from_row(row), [])
            seat = SeatRow(row["seat_no"], row["seat_user"], row["seat_name"], row["seat_level"])
            games[row["id"]][1].append(seat)
        return list(games.values())

    # -- rematches -------------------------------------------------------------------------------

    async def rematch_of_game(self, game_id: int) -> GameRow | None:
        """The rematch of game ``game_id`` (a lobby, a game under way or played), if any."""
        row = await self.database.fetchrow(
            f"SELECT {GameRow.COLUMNS} FROM games WHERE rematch_of = ? AND status <> 'aborted'", (game_id,)
        )
        return GameRow.from_row(row) if row else None

    async def tournament_game(self, game_id: int) -> bool:
        """True when a tournament paired game ``game_id``."""
        found = await self.database.fetchval(
            "SELECT 1 FROM tournament_tables WHERE game_id = ? LIMIT 1", (game_id,)
        )
        return found is not None

    # -- reviews ---------------------------------------------------------------------------------

    async def review(self, game_id: int, seat: int, version: int) -> dict[str, Any] | None:
        """The stored review of ``seat`` in game ``game_id``, if one of ``version`` exists."""
        data = await self.database.fetchval(
            "SELECT data FROM reviews WHERE game_id = ? AND seat = ? AND version = ?",
            (game_id, seat, version),
        )
        return _json(data) if data is not None else None

    async def save_review(
        self, game_id: int, seat: int, version: int, data: dict[str, Any], now: float
    ) -> None:
        """Keep a review (replacing an older one of the same seat)."""
        async with self.database.transaction() as tx:
            await tx.execute(
                "INSERT INTO reviews (game_id, seat, version, data, created_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat) DO UPDATE SET version = excluded.version, "
                "data = excluded.data, created_at = excluded.created_at",
                (game_id, seat, version, json.dumps(data), now),
            )

    # -- the daily challenge ---------------------------------------------------------------------

    async def claim_daily(
        self, *, day: str, user_id: int, guild_id: int | None, channel_id: int, target: str, now: float
    ) -> DailyAttempt:
        """Claim the member's one attempt at ``day``'s challenge; raises :class:`DailyTaken`
        (with the attempt) when they have one."""
        attempt = DailyAttempt(day, user_id, guild_id, channel_id, target, None, now)
        try:
            async with self.database.transaction() as tx:
                await tx.execute(
                    "INSERT INTO daily_attempts (day, user_id, guild_id, channel_id, target, claimed_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (day, user_id, guild_id, channel_id, target, now),
                )
        except UniqueViolation:
            taken = await self.daily_attempt(day, user_id)
            if taken is None:  # claimed and dropped in between: very unlikely; say so plainly
                raise
            raise DailyTaken(taken) from None
        return attempt

    async def daily_attempt(self, day: str, user_id: int) -> DailyAttempt | None:
        """The member's attempt at ``day``'s challenge, if any."""
        row = await self.database.fetchrow(
            "SELECT day, user_id, guild_id, channel_id, target, game_id, claimed_at FROM daily_attempts "
            "WHERE day = ? AND user_id = ?",
            (day, user_id),
        )
        return DailyAttempt.from_row(row) if row else None

    async def daily_of_game(self, game_id: int) -> DailyAttempt | None:
        """The attempt game ``game_id`` is, if it is one."""
        row = await self.database.fetchrow(
            "SELECT day, user_id, guild_id, channel_id, target, game_id, claimed_at FROM daily_attempts "
            "WHERE game_id = ?",
            (game_id,),
        )
        return DailyAttempt.from_row(row) if row else None

    async def set_daily_game(self, day: str, user_id: int, game_id: int) -> None:
        """Tie a claimed attempt to its game."""
        async with self.database.transaction() as tx:
            await tx.execute(
                "UPDATE daily_attempts SET game_id = ? WHERE day = ? AND user_id = ?", (game_id, day, user_id)
            )

    async def drop_daily_claim(self, day: str, user_id: int) -> None:
        """Give back a claim whose game could not be made (nothing was played)."""
        async with self.database.transaction() as tx:
            await tx.execute(
                "DELETE FROM daily_attempts WHERE day = ? AND user_id = ? AND game_id IS NULL", (day, user_id)
            )

    async def daily_results(self, day: str, guild_id: int | None) -> list[DailyResult]:
        """Every attempt at ``day``'s challenge (made in one server, or anywhere) with where it
        stands, in one query."""
        where = "a.day = ?"
        params: list[Any] = [day]
        if guild_id is not None:
            where += " AND a.guild_id = ?"
            params.append(guild_id)
        rows = await self.database.fetch(
            "SELECT a.user_id, a.guild_id, a.game_id, g.thread_id, g.status, g.outcome, "
            f"{PIECES} AS pieces, {HINTS} AS hints, MIN(m.created_at) AS first_move, "
            "MAX(m.created_at) AS last_move FROM daily_attempts a "
            "LEFT JOIN games g ON g.id = a.game_id LEFT JOIN moves m ON m.game_id = a.game_id "
            f"WHERE {where} GROUP BY a.user_id, a.guild_id, a.game_id, g.thread_id, g.status, g.outcome "
            "ORDER BY a.user_id",
            params,
        )
        return [DailyResult.from_row(row) for row in rows]

    async def days_solved(self, user_ids: Sequence[int], until: str) -> dict[int, list[str]]:
        """For each member, the days up to ``until`` whose challenge they solved (with or without
        hints), latest first (at most :data:`STREAK_DAYS` each)."""
        found: dict[int, list[str]] = {user_id: [] for user_id in user_ids}
        if not found:
            return found
        marks = ", ".join("?" for _ in found)
        rows = await self.database.fetch(
            "SELECT a.user_id, a.day FROM daily_attempts a JOIN results r ON r.game_id = a.game_id "
            f"WHERE a.user_id IN ({marks}) AND a.day <= ? AND r.won = 1 ORDER BY a.user_id, a.day DESC",
            (*found, until),
        )
        for row in rows:
            days = found[row["user_id"]]
            if len(days) < STREAK_DAYS:
                days.append(row["day"])
        return found

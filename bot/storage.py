"""All SQL of Tilehost: SQLite through aiosqlite (WAL, foreign keys, busy timeout, migrations).

Every method takes and returns plain values (ints, strings, dataclasses), never discord objects.
One connection is shared; a lock serialises its use so that a transaction is never interleaved
with another coroutine's statements.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot import ratings as rating_model
from bot.ratings import GLOBAL_SCOPE, Rating

ACTIVE = ("lobby", "playing")


class StorageError(Exception):
    """A write could not be made (the stored game is unchanged)."""


class ActiveGameExists(StorageError):
    """The channel already has an active game of that kind."""


class StaleMove(StorageError):
    """The game moved on since the move was made (another ply was stored first)."""


@dataclass(frozen=True)
class SeatRow:
    """A seat at a table: a person (user_id) or a computer (ai_level)."""

    seat: int
    user_id: int | None
    name: str
    ai_level: str | None = None

    @property
    def is_computer(self) -> bool:
        """True for a computer player."""
        return self.ai_level is not None


@dataclass(frozen=True)
class GameRow:
    """One stored game (a session's header and where it stands)."""

    id: int
    game: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    seed: int
    deal: Any
    turn_seconds: int
    ply: int
    snapshot: dict[str, Any] | None
    deadline: float | None
    reminder_at: float | None
    outcome: dict[str, Any] | None
    message_id: int | None
    created_at: float
    updated_at: float
    finished_at: float | None
    thread_id: int | None = None


@dataclass(frozen=True)
class MoveRow:
    """One stored record line."""

    ply: int
    seat: int
    notation: str
    user_id: int | None
    created_at: float


@dataclass(frozen=True)
class ResultRow:
    """One seat's result in a finished game."""

    seat: int
    user_id: int | None
    ai_level: str | None
    rank: int
    score: int
    forfeited: bool
    won: bool
    draw: bool


@dataclass(frozen=True)
class Finish:
    """What is written with the last move of a game."""

    outcome: dict[str, Any]
    results: Sequence[ResultRow]


@dataclass(frozen=True)
class Clock:
    """The turn clock of a game after a move."""

    deadline: float | None = None
    reminder_at: float | None = None


@dataclass(frozen=True)
class LeaderRow:
    """One line of a leaderboard."""

    user_id: int
    rating: float | None
    wins: int
    games: int


@dataclass(frozen=True)
class Stats:
    """A player's record in one game (in one server, or everywhere)."""

    games: int
    wins: int
    draws: int
    forfeits: int
    best: int | None
    average: float | None
    streak: int
    """Positive: that many wins in a row now; negative: that many games without a win."""
    rating: float | None
    rated_games: int
    fastest_win: float | None = None
    """Seconds from start to the end of the quickest game won (solitaire solve times)."""


@dataclass(frozen=True)
class SolverRow:
    """A player on a solitaire leaderboard: distinct targets solved, solves, quickest solve."""

    user_id: int
    targets: int
    solves: int
    fastest: float | None


@dataclass(frozen=True)
class SolvedTarget:
    """One solitaire target a player solved: how often, and the quickest solve in seconds."""

    target: str
    solves: int
    fastest: float | None


@dataclass(frozen=True)
class HistoryRow:
    """A finished game in a player's history."""

    game_id: int
    game: str
    guild_id: int | None
    channel_id: int
    message_id: int | None
    rank: int
    score: int
    players: int
    won: bool
    finished_at: float


_GAME_COLUMNS = (
    "id, game, guild_id, channel_id, host_id, status, options, seed, deal, turn_seconds, ply, "
    "snapshot, deadline, reminder_at, outcome, message_id, created_at, updated_at, finished_at, thread_id"
)


def _game_row(row: Sequence[Any]) -> GameRow:
    return GameRow(
        id=row[0],
        game=row[1],
        guild_id=row[2],
        channel_id=row[3],
        host_id=row[4],
        status=row[5],
        options=json.loads(row[6]),
        seed=row[7],
        deal=json.loads(row[8]) if row[8] is not None else None,
        turn_seconds=row[9],
        ply=row[10],
        snapshot=json.loads(row[11]) if row[11] is not None else None,
        deadline=row[12],
        reminder_at=row[13],
        outcome=json.loads(row[14]) if row[14] is not None else None,
        message_id=row[15],
        created_at=row[16],
        updated_at=row[17],
        finished_at=row[18],
        thread_id=row[19],
    )


def _migrations() -> list[tuple[int, str, str]]:
    """``(number, name, sql)`` of every migration file, in order."""
    folder = resources.files("bot") / "migrations"
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    return sorted(found)


class Storage:
    """The database. Open with :meth:`open`; close with :meth:`close`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()
        self.closed = False

    # -- lifecycle -----------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path) -> Storage:
        """Open (creating if needed) the database at ``path`` and apply migrations."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        storage = cls(connection)
        await _exec(connection, "PRAGMA journal_mode = WAL")
        await _exec(connection, "PRAGMA foreign_keys = ON")
        await _exec(connection, "PRAGMA busy_timeout = 5000")
        await _exec(connection, "PRAGMA synchronous = NORMAL")
        await storage.migrate()
        return storage

    async def close(self) -> None:
        """Close the connection (waits for a running statement); closing twice is harmless."""
        async with self._lock:
            if not self.closed:
                self.closed = True
                await self._db.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await _exec(self._db, "BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await _exec(self._db, "ROLLBACK")
                raise
            else:
                await _exec(self._db, "COMMIT")

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._lock, self._db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def _fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        async with self._lock, self._db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def migrate(self) -> list[str]:
        """Apply the migrations not applied yet, each in its own transaction."""
        async with self._lock:
            await _exec(
                self._db,
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(number INTEGER PRIMARY KEY, name TEXT NOT NULL)",
            )
            async with self._db.execute("SELECT number FROM schema_migrations") as cursor:
                done = {row[0] for row in await cursor.fetchall()}
        applied = []
        for number, name, sql in _migrations():
            if number in done:
                continue
            async with self._transaction() as db:
                for statement in _statements(sql):
                    await _exec(db, statement)
                await _exec(db, "INSERT INTO schema_migrations (number, name) VALUES (?, ?)", (number, name))
            applied.append(name)
        return applied

    # -- games and seats -----------------------------------------------------------------

    async def create_game(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host: SeatRow,
        options: dict[str, Any],
        seed: int,
        deal: Any,
        turn_seconds: int,
        now: float,
        table_key: int = 0,
    ) -> int:
        """Store a new lobby with its host in seat 0; raises :class:`ActiveGameExists`.

        A channel holds one active game per kind and ``table_key`` (0, except for games where
        every player has a table of their own, which pass the host's id)."""
        try:
            async with self._transaction() as db:
                cursor = await _exec(
                    db,
                    "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, deal, "
                    "turn_seconds, created_at, updated_at, table_key) "
                    "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
                    (
                        game,
                        guild_id,
                        channel_id,
                        host.user_id,
                        json.dumps(options, sort_keys=True),
                        seed,
                        json.dumps(deal) if deal is not None else None,
                        turn_seconds,
                        now,
                        now,
                        table_key,
                    ),
                )
                game_id = cursor.lastrowid
                assert game_id is not None
                await self._insert_seat(db, game_id, host)
        except sqlite3.IntegrityError as error:
            raise ActiveGameExists(str(error)) from error
        return game_id

    @staticmethod
    async def _insert_seat(db: aiosqlite.Connection, game_id: int, seat: SeatRow) -> None:
        await _exec(
            db,
            "INSERT INTO seats (game_id, seat, user_id, name, ai_level) VALUES (?, ?, ?, ?, ?)",
            (game_id, seat.seat, seat.user_id, seat.name, seat.ai_level),
        )

    async def add_seat(self, game_id: int, seat: SeatRow) -> None:
        """Add a seat to a lobby."""
        async with self._transaction() as db:
            await self._insert_seat(db, game_id, seat)
            await _exec(db, "UPDATE games SET updated_at = updated_at WHERE id = ?", (game_id,))

    async def replace_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        """Replace every seat of a lobby (after someone leaves, seats are renumbered)."""
        async with self._transaction() as db:
            await _exec(db, "DELETE FROM seats WHERE game_id = ?", (game_id,))
            for seat in seats:
                await self._insert_seat(db, game_id, seat)

    async def start_game(
        self, game_id: int, seats: Sequence[SeatRow], snapshot: dict[str, Any], clock: Clock, now: float
    ) -> None:
        """Move a lobby to ``playing`` with its final seat order."""
        async with self._transaction() as db:
            await _exec(db, "DELETE FROM seats WHERE game_id = ?", (game_id,))
            for seat in seats:
                await self._insert_seat(db, game_id, seat)
            cursor = await _exec(
                db,
                "UPDATE games SET status = 'playing', snapshot = ?, deadline = ?, reminder_at = ?, "
                "updated_at = ?, started_at = ? WHERE id = ? AND status = 'lobby'",
                (json.dumps(snapshot), clock.deadline, clock.reminder_at, now, now, game_id),
            )
            if cursor.rowcount != 1:
                raise StaleMove("the game is no longer in its lobby")

    async def game(self, game_id: int) -> GameRow | None:
        """The game with that id."""
        row = await self._fetchone(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game_row(row) if row else None

    async def active_game(self, channel_id: int, game: str) -> GameRow | None:
        """The lobby or running game of that kind in that channel."""
        row = await self._fetchone(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND game = ? "
            "AND status IN ('lobby', 'playing')",
            (channel_id, game),
        )
        return _game_row(row) if row else None

    async def active_games(self, channel_id: int | None = None) -> list[GameRow]:
        """Every lobby and running game (of one channel, or all)."""
        if channel_id is None:
            rows = await self._fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'playing') ORDER BY id"
            )
        else:
            rows = await self._fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'playing') "
                "AND channel_id = ? ORDER BY id",
                (channel_id,),
            )
        return [_game_row(row) for row in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The seats of a game in seat order."""
        rows = await self._fetchall(
            "SELECT seat, user_id, name, ai_level FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [SeatRow(*row) for row in rows]

    async def last_finished(self, channel_id: int, games: Sequence[str]) -> GameRow | None:
        """The last game of ``games`` to end in a channel (or in a thread of it)."""
        if not games:
            return None
        marks = ", ".join("?" for _ in games)
        row = await self._fetchone(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE (channel_id = ? OR thread_id = ?) "
            f"AND status = 'finished' AND game IN ({marks}) ORDER BY finished_at DESC, id DESC LIMIT 1",
            (channel_id, channel_id, *games),
        )
        return _game_row(row) if row else None

    async def seats_of(self, game_ids: Sequence[int]) -> dict[int, list[SeatRow]]:
        """The seats of many games in one query: ``game_id -> seats`` in seat order."""
        found: dict[int, list[SeatRow]] = {game_id: [] for game_id in game_ids}
        if not game_ids:
            return found
        rows = await self._fetchall(
            "SELECT s.game_id, s.seat, s.user_id, s.name, s.ai_level FROM seats s "
            "JOIN games g ON g.id = s.game_id WHERE g.status IN ('lobby', 'playing') "
            "ORDER BY s.game_id, s.seat"
        )
        for game_id, *seat in rows:
            if game_id in found:
                found[game_id].append(SeatRow(*seat))
        return found

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The record lines of a game in order."""
        rows = await self._fetchall(
            "SELECT ply, seat, notation, user_id, created_at FROM moves WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
        return [MoveRow(*row) for row in rows]

    async def count_rows(self, table: str, game_id: int) -> int:
        """How many rows of ``table`` belong to a game (for tests and diagnostics)."""
        if table not in {"moves", "seats", "results"}:
            raise ValueError(table)
        row = await self._fetchone(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (game_id,))
        return int(row[0])

    # -- play ----------------------------------------------------------------------------

    async def record_move(
        self,
        game_id: int,
        *,
        ply: int,
        seat: int,
        notation: str,
        user_id: int | None,
        snapshot: dict[str, Any],
        clock: Clock,
        now: float,
        finish: Finish | None = None,
    ) -> None:
        """Store record line ``ply`` with the new snapshot and clock in one transaction.

        Raises :class:`StaleMove` (nothing written) when the stored game is not at ``ply - 1``.
        """
        async with self._transaction() as db:
            cursor = await _exec(
                db,
                "UPDATE games SET ply = ?, snapshot = ?, deadline = ?, reminder_at = ?, updated_at = ? "
                "WHERE id = ? AND ply = ? AND status = 'playing'",
                (ply, json.dumps(snapshot), clock.deadline, clock.reminder_at, now, game_id, ply - 1),
            )
            if cursor.rowcount != 1:
                raise StaleMove(f"game {game_id} is not at ply {ply - 1}")
            await _exec(
                db,
                "INSERT INTO moves (game_id, ply, seat, notation, user_id, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, ply, seat, notation, user_id, now),
            )
            if finish is not None:
                await self._write_finish(db, game_id, finish, now)

    async def _write_finish(self, db: aiosqlite.Connection, game_id: int, finish: Finish, now: float) -> None:
        await self._write_results(db, game_id, finish, now)
        people = [r for r in finish.results if r.user_id is not None]
        if len(people) == len(finish.results) >= 2:
            async with db.execute("SELECT game, guild_id FROM games WHERE id = ?", (game_id,)) as cursor:
                game, guild_id = await cursor.fetchone()  # type: ignore[misc]
            scopes = [GLOBAL_SCOPE] if guild_id is None else [guild_id, GLOBAL_SCOPE]
            for scope in scopes:
                await self._rate(db, scope, game, people, now)

    async def _rate(
        self, db: aiosqlite.Connection, scope: int, game: str, results: Sequence[ResultRow], now: float
    ) -> None:
        """Update the ratings of ``results``' players in ``scope`` (inside the finishing transaction)."""
        current = []
        for result in results:
            async with db.execute(
                "SELECT mu, sigma FROM ratings WHERE scope_id = ? AND game = ? AND user_id = ?",
                (scope, game, result.user_id),
            ) as cursor:
                row = await cursor.fetchone()
            current.append(Rating(row[0], row[1]) if row else rating_model.initial())
        updated = rating_model.rate(current, [result.rank for result in results])
        for result, rating in zip(results, updated, strict=True):
            await _exec(
                db,
                "INSERT INTO ratings (scope_id, game, user_id, mu, sigma, display, rated_games, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (scope_id, game, user_id) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, display = excluded.display, "
                "rated_games = rated_games + 1, updated_at = excluded.updated_at",
                (scope, game, result.user_id, rating.mu, rating.sigma, rating.display, now),
            )

    async def _write_results(
        self, db: aiosqlite.Connection, game_id: int, finish: Finish, now: float
    ) -> None:
        await _exec(
            db,
            "UPDATE games SET status = 'finished', outcome = ?, deadline = NULL, reminder_at = NULL, "
            "finished_at = ? WHERE id = ?",
            (json.dumps(finish.outcome), now, game_id),
        )
        async with db.execute("SELECT game, guild_id FROM games WHERE id = ?", (game_id,)) as cursor:
            game, guild_id = await cursor.fetchone()  # type: ignore[misc]
        for result in finish.results:
            await _exec(
                db,
                "INSERT INTO results (game_id, seat, user_id, ai_level, game, guild_id, rank, score, "
                "forfeited, won, draw, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    result.seat,
                    result.user_id,
                    result.ai_level,
                    game,
                    guild_id,
                    result.rank,
                    result.score,
                    int(result.forfeited),
                    int(result.won),
                    int(result.draw),
                    now,
                ),
            )

    async def set_clock(self, game_id: int, clock: Clock) -> None:
        """Change the pending deadline and reminder of a game."""
        async with self._transaction() as db:
            await _exec(
                db,
                "UPDATE games SET deadline = ?, reminder_at = ? WHERE id = ?",
                (clock.deadline, clock.reminder_at, game_id),
            )

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        """Remember the thread a game plays in."""
        async with self._transaction() as db:
            await _exec(db, "UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))

    async def threads_enabled(self, guild_id: int) -> bool:
        """Whether games in this server play in threads (on unless the server turned it off)."""
        row = await self._fetchone("SELECT threads FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return bool(row[0]) if row else True

    async def set_threads(self, guild_id: int, enabled: bool) -> None:
        """Turn games in threads on or off for a server."""
        async with self._transaction() as db:
            await _exec(
                db,
                "INSERT INTO guild_settings (guild_id, threads) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
                (guild_id, int(enabled)),
            )

    async def set_message(self, game_id: int, message_id: int) -> None:
        """Remember the last board message of a game (for history links)."""
        async with self._transaction() as db:
            await _exec(db, "UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id))

    async def abort(self, game_id: int, now: float) -> bool:
        """Abort a lobby or running game; False when it was not active."""
        async with self._transaction() as db:
            cursor = await _exec(
                db,
                "UPDATE games SET status = 'aborted', deadline = NULL, reminder_at = NULL, finished_at = ?, "
                "updated_at = ? WHERE id = ? AND status IN ('lobby', 'playing')",
                (now, now, game_id),
            )
            return cursor.rowcount == 1

    # -- standings -----------------------------------------------------------------------

    async def leaderboard(
        self, game: str, guild_id: int | None, sort: str, *, limit: int = 10, offset: int = 0
    ) -> tuple[list[LeaderRow], int]:
        """A page of the leaderboard of ``game`` (a server's, or global with ``guild_id`` None)
        sorted by ``rating``, ``wins`` or ``games``; and how many players it has in all."""
        scope = GLOBAL_SCOPE if guild_id is None else guild_id
        where, params = (
            ("r.game = ?", [game])
            if guild_id is None
            else ("r.game = ? AND r.guild_id = ?", [game, guild_id])
        )
        counts = (
            f"SELECT r.user_id, SUM(r.won) AS wins, COUNT(*) AS games FROM results r "
            f"WHERE {where} AND r.user_id IS NOT NULL GROUP BY r.user_id"
        )
        if sort == "rating":
            sql = (
                f"SELECT g.user_id, g.display, COALESCE(c.wins, 0), COALESCE(c.games, 0) FROM ratings g "
                f"LEFT JOIN ({counts}) c ON c.user_id = g.user_id WHERE g.scope_id = ? AND g.game = ? "
                "ORDER BY g.display DESC, g.user_id LIMIT ? OFFSET ?"
            )
            total_sql = "SELECT COUNT(*) FROM ratings WHERE scope_id = ? AND game = ?"
            rows = await self._fetchall(sql, [*params, scope, game, limit, offset])
            total = await self._fetchone(total_sql, (scope, game))
        else:
            order = "c.wins DESC, c.games DESC" if sort == "wins" else "c.games DESC, c.wins DESC"
            sql = (
                f"SELECT c.user_id, g.display, c.wins, c.games FROM ({counts}) c LEFT JOIN ratings g "
                f"ON g.user_id = c.user_id AND g.scope_id = ? AND g.game = ? ORDER BY {order}, c.user_id "
                "LIMIT ? OFFSET ?"
            )
            rows = await self._fetchall(sql, [*params, scope, game, limit, offset])
            total = await self._fetchone(f"SELECT COUNT(*) FROM ({counts})", params)
        return [LeaderRow(*row) for row in rows], int(total[0])

    async def stats(self, user_id: int, game: str, guild_id: int | None, lower_is_better: bool) -> Stats:
        """``user_id``'s record in ``game`` (one server, or everywhere with ``guild_id`` None)."""
        where, params = ("user_id = ? AND game = ?", [user_id, game])
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(guild_id)
        best = "MIN(score)" if lower_is_better else "MAX(score)"
        row = await self._fetchone(
            f"SELECT COUNT(*), COALESCE(SUM(won), 0), COALESCE(SUM(draw), 0), COALESCE(SUM(forfeited), 0), "
            f"{best}, AVG(score) FROM results WHERE {where}",
            params,
        )
        recent = await self._fetchall(
            f"SELECT won FROM results WHERE {where} ORDER BY finished_at DESC, game_id DESC LIMIT 500", params
        )
        rating = await self._fetchone(
            "SELECT display, rated_games FROM ratings WHERE scope_id = ? AND game = ? AND user_id = ?",
            (GLOBAL_SCOPE if guild_id is None else guild_id, game, user_id),
        )
        fastest = await self._fetchone(
            "SELECT MIN(g.finished_at - g.started_at) FROM results r JOIN games g ON g.id = r.game_id "
            "WHERE r.won = 1 AND r.user_id = ? AND r.game = ? AND (? IS NULL OR r.guild_id = ?)",
            (user_id, game, guild_id, guild_id),
        )
        return Stats(
            fastest_win=fastest[0] if fastest else None,
            games=row[0],
            wins=row[1],
            draws=row[2],
            forfeits=row[3],
            best=row[4],
            average=row[5],
            streak=_streak([bool(r[0]) for r in recent]),
            rating=rating[0] if rating else None,
            rated_games=rating[1] if rating else 0,
        )

    async def solitaire_leaderboard(
        self, game: str, guild_id: int | None, option: str, default: str, *, limit: int = 10, offset: int = 0
    ) -> tuple[list[SolverRow], int]:
        """A page of a solitaire game's solvers (one server, or everywhere), most distinct targets
        solved first (the target is the game option ``option``, ``default`` when not stored);
        and how many solvers there are in all."""
        where, params = self._solved_where(game, guild_id)
        target = f"COALESCE(json_extract(g.options, '$.{_identifier(option)}'), ?)"
        rows = await self._fetchall(
            f"SELECT r.user_id, COUNT(DISTINCT {target}), COUNT(*), MIN(g.finished_at - g.started_at) "
            f"FROM results r JOIN games g ON g.id = r.game_id WHERE {where} GROUP BY r.user_id "
            "ORDER BY 2 DESC, 3 DESC, 4, r.user_id LIMIT ? OFFSET ?",
            [default, *params, limit, offset],
        )
        total = await self._fetchone(f"SELECT COUNT(DISTINCT r.user_id) FROM results r WHERE {where}", params)
        return [SolverRow(*row) for row in rows], int(total[0])

    async def solved_targets(
        self, user_id: int, game: str, guild_id: int | None, option: str, default: str
    ) -> list[SolvedTarget]:
        """The solitaire targets ``user_id`` solved, with the count and the quickest time of each."""
        where, params = self._solved_where(game, guild_id)
        target = f"COALESCE(json_extract(g.options, '$.{_identifier(option)}'), ?)"
        rows = await self._fetchall(
            f"SELECT {target} AS target, COUNT(*), MIN(g.finished_at - g.started_at) "
            f"FROM results r JOIN games g ON g.id = r.game_id WHERE {where} AND r.user_id = ? "
            "GROUP BY target ORDER BY target",
            [default, *params, user_id],
        )
        return [SolvedTarget(*row) for row in rows]

    @staticmethod
    def _solved_where(game: str, guild_id: int | None) -> tuple[str, list[Any]]:
        where = "r.game = ? AND r.won = 1 AND r.user_id IS NOT NULL"
        if guild_id is None:
            return where, [game]
        return where + " AND r.guild_id = ?", [game, guild_id]

    async def history(self, user_id: int, guild_id: int | None, *, limit: int = 10) -> list[HistoryRow]:
        """``user_id``'s most recent finished games (in one server, or everywhere)."""
        where, params = ("r.user_id = ?", [user_id])
        if guild_id is not None:
            where += " AND r.guild_id = ?"
            params.append(guild_id)
        rows = await self._fetchall(
            "SELECT r.game_id, r.game, g.guild_id, g.channel_id, g.message_id, r.rank, r.score, "
            "(SELECT COUNT(*) FROM seats s WHERE s.game_id = r.game_id), r.won, r.finished_at "
            f"FROM results r JOIN games g ON g.id = r.game_id WHERE {where} "
            "ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ?",
            [*params, limit],
        )
        return [
            HistoryRow(
                game_id=row[0],
                game=row[1],
                guild_id=row[2],
                channel_id=row[3],
                message_id=row[4],
                rank=row[5],
                score=row[6],
                players=row[7],
                won=bool(row[8]),
                finished_at=row[9],
            )
            for row in rows
        ]

    async def import_results(
        self, rows: Sequence[tuple[int, int, int, str, int, int, int, int, float]]
    ) -> None:
        """Bulk-insert finished results ``(game_id, seat, user_id, game, guild_id, rank, score,
        won, finished_at)`` (for benchmarks and data migrations; the games must exist)."""
        async with self._transaction() as db:
            await db.executemany(
                "INSERT INTO results (game_id, seat, user_id, game, guild_id, rank, score, won, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )

    async def import_games(self, rows: Sequence[tuple[int, str, int, int, float]]) -> None:
        """Bulk-insert finished game headers ``(id, game, guild_id, channel_id, finished_at)``."""
        async with self._transaction() as db:
            await db.executemany(
                "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, options, seed, "
                "created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, 0, 'finished', '{}', 0, ?, ?, ?)",
                [(gid, game, guild, channel, at, at, at) for gid, game, guild, channel, at in rows],
            )

    async def import_ratings(self, rows: Sequence[tuple[int, str, int, float, float]]) -> None:
        """Bulk-insert ratings ``(scope_id, game, user_id, mu, sigma)``."""
        async with self._transaction() as db:
            await db.executemany(
                "INSERT OR REPLACE INTO ratings (scope_id, game, user_id, mu, sigma, display, rated_games, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, 0)",
                [(scope, game, user, mu, sigma, mu - 3 * sigma) for scope, game, user, mu, sigma in rows],
            )

    # -- user settings -------------------------------------------------------------------

    async def dm_reminders(self, user_id: int) -> bool:
        """Whether the user asked for reminders by direct message."""
        row = await self._fetchone("SELECT dm_reminders FROM user_settings WHERE user_id = ?", (user_id,))
        return bool(row and row[0])

    async def set_dm_reminders(self, user_id: int, enabled: bool) -> None:
        """Turn reminders by direct message on or off for a user."""
        async with self._transaction() as db:
            await _exec(
                db,
                "INSERT INTO user_settings (user_id, dm_reminders) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders",
                (user_id, int(enabled)),
            )


async def _exec(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
    """Run one statement and close its cursor (an open cursor would block COMMIT)."""
    cursor = await db.execute(sql, params)
    await cursor.close()
    return cursor


def _identifier(name: str) -> str:
    """``name`` checked to be a plain identifier (it is placed in a JSON path)."""
    if not name.isidentifier():
        raise ValueError(f"not an option name: {name!r}")
    return name


def _streak(won: Sequence[bool]) -> int:
    """Wins in a row (positive) or games without a win (negative), most recent first."""
    if not won:
        return 0
    first = won[0]
    count = 0
    for result in won:
        if result != first:
            break
        count += 1
    return count if first else -count


def _statements(sql: str) -> list[str]:
    """Split a migration file into complete statements (comments may hold semicolons)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip() and not all(
        part.strip().startswith("--") or not part.strip() for part in buffer.splitlines()
    ):
        raise ValueError(f"incomplete SQL statement at the end of a migration: {buffer.strip()[:60]!r}")
    return statements

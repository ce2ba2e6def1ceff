"""Every query of Tilehost, on SQLite or PostgreSQL (see :mod:`bot.storage.engines`).

Every method takes and returns plain values and dataclasses, never discord objects. A write is
one transaction, handed whole to the engine (:meth:`Database.run`): a move, its snapshot, its
clock and (when it ends the game) the results and ratings are one commit, and the stale-move
check is a conditional ``UPDATE`` in the database, so it holds between processes as well as
between coroutines. On SQLite the moves waiting at the same moment share one commit; on
PostgreSQL a move is one call of a server-side function (one round trip).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from bot.ratings import GLOBAL_SCOPE, Rating, RatingUpdate, initial
from bot.shards import Shards
from bot.storage.between import BetweenStore
from bot.storage.engines import Database, Executor, PostgresDatabase, connect
from bot.storage.rows import (
    ActiveGameExists,
    Clock,
    Conflict,
    Finish,
    Forgotten,
    GameRow,
    HistoryRow,
    LeaderRow,
    Line,
    LogEntry,
    MoveRow,
    RematchExists,
    ResultRow,
    Season,
    SeatRow,
    SolvedTarget,
    SolverRow,
    StaleMove,
    Stats,
    UniqueViolation,
)
from bot.storage.tournaments import TournamentStore

COUNTED_WIN = "CASE WHEN r.won = 1 AND r.helped = 0 THEN 1 ELSE 0 END"
"""1 for a win that standings count (a win with help is counted apart)."""
HELPED_WIN = "CASE WHEN r.won = 1 AND r.helped = 1 THEN 1 ELSE 0 END"
"""1 for a win with help."""
FORMER_PLAYER = "a former player"
"""The name a player's seats keep once their data was removed from a server."""
FASTEST = "MIN(CASE WHEN r.won = 1 AND r.helped = 0 THEN g.finished_at - g.started_at END)"
"""The quickest counted win of ``results r`` joined with its ``games g``, in seconds."""


RECORD_MOVES_CALL = "SELECT tilehost_record_moves(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
"""A move and the forced turns after it on PostgreSQL: one statement, its own transaction, one
round trip (migration 0014)."""
T = TypeVar("T")

ROWS_AT_A_TIME = 500
"""Rows of a bulk read (every running game at start-up) turned into values between two turns of
the event loop (10,000 games at once held it for about two seconds)."""
RATING_ATTEMPTS = 8
"""How often a last move is tried when other processes keep rating its players meanwhile."""


def _flag(value: bool) -> int:
    return 1 if value else 0


def _lines_json(lines: Sequence[Line]) -> str:
    """Record lines as ``tilehost_record_moves`` reads them (their plies follow the first)."""
    return json.dumps(
        [{"seat": line.seat, "notation": line.notation, "user_id": line.user_id} for line in lines]
    )


def _result_json(result: ResultRow) -> dict[str, Any]:
    """A seat's result as ``tilehost_record_move`` reads it."""
    return {
        "seat": result.seat,
        "user_id": result.user_id,
        "ai_level": result.ai_level,
        "rank": result.rank,
        "score": result.score,
        "forfeited": _flag(result.forfeited),
        "won": _flag(result.won),
        "draw": _flag(result.draw),
        "helped": _flag(result.helped),
    }


class Storage(TournamentStore, BetweenStore):
    """The database. Open with :meth:`open`; close with :meth:`close`."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.closed = False

    # -- lifecycle -----------------------------------------------------------------------

    @classmethod
    async def open(cls, database: str | Path, *, migrate: bool = True, pool_size: int = 10) -> Storage:
        """Open the database the setting names (a SQLite file path, created if needed, or a
        ``postgresql://`` URL) and apply the migrations not applied yet."""
        storage = cls(await connect(database, pool_size=pool_size))
        try:
            if migrate:
                await storage.migrate()
        except BaseException:
            await storage.close()  # the connection's thread would keep the process alive
            raise
        return storage

    async def check_writable(self) -> None:
        """Raise the database's own error unless it takes writes (a read-only file, directory
        or server is found at start-up, not at the first move). Changes nothing."""
        await self._write("DELETE FROM guild_settings WHERE guild_id IS NULL")

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.database.dialect

    async def close(self) -> None:
        """Close the connection (waits for a running statement); closing twice is harmless."""
        if not self.closed:
            self.closed = True
            await self.database.close()

    async def migrate(self) -> list[str]:
        """Apply the migrations not applied yet, each in its own transaction."""
        return await self.database.migrate()

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement as a transaction of its own; the number of rows it changed."""

        async def body(tx: Executor) -> int:
            return await tx.execute(sql, params)

        return await self.database.run(body)

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
        variant: str | None = None,
        host_id: int | None = None,
        others: Sequence[SeatRow] = (),
        rematch_of: int | None = None,
        seating: Sequence[dict[str, Any]] | None = None,
    ) -> int:
        """Store a new lobby with its host in seat 0 (and ``others`` in the next seats); raises
        :class:`ActiveGameExists`. ``host_id`` is who runs the table when that is not seat 0's
        player (a tournament's organiser). A rematch names the game it follows (``rematch_of``)
        and its planned ``seating``; raises :class:`RematchExists` when that game has one.

        A channel holds one active game per kind and ``table_key`` (0, except for games where
        every player has a table of their own, which pass the host's id). ``variant`` is what
        standings group the game's results by besides the game (``Game.variant``)."""
        values = (
            game,
            guild_id,
            channel_id,
            host_id if host_id is not None else host.user_id,
            json.dumps(options, sort_keys=True),
            seed,
            json.dumps(deal) if deal is not None else None,
            turn_seconds,
            now,
            now,
            table_key,
            variant,
            rematch_of,
            json.dumps(list(seating)) if seating is not None else None,
        )

        async def body(tx: Executor) -> int:
            game_id = await tx.fetchval(
                "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, deal, "
                "turn_seconds, created_at, updated_at, table_key, variant, rematch_of, seating) "
                "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                values,
            )
            for seat in (host, *others):
                await self._insert_seat(tx, game_id, seat)
            return int(game_id)

        try:
            return await self.database.run(body)
        except UniqueViolation as error:
            if rematch_of is not None and "rematch" in str(error):
                raise RematchExists(str(error)) from error
            raise ActiveGameExists(str(error)) from error

    @staticmethod
    async def _insert_seat(tx: Executor, game_id: int, seat: SeatRow) -> None:
        await tx.execute(
            "INSERT INTO seats (game_id, seat, user_id, name, ai_level) VALUES (?, ?, ?, ?, ?)",
            (game_id, seat.seat, seat.user_id, seat.name, seat.ai_level),
        )

    async def add_seat(self, game_id: int, seat: SeatRow) -> None:
        """Add a seat to a lobby; raises :class:`StaleMove` when that seat (or that person) is
        taken already (another process filled it first)."""

        async def body(tx: Executor) -> None:
            await self._insert_seat(tx, game_id, seat)

        try:
            await self.database.run(body)
        except UniqueViolation as error:
            raise StaleMove(f"game {game_id}: the place of player {seat.seat + 1} is taken") from error

    async def replace_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        """Replace every seat of a lobby (after someone leaves, seats are renumbered)."""

        async def body(tx: Executor) -> None:
            await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            for seat in seats:
                await self._insert_seat(tx, game_id, seat)

        await self.database.run(body)

    async def start_game(
        self, game_id: int, seats: Sequence[SeatRow], snapshot: dict[str, Any], clock: Clock, now: float
    ) -> None:
        """Move a lobby to ``playing`` with its final seat order."""
        stored = json.dumps(snapshot)

        async def body(tx: Executor) -> None:
            changed = await tx.execute(
                "UPDATE games SET status = 'playing', snapshot = ?, deadline = ?, reminder_at = ?, "
                "updated_at = ?, started_at = ? WHERE id = ? AND status = 'lobby'",
                (stored, clock.deadline, clock.reminder_at, now, now, game_id),
            )
            if changed != 1:
                raise StaleMove("the game is no longer in its lobby")
            await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            for seat in seats:
                await self._insert_seat(tx, game_id, seat)

        await self.database.run(body)

    async def game(self, game_id: int) -> GameRow | None:
        """The game with that id."""
        row = await self.database.fetchrow(f"SELECT {GameRow.COLUMNS} FROM games WHERE id = ?", (game_id,))
        return GameRow.from_row(row) if row else None

    async def active_games(self, shards: Shards | None = None) -> list[GameRow]:
        """Every lobby and running game (of the servers on ``shards``, or all)."""
        sql = f"SELECT {GameRow.COLUMNS} FROM games WHERE status IN ('lobby', 'playing')"
        params: list[Any] = []
        if shards is not None:
            ids = sorted(shards.ids)
            sql += f" AND ((COALESCE(guild_id, 0) >> 22) % ?) IN ({', '.join('?' * len(ids))})"
            params = [shards.count, *ids]
        rows = await self.database.fetch(sql + " ORDER BY id", params)
        return await _built(rows, GameRow.from_row)

    async def last_finished(
        self, channel_id: int, games: Sequence[str], user_id: int | None = None
    ) -> GameRow | None:
        """The last game of ``games`` to end in a thread (the game of that thread) or channel
        (its own games and its threads'). Of games that ended at the same time, ``user_id``'s
        own game comes first, then a table's game before another member's solitaire, then the
        newest."""
        if not games:
            return None
        marks = ", ".join("?" for _ in games)
        row = await self.database.fetchrow(
            f"SELECT {GameRow.COLUMNS} FROM games g WHERE (channel_id = ? OR thread_id = ?) "
            f"AND status = 'finished' AND game IN ({marks}) ORDER BY finished_at DESC, "
            "CASE WHEN EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?) "
            "THEN 0 ELSE 1 END, CASE WHEN table_key = 0 THEN 0 ELSE 1 END, id DESC LIMIT 1",
            (channel_id, channel_id, *games, user_id),
        )
        return GameRow.from_row(row) if row else None

    async def seats_of(self, game_ids: Sequence[int]) -> dict[int, list[SeatRow]]:
        """The seats of many lobbies and running games in one query: ``game_id -> seats``."""
        found: dict[int, list[SeatRow]] = {game_id: [] for game_id in game_ids}
        if not found:
            return found
        rows = await self.database.fetch(
            "SELECT s.game_id, s.seat, s.user_id, s.name, s.ai_level FROM seats s "
            "JOIN games g ON g.id = s.game_id WHERE g.status IN ('lobby', 'playing') "
            "ORDER BY s.game_id, s.seat"
        )
        for number, row in enumerate(rows, 1):
            if row["game_id"] in found:
                found[row["game_id"]].append(SeatRow.from_row(row))
            if number % ROWS_AT_A_TIME == 0:
                await asyncio.sleep(0)
        return found

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The seats of a game in seat order."""
        rows = await self.database.fetch(
            "SELECT seat, user_id, name, ai_level FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [SeatRow.from_row(row) for row in rows]

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The record lines of a game in order."""
        rows = await self.database.fetch(
            "SELECT ply, seat, notation, user_id, created_at FROM moves WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
        return [MoveRow.from_row(row) for row in rows]

    async def count_rows(self, table: str, game_id: int) -> int:
        """How many rows of ``table`` belong to a game (for tests and diagnostics)."""
        if table not in {"moves", "seats", "results"}:
            raise ValueError(table)
        return int(
            await self.database.fetchval(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (game_id,))
        )

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
        """Store record line ``ply`` (see :meth:`record_moves`, of which this is one line)."""
        await self.record_moves(
            game_id,
            [Line(ply, seat, notation, user_id)],
            snapshot=snapshot,
            clock=clock,
            now=now,
            finish=finish,
        )

    async def record_moves(
        self,
        game_id: int,
        lines: Sequence[Line],
        *,
        snapshot: dict[str, Any],
        clock: Clock,
        now: float,
        finish: Finish | None = None,
    ) -> None:
        """Store consecutive record lines (a move and the forced turns after it) with the
        snapshot and clock after the last, in one transaction (with the results and ratings
        when ``finish`` ends the game), in one trip to the database: on SQLite one call into the
        writer's thread, committed with the other writes waiting then; on PostgreSQL one
        function call (and, for a rated game's last move, one read of the players' ratings
        before it). Returns once the lines are committed.

        Raises :class:`StaleMove` (nothing written) when the stored game is not at the ply
        before the first line: the conditional update waits for a competing transaction
        (another process's) and then finds the ply it stored. Those lines fail alone: the
        writes committed with them are stored."""
        if not lines:
            raise ValueError("no record line to store")
        first, last = lines[0].ply, lines[-1].ply
        if [line.ply for line in lines] != list(range(first, last + 1)):
            raise ValueError(f"record lines must follow each other: {[line.ply for line in lines]}")
        stored = json.dumps(snapshot)
        if isinstance(self.database, PostgresDatabase):
            await self._record_moves_postgres(
                self.database,
                (game_id, first, _lines_json(lines), stored, clock.deadline, clock.reminder_at, now),
                finish,
            )
            return

        async def body(tx: Executor) -> None:
            changed = await tx.execute(
                "UPDATE games SET ply = ?, snapshot = ?, deadline = ?, reminder_at = ?, updated_at = ? "
                "WHERE id = ? AND ply = ? AND status = 'playing'",
                (last, stored, clock.deadline, clock.reminder_at, now, game_id, first - 1),
            )
            if changed != 1:
                raise StaleMove(f"game {game_id} is not at ply {first - 1}")
            await tx.executemany(
                "INSERT INTO moves (game_id, ply, seat, notation, user_id, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, line.ply, line.seat, line.notation, line.user_id, now) for line in lines],
            )
            if finish is not None:
                await self._write_results(tx, game_id, finish, now)
                if finish.ratings is not None:
                    await self._write_ratings(tx, finish.ratings, now)

        await self.database.run(body)

    async def _record_moves_postgres(
        self, database: PostgresDatabase, moves: tuple[Any, ...], finish: Finish | None
    ) -> None:
        """Lines through ``tilehost_record_moves`` (migration 0014; the last line through
        0009's ``tilehost_record_move``, inside the same call). A rated game's last move reads
        the players' ratings first and sends the new ones with what it read; when another
        process rated one of them meanwhile, the call changes nothing and is made again."""
        game_id, first = moves[0], moves[1]
        outcome = results = None
        if finish is not None:
            outcome = json.dumps(finish.outcome)
            results = json.dumps([_result_json(result) for result in finish.results])
        for attempt in range(RATING_ATTEMPTS):
            ratings = None
            if finish is not None and finish.ratings is not None:
                ratings = json.dumps(await self._new_ratings(finish.ratings))
            try:
                answer = await database.call(RECORD_MOVES_CALL, (*moves, outcome, results, ratings))
            except Conflict:
                if ratings is None or attempt == RATING_ATTEMPTS - 1:
                    raise
                continue
            if answer != "stored":
                raise StaleMove(f"game {game_id} is not at ply {first - 1}")
            return

    async def _new_ratings(self, update: RatingUpdate) -> list[dict[str, Any]]:
        """``update``'s new ratings from the stored ones (one read), each with the rated games
        it was computed from."""
        players = sorted(set(update.players))
        rows = await self.database.fetch(
            "SELECT scope_id, user_id, mu, sigma, rated_games FROM ratings WHERE game = ? "
            f"AND scope_id IN ({', '.join('?' * len(update.scopes))}) "
            f"AND user_id IN ({', '.join('?' * len(players))})",
            (update.game, *update.scopes, *players),
        )
        stored = {(row["scope_id"], row["user_id"]): row for row in rows}
        found: list[dict[str, Any]] = []
        for scope in dict.fromkeys(update.scopes):
            rated = [stored.get((scope, user_id)) for user_id in update.players]
            current = [Rating(row["mu"], row["sigma"]) if row else None for row in rated]
            new = update.apply(current)
            for user_id, row, rating in zip(update.players, rated, new, strict=True):
                found.append(
                    {
                        "scope_id": scope,
                        "user_id": user_id,
                        "mu": rating.mu,
                        "sigma": rating.sigma,
                        "display": rating.display,
                        "seen": row["rated_games"] if row else 0,
                    }
                )
        return found

    async def _write_results(self, tx: Executor, game_id: int, finish: Finish, now: float) -> None:
        await tx.execute(
            "UPDATE games SET status = 'finished', outcome = ?, deadline = NULL, reminder_at = NULL, "
            "finished_at = ? WHERE id = ?",
            (json.dumps(finish.outcome), now, game_id),
        )
        header = await tx.fetchrow("SELECT game, guild_id FROM games WHERE id = ?", (game_id,))
        assert header is not None
        await tx.executemany(
            "INSERT INTO results (game_id, seat, user_id, ai_level, game, guild_id, rank, score, "
            "forfeited, won, draw, helped, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    result.seat,
                    result.user_id,
                    result.ai_level,
                    header["game"],
                    header["guild_id"],
                    result.rank,
                    result.score,
                    _flag(result.forfeited),
                    _flag(result.won),
                    _flag(result.draw),
                    _flag(result.helped),
                    now,
                )
                for result in finish.results
            ],
        )

    async def _write_ratings(self, tx: Executor, update: RatingUpdate, now: float) -> None:
        """Store ``update``'s new ratings, reading the current ones in the same transaction.

        A newcomer's row is made first (with the initial rating), then every row is read, locked
        on PostgreSQL, always in the same order: two processes finishing games of the same
        players at once rate one after the other, and neither change is lost."""
        fresh = initial()
        players = sorted(set(update.players))
        await tx.executemany(
            "INSERT INTO ratings (scope_id, game, user_id, mu, sigma, display, rated_games, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 0, ?) ON CONFLICT (scope_id, game, user_id) DO NOTHING",
            [
                (scope, update.game, user_id, fresh.mu, fresh.sigma, fresh.display, now)
                for scope in update.scopes
                for user_id in players
            ],
        )
        for scope in dict.fromkeys(update.scopes):  # a scope named twice is rated once
            rows = await tx.fetch(
                "SELECT user_id, mu, sigma FROM ratings WHERE scope_id = ? AND game = ? AND user_id IN "
                f"({', '.join('?' * len(players))}) ORDER BY user_id{self.database.for_update}",
                (scope, update.game, *players),
            )
            current = {row["user_id"]: Rating(row["mu"], row["sigma"]) for row in rows}
            new = update.apply([current[user_id] for user_id in update.players])
            await tx.executemany(
                "UPDATE ratings SET mu = ?, sigma = ?, display = ?, rated_games = rated_games + 1, "
                "updated_at = ? WHERE scope_id = ? AND game = ? AND user_id = ?",
                [
                    (rating.mu, rating.sigma, rating.display, now, scope, update.game, user_id)
                    for user_id, rating in zip(update.players, new, strict=True)
                ],
            )

    async def set_clock(self, game_id: int, clock: Clock) -> None:
        """Change the pending deadline and reminder of a game."""
        await self._write(
            "UPDATE games SET deadline = ?, reminder_at = ? WHERE id = ?",
            (clock.deadline, clock.reminder_at, game_id),
        )

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        """Remember the thread a game plays in (its boards go there: no other room)."""
        await self._write("UPDATE games SET thread_id = ?, room_id = NULL WHERE id = ?", (thread_id, game_id))

    async def threads_enabled(self, guild_id: int) -> bool:
        """Whether games in this server play in threads (on unless the server turned it off)."""
        threads = await self.database.fetchval(
            "SELECT threads FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return bool(threads) if threads is not None else True

    async def set_threads(self, guild_id: int, enabled: bool) -> None:
        """Turn games in threads on or off for a server."""
        await self._write(
            "INSERT INTO guild_settings (guild_id, threads) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
            (guild_id, _flag(enabled)),
        )

    async def set_message(self, game_id: int, message_id: int) -> None:
        """Remember the last board message of a game (for history links)."""
        await self._write("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id))

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember a lobby's message: the table's message now, and the one its thread is made
        from."""
        await self._write(
            "UPDATE games SET message_id = ?, lobby_message_id = ? WHERE id = ?",
            (message_id, message_id, game_id),
        )

    async def set_room(self, game_id: int, room_id: int | None) -> None:
        """Remember where a game's boards go when that is not its thread (None: its thread)."""
        await self._write("UPDATE games SET room_id = ? WHERE id = ?", (room_id, game_id))

    async def abort(self, game_id: int, now: float) -> bool:
        """Abort a lobby or running game; False when it was not active."""
        changed = await self._write(
            "UPDATE games SET status = 'aborted', deadline = NULL, reminder_at = NULL, finished_at = ?, "
            "updated_at = ? WHERE id = ? AND status IN ('lobby', 'playing')",
            (now, now, game_id),
        )
        return changed == 1

    # -- standings -----------------------------------------------------------------------

    async def leaderboard(
        self,
        game: str,
        guild_id: int | None,
        sort: str,
        *,
        limit: int = 10,
        offset: int = 0,
        season: Season | None = None,
    ) -> tuple[list[LeaderRow], int]:
        """A page of the leaderboard of ``game`` (a server's, or global with ``guild_id`` None)
        sorted by ``rating``, ``wins`` or ``games``; and how many players it has in all. With a
        server's ``season``: the results that finished in it, and its ratings (a past season's
        as they were when it closed)."""
        scope = GLOBAL_SCOPE if guild_id is None else guild_id
        where, params = _results_where(game, guild_id, season)
        ratings, rating_params = _ratings_of(season)
        counts = (
            f"SELECT r.user_id, SUM({COUNTED_WIN}) AS wins, COUNT(*) AS games FROM results r "
            f"WHERE {where} AND r.user_id IS NOT NULL GROUP BY r.user_id"
        )
        if sort == "rating":
            sql = (
                f"SELECT g.user_id, g.display AS rating, c.wins, c.games FROM {ratings} g "
                f"LEFT JOIN ({counts}) c ON c.user_id = g.user_id WHERE g.scope_id = ? AND g.game = ? "
                "ORDER BY g.display DESC, g.user_id LIMIT ? OFFSET ?"
            )
            rows = await self.database.fetch(sql, [*rating_params, *params, scope, game, limit, offset])
            total = await self.database.fetchval(
                f"SELECT COUNT(*) FROM {ratings} g WHERE g.scope_id = ? AND g.game = ?",
                (*rating_params, scope, game),
            )
        else:
            order = "c.wins DESC, c.games DESC" if sort == "wins" else "c.games DESC, c.wins DESC"
            sql = (
                f"SELECT c.user_id, g.display AS rating, c.wins, c.games FROM ({counts}) c "
                f"LEFT JOIN {ratings} g ON g.user_id = c.user_id AND g.scope_id = ? AND g.game = ? "
                f"ORDER BY {order}, c.user_id LIMIT ? OFFSET ?"
            )
            rows = await self.database.fetch(sql, [*params, *rating_params, scope, game, limit, offset])
            total = await self.database.fetchval(f"SELECT COUNT(*) FROM ({counts}) AS players", params)
        return [LeaderRow.from_row(row) for row in rows], int(total)

    async def stats(self, user_id: int, game: str, guild_id: int | None, lower_is_better: bool) -> Stats:
        """``user_id``'s record in ``game`` (one server, or everywhere with ``guild_id`` None)."""
        where, params = _results_where(game, guild_id)
        where += " AND r.user_id = ?"
        params.append(user_id)
        best = "MIN(r.score)" if lower_is_better else "MAX(r.score)"
        totals = await self.database.fetchrow(
            f"SELECT COUNT(*) AS games, SUM({COUNTED_WIN}) AS wins, SUM({HELPED_WIN}) AS helped, "
            f"SUM(r.draw) AS draws, SUM(r.forfeited) AS forfeits, {best} AS best, AVG(r.score) AS average "
            f"FROM results r WHERE {where}",
            params,
        )
        assert totals is not None
        recent = await self.database.fetch(
            f"SELECT {COUNTED_WIN} AS won FROM results r WHERE {where} "
            "ORDER BY r.finished_at DESC, r.game_id DESC LIMIT 500",
            params,
        )
        rating = await self.database.fetchrow(
            "SELECT display, rated_games FROM ratings WHERE scope_id = ? AND game = ? AND user_id = ?",
            (GLOBAL_SCOPE if guild_id is None else guild_id, game, user_id),
        )
        fastest = await self.database.fetchval(
            "SELECT MIN(g.finished_at - g.started_at) FROM results r JOIN games g ON g.id = r.game_id "
            f"WHERE {where} AND r.won = 1 AND r.helped = 0",
            params,
        )
        return Stats(
            games=int(totals["games"]),
            wins=int(totals["wins"] or 0),
            draws=int(totals["draws"] or 0),
            forfeits=int(totals["forfeits"] or 0),
            best=totals["best"],
            average=float(totals["average"]) if totals["average"] is not None else None,
            streak=_streak([bool(row["won"]) for row in recent]),
            rating=rating["display"] if rating else None,
            rated_games=rating["rated_games"] if rating else 0,
            fastest_win=fastest,
            helped=int(totals["helped"] or 0),
        )

    async def solitaire_leaderboard(
        self,
        game: str,
        guild_id: int | None,
        *,
        limit: int = 10,
        offset: int = 0,
        season: Season | None = None,
    ) -> tuple[list[SolverRow], int]:
        """A page of a solitaire game's solvers (one server, or everywhere; in a server's
        ``season``): most distinct variants (targets) solved without help first, then most such
        solves, then the quickest; with each solver's solves with help counted apart. And how
        many solvers there are."""
        where, params = _results_where(game, guild_id, season)
        solved = f"{where} AND r.won = 1 AND r.user_id IS NOT NULL"
        rows = await self.database.fetch(
            "SELECT r.user_id, COUNT(DISTINCT CASE WHEN r.helped = 0 THEN g.variant END) AS targets, "
            f"SUM({COUNTED_WIN}) AS solves, SUM({HELPED_WIN}) AS helped, {FASTEST} AS fastest "
            f"FROM results r JOIN games g ON g.id = r.game_id WHERE {solved} GROUP BY r.user_id "
            f"HAVING SUM({COUNTED_WIN}) > 0 "
            f"ORDER BY targets DESC, solves DESC, {FASTEST} IS NULL, {FASTEST}, r.user_id LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )
        total = await self.database.fetchval(
            f"SELECT COUNT(DISTINCT r.user_id) FROM results r WHERE {solved} AND r.helped = 0", params
        )
        return [SolverRow.from_row(row) for row in rows], int(total)

    async def solved_targets(self, user_id: int, game: str, guild_id: int | None) -> list[SolvedTarget]:
        """The solitaire variants (targets) ``user_id`` solved, each with the solves without
        help, the quickest of them, and the solves with help."""
        where, params = _results_where(game, guild_id)
        rows = await self.database.fetch(
            f"SELECT g.variant AS target, SUM({COUNTED_WIN}) AS solves, SUM({HELPED_WIN}) AS helped, "
            f"{FASTEST} AS fastest "
            f"FROM results r JOIN games g ON g.id = r.game_id WHERE {where} AND r.won = 1 AND r.user_id = ? "
            "AND g.variant IS NOT NULL GROUP BY g.variant ORDER BY g.variant",
            [*params, user_id],
        )
        return [SolvedTarget.from_row(row) for row in rows]

    async def history(self, user_id: int, guild_id: int | None, *, limit: int = 10) -> list[HistoryRow]:
        """``user_id``'s most recent finished games (in one server, or everywhere)."""
        where, params = ("r.user_id = ?", [user_id])
        if guild_id is not None:
            where += " AND r.guild_id = ?"
            params.append(guild_id)
        rows = await self.database.fetch(
            "SELECT r.game_id, r.game, g.guild_id, g.channel_id, g.message_id, r.rank, r.score, "
            "(SELECT COUNT(*) FROM seats s WHERE s.game_id = r.game_id) AS players, "
            "r.won, r.finished_at, r.helped "
            f"FROM results r JOIN games g ON g.id = r.game_id WHERE {where} "
            "ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ?",
            [*params, limit],
        )
        return [HistoryRow.from_row(row) for row in rows]

    # -- user settings -------------------------------------------------------------------

    async def dm_reminders(self, user_id: int) -> bool:
        """Whether the user asked for reminders by direct message."""
        value = await self.database.fetchval(
            "SELECT dm_reminders FROM user_settings WHERE user_id = ?", (user_id,)
        )
        return bool(value)

    async def set_dm_reminders(self, user_id: int, enabled: bool) -> None:
        """Turn reminders by direct message on or off for a user."""
        await self._write(
            "INSERT INTO user_settings (user_id, dm_reminders) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders",
            (user_id, _flag(enabled)),
        )

    # -- the bot's own state ---------------------------------------------------------------

    async def bot_state(self, key: str) -> str | None:
        """A value the bot remembers about itself (the hash of the commands it last synced)."""
        value = await self.database.fetchval("SELECT value FROM bot_state WHERE key = ?", (key,))
        return None if value is None else str(value)

    async def set_bot_state(self, key: str, value: str, now: float) -> None:
        """Remember ``value`` under ``key``."""
        await self._write(
            "INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            (key, value, now),
        )

    # -- server admins' tools ------------------------------------------------------------------
    # Each change an admin makes is written in the same transaction as its line in admin_log.

    @staticmethod
    async def _log(
        tx: Executor, guild_id: int, user_id: int, action: str, details: dict[str, Any], now: float
    ) -> int:
        """Add a line to the server's admin log; its number (1, 2, ... per server)."""
        number = int(
            await tx.fetchval(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM admin_log WHERE guild_id = ?", (guild_id,)
            )
        )
        await tx.execute(
            "INSERT INTO admin_log (guild_id, number, user_id, action, details, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (guild_id, number, user_id, action, json.dumps(details, sort_keys=True), now),
        )
        return number

    async def admin_log(self, guild_id: int, *, limit: int = 15) -> list[LogEntry]:
        """The server's most recent admin actions, newest first."""
        rows = await self.database.fetch(
            "SELECT number, user_id, action, details, created_at, undone_at FROM admin_log "
            "WHERE guild_id = ? ORDER BY number DESC LIMIT ?",
            (guild_id, limit),
        )
        return [LogEntry.from_row(row) for row in rows]

    async def log_entry(self, guild_id: int, number: int) -> LogEntry | None:
        """One line of the server's admin log."""
        row = await self.database.fetchrow(
            "SELECT number, user_id, action, details, created_at, undone_at FROM admin_log "
            "WHERE guild_id = ? AND number = ?",
            (guild_id, number),
        )
        return None if row is None else LogEntry.from_row(row)

    async def _undone(self, tx: Executor, guild_id: int, entry: LogEntry, by: int, now: float) -> int:
        """Mark ``entry`` undone and log the undoing; the new line's number."""
        await tx.execute(
            "UPDATE admin_log SET undone_at = ? WHERE guild_id = ? AND number = ?",
            (now, guild_id, entry.number),
        )
        return await self._log(tx, guild_id, by, "undo", {"undid": entry.number, "action": entry.action}, now)

    async def guild_turn_hours(self, guild_id: int) -> int | None:
        """The server's own default turn clock in hours (0: no clock), or None for the bot's."""
        value = await self.database.fetchval(
            "SELECT turn_hours FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if value is None else int(value)

    async def _set_turn_hours(self, tx: Executor, guild_id: int, hours: int | None) -> None:
        await tx.execute(
            "INSERT INTO guild_settings (guild_id, turn_hours) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET turn_hours = excluded.turn_hours",
            (guild_id, hours),
        )

    async def _threads(self, tx: Executor, guild_id: int) -> bool:
        value = await tx.fetchval("SELECT threads FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return bool(value) if value is not None else True

    async def set_guild_turn_hours(self, guild_id: int, hours: int | None, *, by: int, now: float) -> int:
        """Set the server's default turn clock (None: back to the bot's); logged with the value
        it replaces. The log line's number."""
        async with self.database.transaction() as tx:
            before = await tx.fetchval(
                "SELECT turn_hours FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            await self._set_turn_hours(tx, guild_id, hours)
            return await self._log(tx, guild_id, by, "clock", {"hours": hours, "before": before}, now)

    async def set_threads_logged(self, guild_id: int, enabled: bool, *, by: int, now: float) -> int:
        """:meth:`set_threads`, logged with the value it replaces. The log line's number."""
        async with self.database.transaction() as tx:
            before = await self._threads(tx, guild_id)
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, threads) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
                (guild_id, _flag(enabled)),
            )
            return await self._log(tx, guild_id, by, "threads", {"enabled": enabled, "before": before}, now)

    async def undo_setting(self, guild_id: int, entry: LogEntry, *, by: int, now: float) -> int:
        """Put back what a clock or threads change replaced; the undo's log line."""
        async with self.database.transaction() as tx:
            if entry.action == "clock":
                await self._set_turn_hours(tx, guild_id, entry.details["before"])
            else:
                await tx.execute(
                    "UPDATE guild_settings SET threads = ? WHERE guild_id = ?",
                    (_flag(entry.details["before"]), guild_id),
                )
            return await self._undone(tx, guild_id, entry, by, now)

    async def latest_setting_change(self, guild_id: int, action: str) -> int | None:
        """The number of the last change of that setting (``clock``, ``threads``) not undone."""
        value = await self.database.fetchval(
            "SELECT MAX(number) FROM admin_log WHERE guild_id = ? AND action = ? AND undone_at IS NULL",
            (guild_id, action),
        )
        return None if value is None else int(value)

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, the current one last (a server that never started one has one
        season, since the start)."""
        rows = await self.database.fetch(
            "SELECT number, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY number", (guild_id,)
        )
        return [Season.from_row(row) for row in rows] or [Season(1, 0.0)]

    async def season(self, guild_id: int, number: int | None = None) -> Season | None:
        """One of the server's seasons (None: the current one), or None if it has no such."""
        seasons = await self.seasons(guild_id)
        if number is None:
            return seasons[-1]
        return next((season for season in seasons if season.number == number), None)

    async def start_season(self, guild_id: int, *, by: int, now: float) -> tuple[Season, int]:
        """Close the server's current season, keeping its ratings, and open the next with fresh
        ratings (its leaderboards count only the results that finish from now). The new season
        and the log line's number."""
        async with self.database.transaction() as tx:
            current = await tx.fetchrow(
                "SELECT number FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
            )
            if current is None:
                number = 1
                await tx.execute(
                    "INSERT INTO seasons (guild_id, number, started_at, ended_at) VALUES (?, 1, 0, ?)",
                    (guild_id, now),
                )
            else:
                number = int(current["number"])
                await tx.execute(
                    "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND number = ?",
                    (now, guild_id, number),
                )
            moved = await tx.execute(
                "INSERT INTO season_ratings (guild_id, season, game, user_id, mu, sigma, display, "
                "rated_games, updated_at) SELECT scope_id, ?, game, user_id, mu, sigma, display, "
                "rated_games, updated_at FROM ratings WHERE scope_id = ?",
                (number, guild_id),
            )
            await tx.execute("DELETE FROM ratings WHERE scope_id = ?", (guild_id,))
            await tx.execute(
                "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)",
                (guild_id, number + 1, now),
            )
            logged = await self._log(
                tx, guild_id, by, "season", {"season": number + 1, "ratings": moved}, now
            )
        return Season(number + 1, now), logged

    async def results_since(self, guild_id: int, since: float) -> int:
        """How many results finished in the server since ``since``."""
        return int(
            await self.database.fetchval(
                "SELECT COUNT(*) FROM results WHERE guild_id = ? AND finished_at > ?", (guild_id, since)
            )
        )

    async def undo_season(self, guild_id: int, entry: LogEntry, *, by: int, now: float) -> int:
        """Reopen the season before the current one, with its ratings as they were (only while
        no game has finished in the new season); the undo's log line."""
        number = int(entry.details["season"])
        async with self.database.transaction() as tx:
            await tx.execute("DELETE FROM seasons WHERE guild_id = ? AND number = ?", (guild_id, number))
            await tx.execute("DELETE FROM ratings WHERE scope_id = ?", (guild_id,))
            await tx.execute(
                "INSERT INTO ratings (scope_id, game, user_id, mu, sigma, display, rated_games, updated_at) "
                "SELECT guild_id, game, user_id, mu, sigma, display, rated_games, updated_at "
                "FROM season_ratings WHERE guild_id = ? AND season = ?",
                (guild_id, number - 1),
            )
            await tx.execute(
                "DELETE FROM season_ratings WHERE guild_id = ? AND season = ?", (guild_id, number - 1)
            )
            if number - 1 == 1:  # the first season needs no row of its own
                await tx.execute("DELETE FROM seasons WHERE guild_id = ? AND number = 1", (guild_id,))
            else:
                await tx.execute(
                    "UPDATE seasons SET ended_at = NULL WHERE guild_id = ? AND number = ?",
                    (guild_id, number - 1),
                )
            return await self._undone(tx, guild_id, entry, by, now)

    async def forget_player(
        self, guild_id: int, user_id: int, *, by: int, now: float
    ) -> tuple[Forgotten, int]:
        """Remove a player's data from one server (their request): in the server's games their
        seats become ``FORMER_PLAYER`` without a user, their moves lose their user, their results
        lose their user (the ranks and scores stay, so that the others' games stay whole), their
        ratings and archived season ratings in the server are deleted, and games they hosted keep
        no host. Logged without naming them. Their games must be over or left first."""
        games = "SELECT id FROM games WHERE guild_id = ?"
        async with self.database.transaction() as tx:
            forgotten = Forgotten(
                seats=await tx.execute(
                    f"UPDATE seats SET user_id = NULL, name = ? WHERE user_id = ? AND game_id IN ({games})",
                    (FORMER_PLAYER, user_id, guild_id),
                ),
                moves=await tx.execute(
                    f"UPDATE moves SET user_id = NULL WHERE user_id = ? AND game_id IN ({games})",
                    (user_id, guild_id),
                ),
                results=await tx.execute(
                    "UPDATE results SET user_id = NULL WHERE user_id = ? AND guild_id = ?",
                    (user_id, guild_id),
                ),
                ratings=await tx.execute(
                    "DELETE FROM ratings WHERE user_id = ? AND scope_id = ?", (user_id, guild_id)
                ),
                season_ratings=await tx.execute(
                    "DELETE FROM season_ratings WHERE user_id = ? AND guild_id = ?", (user_id, guild_id)
                ),
                hosted=await tx.execute(
                    "UPDATE games SET host_id = 0 WHERE host_id = ? AND guild_id = ?", (user_id, guild_id)
                ),
            )
            counts = {name: getattr(forgotten, name) for name in forgotten.__dataclass_fields__}
            logged = await self._log(tx, guild_id, by, "forget", counts, now)
        return forgotten, logged


def _results_where(game: str, guild_id: int | None, season: Season | None = None) -> tuple[str, list[Any]]:
    """The condition on ``results r`` for ``game`` in one server (or everywhere), and in one of
    the server's seasons if given."""
    if guild_id is None:
        return "r.game = ?", [game]
    where, params = "r.game = ? AND r.guild_id = ?", [game, guild_id]
    if season is not None:  # a result finished at the very instant a season started is the old one's
        where += " AND r.finished_at > ?"
        params.append(season.started_at)
        if season.ended_at is not None:
            where += " AND r.finished_at <= ?"
            params.append(season.ended_at)
    return where, params


def _ratings_of(season: Season | None) -> tuple[str, list[Any]]:
    """Where the ratings of a leaderboard are (``scope_id, game, user_id, display``): the live
    ratings, or a past season's as they were when it closed."""
    if season is None or season.current:
        return "ratings", []
    return (
        "(SELECT guild_id AS scope_id, game, user_id, display FROM season_ratings WHERE season = ?)",
        [season.number],
    )


async def _built(rows: Sequence[Any], build: Callable[[Any], T]) -> list[T]:
    """``build`` of every row, letting the event loop run every :data:`ROWS_AT_A_TIME` rows."""
    built = []
    for start in range(0, len(rows), ROWS_AT_A_TIME):
        if start:
            await asyncio.sleep(0)
        built += [build(row) for row in rows[start : start + ROWS_AT_A_TIME]]
    return built


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

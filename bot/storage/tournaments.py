"""The tournament queries, on SQLite or PostgreSQL, mixed into :class:`bot.storage.Storage`.

Tables (migration 0011): ``tournaments`` (the rules and where it stands), ``tournament_entrants``,
``tournament_rounds`` (byes and deadlines), ``tournament_tables`` (seats, the game played, the
result) and ``tournament_adjustments`` (results the organiser changed: who, when, why).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.shards import Shards
from bot.storage.engines import Database
from bot.storage.rows import GameRow, Row, TournamentHistoryRow
from bot.tournaments.model import (
    Adjustment,
    Entrant,
    Format,
    Phase,
    Plan,
    Round,
    Rules,
    Table,
    TableResult,
    Tournament,
)

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, name, game, options, format, rounds, table_size, "
    "turn_seconds, round_seconds, max_entrants, status, seed, closes_at, round, schedule, message_id, "
    "created_at, started_at, finished_at"
)
ENTRANT_COLUMNS = "number, user_id, name, ai_level, seed, withdrawn_round"


class TournamentStore:
    """The tournament queries (mixed into :class:`Storage`)."""

    database: Database

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        rules: Rules,
        min_table: int,
        seed: int,
        closes_at: float | None,
        now: float,
    ) -> int:
        """Store a new tournament in sign-up; its id."""
        async with self.database.transaction() as tx:
            tournament_id = await tx.fetchval(
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, game, options, format, "
                "rounds, table_size, turn_seconds, round_seconds, max_entrants, status, seed, closes_at, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    organiser_id,
                    name,
                    rules.game,
                    json.dumps({**rules.options, "_min_table": min_table}, sort_keys=True),
                    rules.format.value,
                    rules.rounds,
                    rules.table_size,
                    rules.turn_seconds,
                    rules.round_seconds,
                    rules.max_entrants,
                    seed,
                    closes_at,
                    now,
                ),
            )
        return int(tournament_id)

    async def tournament(self, tournament_id: int) -> Tournament | None:
        """The whole tournament: its row, entrants, rounds, tables and adjustments."""
        row = await self.database.fetchrow(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        if row is None:
            return None
        entrants = await self.database.fetch(
            f"SELECT {ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = ? ORDER BY number",
            (tournament_id,),
        )
        rounds = await self.database.fetch(
            "SELECT number, byes, started_at, deadline, finished_at FROM tournament_rounds "
            "WHERE tournament_id = ? ORDER BY number",
            (tournament_id,),
        )
        tables = await self.database.fetch(
            "SELECT id, round, number, seats, game_id, result FROM tournament_tables "
            "WHERE tournament_id = ? ORDER BY round, number",
            (tournament_id,),
        )
        adjustments = await self.database.fetch(
            "SELECT table_id, user_id, made_at, reason, before, after FROM tournament_adjustments "
            "WHERE tournament_id = ? ORDER BY id",
            (tournament_id,),
        )
        options = _loads(row["options"]) or {}
        min_table = int(options.pop("_min_table", 2))
        rules = Rules(
            game=row["game"],
            format=Format(row["format"]),
            rounds=row["rounds"],
            table_size=row["table_size"],
            min_table=min_table,
            turn_seconds=row["turn_seconds"],
            round_seconds=row["round_seconds"],
            max_entrants=row["max_entrants"],
            options=options,
        )
        schedule = _loads(row["schedule"]) or []
        return Tournament(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            organiser_id=row["organiser_id"],
            name=row["name"],
            rules=rules,
            phase=Phase(row["status"]),
            seed=row["seed"],
            created_at=row["created_at"],
            closes_at=row["closes_at"],
            round=row["round"],
            message_id=row["message_id"],
            started_at=row["started_at"],
            finished_at=row["finished_at"],
            schedule=tuple(Plan.from_dict(plan) for plan in schedule),
            entrants=tuple(Entrant(**dict(_items(e, ENTRANT_COLUMNS))) for e in entrants),
            rounds=tuple(
                Round(r["number"], tuple(_loads(r["byes"])), r["started_at"], r["deadline"], r["finished_at"])
                for r in rounds
            ),
            tables=tuple(
                Table(
                    t["id"],
                    t["round"],
                    t["number"],
                    tuple(_loads(t["seats"])),
                    t["game_id"],
                    TableResult.from_dict(_loads(t["result"])) if t["result"] is not None else None,
                )
                for t in tables
            ),
            adjustments=tuple(
                Adjustment(
                    a["table_id"],
                    a["user_id"],
                    a["made_at"],
                    a["reason"],
                    TableResult.from_dict(_loads(a["before"])) if a["before"] is not None else None,
                    TableResult.from_dict(_loads(a["after"])),
                )
                for a in adjustments
            ),
        )

    async def active_tournaments(self, shards: Shards | None = None) -> list[int]:
        """The ids of the tournaments in sign-up, running or paused (of the servers on
        ``shards``, or all)."""
        sql = "SELECT id FROM tournaments WHERE status IN ('signup', 'running', 'paused')"
        params: list[Any] = []
        if shards is not None:
            ids = sorted(shards.ids)
            sql += f" AND ((guild_id >> 22) % ?) IN ({', '.join('?' * len(ids))})"
            params = [shards.count, *ids]
        return [row["id"] for row in await self.database.fetch(sql + " ORDER BY id", params)]

    async def add_entrant(
        self, tournament_id: int, *, user_id: int | None, name: str, ai_level: str | None, now: float
    ) -> int | None:
        """Sign someone up (the next number); None when sign-up is closed or full. Raises
        :class:`UniqueViolation` when that member is signed up already."""
        async with self.database.transaction() as tx:
            open_row = await tx.fetchrow(
                "SELECT max_entrants, (SELECT COUNT(*) FROM tournament_entrants e "
                "WHERE e.tournament_id = t.id) AS entrants, (SELECT COALESCE(MAX(number), 0) "
                "FROM tournament_entrants e "
                f"WHERE e.tournament_id = t.id) AS last FROM tournaments t WHERE id = ? AND status = 'signup'"
                f"{self.database.for_update}",
                (tournament_id,),
            )
            if open_row is None or open_row["entrants"] >= open_row["max_entrants"]:
                return None
            number = int(open_row["last"]) + 1
            await tx.execute(
                "INSERT INTO tournament_entrants (tournament_id, number, user_id, name, ai_level, joined_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (tournament_id, number, user_id, name, ai_level, now),
            )
        return number

    async def remove_entrant(self, tournament_id: int, number: int) -> bool:
        """Take an entrant off a tournament still in sign-up; False when it is not."""
        async with self.database.transaction() as tx:
            changed = await tx.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND number = ? AND tournament_id IN "
                "(SELECT id FROM tournaments WHERE status = 'signup')",
                (tournament_id, number),
            )
        return changed == 1

    async def start_tournament(
        self,
        tournament_id: int,
        *,
        seeds: Mapping[int, int],
        rounds: int,
        schedule: Sequence[Plan],
        now: float,
    ) -> bool:
        """Close sign-up: the entrants' seeds, the number of rounds and a round robin's schedule;
        False when it had left sign-up already."""
        async with self.database.transaction() as tx:
            changed = await tx.execute(
                "UPDATE tournaments SET status = 'running', rounds = ?, schedule = ?, started_at = ?, "
                "closes_at = NULL WHERE id = ? AND status = 'signup'",
                (rounds, json.dumps([plan.to_dict() for plan in schedule]), now, tournament_id),
            )
            if changed != 1:
                return False
            await tx.executemany(
                "UPDATE tournament_entrants SET seed = ? WHERE tournament_id = ? AND number = ?",
                [(seed, tournament_id, number) for number, seed in seeds.items()],
            )
        return True

    async def open_round(
        self,
        tournament_id: int,
        number: int,
        *,
        tables: Sequence[tuple[tuple[int, ...], TableResult | None]],
        byes: Sequence[int],
        now: float,
        deadline: float | None,
    ) -> list[int]:
        """Store a round and its tables (seats, and the result where no game is played) in one
        transaction; the tables' ids in order."""
        ids = []
        async with self.database.transaction() as tx:
            await tx.execute(
                "INSERT INTO tournament_rounds (tournament_id, number, byes, started_at, deadline) "
                "VALUES (?, ?, ?, ?, ?)",
                (tournament_id, number, json.dumps(list(byes)), now, deadline),
            )
            for index, (seats, result) in enumerate(tables, start=1):
                table_id = await tx.fetchval(
                    "INSERT INTO tournament_tables (tournament_id, round, number, seats, result) "
                    "VALUES (?, ?, ?, ?, ?) RETURNING id",
                    (
                        tournament_id,
                        number,
                        index,
                        json.dumps(list(seats)),
                        json.dumps(result.to_dict()) if result is not None else None,
                    ),
                )
                ids.append(int(table_id))
            await tx.execute("UPDATE tournaments SET round = ? WHERE id = ?", (number, tournament_id))
        return ids

    async def set_table_game(self, table_id: int, game_id: int) -> None:
        """Link a table to the game played at it."""
        async with self.database.transaction() as tx:
            await tx.execute("UPDATE tournament_tables SET game_id = ? WHERE id = ?", (game_id, table_id))

    async def set_table_result(self, table_id: int, result: TableResult) -> bool:
        """Record a table's result once; False when it had one already."""
        async with self.database.transaction() as tx:
            changed = await tx.execute(
                "UPDATE tournament_tables SET result = ? WHERE id = ? AND result IS NULL",
                (json.dumps(result.to_dict()), table_id),
            )
        return changed == 1

    async def adjust_result(
        self,
        tournament_id: int,
        table_id: int,
        *,
        before: TableResult | None,
        after: TableResult,
        user_id: int,
        reason: str,
        now: float,
    ) -> None:
        """Change a table's result and record who did it, when and why, in one transaction."""
        async with self.database.transaction() as tx:
            await tx.execute(
                "UPDATE tournament_tables SET result = ? WHERE id = ?",
                (json.dumps(after.to_dict()), table_id),
            )
            await tx.execute(
                "INSERT INTO tournament_adjustments (tournament_id, table_id, user_id, made_at, reason, "
                "before, after) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    tournament_id,
                    table_id,
                    user_id,
                    now,
                    reason,
                    json.dumps(before.to_dict()) if before is not None else None,
                    json.dumps(after.to_dict()),
                ),
            )

    async def finish_round(self, tournament_id: int, number: int, now: float) -> bool:
        """Mark a round finished; False when it was already."""
        async with self.database.transaction() as tx:
            changed = await tx.execute(
                "UPDATE tournament_rounds SET finished_at = ? WHERE tournament_id = ? AND number = ? "
                "AND finished_at IS NULL",
                (now, tournament_id, number),
            )
        return changed == 1

    async def set_tournament_status(
        self, tournament_id: int, status: str, *, expect: Sequence[str], now: float | None = None
    ) -> bool:
        """Move a tournament from one of ``expect`` to ``status`` (``finished_at`` set when
        ``now`` is given); False when it was not in one of them."""
        marks = ", ".join("?" for _ in expect)
        async with self.database.transaction() as tx:
            changed = await tx.execute(
                f"UPDATE tournaments SET status = ?, finished_at = COALESCE(?, finished_at), closes_at = "
                f"CASE WHEN ? = 'signup' THEN closes_at ELSE NULL END WHERE id = ? AND status IN ({marks})",
                (status, now, status, tournament_id, *expect),
            )
        return changed == 1

    async def finish_tournament(
        self, tournament_id: int, final: Sequence[tuple[int, int, float]], now: float
    ) -> bool:
        """Finish a tournament with each entrant's ``(number, rank, points)``; False when it was
        not running."""
        async with self.database.transaction() as tx:
            changed = await tx.execute(
                "UPDATE tournaments SET status = 'finished', finished_at = ? "
                "WHERE id = ? AND status = 'running'",
                (now, tournament_id),
            )
            if changed != 1:
                return False
            await tx.executemany(
                "UPDATE tournament_entrants SET final_rank = ?, final_points = ? WHERE tournament_id = ? "
                "AND number = ?",
                [(rank, points, tournament_id, number) for number, rank, points in final],
            )
        return True

    async def withdraw_entrant(self, tournament_id: int, number: int, round_number: int) -> bool:
        """Withdraw an entrant from ``round_number`` on; False when they had withdrawn."""
        async with self.database.transaction() as tx:
            changed = await tx.execute(
                "UPDATE tournament_entrants SET withdrawn_round = ? WHERE tournament_id = ? AND number = ? "
                "AND withdrawn_round IS NULL",
                (round_number, tournament_id, number),
            )
        return changed == 1

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the sign-up message."""
        async with self.database.transaction() as tx:
            await tx.execute(
                "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
            )

    async def tournament_role(self, guild_id: int) -> int | None:
        """The role (besides Manage Server) that may run tournaments in a server."""
        value = await self.database.fetchval(
            "SELECT tournament_role FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return int(value) if value is not None else None

    async def set_tournament_role(self, guild_id: int, role_id: int | None) -> None:
        """Choose (or, with None, clear) the role that may run tournaments in a server."""
        async with self.database.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, tournament_role) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET tournament_role = excluded.tournament_role",
                (guild_id, role_id),
            )

    async def ratings_of(self, game: str, scope_id: int, user_ids: Sequence[int]) -> dict[int, float]:
        """The displayed ratings of some players in one game and scope (the unrated are left out)."""
        if not user_ids:
            return {}
        rows = await self.database.fetch(
            "SELECT user_id, display FROM ratings WHERE scope_id = ? AND game = ? AND user_id IN "
            f"({', '.join('?' * len(user_ids))})",
            (scope_id, game, *user_ids),
        )
        return {row["user_id"]: float(row["display"]) for row in rows}

    async def tournament_history(
        self, user_id: int, guild_id: int | None, *, limit: int = 5
    ) -> list[TournamentHistoryRow]:
        """The finished tournaments ``user_id`` played (in one server, or everywhere), newest first."""
        where, params = "e.user_id = ? AND t.status = 'finished'", [user_id]
        if guild_id is not None:
            where += " AND t.guild_id = ?"
            params.append(guild_id)
        rows = await self.database.fetch(
            "SELECT t.id, t.name, t.game, t.format, t.guild_id, t.channel_id, t.finished_at, e.final_rank, "
            "e.final_points, (SELECT COUNT(*) FROM tournament_entrants x WHERE x.tournament_id = t.id) AS "
            f"entrants FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id WHERE {where} "
            "ORDER BY t.finished_at DESC, t.id DESC LIMIT ?",
            [*params, limit],
        )
        return [TournamentHistoryRow.from_row(row) for row in rows]

    async def last_tournament(self, guild_id: int, channel_id: int) -> int | None:
        """The newest tournament of a channel that was not called off (finished ones too)."""
        value = await self.database.fetchval(
            "SELECT id FROM tournaments WHERE guild_id = ? AND channel_id = ? AND status <> 'cancelled' "
            "ORDER BY id DESC LIMIT 1",
            (guild_id, channel_id),
        )
        return int(value) if value is not None else None

    async def game_in_table(self, channel_id: int, game: str, table_key: int) -> GameRow | None:
        """The active game a tournament table started (found by its table key)."""
        row = await self.database.fetchrow(
            f"SELECT {GameRow.COLUMNS} FROM games WHERE channel_id = ? AND game = ? AND table_key = ? "
            "AND status IN ('lobby', 'playing') ORDER BY id DESC LIMIT 1",
            (channel_id, game, table_key),
        )
        return GameRow.from_row(row) if row else None


def _loads(value: Any) -> Any:
    """A JSON column's value (both engines hand JSON over as text)."""
    return json.loads(value) if isinstance(value, str) else value


def _items(row: Row, columns: str) -> list[tuple[str, Any]]:
    return [(name, row[name]) for name in (c.strip() for c in columns.split(","))]

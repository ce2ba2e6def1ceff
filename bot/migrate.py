"""``python -m bot migrate-db --from data/tilehost.db --to postgresql://...``: move an instance.

Copies every game, seat, move, result, rating and user setting from one Tilehost database to
another (typically the SQLite file to a PostgreSQL server), ids included, in one transaction on
the target. Then it checks that every table holds as many rows on both sides and that every
game's record reads back the same and replays to what is stored (the ply and seat to act of a
running game, the scores and ranks of a finished one). It refuses a target that holds data.

The source is migrated to the current schema first (as the bot does when it starts); stop the
bot while this runs, and start it on the new database afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.status import Status
from bot.storage import GameRow, Storage
from bot.storage.engines import DATA_TABLES, TABLE_KEYS, Database
from games import records, registry
from games.errors import GameError

BATCH = 5_000
"""Rows read and written at a time."""


class MigrationRefused(Exception):
    """The target cannot take the copy (it holds data); nothing was written."""


class CopyMismatch(Exception):
    """The copy does not hold what the source holds; the target transaction was rolled back."""


@dataclass
class CopyReport:
    """What was copied, and the games whose record does not replay to what is stored."""

    counts: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


async def copy_database(source: str, target: str, *, say: Callable[[str], None] = print) -> CopyReport:
    """Copy the database ``source`` into the empty database ``target`` and verify the copy."""
    started = time.perf_counter()
    origin = await Storage.open(source)
    destination = await Storage.open(target, migrate=False)
    try:
        if await destination.database.holds_data():
            raise MigrationRefused(
                "the target database already holds Tilehost data; migrate-db only copies into an empty "
                "database (create a new one, or drop this one's tables first)."
            )
        await destination.migrate()
        report = CopyReport()
        report.counts = await _copy_tables(origin.database, destination.database, say)
        say(f"copied {', '.join(f'{count} {table}' for table, count in report.counts.items())}")
        await _verify_records(origin, destination, report)
        say(f"verified {report.replayed} game records: same on both sides, and each replays as stored")
    finally:
        await origin.close()
        await destination.close()
    report.seconds = time.perf_counter() - started
    return report


async def _copy_tables(source: Database, target: Database, say: Callable[[str], None]) -> dict[str, int]:
    """Copy every data table in one target transaction; the row counts must then agree."""
    counts: dict[str, int] = {}
    async with target.transaction() as tx:
        for table in DATA_TABLES:
            columns = await source.columns(table)
            names = ", ".join(columns)
            order = ", ".join(TABLE_KEYS[table])
            insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})"
            copied = 0
            while True:
                rows = await source.fetch(
                    f"SELECT {names} FROM {table} ORDER BY {order} LIMIT ? OFFSET ?", (BATCH, copied)
                )
                if not rows:
                    break
                await tx.executemany(insert, [tuple(row[name] for name in columns) for row in rows])
                copied += len(rows)
            there = await tx.fetchval(f"SELECT COUNT(*) FROM {table}")
            here = await source.fetchval(f"SELECT COUNT(*) FROM {table}")
            if not here == there == copied:
                raise CopyMismatch(f"{table}: {here} rows in the source, {there} in the target")
            counts[table] = copied
            say(f"  {table}: {copied}")
        await target.reset_ids(tx)
    return counts


async def _verify_records(source: Storage, target: Storage, report: CopyReport) -> None:
    """Every game's record is the same on both sides and replays to what the target stores."""
    for row in await target.database.fetch("SELECT id FROM games ORDER BY id"):
        game_id = row["id"]
        here, there = await _record(source, game_id), await _record(target, game_id)
        if here != there:
            raise CopyMismatch(f"game {game_id}: the copied record differs from the source's")
        stored = await target.game(game_id)
        assert stored is not None and there is not None
        problem = _replay_problem(stored, there[1])
        if problem is not None:
            report.problems.append(f"game {game_id} ({stored.game}, {stored.status}): {problem}")
        report.replayed += 1


async def _record(storage: Storage, game_id: int) -> tuple[GameRow, records.Record] | None:
    row = await storage.game(game_id)
    if row is None:
        return None
    seats = await storage.seats(game_id)
    record = records.Record(
        row.game,
        row.options,
        tuple(seat.name for seat in seats),
        row.seed,
        row.deal,
        tuple(records.RecordedMove(move.seat, move.notation) for move in await storage.moves(game_id)),
    )
    return row, record


def _replay_problem(row: GameRow, record: records.Record) -> str | None:
    """Why ``record`` does not replay to the stored game ``row``, or None."""
    if row.status is Status.LOBBY or (row.status is Status.ABORTED and not record.moves):
        return None
    try:
        registry.get(row.game)
        final = records.replay(record).final
    except GameError as error:
        return f"does not replay ({error})"
    game = registry.get(row.game)
    outcome = game.outcome(final)
    if row.status is Status.PLAYING:
        snapshot = row.snapshot or {}
        if outcome is not None:
            return "replays to a finished game, but it is stored as playing"
        if row.ply != len(record.moves) or snapshot.get("to_act") != game.to_act(final):
            seat = game.to_act(final)
            who = record.players[seat] if seat is not None else "nobody"
            return f"replays to ply {len(record.moves)} with {who} to act; stored differently"
    if row.status is Status.FINISHED:
        stored: dict[str, Any] = row.outcome or {}
        if outcome is None:
            return "replays to a running game, but it is stored as finished"
        if list(outcome.scores) != stored.get("scores") or list(outcome.ranks) != stored.get("ranks"):
            return f"replays to scores {list(outcome.scores)}, stored {stored.get('scores')}"
    return None


def main(argv: list[str]) -> int:
    """The ``migrate-db`` command; exit 0 when copied and verified, 1 when a record does not
    replay as stored, 2 when refused."""
    parser = argparse.ArgumentParser(prog="python -m bot migrate-db", description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="source", required=True, help="the database to copy (a SQLite file)")
    parser.add_argument("--to", dest="target", required=True, help="the empty database (postgresql://...)")
    options = parser.parse_args(argv)
    try:
        report = asyncio.run(copy_database(options.source, options.target))
    except (MigrationRefused, CopyMismatch) as error:
        print(f"migrate-db: {error}", file=sys.stderr)
        return 2
    for problem in report.problems:
        print(f"migrate-db: {problem}", file=sys.stderr)
    print(f"done in {report.seconds:.1f} s")
    return 1 if report.problems else 0

"""``python -m bot migrate-db --from data/tilehost.db --to postgresql://...``: move an instance.

Copies every game, seat, move, result, rating, user and server setting from one Tilehost
database to another (typically the SQLite file to a PostgreSQL server), ids included, in one
transaction on the target. Then it checks that every table holds as many rows on both sides and
that every game's record reads back the same and replays to what is stored (the ply and seat to
act of a running game, the scores and ranks of a finished one).

It refuses a source that does not exist or holds no Tilehost data (a mistyped ``--from``), and
a target that holds data; it closes every connection whatever happens, and exits non-zero when
anything differs. The source is migrated to the current schema first (as the bot does when it
starts); stop the bot while this runs, and start it on the new database afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.settings import is_postgres, mask
from bot.status import Status
from bot.storage import GameRow, Storage
from bot.storage.engines import DATA_TABLES, TABLE_KEYS, Database
from games import records, registry
from games.errors import GameError

DESCRIPTION = (
    "Copy every game, seat, move, result, rating and setting from one Tilehost database to another, "
    "empty one (a SQLite file to PostgreSQL, say), ids included, in one transaction; then check that "
    "every table holds as many rows on both sides and that every game replays as stored. Stop the bot "
    "first. Exit 0: copied and checked; 1: something differs; 2: refused (a missing or empty source, a "
    "target with data), nothing written; 3: a database cannot be reached."
)
NOT_COPIED = frozenset({"schema_migrations", "bot_state"})
"""Tables that are not data: the migrations the target applies itself, and the bot's own state
(the hash of the commands it synced; the first start on the new database syncs once more)."""

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
    """Copy the database ``source`` into the empty database ``target`` and verify the copy;
    every connection is closed when this returns or raises."""
    started = time.perf_counter()
    await asyncio.to_thread(_refuse_files, source, target)
    async with AsyncExitStack() as connections:
        origin = await Storage.open(source, migrate=False)
        connections.push_async_callback(origin.close)
        if not await holds_data(origin.database):
            raise MigrationRefused(
                f"the source database {mask(source)} holds no Tilehost data (check --from); "
                "nothing was copied."
            )
        await origin.migrate()
        destination = await Storage.open(target, migrate=False)
        connections.push_async_callback(destination.close)
        if await holds_data(destination.database):
            raise MigrationRefused(
                "the target database already holds Tilehost data; migrate-db only copies into an empty "
                "database (create a new one, or drop this one's tables first)."
            )
        unknown = await destination.database.tables() | await origin.database.tables()
        unknown -= set(DATA_TABLES) | NOT_COPIED
        await destination.migrate()
        report = CopyReport()
        report.counts = await _copy_tables(origin.database, destination.database, say)
        say(f"copied {', '.join(f'{count} {table}' for table, count in report.counts.items())}")
        report.problems += await compare_counts(origin.database, destination.database, say)
        report.problems += [
            f"table {table} is not copied by this version of migrate-db" for table in sorted(unknown)
        ]
        await _verify_records(origin, destination, report)
        say(f"verified {report.replayed} game records: same on both sides, and each replays as stored")
    report.seconds = time.perf_counter() - started
    return report


def _refuse_files(source: str, target: str) -> None:
    """Refuse a SQLite source that does not exist (a mistyped ``--from`` would otherwise be
    created empty), and a source that is the target."""
    if is_postgres(source):
        return
    if not Path(source).is_file():
        raise MigrationRefused(f"there is no database at {source} (check --from); nothing was copied.")
    if not is_postgres(target) and Path(source).resolve() == Path(target).resolve():
        raise MigrationRefused("--from and --to name the same database; nothing was copied.")


async def holds_data(database: Database) -> bool:
    """True when any data table exists and has a row."""
    present = await database.tables()
    for table in DATA_TABLES:
        if table in present and await database.fetchval(f"SELECT COUNT(*) FROM {table}"):
            return True
    return False


async def compare_counts(source: Database, target: Database, say: Callable[[str], None]) -> list[str]:
    """After the copy is committed: every table's rows on both sides (one line each); the tables
    whose counts differ (a bot still writing to the source, say)."""
    differences = []
    say(f"  {'table':<16}{'source':>10}{'target':>10}")
    for table in DATA_TABLES:
        here = int(await source.fetchval(f"SELECT COUNT(*) FROM {table}"))
        there = int(await target.fetchval(f"SELECT COUNT(*) FROM {table}"))
        say(f"  {table:<16}{here:>10}{there:>10}{'' if here == there else '   <- differs'}")
        if here != there:
            differences.append(
                f"{table}: {here} rows in the source, {there} in the target (was the bot still running?)"
            )
    return differences


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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``migrate-db`` options."""
    parser.add_argument(
        "--from",
        dest="source",
        required=True,
        help="the database to copy: a SQLite file, or a postgresql:// URL",
    )
    parser.add_argument(
        "--to",
        dest="target",
        required=True,
        help="the empty database: postgresql://... (or a new SQLite file)",
    )


def run(options: argparse.Namespace) -> int:
    """The ``migrate-db`` command; exit 0 when copied and verified, 1 when anything differs (a
    table's rows, a record that does not replay as stored), 2 when refused (nothing written),
    3 when a database cannot be reached."""
    try:
        report = asyncio.run(copy_database(options.source, options.target))
    except (MigrationRefused, CopyMismatch) as error:
        print(f"migrate-db: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # a database out of reach, a refused password: one line, no traceback
        reason = mask(" ".join(str(error).split())[:300]) or type(error).__name__
        print(
            f"migrate-db: a database cannot be used ({type(error).__name__}: {reason}); nothing was copied. "
            f"Check --from {mask(options.source)} and --to {mask(options.target)}.",
            file=sys.stderr,
        )
        return 3
    for problem in report.problems:
        print(f"migrate-db: {problem}", file=sys.stderr)
    if report.problems:
        print(
            f"migrate-db: the copy differs from the source: do not switch to {mask(options.target)}",
            file=sys.stderr,
        )
        return 1
    print(f"done in {report.seconds:.1f} s: every table and game checked")
    return 0


def main(argv: list[str]) -> int:
    """``migrate-db`` with its own arguments (``python -m bot migrate-db`` parses them itself)."""
    parser = argparse.ArgumentParser(prog="python -m bot migrate-db", description=DESCRIPTION)
    add_arguments(parser)
    return run(parser.parse_args(argv))

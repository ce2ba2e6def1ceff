"""Moves through the session service on SQLite and on PostgreSQL with 1, 2 and 4 processes.

Run: ``.venv/bin/python bench/bench_storage.py [--games 16] [--moves 40] [--concurrent 1 8]
[--processes 1 2 4]`` (``--postgres URL`` to use a server of your own instead of the one started
here with pgserver, at PostgreSQL's default durability).

Each worker process runs a :class:`bot.sessions.SessionService` as a bot process would, on its
own shards of one database: it opens Tri-Ominos games in servers of its shards and plays them,
``--concurrent`` games at a time, both seats taking the first legal move, each move a ``play``
that is stored before it returns. Figures: moves per second over all processes, and the commit
time of a move (``Storage.record_moves``: waiting for the connection, then the transaction with
the move's row and the forced turns' after it, snapshot and clock) at the median and the 99th
percentile. With one game at a time that is the bare commit; with several, it includes the
wait for the writer (SQLite: one writer thread per process, which commits the moves waiting
together, WAL, ``synchronous = FULL``: a commit waits for the disk) or the pool (PostgreSQL:
one call per move). PostgreSQL runs as configured (a commit waits for its WAL to reach the
disk) and with ``synchronous_commit=off`` set in the URL (a crash may lose the last fraction
of a second of commits, never corrupts).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.sessions import Session, SessionService, Status
from bot.shards import Shards
from bot.storage import Storage
from tests.support.postgres import PostgresServer, PostgresUnavailable

GAME = "triominos"
PLAYERS = (1, 2)


def guild_on(shard: int, shard_count: int, index: int) -> int:
    """The ``index``-th server id that lands on ``shard``."""
    return (index * shard_count + shard + 1) << 22


async def play_game(service: SessionService, session: Session, moves: int) -> int:
    """Both seats take the first legal move, ``moves`` times or to the end; moves played."""
    played = 0
    while played < moves and session.status is Status.PLAYING:
        seat = session.seat_to_act()
        assert seat is not None and seat.user_id is not None
        move = session.game.legal_moves(session.state)[0]
        await service.play(session, seat.user_id, session.game.format_move(session.state, move))
        played += 1
    return played


async def worker_run(
    database: str, shard: int, shard_count: int, games: int, moves: int, concurrent: int
) -> dict[str, Any]:
    """One process: its games opened (not timed), then played concurrently (timed)."""
    storage = await Storage.open(database)
    commits: list[float] = []
    record_moves = storage.record_moves

    async def timed_record_moves(*args: Any, **kwargs: Any) -> None:
        start = time.perf_counter()
        await record_moves(*args, **kwargs)
        commits.append(time.perf_counter() - start)

    storage.record_moves = timed_record_moves  # type: ignore[method-assign]
    service = SessionService(
        storage,
        now=time.time,
        seed_source=iter(range(1, 10**6)).__next__,
        shards=Shards(frozenset({shard}), shard_count),
    )
    tables = []
    for index in range(games):
        guild = guild_on(shard, shard_count, index)
        session = await service.create(
            GAME, guild_id=guild, channel_id=guild + 1, user_id=PLAYERS[0], name="ann"
        )
        await service.join(session, PLAYERS[1], "ben")
        await service.start(session, PLAYERS[0])
        tables.append(session)
    gate = asyncio.Semaphore(concurrent)

    async def one_game(session: Session) -> int:
        async with gate:
            return await play_game(service, session, moves)

    start = time.perf_counter()
    played = await asyncio.gather(*(one_game(session) for session in tables))
    seconds = time.perf_counter() - start
    for session in tables:
        if session.status is Status.PLAYING:  # frees the channel for the next run on the same database
            await service.abort(session, PLAYERS[0])
    await service.close()
    await storage.close()
    return {"moves": sum(played), "seconds": seconds, "commits": commits}


def worker(database: str, shard: int, shard_count: int, plan: tuple[int, int, int], results: Any) -> None:
    results.put(asyncio.run(worker_run(database, shard, shard_count, *plan)))


def run(database: str, processes: int, plan: tuple[int, int, int]) -> dict[str, float]:
    """Run ``processes`` workers on ``database``; the combined figures."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    workers = [
        context.Process(target=worker, args=(database, shard, processes, plan, results))
        for shard in range(processes)
    ]
    for process in workers:
        process.start()
    outcomes = [results.get() for _ in workers]
    for process in workers:
        process.join()
    commits = sorted(c for outcome in outcomes for c in outcome["commits"])
    total = sum(outcome["moves"] for outcome in outcomes)
    return {
        "moves": total,
        "per_second": total / max(outcome["seconds"] for outcome in outcomes),
        "p50": statistics.median(commits) * 1000,
        "p99": commits[min(len(commits) - 1, int(len(commits) * 0.99))] * 1000,
    }


def show(label: str, figures: dict[str, float]) -> None:
    print(
        f"{label:44s} {figures['moves']:6.0f} moves  {figures['per_second']:7.0f} moves/s  "
        f"commit p50 {figures['p50']:6.2f} ms  p99 {figures['p99']:7.2f} ms",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16, help="games per process")
    parser.add_argument("--moves", type=int, default=40, help="moves per game (at most)")
    parser.add_argument("--concurrent", type=int, nargs="+", default=[1, 8], help="games at a time")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--postgres", help="a PostgreSQL URL (default: a server started here)")
    parser.add_argument(
        "--synchronous-commit", nargs="+", default=["on", "off"], help="PostgreSQL's commit modes to run"
    )
    options = parser.parse_args()
    plans = [(options.games, options.moves, concurrent) for concurrent in options.concurrent]
    for plan in plans:
        with tempfile.TemporaryDirectory() as folder:
            show(f"sqlite, 1 process, {plan[2]} at a time", run(str(Path(folder) / "bench.db"), 1, plan))
    server = None
    if options.postgres is None:
        try:
            server = PostgresServer.start(durable=True)
        except PostgresUnavailable as error:
            print(f"PostgreSQL skipped: {error}")
            return
    try:
        for mode in options.synchronous_commit:
            for plan in plans:
                for processes in options.processes:
                    if server is not None:
                        database = asyncio.run(server.new_database(f"bench{processes}"))
                    else:
                        database = options.postgres
                    separator = "&" if "?" in database else "?"
                    label = f"postgresql {mode}, {processes} process{'es' if processes > 1 else ''}, "
                    label += f"{plan[2]} at a time"
                    show(label, run(f"{database}{separator}synchronous_commit={mode}", processes, plan))
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()

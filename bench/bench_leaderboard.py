"""Leaderboard, stats and history queries on a database of 100 000 results.

Run: ``.venv/bin/python bench/bench_leaderboard.py [--results N]``. Prints the median time of
each query (aim: under 20 ms each), measured through :class:`bot.storage.Storage` as the bot
calls it. The data is written straight into the SQLite file (storage has no bulk loaders).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import Storage

GAMES = ("geominos", "triominos", "geronimos", "puzzominos", "tileup")
GUILDS = tuple(range(1, 21))
USERS = 5_000
SEATS_PER_GAME = 2
REPEATS = 25


def fill(path: Path, results: int) -> tuple[int, int]:
    """Insert ``results`` results (two seats a game) with their games and ratings into the
    database file at ``path`` (already migrated)."""
    rng = random.Random(7)
    games, rows = [], []
    ratings: dict[tuple[int, str, int], tuple[float, float]] = {}
    for game_id in range(1, results // SEATS_PER_GAME + 1):
        game, guild = rng.choice(GAMES), rng.choice(GUILDS)
        at = 1_700_000_000.0 + game_id * 60
        games.append((game_id, game, guild, guild * 100, at))
        players = rng.sample(range(1, USERS + 1), SEATS_PER_GAME)
        for seat, user in enumerate(players):
            won = int(seat == 0)
            rows.append((game_id, seat, user, game, guild, 1 if won else 2, rng.randint(0, 400), won, at))
            for scope in (0, guild):
                ratings[(scope, game, user)] = (25 + rng.gauss(0, 5), rng.uniform(1, 8))
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO games (id, game, guild_id, channel_id, host_id, status, options, seed, created_at, "
            "updated_at, finished_at) VALUES (?, ?, ?, ?, 0, 'finished', '{}', 0, ?, ?, ?)",
            [(gid, game, guild, channel, at, at, at) for gid, game, guild, channel, at in games],
        )
        db.executemany(
            "INSERT INTO results (game_id, seat, user_id, game, guild_id, rank, score, won, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        db.executemany(
            "INSERT INTO ratings (scope_id, game, user_id, mu, sigma, display, rated_games, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 1, 0)",
            [
                (scope, game, user, mu, sigma, mu - 3 * sigma)
                for (scope, game, user), (mu, sigma) in ratings.items()
            ],
        )
    return rows[0][2], rows[0][4]


async def median_ms(call: Callable[[], Awaitable[Any]]) -> float:
    """The median wall time of ``call`` in milliseconds."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def main(results: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        storage = await Storage.open(path)
        try:
            start = time.perf_counter()
            user, guild = fill(path, results)
            print(f"inserted {results} results in {time.perf_counter() - start:.1f} s")
            queries: dict[str, Callable[[], Awaitable[Any]]] = {}
            for sort in ("rating", "wins", "games"):
                queries[f"leaderboard server {sort}"] = lambda s=sort: storage.leaderboard("tileup", guild, s)
                queries[f"leaderboard global {sort}"] = lambda s=sort: storage.leaderboard("tileup", None, s)
                queries[f"leaderboard global {sort} page 50"] = lambda s=sort: storage.leaderboard(
                    "tileup", None, s, offset=490
                )
            queries["stats server"] = lambda: storage.stats(user, "tileup", guild, False)
            queries["stats global"] = lambda: storage.stats(user, "tileup", None, False)
            queries["history global"] = lambda: storage.history(user, None)
            for name, call in queries.items():
                print(f"{name:36s} {await median_ms(call):7.2f} ms")
        finally:
            await storage.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", type=int, default=100_000)
    asyncio.run(main(parser.parse_args().results))

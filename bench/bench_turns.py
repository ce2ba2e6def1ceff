"""`/turns` benchmark: listing a member's running games from a busy database, as the command
does it (one query of the stored headers, seats and snapshots, then sorting and the words),
for a member in 1, 10 and 50 games among thousands of others.

Run: ``.venv/bin/python bench/bench_turns.py [--others N] [--runs N]``. SQLite file in a
temporary directory; note the load average beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.between import turns
from bot.storage import Clock, SeatRow, Storage

NOW = 1_700_000_000.0
MEMBER = 7


async def game(storage: Storage, users: list[int], channel: int) -> None:
    seats = [SeatRow(i, user, f"player {user}") for i, user in enumerate(users)]
    game_id = await storage.create_game(
        game="triominos", guild_id=1 << 22, channel_id=channel, host=seats[0], others=seats[1:],
        options={}, seed=channel, deal=None, turn_seconds=86_400, now=NOW,
    )  # fmt: skip
    snapshot = {"ply": 40, "scores": [120 + 3 * i for i in range(len(users))], "to_act": channel % len(users)}
    await storage.start_game(game_id, seats, snapshot, Clock(NOW + 3600 * (channel % 48)), NOW)


async def run(others: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "bench.db")
        try:
            for number in range(others):
                await game(storage, [1000 + number, 2000 + number, 3000 + number], 100_000 + number)
            made = 0
            for count in (1, 10, 50):
                while made < count:
                    await game(storage, [MEMBER, 4000 + made, 5000 + made], 200_000 + made)
                    made += 1
                query, words = [], []
                for _ in range(runs):
                    started = time.perf_counter()
                    stored = await storage.running_games_of(MEMBER)
                    middle = time.perf_counter()
                    pages = turns.pages(turns.running(stored, MEMBER), lambda guild: "Club")
                    query.append(1000 * (middle - started))
                    words.append(1000 * (time.perf_counter() - middle))
                assert len(stored) == count
                print(
                    f"member in {count:>2} games (of {others + count}): query median "
                    f"{statistics.median(query):.2f} ms (max {max(query):.2f}), list "
                    f"{statistics.median(words):.2f} ms, {len(pages)} page{'s' if len(pages) > 1 else ''}"
                )
        finally:
            await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--others", type=int, default=5_000)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    asyncio.run(run(args.others, args.runs))


if __name__ == "__main__":
    main()

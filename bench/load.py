"""Load: the real bot through SimCord with N games in N channels playing to the end at once.

Run: ``.venv/bin/python bench/load.py play 1 20 100 [200]`` and
``.venv/bin/python bench/load.py restart 1000 10000``.

``play N``: N channels, each with a Tri-Ominos game of two scripted people (and a computer seat
at every other table), played to the end. Each round every person to act sends their move
(the first suggestion) AT THE SAME MOMENT (the interactions are all sent before the bot handles
any of them), then the bot works until it is idle. Figures:

- moves per second: every stored move (people's, computers', forced draws) over the wall time
  of the play;
- acknowledgement, p50 / p99: from the interaction sent to the bot's acknowledgement (the defer;
  Discord's 3-second rule);
- command to board, p50 / p99: from the interaction sent to the board of that table posted or
  edited;
- peak memory of the bot's process (``resource.getrusage``, the worker processes apart), and
  the database's size (file and WAL).

``restart G``: G games stored as running (each with a few moves and a clock), then the time the
bot takes from being started to answering (storage opened, every game restored and its clock
armed, commands synced), and the first command on one of those games (its state loaded lazily).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord

from bench import simdrive
from bot import workers
from bot.sessions import SessionService
from bot.storage import Storage
from games.registry import get as get_game
from tests.attacks.support import answered, together

MAX_ROUNDS = 400


class Profile:
    """Where the time goes: the wall time of each kind of worker-process job, and how late the
    event loop wakes up (a loop busy with work on it wakes late)."""

    def __init__(self) -> None:
        self.jobs: dict[str, list[float]] = defaultdict(list)
        self.lags: list[float] = []
        self._ticker: asyncio.Task[None] | None = None

    def install(self) -> None:
        original = workers.run
        jobs = self.jobs

        async def timed(fn: Any, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await original(fn, *args, **kwargs)
            finally:
                jobs[getattr(fn, "__name__", str(fn))].append(time.perf_counter() - started)

        workers.run = timed  # type: ignore[assignment]
        self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def _tick(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(time.perf_counter() - before - 0.01)

    def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()

    def summary(self) -> str:
        parts = [
            f"{name}: {len(times)} x {ms(statistics.mean(times))} ms (p99 {ms(percentile(times, 0.99))})"
            for name, times in sorted(self.jobs.items(), key=lambda item: -sum(item[1]))
        ]
        lag = f"loop lag p50 {ms(percentile(self.lags, 0.5))} ms, p99 {ms(percentile(self.lags, 0.99))} ms"
        return lag + "; worker jobs (wall, queue included): " + "; ".join(parts)


class Timings:
    """When each interaction was sent and acknowledged, and when each channel's board moved."""

    def __init__(self) -> None:
        self.sent: dict[int, tuple[float, int]] = {}
        self.acknowledged: dict[int, float] = {}
        self.boards: dict[int, list[float]] = defaultdict(list)

    def install(self, bot: Any) -> None:
        timings = self
        for name in ("defer", "send_message", "edit_message"):
            original = getattr(discord.InteractionResponse, name)

            async def wrapped(self: Any, *args: Any, __original: Any = original, **kwargs: Any) -> Any:
                timings.acknowledged.setdefault(self._parent.id, time.perf_counter())
                return await __original(self, *args, **kwargs)

            setattr(discord.InteractionResponse, name, wrapped)
        announcer = bot.announcer
        post, edit = announcer.post, announcer._edit

        async def posted(channel_id: int, *args: Any, **kwargs: Any) -> Any:
            result = await post(channel_id, *args, **kwargs)
            timings.boards[channel_id].append(time.perf_counter())
            return result

        async def edited(channel_id: int, *args: Any, **kwargs: Any) -> Any:
            result = await edit(channel_id, *args, **kwargs)
            timings.boards[channel_id].append(time.perf_counter())
            return result

        announcer.post, announcer._edit = posted, edited

    def acknowledgements(self) -> list[float]:
        return [self.acknowledged[i] - sent for i, (sent, _) in self.sent.items() if i in self.acknowledged]

    def command_to_board(self) -> list[float]:
        found = []
        for sent, channel_id in self.sent.values():
            later = [t for t in self.boards.get(channel_id, ()) if t >= sent]
            if later:
                found.append(min(later) - sent)
        return found


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}"


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def database_bytes(db_path: str) -> int:
    return sum(os.path.getsize(p) for p in (db_path, f"{db_path}-wal") if os.path.exists(p))


def stored_moves(db_path: str) -> int:
    import sqlite3

    with sqlite3.connect(db_path) as db:
        return int(db.execute("SELECT COUNT(*) FROM moves").fetchone()[0])


async def play(channels: int) -> dict[str, Any]:
    """N games played to the end at once; the figures."""
    db_path = os.path.join(tempfile.mkdtemp(prefix="tilehost-load-"), "tilehost.db")
    async with simdrive.running(db_path, channels) as world:
        for index, table in enumerate(world.tables):
            await simdrive.open_game(world, table, computers=index % 2)
        timings, profile = Timings(), Profile()
        timings.install(world.bot)
        profile.install()
        before = stored_moves(db_path)
        started = time.perf_counter()
        refused = rounds = 0
        for rounds in range(1, MAX_ROUNDS + 1):  # noqa: B007 (reported)
            planned = [(table, simdrive.next_move(world, table)) for table in world.tables]
            moving = [(table, plan) for table, plan in planned if plan is not None]
            if not moving:
                break
            results = []
            async with together(world.env):
                for table, (person, _, notation) in moving:
                    result = await simdrive.send_move(table, person, notation)
                    timings.sent[result._interaction.id] = (time.perf_counter(), table.channel.id)
                    results.append(result)
            refused += sum(not answered(r).startswith("✅ Recorded") for r in results)
        elapsed = time.perf_counter() - started
        moves = stored_moves(db_path) - before
        unfinished = sum(simdrive.session_of(world, table) is not None for table in world.tables)
        profile.stop()
    acks, boards = timings.acknowledgements(), timings.command_to_board()
    return {
        "games": channels,
        "rounds": rounds,
        "moves": moves,
        "seconds": elapsed,
        "moves_per_s": moves / elapsed if elapsed else 0.0,
        "ack_p50": percentile(acks, 0.5),
        "ack_p99": percentile(acks, 0.99),
        "ack_over_3s": sum(a > 3 for a in acks),
        "board_p50": percentile(boards, 0.5),
        "board_p99": percentile(boards, 0.99),
        "commands": len(acks),
        "refused": refused,
        "unfinished": unfinished,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "db_mb": database_bytes(db_path) / 1e6,
        "profile": profile.summary(),
    }


async def store_running_games(db_path: str, count: int, moves: int = 4) -> None:
    """``count`` Tri-Ominos games stored as running, ``moves`` moves each, with a clock, in
    channels of the world that ``simdrive.running`` builds (the same ids in every process)."""
    storage = await Storage.open(db_path)
    service = SessionService(
        storage, now=time.time, default_turn_seconds=24 * 3600, seed_source=iter(range(10**9)).__next__
    )
    game = get_game(simdrive.GAME)
    try:
        for index in range(count):
            channel, guild = 10**15 + index, 10**14
            session = await service.create(
                game.name,
                guild_id=guild,
                channel_id=channel,
                user_id=1 + 2 * index,
                name="a",
                options={"target": 200},
                turn_seconds=3600,
            )
            await service.join(session, 2 + 2 * index, "b")
            await service.start(session, 1 + 2 * index)
            for _ in range(moves):
                seat = session.seat_to_act()
                if seat is None or seat.user_id is None:
                    break
                move = game.rank_moves(session.state, game.legal_moves(session.state))[0]
                await service.play(session, seat.user_id, game.format_move(session.state, move))
    finally:
        await service.close()
        await storage.close()


async def restart(count: int) -> dict[str, Any]:
    """G running games stored; then what the bot does at start-up, timed: open the database,
    restore every game (headers and seats in bulk, clocks re-armed), after which it answers;
    the records are replayed in the background (worker processes) until every state is loaded.
    (SimCord is left out here: its start waits at most 5 s for the bot's background work.)"""
    db_path = os.path.join(tempfile.mkdtemp(prefix="tilehost-restart-"), "tilehost.db")
    started = time.perf_counter()
    await store_running_games(db_path, count)
    stored = time.perf_counter() - started
    workers.warm()
    begin = time.perf_counter()
    storage = await Storage.open(db_path)
    service = SessionService(storage, now=time.time, default_turn_seconds=24 * 3600)
    sessions = await service.restore()
    ready = time.perf_counter() - begin
    armed = sum(1 for deadline, _ in service.clock.pending().values() if deadline)
    await asyncio.gather(*(service.ready(session) for session in sessions))
    loaded = time.perf_counter() - begin
    await service.close()
    await storage.close()
    return {
        "games": count,
        "store_s": stored,
        "restart_s": ready,
        "restored": len(sessions),
        "clocks_armed": armed,
        "all_loaded_s": loaded,
        "db_mb": database_bytes(db_path) / 1e6,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["play", "restart"])
    parser.add_argument("sizes", type=int, nargs="+")
    args = parser.parse_args()
    for size in args.sizes:
        figures = asyncio.run(play(size) if args.mode == "play" else restart(size))
        profile = figures.pop("profile", None)
        print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in figures.items()))
        if profile:
            print(f"  {profile}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Lanes benchmark: how long interactive work waits while long work saturates the workers.

Run: ``.venv/bin/python bench/lanes.py [--seconds 20] [--rate 6] [--configs fcfs,2+2n10,...]``.

Long work: every long worker busy all the time (CPU-bound jobs of ``--long-seconds`` each, kept
queued, as hints and ``hard`` computers do under a flood). Interactive work: late boards drawn at
``--rate`` a second, arriving at random (Poisson). Each configuration is measured in turn:

- ``fcfs``: the old pool (one ``ProcessPoolExecutor`` of two workers, first come first served);
- ``I+Ln`` (e.g. ``2+2n10``): the lanes with I interactive and L long workers, the long ones at
  niceness n.

Printed: the board's latency (submitted to drawn) p50 / p99 / max, boards drawn, long jobs done,
the event loop's lag on the real clock (p99, max), the memory of the process tree (proportional
set size, the bot process included) and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import workers
from bot.lanes import Caps, Lane, Lanes, Owner
from games import registry
from games.ai import greedy_states
from rendering.registry import renderer

BOARD_NAMES = ["Joe", "Anna"]


def spin(seconds: float) -> int:
    """Long work: the CPU busy for ``seconds`` (counting loops, as a search does)."""
    end = time.perf_counter() + seconds
    count = 0
    while time.perf_counter() < end:
        count += sum(range(200))
    return count


def late_board() -> Any:
    """A late Geominos board (the same position as bench_render's)."""
    geominos = registry.get("geominos")
    states = greedy_states(geominos, 2, 4, geominos.Options(mode="all"))
    return geominos.view(states[-3], None)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def tree_memory_mb(root: int) -> float:
    """Proportional set size of ``root`` and every process under it, in MB."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/smaps_rollup") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


class Lag:
    """The event loop's lateness on the real clock, sampled every 10 ms."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            self.samples.append(time.perf_counter() - before - 0.01)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


async def scenario(
    draw: Callable[[], Awaitable[Any]], long_job: Callable[[int], Awaitable[Any]], args: argparse.Namespace
) -> dict[str, Any]:
    """Boards at random while long work keeps every long worker busy."""
    lag, latencies, long_done = Lag(), [], [0]
    lag.start()
    stop = time.perf_counter() + args.seconds

    async def keep_long_busy(number: int) -> None:
        while time.perf_counter() < stop:
            await long_job(number)
            long_done[0] += 1

    async def one_board() -> None:
        started = time.perf_counter()
        await draw()
        latencies.append(time.perf_counter() - started)

    feeders = [asyncio.create_task(keep_long_busy(n)) for n in range(args.long_jobs)]
    await asyncio.sleep(0.5)  # the long work is under way before the first board
    boards, rng = [], random.Random(1)
    while time.perf_counter() < stop:
        boards.append(asyncio.create_task(one_board()))
        await asyncio.sleep(rng.expovariate(args.rate))
    await asyncio.gather(*boards)
    for feeder in feeders:
        feeder.cancel()
    await asyncio.gather(*feeders, return_exceptions=True)
    lag.stop()
    return {
        "boards": len(latencies),
        "p50": percentile(latencies, 0.5),
        "p99": percentile(latencies, 0.99),
        "max": max(latencies),
        "long": long_done[0],
        "lag_p99": percentile(lag.samples, 0.99),
        "lag_max": max(lag.samples),
    }


async def run_fcfs(view: Any, args: argparse.Namespace) -> dict[str, Any]:
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(workers.PRELOAD))
    pool = ProcessPoolExecutor(2, mp_context=context)
    for future in [pool.submit(os.getpid) for _ in range(2)]:
        future.result()
    loop = asyncio.get_running_loop()
    paint = renderer("geominos")
    try:
        result = await scenario(
            lambda: loop.run_in_executor(pool, workers.render, paint, "board", view, BOARD_NAMES),
            lambda _: loop.run_in_executor(pool, spin, args.long_seconds),
            args,
        )
        result["memory"] = tree_memory_mb(os.getpid())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return result


async def run_lanes(
    view: Any, interactive: int, long: int, nice: int, args: argparse.Namespace
) -> dict[str, Any]:
    lanes = Lanes({Lane.INTERACTIVE: interactive, Lane.LONG: long}, workers.PRELOAD, Caps(), long_nice=nice)
    await asyncio.to_thread(lanes.start)
    paint = renderer("geominos")

    async def draw() -> Any:
        job = lanes.submit(workers.BOARD, workers.render, (paint, "board", view, BOARD_NAMES))
        return await asyncio.wrap_future(job.future)

    async def long_job(number: int) -> Any:
        job = lanes.submit(workers.COMPUTER, spin, (args.long_seconds,), owner=Owner(game_id=number))
        return await asyncio.wrap_future(job.future)

    try:
        result = await scenario(draw, long_job, args)
        result["memory"] = tree_memory_mb(os.getpid())
    finally:
        lanes.shutdown()
    return result


def parse_config(text: str) -> tuple[int, int, int] | None:
    if text == "fcfs":
        return None
    sizes, _, nice = text.partition("n")
    interactive, _, long = sizes.partition("+")
    return int(interactive), int(long), int(nice or 0)


async def main(args: argparse.Namespace) -> None:
    view = late_board()
    print(
        f"boards at {args.rate}/s (Poisson) for {args.seconds} s while {args.long_jobs} long jobs of "
        f"{args.long_seconds} s keep the long workers busy; load average before: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(
        f"{'config':<10} {'boards':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'long':>5} "
        f"{'lag p99':>8} {'lag max':>8} {'PSS MB':>7}  load"
    )
    for config in args.configs.split(","):
        sizes = parse_config(config)
        if sizes is None:
            result = await run_fcfs(view, args)
        else:
            result = await run_lanes(view, *sizes, args)
        print(
            f"{config:<10} {result['boards']:>6} {result['p50'] * 1000:>7.0f} {result['p99'] * 1000:>7.0f} "
            f"{result['max'] * 1000:>7.0f} {result['long']:>5} {result['lag_p99'] * 1000:>8.1f} "
            f"{result['lag_max'] * 1000:>8.1f} {result['memory']:>7.0f}  {os.getloadavg()[0]:.2f}",
            flush=True,
        )


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=4.0, help="boards a second")
    parser.add_argument("--long-jobs", type=int, default=4, help="long jobs kept under way")
    parser.add_argument("--long-seconds", type=float, default=3.0, help="CPU seconds of one long job")
    parser.add_argument("--configs", default="fcfs,2+2n0,2+2n10,1+1n0,2+1n10")
    return parser.parse_args()


if __name__ == "__main__":
    from bench import lanes as this  # the jobs must pickle as bench.lanes.*, not __main__.*

    spin = this.spin
    asyncio.run(main(arguments()))

"""What the load bench measures inside and around the bot's process, on the real clock.

- :class:`LagProbe`: event-loop lag, a ticker task measuring its own oversleep (it asks for 10 ms
  and notes how much later it woke; a loop busy with work on it wakes it late);
- :class:`TreeMemory`: the memory of a whole process tree (the bot, its workers' zygote and its
  worker processes), read from ``/proc``: the sum of resident sizes (RSS, which
  counts pages shared between forked workers once per process) and of proportional sizes (PSS,
  each shared page split between its processes: the honest total), sampled four times a second;
- :class:`StoreTimer`: the time of each ``Storage.record_moves`` call (a move's trip to the
  database with the forced turns after it, from the call to the commit), once for each line;
- :class:`JobClock`: each worker job's own time in its worker (without the queue before it), by
  job kind, and its time from submission to result (queue included).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.jobtime import timed_job
from bot import workers
from bot.storage import Storage

TICK = 0.01


def percentile(values: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank); NaN when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def spread(values: Sequence[float], unit: float = 1000.0, suffix: str = " ms") -> str:
    """``p50 / p90 / p99 / max`` of ``values`` (seconds, shown in ms by default)."""
    if not values:
        return "none"
    marks = [percentile(values, q) for q in (0.5, 0.9, 0.99)] + [max(values)]
    return " / ".join(f"{mark * unit:.0f}" for mark in marks) + suffix + f" (n={len(values)})"


class LagProbe:
    """Event-loop lag on the real clock: a task that sleeps 10 ms at a time and records how late
    it woke (``time.perf_counter``, which no simulated clock moves)."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._tick(), name="bench-lag-probe")

    async def _tick(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            self.lags.append(max(0.0, time.perf_counter() - before - TICK))

    def take(self) -> list[float]:
        """The lags measured so far (and start afresh)."""
        taken, self.lags = self.lags, []
        return taken

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(child) for child in task.read_text().split()]
        except OSError:
            continue
    return found


def process_tree(root: int) -> list[int]:
    """``root`` and every process below it."""
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo += _children(pid)
    return tree


def _kilobytes(path: str, field: str) -> int:
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def tree_memory(root: int) -> tuple[int, int, int]:
    """``(processes, RSS bytes, PSS bytes)`` of ``root``'s process tree now."""
    pids = process_tree(root)
    rss = sum(_kilobytes(f"/proc/{pid}/status", "VmRSS:") for pid in pids)
    pss = sum(_kilobytes(f"/proc/{pid}/smaps_rollup", "Pss:") for pid in pids)
    return len(pids), rss * 1024, pss * 1024


class TreeMemory:
    """The peak memory of a process tree, sampled in a thread of the measuring process."""

    def __init__(self, root: int | None = None, period: float = 0.25) -> None:
        self.root = root if root is not None else os.getpid()
        self.period = period
        self.peak_rss = self.peak_pss = self.processes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="bench-memory", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.is_set():
            processes, rss, pss = tree_memory(self.root)
            if pss > self.peak_pss:
                self.peak_pss, self.processes = pss, processes
            self.peak_rss = max(self.peak_rss, rss)
            self._stop.wait(self.period)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self) -> str:
        return (
            f"peak {self.peak_pss / 1e6:.0f} MB PSS / {self.peak_rss / 1e6:.0f} MB RSS "
            f"over {self.processes} processes"
        )


class StoreTimer:
    """Times every trip of record lines to the database, ``Storage.record_moves`` (a move and
    the forced turns after it), from the call to the commit (wraps the class's method while
    installed); the time is noted once for each line of the trip, so that the figures stay a
    move's store time."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.trips: list[float] = []
        """The same times once a trip (a command's move with its forced turns, a computer's)."""
        self._original: Callable[..., Any] | None = None

    def install(self) -> None:
        original = self._original = Storage.record_moves
        times, trips = self.times, self.trips

        async def timed(storage: Storage, game_id: int, lines: Sequence[Any], **kwargs: Any) -> None:
            started = time.perf_counter()
            try:
                await original(storage, game_id, lines, **kwargs)
            finally:
                times.extend([time.perf_counter() - started] * len(lines))
                trips.append(times[-1])

        Storage.record_moves = timed  # type: ignore[method-assign]

    def take(self) -> list[float]:
        taken = list(self.times)
        self.times.clear()
        return taken

    def take_trips(self) -> list[float]:
        taken = list(self.trips)
        self.trips.clear()
        return taken

    def uninstall(self) -> None:
        if self._original is not None:
            Storage.record_moves = self._original  # type: ignore[method-assign]


class WriterTrace:
    """Where a SQLite write's time goes, with ``TILEHOST_BENCH_TRACE`` set: each write's
    ``write submitted picked committed resumed group_size thread_cpu`` line (picked: its group
    began in the writer's thread; committed: its group's COMMIT returned; resumed: its awaiter
    ran again on the event loop; the group's CPU time in the writer's thread)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines: list[str] = []

    def install(self) -> None:
        from bot.storage import threads

        lines = self.lines
        commit_group = threads.SqliteWriter._commit_group

        def timed_group(writer: Any, connection: Any, group: list[Any]) -> None:
            picked, cpu = time.perf_counter(), time.thread_time()
            commit_group(writer, connection, group)
            committed, cpu = time.perf_counter(), time.thread_time() - cpu
            for job in group:
                job.bench_times = (picked, committed, len(group), cpu)

        async def submit(writer: Any, work: Callable[[Any], Any]) -> Any:
            writer._check_open()
            job = threads._Job(work, writer.loop, writer.loop.create_future())
            submitted = time.perf_counter()
            writer.jobs.put(job)
            try:
                return await job.future
            finally:
                picked, committed, size, cpu = getattr(job, "bench_times", (0.0, 0.0, 0, 0.0))
                lines.append(
                    f"write {submitted:.4f} {picked:.4f} {committed:.4f} {time.perf_counter():.4f} "
                    f"{size} {cpu:.4f}\n"
                )

        threads.SqliteWriter._commit_group = timed_group  # type: ignore[method-assign]
        threads.SqliteWriter.submit = submit  # type: ignore[method-assign,assignment]

    def flush(self) -> None:
        if self.lines:
            with Path(self.path).open("a", encoding="utf-8") as out:
                out.writelines(self.lines)
            self.lines.clear()


class JobClock:
    """Each worker job's own time and its wait: ``workers.run`` wrapped while installed."""

    def __init__(self) -> None:
        self.own: dict[str, list[float]] = defaultdict(list)
        self.total: dict[str, list[float]] = defaultdict(list)
        self._original: Callable[..., Any] | None = None
        self.trace_path = os.environ.get("TILEHOST_BENCH_TRACE")
        """Where every job's ``kind submitted total own`` line goes (appended at each
        :meth:`take`), to see what a tail is made of; unset: nothing is written."""
        self.trace: list[tuple[str, float, float, float]] = []

    def install(self) -> None:
        original = self._original = workers.run
        own, total, trace_path = self.own, self.total, self.trace_path

        async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            name = getattr(fn, "__name__", str(fn))
            if name == "render" and args:
                name = f"render {args[1]}"  # board or hand
            started = time.perf_counter()
            seconds, result = await original(timed_job, fn, *args, **kwargs)
            total[name].append(time.perf_counter() - started)
            own[name].append(seconds)
            if trace_path:
                self.trace.append((name, started, total[name][-1], seconds))
            return result

        workers.run = run  # type: ignore[assignment]

    def uninstall(self) -> None:
        if self._original is not None:
            workers.run = self._original  # type: ignore[assignment]

    def median(self, name: str) -> float:
        times = self.own.get(name, [])
        return statistics.median(times) if times else float("nan")

    def take(self) -> dict[str, tuple[list[float], list[float]]]:
        taken = {name: (self.own[name], self.total.get(name, [])) for name in self.own}
        if self.trace_path and self.trace:
            with open(self.trace_path, "a", encoding="utf-8") as out:
                out.writelines(
                    f"{n.replace(' ', '_')} {s:.4f} {t:.4f} {o:.4f}\n" for n, s, t, o in self.trace
                )
            self.trace.clear()
        self.own.clear()
        self.total.clear()
        return taken


def jobs_summary(jobs: dict[str, tuple[list[float], list[float]]]) -> str:
    """One line: each job kind's count, own time median and p99, and wait (queue) p99."""
    parts = []
    for name, (own, total) in sorted(jobs.items(), key=lambda item: -sum(item[1][0])):
        waits = [t - o for t, o in zip(total, own, strict=False)]
        parts.append(
            f"{name}: {len(own)} x {statistics.median(own) * 1000:.0f} ms own (p99 "
            f"{percentile(own, 0.99) * 1000:.0f}), queue p99 {percentile(waits, 0.99) * 1000:.0f} ms"
        )
    return "; ".join(parts)

"""Load: many Tri-Ominos games moving at once, measured honestly, through two drivers.

Run (``--driver simcord`` or ``direct``; the direct driver is the default)::

    .venv/bin/python bench/load.py burst 20 100 200 [--computers none|easy-half|hard-quarter]
    .venv/bin/python bench/load.py poisson 200 [--rate COMMANDS_PER_S] [--seconds 180]
    .venv/bin/python bench/load.py mixed 40
    .venv/bin/python bench/load.py restart 1000 10000 [--plies 86]

Drivers:

- ``simcord``: the real bot (discord.py, the cogs, the announcer) against SimCord's simulated
  Discord, in one process, N channels of two scripted people. Everything the bot does for a
  command is in, and so is SimCord's own bookkeeping of every task, callback and message, on the
  bot's event loop (at 50 games its scan was 58 % of the bot process's profile): its figures are
  an upper bound, its loop lag is partly SimCord's.
- ``direct`` (:mod:`bench.direct`): the session service and the table announcer in a bot process
  of their own, on a fake transport, driven from another process that keeps its own copy of
  every game. It leaves out discord.py (gateway, interaction parsing, the command tree, building
  HTTP requests), the cogs' parsing and rate limits, and Discord's latency; the bot process does
  what the bot does for a move and nothing of the harness.

Scenarios:

- ``burst N``: N games; every round, every person to act sends their move (the first
  suggestion) at the same moment, then the bot works until every table waits for a person again;
  to the end of the games (or ``--rounds``). ``--computers``: none (default), an easy computer
  at every other table, or a hard one at every fourth (the "quarter with hard computers").
- ``poisson N``: N games whose moves arrive one at a time at random (a Poisson process) at
  ``--rate`` commands per second, each at a table whose board is shown and whose person is to
  act; for ``--seconds``. Default rate: 80 % of the capacity, measured first in boards (what a
  person sends a command for and waits for; the forced moves the bot plays itself are neither)
  by a closed loop on N tables of its own, as long as the run (``--calibrate`` seconds): every
  person answers the moment their board is shown, and the boards shown a second are the
  capacity. Boards grow with the games (a board job took 38 ms in a 20 s loop and 72 ms at
  the median through the 60 s run after it on the same tables), so the loop plays the same
  stages of play as the run (a little further: it runs at 100 %); a short burst from the games'
  openings overstated the capacity, and so did a short loop.
- ``mixed N``: N games moving in bursts, a quarter with hard computers; during the second burst
  three members spend their hint allowance (12 hints each, all at once) while other tables'
  autocomplete is asked, and one solitaire gives up on a drawn 120-square target; then the bot is
  stopped, 1,000 running games (86 plies each) are stored beside, and it starts again: the first
  move's board in one of them is timed.
- ``restart G``: G running games of ``--plies`` plies stored; the bot starts; the time until it
  answers, then the first move in a random game (its board), then one move in each of 20 more
  random games one after the other, and the time until every game's state is loaded (or
  ``--load-wait`` seconds, then how many were).

Figures, each as p50 / p90 / p99 / max:

- acknowledgement: from the command sent to the bot's first answer, once it returned (SimCord:
  the defer's HTTP call done; direct: the bot's ``ack``, stamped in the bot as it sends it);
- recorded: from the command to the private "Recorded" reply (the move committed);
- command -> board: from the command to the next board of its table posted or edited;
- store time per move: each ``Storage.record_moves`` call (a move and the forced turns after
  it: one trip), from the call to the commit, counted once for each line it stored;
- loop lag: a ticker task in the bot's process sleeping 10 ms at a time and noting how late it
  woke, on the real clock;
- memory: the peak of the bot's whole process tree (the workers' zygote and every worker
  included), proportional set size (each shared page split between its processes) and RSS;
- worker jobs: each kind's own time in its worker and its time queued before it.

The burst's floor is N x the median board job / the workers: the last board of a burst cannot
come sooner. The targets (issue 21) are printed beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import direct
from bench.probes import JobClock, LagProbe, StoreTimer, TreeMemory, jobs_summary, percentile, spread
from bot import workers

MAX_ROUNDS = 400
OPENING = 10
"""Games opened at once while a scenario is set up."""
COMPUTERS = ("none", "easy-half", "easy-quarter", "hard-quarter")


@dataclass
class Figures:
    """What one run measured."""

    label: str
    games: int
    acks: list[float] = field(default_factory=list)
    recorded: list[float] = field(default_factory=list)
    boards: list[float] = field(default_factory=list)
    store: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    jobs: dict[str, tuple[list[float], list[float]]] = field(default_factory=dict)
    memory: str = ""
    seconds: float = 0.0
    moves: int = 0
    commands: int = 0
    refused: int = 0
    boards_shown: int = 0
    """Every board posted or edited in the run: the people's moves' and the computers'."""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def board_job(self) -> float:
        own = self.jobs.get("render board", ([], []))[0]
        return statistics.median(own) if own else float("nan")

    @property
    def floor(self) -> float:
        """N x the median board job / the workers."""
        return self.games * self.board_job / board_workers()

    def report(self, *, burst: bool = False) -> str:
        lines = [
            f"== {self.label}: {self.games} games, {self.commands} commands ({self.refused} refused), "
            f"{self.moves} moves stored in {self.seconds:.1f} s "
            f"({self.moves / max(self.seconds, 1e-9):.1f}/s); "
            f"load average {load_average()}",
            f"  acknowledgement  {spread(self.acks)}",
            f"  recorded         {spread(self.recorded)}",
            f"  command -> board {spread(self.boards)}",
            f"  boards shown     {self.boards_shown} "
            f"({self.boards_shown / max(self.commands, 1):.2f} a command)",
            f"  store per move   {spread(self.store)}",
            f"  loop lag         {spread(self.lags)}",
            f"  memory           {self.memory}",
            f"  worker jobs      {jobs_summary(self.jobs)}",
        ]
        lines += [f"  {key:<16} {value}" for key, value in self.extra.items()]
        verdicts = [
            f"ack p99 < 300 ms: {verdict(percentile(self.acks, 0.99) < 0.3)}",
            f"store p99 < 100 ms: {verdict(percentile(self.store, 0.99) < 0.1)}",
            f"lag p99 < 50 ms, max < 250 ms: "
            f"{verdict(percentile(self.lags, 0.99) < 0.05 and max(self.lags, default=0) < 0.25)}",
        ]
        if burst:
            bound = 1.3 * self.floor + 0.1
            verdicts.append(
                f"board p99 <= 1.3 x floor ({self.floor * 1000:.0f} ms: {self.games} x "
                f"{self.board_job * 1000:.0f} ms / {board_workers()}) + 100 ms = {bound * 1000:.0f} ms: "
                f"{verdict(percentile(self.boards, 0.99) <= bound)}"
            )
        lines.append("  targets          " + "; ".join(verdicts))
        return "\n".join(lines)


def board_workers() -> int:
    """The workers that draw boards (the interactive lane's)."""
    return workers.sizes()[workers.Lane.INTERACTIVE]


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def computers_at(index: int, computers: str) -> list[str]:
    if computers == "easy-half":
        return ["easy"] if index % 2 else []
    if computers in ("easy-quarter", "hard-quarter"):
        return [computers.split("-")[0]] if index % 4 == 0 else []
    return []


async def stored_moves(database: str) -> int:
    """How many moves the database (a SQLite file or a PostgreSQL URL) holds."""
    if database.startswith("postgresql://"):
        import asyncpg

        connection = await asyncpg.connect(database)
        try:
            return int(await connection.fetchval("SELECT COUNT(*) FROM moves"))
        finally:
            await connection.close()
    with sqlite3.connect(database) as db:
        return int(db.execute("SELECT COUNT(*) FROM moves").fetchone()[0])


def new_database(prefix: str) -> str:
    """A database file in a directory of its own, removed when the bench exits."""
    directory = tempfile.mkdtemp(prefix=f"tilehost-{prefix}-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    return os.path.join(directory, "tilehost.db")


# == the direct driver ===========================================================================


async def open_tables(
    driver: direct.Driver, count: int, computers: str, first: int = 1
) -> list[direct.Table]:
    tables = [
        driver.add_table(
            first + index,
            [10 * (first + index) + 1, 10 * (first + index) + 2],
            computers_at(index, computers),
        )
        for index in range(count)
    ]
    for start in range(0, len(tables), OPENING):  # a few at a time: the set-up is not measured
        await asyncio.gather(*(driver.open(table) for table in tables[start : start + OPENING]))
    return tables


async def direct_rounds(
    driver: direct.Driver,
    tables: list[direct.Table],
    rounds: int,
    between: Callable[[int], Any] | None = None,
) -> int:
    """Burst rounds: every person to act sends at once; the bot works until every table waits."""
    done = 0
    for done in range(1, rounds + 1):
        moving = [table for table in tables if table.ready()]
        if not moving:
            break
        for table in moving:
            driver.play(table)
        if between is not None:
            await between(done)
        await driver.until(lambda: all(table.settled() for table in tables))
    return done


async def collect(driver: direct.Driver, figures: Figures, kinds: tuple[str, ...] = ("play",)) -> None:
    """Fill ``figures`` from the driver's commands and the bot's probes."""
    sent = [each for each in driver.sent.values() if each.kind in kinds]
    figures.commands = len(sent)
    figures.refused = sum(each.refused is not None for each in sent)
    figures.acks = [each.ack - each.at for each in sent if each.ack is not None]
    figures.recorded = [
        each.recorded - each.at for each in sent if each.recorded is not None and not each.refused
    ]
    figures.boards = [each.board - each.at for each in sent if each.board is not None]
    figures.boards_shown = len(driver.boards_shown)
    cpu = driver.bot_cpu() - driver.cpu_from
    figures.extra["bot CPU"] = (
        f"{cpu:.1f} s in the bot process (its loop and threads, not its workers), "
        f"{cpu * 1000 / max(len(sent), 1):.1f} ms a command"
    )
    trace = os.environ.get("TILEHOST_BENCH_TRACE")
    if trace:  # each command: "command channel sent ack recorded board" (the jobs' lines beside)
        with Path(trace).open("a", encoding="utf-8") as out:  # noqa: ASYNC230 (after the run)
            out.writelines(
                f"command {each.channel} {each.at:.4f} {each.ack or 0:.4f} {each.recorded or 0:.4f} "
                f"{each.board or 0:.4f}\n"
                for each in sent
            )
    alone = [
        each.board - each.at
        for each in sent
        if each.board is not None and not getattr(driver.tables.get(each.channel), "computers", None)
    ]
    if 0 < len(alone) < len(figures.boards):
        figures.extra["people only"] = f"command -> board at the tables without a computer: {spread(alone)}"
    stats = await driver.stats()
    figures.lags, figures.store = stats["lags"], stats["store"]
    trips = stats.get("trips", [])
    if trips:
        figures.extra["store a trip"] = (
            f"{spread(trips)}: a move with the forced turns after it is one trip, "
            f"{len(figures.store) / len(trips):.2f} lines a trip"
        )
    figures.jobs = {name: (pair[0], pair[1]) for name, pair in stats["jobs"].items()}
    reasons = sorted({each.refused for each in sent if each.refused})
    if reasons:
        figures.extra["refusals"] = "; ".join(reasons)[:500]
    if driver.missing_boards or driver.unanswered:
        figures.extra["missing"] = (
            f"{driver.missing_boards} boards and {driver.unanswered} answers never came"
        )


async def direct_burst(games: int, computers: str, rounds: int, database: str | None = None) -> Figures:
    db_path = database or new_database("burst")
    engine = "PostgreSQL" if db_path.startswith("postgresql://") else "SQLite"
    figures = Figures(f"burst, direct driver, {engine}, computers: {computers}", games)
    async with direct.running(db_path) as driver:
        memory = TreeMemory(driver.pid)
        memory.start()
        tables = await open_tables(driver, games, computers)
        await driver.stats()  # the opening's figures apart
        driver.forget()
        before, started = await stored_moves(db_path), time.perf_counter()
        played = await direct_rounds(driver, tables, rounds)
        figures.seconds = time.perf_counter() - started
        figures.moves = await stored_moves(db_path) - before
        await collect(driver, figures)
        memory.stop()
        figures.memory = memory.summary()
        figures.extra["rounds"] = (
            f"{played}; {figures.commands / figures.seconds:.1f} commands/s, "
            f"{figures.boards_shown / figures.seconds:.1f} boards/s"
        )
    return figures


async def closed_loop_capacity(driver: direct.Driver, tables: list[direct.Table], seconds: float) -> float:
    """The boards a second the bot keeps up with: every person answers the moment their board is
    shown (a closed loop: from its first instant as much work waiting as there are tables) for
    ``seconds``; the boards shown in that time, a second. A command is what a person sends and a
    board what they wait for; forced moves the bot plays itself are neither."""
    started = time.perf_counter()
    while (now := time.perf_counter()) - started < seconds:
        for table in tables:
            if table.ready():
                driver.play(table)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(driver.wait_change(), started + seconds - now)
    await driver.until(lambda: all(table.settled() for table in tables))
    shown = [at for at in driver.boards_shown if started <= at <= started + seconds]
    return len(shown) / seconds


async def direct_poisson(
    games: int, rate: float | None, seconds: float, calibration: float | None
) -> Figures:
    db_path = new_database("poisson")
    chooser = random.Random(21)
    async with direct.running(db_path) as driver:
        memory = TreeMemory(driver.pid)
        memory.start()
        if rate is None:  # 80 % of the capacity a closed loop measures, in boards
            # on tables of their own, as long as the run: the boards grow with the games, so the
            # loop draws the same stages of play as the run will (a little further, at 100 %)
            calibration = calibration or seconds
            trial = await open_tables(driver, games, "none", first=10 * games + 1)
            await driver.stats()
            driver.forget()
            capacity = await closed_loop_capacity(driver, trial, calibration)
            board_stats = (await driver.stats())["jobs"].get("render board", ([], []))[0]
            rate = 0.8 * capacity
            print(
                f"  (capacity, a closed loop of {calibration:.0f} s over {games} tables: {capacity:.1f} "
                f"boards/s, board job median {statistics.median(board_stats or [0]) * 1000:.0f} ms; "
                f"Poisson at {rate:.1f} commands/s)",
                flush=True,
            )
        tables = await open_tables(driver, games, "none")
        await driver.stats()
        driver.forget()
        figures = Figures(f"Poisson arrivals at {rate:.1f} commands/s, direct driver", games)
        before, started = await stored_moves(db_path), time.perf_counter()
        deferred = 0
        arrival = started
        while time.perf_counter() - started < seconds:
            # the arrival times are drawn ahead, on the clock: the driver's own work between two
            # commands (choosing a move) does not lower the rate
            arrival += chooser.expovariate(rate)
            await asyncio.sleep(max(0.0, arrival - time.perf_counter()))
            ready = [table for table in tables if table.ready()]
            if not ready:
                deferred += 1
                await driver.until(
                    lambda: any(table.ready() for table in tables) or all(t.over for t in tables)
                )
                ready = [table for table in tables if table.ready()]
                if not ready:
                    break
            driver.play(chooser.choice(ready))
        await driver.until(lambda: all(table.settled() for table in tables))
        figures.seconds = time.perf_counter() - started
        figures.moves = await stored_moves(db_path) - before
        await collect(driver, figures)
        memory.stop()
        figures.memory = memory.summary()
        own = figures.jobs.get("render board", ([], []))[0]
        figures.extra["arrivals"] = (
            f"{figures.commands / figures.seconds:.1f} commands/s achieved, "
            f"{figures.boards_shown / figures.seconds:.1f} boards/s shown; {deferred} waited for a "
            f"ready table; the drawing workers busy {sum(own) / (board_workers() * figures.seconds):.0%}"
        )
    return figures


def hard_shape() -> str:
    """A drawn 120-square target (both sets) the solver cannot decide within its check's limit:
    a parallelogram 10 squares wide and 12 rows high, each row one square further right."""
    return "/".join("." * row + "X" * 10 + "." * (11 - row) for row in range(12))


async def direct_mixed(games: int, stored: int, plies: int) -> list[Figures]:
    db_path = new_database("mixed")
    results = []
    async with direct.running(db_path) as driver:
        memory = TreeMemory(driver.pid)
        memory.start()
        tables = await open_tables(driver, games, "hard-quarter")
        hinters = [driver.add_table(9000 + index, [90000 + index, 90100 + index]) for index in range(3)]
        await asyncio.gather(*(driver.open(table) for table in hinters))
        solo = driver.add_table(9100, [91000])
        await driver.stats()
        driver.forget()
        started = time.perf_counter()

        async def trouble(round_: int) -> None:
            if round_ != 2:
                return
            for table in hinters:  # three members spend their hint allowance at once
                user = table.person_to_act()
                for _ in range(12):
                    driver.send("hint", table, u=user)
            others = [table for table in tables if table.person_to_act() is not None]
            for table in others[:20]:  # other tables' autocomplete meanwhile
                driver.send("suggest", table, u=table.users[0])
            await driver.ask(
                "open", c=solo.channel, users=solo.users, game="puzzosolo", options={"target": hard_shape()}
            )
            driver.send("play", solo, u=solo.users[0], text="giveup", games=["puzzominos", "puzzosolo"])

        await direct_rounds(driver, tables, 8, trouble)
        await driver.until(
            lambda: all(each.recorded is not None for each in driver.sent.values() if each.kind != "open")
        )
        figures = Figures("mixed: bursts, a quarter hard, hint flood, solitaire give-up (direct)", games)
        figures.seconds = time.perf_counter() - started
        figures.moves = await stored_moves(db_path)
        await collect(driver, figures)
        memory.stop()
        figures.memory = memory.summary()
        for kind in ("hint", "suggest"):
            answered = [s.recorded - s.at for s in driver.sent.values() if s.kind == kind and s.recorded]
            figures.extra[kind] = spread(answered)
        giveup = [s for s in driver.sent.values() if s.kind == "play" and s.channel == solo.channel]
        figures.extra["give-up"] = ", ".join(
            f"answered after {(s.recorded or 0) - s.at:.1f} s" + (f" ({s.refused})" if s.refused else "")
            for s in giveup
        )
        results.append(figures)
    results.append(await direct_restart(stored, plies, db_path=db_path, label="mixed, then a restart"))
    return results


async def direct_restart(
    count: int,
    plies: int,
    *,
    db_path: str | None = None,
    label: str = "restart",
    load_wait: float = float("inf"),
) -> Figures:
    db_path = db_path or new_database("restart")
    await direct.migrated(db_path)
    made = time.perf_counter()
    channels = await asyncio.to_thread(direct.store_running_games, db_path, count, plies)
    print(f"  ({count} running games of {plies} plies stored in {time.perf_counter() - made:.1f} s)")
    chooser = random.Random(count)
    picks = chooser.sample(channels, min(len(channels), 21))
    tables = [await asyncio.to_thread(direct.stored_table, db_path, channel) for channel in picks]
    figures = Figures(f"{label}: {count} stored running games of {plies} plies (direct)", len(tables))
    started = time.perf_counter()
    async with direct.running(db_path) as driver:
        answering = time.perf_counter() - started
        memory = TreeMemory(driver.pid)
        memory.start()
        for table in tables:
            driver.tables[table.channel] = table
        first = True
        for table in tables:
            driver.play(table)
            await driver.until(
                lambda table=table: table.settled() and driver.sent[max(driver.sent)].board is not None
            )
            if first:
                sent = driver.sent[max(driver.sent)]
                figures.extra["first board"] = f"{(sent.board or 0) - sent.at:.2f} s after its command"
                first = False
        lags: list[float] = []
        store: list[float] = []
        jobs: dict[str, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
        while True:
            stats = await driver.stats()
            lags += stats["lags"]
            store += stats["store"]
            for name, (own, total) in stats["jobs"].items():
                jobs[name][0].extend(own)
                jobs[name][1].extend(total)
            if not stats["loading"] or time.perf_counter() - started > load_wait:
                break
            await asyncio.sleep(1.0)
        still_loading = int(stats["loading"])
        loaded = time.perf_counter() - started
        figures.seconds = loaded
        await collect(driver, figures)
        figures.lags, figures.store = lags + figures.lags, store + figures.store
        for name, (own, total) in figures.jobs.items():
            jobs[name][0].extend(own)
            jobs[name][1].extend(total)
        figures.jobs = dict(jobs)
        figures.moves = len(figures.store)
        memory.stop()
        figures.memory = memory.summary()
        figures.extra["answering"] = (
            f"{answering:.2f} s from start (restore {driver.ready_event['seconds']:.2f} s, "
            f"{driver.ready_event['restored']} games); "
            + (
                f"every state loaded after {loaded:.1f} s"
                if not still_loading
                else f"{count - still_loading} states loaded after {loaded:.1f} s (stopped waiting)"
            )
        )
    return figures


# == the SimCord driver ===========================================================================


class SimcordTimings:
    """When each interaction was sent, acknowledged (the response's call returned), answered
    (its followup returned), and when each channel's board moved."""

    def __init__(self) -> None:
        self.sent: dict[int, tuple[float, int]] = {}
        self.acknowledged: dict[int, float] = {}
        self.recorded: dict[int, float] = {}
        self.tokens: dict[str, int] = {}
        self.boards: dict[int, list[float]] = defaultdict(list)

    def install(self, bot: Any) -> None:
        import discord

        timings = self
        for name in ("defer", "send_message", "edit_message"):
            original = getattr(discord.InteractionResponse, name)

            async def answered(self: Any, *args: Any, __original: Any = original, **kwargs: Any) -> Any:
                result = await __original(self, *args, **kwargs)
                timings.acknowledged.setdefault(self._parent.id, time.perf_counter())
                timings.tokens[self._parent.token] = self._parent.id
                return result

            setattr(discord.InteractionResponse, name, answered)
        send = discord.Webhook.send

        async def followup(self: Any, *args: Any, **kwargs: Any) -> Any:
            result = await send(self, *args, **kwargs)
            interaction = timings.tokens.get(self.token)
            if interaction is not None:
                timings.recorded.setdefault(interaction, time.perf_counter())
            return result

        discord.Webhook.send = followup  # type: ignore[method-assign]
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

    def since(self, stamps: dict[int, float]) -> list[float]:
        return [stamps[i] - sent for i, (sent, _) in self.sent.items() if i in stamps]

    def command_to_board(self) -> list[float]:
        found = []
        for sent, channel_id in self.sent.values():
            later = [t for t in self.boards.get(channel_id, ()) if t >= sent]
            if later:
                found.append(min(later) - sent)
        return found


async def simcord_burst(games: int, computers: str, rounds: int) -> Figures:
    from bench import simdrive
    from tests.attacks.support import answered, together

    db_path = new_database("simcord")
    figures = Figures(f"burst, SimCord driver, computers: {computers}", games)
    async with simdrive.running(db_path, games) as world:
        for index, table in enumerate(world.tables):
            levels = computers_at(index, computers)
            await simdrive.open_game(
                world, table, computers=len(levels), level=levels[0] if levels else "easy"
            )
        timings, lag, store, jobs = SimcordTimings(), LagProbe(), StoreTimer(), JobClock()
        memory = TreeMemory()
        timings.install(world.bot)
        lag.start()
        store.install()
        jobs.install()
        memory.start()
        before, started = await stored_moves(db_path), time.perf_counter()
        played = 0
        for played in range(1, min(rounds, MAX_ROUNDS) + 1):  # noqa: B007 (reported)
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
            figures.refused += sum(not answered(r).startswith("✅ Recorded") for r in results)
        figures.seconds = time.perf_counter() - started
        figures.moves = await stored_moves(db_path) - before
        lag.stop()
        store.uninstall()
        jobs.uninstall()
        memory.stop()
    figures.acks, figures.recorded = timings.since(timings.acknowledged), timings.since(timings.recorded)
    figures.boards, figures.commands = timings.command_to_board(), len(timings.sent)
    figures.store, figures.lags, figures.jobs = store.take(), lag.take(), jobs.take()
    figures.memory = memory.summary() + " (SimCord's world included)"
    figures.extra["rounds"] = f"{played}; capacity {figures.commands / figures.seconds:.1f} moves/s"
    return figures


def postgres_burst(games: int, computers: str, rounds: int) -> Figures:
    """A burst on a PostgreSQL server started here (pgserver) at its default durability."""
    from tests.support.postgres import PostgresServer

    server = PostgresServer.start(durable=True)
    try:
        url = asyncio.run(server.new_database("load"))
        return asyncio.run(direct_burst(games, computers, rounds, database=url))
    finally:
        server.stop()


# == main ======================================================================================


def bursts(args: argparse.Namespace, size: int) -> None:
    """One burst of ``size`` games for each ``--computers`` choice; the comparison of a quarter
    with ``hard`` computers against the same tables with ``easy`` ones (or with none)."""
    p99: dict[str, float] = {}
    for computers in args.computers:
        if args.postgres:
            figures = postgres_burst(size, computers, args.rounds)
        else:
            run = simcord_burst if args.driver == "simcord" else direct_burst
            figures = asyncio.run(run(size, computers, args.rounds))
        print(figures.report(burst=True), flush=True)
        p99[computers] = percentile(figures.boards, 0.99)
    if "hard-quarter" not in p99:
        return
    for baseline in ("easy-quarter", "none"):
        if baseline in p99:
            above = p99["hard-quarter"] / p99[baseline] - 1
            print(
                f"  hard-quarter board p99 vs {baseline}: {above:+.0%} "
                f"(target <= +10 %: {verdict(above <= 0.10)})",
                flush=True,
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["burst", "poisson", "mixed", "restart"])
    parser.add_argument("sizes", type=int, nargs="+")
    parser.add_argument("--driver", choices=["direct", "simcord"], default="direct")
    parser.add_argument(
        "--computers",
        choices=COMPUTERS,
        nargs="+",
        default=["none"],
        help="burst: one run per choice, each size; with easy-quarter and hard-quarter both, "
        "the hard run's board p99 is compared with the easy one's (the same tables and boards)",
    )
    parser.add_argument("--rounds", type=int, default=MAX_ROUNDS)
    parser.add_argument("--rate", type=float, default=None)
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument(
        "--calibrate",
        type=float,
        default=None,
        help="poisson: seconds of the closed loop that measures the capacity (without --rate; "
        "default: as long as the run)",
    )
    parser.add_argument("--plies", type=int, default=86)
    parser.add_argument(
        "--load-wait",
        type=float,
        default=float("inf"),
        help="restart: stop waiting for the background loads after this many seconds",
    )
    parser.add_argument("--stored", type=int, default=1000, help="mixed: games stored before the restart")
    parser.add_argument("--postgres", action="store_true", help="burst, direct: on a PostgreSQL server")
    args = parser.parse_args()
    if args.driver == "simcord" and args.mode != "burst":
        parser.error("the SimCord driver runs bursts only")
    if args.postgres and (args.mode != "burst" or args.driver != "direct"):
        parser.error("--postgres is for bursts with the direct driver")
    for size in args.sizes:
        print(f"-- {args.mode} {size} (load average {load_average()})", flush=True)
        if args.mode == "burst":
            bursts(args, size)
        elif args.mode == "poisson":
            figures = asyncio.run(direct_poisson(size, args.rate, args.seconds, args.calibrate))
            print(figures.report(), flush=True)
        elif args.mode == "mixed":
            for figures in asyncio.run(direct_mixed(size, args.stored, args.plies)):
                print(figures.report(), flush=True)
        else:
            figures = asyncio.run(direct_restart(size, args.plies, load_wait=args.load_wait))
            print(figures.report(), flush=True)
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())

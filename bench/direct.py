"""The direct driver: the bot's session service and table announcer in a process of their own,
on a minimal fake transport, driven from another process.

SimCord runs the whole bot (discord.py's dispatch, the cogs, the HTTP layer) against a simulated
Discord in the bot's own process, and its bookkeeping of every task, callback and message runs
on the bot's event loop (at 50 games its scan was 58 % of the bot process's profile). Here the
bot process runs only what the bot itself does for a move: the service (lock, rules, the
commit), the computers, the announcer (the board drawn in a worker, the turn message); the
"transport" hands each message to the driver as one line on a Unix socket. The driver process
keeps its own copy of every game (it replays the lines the bot stored) to choose the scripted
players' moves, sends the commands, and reads the timestamps.

What it leaves out: discord.py (gateway events, interaction parsing, the command tree, building
and uploading the HTTP requests), the cogs' parsing and rate limits (a command here is what a
cog does after its checks: acknowledge, ``ready``, ``play``, the private reply), and Discord's
own latency. The acknowledgement is the bot's first answer to a command (what the cog's defer
would send), the "recorded" reply its private answer once the move is committed, a board the
announcer's post or edit of the turn message (after the picture was drawn). Times are stamped in
the bot process on ``time.perf_counter`` (the system's monotonic clock, the same in both
processes).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import gc
import json
import logging
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GAME = "triominos"
OPTIONS: dict[str, Any] = {"target": 200, "max_draws": "3"}
LONG_OPTIONS: dict[str, Any] = {"target": 400, "max_draws": "3"}
"""The stored games of a restart: a 400-point match, still running after 86 plies."""
STALL_SECONDS = 180.0
"""How long the driver waits with nothing at all coming from the bot before it counts what is
missing and goes on."""
GUILD = 10**14
"""Every table is a channel of this server (threads off: games play in their channels)."""
log = logging.getLogger("bench.direct")
_LOOP_PROFILE: list[Any] = []
"""The event loop's profiler while ``TILEHOST_BENCH_PROFILE`` asks for one."""


# == the bot's process ============================================================================


class Hub:
    """The bot process's end of the socket: events out, one JSON line each, time-stamped."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.next_message = 1

    def emit(self, event: str, **fields: Any) -> None:
        fields["e"], fields["t"] = event, time.perf_counter()
        self.writer.write((json.dumps(fields) + "\n").encode())


def fake_transport(hub: Hub) -> tuple[Any, type]:
    """The fake bot (what the announcer asks of discord.py's client) and its room class."""
    import discord

    class Room(discord.abc.Messageable):
        """A channel: a message sent or edited becomes a ``board`` event for the driver."""

        def __init__(self, channel_id: int) -> None:
            self.id = channel_id

        async def _get_channel(self) -> Any:
            return self

        async def send(self, content: str | None = None, **kwargs: Any) -> Any:  # type: ignore[override]
            message_id = hub.next_message
            hub.next_message += 1
            self.delivered(kwargs.get("file"), content)
            return discord.Object(message_id)

        def get_partial_message(self, message_id: int) -> Any:
            room = self

            class Partial:
                async def edit(self, **kwargs: Any) -> None:
                    attachments = kwargs.get("attachments") or [None]
                    room.delivered(attachments[0], kwargs.get("content"))

            return Partial()

        def delivered(self, file: Any, content: str | None) -> None:
            size = len(file.fp.getbuffer()) if file is not None else 0
            hub.emit("board" if size else "text", c=self.id, bytes=size, text=(content or "")[:80])

    class FakeBot:
        def __init__(self) -> None:
            self.service: Any = None
            self._rooms: dict[int, Room] = {}

        def get_channel(self, channel_id: int) -> Room:
            return self._rooms.setdefault(channel_id, Room(channel_id))

        async def fetch_channel(self, channel_id: int) -> Room:
            return self.get_channel(channel_id)

        def get_user(self, user_id: int) -> None:
            return None

    return FakeBot(), Room


class BotSide:
    """The service, the announcer and the probes; serves the driver's commands."""

    def __init__(self, db_path: str, hub: Hub) -> None:
        self.db_path = db_path
        self.hub = hub
        self.service: Any = None
        self.announcer: Any = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        from bench.probes import JobClock, LagProbe, StoreTimer, WriterTrace
        from bot import looping, workers
        from bot.sessions import SessionService
        from bot.storage import Storage
        from bot.ui.table import TableAnnouncer

        self.lag, self.store, self.jobs = LagProbe(), StoreTimer(), JobClock()
        trace = os.environ.get("TILEHOST_BENCH_TRACE")
        self.writes = WriterTrace(trace) if trace else None
        if self.writes is not None:
            self.writes.install()
        nice = os.environ.get("TILEHOST_LONG_NICE", "").strip()
        if nice:  # the bot takes it from its settings as it is created; this bot is built by hand
            workers.use_long_nice(int(nice))
        await asyncio.to_thread(workers.warm)
        self.lag.start()  # after the imports and the workers' start: from opening the database on
        self.store.install()
        self.jobs.install()
        started = time.perf_counter()
        storage = await Storage.open(self.db_path)
        bot, _ = fake_transport(self.hub)
        seeds = iter(range(10**6, 10**7))
        self.service = SessionService(
            storage, now=time.time, default_turn_seconds=24 * 3600, seed_source=lambda: next(seeds)
        )
        bot.service = self.service
        self.announcer = TableAnnouncer(bot)
        self.service.subscribe(self.on_update)
        self.service.subscribe(self.announcer.on_update)
        await storage.set_threads(GUILD, False)
        restored = await self.service.restore()
        if not os.environ.get("TILEHOST_BENCH_NO_FREEZE"):  # as the bot does once it restored
            looping.freeze_the_heap()
        self.hub.emit("ready", restored=len(restored), seconds=time.perf_counter() - started)

    async def on_update(self, update: Any) -> None:
        """Every stored line, for the driver's copy of the game (the gateway's part, as it were)."""
        session = update.session
        lines = [[step.seat, step.line] for step in update.steps]
        if update.kind == "started":
            row = session.row
            self.hub.emit(
                "started",
                g=session.id,
                c=row.channel_id,
                game=row.game,
                options=row.options,
                seed=row.seed,
                deal=row.deal,
                names=session.names,
                users=[seat.user_id for seat in session.seats],
                lines=lines,
            )
        elif lines:
            self.hub.emit("lines", g=session.id, lines=lines, over=session.is_over)

    def dispatch(self, command: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self.handle(command))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def handle(self, command: dict[str, Any]) -> None:
        kind, cid = command["k"], command.get("id")
        try:
            handler = getattr(self, f"do_{kind}")
            await handler(command)
        except Exception as error:
            self.hub.emit("refused", id=cid, why=f"{type(error).__name__}: {error}"[:300])

    async def do_open(self, command: dict[str, Any]) -> None:
        service, channel, users = self.service, command["c"], command["users"]
        session = await service.create(
            command.get("game", GAME),
            guild_id=GUILD,
            channel_id=channel,
            user_id=users[0],
            name=f"p{users[0]}",
            options=command.get("options", OPTIONS),
            turn_seconds=command.get("turn_seconds"),
        )
        for user in users[1:]:
            await service.join(session, user, f"p{user}")
        for level in command.get("computers", []):
            await service.add_computer(session, users[0], level)
        await service.start(session, users[0])
        self.hub.emit("opened", id=command["id"], g=session.id)

    async def _table(self, command: dict[str, Any]) -> Any:
        hosted = tuple(command.get("games", (GAME,)))
        return await self.service.ready(self.service.table(command["c"], hosted, command["u"]))

    async def do_play(self, command: dict[str, Any]) -> None:
        from bot import words

        self.hub.emit("ack", id=command["id"])  # the cog's defer, before any work
        session = await self._table(command)
        update = await self.service.play(session, command["u"], command["text"])
        self.hub.emit(
            "recorded", id=command["id"], text=words.private_ack(session, update.steps, update.seat)
        )

    async def do_hint(self, command: dict[str, Any]) -> None:
        self.hub.emit("ack", id=command["id"])
        session = await self._table(command)
        decision = await self.service.hint(session, command["u"])
        self.hub.emit("recorded", id=command["id"], text=str(decision.notation))

    async def do_suggest(self, command: dict[str, Any]) -> None:
        """Autocomplete: answered directly (Discord gives it three seconds, no defer)."""
        session = self.service.table(command["c"], tuple(command.get("games", (GAME,))), command["u"])
        found = await self.service.suggestions(session, command["u"], command.get("typed", ""))
        self.hub.emit("recorded", id=command["id"], text=f"{len(found)} suggestions")

    async def do_stats(self, command: dict[str, Any]) -> None:
        if _LOOP_PROFILE:  # between the first two stats: the scenario, not its set-up
            profile = _LOOP_PROFILE[0]
            if getattr(profile, "tilehost_started", False):
                profile.disable()
                _LOOP_PROFILE.clear()
            else:
                profile.enable()
                profile.tilehost_started = True
        loading = sum(1 for session in self.service.sessions() if session.loading is not None)
        if self.writes is not None:
            self.writes.flush()
        self.hub.emit(
            "stats",
            id=command["id"],
            lags=self.lag.take(),
            store=self.store.take(),
            trips=self.store.take_trips(),
            jobs=self.jobs.take(),
            loading=loading,
            live=len(self.service.sessions()),
        )

    async def close(self) -> None:
        from bot import workers

        self.lag.stop()
        await self.service.close()
        await self.announcer.close()
        await self.service.storage.close()
        workers.shutdown()


async def serve(db_path: str, socket_path: str) -> None:
    """The bot process: serve one driver on ``socket_path`` until it says ``quit``."""
    done = asyncio.Event()

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        side = BotSide(db_path, Hub(writer))
        await side.start()
        while line := await reader.readline():
            command = json.loads(line)
            if command["k"] == "quit":
                break
            side.dispatch(command)
        await asyncio.gather(*side.tasks, return_exceptions=True)
        await side.close()
        side.hub.emit("closed")
        await writer.drain()
        writer.close()
        done.set()

    server = await asyncio.start_unix_server(client, path=socket_path)
    async with server:
        await done.wait()


# == the driver's process =========================================================================


@dataclass
class Table:
    """One channel as the driver sees it: its people, and its copy of the game."""

    channel: int
    users: list[int]
    computers: list[str] = field(default_factory=list)
    game_id: int | None = None
    game: Any = None
    state: Any = None
    seats: list[int | None] = field(default_factory=list)
    over: bool = False
    pending: int | None = None
    """The command sent and not yet answered."""
    lines_at: float = 0.0
    board_at: float = 0.0

    def person_to_act(self) -> int | None:
        """The user to act, when a person is (None: a computer, or the game is over)."""
        if self.over or self.state is None:
            return None
        seat = self.game.to_act(self.state)
        return self.seats[seat] if seat is not None else None

    def ready(self) -> bool:
        """A person is to act, no command is out, and the board after the last move is shown."""
        return self.pending is None and self.person_to_act() is not None and self.board_at >= self.lines_at

    def settled(self) -> bool:
        """Nothing more will happen here until someone acts."""
        return self.pending is None and (self.over or self.ready())

    def next_move(self) -> str:
        game, state = self.game, self.state
        move = game.rank_moves(state, game.legal_moves(state))[0]
        return str(game.format_move(state, move))


@dataclass
class Sent:
    """One command: when it left and what came back."""

    kind: str
    channel: int
    at: float
    ack: float | None = None
    recorded: float | None = None
    board: float | None = None
    refused: str | None = None


class Driver:
    """Starts the bot process, sends commands, keeps the games' copies and the timings."""

    def __init__(self, db_path: str) -> None:
        self.db_path = db_path
        directory = tempfile.mkdtemp(prefix="tilehost-direct-")
        atexit.register(shutil.rmtree, directory, ignore_errors=True)
        self.socket = os.path.join(directory, "bot.sock")
        self.tables: dict[int, Table] = {}
        self.sent: dict[int, Sent] = {}
        self.awaiting_board: dict[int, list[Sent]] = {}
        """The moves sent at each table whose board has not come yet."""
        self.events: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.next_id = 1
        self.process: asyncio.subprocess.Process | None = None
        self.ready_event: dict[str, Any] = {}
        self.closed = asyncio.Event()
        self.missing_boards = self.unanswered = 0
        """Boards and answers that never came (see :meth:`until`)."""
        self.boards_shown: list[float] = []
        """When each board was posted or edited (a person's move's or a computer's)."""
        self.cpu_from = 0.0
        """The bot process's CPU seconds when the figures started (:meth:`forget`)."""

    # -- the bot process ----------------------------------------------------------------------

    async def start(self) -> None:
        """Start the bot process and wait until it restored its games and answers."""
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "serve", "--db", self.db_path, "--socket", self.socket
        )
        self.command_started = time.perf_counter()
        for _ in range(1200):
            try:
                self.reader, self.writer = await asyncio.open_unix_connection(self.socket, limit=2**26)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if self.process.returncode is not None:
                    raise RuntimeError("the bot process exited before it listened") from None
                await asyncio.sleep(0.05)
        self.listener = asyncio.get_running_loop().create_task(self.listen())
        while not self.ready_event:
            await self.wait_change()

    async def stop(self) -> None:
        """Let the bot finish its work and close; wait for its process to end."""
        self.send_raw({"k": "quit"})
        await self.closed.wait()
        self.writer.close()
        assert self.process is not None
        await self.process.wait()
        self.listener.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.listener

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def listen(self) -> None:
        while line := await self.reader.readline():
            event = json.loads(line)
            self.on_event(event)
            self.changed.set()
        self.closed.set()
        self.changed.set()

    async def wait_change(self) -> None:
        await self.changed.wait()
        self.changed.clear()

    async def until(self, done: Callable[[], bool], stall: float = STALL_SECONDS) -> None:
        """Wait until ``done()``; when nothing at all comes from the bot for ``stall`` seconds
        (a board that failed, a command never answered), count what is missing and go on."""
        while not done():
            if self.closed.is_set():
                raise RuntimeError("the bot process went away")
            try:
                await asyncio.wait_for(self.wait_change(), stall)
            except TimeoutError:
                self.give_up_waiting()

    def give_up_waiting(self) -> None:
        for table in self.tables.values():
            if table.pending is not None:
                self.sent[table.pending].refused = "never answered"
                table.pending = None
                self.unanswered += 1
            if table.board_at < table.lines_at:
                table.board_at = table.lines_at
                self.missing_boards += 1

    def send_raw(self, command: dict[str, Any]) -> None:
        self.writer.write((json.dumps(command) + "\n").encode())

    def send(self, kind: str, table: Table | None = None, **fields: Any) -> int:
        cid = self.next_id
        self.next_id += 1
        fields.update(k=kind, id=cid)
        if table is not None:
            fields.setdefault("c", table.channel)
        sent = self.sent[cid] = Sent(kind, fields.get("c", 0), time.perf_counter())
        if kind == "play":
            self.awaiting_board.setdefault(sent.channel, []).append(sent)
        self.send_raw(fields)
        return cid

    async def ask(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A command whose answer is one event (``opened``, ``stats``)."""
        cid = self.send(kind, **fields)
        future = self.replies[cid] = asyncio.get_running_loop().create_future()
        return await future

    # -- events --------------------------------------------------------------------------------

    def on_event(self, event: dict[str, Any]) -> None:
        kind, at = event["e"], event.get("t", 0.0)
        cid = event.get("id")
        sent = self.sent.get(cid) if cid is not None else None
        if kind == "ready":
            self.ready_event = event
        elif kind == "ack" and sent is not None:
            sent.ack = at
        elif kind in ("recorded", "refused") and sent is not None:
            sent.recorded = at
            if kind == "refused":
                sent.refused = event.get("why")
            table = self.tables.get(sent.channel)
            if table is not None and table.pending == cid:
                table.pending = None
        elif kind == "started":
            self.started(event)
        elif kind == "lines":
            table = self.by_game.get(event["g"])
            if table is not None:
                self.apply(table, event["lines"], at)
                table.over = table.over or bool(event.get("over"))
        elif kind == "board":
            self.boards_shown.append(at)
            table = self.tables.get(event["c"])
            if table is not None:
                table.board_at = at
            for each in self.awaiting_board.pop(event["c"], []):
                each.board = at
        if cid is not None and cid in self.replies and kind in ("opened", "stats", "refused"):
            future = self.replies.pop(cid)
            if not future.done():
                future.set_result(event)

    @property
    def by_game(self) -> dict[int, Table]:
        return {table.game_id: table for table in self.tables.values() if table.game_id is not None}

    def started(self, event: dict[str, Any]) -> None:
        from games import records
        from games.registry import get as get_game

        table = self.tables.get(event["c"])
        if table is None:
            return
        game = get_game(event["game"])
        header = records.new_record(game, event["names"], event["options"], event["seed"], event["deal"])
        _, state = records.start(header)
        table.game_id, table.game, table.state = event["g"], game, state
        table.seats, table.over = list(event["users"]), False
        self.apply(table, event["lines"], event["t"])

    def apply(self, table: Table, lines: list[list[Any]], at: float) -> None:
        from games import records
        from games.records import RecordedMove

        for seat, line in lines:
            table.state, _ = records.play_line(table.game, table.state, RecordedMove(seat, line))
        table.lines_at = at
        if table.game.outcome(table.state) is not None:
            table.over = True

    # -- what the scenarios use ------------------------------------------------------------------

    def add_table(self, channel: int, users: list[int], computers: list[str] | None = None) -> Table:
        table = self.tables[channel] = Table(channel, users, computers or [])
        return table

    async def open(self, table: Table, **extra: Any) -> None:
        answer = await self.ask(
            "open", c=table.channel, users=table.users, computers=table.computers, **extra
        )
        if answer["e"] == "refused":
            raise RuntimeError(f"could not open a game at {table.channel}: {answer['why']}")
        await self.until(lambda: table.state is not None and table.settled())

    def play(self, table: Table) -> int:
        user = table.person_to_act()
        assert user is not None
        cid = self.send("play", table, u=user, text=table.next_move())
        table.pending = cid
        return cid

    async def stats(self) -> dict[str, Any]:
        return await self.ask("stats")

    def forget(self) -> None:
        """Start the figures afresh: forget the commands sent so far and the boards shown."""
        self.sent.clear()
        self.boards_shown.clear()
        self.cpu_from = self.bot_cpu()

    def bot_cpu(self) -> float:
        """The CPU seconds the bot process (every thread of it, not its workers) used so far."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return float("nan")


@contextlib.asynccontextmanager
async def running(db_path: str) -> AsyncIterator[Driver]:
    """The bot process on ``db_path``, and the driver connected to it."""
    driver = Driver(db_path)
    await driver.start()
    try:
        yield driver
    finally:
        if not driver.closed.is_set():
            await driver.stop()


# == stored games for the restart ===================================================================


def template_games(count: int, plies: int) -> list[dict[str, Any]]:
    """Up to ``count`` Tri-Ominos games (400-point matches) played ``plies`` plies by the
    scripted players (first ranked move) and still running, with their lines, scores and seat
    to act (a few plies more where the next move is forced: the bot would have played it)."""
    from games import records
    from games.records import RecordedMove
    from games.registry import get as get_game

    game = get_game(GAME)
    options = game.Options.from_dict(LONG_OPTIONS).to_dict()
    made = []
    for seed in range(1, count + 1):
        header = records.new_record(game, ["a", "b"], options, seed, None)
        _, state = records.start(header)
        lines = []
        while (len(lines) < plies or game.forced_move(state) is not None) and game.outcome(state) is None:
            seat = game.to_act(state)
            move = game.rank_moves(state, game.legal_moves(state))[0]
            lines.append(RecordedMove(seat, game.format_move(state, move)))
            state, _ = game.apply(state, move)
        if game.outcome(state) is not None:
            continue  # finished early: not a running game
        snapshot = {"ply": len(lines), "scores": list(game.scores(state)), "to_act": game.to_act(state)}
        made.append({"seed": seed, "options": options, "lines": lines, "snapshot": snapshot})
    return made


def store_running_games(db_path: str, count: int, plies: int, first_channel: int = 10**15) -> list[int]:
    """``count`` running Tri-Ominos games of ``plies`` plies each, written straight into the
    (migrated) SQLite file: copies of a few games played here, each in its own channel with its
    own two people and a one-day clock. Their channels."""
    templates = template_games(8, plies)
    now = time.time()
    channels = []
    with sqlite3.connect(db_path) as db:
        for index in range(count):
            template = templates[index % len(templates)]
            channel = first_channel + index
            users = (3 * 10**12 + 2 * index, 3 * 10**12 + 2 * index + 1)
            cursor = db.execute(
                "INSERT INTO games (game, guild_id, channel_id, host_id, status, options, seed, "
                "turn_seconds, ply, snapshot, deadline, reminder_at, created_at, updated_at, started_at, "
                "table_key) "
                "VALUES (?, ?, ?, ?, 'playing', ?, ?, 86400, ?, ?, ?, ?, ?, ?, ?, 0)",
                (
                    GAME,
                    GUILD,
                    channel,
                    users[0],
                    json.dumps(template["options"], sort_keys=True),
                    template["seed"],
                    len(template["lines"]),
                    json.dumps(template["snapshot"]),
                    now + 86400,
                    now + 80000,
                    now,
                    now,
                    now,
                ),
            )
            game_id = cursor.lastrowid
            db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                [
                    (game_id, seat, user, name)
                    for seat, (user, name) in enumerate(zip(users, "ab", strict=True))
                ],
            )
            db.executemany(
                "INSERT INTO moves (game_id, ply, seat, notation, user_id, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, ply, line.seat, line.text, users[line.seat], now)
                    for ply, line in enumerate(template["lines"], start=1)
                ],
            )
            channels.append(channel)
    return channels


def stored_table(db_path: str, channel: int) -> Table:
    """The driver's copy of the running game stored in ``channel`` (read from the file)."""
    from games import records
    from games.records import RecordedMove
    from games.registry import get as get_game

    with sqlite3.connect(db_path) as db:
        game_id, name, options, seed, deal = db.execute(
            "SELECT id, game, options, seed, deal FROM games WHERE channel_id = ? AND status = 'playing'",
            (channel,),
        ).fetchone()
        seats = db.execute(
            "SELECT user_id, name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
        lines = db.execute(
            "SELECT seat, notation FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        ).fetchall()
    game = get_game(name)
    header = records.new_record(
        game, [n for _, n in seats], json.loads(options), seed, json.loads(deal) if deal else None
    )
    state = records.final_state(game, header.with_moves([RecordedMove(s, n) for s, n in lines]))
    table = Table(channel, [u for u, _ in seats], game_id=game_id, game=game, state=state)
    table.seats = [u for u, _ in seats]
    return table


async def migrated(db_path: str) -> None:
    """Create ``db_path`` with every migration applied."""
    from bot.storage import Storage

    storage = await Storage.open(db_path)
    await storage.close()


def main() -> int:
    parser = argparse.ArgumentParser(description="the direct driver's bot process")
    parser.add_argument("mode", choices=["serve"])
    parser.add_argument("--db", required=True)
    parser.add_argument("--socket", required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    trace = os.environ.get("TILEHOST_BENCH_TRACE")
    if trace:
        trace_slow_callbacks(trace)
    from bot import looping

    switch = os.environ.get("TILEHOST_BENCH_SWITCH")  # the bot's own, or another to compare
    looping.share_the_interpreter(float(switch) if switch else looping.SWITCH_INTERVAL)
    profile = os.environ.get("TILEHOST_BENCH_PROFILE")
    if not profile:
        asyncio.run(serve(args.db, args.socket))
        return 0
    with profiled(profile):
        asyncio.run(serve(args.db, args.socket))
    return 0


def _where(task: asyncio.Task[Any]) -> str:
    """A task's coroutine and where it waits now (the innermost coroutine it awaits)."""
    coro: Any = task.get_coro()
    names = [getattr(coro, "__qualname__", "?")]
    while (inner := getattr(coro, "cr_await", None)) is not None and hasattr(inner, "cr_await"):
        coro = inner
    if coro is not task.get_coro():
        names.append(getattr(coro, "__qualname__", "?"))
    return ">".join(names)


SLOW_CALLBACK = 0.01
"""A turn of the event loop's callback this long (seconds) is traced (``TILEHOST_BENCH_TRACE``)."""


def trace_slow_callbacks(path: str) -> None:
    """Append a ``slow started seconds callback cpu gc`` line to ``path`` for every callback of
    the event loop that ran :data:`SLOW_CALLBACK` or longer: what holds the loop. ``cpu`` is the
    loop thread's own CPU time in it (the rest: waiting for a core or for the interpreter),
    ``gc`` the time the garbage collector ran in it. Every full collection (and any other of
    :data:`SLOW_CALLBACK` or longer) is a ``gc started seconds generation collected`` line."""
    run = asyncio.events.Handle._run
    out = Path(path).open("a", encoding="utf-8")  # noqa: SIM115 (open while the process lives)
    collecting = [0.0, 0.0]  # when the collector started, and its total time so far

    def collector(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting[0] = time.perf_counter()
            return
        took = time.perf_counter() - collecting[0]
        collecting[1] += took
        if info["generation"] == 2 or took >= SLOW_CALLBACK:
            out.write(f"gc {collecting[0]:.4f} {took:.4f} {info['generation']} {info['collected']}\n")

    gc.callbacks.append(collector)

    def timed(handle: asyncio.events.Handle) -> None:
        started, cpu, collected = time.perf_counter(), time.thread_time(), collecting[1]
        run(handle)
        took = time.perf_counter() - started
        if took >= SLOW_CALLBACK:
            cpu = time.thread_time() - cpu
            callback = getattr(handle, "_callback", None)
            task = getattr(callback, "__self__", None)
            name = _where(task) if isinstance(task, asyncio.Task) else repr(callback)
            name = name.replace(" ", "_")[:120]
            out.write(f"slow {started:.4f} {took:.4f} {name} {cpu:.4f} {collecting[1] - collected:.4f}\n")
            out.flush()

    asyncio.events.Handle._run = timed  # type: ignore[method-assign]


@contextlib.contextmanager
def profiled(path: str) -> Any:
    """cProfile the bot process's event loop (into ``path``) and its SQLite writer's thread
    (``path.writer``): ``TILEHOST_BENCH_PROFILE=path``. Profiling slows both: for where the time
    goes, not for figures."""
    import cProfile

    from bot.storage.threads import SqliteWriter

    serve_writer = SqliteWriter.serve

    def serve_profiled(self: SqliteWriter, connection: sqlite3.Connection) -> None:
        writer = cProfile.Profile()
        writer.enable()
        try:
            serve_writer(self, connection)
        finally:
            writer.disable()
            writer.dump_stats(f"{path}.writer")

    SqliteWriter.serve = serve_profiled  # type: ignore[method-assign]
    loop = cProfile.Profile()
    _LOOP_PROFILE.append(loop)
    try:
        yield
    finally:
        loop.disable()
        loop.dump_stats(path)
        SqliteWriter.serve = serve_writer  # type: ignore[method-assign]


if __name__ == "__main__":
    random.seed(1)
    sys.exit(main())

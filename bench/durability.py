"""SIGKILL durability of the real bot process (issue 17): nothing acknowledged is ever lost.

Run: ``.venv/bin/python bench/durability.py [--kills 60] [--channels 6] [--db PATH]``.

A child process runs the real bot through SimCord on a SQLite FILE and plays Tri-Ominos in
``--channels`` channels (two scripted people each, a computer seat at every other table, a
one-hour turn clock), opening a new game where one ends. Each move the bot acknowledged to its
player ("✅ Recorded") is appended to an acknowledgement log, flushed to disk, before the next
command. The parent kills the child with SIGKILL at a random moment, then checks the file:
``PRAGMA integrity_check`` is ok and every acknowledged move is stored at its ply with its
notation. The next child restores the games and reports, before playing, which games have a
deadline stored and which ones its turn clock armed: they must be the same. The short version
runs in the test suite (``tests/attacks/test_sigkill.py``).

The moment of each kill is chosen by events, not by the clock, so that a slow or busy machine
kills at the same points of the play as a fast one: the parent waits until the child is ready
(its restore and clock check done) and then until it has acknowledged a random number of new
moves (0 to ``--kill-after``; the first kill waits for one at least, so every run checks acknowledged
moves), and kills after a random pause of up to ``--jitter`` seconds, which lands the kill
anywhere in the command under way. A wait that is never answered (the child hung) ends the run
after :data:`HANG_SECONDS`.

``--group-commit``: the same kill and check at the storage layer, where the moves of many games
are committed together: a child stores moves for ``--channels`` games at once (every game moving
all the time, so that the writer nearly always holds a group; a move with one or two forced turns
after it every other time, in one trip), logging each line once ``record_moves`` returned; the
parent kills it while it commits and checks every logged move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import simdrive
from tests.attacks.support import answered

HANG_SECONDS = 600.0
"""How long the parent waits for the child to be ready, or for its next acknowledged move, before
it calls the child hung (a busy two-core machine takes about 20 s to restart it)."""


@dataclass
class Outcome:
    """What the kills found (``killed_after``: how many new moves each kill waited for)."""

    kills: int = 0
    acknowledged: int = 0
    stored: int = 0
    lost: list[str] = field(default_factory=list)
    integrity: list[str] = field(default_factory=list)
    unarmed: list[int] = field(default_factory=list)
    restarts: list[float] = field(default_factory=list)
    killed_after: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.lost or self.integrity or self.unarmed)


# -- the child: the bot, playing until it is killed ------------------------------------------------


async def play_until_killed(db_path: str, acks_path: str, status_path: str, channels: int, seed: int) -> None:
    started = time.perf_counter()
    async with simdrive.running(db_path, channels, seed=seed) as world:
        clocked = [
            game_id
            for (game_id,) in sqlite3.connect(db_path).execute(
                "SELECT id FROM games WHERE status = 'playing' AND deadline IS NOT NULL"
            )
        ]
        armed = sorted(
            game_id for game_id, (deadline, _) in world.bot.service.clock.pending().items() if deadline
        )
        status = {"clocked": clocked, "armed": armed, "seconds": time.perf_counter() - started}
        write_synced(status_path, json.dumps(status) + "\n", mode="w")
        for turn in range(1_000_000):
            table = world.tables[turn % len(world.tables)]
            if simdrive.session_of(world, table) is None:
                await simdrive.open_game(world, table, computers=turn % 2, clock_hours=1)
                continue
            planned = simdrive.next_move(world, table)
            if planned is None:
                continue
            person, ply, notation = planned
            result = await simdrive.send_move(table, person, notation)
            if answered(result).startswith("✅ Recorded"):
                # on disk before the next command: an acknowledged move is one the player saw
                write_synced(acks_path, f"{table.game_id} {ply} {notation}\n")


async def commit_until_killed(db_path: str, acks_path: str, status_path: str, games: int) -> None:
    """Store moves for ``games`` games at once, forever; log each one the storage acknowledged."""
    from bot.storage import Clock, Line, SeatRow, Storage

    storage = await Storage.open(db_path)
    stored = {row.id: row.ply for row in await storage.active_games()}
    while len(stored) < games:
        host = SeatRow(0, 1, "a")
        game_id = await storage.create_game(
            game="kill",
            guild_id=None,
            channel_id=len(stored) + 1,
            host=host,
            options={},
            seed=0,
            deal=None,
            turn_seconds=0,
            now=time.time(),
        )
        await storage.start_game(game_id, [host], {}, Clock(), time.time())
        stored[game_id] = 0
    acks = open(acks_path, "a", encoding="utf-8")  # noqa: SIM115, ASYNC230 (open until the kill)

    async def keep_moving(game_id: int) -> None:
        ply = stored[game_id]
        while True:
            # a move, and every other time one or two forced turns after it: one trip
            lines = [
                Line(ply + 1 + n, 0, f"move-{ply + 1 + n}", 1 if n == 0 else None) for n in range(1 + ply % 3)
            ]
            ply = lines[-1].ply
            await storage.record_moves(game_id, lines, snapshot={"ply": ply}, clock=Clock(), now=time.time())
            for line in lines:  # after the commit returned: acknowledged
                acks.write(f"{game_id} {line.ply} {line.notation}\n")
            acks.flush()

    async def report() -> None:
        while True:
            await asyncio.sleep(0.05)
            database: Any = storage.database
            status = {"commits": database.commits, "largest_group": database.largest_group}
            write_synced(status_path, json.dumps(status) + "\n", mode="w")

    await asyncio.gather(report(), *(keep_moving(game_id) for game_id in stored))


def run_group_commit(kills: int, games: int, db_path: str, *, seed: int = 1) -> tuple[Outcome, int]:
    """Kill the storage child ``kills`` times while it commits; the outcome and the largest
    group of moves one commit took."""
    chooser = random.Random(seed)
    outcome = Outcome()
    with tempfile.TemporaryDirectory(prefix="tilehost-group-kill-") as work:
        acks = os.path.join(work, "acks.log")
        largest = 0
        for round_ in range(kills):
            status = os.path.join(work, f"status-{round_}.json")
            command = [sys.executable, __file__, "--child-storage", "--db", db_path, "--acks", acks]
            command += ["--status", status, "--channels", str(games)]
            child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                report = wait_committing(child, status)
                time.sleep(chooser.uniform(0.05, 0.5))
            finally:
                child.send_signal(signal.SIGKILL)
                child.wait()
            largest = max(largest, int(report["largest_group"]))
            outcome.kills += 1
            check_database(db_path, acks, outcome)
    return outcome, largest


def wait_committing(child: subprocess.Popen[bytes], status: str) -> dict[str, int]:
    """The child's report once it has committed groups of several moves."""
    deadline = time.monotonic() + HANG_SECONDS
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise RuntimeError(f"the storage child exited with {child.returncode}")
        try:
            report = dict(json.loads(Path(status).read_text()))
        except (OSError, ValueError):
            report = {}
        if report.get("commits", 0) > 5 and report.get("largest_group", 0) > 1:
            return report
        time.sleep(0.05)
    raise RuntimeError("the storage child did not commit groups in time")


def write_synced(path: str, text: str, mode: str = "a") -> None:
    with open(path, mode, encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())


# -- the parent: kills and checks ------------------------------------------------------------------


def start_child(db_path: str, acks: str, status: str, channels: int, seed: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, __file__, "--child", "--db", db_path, "--acks", acks, "--status", status]
    command += ["--channels", str(channels), "--seed", str(seed)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_ready(child: subprocess.Popen[bytes], status: str) -> dict[str, list[int]]:
    """The child's report once it is ready (its games restored, its clock checked)."""
    wait_for(child, lambda: os.path.exists(status) and os.path.getsize(status) > 0, "ready")
    return dict(json.loads(Path(status).read_text()))


def acknowledged(acks: str) -> int:
    """How many moves the players were told were recorded, in all the children so far."""
    if not os.path.exists(acks):
        return 0
    with open(acks, encoding="utf-8") as file:
        return sum(1 for line in file if line.endswith("\n"))


def wait_for_acks(child: subprocess.Popen[bytes], acks: str, target: int) -> None:
    """Wait until ``target`` moves in all have been acknowledged."""
    wait_for(child, lambda: acknowledged(acks) >= target, f"acknowledging move {target}")


def wait_for(child: subprocess.Popen[bytes], done: Callable[[], bool], what: str) -> None:
    """Poll ``done()`` until it is true; fail if the child exits first, or hangs."""
    deadline = time.monotonic() + HANG_SECONDS
    while not done():
        if child.poll() is not None:
            raise RuntimeError(f"the bot exited with {child.returncode} before it was {what}")
        if time.monotonic() > deadline:
            child.kill()
            raise RuntimeError(f"the bot hung: not {what} after {HANG_SECONDS:.0f} s")
        time.sleep(0.02)


def check_database(db_path: str, acks: str, outcome: Outcome) -> None:
    with sqlite3.connect(db_path) as db:
        result = [row[0] for row in db.execute("PRAGMA integrity_check")]
        if result != ["ok"]:
            outcome.integrity.append("; ".join(result))
        stored = {
            (game, ply): notation
            for game, ply, notation in db.execute("SELECT game_id, ply, notation FROM moves")
        }
    lines = Path(acks).read_text(encoding="utf-8").splitlines() if os.path.exists(acks) else []
    outcome.acknowledged, outcome.stored = len(lines), len(stored)
    for line in lines:
        game, ply, notation = line.split(" ", 2)
        if stored.get((int(game), int(ply))) != notation:
            outcome.lost.append(line)


def run(
    kills: int, channels: int, db_path: str, *, kill_after: int = 3, jitter: float = 2.0, seed: int = 1
) -> Outcome:
    """Start the bot; once it is ready and has acknowledged a random number of new moves (0 to
    ``kill_after``, 1 at least before the first kill), kill it after a random pause of up to ``jitter``
    seconds and check; ``kills`` times, then one last start to check the clocks it re-arms."""
    chooser = random.Random(seed)
    outcome = Outcome()
    with tempfile.TemporaryDirectory(prefix="tilehost-kill-") as work:
        acks_path = os.path.join(work, "acks.log")
        for round_ in range(kills + 1):
            status = os.path.join(work, f"status-{round_}.json")
            child = start_child(db_path, acks_path, status, channels, seed * 1000 + round_)
            try:
                ready = wait_ready(child, status)
                outcome.restarts.append(float(ready.get("seconds", 0.0)))  # type: ignore[arg-type]
                outcome.unarmed += sorted(set(ready["clocked"]) - set(ready["armed"]))
                if round_ == kills:
                    break
                wanted = chooser.randint(1 if round_ == 0 else 0, max(1, kill_after))
                wait_for_acks(child, acks_path, acknowledged(acks_path) + wanted)
                outcome.killed_after.append(wanted)
                time.sleep(chooser.uniform(0.0, jitter))
            finally:
                child.send_signal(signal.SIGKILL)
                child.wait()
            outcome.kills += 1
            check_database(db_path, acks_path, outcome)
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=60)
    parser.add_argument("--channels", type=int, default=6)
    parser.add_argument("--db", default="")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--acks", default="", help=argparse.SUPPRESS)
    parser.add_argument("--status", default="", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--kill-after", type=int, default=3, help="new acknowledged moves before a kill: 0 to this"
    )
    parser.add_argument("--jitter", type=float, default=2.0, help="then a random pause of up to this (s)")
    parser.add_argument("--group-commit", action="store_true", help="kill the storage layer mid-commit")
    parser.add_argument("--child-storage", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(play_until_killed(args.db, args.acks, args.status, args.channels, args.seed))
        return 0
    if args.child_storage:
        asyncio.run(commit_until_killed(args.db, args.acks, args.status, args.channels))
        return 0
    db_path = args.db or os.path.join(tempfile.mkdtemp(prefix="tilehost-kill-"), "tilehost.db")
    started = time.perf_counter()
    if args.group_commit:
        outcome, largest = run_group_commit(args.kills, args.channels, db_path, seed=args.seed)
        print(
            f"{outcome.kills} SIGKILLs during group commits in {time.perf_counter() - started:.0f} s: "
            f"{outcome.acknowledged} moves acknowledged, {outcome.stored} stored, {len(outcome.lost)} lost; "
            f"integrity {'ok' if not outcome.integrity else outcome.integrity}; "
            f"largest group {largest} moves"
        )
        return 0 if outcome.ok else 1
    outcome = run(
        args.kills, args.channels, db_path, kill_after=args.kill_after, jitter=args.jitter, seed=args.seed
    )
    print(
        f"{outcome.kills} SIGKILLs in {time.perf_counter() - started:.0f} s: {outcome.acknowledged} moves "
        f"acknowledged, {outcome.stored} stored, {len(outcome.lost)} lost; integrity "
        f"{'ok' if not outcome.integrity else outcome.integrity}; "
        f"clocks not re-armed: {outcome.unarmed or 'none'}; "
        f"start-up {max(outcome.restarts):.2f} s at most"
    )
    return 0 if outcome.ok else 1


if __name__ == "__main__":
    sys.exit(main())

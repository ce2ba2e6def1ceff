"""The heavy commands against the real bot (SimCord), timed on the real clock (issue 21, items 2-3).

Run: ``.venv/bin/python bench/loop_attacks.py [--attacks flood,giveup,import] [--root CHECKOUT]``
(``--root`` runs another checkout's bot, e.g. main's, for a before/after comparison; this file
uses nothing of the bot but its public surface).

- ``flood``: three members each send 12 ``/triominos hint`` at once at their own tables (their
  whole allowance) while, at a fourth table, a player asks autocomplete for their move and plays
  it: the autocomplete's and the board's latency (from the moment all the commands are sent).
- ``giveup``: ``/puzzominos solo`` on a drawn 12x10 target (the solver's slow case: its target
  check runs to its budget and the target is refused), then ``/puzzominos solo target:10x12``
  (the two-set named target) and ``/puzzominos giveup`` (a solution searched from the table).
- ``import``: ``/tileup import`` of a whole computer game's record (read, replayed, drawn).

For each: the command's wall time and the event loop's lag while it ran (a thread asks the loop
to run a callback every 5 ms and notes how late it runs), p50 / p99 / max; and the memory of the
process tree (proportional set size). The load average is printed beside.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

PATHOLOGICAL = "/".join(["XXXXXXXXXXXX"] * 10)
HINTS = 12


def real_now() -> float:
    return time.clock_gettime(time.CLOCK_MONOTONIC)


class Watchdog:
    """Pings the loop from a thread every 5 ms; the lag of each ping, with when it was asked."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop, self.samples = loop, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Watchdog:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            ran, asked = threading.Event(), real_now()
            self.loop.call_soon_threadsafe(ran.set)
            while not ran.wait(0.05):
                if self._stop.is_set():
                    return
            self.samples.append((asked, real_now() - asked))
            self._stop.wait(0.005)

    def lags(self, start: float, end: float) -> list[float]:
        return [lag for asked, lag in self.samples if start <= asked <= end]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def tree_memory_mb(root: int) -> float:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parent = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
    return total / 1024


@contextlib.asynccontextmanager
async def world(db_path: str) -> AsyncIterator[Any]:
    import simcord

    from bot import workers
    from bot.client import create_bot, default_extensions
    from bot.settings import Settings

    workers.warm()
    seeds = iter(range(1, 10_000))
    bot = create_bot(
        Settings(token="bench", db_path=db_path, turn_hours=24),
        extensions=default_extensions(),
        seed_source=lambda: next(seeds),
    )
    env = simcord.Env(bot, check_errors=False, settle_timeout=900.0)
    guild = env.create_guild("Attack Club")
    channels = [guild.create_text_channel(f"table-{n}") for n in range(4)]
    people = [[guild.add_member(env.create_user(f"p{n}-{s}")) for s in range(2)] for n in range(4)]
    await env.start()
    try:
        await bot.storage.set_threads(guild.id, False)
        yield env, bot, channels, people
    finally:
        await env.shutdown()
        await bot.close()
        workers.shutdown()


@contextlib.asynccontextmanager
async def together(env: Any) -> AsyncIterator[None]:
    """Interactions inside the block are only sent; they all run at its end (as in the tests)."""
    settle = env._settle_internal

    async def sent_only(**kwargs: Any) -> None:
        if kwargs.get("dispatch") != "INTERACTION_CREATE":
            await settle(**kwargs)

    env._settle_internal = sent_only
    try:
        yield
    finally:
        env._settle_internal = settle
    await env.settle()


def report(name: str, dog: Watchdog, start: float, end: float, extra: str = "") -> None:
    lags = dog.lags(start, end)
    print(
        f"{name:<12} {end - start:>8.1f} s   loop lag p50 {percentile(lags, 0.5) * 1000:>6.1f} ms  "
        f"p99 {percentile(lags, 0.99) * 1000:>7.1f} ms  max {max(lags, default=0) * 1000:>8.1f} ms"
        f"   {extra}  (load {os.getloadavg()[0]:.2f})",
        flush=True,
    )


def to_act(bot: Any, channel: Any, people: list[Any]) -> tuple[Any, Any]:
    session = next(iter(bot.service.in_channel(channel.id, ("triominos",))))
    seat = session.seat_to_act()
    return session, next(person for person in people if person.id == seat.user_id)


async def flood(env: Any, bot: Any, channels: list[Any], people: list[list[Any]], dog: Watchdog) -> None:
    import discord

    for channel, pair in zip(channels, people, strict=True):
        await pair[0].slash(channel, "triominos new", target=200)
        await pair[1].slash(channel, "triominos join")
        await pair[0].slash(channel, "triominos start")
    calm, player = to_act(bot, channels[3], people[3])
    game, state = calm.game, calm.state
    best = game.format_move(state, game.rank_moves(state, game.legal_moves(state))[0])
    times: dict[str, float] = {}
    original = discord.InteractionResponse.autocomplete

    async def answered(self: Any, choices: Any) -> Any:
        times.setdefault("autocomplete", real_now())
        return await original(self, choices)

    announcer = bot.announcer
    post, edit = announcer.post, announcer._edit

    async def posted(channel_id: int, *args: Any, **kwargs: Any) -> Any:
        result = await post(channel_id, *args, **kwargs)
        if channel_id == channels[3].id:
            times.setdefault("board", real_now())
        return result

    async def edited(channel_id: int, *args: Any, **kwargs: Any) -> Any:
        result = await edit(channel_id, *args, **kwargs)
        if channel_id == channels[3].id:
            times.setdefault("board", real_now())
        return result

    discord.InteractionResponse.autocomplete = answered  # type: ignore[method-assign]
    announcer.post, announcer._edit = posted, edited
    results = []
    try:
        async with together(env):
            for channel, pair in zip(channels[:3], people[:3], strict=True):
                _, hinter = to_act(bot, channel, pair)
                results += [await hinter.slash(channel, "triominos hint") for _ in range(HINTS)]
            await player.autocomplete(channels[3], "triominos play", "move", "")
            await player.slash(channels[3], "triominos play", move=best)
            start = real_now()
        end = real_now()
    finally:
        discord.InteractionResponse.autocomplete = original  # type: ignore[method-assign]
        announcer.post, announcer._edit = post, edit
    words = [str((r.followups[-1] if r.followups else r.response).content) for r in results]
    answered_hints = sum("computer would play" in w for w in words)
    refused = len(words) - answered_hints
    report(
        "flood",
        dog,
        start,
        end,
        f"autocomplete {(times['autocomplete'] - start) * 1000:.0f} ms, "
        f"board {(times['board'] - start) * 1000:.0f} ms, hints answered {answered_hints}, refused {refused}",
    )


async def giveup(env: Any, bot: Any, channels: list[Any], people: list[list[Any]], dog: Watchdog) -> None:
    member = people[0][1]
    start = real_now()
    refused = await member.slash(channels[0], "puzzominos solo", shape=PATHOLOGICAL)
    checked = real_now()
    await member.slash(channels[0], "puzzominos solo", target="10x12")
    middle = real_now()
    answer = await member.slash(channels[0], "puzzominos giveup")
    end = real_now()
    report("solo (drawn)", dog, start, checked, repr(last_words(refused)))
    report("solo 10x12", dog, checked, middle)
    report("giveup", dog, middle, end, repr(last_words(answer)))


def last_words(answer: Any) -> str:
    """The start of the bot's last answer to a command."""
    return str((answer.followups[-1] if answer.followups else answer.response).content)[:60]


async def import_record(
    env: Any, bot: Any, channels: list[Any], people: list[list[Any]], dog: Watchdog
) -> None:
    record = RECORD[0]
    start = real_now()
    answer = await people[1][0].slash(channels[1], "tileup import", record=("tileup.txt", record))
    end = real_now()
    files = [a.filename for a in (answer.followups[-1] if answer.followups else answer.response).attachments]
    report("import", dog, start, end, f"{len(record) // 1024} KB record -> {files}")


ATTACKS = {"flood": flood, "giveup": giveup, "import": import_record}
RECORD: list[bytes] = []
"""The record the import sends (played before the watch starts: the bench's own work)."""


async def main(args: argparse.Namespace) -> None:
    from games import registry
    from games.__main__ import selfplay

    RECORD.append(selfplay(registry.get("tileup"), 4, seed=3).to_text().encode())
    print(f"root {args.root}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        async with world(os.path.join(folder, "bench.db")) as (env, bot, channels, people):
            with Watchdog(asyncio.get_running_loop()) as dog:
                for name in args.attacks.split(","):
                    await ATTACKS[name](env, bot, channels, people, dog)
                print(f"process tree: {tree_memory_mb(os.getpid()):.0f} MB (proportional set size)")
            print(
                f"whole run: loop lag p99 {percentile([lag for _, lag in dog.samples], 0.99) * 1000:.1f} ms, "
                f"max {max(lag for _, lag in dog.samples) * 1000:.1f} ms over {len(dog.samples)} pings"
            )


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--attacks", default="flood,giveup,import")
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    return parser.parse_args()


if __name__ == "__main__":
    options = arguments()
    sys.path.insert(0, options.root)
    asyncio.run(main(options))

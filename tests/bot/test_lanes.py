"""The worker lanes (``bot.lanes``): budgets that stop a job's worker, interactive work ahead of
long work, turns and caps on long work, superseded jobs, dead workers replaced, and workers that
die with the bot. Jobs here sleep or return at once: no result depends on the machine's speed
(a job that sleeps a minute against a budget of a fifth of a second)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import workers
from bot.lanes import (
    Busy,
    Caps,
    Event,
    Job,
    Kind,
    Lane,
    Lanes,
    Owner,
    Stopped,
    Superseded,
    WorkerLost,
    WorkTooLong,
    _LongQueue,
)
from bot.processes import RemoteTraceback

ROOT = Path(__file__).resolve().parents[2]
SAFETY = 60.0
"""How long a test waits for an answer before it calls the lanes stuck (never a measure)."""
SLEEPY = 60.0
"""What a job that should be stopped sleeps: far beyond any budget here."""
LONG = Kind("long test job", Lane.LONG, budget=120.0)
CAPPED = Kind("capped test job", Lane.LONG, budget=120.0, capped=True)
QUICK = Kind("interactive test job", Lane.INTERACTIVE, budget=120.0, retry=True)


@pytest.fixture(scope="module")
def lanes() -> Iterator[Lanes]:
    """One interactive and one long worker, nothing preloaded (the jobs need nothing)."""
    pool = Lanes({Lane.INTERACTIVE: 1, Lane.LONG: 1}, (), Caps(per_user=2, per_server=3, total=4))
    pool.start()
    yield pool
    pool.shutdown()


@pytest.fixture
def traced(lanes: Lanes) -> Iterator[list[Event]]:
    trace: list[Event] = []
    lanes.trace = trace
    yield trace
    lanes.trace = None


def result(job: Job) -> Any:
    return job.future.result(timeout=SAFETY)


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + SAFETY
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.01)


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def started(lanes: Lanes, job: Job) -> bool:
    return job.started is not None


def test_a_job_past_its_budget_is_stopped_and_its_worker_replaced(lanes: Lanes) -> None:
    before = result(lanes.submit(LONG, os.getpid, ()))
    slow = lanes.submit(LONG, time.sleep, (SLEEPY,), budget=0.2)
    with pytest.raises(WorkTooLong, match=r"took longer than 0\.2 s"):
        result(slow)
    wait_until(lambda: not alive(before), "the stopped worker to end")
    after = result(lanes.submit(LONG, os.getpid, ()))
    assert after != before
    assert lanes.pids()[Lane.LONG] == [after]


def test_interactive_work_never_waits_behind_long_work(lanes: Lanes, traced: list[Event]) -> None:
    long_jobs = [lanes.submit(LONG, time.sleep, (SLEEPY,), owner=Owner(game_id=n)) for n in range(3)]
    wait_until(lambda: started(lanes, long_jobs[0]), "the first long job to start")
    quick = lanes.submit(QUICK, os.getpid, ())
    assert result(quick) in lanes.pids()[Lane.INTERACTIVE]
    assert not any(job.future.done() for job in long_jobs)
    start = next(e for e in traced if e.what == "started" and e.job == quick.number)
    assert start.waiting_long == 3, "it started while all three long jobs were running or waiting"
    for job in long_jobs:
        lanes.abandon(job)
    for job in long_jobs:
        with pytest.raises(Stopped):
            result(job)


def test_long_work_takes_turns_between_owners_and_background_work_waits() -> None:
    queue = _LongQueue()
    kinds = {"a": LONG, "b": LONG, "game": LONG, "restore": workers.RESTORE}
    owners = {
        "a": Owner(1, user_id=1),
        "b": Owner(1, user_id=2),
        "game": Owner(1, game_id=7),
        "restore": None,
    }
    jobs = {}
    for name in ("restore", "a", "a", "a", "b", "game", "b"):
        job = Job(kinds[name], os.getpid, (), 1.0, owners[name], number=len(jobs) + 1)
        jobs[job.number] = name
        queue.push(job)
    order = []
    while (job := queue.pop()) is not None:
        order.append(jobs[job.number])
    assert order == ["a", "b", "game", "a", "b", "a", "restore"]


def test_someone_waiting_puts_a_load_or_a_restore_first_in_the_long_lane() -> None:
    queue = _LongQueue()
    for number in range(1, 4):
        queue.push(Job(LONG, os.getpid, (), 1.0, Owner(1, user_id=number), number=number))
    queue.push(Job(workers.RESTORE, os.getpid, (), 1.0, key=("restore", 7), number=4))
    queue.push(Job(workers.LOAD, os.getpid, (), 1.0, number=5), front=True, foreground=True)
    assert [job.number for job in (queue.pop(), queue.pop())] == [5, 1]
    lanes = Lanes({}, ())
    lanes._long = queue
    lanes.promote(("restore", 7))
    assert [job.number for job in iter(queue.pop, None)] == [4, 2, 3]
    lanes.shutdown()


def test_caps_refuse_long_work_at_once_saying_what_to_do(lanes: Lanes) -> None:
    first_server, second_server = 100, 200
    held = [
        lanes.submit(CAPPED, time.sleep, (SLEEPY,), owner=Owner(first_server, user_id=1)) for _ in range(2)
    ]
    with pytest.raises(Busy, match=r"You already have 2 long requests under way .*wait until one is done"):
        lanes.submit(CAPPED, time.sleep, (SLEEPY,), owner=Owner(first_server, user_id=1))
    held.append(lanes.submit(CAPPED, time.sleep, (SLEEPY,), owner=Owner(first_server, user_id=2)))
    with pytest.raises(Busy, match="This server already has 3 long requests under way"):
        lanes.submit(CAPPED, time.sleep, (SLEEPY,), owner=Owner(first_server, user_id=3))
    held.append(lanes.submit(CAPPED, time.sleep, (SLEEPY,), owner=Owner(second_server, user_id=4)))
    with pytest.raises(Busy, match="busy with long requests from everyone"):
        lanes.submit(CAPPED, time.sleep, (SLEEPY,), owner=Owner(second_server, user_id=5))
    computer = lanes.submit(LONG, os.getpid, (), owner=Owner(first_server, game_id=9))  # never refused
    for job in held:
        lanes.abandon(job)
    assert result(computer) in lanes.pids()[Lane.LONG]
    again = lanes.submit(CAPPED, os.getpid, (), owner=Owner(first_server, user_id=1))
    assert result(again) in lanes.pids()[Lane.LONG]


def test_a_newer_job_replaces_a_waiting_one_and_a_stale_one_is_not_run(lanes: Lanes) -> None:
    busy = lanes.submit(QUICK, time.sleep, (SLEEPY,))
    wait_until(lambda: started(lanes, busy), "the interactive worker to be busy")
    older = lanes.submit(QUICK, os.getpid, (), key=("board", 1))
    newer = lanes.submit(QUICK, os.getpid, (), key=("board", 1))
    with pytest.raises(Superseded, match="a newer job replaced it"):
        result(older)
    left_position = lanes.submit(QUICK, os.getpid, (), stale=lambda: True)
    lanes.abandon(busy)
    with pytest.raises(Superseded, match="the position it was for is gone"):
        result(left_position)
    assert result(newer) in lanes.pids()[Lane.INTERACTIVE]


def test_exceptions_come_back_as_themselves_with_the_workers_traceback(lanes: Lanes) -> None:
    with pytest.raises(ValueError, match="invalid literal") as raised:
        result(lanes.submit(QUICK, int, ("x",)))
    assert isinstance(raised.value.__cause__, RemoteTraceback)
    assert "ValueError" in str(raised.value.__cause__)


def test_a_worker_that_dies_is_replaced_and_interactive_work_runs_again(
    lanes: Lanes, traced: list[Event]
) -> None:
    with pytest.raises(WorkerLost):
        result(lanes.submit(LONG, os._exit, (3,)))
    assert result(lanes.submit(LONG, os.getpid, ())) in lanes.pids()[Lane.LONG]
    board = lanes.submit(QUICK, time.sleep, (SLEEPY,))
    wait_until(lambda: started(lanes, board), "the interactive job to start")
    (victim,) = lanes.pids()[Lane.INTERACTIVE]
    os.kill(victim, signal.SIGKILL)  # as the out-of-memory killer would
    steps = lambda: [event.what for event in traced if event.job == board.number]  # noqa: E731
    wait_until(lambda: steps()[-2:] == ["lost", "started"], "the job to run again on a new worker")
    assert lanes.pids()[Lane.INTERACTIVE] != [victim]
    lanes.abandon(board)
    with pytest.raises(Stopped):
        result(board)


def test_budgets_hold_while_a_tests_clock_stands_still(lanes: Lanes, monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord freezes ``time.monotonic``: stopping a job and starting its worker's successor
    must not wait on it."""
    monkeypatch.setattr(time, "monotonic", lambda: 1000.0)
    with pytest.raises(WorkTooLong):
        result(lanes.submit(LONG, time.sleep, (SLEEPY,), budget=0.2))
    assert result(lanes.submit(LONG, os.getpid, ())) in lanes.pids()[Lane.LONG]


CHILD = textwrap.dedent(
    """
    import asyncio, json, os, sys, time
    sys.path[:0] = [{root!r}]
    from bot import workers
    from bot.lanes import Owner

    workers.PRELOAD = ()  # the jobs here need nothing loaded
    asyncio.run(asyncio.to_thread(workers.warm))  # as the bot starts them: from a thread that ends
    lanes = workers.lanes()
    assert lanes.submit(workers.BOARD, os.getpid, ()).future.result(60) in sum(lanes.pids().values(), [])
    busy = lanes.submit(workers.COMPUTER, time.sleep, (600,), owner=Owner(game_id=1))
    while busy.started is None:
        time.sleep(0.01)
    pids = sum(lanes.pids().values(), [lanes.zygote.pid])
    print(json.dumps(pids), flush=True)
    time.sleep(600)
    """
)


def test_workers_zygote_and_a_busy_worker_die_with_the_bot_after_sigkill() -> None:
    bot = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(root=str(ROOT))], stdout=subprocess.PIPE, text=True
    )
    try:
        assert bot.stdout is not None
        pids = json.loads(bot.stdout.readline())
        assert len(pids) == 1 + sum(workers.sizes().values()) and all(alive(pid) for pid in pids)
    finally:
        bot.kill()
        bot.wait()
    wait_until(lambda: not any(alive(pid) for pid in pids), "every worker process to end")

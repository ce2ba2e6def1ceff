"""Two lanes of worker processes: interactive work never waits behind long work.

- **Interactive** (boards, hand pictures, ranking the moves for autocomplete): first come, first
  served, on workers of its own at normal priority. A job for a position the game has already
  left is not run (its ``stale`` test, asked just before it starts) and a newer job with the same
  ``key`` replaces a queued one (the caller draws the newer position).
- **Long** (computer moves, hints, solver runs, target checks, give-ups, replays, imports,
  restores): workers of their own at a lower CPU priority (``nice``), so that when both lanes are
  busy the interactive one gets the cores. Jobs are taken in turn from each owner (a member, or
  a game's own computer seats), so no one holds the lane; background jobs (restores) run only
  when nothing else waits. A member's requests are capped (per member, per server, in total):
  over a cap the request is refused at once with :class:`Busy`, saying which cap and what to do.

Every job has a budget of real seconds (its kind's, or the caller's): past it, its worker is
killed and replaced and the caller gets :class:`WorkTooLong`. Time is read on the real
monotonic clock in a dispatcher thread, never on the event loop's clock (which tests stop).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import pickle
import selectors
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterator, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.errors import SessionError
from bot.processes import RemoteTraceback, Worker, Zygote, ZygoteGone

log = logging.getLogger(__name__)

LONG_NICE = 10
"""How much lower the long lane's CPU priority is (a niceness of 10 gets about a tenth of a core
that normal-priority work also wants)."""


def real_now() -> float:
    """Seconds on the kernel's monotonic clock (tests replace ``time.monotonic``, not this)."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


class Lane(StrEnum):
    """Which workers run a job."""

    INTERACTIVE = "interactive"
    LONG = "long"


@dataclass(frozen=True)
class Kind:
    """A kind of job: its lane, its budget (real seconds once it runs), whether a member's
    request of this kind counts against the caps, whether it waits for all other long work (or
    goes before it: someone is waiting for it), and whether it is run again once when its worker
    dies under it (not for its budget)."""

    name: str
    lane: Lane
    budget: float
    capped: bool = False
    background: bool = False
    urgent: bool = False
    retry: bool = False


@dataclass(frozen=True)
class Owner:
    """Whom long work is for: a member (``user_id``) of a server, or a game (``game_id``: its own
    computer seats). Long work is shared out in turn between owners."""

    guild_id: int | None = None
    user_id: int | None = None
    game_id: int | None = None

    @property
    def turn_key(self) -> Hashable:
        """Who takes turns in the long lane."""
        if self.user_id is not None:
            return ("user", self.user_id)
        return ("game", self.game_id)


@dataclass(frozen=True)
class Caps:
    """How many capped long jobs (running or waiting) a member, a server and everyone together
    may have at once."""

    per_user: int = 2
    per_server: int = 4
    total: int = 16


class WorkTooLong(Exception):
    """A job went past its budget: its worker was stopped (the caller says so to the user)."""


class Superseded(Exception):
    """A job was not run: the position it was for is gone, or a newer job replaced it."""


class WorkerLost(Exception):
    """The worker running a job died (killed from outside, out of memory)."""


class Busy(SessionError):
    """Long work refused at once: the member, their server or the bot has too much running."""


class Stopped(Exception):
    """The lanes were shut down before the job ran."""


@dataclass(eq=False)
class Job:
    """One call to run in a worker."""

    kind: Kind
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    budget: float
    owner: Owner | None = None
    stale: Callable[[], bool] | None = None
    key: Hashable | None = None
    future: Future[Any] = field(default_factory=Future)
    number: int = 0
    submitted: float = 0.0
    started: float | None = None
    attempts: int = 0
    abandoned: bool = False

    @property
    def name(self) -> str:
        """What the job runs, for logs and errors."""
        return getattr(self.fn, "__name__", self.kind.name)


@dataclass(eq=False)
class _Slot:
    """A place for one worker in a lane."""

    lane: Lane
    nice: int
    worker: Worker | None = None
    job: Job | None = None
    deadline: float | None = None


@dataclass(frozen=True)
class Event:
    """A step of a job, kept while tracing (tests and benchmarks read the order)."""

    what: str
    """``queued``, ``started``, ``done``, ``refused``, ``superseded``, ``killed`` or ``lost``."""
    job: int
    kind: str
    lane: Lane
    at: float
    waiting_long: int
    """Long jobs waiting or running at that moment."""


class _LongQueue:
    """Long jobs: in turn from each owner (first in, first out for one owner); background jobs
    only when no other waits."""

    def __init__(self) -> None:
        self.turns: OrderedDict[Hashable, deque[Job]] = OrderedDict()
        self.background: deque[Job] = deque()

    def __len__(self) -> int:
        return sum(len(jobs) for jobs in self.turns.values()) + len(self.background)

    def __iter__(self) -> Iterator[Job]:
        for jobs in self.turns.values():
            yield from jobs
        yield from self.background

    def push(self, job: Job, front: bool = False, foreground: bool = False) -> None:
        if job.kind.background and not foreground:
            (self.background.appendleft if front else self.background.append)(job)
            return
        if foreground:
            key: Hashable = ("promoted", job.number)
        else:
            key = job.owner.turn_key if job.owner is not None else ("job", job.number)
        jobs = self.turns.get(key)
        if jobs is None:
            jobs = self.turns[key] = deque()
            if front:
                self.turns.move_to_end(key, last=False)
        (jobs.appendleft if front else jobs.append)(job)

    def pop(self) -> Job | None:
        if self.turns:
            key, jobs = next(iter(self.turns.items()))
            job = jobs.popleft()
            del self.turns[key]
            if jobs:
                self.turns[key] = jobs  # back of the line: the next owner goes first
            return job
        return self.background.popleft() if self.background else None

    def remove(self, job: Job) -> bool:
        if job in self.background:
            self.background.remove(job)
            return True
        for key, jobs in self.turns.items():
            if job in jobs:
                jobs.remove(job)
                if not jobs:
                    del self.turns[key]
                return True
        return False


class Lanes:
    """The worker processes of both lanes and the thread that feeds them."""

    def __init__(
        self,
        sizes: Mapping[Lane, int],
        preload: tuple[str, ...],
        caps: Caps = Caps(),
        long_nice: int = LONG_NICE,
    ) -> None:
        self.caps = caps
        self.zygote = Zygote(preload)
        self._slots = [
            _Slot(lane, long_nice if lane is Lane.LONG else 0)
            for lane, count in sizes.items()
            for _ in range(count)
        ]
        self._interactive: deque[Job] = deque()
        self._long = _LongQueue()
        self._lock = threading.RLock()  # a finished job's callbacks (caps) run under it
        self._starting = threading.Lock()
        self._numbers = itertools.count(1)
        self._selector = selectors.DefaultSelector()
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_write, False)
        self._selector.register(self._wake_read, selectors.EVENT_READ)
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._retry_at: float | None = None
        self._counts: dict[Hashable, int] = {}
        self.trace: list[Event] | None = None
        """Set to a list to record every step of every job (tests, benchmarks)."""

    # -- the caller's side (any thread) -------------------------------------------------------

    def start(self) -> None:
        """Start the zygote and every worker, and the dispatcher (blocking; idempotent)."""
        with self._starting:
            if self._thread is not None:
                return
            self.zygote.start()
            self._refill()
            self._thread = threading.Thread(target=self._dispatch_forever, name="lanes", daemon=True)
            self._thread.start()

    @property
    def started(self) -> bool:
        """True once :meth:`start` has run."""
        return self._thread is not None

    def submit(
        self,
        kind: Kind,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        *,
        owner: Owner | None = None,
        stale: Callable[[], bool] | None = None,
        key: Hashable | None = None,
        budget: float | None = None,
    ) -> Job:
        """Queue ``fn(*args)``; raises :class:`Busy` at once when a cap refuses it."""
        job = Job(kind, fn, args, kind.budget if budget is None else budget, owner, stale, key)
        with self._lock:
            if self._stopping:
                raise Stopped("the worker processes are stopped")
            job.number, job.submitted = next(self._numbers), real_now()
            self._admit(job)
            if key is not None:
                self._supersede(key)
            if kind.lane is Lane.INTERACTIVE:
                self._interactive.append(job)
            else:
                self._long.push(job, front=kind.urgent, foreground=kind.urgent)
            self._note("queued", job)
        self._wake()
        return job

    def abandon(self, job: Job) -> None:
        """The caller no longer wants ``job``: dropped if it waits, its worker killed if it runs."""
        with self._lock:
            if job.future.done():
                return
            job.abandoned = True
            if job.started is None:
                self._unqueue(job)
                self._finish(job, error=Stopped("abandoned"))
                return
        self._wake()

    def promote(self, key: Hashable) -> None:
        """A waiting background job with ``key`` is wanted now: it goes first in the long lane."""
        with self._lock:
            for job in list(self._long.background):
                if job.key == key:
                    self._long.background.remove(job)
                    self._long.push(job, front=True, foreground=True)

    def pids(self) -> dict[Lane, list[int]]:
        """The worker processes of each lane now."""
        with self._lock:
            found: dict[Lane, list[int]] = {lane: [] for lane in Lane}
            for slot in self._slots:
                if slot.worker is not None:
                    found[slot.lane].append(slot.worker.pid)
            return found

    def waiting(self) -> dict[Lane, int]:
        """How many jobs of each lane wait for a worker."""
        with self._lock:
            return {Lane.INTERACTIVE: len(self._interactive), Lane.LONG: len(self._long)}

    def shutdown(self) -> None:
        """Fail every waiting job, stop the dispatcher, end every worker and the zygote."""
        with self._lock:
            self._stopping = True
            waiting = [*self._interactive, *self._long]
            self._interactive.clear()
            self._long = _LongQueue()
            for job in waiting:
                self._finish(job, error=Stopped("the worker processes are stopped"))
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)
        with self._lock:
            for slot in self._slots:
                if slot.job is not None:
                    self._finish(slot.job, error=Stopped("the worker processes are stopped"))
                self._retire(slot)
            self.zygote.stop()
            self._selector.close()
            for fd in (self._wake_read, self._wake_write):
                with contextlib.suppress(OSError):
                    os.close(fd)

    # -- admission (the lock is held) ------------------------------------------------------

    def _admit(self, job: Job) -> None:
        owner = job.owner
        if not job.kind.capped or owner is None or owner.user_id is None:
            return
        caps = self.caps
        if self._counts.get(("user", owner.user_id), 0) >= caps.per_user:
            self._refuse(
                job,
                f"You already have {caps.per_user} long requests under way (hints, solver runs, replays, "
                "imports, give-ups): wait until one is done, then ask again.",
            )
        if owner.guild_id is not None and self._counts.get(("guild", owner.guild_id), 0) >= caps.per_server:
            self._refuse(
                job,
                f"This server already has {caps.per_server} long requests under way (hints, solver runs, "
                "replays, imports, give-ups): try again in a minute.",
            )
        if self._counts.get("total", 0) >= caps.total:
            self._refuse(
                job, "Tilehost is busy with long requests from everyone right now: try again in a minute."
            )
        keys = self._cap_keys(owner)
        for cap_key in keys:
            self._counts[cap_key] = self._counts.get(cap_key, 0) + 1
        job.future.add_done_callback(lambda _: self._release(keys))

    def _refuse(self, job: Job, message: str) -> None:
        self._note("refused", job)
        raise Busy(message)

    @staticmethod
    def _cap_keys(owner: Owner) -> tuple[Hashable, ...]:
        keys: list[Hashable] = ["total", ("user", owner.user_id)]
        if owner.guild_id is not None:
            keys.append(("guild", owner.guild_id))
        return tuple(keys)

    def _release(self, keys: tuple[Hashable, ...]) -> None:
        with self._lock:
            for cap_key in keys:
                left = self._counts.get(cap_key, 0) - 1
                if left > 0:
                    self._counts[cap_key] = left
                else:
                    self._counts.pop(cap_key, None)

    def _supersede(self, key: Hashable) -> None:
        for job in [job for job in (*self._interactive, *self._long) if job.key == key]:
            self._unqueue(job)
            self._note("superseded", job)
            self._finish(job, error=Superseded(f"{job.name}: a newer job replaced it"))

    def _unqueue(self, job: Job) -> None:
        if job in self._interactive:
            self._interactive.remove(job)
        else:
            self._long.remove(job)

    # -- the dispatcher thread ---------------------------------------------------------------

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_write, b"!")

    def _dispatch_forever(self) -> None:
        while not self._stopping:
            try:
                self._dispatch_once()
            except Exception:  # a bug here must not leave every caller waiting forever
                log.exception("the worker dispatcher failed; it goes on")
                time.sleep(0.1)

    def _dispatch_once(self) -> None:
        with self._lock:
            if self._stopping:
                return
            self._kill_overdue()
        self._refill()
        with self._lock:
            starts = self._assign()
        for slot, job in starts:
            self._send(slot, job)
        for key, _ in self._selector.select(self._next_timeout()):
            if key.fileobj == self._wake_read:
                with contextlib.suppress(BlockingIOError, OSError):
                    os.read(self._wake_read, 4096)
            else:
                self._receive(key.data)

    def _refill(self) -> bool:
        """A worker in every empty slot (outside the lock: a fork takes milliseconds, a new zygote
        seconds); False if one could not be started (tried again a second later)."""
        for slot in self._slots:
            if slot.worker is not None or self._stopping:
                continue
            worker = self._fork(slot.nice)
            if worker is None:
                self._retry_at = real_now() + 1.0
                return False
            with self._lock:
                slot.worker = worker
            self._selector.register(worker.connection.fileno(), selectors.EVENT_READ, slot)
        self._retry_at = None
        return True

    def _fork(self, nice: int) -> Worker | None:
        for attempt in range(2):
            try:
                if attempt or not self.zygote.alive():
                    self.zygote.start()
                return self.zygote.fork(nice)
            except (ZygoteGone, OSError) as error:
                log.warning("the worker zygote is gone (%s); starting a new one", error)
                self.zygote.stop()
        log.error("no worker process could be started")
        return None

    def _next_timeout(self) -> float | None:
        with self._lock:
            deadlines = [slot.deadline for slot in self._slots if slot.deadline is not None]
        if self._retry_at is not None:
            deadlines.append(self._retry_at)
        return max(0.0, min(deadlines) - real_now()) if deadlines else None

    def _assign(self) -> list[tuple[_Slot, Job]]:
        starts = []
        for slot in self._slots:
            if slot.job is not None or slot.worker is None:
                continue
            job = self._next_job(slot.lane)
            if job is None:
                continue
            if not job.future.running() and not job.future.set_running_or_notify_cancel():
                continue  # cancelled while it waited
            slot.job, job.started, job.attempts = job, real_now(), job.attempts + 1
            slot.deadline = job.started + job.budget
            starts.append((slot, job))
        return starts

    def _next_job(self, lane: Lane) -> Job | None:
        while True:
            job = self._interactive.popleft() if lane is Lane.INTERACTIVE and self._interactive else None
            if lane is Lane.LONG:
                job = self._long.pop()
            if job is None:
                return None
            if job.future.cancelled():
                continue
            if job.stale is not None and _is_stale(job.stale):
                self._note("superseded", job)
                self._finish(job, error=Superseded(f"{job.name}: the position it was for is gone"))
                continue
            return job

    def _send(self, slot: _Slot, job: Job) -> None:
        worker = slot.worker
        assert worker is not None
        try:
            data = pickle.dumps((job.fn, job.args))
        except Exception as error:
            with self._lock:
                self._free(slot)
                self._finish(job, error=error)
            return
        with self._lock:
            self._note("started", job)
        with contextlib.suppress(OSError):  # a dead worker: its end of file comes next, handled there
            worker.connection.send_bytes(data)

    def _receive(self, slot: _Slot) -> None:
        worker = slot.worker
        if worker is None:
            return
        try:
            reply = worker.connection.recv()
        except (EOFError, OSError):
            with self._lock:
                self._worker_died(slot)
            return
        except Exception as failure:  # a result that does not unpickle
            reply = (False, failure, "")
        with self._lock:
            job = slot.job
            self._free(slot)
            if job is None:
                return
            self._note("done", job)
            if reply[0]:
                self._finish(job, result=reply[1])
            else:
                error, text = reply[1], reply[2]
                if text:
                    error.__cause__ = RemoteTraceback(text)
                self._finish(job, error=error)

    def _kill_overdue(self) -> None:
        now = real_now()
        for slot in self._slots:
            job = slot.job
            if job is None:
                continue
            overdue = slot.deadline is not None and now >= slot.deadline
            if not (overdue or job.abandoned):
                continue
            self._note("killed", job)
            if overdue:
                log.warning("%s went past its budget of %g s: its worker is replaced", job.name, job.budget)
                error: Exception = WorkTooLong(f"{job.name} took longer than {job.budget:g} s")
            else:
                error = Stopped("abandoned")
            self._finish(job, error=error)
            self._retire(slot)

    def _worker_died(self, slot: _Slot) -> None:
        job = slot.job
        pid = slot.worker.pid if slot.worker is not None else None
        self._retire(slot)
        if job is None:
            log.warning("an idle worker (pid %s) died; replaced", pid)
            return
        log.warning("the worker (pid %s) running %s died; replaced", pid, job.name)
        self._note("lost", job)
        if job.kind.retry and job.attempts < 2 and not job.abandoned:
            job.started = None
            (self._interactive.appendleft if job.kind.lane is Lane.INTERACTIVE else self._long_front)(job)
            return
        self._finish(job, error=WorkerLost(f"the worker running {job.name} died"))

    def _long_front(self, job: Job) -> None:
        self._long.push(job, front=True)

    def _free(self, slot: _Slot) -> None:
        slot.job, slot.deadline = None, None

    def _retire(self, slot: _Slot) -> None:
        worker, slot.worker = slot.worker, None
        self._free(slot)
        if worker is None:
            return
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(worker.connection.fileno())
        worker.kill()
        worker.close()

    # -- bookkeeping ---------------------------------------------------------------------------

    def _finish(self, job: Job, *, result: Any = None, error: BaseException | None = None) -> None:
        future = job.future
        if future.done():
            return
        if not future.running() and not future.set_running_or_notify_cancel():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def _note(self, what: str, job: Job) -> None:
        if self.trace is None:
            return
        running = sum(1 for slot in self._slots if slot.lane is Lane.LONG and slot.job is not None)
        long_work = len(self._long) + running
        self.trace.append(Event(what, job.number, job.kind.name, job.kind.lane, real_now(), long_work))


def _is_stale(test: Callable[[], bool]) -> bool:
    try:
        return bool(test())
    except Exception:
        log.exception("a job's staleness test failed; the job runs")
        return False

"""The threads that own SQLite's connections: one writer that commits in groups, and readers.

SQLite's calls block, so each connection lives in a thread of its own and the event loop hands
it whole pieces of work. A write is a *job*: a function that runs every statement of one
transaction on the writer's connection, in one call into its thread (not one crossing per
statement). The writer takes every job waiting when it is free and commits them together:

    BEGIN IMMEDIATE
      SAVEPOINT jobs; <job 1>; <job 2>; ...      -- every job, one savepoint for the group
    COMMIT                                       -- one commit (one fsync) for the group

If a job raises, the group is rolled back to ``jobs`` and run again with a savepoint for each
job (``SAVEPOINT job; <job 1>; RELEASE job; ...``): the job that raised is rolled back to its
own savepoint and fails alone, and the others are committed. Each statement gives the
interpreter up and takes it back; a savepoint for each job only when one fails keeps a group to
its own statements while the event loop (busy with a burst) holds the interpreter.

A job's awaiter resumes only after its group's COMMIT returned: acknowledged means durable. If
the group as a whole fails (the COMMIT, or an error after which SQLite dropped the whole
transaction), every job of it is tried again alone, so that one job's trouble is never another's.

Readers are separate connections (``query_only``) in WAL mode: reads see every committed group
and never wait for the writer.

Transaction bodies are written once as coroutines over :class:`bot.storage.engines.Executor`;
on SQLite their awaits complete at once, so :func:`drive` runs a body to its end inside the
writer's thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_GROUP = 1_000
"""The most jobs one COMMIT takes (a longer queue is committed in several groups)."""

Work = Callable[[sqlite3.Connection], Any]


def drive(body: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine whose awaits all complete at once (a transaction body on an executor
    that calls SQLite directly) to its end, here and now, and return its value."""
    try:
        body.send(None)
    except StopIteration as done:
        return done.value
    body.close()
    raise RuntimeError("a transaction body awaited something other than its own statements")


def _deliver(loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    """Settle ``future`` on its loop from this thread (unless its awaiter gave up)."""

    def settle() -> None:
        if future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
        loop.call_soon_threadsafe(settle)


@dataclass
class _Job(Generic[T]):
    """One write: ``work`` runs inside a transaction on the writer's connection."""

    work: Callable[[sqlite3.Connection], T]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[T]

    @property
    def abandoned(self) -> bool:
        """The awaiter gave up (cancelled) before the job ran: it is not run at all."""
        return self.future.cancelled()


@dataclass
class _Session:
    """An exclusive transaction (``Database.transaction()``): the writer serves only this
    session's statements, one call at a time, until it ends."""

    loop: asyncio.AbstractEventLoop
    started: asyncio.Future[None]
    calls: queue.SimpleQueue[tuple[Work, asyncio.Future[Any]] | None] = field(
        default_factory=queue.SimpleQueue
    )

    async def call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` on the writer's connection (inside this session)."""
        future: asyncio.Future[T] = self.loop.create_future()
        self.calls.put((work, future))
        return await future

    def end(self) -> None:
        """Give the writer back to the other jobs."""
        self.calls.put(None)


class _ConnectionThread(threading.Thread):
    """A daemon thread that opens one connection and serves work from its queue until ``None``."""

    def __init__(self, name: str, path: str, setup: tuple[str, ...], loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(name=name, daemon=True)
        self.path = path
        self.setup = setup
        self.loop = loop
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()

    def connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        connection.row_factory = sqlite3.Row
        try:
            for pragma in self.setup:
                connection.execute(f"PRAGMA {pragma}").close()
        except BaseException:
            connection.close()
            raise
        return connection

    def run(self) -> None:
        try:
            connection = self.connect()
        except BaseException as error:
            _deliver(self.loop, self.opened, False, error)
            _deliver(self.loop, self.closed, True, None)
            return
        _deliver(self.loop, self.opened, True, None)
        try:
            self.serve(connection)
        finally:
            connection.close()
            _deliver(self.loop, self.closed, True, None)

    def serve(self, connection: sqlite3.Connection) -> None:
        raise NotImplementedError


class SqliteWriter(_ConnectionThread):
    """The one connection that writes, committing the jobs waiting at the same moment together."""

    def __init__(self, path: str, setup: tuple[str, ...], loop: asyncio.AbstractEventLoop) -> None:
        super().__init__("tilehost-sqlite-writer", path, setup, loop)
        self.jobs: queue.SimpleQueue[_Job[Any] | _Session | None] = queue.SimpleQueue()
        self.commits = 0
        """How many COMMITs the writer made (tests count them: a group is one)."""
        self.largest_group = 0
        self.reruns = 0
        """How many groups were run again with a savepoint for each job (one of them raised)."""
        self.stopping = False

    # -- the event loop's side ------------------------------------------------------------

    async def submit(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` inside a transaction (committed with the others waiting now); its value
        once the COMMIT returned. ``work`` raising rolls back its own statements only."""
        self._check_open()
        job: _Job[T] = _Job(work, self.loop, self.loop.create_future())
        self.jobs.put(job)
        return await job.future

    async def exclusive(self) -> _Session:
        """Wait until the writer serves this session alone (see :class:`_Session`)."""
        self._check_open()
        session = _Session(self.loop, self.loop.create_future())
        self.jobs.put(session)
        try:
            await session.started
        except BaseException:
            session.end()  # the writer may still pick it up: let it go at once
            raise
        return session

    async def stop(self) -> None:
        """Finish the work queued before, close the connection, end the thread."""
        self.stopping = True
        self.jobs.put(None)
        await self.closed
        self.join()

    def _check_open(self) -> None:
        if self.stopping or self.closed.done():
            raise RuntimeError("the database is closed")

    # -- the writer's thread ----------------------------------------------------------------

    def serve(self, connection: sqlite3.Connection) -> None:
        following: deque[_Job[Any] | _Session | None] = deque()
        while True:
            item = following.popleft() if following else self.jobs.get()
            if item is None:
                return
            if isinstance(item, _Session):
                self._serve_session(connection, item)
                continue
            group: list[_Job[Any]] = [item]
            while len(group) < MAX_GROUP:
                try:
                    waiting = self.jobs.get_nowait()
                except queue.Empty:
                    break
                if not isinstance(waiting, _Job):
                    following.append(waiting)  # a session or the stop comes after this group
                    break
                group.append(waiting)
            self._commit_group(connection, [job for job in group if not job.abandoned])

    def _commit_group(self, connection: sqlite3.Connection, group: list[_Job[Any]]) -> None:
        if not group:
            return
        try:
            connection.execute("BEGIN IMMEDIATE")
        except BaseException as error:  # no write lock (busy, read-only...): nothing ran
            for job in group:
                _deliver(self.loop, job.future, False, error)
            return
        try:
            outcomes = self._run_group(connection, group)
            connection.execute("COMMIT")
        except BaseException as error:  # the group as a whole failed: nothing of it is stored
            if connection.in_transaction:
                try:
                    connection.execute("ROLLBACK")
                except sqlite3.Error:
                    log.exception("ROLLBACK after a failed group commit failed")
            if len(group) == 1:
                _deliver(self.loop, group[0].future, False, error)
                return
            log.warning("a group of %d writes failed together (%s); trying each alone", len(group), error)
            for job in group:
                self._commit_group(connection, [job])
            return
        self.commits += 1
        self.largest_group = max(self.largest_group, len(group))
        for job, ok, value in outcomes:
            _deliver(self.loop, job.future, ok, value)

    def _run_group(
        self, connection: sqlite3.Connection, group: list[_Job[Any]]
    ) -> list[tuple[_Job[Any], bool, Any]]:
        """Every job of the group, inside one savepoint for the group rather than one each:
        each statement gives the interpreter up and takes it back, and while the event loop is
        busy every taking-back waits, so fewer statements make a group quicker. If a job raises,
        the group is rolled back to its savepoint and run again with a savepoint for each job,
        so that the failing job fails alone: ``(job, ok, value or error)`` for each."""
        connection.execute("SAVEPOINT jobs")
        outcomes: list[tuple[_Job[Any], bool, Any]] = []
        for job in group:
            try:
                outcomes.append((job, True, job.work(connection)))
                if not connection.in_transaction:  # the job ended the group's transaction
                    raise sqlite3.OperationalError("a write ended the transaction of its group")
            except Exception as error:
                if not connection.in_transaction:
                    raise
                connection.execute("ROLLBACK TO jobs")
                if len(group) == 1:
                    return [(job, False, error)]
                break
        else:
            return outcomes
        self.reruns += 1
        return [self._run_job(connection, job) for job in group]

    @staticmethod
    def _run_job(connection: sqlite3.Connection, job: _Job[Any]) -> tuple[_Job[Any], bool, Any]:
        """One job under its own savepoint: ``(job, ok, value or error)``. Raises when SQLite
        dropped the whole transaction (the group must be tried again)."""
        connection.execute("SAVEPOINT job")
        try:
            value = job.work(connection)
        except Exception as error:
            if not connection.in_transaction:
                raise
            connection.execute("ROLLBACK TO job")
            connection.execute("RELEASE job")
            return job, False, error
        connection.execute("RELEASE job")
        return job, True, value

    def _serve_session(self, connection: sqlite3.Connection, session: _Session) -> None:
        _deliver(self.loop, session.started, True, None)
        while (call := session.calls.get()) is not None:
            work, future = call
            try:
                value = work(connection)
            except BaseException as error:
                _deliver(self.loop, future, False, error)
            else:
                _deliver(self.loop, future, True, value)
        if connection.in_transaction:  # the session's owner went away mid-transaction
            connection.execute("ROLLBACK")


class SqliteReaders:
    """Read-only connections in threads of their own, sharing one queue of reads."""

    def __init__(
        self, path: str, setup: tuple[str, ...], loop: asyncio.AbstractEventLoop, count: int
    ) -> None:
        self.loop = loop
        self.reads: queue.SimpleQueue[tuple[Work, asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self.threads = [
            _Reader(f"tilehost-sqlite-reader-{index}", path, (*setup, "query_only = ON"), loop, self.reads)
            for index in range(count)
        ]

    async def start(self) -> None:
        """Open every connection (raises the first one's error)."""
        for thread in self.threads:
            thread.start()
        try:
            for thread in self.threads:
                await thread.opened
        except BaseException:
            await self.stop()
            raise

    async def submit(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` on a reader's connection (outside any transaction)."""
        future: asyncio.Future[T] = self.loop.create_future()
        self.reads.put((work, future))
        return await future

    async def stop(self) -> None:
        """Finish the reads queued before, close every connection."""
        for _ in self.threads:
            self.reads.put(None)
        for thread in self.threads:
            if thread.is_alive() or not thread.closed.done():
                await thread.closed
            thread.join()


class _Reader(_ConnectionThread):
    def __init__(
        self,
        name: str,
        path: str,
        setup: tuple[str, ...],
        loop: asyncio.AbstractEventLoop,
        reads: queue.SimpleQueue[tuple[Work, asyncio.Future[Any]] | None],
    ) -> None:
        super().__init__(name, path, setup, loop)
        self.reads = reads

    def serve(self, connection: sqlite3.Connection) -> None:
        while (read := self.reads.get()) is not None:
            work, future = read
            if future.cancelled():
                continue
            try:
                value = work(connection)
            except BaseException as error:
                _deliver(self.loop, future, False, error)
            else:
                _deliver(self.loop, future, True, value)


def database_file(path: str | Path) -> str:
    """The path to hand SQLite (its folder is created first)."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    return str(path)

"""Worker processes that never outlive the bot, and that the bot can stop one by one.

A *zygote* process is started once with :mod:`subprocess` (never :mod:`multiprocessing`, whose
``Process.start`` polls every other child on ``time.monotonic`` and hangs while a test's
virtual clock stands still, and whose forkserver and resource tracker outlive a killed parent).
It imports the heavy modules once and forks each worker on request, so a new worker is ready
in milliseconds and shares the zygote's memory copy on write.

The bot owns the only write end of a *lifeline* pipe; the zygote and every worker hold its read
end. When the bot dies, however it dies (SIGKILL, the OOM killer), the kernel closes the write
end and the pipe reads EOF: the zygote kills its workers and exits; each worker has a thread
blocked on the lifeline that ends the process, and it also gets SIGKILL from the kernel when its
parent, the zygote, dies (``PR_SET_PDEATHSIG``: the zygote is single-threaded, so the "parent
thread" caveat does not apply). Each worker talks to the bot over its own socket, held by the two
of them only, and is handed to the bot as a pidfd, so killing one never hits a recycled pid.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib
import json
import logging
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1
_PID = struct.Struct("!q")
_BOOT = (
    "import json, sys; config = json.loads(sys.stdin.readline()); sys.path[:0] = config['path']; "
    "from bot.processes import zygote_main; zygote_main(config)"
)
TITLE = "tilehost-workers"
"""The zygote's first argument, so that ``ps`` shows what it is."""


class ZygoteGone(Exception):
    """The zygote process died or stopped answering; a new one must be started."""


class RemoteError(Exception):
    """A job raised an exception that could not be carried back as itself."""


class RemoteTraceback(Exception):
    """The traceback of a job's exception in its worker (set as the exception's cause)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


@dataclass
class Worker:
    """One worker process as the bot sees it: its pid, a pidfd (None where the kernel has none)
    and the connection jobs go over."""

    pid: int
    pidfd: int | None
    connection: Connection

    def kill(self) -> None:
        """SIGKILL the worker (never another process that got its pid)."""
        with contextlib.suppress(ProcessLookupError, OSError):
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)

    def close(self) -> None:
        """Close the bot's end of the worker (an idle worker reads EOF and exits)."""
        with contextlib.suppress(OSError):
            self.connection.close()
        if self.pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self.pidfd)
            self.pidfd = None


class Zygote:
    """The bot's side of the zygote: start it, fork workers, stop everything."""

    def __init__(self, preload: Sequence[str]) -> None:
        self.preload = tuple(preload)
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._lifeline: int | None = None

    @property
    def pid(self) -> int | None:
        """The zygote's pid while it runs."""
        return self._process.pid if self._process is not None else None

    def start(self) -> None:
        """Start the zygote (blocking until it has imported the preloaded modules)."""
        with self._lock:
            if self._process is not None and self._process.poll() is None:
                return
            self._stop_locked()
            read_end, write_end = os.pipe()  # both close on exec; the zygote gets read_end only
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            config = {
                "path": [entry for entry in sys.path if entry],
                "preload": list(self.preload),
                "lifeline": read_end,
                "control": theirs.fileno(),
            }
            try:
                self._process = subprocess.Popen(
                    [sys.executable, "-c", _BOOT, TITLE],
                    pass_fds=(read_end, theirs.fileno()),
                    stdin=subprocess.PIPE,
                )
                assert self._process.stdin is not None
                with self._process.stdin as stdin:
                    stdin.write(json.dumps(config).encode() + b"\n")
            finally:
                os.close(read_end)
                theirs.close()
            self._control, self._lifeline = ours, write_end
            if self._read_pid() != self._process.pid:
                raise ZygoteGone("the zygote did not start")

    def fork(self, nice: int = 0) -> Worker:
        """A new worker process (``nice`` added to its niceness)."""
        with self._lock:
            if self._control is None:
                raise ZygoteGone("the zygote is not running")
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                socket.send_fds(self._control, [b"F" + _PID.pack(nice)], [theirs.fileno()])
                pid, fds = self._read_reply()
            except OSError as error:
                ours.close()
                raise ZygoteGone(f"the zygote is gone ({error})") from error
            finally:
                theirs.close()
            return Worker(pid, fds[0] if fds else None, Connection(ours.detach()))

    def _read_pid(self) -> int:
        pid, fds = self._read_reply()
        for fd in fds:
            os.close(fd)
        return pid

    def _read_reply(self) -> tuple[int, list[int]]:
        assert self._control is not None
        data, fds, _, _ = socket.recv_fds(self._control, _PID.size, 1)
        if len(data) != _PID.size:
            for fd in fds:
                os.close(fd)
            raise ZygoteGone("the zygote closed its connection")
        (pid,) = _PID.unpack(data)
        if pid < 0:
            raise ZygoteGone("the zygote could not fork")
        return pid, fds

    def alive(self) -> bool:
        """True while the zygote process runs."""
        return self._process is not None and self._process.poll() is None

    def stop(self) -> None:
        """Close the lifeline and the control socket: the zygote kills its workers and exits."""
        with self._lock:
            self._stop_locked()

    def _stop_locked(self) -> None:
        if self._control is not None:
            self._control.close()
            self._control = None
        if self._lifeline is not None:
            os.close(self._lifeline)
            self._lifeline = None
        process, self._process = self._process, None
        if process is not None:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# -- the zygote ------------------------------------------------------------------------------------


def zygote_main(config: dict[str, Any]) -> None:
    """The zygote's loop: fork a worker per request; exit when the bot is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the bot's to handle
    sys.stdin.close()
    os.close(0)
    os.open(os.devnull, os.O_RDONLY)  # fd 0 again, so that nothing later takes it by chance
    control = socket.socket(fileno=int(config["control"]))
    lifeline = int(config["lifeline"])
    for name in config["preload"]:
        try:
            importlib.import_module(name)
        except Exception:
            log.exception("worker preload: %s could not be imported", name)
    gc.freeze()  # what is loaded now stays shared with the workers (no copy on write from gc)
    wake = os.pipe()
    os.set_blocking(wake[1], False)
    signal.set_wakeup_fd(wake[1])
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children: set[int] = set()
    control.sendall(_PID.pack(os.getpid()))
    try:
        while True:
            readable, _, _ = select.select([control.fileno(), lifeline, wake[0]], [], [])
            if wake[0] in readable:
                os.read(wake[0], 512)
            _reap(children)
            if lifeline in readable:
                break
            if control.fileno() in readable and not _serve(control, (lifeline, *wake), children):
                break
    finally:
        for pid in children:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    os._exit(0)


def _reap(children: set[int]) -> None:
    for pid in list(children):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            children.discard(pid)


def _serve(control: socket.socket, fds: tuple[int, int, int], children: set[int]) -> bool:
    """One request of the bot (fork a worker); False when the bot is gone. ``fds``: the
    lifeline and the zygote's wake-up pipe."""
    data, received, _, _ = socket.recv_fds(control, 1 + _PID.size, 1)
    if not data:
        return False
    (nice,) = _PID.unpack(data[1:])
    channel = received[0]
    lifeline, *wake = fds
    pid = os.fork()
    if pid == 0:
        control.close()
        for fd in wake:
            os.close(fd)
        _worker_main(channel, lifeline, nice)  # never returns
    os.close(channel)
    children.add(pid)
    pidfd: list[int] = []
    with contextlib.suppress(OSError, AttributeError):
        pidfd.append(os.pidfd_open(pid))
    try:
        socket.send_fds(control, [_PID.pack(pid)], pidfd)
    finally:
        for fd in pidfd:
            os.close(fd)
    return True


# -- a worker --------------------------------------------------------------------------------------


def _worker_main(channel: int, lifeline: int, nice: int) -> None:
    code = 0
    try:
        _die_with_parent()
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        if nice:
            with contextlib.suppress(OSError):
                os.nice(nice)
        threading.Thread(target=_watch_lifeline, args=(lifeline,), daemon=True, name="lifeline").start()
        _serve_jobs(Connection(channel))
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _die_with_parent() -> None:
    """Ask the kernel for SIGKILL when the zygote dies (Linux); exit now if it already has."""
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _watch_lifeline(lifeline: int) -> None:
    """End the process when the bot is gone (its end of the lifeline closed)."""
    while True:
        try:
            if not os.read(lifeline, 1):
                break
        except InterruptedError:
            continue
        except OSError:
            break
    os._exit(0)


def _serve_jobs(connection: Connection) -> None:
    while True:
        try:
            message = connection.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            fn, args = pickle.loads(message)
            reply: tuple[Any, ...] = (True, fn(*args))
        except BaseException as error:
            reply = (False, *_portable(error))
        try:
            connection.send(reply)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            connection.send((False, RemoteError(f"the result could not be sent back: {error!r}"), ""))


def _portable(error: BaseException) -> tuple[BaseException, str]:
    """The exception (or a stand-in that pickles) and its traceback text."""
    text = "".join(traceback.format_exception(error))
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RemoteError(f"{type(error).__name__}: {error}"), text
    return error, text

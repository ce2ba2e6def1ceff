"""Which processes a test run started, found in ``/proc``: every process that carries the run's
mark in its environment (set when the suite starts, inherited by everything it starts, even by
processes that left the tree when their parent died) or that descends from the test process."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

MARK = "TILEHOST_TEST_RUN"


@dataclass(frozen=True)
class Leftover:
    """A process still alive: its pid, command line and resident memory."""

    pid: int
    command: str
    rss_mb: float

    def __str__(self) -> str:
        return f"pid {self.pid} ({self.rss_mb:.0f} MB): {self.command[:200]}"


def mark_run() -> str:
    """Mark this run in the environment its child processes inherit (once per run)."""
    return os.environ.setdefault(MARK, f"{os.getpid()}-{time.time_ns()}")


def started_by_this_run() -> list[Leftover]:
    """Every live process (not a zombie) this run started, except the test process itself."""
    me, mark = os.getpid(), f"{MARK}={os.environ.get(MARK, '')}".encode()
    parents = {pid: _parent(pid) for pid in _pids()}
    found = []
    for pid, parent in parents.items():
        if pid == me or parent is None or _state(pid) in ("Z", "X", None):
            continue
        if _descends(pid, me, parents) or mark in _environment(pid):
            found.append(Leftover(pid, _command(pid), _rss_mb(pid)))
    return found


def _pids() -> list[int]:
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


def _stat_fields(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _parent(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if fields else None


def _state(pid: int) -> str | None:
    fields = _stat_fields(pid)
    return fields[0] if fields else None


def _descends(pid: int, ancestor: int, parents: dict[int, int | None]) -> bool:
    seen = set()
    current: int | None = parents.get(pid)
    while current and current not in seen:
        if current == ancestor:
            return True
        seen.add(current)
        current = parents.get(current)
    return False


def _environment(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return b""


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0

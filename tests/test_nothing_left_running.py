"""Issue 24: after the suite, no process it started is alive. This runs last (see
``tests/conftest.py``): it stops what the session keeps for every test (the worker processes,
the PostgreSQL server), then looks for any process the run started: bots' workers, zygotes,
servers, browsers, whatever a test left behind, even after its parent was killed."""

from __future__ import annotations

import time

from tests.conftest import stop_session_resources
from tests.support.processes import started_by_this_run

PATIENCE = 30.0
"""How long the processes of the run get to end after they are told to (a stuck one fails)."""


def test_no_process_the_run_started_is_left_alive() -> None:
    stop_session_resources()
    deadline = time.monotonic() + PATIENCE
    left = started_by_this_run()
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = started_by_this_run()
    assert not left, "still alive after the run:\n" + "\n".join(map(str, left))

"""Nothing heavy on the event loop (issue 21, item 3): through a solitaire refused on a
pathological drawn target (its target check), a give-up of the two-set 10x12 (once a solver run on
the loop, 110 s on the pathological target), an import
and its replay, a watchdog on the real clock sees the loop answer while each job runs in its
worker. The jobs get small budgets here (the suite stays fast); a job past its budget is
stopped and the member told so, and either way the loop kept answering. No timing is asserted:
only that the loop answered during the work, which it cannot while the work is on it."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from bot import workers
from bot.lanes import Event, Kind
from games import registry
from games.__main__ import selfplay
from tests.e2e.helpers import make_world, private, shown
from tests.support.watchdog import Watchdog

PATHOLOGICAL = "/".join(["XXXXXXXXXXXX"] * 10)
"""A drawn 12x10 rectangle: the solver's slow case (its give-up took 14-110 s)."""
SMALL_BUDGETS = {"TARGET_CHECK": 0.5, "GIVE_UP": 1.0, "IMPORT": 5.0, "REPLAY": 2.0}


@pytest.fixture
def traced(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Event]]:
    """Every job's steps, with the heavy kinds on small budgets."""
    for name, seconds in SMALL_BUDGETS.items():
        monkeypatch.setattr(workers, name, dataclasses.replace(getattr(workers, name), budget=seconds))
    lanes = workers.lanes()
    trace: list[Event] = []
    lanes.trace = trace
    yield trace
    lanes.trace = None


def windows(trace: list[Event], kind: Kind) -> list[tuple[float, float]]:
    """When each job of ``kind`` ran in a worker (real seconds)."""
    starts = {event.job: event.at for event in trace if event.kind == kind.name and event.what == "started"}
    ends = {
        event.job: event.at
        for event in trace
        if event.kind == kind.name and event.what in ("done", "killed", "lost")
    }
    return [(start, ends[job]) for job, start in starts.items() if job in ends]


def answer_of(result: Any) -> str:
    return str(shown(result).content)


async def test_the_loop_answers_through_a_pathological_solitaire_and_an_import(
    simcord_env: Any, traced: list[Event]
) -> None:
    env, channel, people = make_world(simcord_env, "Heavy Club", "heavy")
    alice, bob = people["alice"], people["bob"]
    record = selfplay(registry.get("geominos"), 2, seed=5).to_text().encode()
    with Watchdog(asyncio.get_running_loop()) as dog:
        checked = answer_of(await alice.slash(channel, "puzzominos solo", shape=PATHOLOGICAL))
        started = answer_of(await alice.slash(channel, "puzzominos solo", target="10x12"))
        gave_up = private(await alice.slash(channel, "puzzominos giveup")).content
        imported = answer_of(await bob.slash(channel, "geominos import", record=("g.txt", record)))
    assert "so no game starts on it" in checked, checked  # undecided, or past its budget: never a game
    assert "your table is the message below" in started, started
    assert gave_up.startswith("✅ Recorded") or "took too long" in gave_up, gave_up
    assert "Imported Geominos record" in imported or "took too long" in imported, imported
    for error in env.errors:  # reading them acknowledges them: only a budget's refusals are expected
        text = str(error)
        assert "took too long" in text or "took longer than" in text or "no game starts" in text, repr(error)
    # A job can pass its budget still queued (behind the others in the long lane on a busy
    # machine) and never run; one whose answer came back did run.
    must_run = [workers.TARGET_CHECK] * ("could not tell" in checked or "cannot be filled" in checked)
    must_run += [workers.GIVE_UP] * gave_up.startswith("✅ Recorded")
    must_run += [workers.IMPORT, workers.REPLAY] * ("Imported" in imported)
    ran_at_all = 0
    for kind in (workers.TARGET_CHECK, workers.GIVE_UP, workers.IMPORT, workers.REPLAY):
        ran = windows(traced, kind)
        assert ran or kind not in must_run, f"no {kind.name} job ran in a worker"
        ran_at_all += len(ran)
        for start, end in ran:
            if end - start > 0.2:  # long enough that a free loop answers the 5 ms pings
                assert dog.answered_between(start, end) > 0, f"the loop stood still during the {kind.name}"
    assert ran_at_all, "no heavy job ran: the test saw nothing"
    print(f"loop lag: p99 {dog.percentile(0.99) * 1000:.1f} ms, worst {dog.worst * 1000:.1f} ms")

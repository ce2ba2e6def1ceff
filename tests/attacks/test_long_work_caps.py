"""Caps on long work through SimCord (issue 21, item 2): a member who asks for more long work at
once than the cap allows is told so, privately, at once; the rest of their requests go on."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot import workers
from tests.attacks.support import answered, together

PATHOLOGICAL = "/".join(["XXXXXXXXXXXX"] * 10)
"""A drawn target the solver cannot decide within its budget: the checks are all under way
together, and each ends in a refusal (undecided within its positions, or, on a starved machine,
past its time budget): never a game."""


async def test_a_member_over_the_cap_is_told_privately_and_the_rest_goes_on(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "TARGET_CHECK", dataclasses.replace(workers.TARGET_CHECK, budget=1.0))
    env = simcord_env
    server = env.create_guild("Cap Club")
    rooms = [server.create_text_channel(f"room-{n}") for n in range(3)]
    alice = server.add_member(env.create_user("alice"))
    async with together(env):
        results = [await alice.slash(room, "puzzominos solo", shape=PATHOLOGICAL) for room in rooms]
    texts = [answered(result) for result in results]
    refused = [text for text in texts if "You already have 2 long requests under way" in text]
    assert len(refused) == 1, texts
    assert refused[0].endswith("wait until one is done, then ask again.")
    checked = [text for text in texts if text not in refused]
    assert all("so no game starts on it" in text for text in checked), texts
    for result in results:
        message = result.followups[-1] if result.followups else result.response
        assert message.ephemeral
    causes = sorted(type(getattr(error, "original", error)).__name__ for error in env.errors)
    assert causes == ["Busy", "SessionError", "SessionError"], causes


async def test_a_target_check_past_its_time_budget_is_a_refusal_never_a_game(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check's time budget is a backstop (a starved machine): when it fires, the target is
    refused like one the solver could not decide, and nothing starts."""
    monkeypatch.setattr(workers, "TARGET_CHECK", dataclasses.replace(workers.TARGET_CHECK, budget=0.001))
    env = simcord_env
    server = env.create_guild("Slow Club")
    room = server.create_text_channel("room")
    alice = server.add_member(env.create_user("alice"))
    text = answered(await alice.slash(room, "puzzominos solo", shape=PATHOLOGICAL))
    assert "took longer than Tilehost allows right now, so no game starts on it" in text, text
    assert "nothing was stored" in text
    board = answered(await alice.slash(room, "puzzominos board"))
    assert "no Puzz-Ominos" in board or "There is no" in board, board
    causes = [type(getattr(error, "original", error)).__name__ for error in env.errors]
    assert causes == ["SessionError", "NoGameHere"], causes


async def test_a_named_target_starts_even_when_no_check_could_run(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A named target is known fillable, so it is not checked: a starved machine (here every
    check would run past its budget) still starts the game the refusal above tells members to
    choose, and no target-check job runs at all."""
    monkeypatch.setattr(workers, "TARGET_CHECK", dataclasses.replace(workers.TARGET_CHECK, budget=0.001))
    lanes = workers.lanes()
    trace: list[Any] = []
    lanes.trace = trace
    try:
        env = simcord_env
        server = env.create_guild("Slow Club")
        room = server.create_text_channel("room")
        alice = server.add_member(env.create_user("alice"))
        text = answered(await alice.slash(room, "puzzominos solo", target="10X12"))
    finally:
        lanes.trace = None
    assert "your table is the message below" in text, text
    assert not [event for event in trace if event.kind == workers.TARGET_CHECK.name], trace
    assert not env.errors

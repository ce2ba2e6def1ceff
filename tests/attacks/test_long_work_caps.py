"""Caps on long work through SimCord (issue 21, item 2): a member who asks for more long work at
once than the cap allows is told so, privately, at once; the rest of their requests go on."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot import workers
from tests.attacks.support import answered, together

PATHOLOGICAL = "/".join(["XXXXXXXXXXXX"] * 10)
"""A drawn target whose check outlasts its budget: the checks are all under way together."""


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
    assert sum("your table is the message below" in text for text in texts) == 2, texts
    for result in results:
        message = result.followups[-1] if result.followups else result.response
        assert message.ephemeral
    (error,) = env.errors
    assert isinstance(getattr(error, "original", error), workers.Busy)

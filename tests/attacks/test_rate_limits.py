"""Rate limits through SimCord (issue 17, break 9): one user spamming boards is told politely to
wait, nothing else breaks, and after the wait it works again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.client import TilehostBot
from bot.limits import Rate
from bot.settings import DEFAULT_RATE_CHANNEL, DEFAULT_RATE_USER
from tests.e2e.helpers import make_world, only_game, private, refused, room, table_counts, to_act

TOO_FAST = "You're going fast: try again in"


@pytest.fixture
def simcord_bot(make_bot: Callable[..., TilehostBot]) -> TilehostBot:
    """The bot with the limits a real one has (tests build it without, on a still clock)."""
    return make_bot(rate_user=DEFAULT_RATE_USER, rate_channel=DEFAULT_RATE_CHANNEL)


async def started_triominos(env: Any, channel: Any, people: dict[str, Any], db_path: str) -> tuple[int, Any]:
    await people["alice"].slash(channel, "triominos new", target=200)
    await people["bob"].slash(channel, "triominos join")
    await people["alice"].slash(channel, "triominos start")
    game_id = only_game(db_path)
    return game_id, room(channel, game_id)


async def test_spamming_boards_is_refused_politely_then_works_again(simcord_env: Any, db_path: str) -> None:
    env, channel, people = make_world(simcord_env, "Tile Club", "spam")
    alice, bob = people["alice"], people["bob"]
    game_id, thread = await started_triominos(env, channel, people, db_path)
    for _ in range(DEFAULT_RATE_USER.burst):
        assert private(await alice.slash(thread, "triominos board")).attachments
    before = table_counts(db_path)
    for _ in range(3):
        answer = refused(env, await alice.slash(thread, "triominos board"), TOO_FAST)
        assert answer == "You're going fast: try again in 5 s.", answer
        refused(env, await alice.slash(thread, "triominos hand"), TOO_FAST)  # hands count as boards
    # nothing else breaks: the other player's board, a hint, a move
    assert private(await bob.slash(thread, "triominos board")).attachments
    mover = to_act(db_path, game_id, people)
    assert "computer would play" in private(await mover.slash(thread, "triominos hint")).content
    choices = await mover.autocomplete(thread, "triominos play", "move", "")
    played = private(await mover.slash(thread, "triominos play", move=choices[0]["value"]))
    assert played.content.startswith("✅ Recorded")
    assert table_counts(db_path)["moves"] == before["moves"] + 1
    await env.advance_time(5)
    assert private(await alice.slash(thread, "triominos board")).attachments
    refused(env, await alice.slash(thread, "triominos board"), "try again in 5 s")


async def test_a_channel_has_its_own_allowance(
    simcord_env: Any, make_bot: Callable[..., TilehostBot]
) -> None:
    env = simcord_env
    await env.restart_bot(make_bot(rate_channel=Rate(3, 30)))
    server = env.create_guild("Tile Club")
    busy, quiet = server.create_text_channel("busy"), server.create_text_channel("quiet")
    people = [server.add_member(env.create_user(name)) for name in "abcd"]
    for person in people[:3]:
        refused(env, await person.slash(busy, "triominos board"), "no tri-ominos game")
    refused(env, await people[3].slash(busy, "triominos board"), "try again in 10 s")
    refused(env, await people[3].slash(quiet, "triominos board"), "no tri-ominos game")


async def test_threads_share_their_channels_allowance(
    simcord_env: Any, make_bot: Callable[..., TilehostBot], db_path: str
) -> None:
    """Issue 22, item 6: games in threads of one channel draw against that channel's allowance
    (12 players in 6 threads once drew 144 boards at once against a channel limit of 40)."""
    env = simcord_env
    await env.restart_bot(make_bot(rate_channel=Rate(4, 60)))
    server = env.create_guild("Tile Club")
    channel, other = server.create_text_channel("games"), server.create_text_channel("other")
    people = [server.add_member(env.create_user(name)) for name in ("ann", "ben", "cat", "dan", "eve")]
    threads = []
    for host, guest in (people[0:2], people[2:4]):
        await host.slash(channel, "triominos new", target=200)
        await guest.slash(channel, "triominos join")
        await host.slash(channel, "triominos start")
        threads.append(room(channel, env.bot.service.sessions()[-1].id))
    assert len({thread.id for thread in threads}) == 2 and all(t is not channel for t in threads)
    for person, thread in zip(people[:4], (threads[0], threads[0], threads[1], threads[1]), strict=True):
        assert private(await person.slash(thread, "triominos board")).attachments
    refused(env, await people[0].slash(threads[1], "triominos board"), "try again in 15 s")
    refused(env, await people[2].slash(threads[0], "triominos board"), "try again in 15 s")
    refused(env, await people[4].slash(channel, "triominos board"), "try again in 15 s")
    refused(env, await people[4].slash(other, "triominos board"), "no tri-ominos game")  # its own allowance

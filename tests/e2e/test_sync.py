"""Slash commands are synced on purpose (issue 23): at start only when they changed since the
last sync this database recorded, from the process that runs shard 0 only, and when the bot's
owner asks with ``/tilehost sync`` (anyone else is refused). Through SimCord: its Discord keeps
the synced commands across a restart, as Discord does."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.client import create_bot
from bot.settings import Settings
from tests.conftest import TEST_EXTENSIONS
from tests.e2e.helpers import build_bot, private, refused, shown
from tests.support.tokens import TOKEN


def syncs(env: Any) -> list[Any]:
    """The bot's sync requests so far (PUT .../commands)."""
    return [
        request
        for request in env.http_requests
        if request.method == "PUT" and request.path.endswith("/commands")
    ]


@pytest.fixture
def simcord_bot(db_path: str) -> Any:
    return build_bot(db_path, TEST_EXTENSIONS, [1000], command_sync="changed")


async def test_a_start_syncs_only_when_the_commands_changed(
    simcord_env: Any, db_path: str, caplog: pytest.LogCaptureFixture
) -> None:
    env = simcord_env
    assert len(syncs(env)) == 1, "the first start on a new database syncs"
    guild = env.create_guild("Tiles Club")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))

    with caplog.at_level(logging.INFO):
        await env.restart_bot(build_bot(db_path, TEST_EXTENSIONS, [1000], command_sync="changed"))
    assert len(syncs(env)) == 1, "the same commands again: no sync"
    assert "slash commands unchanged since the last sync: not synced" in caplog.text
    assert (
        f"invite link: https://discord.com/oauth2/authorize?client_id={env.bot.application_id}&"
        in caplog.text
    )
    assert "tiny new" in alice.available_commands(channel), "Discord still has them"
    assert "lobby, host **alice**" in shown(await alice.slash(channel, "tiny new")).content

    fewer = tuple(name for name in TEST_EXTENSIONS if name != "cogs.standings")
    await env.restart_bot(build_bot(db_path, fewer, [1000], command_sync="changed"))
    assert len(syncs(env)) == 2, "the commands changed: synced"
    assert "leaderboard" not in alice.available_commands(channel)

    await env.restart_bot(build_bot(db_path, fewer, [1000], command_sync="changed"))
    assert len(syncs(env)) == 2


async def test_the_owner_syncs_on_demand_and_nobody_else(simcord_env: Any, db_path: str) -> None:
    env = simcord_env
    guild = env.create_guild("Tiles Club")
    channel = guild.create_text_channel("games")
    managers = guild.create_role(
        "admins", permissions=discord.Permissions(manage_guild=True, manage_channels=True)
    )
    owner = guild.add_member(env.create_user("owner"), roles=[managers])
    admin = guild.add_member(env.create_user("admin"), roles=[managers])
    member = guild.add_member(env.create_user("member"))
    env.bot.settings = replace(env.bot.settings, owner_ids=frozenset({owner.id}))
    assert "tilehost sync" not in member.available_commands(channel), "hidden from members"

    refused(env, await admin.slash(channel, "tilehost sync"), "Only the bot's owner may sync its commands")
    assert len(syncs(env)) == 1
    said = private(await owner.slash(channel, "tilehost sync"))
    assert said.content.startswith("Synced ") and "commands everywhere" in said.content
    assert len(syncs(env)) == 2, "synced even though nothing changed: the owner asked"


async def test_only_the_process_of_shard_zero_syncs(caplog: pytest.LogCaptureFixture, db_path: str) -> None:
    # The shards of this process (its ids are what counts; unsharded here, to need no gateway).
    bot = create_bot(
        Settings(token=TOKEN, db_path=db_path, shard_ids=frozenset({2, 3}), command_sync="changed")
    )
    with caplog.at_level(logging.INFO):
        await bot.sync_at_start()  # returns before it would need Discord or the database
    assert "synced by the process that runs shard 0" in caplog.text
    assert Settings(token=TOKEN, shard_count=4, shard_ids=frozenset({0, 1})).runs_shard_zero
    assert Settings(token=TOKEN).runs_shard_zero, "one process for every shard"
    await bot.close()


async def test_the_sync_command_syncs_without_starting_the_games(db_path: str) -> None:
    """``python -m bot sync`` logs in with the commands only: no game is restored, no clock runs."""
    import simcord

    bot = build_bot(db_path, TEST_EXTENSIONS, [1000], command_sync="never")
    bot.sync_only = True
    env = simcord.Env(bot)
    await env.start()
    try:
        assert not syncs(env) and getattr(bot, "service", None) is None
        count = await bot.sync_now()
        assert count == len(bot.tree.get_commands()) and len(syncs(env)) == 1
    finally:
        await env.shutdown()
        await bot.close()

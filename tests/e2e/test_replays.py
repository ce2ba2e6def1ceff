"""Rules, export, replay and import for every game, through SimCord with every game cog loaded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.client import TilehostBot, default_extensions
from games import registry
from games.__main__ import selfplay
from tests.e2e.helpers import rows, shown, table_counts

GAMES = ("geominos", "triominos", "geronimos", "puzzominos", "tileup")


@pytest.fixture
def simcord_bot(make_bot: Callable[..., TilehostBot]) -> TilehostBot:
    return make_bot(extensions=default_extensions())


@pytest.mark.parametrize("name", GAMES)
async def test_export_replay_and_import(name: str, simcord_env: Any, db_path: str) -> None:
    env = simcord_env
    guild = env.create_guild("Replays")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    rules = shown(await alice.slash(channel, f"{name} rules"))
    assert rules.ephemeral and rules.embeds[0].title.startswith(registry.get(name).title)
    assert [a.filename for a in rules.attachments] == [f"{name}-rules.png"]
    await alice.slash(channel, f"{name} new")
    await bob.slash(channel, f"{name} join")
    await alice.slash(channel, f"{name} start")
    (game_id,) = rows(db_path, "SELECT id FROM games")[0]
    await alice.slash(channel, f"{name} resign")
    assert rows(db_path, "SELECT status FROM games WHERE id = ?", game_id) == [("finished",)]

    exported = shown(await bob.slash(channel, f"{name} export", game_id=game_id))
    text = (await exported.attachments[0].read()).decode()
    assert f'game: "{name}"' in text and "!resign" in text
    replay = shown(await bob.slash(channel, f"{name} replay", game_id=game_id))
    assert [a.filename for a in replay.attachments] == [f"{name}-replay.gif", f"{name}-scores.png"]

    whole = selfplay(registry.get(name), 2, seed=5)
    before = table_counts(db_path)
    imported = shown(
        await bob.slash(channel, f"{name} import", record=(f"{name}.txt", whole.to_text().encode()))
    )
    assert [a.filename for a in imported.attachments] == [f"{name}-replay.gif", f"{name}-scores.png"]
    assert f"{len(whole.moves)} moves" in imported.content
    gif = await imported.attachments[0].read()
    assert gif[:6] == b"GIF89a"

    broken = whole.to_text().rsplit("\n", 2)[0] + "\n0 nonsense!\n"
    refused = shown(await bob.slash(channel, f"{name} import", record=("bad.txt", broken.encode())))
    assert refused.ephemeral and "does not replay" in refused.content
    assert table_counts(db_path) == before, "importing stores nothing"

"""Rules, export, replay and import for every game, through SimCord with every game cog loaded: a
game played in its thread ends by resignation, its result comes to the channel, and its record
and replay are had there by number or as the last game to end; imports store nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.client import TilehostBot, default_extensions
from games import registry
from games.__main__ import selfplay
from tests.e2e.helpers import (
    make_world,
    posts,
    private,
    refused,
    room,
    shown,
    start_game,
    table_counts,
)

GAMES = ("geominos", "triominos", "geronimos", "puzzominos", "tileup")


@pytest.fixture
def simcord_bot(make_bot: Callable[..., TilehostBot]) -> TilehostBot:
    return make_bot(extensions=default_extensions())


def replay_names(name: str) -> list[str]:
    """The files of a replay: the animated board and the score chart."""
    return [f"{name}-replay.gif", f"{name}-scores.png"]


@pytest.mark.parametrize("name", GAMES)
async def test_export_replay_and_import(name: str, simcord_env: Any, db_path: str) -> None:
    env, channel, people = make_world(simcord_env, "Replays", "games", ("alice", "bob"))
    alice, bob = people["alice"], people["bob"]
    title = registry.get(name).title
    rules = private(await alice.slash(channel, f"{name} rules"))
    assert rules.embeds[0].title.startswith(title)
    assert [a.filename for a in rules.attachments] == [f"{name}-rules.png"]
    refused(env, await bob.slash(channel, f"{name} export"), f"No {title} game has ended in this channel")
    game_id = await start_game(env, channel, name, alice, bob)
    thread = room(channel, game_id)
    assert thread is not channel
    refused(env, await bob.slash(thread, f"{name} replay", game_id=game_id), "still running")
    resigned = private(await alice.slash(thread, f"{name} resign"))
    assert resigned.content.startswith("✅ Recorded: you resigned."), resigned.content
    assert "resigns" not in resigned.content, "said once"
    result = posts(channel)[-1]
    assert "Game over — **bob** wins" in result.content and result.attachments
    assert {user.id for user in result.mentions} == {bob.id}

    exported = shown(await bob.slash(channel, f"{name} export"))
    assert not exported.ephemeral and exported.content == f"Record of {title} #{game_id}."
    text = (await exported.attachments[0].read()).decode()
    assert f'game: "{name}"' in text and "!resign" in text
    by_number = shown(await bob.slash(thread, f"{name} export", game_id=game_id))
    assert (await by_number.attachments[0].read()).decode() == text
    replay = shown(await bob.slash(channel, f"{name} replay"))
    assert [a.filename for a in replay.attachments] == replay_names(name)
    assert f"Replay of {title} #{game_id}" in replay.content.replace("\\", "")
    assert "alice: " in replay.content and "bob: " in replay.content and "🏆" in replay.content

    whole = selfplay(registry.get(name), 2, seed=5)
    before = table_counts(db_path)
    imported = shown(
        await bob.slash(channel, f"{name} import", record=(f"{name}.txt", whole.to_text().encode()))
    )
    assert [a.filename for a in imported.attachments] == replay_names(name)
    assert f"{len(whole.moves)} moves" in imported.content
    gif = await imported.attachments[0].read()
    assert gif[:6] == b"GIF89a"
    broken = whole.to_text().rsplit("\n", 2)[0] + "\n0 nonsense!\n"
    refused(
        env,
        await bob.slash(channel, f"{name} import", record=("bad.txt", broken.encode())),
        "does not replay",
    )
    other = next(game for game in GAMES if game != name)
    refused(
        env,
        await bob.slash(channel, f"{other} import", record=(f"{name}.txt", text.encode())),
        f"/{name} import",
    )
    refused(env, await bob.slash(channel, f"{other} export", game_id=game_id), f"use `/{name}`")
    assert table_counts(db_path) == before, "importing stores nothing"

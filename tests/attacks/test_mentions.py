"""Names never ping (issue 17, break 5): players called ``@everyone``, ``<@id>`` or ``<@&role>``
play a whole game, and an imported record's names say the same; every message the bot sends
mentions at most the players it means to ping, never everyone, never a role."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games import registry
from games.__main__ import selfplay
from tests.attacks.support import answered
from tests.e2e.helpers import only_game, posts, room, rows, to_act

STRANGER = 999_999_999_999
HOSTILE = ("@everyone", f"<@{STRANGER}>", "<@&123456789>")


def pings(message: Any) -> tuple[bool, set[int], set[int]]:
    """``(everyone, users, roles)`` a message pinged (a channel message or an interaction's
    answer, which SimCord keeps as its stored message)."""
    stored = getattr(message, "_message", None)
    if stored is not None:
        return stored.mention_everyone, set(stored.ping_user_ids), set(stored.ping_role_ids)
    roles = {role.id for role in message.role_mentions}
    return message.mention_everyone, {user.id for user in message.mentions}, roles


def check_no_stray_pings(messages: list[Any], players: set[int]) -> None:
    for message in messages:
        everyone, users, roles = pings(message)
        assert not everyone and not roles, message.content
        assert users <= players and STRANGER not in users, (message.content, users)


async def test_hostile_names_play_a_whole_game_without_pinging(simcord_env: Any, db_path: str) -> None:
    env = simcord_env
    server = env.create_guild("Tiles Club")
    channel = server.create_text_channel("names")
    everyone, stranger, role = (server.add_member(env.create_user(name)) for name in HOSTILE)
    people = dict(zip(HOSTILE, (everyone, stranger, role), strict=True))
    await everyone.slash(channel, "tiny new")
    await stranger.slash(channel, "tiny join")
    await role.slash(channel, "tiny join")
    await everyone.slash(channel, "tiny start")
    game_id = only_game(db_path)
    assert {name for (name,) in rows(db_path, "SELECT name FROM seats")} == set(HOSTILE)
    thread = room(channel, game_id)
    for _ in range(40):
        if rows(db_path, "SELECT status FROM games WHERE id = ?", game_id)[0][0] != "playing":
            break
        mover = to_act(db_path, game_id, people)
        choices = await mover.autocomplete(thread, "tiny play", "move", "")
        result = await mover.slash(thread, "tiny play", move=choices[0]["value"])
        assert answered(result).startswith("✅ Recorded")
    assert rows(db_path, "SELECT status FROM games WHERE id = ?", game_id) == [("finished",)]
    players = {everyone.id, stranger.id, role.id}
    messages = posts(channel) + (posts(thread) if thread is not channel else [])
    assert any("everyone" in message.content for message in messages), "the names are shown"
    check_no_stray_pings(messages, players)
    exported = await stranger.slash(channel, "tiny export")
    check_no_stray_pings(posts(channel), players)
    assert exported.followups or exported.response


async def test_an_imported_record_with_hostile_names_pings_nobody(simcord_env: Any) -> None:
    env = simcord_env
    server = env.create_guild("Tiles Club")
    channel = server.create_text_channel("imports")
    viewer = server.add_member(env.create_user("viewer"))
    record = selfplay(registry.get("triominos"), 3, seed=5)
    hostile = replace(record, players=HOSTILE)
    result = await viewer.slash(
        channel, "triominos import", record=("hostile.txt", hostile.to_text().encode())
    )
    shown = result.followups[-1] if result.followups else result.response
    assert "everyone" in shown.content and shown.attachments, shown.content
    check_no_stray_pings([shown, *posts(channel)], set())

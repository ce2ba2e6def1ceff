"""Geominos end to end through SimCord: a whole game in its thread through slash commands and
autocomplete (cheapest first, narrowed by what is typed), with a restart; computer players
seated with the lobby's buttons; refusals that store nothing; and the clocks (live: +5 and one
more minute, then a forfeit; async: a reminder, one more period, then a forfeit). The channel
stays quiet (see :class:`tests.e2e.helpers.Watch`)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.storage import SeatRow
from games.geominos import GAME
from tests.e2e.helpers import (
    Table,
    Watch,
    boards,
    build_bot,
    game_state,
    last_board,
    last_mover,
    make_world,
    only_game,
    posts,
    private,
    room,
    rows,
    seat_names,
    shown,
    start_game,
    to_act,
)
from tests.games.test_geominos import SEALED_DEAL, SEALING

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.geominos")
COST = re.compile(r"· (\d+) points?$")
MAX_PLIES = 60


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Tiles Club", "games")


def costs(choices: list[dict[str, Any]]) -> list[int]:
    """The points each suggestion costs, as its label says."""
    found = [COST.search(choice["name"]) for choice in choices]
    assert all(found), [choice["name"] for choice in choices]
    return [int(match[1]) for match in found if match]


async def check_narrowing(player: Any, place: Any, choices: list[dict[str, Any]]) -> None:
    """Typing the tile name, then side and rotation, then the square narrows the list."""
    tile, turned, square = choices[0]["value"].split()
    by_tile = await player.autocomplete(place, "geominos play", "move", tile[:3].lower())
    assert by_tile and all(choice["value"].startswith(tile) for choice in by_tile)
    by_pose = await player.autocomplete(place, "geominos play", "move", f"{tile[:3]} {turned}")
    assert by_pose and all(choice["value"].startswith(f"{tile} {turned}") for choice in by_pose)
    exact = await player.autocomplete(place, "geominos play", "move", f"{tile} {turned} {square}")
    assert exact[0]["value"] == choices[0]["value"]
    assert costs(by_tile) == sorted(costs(by_tile))


async def take_turn(place: Any, who: Any, *, narrow: bool = False) -> tuple[str, Any]:
    """``who`` places the cheapest suggestion."""
    choices = await who.autocomplete(place, "geominos play", "move", "")
    assert choices and costs(choices) == sorted(costs(choices)), "cheapest first, with the cost"
    if narrow:
        await check_narrowing(who, place, choices)
    value = choices[0]["value"]
    return value, await who.slash(place, "geominos play", move=value)


async def reminded(world: Any, db_path: str, game_id: int, watch: Watch) -> tuple[Any, float]:
    """Let the clock run to the reminder of the player to act (it pings them alone, in the
    game's thread): that player, and the time left to the deadline."""
    env, channel, people = world
    late = to_act(db_path, game_id, people)
    start = env.now().timestamp()
    query = "SELECT deadline, reminder_at FROM games WHERE id = ?"
    ((deadline, reminder_at),) = rows(db_path, query, game_id)
    assert start < reminder_at < deadline
    await env.advance_time(reminder_at - start + 1)
    watch.after(game_id)
    reminder = posts(room(channel, game_id))[-1]
    assert "still your turn" in reminder.content and {u.id for u in reminder.mentions} == {late.id}
    assert game_state(db_path, game_id)[0] == "playing"
    return late, deadline - env.now().timestamp()


async def test_whole_game_through_slash_commands(world: Any, db_path: str, seed: list[int]) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    lobby = (await alice.slash(channel, "geominos new", mode="five", minutes=3)).response
    assert "lobby" in lobby.content and lobby.content.count("3 min a move") == 1, "the clock is said once"
    assert "24 h" not in lobby.content
    await bob.slash(channel, "geominos join")
    assert len(posts(channel)) == 1 and "**bob**" in posts(channel)[0].content, "the lobby is edited"
    assert "has started" in private(await alice.slash(channel, "geominos start")).content
    game_id = only_game(db_path)
    watch = Watch(env, channel, db_path)
    watch.after(game_id)
    thread = room(channel, game_id)
    assert thread is not channel and not posts(channel)[0].components, "the lobby's buttons go"
    first = last_board(thread)
    deadline = rows(db_path, "SELECT deadline FROM games WHERE id = ?", game_id)[0][0]
    assert first.attachments and f"<t:{int(deadline)}:R>" in first.content
    names = seat_names(db_path, game_id)
    assert f"Scores: **{names[0]}** 0 · **{names[1]}** 0 (fewest wins)" in first.content
    hand = private(await alice.slash(thread, "geominos hand"))
    assert hand.attachments and "Your hand" in hand.content
    tiles = private(await bob.click(first, label="My tiles"))
    assert tiles.attachments and "Your hand" in tiles.content

    for ply in range(MAX_PLIES):
        if game_state(db_path, game_id)[0] != "playing":
            break
        mover = to_act(db_path, game_id, people)
        move, result = await take_turn(thread, mover, narrow=ply < 2)
        ack = private(result).content
        assert ack.startswith("✅ Recorded") and f"`{move}`" in ack, ack
        watch.after(game_id, mover.id)
        if game_state(db_path, game_id)[0] == "playing":
            board = last_board(thread)
            assert f"`{move}`" in board.content and "pips on light squares " in board.content
            assert "Scores: " in board.content and "(fewest wins)" in board.content
        if ply == 3:
            await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    assert game_state(db_path, game_id)[0] == "finished"
    watch.finish(game_id)
    assert len(rows(db_path, "SELECT * FROM moves WHERE game_id = ?", game_id)) == 20
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 2
    result = posts(channel)[-1]
    assert "Game over" in result.content and "fewest wins" in result.content and result.attachments
    assert thread.mention in result.content

    board = private(await bob.slash(channel, "geominos board"))
    assert f"#{game_id}" in board.content and "Game over" in board.content and board.attachments
    exported = shown(await alice.slash(channel, "geominos export"))
    data = (await exported.attachments[0].read()).decode()
    (last,) = rows(db_path, "SELECT notation FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT 1", game_id)
    assert 'game: "geominos"' in data and last[0] in data


async def test_computer_players_fill_seats(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice = people["alice"]
    await alice.slash(channel, "geominos new", mode="all")
    lobby = posts(channel)[0]
    await alice.click(lobby, label="Add computer")
    await alice.click(posts(channel)[0], label="Add computer")
    assert posts(channel)[0].content.count("(computer, normal)") == 2 and len(posts(channel)) == 1
    await alice.click(posts(channel)[0], label="Start")
    game_id = only_game(db_path)
    thread = room(channel, game_id)
    watch = Watch(env, channel, db_path)
    watch.after(game_id)
    for _ in range(MAX_PLIES):
        status, _, seat = game_state(db_path, game_id)
        if status != "playing":
            break
        assert seat_names(db_path, game_id)[seat] == "alice", "computers move at once"
        await take_turn(thread, alice)
        watch.after(game_id, last_mover(db_path, game_id))
    assert game_state(db_path, game_id)[0] == "finished"
    watch.finish(game_id)
    computer_moves = rows(
        db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id
    )
    assert computer_moves[0][0] >= 10
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 3
    assert "Game over" in posts(channel)[-1].content


async def test_hint_board_and_rules_at_the_table(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    game_id = await start_game(env, channel, "geominos", alice, bob)
    thread = room(channel, game_id)
    mover = to_act(db_path, game_id, people)
    waiting = bob if mover is alice else alice
    hint = private(await mover.slash(thread, "geominos hint"))
    assert "/geominos play move:" in hint.content
    board = private(await waiting.slash(thread, "geominos board"))
    assert board.attachments and "<t:" in board.content
    rules = private(await cara.slash(thread, "geominos rules"))
    assert rules.embeds and "Chair B90 K12" in str(rules.embeds[0].to_dict())
    assert game_state(db_path, game_id)[1] == 0


async def test_live_clock_penalty_extra_minute_then_forfeit(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    game_id = await start_game(env, channel, "geominos", alice, bob, minutes=1)
    table = Table.watching("geominos", env, channel, db_path, people, game_id)
    thread, watch = table.thread, table.watch
    _, _, seat = game_state(db_path, game_id)
    late = to_act(db_path, game_id, people)
    start = env.now().timestamp()
    deadline = rows(db_path, "SELECT deadline FROM games WHERE id = ?", game_id)[0][0]
    assert deadline == pytest.approx(start + 60, abs=2)
    turn = last_board(thread)
    assert f"<t:{int(deadline)}:R>" in turn.content and f"<@{late.id}>" in turn.content

    await env.advance_time(61)
    watch.after(game_id)
    assert [m.id for m in boards(thread)] == [turn.id], "the penalty edits the turn's message"
    message = last_board(thread).content
    assert f"⏰ **{late.name}** ran out of time" in message and "time penalty +5" in message
    snapshot = json.loads(rows(db_path, "SELECT snapshot FROM games WHERE id = ?", game_id)[0][0])
    assert snapshot["scores"][seat] == 5 and snapshot["to_act"] == seat
    assert f"**{late.name}** 5" in message, "the scores in words count the penalty"
    extra = rows(db_path, "SELECT deadline FROM games WHERE id = ?", game_id)[0][0]
    assert extra == pytest.approx(env.now().timestamp() + 60, abs=2)
    assert f"<t:{int(extra)}:R>" in message and "Time penalty taken" in message
    await env.advance_time(30)
    assert game_state(db_path, game_id)[0] == "playing"
    await env.advance_time(31)
    assert game_state(db_path, game_id)[0] == "finished"
    watch.after(game_id)
    result = posts(channel)[-1]
    assert "Game over" in result.content and f"**{late.name}** 5 (out of time)" in result.content
    assert {user.id for user in result.mentions} == {alice.id, bob.id}
    assert rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", game_id) == [
        ("!timeout",),
        ("!timeout",),
    ]
    ranks = dict(rows(db_path, "SELECT seat, rank FROM results WHERE game_id = ?", game_id))
    assert ranks[seat] == 2 and ranks[1 - seat] == 1


async def test_async_clock_reminds_gives_one_more_period_then_forfeits(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    game_id = await start_game(env, channel, "geominos", alice, bob, clock="async", hours=2)
    table = Table.watching("geominos", env, channel, db_path, people, game_id)
    thread, watch = table.thread, table.watch
    deadline = rows(db_path, "SELECT deadline FROM games WHERE id = ?", game_id)[0][0]
    assert deadline == pytest.approx(env.now().timestamp() + 2 * 3600, abs=2)
    _, left = await reminded(world, db_path, game_id, watch)
    await env.advance_time(left)
    watch.after(game_id)
    assert game_state(db_path, game_id)[0] == "playing"
    assert "one more period" in last_board(thread).content
    await env.advance_time(2 * 3600 + 1)
    assert game_state(db_path, game_id)[0] == "finished"
    watch.after(game_id)
    assert "(out of time)" in posts(channel)[-1].content


async def stored_lobby(env: Any, channel: Any, host: Any, guest: Any, deal: list[str], mode: str) -> int:
    """A lobby stored with an explicit ``deal`` (as a migrated game may have: the bot itself
    deals by the seed), restored by a restart like any other lobby."""
    options = GAME.Options.from_dict({"mode": mode})
    storage = env.bot.service.storage
    game_id = await storage.create_game(
        game=GAME.name,
        guild_id=channel.guild.id,
        channel_id=channel.id,
        host=SeatRow(0, host.id, host.name),
        options=options.to_dict(),
        seed=1,
        deal=deal,
        turn_seconds=24 * 3600,
        now=env.now().timestamp(),
        variant=GAME.variant(options),
    )
    await storage.add_seat(game_id, SeatRow(1, guest.id, guest.name))
    return int(game_id)


async def test_a_seat_that_cannot_place_is_passed_over_by_itself(
    world: Any, db_path: str, seed: list[int]
) -> None:
    """A pass needs a board that seals a tile, which natural play does not make: searching seeds
    (a beam search over the placements, 25 wide, over the One-Tile decks) got no tile below 8
    placements. So this game is a stored lobby with the rules tests' sealed deal: after the
    sixteen placements of ``SEALING`` the next player draws the Anchor, which fits nowhere (+5,
    set aside), and the player who placed the Snake plays on. A restart then replays it."""
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    game_id = await stored_lobby(env, channel, alice, bob, SEALED_DEAL, "one")
    await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    assert "has started" in private(await alice.slash(channel, "geominos start")).content
    thread = room(channel, game_id)
    watch = Watch(env, channel, db_path)
    watch.after(game_id)
    for move in SEALING:
        mover = to_act(db_path, game_id, people)
        assert private(await mover.slash(thread, "geominos play", move=move)).content.startswith("✅")
        watch.after(game_id, mover.id)
    second = bob if mover is alice else alice
    assert to_act(db_path, game_id, people) is mover, f"{second.name} was passed over"
    assert game_state(db_path, game_id)[1] == len(SEALING), "the pass is no move of the record"
    said = last_board(thread).content
    passed, plays_on = f"**{second.name}**", f"**{mover.name}**"
    story = (
        f"{passed} draws Anchor; cannot place Anchor anywhere on the board +5; sets Anchor aside unplayed; "
        f"passes; {plays_on} draws Ladder."
    )
    assert story in said, said
    snapshot = json.loads(rows(db_path, "SELECT snapshot FROM games WHERE id = ?", game_id)[0][0])
    seat = {name: seat for seat, name in seat_names(db_path, game_id).items()}[second.name]
    assert f"{passed} {snapshot['scores'][seat]}" in said, "the scores in words count the +5"
    # a new turn of the same player (a fresh clock): its own message, which pings them
    assert f"<@{mover.id}>, it's your turn" in said and f"<@{second.id}>" not in said
    await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    assert private(await second.slash(thread, "geominos hand")).content.endswith("nothing")
    while game_state(db_path, game_id)[0] == "playing":
        mover = to_act(db_path, game_id, people)
        await take_turn(thread, mover)
        watch.after(game_id, mover.id)
    # Watch.finish replays the game from its seed (not its deal): every placement ends a turn
    turns = game_state(db_path, game_id)[1] + 1
    assert len(watch.messages(game_id)) <= turns + 2, "at most one public message per turn"
    result = posts(channel)[-1]
    assert "Game over" in result.content and "every tile in play is placed" in result.content

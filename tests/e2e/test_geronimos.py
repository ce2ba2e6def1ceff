"""Geronimos end to end through SimCord: a whole game in its thread through slash commands and
autocomplete, where a card that fits nowhere is discarded by itself and the steps of a bonus turn
edit that turn's message; a restart in the middle of a bonus turn; a computer opponent; refusals
that store nothing; a drawn game; and the clock (a reminder, then a forfeit). The channel stays
quiet (see :class:`tests.e2e.helpers.Watch`)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.geronimos import GAME, Options
from tests.e2e.helpers import (
    Table,
    Watch,
    boards,
    build_bot,
    game_state,
    last_board,
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
    turns_played,
)
from tests.e2e.test_geominos import last_mover, reminded

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.geronimos")
DRAWN_CARD = re.compile(
    r"must play the (?:start card, to lay next to the first card|bonus card|card): (\d{6}|a Leader)"
)
MAX_PLIES = 200
SHORT = Options(bag=20, leaders=2, table="rings")


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Little Bighorn", "battle")


def first_suggestion_game(options: Options, seed: int) -> tuple[list[str], bool]:
    """The kinds of the moves of a game where every decision takes the first suggestion and a
    card that fits nowhere is discarded (``forced``), and whether it ended drawn."""
    state = GAME.new(2, options, seed=seed)
    kinds: list[str] = []
    while GAME.to_act(state) is not None and len(kinds) < MAX_PLIES:
        forced = GAME.forced_move(state)
        move = forced if forced is not None else GAME.rank_moves(state, GAME.legal_moves(state))[0]
        kinds.append("forced" if forced is not None else move.kind.value)
        state, _ = GAME.apply(state, move)
    outcome = GAME.outcome(state)
    return kinds, outcome is not None and outcome.is_draw


def game_seed(options: Options, *, drawn: bool = False) -> int:
    """A seed whose first-suggestion game is short, discards a card that fits nowhere, has a bonus
    card drawn by choice and (with ``drawn``) ends in a draw."""
    for seed in range(1000, 1300):
        kinds, is_draw = first_suggestion_game(options, seed)
        if "forced" in kinds and "bonus" in kinds and is_draw == drawn and len(kinds) <= 60:
            return seed
    raise AssertionError("no such game")


def drawn_card(content: str) -> str:
    """The card the turn message says must be played (``L`` for a Leader)."""
    found = DRAWN_CARD.search(content)
    assert found is not None, content
    return "L" if found[1] == "a Leader" else found[1]


def forced_discards(db_path: str, game_id: int) -> list[int]:
    """The seats whose card fitting nowhere was discarded by itself (no user made the move)."""
    stored = rows(
        db_path,
        "SELECT seat, notation FROM moves WHERE game_id = ? AND user_id IS NULL ORDER BY ply",
        game_id,
    )
    assert all(notation == "discard" for _, notation in stored), stored
    return [seat for seat, _ in stored]


async def take_turn(place: Any, who: Any, *, check_filter: bool = False) -> tuple[str, Any]:
    """``who`` takes the first suggestion (a real choice: a card fitting nowhere discards itself)."""
    choices = await who.autocomplete(place, "geronimos play", "move", "")
    assert choices, "autocomplete offers the legal moves"
    value = choices[0]["value"]
    assert value != "discard", "a card that fits nowhere is discarded by itself"
    if check_filter and "@" in value:
        cell = value.split("@")[1].rstrip("^")
        filtered = await who.autocomplete(place, "geronimos play", "move", f"@{cell}")
        assert filtered and all(f"@{cell}" in choice["value"] for choice in filtered)
    return value, await who.slash(place, "geronimos play", move=value)


async def play_step(thread: Any, db_path: str, game_id: int, people: dict[str, Any], watch: Watch) -> bool:
    """The player to act takes the first suggestion; checks that a step of a running turn (a
    bonus card to decide on or to play) edits the turn's message and that a turn passing posts
    one new board. True when the mover's turn goes on."""
    mover = to_act(db_path, game_id, people)
    turns, discards = turns_played(db_path, game_id), forced_discards(db_path, game_id)
    before = boards(thread)
    move, result = await take_turn(thread, mover, check_filter=len(before) % 7 == 1)
    ack = private(result).content
    assert ack.startswith("✅ Recorded") and f"`{move}`" in ack, ack
    watch.after(game_id, mover.id)
    after = boards(thread)
    for seat in forced_discards(db_path, game_id)[len(discards) :]:
        who = seat_names(db_path, game_id)[seat]
        assert f"**{who}** had no choice: discards " in after[-1].content, "said in the turn message"
    running = game_state(db_path, game_id)[0] == "playing" and turns_played(db_path, game_id) == turns
    if running:
        assert "Your turn goes on: " in ack and "`/geronimos play`" in ack, ack
        assert [m.id for m in after] == [m.id for m in before], "a bonus step edits the turn's message"
        assert after[-1].content != before[-1].content and f"`{move}`" in after[-1].content
        assert f"<@{mover.id}>" not in after[-1].content, "no ping for the running turn"
    elif game_state(db_path, game_id)[0] == "playing":
        assert len(after) == len(before) + 1, "a new turn gets one new board"
        drawn_card(after[-1].content)  # the next card to play is public
    return running


async def test_whole_game_through_slash_commands(world: Any, db_path: str, seed: list[int]) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    seed[0] = game_seed(SHORT)
    lobby = await alice.slash(channel, "geronimos new", bag=20, leaders=2, table="rings")
    assert "bag: 20" in lobby.response.content and "leaders: 2" in lobby.response.content
    assert "You have a seat" in private(await bob.slash(channel, "geronimos join")).content
    assert len(posts(channel)) == 1 and "bob" in posts(channel)[0].content, "the lobby is edited"
    private(await alice.slash(channel, "geronimos start"))
    game_id = only_game(db_path)
    watch = Watch(env, channel, db_path)
    watch.after(game_id)
    thread = room(channel, game_id)
    assert thread is not channel and {"alice", "bob"} <= set(thread.name.split(" · ")[1].split(", "))
    first = last_board(thread)
    assert "lays first" in first.content and first.attachments
    assert not posts(channel)[0].components, "the lobby's buttons go at the start"
    mover = to_act(db_path, game_id, people)
    card = drawn_card(first.content)
    hand = private(await mover.slash(thread, "geronimos hand"))
    assert hand.attachments and hand.content.endswith(card)
    rules = private(await bob.slash(thread, "geronimos rules"))
    assert rules.embeds and "Leader" in str(rules.embeds[0].to_dict())
    assert private(await bob.slash(thread, "geronimos board")).attachments

    restarted = edited_after_restart = False
    for _ in range(MAX_PLIES):
        if game_state(db_path, game_id)[0] != "playing":
            break
        running = await play_step(thread, db_path, game_id, people, watch)
        edited_after_restart = edited_after_restart or (restarted and running)
        if running and not restarted:
            await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))  # in the middle of a bonus turn
            restarted = True
    assert edited_after_restart, "a bonus step after a restart edited the turn's message from before"
    assert game_state(db_path, game_id)[0] == "finished"
    watch.finish(game_id)
    stored = [
        n for (n,) in rows(db_path, "SELECT notation FROM moves WHERE game_id = ? ORDER BY ply", game_id)
    ]
    assert "bonus" in stored, "a bonus card was drawn by choice"
    assert forced_discards(db_path, game_id), "cards that fit nowhere were discarded by themselves"
    story = "\n".join(message.content for message in posts(thread))
    assert "it fits nowhere" in story and "draws bonus card" in story

    result = posts(channel)[-1]
    assert "Game over" in result.content and result.attachments and thread.mention in result.content
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 2
    board = private(await bob.slash(channel, "geronimos board"))
    assert f"#{game_id}" in board.content and "Game over" in board.content and board.attachments
    exported = shown(await alice.slash(channel, "geronimos export"))
    data = (await exported.attachments[0].read()).decode()
    assert 'game: "geronimos"' in data and stored[-1] in data


async def test_game_against_a_computer(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice = people["alice"]
    await alice.slash(channel, "geronimos new", bag=20, leaders=4, table="open", bonus="compulsory")
    await alice.slash(channel, "geronimos computer")
    assert "(computer, normal)" in posts(channel)[0].content
    assert "compulsory" in posts(channel)[0].content, "the lobby states the bonus rule chosen"
    await alice.slash(channel, "geronimos start")
    game_id = only_game(db_path)
    thread = room(channel, game_id)
    watch = Watch(env, channel, db_path)
    watch.after(game_id)
    for _ in range(MAX_PLIES):
        status, _, seat = game_state(db_path, game_id)
        if status != "playing":
            break
        assert seat_names(db_path, game_id)[seat] == "alice", "the computer moves at once"
        hint = private(await alice.slash(thread, "geronimos hint"))
        assert "/geronimos play" in hint.content
        await take_turn(thread, alice)
        watch.after(game_id, last_mover(db_path, game_id))
    assert game_state(db_path, game_id)[0] == "finished"
    watch.finish(game_id)
    computer_moves = rows(
        db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id
    )
    assert computer_moves[0][0] > 0
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 2
    assert "Game over" in posts(channel)[-1].content


async def test_a_drawn_game_is_recorded_as_a_draw(world: Any, db_path: str, seed: list[int]) -> None:
    env, channel, people = world
    options = Options(bag=20, leaders=0, table="rings")
    seed[0] = game_seed(options, drawn=True)
    game_id = await start_game(
        env, channel, "geronimos", people["alice"], people["bob"], bag=20, leaders=0, table="rings"
    )
    table = Table.watching("geronimos", env, channel, db_path, people, game_id)
    thread, watch = table.thread, table.watch
    for _ in range(MAX_PLIES):
        if game_state(db_path, game_id)[0] != "playing":
            break
        await play_step(thread, db_path, game_id, people, watch)
    assert game_state(db_path, game_id)[0] == "finished"
    watch.finish(game_id)
    assert forced_discards(db_path, game_id), "the cards that fit nowhere were discarded by themselves"
    assert "a draw between" in posts(channel)[-1].content
    results = rows(db_path, "SELECT rank, won, draw FROM results WHERE game_id = ? ORDER BY seat", game_id)
    assert results == [(1, 0, 1), (1, 0, 1)]


async def test_clock_reminds_then_the_late_player_forfeits(world: Any, db_path: str) -> None:
    env, channel, people = world
    game_id = await start_game(env, channel, "geronimos", people["alice"], people["bob"], clock_hours=2)
    watch = Table.watching("geronimos", env, channel, db_path, people, game_id).watch
    deadline = rows(db_path, "SELECT deadline FROM games WHERE id = ?", game_id)[0][0]
    assert deadline == pytest.approx(env.now().timestamp() + 2 * 3600, abs=2)
    late, left = await reminded(world, db_path, game_id, watch)
    await env.advance_time(left)
    assert game_state(db_path, game_id)[0] == "finished"
    watch.after(game_id)
    result = posts(channel)[-1]
    assert "Game over" in result.content and f"**{late.name}** 0 (out of time)" in result.content
    assert rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", game_id) == [("!timeout",)]
    ranks = dict(rows(db_path, "SELECT user_id, rank FROM results WHERE game_id = ?", game_id))
    assert ranks[late.id] == 2

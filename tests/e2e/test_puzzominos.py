"""Puzz-Ominos end to end through SimCord: a whole duel through slash commands with autocomplete,
a computer filling a seat, refusals that store nothing, and solitaire (solo, undo, hint, giveup,
results), with several players' solitaire tables in one channel."""

from __future__ import annotations

from typing import Any

import pytest

import cogs.puzzominos
from bot.client import TilehostBot
from games.puzzominos.targets import get_target
from games.puzzosolo.rules import first_solution, format_place
from tests.e2e.helpers import game_state, rows, seat_names, shown, table_counts

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.puzzominos")
MAX_PLIES = 80


@pytest.fixture
def simcord_bot(make_bot: Any) -> TilehostBot:
    return make_bot(extensions=EXTENSIONS)  # type: ignore[no-any-return]


@pytest.fixture
def world(simcord_env: Any) -> Any:
    guild = simcord_env.create_guild("Pentomino Club")
    channel = guild.create_text_channel("puzzles")
    people = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "cara")}
    return simcord_env, channel, people


def public(result: Any) -> Any:
    """A public message with a PNG board attached."""
    message = shown(result)
    assert not message.ephemeral, message.content
    assert message.attachments and message.attachments[0].filename.endswith(".png"), message.content
    return message


def refused(result: Any, needle: str) -> None:
    message = shown(result)
    assert message.ephemeral, message.content
    assert needle in message.content, message.content


def game_id_of(db_path: str, game: str, host: str | None = None) -> int:
    sql = "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = 0 WHERE g.game = ?"
    params: list[Any] = [game]
    if host is not None:
        sql += " AND s.name = ?"
        params.append(host)
    ((game_id,),) = rows(db_path, sql + " ORDER BY g.id DESC LIMIT 1", *params)
    return int(game_id)


async def test_whole_duel_through_commands(world: Any, db_path: str) -> None:
    _env, channel, people = world
    lobby = await people["alice"].slash(channel, "puzzominos new", second_piece="optional")
    assert "lobby" in shown(lobby).content
    await people["bob"].slash(channel, "puzzominos join")
    public(await people["alice"].slash(channel, "puzzominos start"))
    game_id = game_id_of(db_path, "puzzominos")
    passed = False
    for _ in range(MAX_PLIES):
        status, _, seat = game_state(db_path, game_id)
        if status != "playing":
            break
        member = people[seat_names(db_path, game_id)[seat]]
        if not passed and "second piece (or `pass`)" in channel.last_message.content:
            offered = await member.autocomplete(channel, "puzzominos play", "move", "pass")
            assert [choice["value"] for choice in offered] == ["pass"]
            assert "declines" in public(await member.slash(channel, "puzzominos pass")).content
            passed = True
            continue
        choices = await member.autocomplete(channel, "puzzominos play", "move", "")
        assert choices, "autocomplete offers the legal moves"
        result = await member.slash(channel, "puzzominos play", move=choices[0]["value"])
        assert "played" in public(result).content
    assert game_state(db_path, game_id)[0] == "finished"
    assert passed, "a Free Turn's second piece was declined with /puzzominos pass"
    assert "pass" in [notation for (notation,) in rows(db_path, "SELECT notation FROM moves")]
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 2
    assert "Game over" in channel.last_message.content


async def test_autocomplete_filters_and_hint_in_a_duel(world: Any, db_path: str) -> None:
    _env, channel, people = world
    await people["alice"].slash(channel, "puzzominos new")
    await people["bob"].slash(channel, "puzzominos join")
    await people["alice"].slash(channel, "puzzominos start")
    game_id = game_id_of(db_path, "puzzominos")
    member = people[seat_names(db_path, game_id)[game_state(db_path, game_id)[2] or 0]]
    choices = await member.autocomplete(channel, "puzzominos play", "move", "x r0")
    assert choices and all(choice["value"].startswith("Xr0@") for choice in choices)
    hint = shown(await member.slash(channel, "puzzominos hint"))
    assert hint.ephemeral and "would play" in hint.content


async def test_computer_fills_a_seat(world: Any, db_path: str) -> None:
    _env, channel, people = world
    alice = people["alice"]
    await alice.slash(channel, "puzzominos new")
    await alice.slash(channel, "puzzominos computer")
    await alice.slash(channel, "puzzominos start")
    game_id = game_id_of(db_path, "puzzominos")
    for _ in range(MAX_PLIES):
        status, _, seat = game_state(db_path, game_id)
        if status != "playing":
            break
        assert seat_names(db_path, game_id)[seat] == "alice", "the computer moves at once"
        choices = await alice.autocomplete(channel, "puzzominos play", "move", "")
        await alice.slash(channel, "puzzominos play", move=choices[0]["value"])
    assert game_state(db_path, game_id)[0] == "finished"
    computer = rows(db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id)
    assert computer[0][0] >= 5


async def test_bad_input_is_refused_privately_and_stores_nothing(world: Any, db_path: str) -> None:
    _env, channel, people = world
    await people["alice"].slash(channel, "puzzominos new")
    await people["bob"].slash(channel, "puzzominos join")
    await people["alice"].slash(channel, "puzzominos start")
    game_id = game_id_of(db_path, "puzzominos")
    first = game_state(db_path, game_id)[2]  # the coin flip's Red
    assert first is not None
    red = people[seat_names(db_path, game_id)[first]]
    blue = people[seat_names(db_path, game_id)[1 - first]]
    before = table_counts(db_path)
    attempts = [
        (red, "puzzominos play", {"move": "L to the left"}, "`L to the left` is not a move"),
        (red, "puzzominos play", {"move": "Q@1,1"}, "there is no piece Q"),
        (red, "puzzominos play", {"move": "Lr7@0,0"}, "r7 does not exist"),
        (red, "puzzominos play", {"move": "Ir0@5,5"}, "top-left corner of its bounding box at 0,0"),
        (red, "puzzominos pass", {}, "only pass to decline a Free Turn's second piece"),
        (blue, "puzzominos play", {"move": "Ir0@0,0"}, "not your turn"),
        (red, "puzzominos undo", {}, "`undo` is for solitaire"),
        (red, "puzzominos giveup", {}, "`giveup` is for solitaire"),
        (people["cara"], "puzzominos play", {"move": "Ir0@0,0"}, "not playing"),
    ]
    for member, command, options, needle in attempts:
        refused(await member.slash(channel, command, **options), needle)
    await red.slash(channel, "puzzominos play", move="Ir0@0,0")
    overlap = await blue.slash(channel, "puzzominos play", move="Lr0@0,0")
    refused(overlap, "already taken")
    apart = await blue.slash(channel, "puzzominos play", move="Lr0@10,10")
    refused(apart, "must touch a Red piece")
    after = table_counts(db_path)
    assert after["moves"] == before["moves"] + 1 and after["games"] == before["games"]
    assert rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", game_id) == [("Ir0@0,0",)]


async def test_solitaire_solved_with_undo_and_hints(
    world: Any, db_path: str, make_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    solution = first_solution(get_target("6x10"))
    started = public(await alice.slash(channel, "puzzominos solo", target="6x10"))
    assert "6x10" in started.content
    # several players' tables in one channel, and a duel beside them
    public(await bob.slash(channel, "puzzominos solo", target="5x12"))
    await people["cara"].slash(channel, "puzzominos new")
    again = await alice.slash(channel, "puzzominos solo", target="T")
    refused(again, "already have a Puzz-Ominos solitaire game")
    game_id = game_id_of(db_path, "puzzosolo", "alice")
    first = format_place(solution[0])
    choices = await alice.autocomplete(channel, "puzzominos play", "move", first)
    values = [choice["value"] for choice in choices]
    assert values[0] == first and all(value.startswith(first) for value in values)
    public(await alice.slash(channel, "puzzominos play", move=first))
    stray = next(p for p in solution[1:] if p.piece == "X")
    public(await alice.slash(channel, "puzzominos play", move=f"X@{chr(65 + stray.x)}{stray.y + 1}"))
    undone = public(await alice.slash(channel, "puzzominos undo"))
    assert "took back" in undone.content
    hand = shown(await alice.slash(channel, "puzzominos hand"))
    assert hand.ephemeral and hand.attachments and "X" in hand.content
    await env.restart_bot(make_bot(extensions=EXTENSIONS))
    for index in range(11):
        # every other hint takes the deferred path of a search longer than a quick look
        monkeypatch.setattr(cogs.puzzominos, "QUICK_HINT", 1 if index % 2 else 100_000)
        public(await alice.slash(channel, "puzzominos hint"))
    assert game_state(db_path, game_id)[0] == "finished"
    assert "solved 6x10 with 11 hints" in channel.last_message.content
    notations = [n for (n,) in rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", game_id)]
    assert notations[:3] == [first, notations[1], "undo"] and notations[-1].startswith("hint ")
    (result,) = rows(
        db_path, "SELECT user_id, won, forfeited, score, helped FROM results WHERE game_id = ?", game_id
    )
    assert result == (alice.id, 1, 0, 1, 1)
    started_at, finished_at = rows(
        db_path, "SELECT started_at, finished_at FROM games WHERE id = ?", game_id
    )[0]
    assert started_at is not None and finished_at >= started_at
    assert game_state(db_path, game_id_of(db_path, "puzzosolo", "bob"))[0] == "playing"
    # a solve with hints is not a solve on the leaderboard; the stats show it apart
    board = shown(await alice.slash(channel, "leaderboard", game="puzzosolo", scope="server"))
    assert "Nobody has solved" in board.embeds[0].description
    stats = shown(await alice.slash(channel, "stats", game="puzzosolo"))
    assert any("`6x10` solved 0×" in f.value and "1× with hints" in f.value for f in stats.embeds[0].fields)


async def test_solitaire_dead_end_hint_and_give_up(world: Any, db_path: str) -> None:
    _env, channel, people = world
    bob = people["bob"]
    public(await bob.slash(channel, "puzzominos solo", target="6x10"))
    game_id = game_id_of(db_path, "puzzosolo", "bob")
    public(await bob.slash(channel, "puzzominos play", move="X r0 @A1"))  # cuts off A1
    before = table_counts(db_path)
    refused(await bob.slash(channel, "puzzominos hint"), "cannot be completed")
    refused(await bob.slash(channel, "puzzominos play", move="Ir0@3,3"), "not x,y")
    refused(await bob.slash(channel, "puzzominos play", move="Xr0@C5"), "X is already on the board")
    assert table_counts(db_path) == before
    gave_up = public(await bob.slash(channel, "puzzominos giveup"))
    assert "a solution:" in gave_up.content and "nobody wins" in gave_up.content
    (result,) = rows(db_path, "SELECT won, forfeited, score FROM results WHERE game_id = ?", game_id)
    assert result == (0, 1, 0)
    refused(await bob.slash(channel, "puzzominos undo"), "no solitaire game")
    exported = shown(await bob.slash(channel, "puzzominos export", game_id=game_id))
    text = (await exported.attachments[0].read()).decode()
    assert '"puzzosolo"' in text and "Xr0@A1" in text and "giveup" in text
    replay = shown(await bob.slash(channel, "puzzominos replay", game_id=game_id))
    assert [a.filename for a in replay.attachments] == ["puzzominos-replay.gif", "puzzominos-scores.png"]

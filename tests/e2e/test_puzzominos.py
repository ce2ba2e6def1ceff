"""Puzz-Ominos end to end through SimCord.

- The duel: a whole game in its thread through slash commands, autocomplete and a button, with
  Free Turns (a second piece played, one declined with ``pass``) kept in the turn's one public
  message; a restart in the middle of a Free Turn; a computer filling a seat; refusals that
  store nothing. The channel stays quiet (see :class:`tests.e2e.helpers.Watch`).
- Solitaire: each player's table is ONE public message in the channel, edited in place, while
  the moves are answered privately; a solve without hints counts on the leaderboard, a solve done
  entirely with hints is counted apart; a given-up solitaire shows a solution, not a standings
  table, and its record and replay come as a solitaire's.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.puzzominos.targets import get_target
from games.puzzosolo.rules import first_solution, format_place
from tests.e2e.helpers import (
    Table,
    boards,
    build_bot,
    game_state,
    last_board,
    make_world,
    posts,
    private,
    refused,
    room,
    rows,
    seat_names,
    shown,
    start_game,
    table_counts,
    turns_played,
)

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.puzzominos")
MAX_PLIES = 80
SOLO = "puzzosolo"


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Pentomino Club", "puzzles")


def game_id_of(db_path: str, game: str, host: str | None = None) -> int:
    """The newest game of ``game`` (hosted by ``host``, if given)."""
    sql = "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = 0 WHERE g.game = ?"
    params: list[Any] = [game]
    if host is not None:
        sql += " AND s.name = ?"
        params.append(host)
    ((game_id,),) = rows(db_path, sql + " ORDER BY g.id DESC LIMIT 1", *params)
    return int(game_id)


# -- the duel -----------------------------------------------------------------------------------


async def test_whole_duel_with_free_turns_one_board_per_turn(
    world: Any, db_path: str, seed: list[int]
) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    game_id = await start_game(env, channel, "puzzominos", alice, bob, second_piece="optional")
    table = Table.watching("puzzominos", env, channel, db_path, people, game_id)
    game_id, thread = table.game_id, table.thread
    assert thread is not channel and "alice" in thread.name and "bob" in thread.name
    red = table.mover()
    first = last_board(thread)
    assert "Red's first piece goes at 0,0" in first.content
    assert {user.id for user in first.mentions} == {red.id}
    assert private(await red.click(first, label="My tiles")).attachments

    # Red begins with a Free Turn piece and declines the second piece: one message, edited
    free = await table.suggestions(red, "play", "move", "v3")
    assert free and all(value.startswith("V3") for value in free)
    ack = (await table.command(red, "play", move=free[0])).content
    assert "Your turn goes on: " in ack and "placements or `pass`" in ack, "privately: the next step"
    assert "second piece (or `pass`)" in last_board(thread).content
    assert await table.suggestions(red, "play", "move", "pass") == ["pass"]
    declined = (await table.command(red, "pass")).content
    assert declined.startswith("✅ Recorded: `pass`.") and "plays next" in declined, declined
    assert "declines" not in declined, "the private answer does not repeat the public message"
    assert "declines" in last_board(thread).content, "the next turn's message tells the turn before"

    # Blue begins with the other Free Turn piece; the bot restarts; Blue places a second piece
    blue = table.mover()
    assert blue is not red
    hint = private(await blue.slash(thread, "puzzominos hint"))
    assert "would play" in hint.content
    assert "better than `" in hint.content or "a close call: `" in hint.content, "how sure the hint is"
    assert "± " not in hint.content, "an exact search's gap has no margin"
    free = await table.suggestions(blue, "play", "move", "t4")
    await table.command(blue, "play", move=free[0])
    assert "Free Turn" in last_board(thread).content
    await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    second = (await table.suggestions(blue, "play", "move"))[0]
    assert second != "pass"
    await table.command(blue, "play", move=second)
    assert table.mover() is red

    filtered = await table.suggestions(red, "play", "move", "x r0")
    assert filtered and all(value.startswith("Xr0@") for value in filtered)
    for _ in range(MAX_PLIES):
        if not table.playing():
            break
        mover = table.mover()
        await table.command(mover, "play", move=(await table.suggestions(mover, "play", "move"))[0])
    assert not table.playing(), "the game ended"

    table.watch.finish(game_id)
    assert len(boards(thread)) == turns_played(db_path, game_id), "one public board per turn"
    moves = [
        notation for (notation,) in rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", game_id)
    ]
    assert "pass" in moves and moves[0].startswith("V3")
    assert "Game over" in last_board(thread).content
    result = posts(channel)[-1]
    assert "Game over" in result.content and "Standings" in result.content and result.attachments
    assert "played all 14 pieces" in result.content
    assert len(result.mentions) == 1, "the result pings the other player, not the one who ended it"
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 2
    board = private(await people["cara"].slash(channel, "puzzominos board"))
    assert board.attachments and f"#{game_id}" in board.content and "Game over" in board.content
    exported = shown(await people["bob"].slash(channel, "puzzominos export"))
    record = (await exported.attachments[0].read()).decode()
    assert 'game: "puzzominos"' in record and f"#{game_id}" in exported.content


async def test_computer_fills_a_seat(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice = people["alice"]
    await alice.slash(channel, "puzzominos new", second_piece="compulsory")
    await alice.slash(channel, "puzzominos computer")
    private(await alice.slash(channel, "puzzominos start"))
    table = Table.watching("puzzominos", env, channel, db_path, {"alice": alice})
    game_id = table.game_id
    assert table.mover() is alice, "the computer moves at once"
    free = await table.suggestions(alice, "play", "move", "v3")
    await table.command(alice, "play", move=free[0])
    assert "pass" not in await table.suggestions(alice, "play", "move")
    refused(env, await alice.slash(table.thread, "puzzominos pass"), "second piece is compulsory")
    for _ in range(MAX_PLIES):
        if not table.playing():
            break
        assert table.mover() is alice, "the computer moves at once"
        await table.command(alice, "play", move=(await table.suggestions(alice, "play", "move"))[0])
    assert not table.playing()
    table.watch.finish(game_id)
    assert len(boards(table.thread)) <= turns_played(db_path, game_id)
    computer = rows(db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id)
    assert computer[0][0] >= 5
    assert "Game over" in posts(channel)[-1].content


async def test_a_piece_must_touch_its_colour_and_not_overlap(world: Any, db_path: str) -> None:
    env, channel, people = world
    game_id = await start_game(env, channel, "puzzominos", people["alice"], people["bob"])
    table = Table.watching("puzzominos", env, channel, db_path, people, game_id)
    game_id, thread = table.game_id, table.thread
    red = table.mover()
    blue = people["bob"] if red is people["alice"] else people["alice"]
    before = table_counts(db_path)
    await table.command(red, "play", move="Ir0@0,0")
    refused(env, await blue.slash(thread, "puzzominos play", move="Lr0@0,0"), "already taken")
    refused(env, await blue.slash(thread, "puzzominos play", move="Lr0@10,10"), "must touch a Red piece")
    after = table_counts(db_path)
    assert after["moves"] == before["moves"] + 1 and after["games"] == before["games"]
    assert rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", game_id) == [("Ir0@0,0",)]
    assert len(posts(thread)) == 2, "one message for Red's turn, one for Blue's"


# -- solitaire ------------------------------------------------------------------------------------


def solo_message(channel: Any, game_id: int) -> Any:
    """A solitaire's one public message (its table) in the channel."""
    (message,) = [message for message in posts(channel) if f"** #{game_id}\n" in message.content]
    return message


async def solo_move(channel: Any, who: Any, game_id: int, command: str, **options: Any) -> Any:
    """``who`` acts on their solitaire: the answer is private, the table's message is edited in
    place (nothing new is posted in the channel, nobody is pinged). Returns the message."""
    before = [message.id for message in posts(channel)]
    answer = private(await who.slash(channel, f"puzzominos {command}", **options))
    assert answer.content.startswith("✅ Recorded"), answer.content
    assert [message.id for message in posts(channel)] == before, "a solitaire move posts nothing"
    message = solo_message(channel, game_id)
    assert not message.mentions and message.attachments
    return message


async def start_solo(channel: Any, who: Any, db_path: str, target: str) -> tuple[int, Any]:
    """``who`` starts a solitaire on ``target``: a private answer, one public table message."""
    count = len(posts(channel))
    answer = private(await who.slash(channel, "puzzominos solo", target=target))
    assert "your table is the message below" in answer.content
    assert len(posts(channel)) == count + 1
    game_id = game_id_of(db_path, SOLO, who.name)
    table = solo_message(channel, game_id)
    assert target in table.content and not table.mentions and table.attachments
    return game_id, table


async def test_solitaire_tables_edit_in_place_and_a_solve_without_hints_counts(
    world: Any, db_path: str, seed: list[int]
) -> None:
    env, channel, people = world
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    solution = first_solution(get_target("6x10"))
    game_id, table = await start_solo(channel, alice, db_path, "6x10")
    # several players' tables in one channel, and a duel lobby beside them
    other, _ = await start_solo(channel, bob, db_path, "5x12")
    await cara.slash(channel, "puzzominos new")
    refused(
        env, await alice.slash(channel, "puzzominos solo", target="T"), "already have a Puzz-Ominos solitaire"
    )
    first = format_place(solution[0])
    values = [
        choice["value"] for choice in await alice.autocomplete(channel, "puzzominos play", "move", first)
    ]
    assert values[0] == first and all(value.startswith(first) for value in values)
    assert "55 squares left to fill" in (await solo_move(channel, alice, game_id, "play", move=first)).content
    stray = next(place for place in solution[1:] if place.piece == "X")
    await solo_move(channel, alice, game_id, "play", move=f"X@{chr(65 + stray.x)}{stray.y + 1}")
    assert "took back" in (await solo_move(channel, alice, game_id, "undo")).content
    hand = private(await alice.slash(channel, "puzzominos hand"))
    assert hand.attachments and "X" in hand.content
    await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    for place in solution[1:]:
        message = await solo_move(channel, alice, game_id, "play", move=format_place(place))
    assert message.id == table.id and "solved 6x10!" in message.content
    assert "Standings" not in message.content
    assert game_state(db_path, other)[0] == "playing", "bob's table is untouched"
    assert "5x12" in solo_message(channel, other).content
    (result,) = rows(
        db_path, "SELECT user_id, won, forfeited, score, helped FROM results WHERE game_id = ?", game_id
    )
    assert result == (alice.id, 1, 0, 12, 0)
    leaderboard = shown(await bob.slash(channel, "leaderboard", game=SOLO, scope="server"))
    assert (
        f"<@{alice.id}>" in leaderboard.embeds[0].description
        and "1 target" in leaderboard.embeds[0].description
    )


async def test_solitaire_solved_entirely_with_hints_counts_apart(world: Any, db_path: str) -> None:
    _env, channel, people = world
    bob = people["bob"]
    game_id, table = await start_solo(channel, bob, db_path, "6x10")
    for index in range(12):
        message = await solo_move(channel, bob, game_id, "hint")
        assert "placed on a hint" in message.content or index == 11, message.content
    assert message.id == table.id and "solved 6x10 with 12 hints" in message.content
    assert game_state(db_path, game_id)[0] == "finished"
    notations = [n for (n,) in rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", game_id)]
    assert len(notations) == 12 and all(notation.startswith("hint ") for notation in notations)
    (result,) = rows(db_path, "SELECT won, forfeited, score, helped FROM results WHERE game_id = ?", game_id)
    assert result == (1, 0, 0, 1), "solved, no piece of bob's own, with help"
    started_at, finished_at = rows(
        db_path, "SELECT started_at, finished_at FROM games WHERE id = ?", game_id
    )[0]
    assert started_at is not None and finished_at >= started_at
    leaderboard = shown(await bob.slash(channel, "leaderboard", game=SOLO, scope="server"))
    assert "Nobody has solved" in leaderboard.embeds[0].description
    stats = shown(await bob.slash(channel, "stats", game=SOLO))
    fields = [field.value for field in stats.embeds[0].fields]
    assert any("`6x10` solved 0×" in value and "1× with hints" in value for value in fields), fields
    history = shown(await bob.slash(channel, "history"))
    assert "solved with hints" in history.embeds[0].description


async def test_solitaire_dead_end_and_give_up_show_no_standings(world: Any, db_path: str) -> None:
    env, channel, people = world
    bob = people["bob"]
    game_id, table = await start_solo(channel, bob, db_path, "6x10")
    await solo_move(channel, bob, game_id, "play", move="X r0 @A1")  # cuts off A1
    before = table_counts(db_path)
    refused(env, await bob.slash(channel, "puzzominos hint"), "cannot be completed")
    refused(env, await bob.slash(channel, "puzzominos play", move="Ir0@3,3"), "not x,y")
    refused(env, await bob.slash(channel, "puzzominos play", move="Xr0@C5"), "X is already on the board")
    assert table_counts(db_path) == before
    gave_up = await solo_move(channel, bob, game_id, "giveup")
    assert gave_up.id == table.id
    assert "a solution:" in gave_up.content and "gave up" in gave_up.content
    assert "Standings" not in gave_up.content and "1." not in gave_up.content, gave_up.content
    assert [message.id for message in posts(channel)] == [table.id], "no result post for a solitaire"
    (result,) = rows(db_path, "SELECT won, forfeited, score FROM results WHERE game_id = ?", game_id)
    assert result == (0, 1, 0)
    refused(env, await bob.slash(channel, "puzzominos undo"), "no solitaire game")
    board = private(await bob.slash(channel, "puzzominos board"))
    assert f"#{game_id}" in board.content and "Standings" not in board.content, board.content
    exported = shown(await bob.slash(channel, "puzzominos export"))
    text = (await exported.attachments[0].read()).decode()
    assert '"puzzosolo"' in text and "Xr0@A1" in text and "giveup" in text
    replay = shown(await bob.slash(channel, "puzzominos replay", game_id=game_id))
    assert "solitaire" in replay.content
    history = shown(await bob.slash(channel, "history"))
    line = history.embeds[0].description
    assert f"#{game_id} — gave up" in line and "1st of 1" not in line, line
    assert [a.filename for a in replay.attachments] == ["puzzosolo-replay.gif", "puzzosolo-scores.png"]
    assert seat_names(db_path, game_id) == {0: "bob"}
    assert room(channel, game_id) is channel, "a solitaire has no thread"

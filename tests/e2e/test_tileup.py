"""Tile Up! end to end through SimCord: a whole three-player game in its thread through slash
commands, autocomplete and buttons, where a turn of several commands (scoring, placements, draws,
``end``, discards) keeps ONE public board message, edited step by step, and a new one (pinging only
the player whose turn starts) comes when the turn passes; a restart in the middle of a turn;
computer players; refusals that store nothing; and a turn clock that reminds and then ends the
turn without a forfeit (see :class:`tests.e2e.helpers.Watch` for the quiet-channel checks)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import pytest

from bot import workers
from bot.sessions import filter_suggestions
from games.tileup import GAME
from games.tileup.data import CORNERS, SIZE, parse_square
from games.tileup.state import MoveKind, State
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
    to_act,
    turns_played,
)

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.tileup")
PLACEMENTS_A_TURN = 4
MAX_TURNS = 60
"""A bound on the whole game's turns (the seed is chosen for a game of at most SHORT_GAME)."""
SHORT_GAME = 30


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Tile Club", "stacks")


# -- the players' plan, shared by the seed search and the test --------------------------------


def action_of_turn(turn: int, players: int) -> str:
    """What a turn's action is: two rounds of drawing tiles (the second goes over 7 tiles, so
    the turn ends with discards), then one goal card, then placements."""
    if turn < 2 * players:
        return "tiles"
    if turn == 2 * players:
        return "goal"
    return "place"


def open_corners(state: State) -> list[int]:
    """The corner squares still empty (all four once they are covered: any will do)."""
    return [corner for corner in CORNERS if not state.board[corner]] or list(CORNERS)


def nearest_corner(suggested: Sequence[str], corners: Sequence[int]) -> str | None:
    """Of the suggested placements, the one nearest an open corner (the game ends when all four
    are covered); the best ranked among equals."""

    def distance(notation: str) -> int:
        row, column = divmod(parse_square(notation.split("@")[1]) or 0, SIZE)
        return min(abs(row - corner // SIZE) + abs(column - corner % SIZE) for corner in corners)

    places = [notation for notation in suggested if "@" in notation and not notation.startswith("score")]
    return min(places, key=distance) if places else None


def suggested(state: State, typed: str, prefix: str = "") -> list[str]:
    """What autocomplete offers for ``typed`` (see ``MoveTransformer``), straight from the engine."""
    ranked = workers.ranked_moves(GAME, state)
    return [notation for _, notation in filter_suggestions(ranked, typed) if notation.startswith(prefix)]


class Sketch:
    """A game played with the plan of :func:`take_turn` on the engine alone (forced moves play
    themselves, as the session does), to choose a seed."""

    def __init__(self, seed: int, players: int) -> None:
        self.state = GAME.new(players, GAME.Options(), seed=seed)
        self.players = players
        self.turns = 0
        self.used: set[str] = set()

    @property
    def over(self) -> bool:
        return GAME.to_act(self.state) is None

    def play(self, text: str) -> None:
        self.state, _ = GAME.apply(self.state, GAME.parse_move(self.state, text))
        self.used.add(command_of(text))
        while not self.over and (move := GAME.forced_move(self.state)) is not None:
            self.used.add(f"forced {move.kind}")
            self.state, _ = GAME.apply(self.state, move)

    def take_turn(self) -> None:
        number = self.state.turn

        def running() -> bool:
            return not self.over and self.state.turn == number

        scores = suggested(self.state, "score ", "score")
        if scores:
            self.play(scores[0])
        action = action_of_turn(self.turns, self.players)
        placed = 0
        while action == "place" and placed < PLACEMENTS_A_TURN and running():
            place = nearest_corner(suggested(self.state, "@"), open_corners(self.state))
            if place is None:
                break
            self.play(place)
            placed += 1
        if running() and not placed:
            self.play(action if action != "place" else fallback_draw(suggested(self.state, "tiles")))
        while running():
            discards = suggested(self.state, "discard ", "discard")
            self.play(discards[0] if discards else "end")
        self.turns += 1


def sketch_game(seed: int, players: int) -> Sketch:
    """The plan's game from ``seed``, played to its end or SHORT_GAME turns."""
    sketch = Sketch(seed, players)
    while not sketch.over and sketch.turns < SHORT_GAME:
        sketch.take_turn()
    return sketch


def command_of(notation: str) -> str:
    """The command that plays ``notation``: ``place`` for a placement, else its first word."""
    return "place" if "@" in notation and not notation.startswith("score") else notation.split()[0]


def fallback_draw(offered: Sequence[str]) -> str:
    """With nothing to place: draw tiles while the bag has some, else a goal card."""
    return "tiles" if "tiles" in offered else "goal"


def short_game_seed(players: int) -> int:
    """A seed whose game, played with the plan, ends (all four corners) within SHORT_GAME turns
    and has a score, a discard and a forced ``end`` (played by itself)."""
    wanted = {"score", "discard", f"forced {MoveKind.END}", "place", "goal", "tiles"}
    for seed in range(1000, 1100):
        sketch = sketch_game(seed, players)
        if sketch.over and wanted <= sketch.used:
            return seed
    raise AssertionError("no short game")


# -- the table, through SimCord ---------------------------------------------------------------


async def open_table(env: Any, channel: Any, db_path: str, people: dict[str, Any]) -> Table:
    """Alice opens a lobby, Bob joins by command, Cara with the lobby's button; Alice starts."""
    alice, bob, cara = people["alice"], people["bob"], people["cara"]
    lobby = shown(await alice.slash(channel, "tileup new"))
    assert not lobby.ephemeral and "Tile Up!" in lobby.content and "2–4 players" in lobby.content
    assert "You have a seat" in private(await bob.slash(channel, "tileup join")).content
    await cara.click(posts(channel)[0], label="Join")
    private(await alice.slash(channel, "tileup start"))
    return Table.watching("tileup", env, channel, db_path, people)


async def take_turn(
    table: Table, turn: int, used: set[str], *, after_a_place: Callable[[], Awaitable[None]] | None = None
) -> None:
    """The mover plays one turn of the plan (see :func:`sketch_game`) through slash commands and
    autocomplete; ``used`` collects the commands; ``after_a_place`` runs after the first placement."""
    who, number = table.mover(), table.state().turn

    def running() -> bool:
        return table.playing() and table.state().turn == number

    scores = await table.suggestions(who, "score", "card")
    if scores:
        assert scores[0].startswith("score "), scores
        await table.command(who, "score", card=scores[0].removeprefix("score "))
        used.add("score")
        assert "scores" in last_board(table.thread).content
    action = action_of_turn(turn, len(table.people))
    placed = 0
    while action == "place" and placed < PLACEMENTS_A_TURN and running():
        place = nearest_corner(await table.suggestions(who, "play", "move", "@"), open_corners(table.state()))
        if place is None:
            break
        await table.command(who, "play", move=place)
        placed += 1
        used.add("place")
        if running():
            assert f"`{place}`" in last_board(table.thread).content, "the turn's message shows each placement"
        if placed == 1 and after_a_place is not None:
            await after_a_place()
    if running() and not placed:
        if action == "place":
            action = fallback_draw(await table.suggestions(who, "play", "move", "tiles"))
        await table.command(who, action)
        used.add(action)
    while running():
        discards = await table.suggestions(who, "discard", "what")
        if discards:
            assert all(choice.startswith("discard ") for choice in discards)
            await table.command(who, "discard", what=discards[0].removeprefix("discard "))
            used.add("discard")
        else:
            await table.command(who, "end")
            used.add("end")


# -- the tests ------------------------------------------------------------------------------------


async def test_three_player_game_one_board_per_turn(world: Any, db_path: str, seed: list[int]) -> None:
    env, channel, people = world
    seed[0] = short_game_seed(3)
    table = await open_table(env, channel, db_path, people)
    game_id, thread = table.game_id, table.thread
    assert thread is not channel and all(name in thread.name for name in people), thread.name
    (lobby,) = posts(channel)
    assert "has started" in lobby.content and not lobby.components, "the lobby loses its buttons"
    first = last_board(thread)
    mover = table.mover()
    assert "take one action" in first.content and "bag " in first.content
    assert {user.id for user in first.mentions} == {mover.id}
    screen = private(await mover.slash(thread, "tileup hand"))
    assert screen.attachments[0].filename.endswith(".png") and "goal 3:" in screen.content
    waiting = next(person for person in people.values() if person is not mover)
    tiles = private(await waiting.click(first, label="My tiles"))
    assert tiles.attachments and "Your hand" in tiles.content
    rules = private(await waiting.slash(thread, "tileup rules"))
    assert rules.embeds and "goal card" in str(rules.embeds[0].to_dict())

    async def restart() -> None:
        await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))

    used: set[str] = set()
    for turn in range(MAX_TURNS):
        if not table.playing():
            break
        # a restart in the middle of a turn: the turn's message is still edited, not posted again
        await take_turn(table, turn, used, after_a_place=restart if turn == 2 * 3 + 2 else None)
    assert not table.playing(), "the game ended"
    assert {"place", "tiles", "goal", "end", "score", "discard"} <= used
    forced = rows(db_path, "SELECT notation FROM moves WHERE game_id = ? AND user_id IS NULL", game_id)
    assert ("end",) in forced, "an `end` with nothing else to do played itself"

    table.watch.finish(game_id)
    turns = turns_played(db_path, game_id)
    assert len(boards(thread)) == turns, "one public board per turn"
    closing = last_board(thread)
    assert "Game over" in closing.content and "all four corners" in closing.content
    result = posts(channel)[-1]
    assert result is not lobby and "Game over" in result.content and result.attachments
    assert "Standings" in result.content and "seat" not in result.content.lower()
    last_mover = rows(
        db_path,
        "SELECT user_id FROM moves WHERE game_id = ? AND user_id IS NOT NULL ORDER BY ply DESC LIMIT 1",
        game_id,
    )[0][0]
    others = {person.id for person in people.values()} - {last_mover}
    assert {user.id for user in result.mentions} == others, "the result pings the others, not the mover"
    assert len(rows(db_path, "SELECT * FROM results WHERE game_id = ?", game_id)) == 3

    board = private(await people["bob"].slash(channel, "tileup board"))
    assert board.attachments and "Game over" in board.content and f"#{game_id}" in board.content
    exported = shown(await people["cara"].slash(channel, "tileup export"))
    assert f"#{game_id}" in exported.content
    lines = (await exported.attachments[0].read()).decode().splitlines()
    assert 'game: "tileup"' in "\n".join(lines) and {"0 end", "1 end", "2 end"} <= set(lines)
    assert any(" score " in line for line in lines) and any(" discard " in line for line in lines)


async def test_computers_fill_seats(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice = people["alice"]
    await alice.slash(channel, "tileup new")
    await alice.slash(channel, "tileup computer")
    await alice.slash(channel, "tileup computer", level="easy")
    assert "(computer, easy)" in posts(channel)[0].content
    private(await alice.slash(channel, "tileup start"))
    table = Table.watching("tileup", env, channel, db_path, {"alice": alice})
    game_id, watch = table.game_id, table.watch
    assert len(seat_names(db_path, game_id)) == 3
    used: set[str] = set()
    for turn in range(4):
        assert table.mover() is alice, "the computers move at once"
        hint = private(await alice.slash(table.thread, "tileup hint"))
        assert "/tileup play" in hint.content
        # alice plays as the second round of a three-player plan: tiles, then placements
        await take_turn(table, 3 + 3 * turn, used)
    watch.finish(game_id)
    computer_moves = rows(
        db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND user_id IS NULL", game_id
    )
    assert computer_moves[0][0] >= 8, "each computer turn is several moves ending with end"
    ends = rows(db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ? AND notation = 'end'", game_id)
    assert ends[0][0] >= 12
    assert len(boards(table.thread)) <= turns_played(db_path, game_id), "at most one board per turn"
    assert "Game over" not in "\n".join(message.content for message in posts(channel))


async def test_after_its_placement_the_turn_has_taken_its_action(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    game_id = await start_game(env, channel, "tileup", alice, bob)
    thread = room(channel, game_id)
    mover = to_act(db_path, game_id, people)
    place = nearest_corner(
        [c["value"] for c in await mover.autocomplete(thread, "tileup play", "move", "@")], CORNERS
    )
    assert place is not None
    assert private(await mover.slash(thread, "tileup play", move=place)).content.startswith("✅ Recorded")
    refused(env, await mover.slash(thread, "tileup tiles"), "already took your action")
    assert rows(db_path, "SELECT notation FROM moves WHERE game_id = ?", game_id) == [(place,)]
    assert len(posts(thread)) == 1, "the placement edited the turn's message"
    screen = private(await mover.slash(thread, "tileup hand"))
    listed = screen.content.split(": ", 1)[1].split(", ")
    assert screen.attachments and len([part for part in listed if len(part) == 2]) == 2, listed


async def test_a_reminder_then_the_clock_ends_the_turn_without_a_forfeit(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob = people["alice"], people["bob"]
    game_id = await start_game(env, channel, "tileup", alice, bob, clock_hours=2)
    table = Table.watching("tileup", env, channel, db_path, people, game_id)
    watch = table.watch
    late = table.mover()
    place = nearest_corner(await table.suggestions(late, "play", "move", "@"), CORNERS)
    assert place is not None
    await table.command(late, "play", move=place)
    await env.advance_time(90 * 60 + 60)  # the reminder comes a quarter of a short clock before the end
    reminder = posts(table.thread)[-1]
    assert "still your turn" in reminder.content and {u.id for u in reminder.mentions} == {late.id}
    watch.after(game_id)
    await env.advance_time(30 * 60)
    watch.after(game_id)
    turn = last_board(table.thread)
    assert "ran out of time" in turn.content and "Game over" not in turn.content
    status, _, _ = game_state(db_path, game_id)
    assert status == "playing" and table.mover() is not late
    assert {user.id for user in turn.mentions} == {table.mover().id}
    assert rows(db_path, "SELECT notation FROM moves WHERE game_id = ? ORDER BY ply", game_id) == [
        (place,),
        ("!timeout",),
    ]

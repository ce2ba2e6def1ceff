"""What a player asks, answered unambiguously, through SimCord (issue 22, items 5 and 13):

- "the last game here": of games that ended at the same moment in one channel, the asker's own
  game first, then a table's game before another member's solitaire (``/puzzominos board``,
  ``board public:True``, ``export`` and ``replay`` without a number);
- autocomplete with no move to offer (someone else's turn, a spectator, a lobby, no game, a game
  still loading after a restart, nothing matching what was typed) shows one line saying why,
  whose value, if picked, is refused with nothing stored.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot import words
from bot.client import TilehostBot
from bot.sessions.restore import Restorer
from tests.e2e.helpers import (
    build_bot,
    make_world,
    private,
    refused,
    room,
    rows,
    shown,
    start_game,
    table_counts,
    to_act,
)

EXTENSIONS = ("cogs.lobby", "cogs.standings", "cogs.puzzominos", "cogs.triominos")
LOADING_SECONDS = 60


@pytest.fixture
def simcord_bot(db_path: str, seed: list[int]) -> TilehostBot:
    return build_bot(db_path, EXTENSIONS, seed)


@pytest.fixture
def world(simcord_env: Any) -> Any:
    return make_world(simcord_env, "Tile Club", "games", ("alice", "bob", "cara", "dan"))


# -- the last game here ------------------------------------------------------------------------


async def test_the_last_game_here_is_the_askers_own_then_the_tables(world: Any, db_path: str) -> None:
    env, channel, people = world
    alice, bob, cara, dan = (people[name] for name in ("alice", "bob", "cara", "dan"))
    duel = await start_game(env, channel, "puzzominos", alice, bob)
    private(await cara.slash(channel, "puzzominos solo", target="6x10"))
    ((solo,),) = rows(db_path, "SELECT id FROM games WHERE game = 'puzzosolo'")
    assert solo > duel, "the solitaire has the higher id (it used to win every tie)"
    private(await alice.slash(room(channel, duel), "puzzominos resign"))
    private(await cara.slash(channel, "puzzominos giveup"))
    ended = rows(db_path, "SELECT finished_at FROM games WHERE id IN (?, ?)", duel, solo)
    assert ended[0] == ended[1], "both ended at the same moment"

    for who, expected in ((bob, duel), (alice, duel), (cara, solo), (dan, duel)):
        board = private(await who.slash(channel, "puzzominos board"))
        assert f"#{expected}" in board.content.split("\n")[0], (who.name, board.content)
        public = shown(await who.slash(channel, "puzzominos board", public=True))
        assert not public.ephemeral and f"#{expected}" in public.content.split("\n")[0]
        exported = shown(await who.slash(channel, "puzzominos export"))
        assert exported.content.endswith(f" #{expected}."), (who.name, exported.content)
    replay = shown(await dan.slash(channel, "puzzominos replay"))
    assert f"Puzz\\-Ominos \\#{duel}**" in replay.content, "a table's game before another member's solitaire"
    thread_board = private(await dan.slash(room(channel, duel), "puzzominos board"))
    assert f"#{duel}" in thread_board.content.split("\n")[0], "in a thread: that thread's game"


# -- autocomplete with no move to offer --------------------------------------------------------


async def lines(who: Any, place: Any, typed: str = "") -> list[dict[str, Any]]:
    return list(await who.autocomplete(place, "triominos play", "move", typed))


def only_note(choices: list[dict[str, Any]], *expected: str) -> str:
    assert len(choices) == 1 and choices[0]["value"] == words.NOT_A_MOVE, choices
    name = str(choices[0]["name"])
    assert len(name) <= 100 and all(text in name for text in expected), (name, expected)
    return name


async def test_autocomplete_without_moves_says_why_and_picking_it_stores_nothing(
    world: Any, db_path: str
) -> None:
    env, channel, people = world
    alice, bob, dan = people["alice"], people["bob"], people["dan"]
    only_note(await lines(alice, channel), "There is no Tri-Ominos game here")
    await alice.slash(channel, "triominos new", target=200)
    await bob.slash(channel, "triominos join")
    only_note(await lines(bob, channel), "has not started yet")
    private(await alice.slash(channel, "triominos start"))
    game_id = int(rows(db_path, "SELECT id FROM games")[0][0])
    thread = room(channel, game_id)
    mover = to_act(db_path, game_id, people)
    waiting = bob if mover is alice else alice
    note = only_note(await lines(waiting, thread), f"It's {mover.name}'s turn, not yours")
    only_note(await lines(dan, thread), f"It's {mover.name}'s turn", "you are watching")
    only_note(await lines(mover, thread, "zzz"), "No legal move matches “zzz”")
    assert (await lines(mover, thread))[0]["value"] != words.NOT_A_MOVE, "the player to act sees moves"

    before = table_counts(db_path)
    said = refused(env, await waiting.slash(thread, "triominos play", move=words.NOT_A_MOVE), "not a move")
    assert note in said and "nothing was stored" in said, said
    refused(env, await mover.slash(thread, "triominos play", move=words.NOT_A_MOVE), "not a move")
    assert table_counts(db_path) == before


async def test_autocomplete_while_a_game_loads_says_so(
    world: Any, db_path: str, seed: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    env, channel, people = world
    game_id = await start_game(env, channel, "triominos", people["alice"], people["bob"], target=200)
    thread = room(channel, game_id)
    read = Restorer.stored_record

    async def slow(self: Restorer, *args: Any, **kwargs: Any) -> Any:
        # a long load, on the simulated clock only (never the wall clock: speed-independent)
        await env.external_wait(asyncio.sleep(LOADING_SECONDS), reason="a long load")
        return await read(self, *args, **kwargs)

    monkeypatch.setattr(Restorer, "stored_record", slow)
    await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    mover = to_act(db_path, game_id, people)
    only_note(await lines(mover, thread), f"Tri-Ominos #{game_id} is loading after a restart")
    await env.advance_time(LOADING_SECONDS)
    assert (await lines(mover, thread))[0]["value"] != words.NOT_A_MOVE

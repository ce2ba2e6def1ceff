"""`/review` through SimCord on a short Tiny Tiles game, with a small playout budget: the review
of the asker's own play, privately, with the pictures of the moves that cost the most and the
chart; kept (asking again, or after a restart, runs nothing); another player's play privately
only; the game's server and players only; finished games only; one's own posted for everyone."""

from __future__ import annotations

from typing import Any

import pytest

from bot import workers
from bot.between.review import ReviewBudget
from tests.e2e.helpers import (
    build_bot,
    game_state,
    posts,
    private,
    refused,
    room,
    rows,
    seat_names,
    start_game,
)

EXTENSIONS = ("cogs.lobby", "cogs.between", "tests.support.tiny.cog")
BUDGET = ReviewBudget(playouts=12, worlds=2, cap=400, least=4)


@pytest.fixture
def world(simcord_env: Any) -> Any:
    env = simcord_env
    home, away = env.create_guild("Home Club"), env.create_guild("Away Club")
    users = {name: env.create_user(name) for name in ("alice", "bob", "cara", "dan")}
    people = {name: home.add_member(users[name]) for name in ("alice", "bob", "cara")}
    people["dan"] = away.add_member(users["dan"])
    env.bot.service.reviews.budget = BUDGET
    return env, home.create_text_channel("games"), away.create_text_channel("games"), people


async def play_out(channel: Any, db_path: str, game_id: int, people: dict[str, Any]) -> None:
    place = room(channel, game_id)
    for _ in range(100):
        status, _, seat = game_state(db_path, game_id)
        if status != "playing":
            return
        who = people[seat_names(db_path, game_id)[seat]]
        choice = (await who.autocomplete(place, "tiny play", "move", ""))[-1]["value"]  # not the best
        private(await who.slash(place, "tiny play", move=choice))
    raise AssertionError("the game did not end")


def pngs(message: Any) -> list[str]:
    return [a.filename for a in message.attachments if a.filename.endswith(".png")]


async def test_review_of_a_short_game(
    world: Any, db_path: str, seed: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    env, channel, away, people = world
    alice, bob, cara, dan = (people[name] for name in ("alice", "bob", "cara", "dan"))
    game_id = await start_game(env, channel, "tiny", alice, bob, hand=3)
    refused(env, await alice.slash(channel, "review", game_id=game_id), "still running")
    await play_out(channel, db_path, game_id, people)

    # alice's own review, privately: the engine, its budget, the moves it liked least, the chart
    review = private(await alice.slash(channel, "review"))
    text = review.content
    assert text.startswith(f"🔎 **Review of alice** in **Tiny Tiles** #{game_id} — the hard engine, ")
    assert "seeing only what alice could see at each move" in text
    mistakes = text.count("**1. Move") + text.count("**2. Move") + text.count("**3. Move")
    names = pngs(review)
    assert names[-1] == f"review-{game_id}-chart.png" and len(names) == mistakes + 1
    assert mistakes >= 1, text
    assert "less chance to win" in text and "the engine would play" in text
    ((stored_at,),) = rows(db_path, "SELECT created_at FROM reviews WHERE game_id = ?", game_id)

    # asked again, and after a restart: the kept review, nothing made again
    await env.advance_time(60)
    assert private(await alice.slash(channel, "review", game_id=game_id)).content == text
    await env.restart_bot(build_bot(db_path, EXTENSIONS, seed))
    env.bot.service.reviews.budget = BUDGET
    assert private(await alice.slash(channel, "review", game_id=game_id)).content == text
    assert rows(db_path, "SELECT created_at FROM reviews WHERE game_id = ?", game_id) == [(stored_at,)]

    # another's play: privately to a player or a member of the server, never for everyone
    assert (
        "Review of alice"
        in private(await bob.slash(channel, "review", game_id=game_id, player=alice)).content
    )
    assert (
        "Review of alice"
        in private(await cara.slash(channel, "review", game_id=game_id, player=alice)).content
    )
    refused(
        env, await bob.slash(channel, "review", game_id=game_id, player=alice, public=True), "your own review"
    )
    refused(env, await cara.slash(channel, "review", game_id=game_id), "cara did not play")
    refused(env, await dan.slash(away, "review", game_id=game_id), f"no game #{game_id} in this server")
    assert rows(db_path, "SELECT COUNT(*) FROM reviews") == [(1,)], "alice's review, kept once"

    # a review refused once the work has begun (the member's long work is over its caps) is told
    # privately, even when it was asked for everyone
    async def over_the_caps(*_: Any) -> Any:
        raise workers.Busy("You have two long requests under way; try again when one of them is done.")

    monkeypatch.setattr(env.bot.service.reviews, "review", over_the_caps)
    refused(env, await bob.slash(channel, "review", public=True), "two long requests under way")
    assert not [m for m in posts(channel) if m.content.startswith("🔎")], "nothing posted for everyone"
    monkeypatch.undo()

    # bob's own, for everyone
    posted = await bob.slash(channel, "review", public=True)
    shown = posted.followups[-1] if posted.followups else posted.response
    assert not shown.ephemeral and shown.content.startswith("🔎 **Review of bob**") and pngs(shown)
    note = posted.response  # the deferred answer, edited by the first followup
    assert note.ephemeral and "is posted below for everyone" in note.content, "bob is told privately first"
    assert rows(db_path, "SELECT seat FROM reviews WHERE game_id = ? ORDER BY seat", game_id) == [(0,), (1,)]

"""Between games (issue 25) without Discord: the queries on both backends, a member's list of
running games, rematch seating and presses that race."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot import errors
from bot.between import daily, rematch, turns
from bot.sessions import SessionService, Status
from bot.storage import Clock, Finish, ResultRow, SeatRow, Storage
from games import records, registry
from tests.bot.fakes import FakeTime
from tests.support import tiny

registry.register(tiny.GAME)
GUILD = 1 << 22
NOW = 1_000_000.0


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    opened = await Storage.open(database_url)
    yield opened
    await opened.close()


async def playing(
    storage: Storage, players: list[int | None], *, channel: int, deadline: float | None
) -> int:
    """A started Tiny Tiles game with ``players`` (None: a computer) and a stored snapshot."""
    seats = [
        SeatRow(i, user, f"p{i}" if user else "Ada", None if user else "normal")
        for i, user in enumerate(players)
    ]
    game_id = await storage.create_game(
        game="tiny",
        guild_id=GUILD,
        channel_id=channel,
        host=seats[0],
        others=seats[1:],
        options={"hand": 3},
        seed=1,
        deal=None,
        turn_seconds=3600,
        now=NOW,
    )
    snapshot = {"ply": 0, "scores": [0] * len(seats), "to_act": 0}
    await storage.start_game(game_id, seats, snapshot, Clock(deadline), NOW)
    return game_id


class Counting:
    """Counts the queries a storage call makes."""

    def __init__(self, storage: Storage) -> None:
        self.count = 0
        database = storage.database
        fetch = database.fetch

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await fetch(*args, **kwargs)

        database.fetch = counted  # type: ignore[method-assign]


async def test_running_games_of_a_member_in_fifty_games_is_one_query(storage: Storage) -> None:
    ids = [
        await playing(storage, [7, 100 + n, None], channel=1000 + n, deadline=NOW + 3600 * (50 - n))
        for n in range(50)
    ]
    other = await playing(storage, [8, 9], channel=5000, deadline=NOW)
    finished = await playing(storage, [7, 9], channel=5001, deadline=None)
    await storage.abort(finished, NOW)
    counting = Counting(storage)
    found = await storage.running_games_of(7)
    assert counting.count == 1, "one query, whatever the number of games"
    assert [row.id for row, _ in found] == ids and other not in {row.id for row, _ in found}
    row, seats = found[0]
    assert [seat.name for seat in seats] == ["p0", "p1", "Ada"] and seats[2].is_computer
    assert row.snapshot == {"ply": 0, "scores": [0, 0, 0], "to_act": 0}

    listed = turns.running(found, 7)
    assert [game.row.id for game in listed] == list(reversed(ids)), "nearest deadline first"
    pages = turns.pages(listed, lambda guild: "Club")
    assert len(pages) > 1 and all(len(page) <= turns.LINE_LIMIT for page in pages)
    assert sum(page.count("\n") + 1 for page in pages) == 50


def test_own_turns_come_first_then_nearest_deadline() -> None:
    def game(game_id: int, to_act: int, deadline: float | None) -> tuple[Any, list[SeatRow]]:
        from bot.storage import GameRow

        row = GameRow(
            game_id, "tiny", GUILD, 10, 1, Status.PLAYING, {}, 1, None, 3600, 3,
            {"ply": 3, "scores": [4, 9], "to_act": to_act}, deadline, None, None, None, NOW, NOW, None,
            thread_id=20 + game_id,
        )  # fmt: skip
        return row, [SeatRow(0, 1, "ann"), SeatRow(1, 2, "ben")]

    listed = turns.running(
        [game(1, 1, NOW + 10), game(2, 0, None), game(3, 0, NOW + 50), game(4, 1, None)], 1
    )
    assert [g.row.id for g in listed] == [3, 2, 1, 4]
    text = turns.line(listed[0], "Club")
    assert text.startswith("**Tiny Tiles** #3 · Club — **your turn**, time runs out <t:")
    assert "you 4, ben 9" in text and f"[open](https://discord.com/channels/{GUILD}/23)" in text
    assert "ben to play" in turns.line(listed[2], None)
    assert turns.title(listed) == "Your games: 2 turns to play, of 4 games"
    digest = turns.digest(listed, lambda guild: None)
    assert digest.startswith("**Your games: 2 turns to play, of 4 games**") and len(digest) < 2000


# -- rematches -----------------------------------------------------------------------------------


def test_rematch_order_rotates_and_keeps_the_plan() -> None:
    seats = [SeatRow(0, 1, "ann"), SeatRow(1, None, "Ada", "hard"), SeatRow(2, 3, "cy")]
    planned = rematch.rotated(seats)
    assert [s.name for s in planned] == ["Ada", "cy", "ann"]
    plan = rematch.seating(planned)
    lobby = [
        SeatRow(0, 3, "cy"),
        SeatRow(1, None, "Ada", "hard"),
        SeatRow(2, None, "Babbage"),
        SeatRow(3, 1, "ann"),
    ]
    assert [s.name for s in rematch.as_planned(lobby, plan)] == ["Ada", "cy", "ann", "Babbage"]


@pytest.mark.parametrize("name", ["puzzominos", "triominos", "geronimos", "tileup", "geominos"])
def test_rematch_seed_lets_another_player_begin(name: str) -> None:
    """Where the rules pick who begins from the deal, the rematch's seed gives the first turn to
    someone other than the previous first player (seats rotated as a rematch has them)."""
    game = registry.get(name)
    players = [f"p{n}" for n in range(game.min_players)]
    order = [*range(1, len(players)), 0]
    for seed in range(1, 8):
        previous = records.new_record(game, players, {}, seed)
        began = rematch.first_to_act(game, previous)
        chosen = rematch.rematch_seed(game, previous, order, list(range(seed * 100, seed * 100 + 16)))
        header = records.new_record(game, [players[s] for s in order], {}, chosen)
        first = rematch.first_to_act(game, header)
        assert first is not None and order[first] != began


@pytest.fixture
async def service(database_url: str) -> AsyncIterator[SessionService]:
    opened = await Storage.open(database_url)
    time = FakeTime()
    seeds = itertools.count(100)
    svc = SessionService(opened, now=time.now, sleep=time.sleep, seed_source=lambda: next(seeds))
    yield svc
    await svc.close()
    await opened.close()


async def finished_game(svc: SessionService) -> int:
    """A Tiny Tiles game of ann (1) and ben (2), resigned by ben."""
    session = await svc.create("tiny", guild_id=GUILD, channel_id=50, user_id=1, name="ann")
    await svc.join(session, 2, "ben")
    await svc.start(session, 1)
    await svc.resign(session, 2)
    assert session.status is Status.FINISHED
    return session.id


async def test_presses_that_race_open_one_rematch(service: SessionService) -> None:
    game_id = await finished_game(service)
    both = await asyncio.gather(
        service.rematch(game_id, 2, "ben"), service.rematch(game_id, 2, "ben"), return_exceptions=True
    )
    opened = [found for found in both if isinstance(found, tuple)]
    assert len(opened) == 1 and opened[0][1] is True
    (twice,) = [found for found in both if isinstance(found, BaseException)]
    assert isinstance(twice, errors.AlreadySeated)
    session = opened[0][0]
    _, joined = await service.rematch(game_id, 1, "ann")
    assert joined is False and [s.name for s in session.seats] == ["ben", "ann"]
    assert (
        session.row.rematch_of == game_id
        and (await service.storage.rematch_of_game(game_id)).id == session.id
    )  # type: ignore[union-attr]
    with pytest.raises(errors.NotSeated):
        await service.rematch(game_id, 3, "cy")
    # the host leaving calls the lobby off: the game may have a rematch again
    await service.leave(session, 2)
    again, opened_again = await service.rematch(game_id, 1, "ann")
    assert opened_again and again.id != session.id


async def test_storage_keeps_one_rematch_per_game(storage: Storage) -> None:
    from bot.storage import RematchExists

    first = await playing(storage, [1, 2], channel=60, deadline=None)
    await storage.record_move(
        first,
        ply=1,
        seat=0,
        notation="!resign",
        user_id=1,
        snapshot={},
        clock=Clock(),
        now=NOW,
        finish=Finish(
            {},
            [
                ResultRow(0, 1, None, 2, 0, True, False, False),
                ResultRow(1, 2, None, 1, 0, False, True, False),
            ],
        ),
    )
    plan = [{"user_id": 2, "name": "p1", "ai_level": None}, {"user_id": 1, "name": "p0", "ai_level": None}]
    common: dict[str, Any] = {
        "game": "tiny", "guild_id": GUILD, "channel_id": 60, "options": {}, "seed": 3, "deal": None,
        "turn_seconds": 0, "now": NOW, "rematch_of": first, "seating": plan,
    }  # fmt: skip
    second = await storage.create_game(host=SeatRow(0, 2, "p1"), **common)
    with pytest.raises(RematchExists):
        await storage.create_game(host=SeatRow(0, 1, "p0"), **(common | {"channel_id": 61}))
    row = await storage.rematch_of_game(first)
    assert row is not None and row.id == second and row.seating == plan and row.rematch_of == first
    await storage.abort(second, NOW)
    assert await storage.rematch_of_game(first) is None
    await storage.create_game(host=SeatRow(0, 1, "p0"), **common)
    assert not await storage.tournament_game(first)


# -- the daily challenge -------------------------------------------------------------------------


def test_daily_targets_cycle_without_repeats_and_have_known_solutions() -> None:
    import datetime as dt

    from games.puzzosolo.rules import first_solution

    start = dt.date(2025, 1, 1)
    days = [(start + dt.timedelta(days=n)).isoformat() for n in range(400)]
    names = [daily.target_of(day).name for day in days]
    assert all(a != b for a, b in itertools.pairwise(names)), "never the same target two days running"
    assert set(names) == set(daily.DAILY_TARGETS)
    cycle = len(daily.DAILY_TARGETS)
    first = (start - daily.EPOCH).days
    aligned = names[(cycle - first % cycle) % cycle :]
    for index in range(0, len(aligned) - cycle, cycle):
        assert sorted(aligned[index : index + cycle]) == sorted(daily.DAILY_TARGETS), "each once a cycle"
    assert daily.target_of("2025-03-04") == daily.target_of("2025-03-04"), "the same in every server"
    for name in daily.DAILY_TARGETS:
        assert first_solution(daily.TARGETS[name]), f"{name} has a known solution"


def test_daily_streaks_and_ranks() -> None:
    from bot.storage import DailyResult

    assert daily.streak(["2025-01-05", "2025-01-04", "2025-01-02"], "2025-01-05") == 2
    assert daily.streak(["2025-01-04", "2025-01-03"], "2025-01-05") == 2, "today not played yet"
    assert daily.streak(["2025-01-03"], "2025-01-05") == 0
    assert daily.streak([], "2025-01-05") == 0

    def result(user: int, reason: str | None, pieces: int, hints: int, seconds: float | None) -> DailyResult:
        status = "finished" if reason else "playing"
        last = 100 + seconds if seconds is not None else None
        return DailyResult(user, GUILD, user, None, status, reason, pieces, hints, 100, last)

    found = daily.ranked(
        [
            result(1, "gave_up", 7, 0, 50),
            result(2, "solved_with_hints", 12, 3, 10),
            result(3, "solved", 12, 0, 400),
            result(4, None, 9, 0, None),
            result(5, "solved", 12, 0, 300),
            result(6, "solved_with_hints", 12, 1, 900),
        ]
    )
    assert [r.user_id for r in found] == [5, 3, 6, 2, 1, 4]
    target = daily.TARGETS["6x10"]
    assert daily.outcome_words(found[0], target) == "solved without hints in 5m 00s"
    assert daily.outcome_words(found[2], target) == "solved with 1 hint in 15m 00s"
    assert daily.outcome_words(found[4], target) == "gave up with 7 of 12 pieces placed"
    assert daily.outcome_words(found[5], target) == "playing: 9 of 12 pieces placed"
    assert daily.place_words(found, 6, "here") == "3rd of 5 here"


async def test_daily_attempts_results_and_days_solved(storage: Storage) -> None:
    from bot.storage import DailyTaken

    day = "2025-02-01"
    claim = await storage.claim_daily(day=day, user_id=1, guild_id=GUILD, channel_id=9, target="T", now=NOW)
    with pytest.raises(DailyTaken) as taken:
        await storage.claim_daily(day=day, user_id=1, guild_id=GUILD + 1, channel_id=8, target="T", now=NOW)
    assert taken.value.attempt == claim
    game_id = await playing(storage, [1], channel=70, deadline=None)
    await storage.set_daily_game(day, 1, game_id)
    lines = [("Ir0@A1", 10.0), ("hint Lr1@A2", 20.0), ("undo", 30.0), ("Vr2@B3", 40.0), ("giveup", 70.0)]
    for ply, (notation, at) in enumerate(lines, start=1):
        finish = None
        if notation == "giveup":
            finish = Finish({"reason": "gave_up"}, [ResultRow(0, 1, None, 1, 0, True, False, False)])
        await storage.record_move(
            game_id, ply=ply, seat=0, notation=notation, user_id=1, snapshot={}, clock=Clock(), now=NOW + at,
            finish=finish,
        )  # fmt: skip
    (result,) = await storage.daily_results(day, GUILD)
    assert (result.pieces, result.hints, result.seconds, result.reason) == (2, 1, 60.0, "gave_up")
    assert await storage.daily_results(day, GUILD + 1) == []
    assert (await storage.daily_of_game(game_id)) == claim.__class__(day, 1, GUILD, 9, "T", game_id, NOW)
    other = await storage.claim_daily(day=day, user_id=2, guild_id=GUILD, channel_id=9, target="T", now=NOW)
    await storage.drop_daily_claim(other.day, other.user_id)
    assert await storage.daily_attempt(day, 2) is None
    # days solved: only won results count
    for offset, won in ((1, True), (2, True), (4, True), (3, False)):
        when = f"2025-02-0{1 + offset}"
        await storage.claim_daily(day=when, user_id=1, guild_id=GUILD, channel_id=9, target="T", now=NOW)
        solo = await playing(storage, [1], channel=80 + offset, deadline=None)
        await storage.set_daily_game(when, 1, solo)
        finish = Finish(
            {"reason": "solved" if won else "gave_up"}, [ResultRow(0, 1, None, 1, 9, not won, won, False)]
        )
        await storage.record_move(
            solo,
            ply=1,
            seat=0,
            notation="giveup",
            user_id=1,
            snapshot={},
            clock=Clock(),
            now=NOW,
            finish=finish,
        )
    solved = await storage.days_solved([1, 2], "2025-02-04")
    assert solved == {1: ["2025-02-03", "2025-02-02"], 2: []}


async def test_reviews_are_kept_per_game_seat_and_version(storage: Storage) -> None:
    game_id = await playing(storage, [1, 2], channel=90, deadline=None)
    assert await storage.review(game_id, 0, 1) is None
    await storage.save_review(game_id, 0, 1, {"moves": [1, 2]}, NOW)
    assert await storage.review(game_id, 0, 1) == {"moves": [1, 2]}
    assert await storage.review(game_id, 1, 1) is None and await storage.review(game_id, 0, 2) is None
    await storage.save_review(game_id, 0, 2, {"moves": []}, NOW)
    assert (
        await storage.review(game_id, 0, 2) == {"moves": []} and await storage.review(game_id, 0, 1) is None
    )


# -- the review ----------------------------------------------------------------------------------


def test_a_review_sees_only_what_the_player_saw() -> None:
    """Two positions the player cannot tell apart (other hands and the deck's order differ) get
    the same review: the engine, the replies and the playouts read only the player's view."""
    import random

    from bot.between.review import Decision, review_decision

    game = tiny.GAME
    state = game.new(2, game.Options(hand=3), seed=5)
    seat = game.to_act(state)
    assert seat is not None
    other = game.determinize(game.view(state, seat), seat, random.Random(99))
    assert game.view(other, seat) == game.view(state, seat) and other != state
    move = game.format_move(state, game.legal_moves(state)[-1])
    first, second = (
        review_decision(game, Decision(1, 1, position, move), seat, 11, 16, 3) for position in (state, other)
    )
    assert first == second
    assert set(first) >= {"best", "loss", "points_played", "points_best", "gave_played", "expected", "setup"}


def test_a_puzzominos_review_says_its_losses_without_an_endless_margin() -> None:
    """Puzz-Ominos hides nothing and draws nothing, so the engine plays each move out once: its
    losses have no error (not an infinite one, which broke the words and strict JSON)."""
    import json

    from bot.between.review import Decision, ReviewBudget, review_decision, summary
    from bot.between.review_words import review_message
    from games.ai import greedy_states

    game = registry.get("puzzominos")
    states = [
        s for s in greedy_states(game, 2, 11) if game.to_act(s) is not None and len(game.legal_moves(s)) > 1
    ]
    reviewed = []
    for number, state in enumerate(states[5:40:5], start=1):
        seat = game.to_act(state)
        move = game.format_move(state, game.legal_moves(state)[-1])
        found = review_decision(game, Decision(number, number, state, move), seat, 3, 20, 2, chart=False)
        assert found["error"] in (None, 0.0)
        reviewed.append(found)
    assert any(found["loss"] and found["loss"] > 0 for found in reviewed)
    data = summary(game, 0, ["Ada", "Bo"], reviewed, [10, 8], 40, ReviewBudget(playouts=20, worlds=2))
    json.dumps(data, allow_nan=False)  # PostgreSQL's JSON takes no Infinity
    text = review_message(game, 7, ["Ada", "Bo"], data)
    assert "less chance to win" in text and "±" not in text

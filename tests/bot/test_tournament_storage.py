"""Tournament storage on both backends (SQLite and PostgreSQL): a tournament read back whole
after every step (sign-up with its limits, the start, a round with a forfeit table, a game and a
result recorded once, an adjustment with who and why, a withdrawal, the finish, the history),
and the server's tournament role."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.shards import Shards
from bot.storage import SeatRow, Storage
from bot.storage.rows import UniqueViolation
from bot.tournaments.model import Format, How, Phase, Plan, Rules, TableResult

GUILD = 1 << 22
NOW = 2_000_000.0
RULES = Rules(
    game="tiny",
    format=Format.SWISS,
    rounds=3,
    table_size=2,
    min_table=2,
    turn_seconds=3600,
    round_seconds=7200,
    max_entrants=3,
    options={"hand": 2},
)


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    opened = await Storage.open(database_url)
    yield opened
    await opened.close()


async def test_a_tournament_round_trip(storage: Storage) -> None:
    tid = await storage.create_tournament(
        guild_id=GUILD,
        channel_id=5,
        organiser_id=7,
        name="Spring Swiss",
        rules=RULES,
        min_table=2,
        seed=99,
        closes_at=NOW + 3600,
        now=NOW,
    )
    assert await storage.active_tournaments() == [tid]
    assert await storage.active_tournaments(Shards(frozenset({0}), 2)) == []
    assert await storage.add_entrant(tid, user_id=11, name="Ann", ai_level=None, now=NOW) == 1
    with pytest.raises(UniqueViolation):
        await storage.add_entrant(tid, user_id=11, name="Ann", ai_level=None, now=NOW)
    assert await storage.add_entrant(tid, user_id=12, name="Bo", ai_level=None, now=NOW) == 2
    assert await storage.add_entrant(tid, user_id=None, name="Ada", ai_level="easy", now=NOW) == 3
    assert await storage.add_entrant(tid, user_id=13, name="Cy", ai_level=None, now=NOW) is None, "full"
    assert await storage.remove_entrant(tid, 2)
    assert await storage.add_entrant(tid, user_id=13, name="Cy", ai_level=None, now=NOW) == 4
    await storage.set_tournament_message(tid, 555)

    assert await storage.start_tournament(tid, seeds={1: 2, 3: 3, 4: 1}, rounds=3, schedule=[], now=NOW + 10)
    assert not await storage.start_tournament(tid, seeds={}, rounds=3, schedule=[], now=NOW + 10)
    assert await storage.add_entrant(tid, user_id=14, name="Di", ai_level=None, now=NOW) is None, "closed"

    forfeit = TableResult((1, 2), (0, 0), frozenset({1}), How.FORFEIT)
    table_ids = await storage.open_round(
        tid, 1, tables=[((4, 1), None), ((3, 2), forfeit)], byes=[], now=NOW + 20, deadline=NOW + 7220
    )
    game_id = await storage.create_game(
        game="tiny",
        guild_id=GUILD,
        channel_id=5,
        host=SeatRow(0, 13, "Cy"),
        options={"hand": 2},
        seed=1,
        deal=None,
        turn_seconds=3600,
        now=NOW,
        table_key=-table_ids[0],
    )
    await storage.set_table_game(table_ids[0], game_id)
    found = await storage.game_in_table(5, "tiny", -table_ids[0])
    assert found is not None and found.id == game_id
    played = TableResult((2, 1), (4, 9))
    assert await storage.set_table_result(table_ids[0], played)
    assert not await storage.set_table_result(table_ids[0], TableResult((1, 2), (9, 4))), "once"
    adjusted = TableResult((1, 1), (4, 9), how=How.ADJUSTED)
    await storage.adjust_result(
        tid, table_ids[0], before=played, after=adjusted, user_id=7, reason="agreed draw", now=NOW + 30
    )
    assert await storage.finish_round(tid, 1, NOW + 40)
    assert not await storage.finish_round(tid, 1, NOW + 41)
    assert await storage.withdraw_entrant(tid, 3, 2)
    assert await storage.set_tournament_status(tid, "paused", expect=("running",))
    assert not await storage.set_tournament_status(tid, "paused", expect=("running",))
    assert await storage.set_tournament_status(tid, "running", expect=("paused",))

    t = await storage.tournament(tid)
    assert t is not None
    assert (t.name, t.phase, t.round, t.message_id, t.seed) == ("Spring Swiss", Phase.RUNNING, 1, 555, 99)
    assert t.rules == RULES
    assert [(e.number, e.name, e.seed, e.withdrawn_round) for e in t.entrants] == [
        (1, "Ann", 2, None),
        (3, "Ada", 3, 2),
        (4, "Cy", 1, None),
    ]
    assert t.entrants[1].is_computer and t.entrants[1].ai_level == "easy"
    assert [(r.number, r.byes, r.deadline, r.finished_at) for r in t.rounds] == [
        (1, (), NOW + 7220, NOW + 40)
    ]
    assert [(x.number, x.seats, x.game_id, x.result) for x in t.tables] == [
        (1, (4, 1), game_id, adjusted),
        (2, (3, 2), None, forfeit),
    ]
    ((adjustment),) = t.adjustments
    assert (adjustment.user_id, adjustment.reason, adjustment.before, adjustment.after) == (
        7,
        "agreed draw",
        played,
        adjusted,
    )

    assert await storage.finish_tournament(tid, [(4, 1, 1.5), (1, 2, 0.5), (3, 3, 0.0)], NOW + 50)
    assert await storage.active_tournaments() == []
    (line,) = await storage.tournament_history(11, GUILD)
    assert (line.name, line.final_rank, line.final_points, line.entrants) == ("Spring Swiss", 2, 0.5, 3)
    assert await storage.tournament_history(11, GUILD + 1) == []


async def test_a_round_robin_keeps_its_schedule(storage: Storage) -> None:
    rules = Rules(
        game="tiny", format=Format.ROUND_ROBIN, rounds=0, table_size=3, min_table=2, turn_seconds=60
    )
    tid = await storage.create_tournament(
        guild_id=GUILD,
        channel_id=5,
        organiser_id=7,
        name="RR",
        rules=rules,
        min_table=2,
        seed=1,
        closes_at=None,
        now=NOW,
    )
    schedule = [Plan(((1, 2, 3),), (4,)), Plan(((4, 1, 2),), (3,))]
    assert await storage.start_tournament(tid, seeds={}, rounds=2, schedule=schedule, now=NOW)
    t = await storage.tournament(tid)
    assert t is not None and t.schedule == tuple(schedule) and t.rules.rounds == 2


async def test_the_tournament_role(storage: Storage) -> None:
    assert await storage.tournament_role(GUILD) is None
    await storage.set_threads(GUILD, False)
    await storage.set_tournament_role(GUILD, 42)
    assert await storage.tournament_role(GUILD) == 42
    assert not await storage.threads_enabled(GUILD), "the other server settings stay"
    await storage.set_tournament_role(GUILD, None)
    assert await storage.tournament_role(GUILD) is None


async def test_ratings_of(storage: Storage) -> None:
    assert await storage.ratings_of("tiny", GUILD, [1, 2]) == {}

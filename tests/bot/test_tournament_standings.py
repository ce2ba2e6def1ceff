"""Standings: points at tables of two to four (absent players lose), Buchholz, Cut-1,
Sonneborn-Berger, head-to-head and game points, worked by hand; and properties over random
tournaments (points add up; the order follows the keys; equal keys share a rank)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.model import Entrant, Format, How, Rules, Table, TableResult, Tiebreak
from bot.tournaments.pairing import history, swiss
from bot.tournaments.standings import format_points, standings, table_points

SWISS = Rules(game="tiny", format=Format.SWISS, rounds=3, table_size=2, min_table=2, turn_seconds=3600)
ROBIN = Rules(game="tiny", format=Format.ROUND_ROBIN, rounds=3, table_size=2, min_table=2, turn_seconds=3600)
HALF = Fraction(1, 2)


def people(count: int) -> list[Entrant]:
    return [Entrant(n, 100 + n, f"P{n}", seed=n) for n in range(1, count + 1)]


def game(round_number: int, seats: tuple[int, ...], ranks: tuple[int, ...], **extra: object) -> Table:
    scores = extra.pop("scores", tuple(10 - r for r in ranks))
    return Table(
        id=round_number * 100 + seats[0],
        round=round_number,
        number=1,
        seats=seats,
        result=TableResult(ranks, scores, **extra),  # type: ignore[arg-type]
    )


def test_points_at_tables_of_two_to_four() -> None:
    two = TableResult((1, 2), (5, 3))
    assert [table_points(two, s) for s in range(2)] == [1, 0]
    draw = TableResult((1, 1), (4, 4))
    assert [table_points(draw, s) for s in range(2)] == [HALF, HALF]
    four = TableResult((1, 2, 2, 4), (9, 5, 5, 1))
    assert [table_points(four, s) for s in range(4)] == [1, HALF, HALF, 0]
    three = TableResult((1, 2, 3), (9, 5, 1))
    assert [table_points(three, s) for s in range(3)] == [1, HALF, 0]


def test_absent_players_lose_to_everyone_present() -> None:
    one_absent = TableResult((1, 1), (0, 0), frozenset({1}), How.FORFEIT)
    assert [table_points(one_absent, s) for s in range(2)] == [1, 0]
    both_absent = TableResult((1, 1), (0, 0), frozenset({0, 1}), How.FORFEIT)
    assert [table_points(both_absent, s) for s in range(2)] == [0, 0]
    three = TableResult((2, 1, 3), (4, 6, 0), frozenset({2}))
    assert [table_points(three, s) for s in range(3)] == [HALF, 1, 0]


def test_swiss_tiebreaks_by_hand() -> None:
    """Five players, two rounds (one bye each round):
    R1: 1 beats 2, 3 draws 4, 5 bye.  R2: 1 beats 3, 5 beats 4, 2 bye."""
    tables = [
        game(1, (1, 2), (1, 2)),
        game(1, (3, 4), (1, 1)),
        game(2, (1, 3), (1, 2)),
        game(2, (5, 4), (1, 2)),
    ]
    lines = standings(people(5), tables, {1: [5], 2: [2]}, SWISS)
    by = {line.number: line for line in lines}
    # points: 1 and 5 on 2, 2 on 1, 3 and 4 on ½
    assert by[1].tiebreaks[Tiebreak.BUCHHOLZ] == 1 + HALF  # opponents 2 (1) and 3 (½)
    assert by[5].tiebreaks[Tiebreak.BUCHHOLZ] == 2 + HALF  # the bye counts 5's own 2, and 4 (½)
    assert by[1].tiebreaks[Tiebreak.BUCHHOLZ_CUT1] == 1
    assert by[5].tiebreaks[Tiebreak.BUCHHOLZ_CUT1] == 2
    assert by[1].tiebreaks[Tiebreak.SONNEBORN_BERGER] == 1 + HALF
    assert by[3].tiebreaks[Tiebreak.SONNEBORN_BERGER] == Fraction(1, 4)  # a draw with 4 (½ × ½)
    assert by[2].byes == 1 and by[2].played == 1
    # 5 is ahead of 1 on Cut-1; 3 and 4 are equal on everything (17 game points each): shared 4th
    assert [(line.rank, line.number, line.points) for line in lines] == [
        (1, 5, 2),
        (2, 1, 2),
        (3, 2, 1),
        (4, 3, HALF),
        (4, 4, HALF),
    ]
    assert by[3].tiebreaks[Tiebreak.HEAD_TO_HEAD] == HALF and by[3].tiebreaks[Tiebreak.GAME_SCORE] == 17


def test_head_to_head_breaks_a_round_robin_tie() -> None:
    """Three players, each beats one: all on 1 point; SB equal; head-to-head is even too, so
    game points decide; then a two-way tie is broken by who won their game."""
    tables = [
        game(1, (1, 2), (1, 2), scores=(30, 10)),
        game(2, (2, 3), (1, 2), scores=(20, 10)),
        game(3, (3, 1), (1, 2), scores=(25, 5)),
    ]
    lines = standings(people(3), tables, {}, ROBIN)
    assert {line.points for line in lines} == {1}
    assert [line.number for line in lines] == [1, 3, 2]  # 35, 35... then by head-to-head
    by = {line.number: line for line in lines}
    assert by[1].tiebreaks[Tiebreak.GAME_SCORE] == 35 and by[3].tiebreaks[Tiebreak.GAME_SCORE] == 35
    assert by[2].tiebreaks[Tiebreak.GAME_SCORE] == 30
    # 1 and 3 are still tied after game points; head-to-head was already applied to all three
    assert lines[0].rank == 1 and lines[1].rank == 1 and lines[2].rank == 3


def test_head_to_head_among_two() -> None:
    """1 and 2 both score 2, and 1 beat 2; 3 and 4 both score 1, and 4 beat 3."""
    tables = [
        game(1, (1, 2), (1, 2)),
        game(1, (3, 4), (2, 1)),
        game(2, (3, 1), (1, 2)),
        game(2, (4, 2), (2, 1)),
        game(3, (1, 4), (1, 2)),
        game(3, (2, 3), (1, 2)),
    ]
    lines = standings(people(4), tables, {}, ROBIN)
    assert [(line.rank, line.number, line.points) for line in lines] == [
        (1, 1, 2),
        (2, 2, 2),
        (3, 4, 1),
        (4, 3, 1),
    ]
    assert [line.tiebreaks[Tiebreak.HEAD_TO_HEAD] for line in lines] == [1, 0, 1, 0]


def test_fewest_game_points_win_ties_where_the_game_says_so() -> None:
    rules = Rules(
        game="geominos",
        format=Format.ROUND_ROBIN,
        rounds=1,
        table_size=2,
        min_table=2,
        turn_seconds=3600,
        lower_is_better=True,
    )
    tables = [game(1, (1, 2), (1, 1), scores=(12, 3))]
    lines = standings(people(2), tables, {}, rules)
    assert [line.number for line in lines] == [2, 1]


@settings(max_examples=40, deadline=None)
@given(count=st.integers(3, 12), size=st.integers(2, 4), rounds=st.integers(1, 5), seed=st.integers(0, 10**6))
def test_points_add_up_and_order_follows_the_keys(count: int, size: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = people(count)
    tables: list[Table] = []
    byes: dict[int, list[int]] = {}
    plans = []
    points = {e.number: Fraction(0) for e in entrants}
    for number in range(1, rounds + 1):
        ranking = sorted(points, key=lambda p: (-points[p], p))
        plan = swiss(ranking, points, history(plans), size, 2)
        plans.append(plan)
        byes[number] = list(plan.byes)
        for index, seats in enumerate(plan.tables):
            ranks = tuple(rng.randint(1, len(seats)) for _ in seats)
            absent = frozenset(s for s in range(len(seats)) if rng.random() < 0.1)
            result = TableResult(ranks, tuple(rng.randint(0, 50) for _ in seats), absent)
            tables.append(Table(number * 100 + index, number, index + 1, seats, result=result))
            for s, p in enumerate(seats):
                points[p] += table_points(result, s)
        for p in plan.byes:
            points[p] += 1
    lines = standings(entrants, tables, byes, SWISS)
    assert {line.number: line.points for line in lines} == points
    full = sum(Fraction(len(t.seats), 2) for t in tables if not t.result.absent)  # type: ignore[union-attr]
    assert sum(points.values()) >= full + sum(len(b) for b in byes.values())
    for above, below in itertools.pairwise(lines):
        assert above.points >= below.points
        if above.rank == below.rank:
            assert above.points == below.points
            assert all(
                above.tiebreaks[t] == below.tiebreaks[t]
                for t in SWISS.tiebreaks
                if t is not Tiebreak.HEAD_TO_HEAD
            )
    assert sorted(line.rank for line in lines) == [line.rank for line in lines]


def test_format_points() -> None:
    assert [
        format_points(v) for v in (Fraction(5, 2), Fraction(1, 2), Fraction(3), Fraction(5, 3), 4, None)
    ] == [
        "2½",
        "½",
        "3",
        "1⅔",
        "4",
        "–",
    ]

"""Pairing properties (Hypothesis): everyone plays or sits out once a round; Swiss pairs are the
best possible by brute force (fewest second byes, then fewest repeated pairs, then seats, then
score gaps); equal scores meet; byes go to the lowest-ranked and rotate; seats balance; round
robins meet every pair (once at two a table, as evenly as possible at more)."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.model import Plan
from bot.tournaments.pairing import (
    History,
    _lean,
    history,
    partition,
    round_robin,
    swiss,
    table_plan,
)

FAST = settings(max_examples=60, deadline=None)


def simulate(
    count: int, rounds: int, size: int, seed: int, draws: bool = True
) -> Iterator[tuple[list[int], dict[int, Fraction], History, Plan]]:
    """A random Swiss: each round's ranking, points and history before it, and its plan."""
    rng = random.Random(seed)
    players = list(range(1, count + 1))
    points = {p: Fraction(0) for p in players}
    plans: list[Plan] = []
    for _ in range(rounds):
        ranking = sorted(players, key=lambda p: (-points[p], p))
        hist = history(plans)
        plan = swiss(ranking, points, hist, size, 2)
        yield ranking, dict(points), hist, plan
        plans.append(plan)
        for table in plan.tables:
            if draws and rng.random() < 0.2:
                for p in table:
                    points[p] += Fraction(1, len(table))
            else:
                points[rng.choice(table)] += 1
        for p in plan.byes:
            points[p] += 1


def matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for more in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


def swiss_cost(
    pairs: list[tuple[int, int]],
    bye: int | None,
    points: dict[int, Fraction],
    hist: History,
    everyone: list[int],
) -> tuple[int, int, int, Fraction]:
    fewest = min(hist.byes[p] for p in everyone)
    extra = hist.byes[bye] - fewest if bye is not None else 0
    repeats = sum(hist.meetings(a, b) for a, b in pairs)
    clashes = sum(1 for a, b in pairs if _lean(hist, a)[0] and _lean(hist, a)[0] == _lean(hist, b)[0])
    gaps = sum(((points[a] - points[b]) ** 2 for a, b in pairs), Fraction(0))
    if bye is not None:
        # the bye is a pretend opponent a step below the lowest score
        step = Fraction(1, math.lcm(1, *(v.denominator for v in points.values())))
        gaps += (points[bye] - min(points.values()) + step) ** 2
    return extra, repeats, clashes, gaps


@FAST
@given(count=st.integers(2, 16), rounds=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_swiss_seats_everyone_once(count: int, rounds: int, seed: int) -> None:
    for ranking, _, _, plan in simulate(count, rounds, 2, seed):
        assert sorted(plan.players()) == sorted(ranking)
        assert all(len(table) == 2 for table in plan.tables)
        assert len(plan.byes) == count % 2


@FAST
@given(count=st.integers(2, 9), rounds=st.integers(1, 7), seed=st.integers(0, 10**6))
def test_swiss_pairs_are_the_best_there_are(count: int, rounds: int, seed: int) -> None:
    """No second bye, then no repeated pair, while another choice exists; then the fewest seat
    clashes and the smallest score gaps, the bye counting as a pairing with a pretend player
    below the lowest score (brute force over every pairing)."""
    for ranking, points, hist, plan in simulate(count, rounds, 2, seed):
        chosen = swiss_cost(
            [(t[0], t[1]) for t in plan.tables], (plan.byes or [None])[0], points, hist, ranking
        )
        best = min(
            swiss_cost(pairs, bye, points, hist, ranking)
            for bye in (ranking if count % 2 else [None])
            for pairs in matchings([p for p in ranking if p != bye])
        )
        assert chosen == best


@FAST
@given(half=st.integers(1, 8), seed=st.integers(0, 10**6))
def test_equal_scores_meet(half: int, seed: int) -> None:
    """After a first round of wins and losses, winners meet winners and losers losers (one pair
    of each floats when the groups are odd)."""
    rounds = list(simulate(2 * half, 2, 2, seed, draws=False))
    _, points, _, second = rounds[1]
    mixed = [t for t in second.tables if points[t[0]] != points[t[1]]]
    assert len(mixed) == half % 2


@FAST
@given(
    count=st.integers(3, 15).filter(lambda n: n % 2), rounds=st.integers(1, 14), seed=st.integers(0, 10**6)
)
def test_byes_go_to_the_lowest_and_rotate(count: int, rounds: int, seed: int) -> None:
    rounds = min(rounds, count)
    byes: list[int] = []
    for index, (ranking, _, hist, plan) in enumerate(simulate(count, rounds, 2, seed)):
        (bye,) = plan.byes
        assert hist.byes[bye] == min(hist.byes[p] for p in ranking), "nobody has a second bye first"
        if index == 0:
            assert bye == ranking[-1], "the first bye goes to the lowest-ranked"
        byes.append(bye)
    assert len(set(byes)) == len(byes), "byes rotate"


def test_round_one_top_half_meets_bottom_half() -> None:
    plan = swiss(list(range(1, 9)), dict.fromkeys(range(1, 9), Fraction(0)), History(), 2, 2)
    assert sorted(tuple(sorted(t)) for t in plan.tables) == [(1, 5), (2, 6), (3, 7), (4, 8)]


@FAST
@given(count=st.integers(2, 16), rounds=st.integers(1, 8), seed=st.integers(0, 10**6))
def test_seats_balance_at_two(count: int, rounds: int, seed: int) -> None:
    """Nobody starts two more games than they follow (or the reverse) in a Swiss."""
    plans = [plan for *_, plan in simulate(count, min(rounds, count - 1), 2, seed)]
    hist = history(plans)
    for player in range(1, count + 1):
        started, followed = hist.starts(player)
        assert abs(started - followed) <= 2, (player, started, followed)


@FAST
@given(count=st.integers(3, 14), size=st.integers(3, 4), rounds=st.integers(1, 5), seed=st.integers(0, 10**6))
def test_swiss_tables_of_three_or_four(count: int, size: int, rounds: int, seed: int) -> None:
    sizes, bye_count = table_plan(count, size, 2)
    for ranking, _, hist, plan in simulate(count, rounds, size, seed):
        assert sorted(plan.players()) == sorted(ranking)
        assert sorted(len(t) for t in plan.tables) == sorted(sizes) and len(plan.byes) == bye_count
        fewest = sorted(ranking, key=lambda p: (hist.byes[p], -ranking.index(p)))[:bye_count]
        assert sorted(plan.byes) == sorted(fewest), "byes: the lowest-ranked of those with the fewest"


def partitions(players: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for partners in itertools.combinations(rest, sizes[0] - 1):
        left = [p for p in rest if p not in partners]
        for more in partitions(left, sizes[1:]):
            yield [(first, *partners), *more]


@FAST
@given(count=st.integers(3, 9), size=st.integers(3, 4), rounds=st.integers(1, 5), seed=st.integers(0, 10**6))
def test_no_table_repeats_a_pair_while_another_choice_exists(
    count: int, size: int, rounds: int, seed: int
) -> None:
    sizes, _ = table_plan(count, size, 2)
    for _, _, hist, plan in simulate(count, rounds, size, seed):
        playing = [p for t in plan.tables for p in t]

        def repeats(tables: list[tuple[int, ...]], h: History = hist) -> int:
            return sum(h.meetings(a, b) for t in tables for a, b in itertools.combinations(t, 2))

        best = min(
            repeats(tables)
            for order in set(itertools.permutations(sizes))
            for tables in partitions(playing, list(order))
        )
        assert repeats(list(plan.tables)) == best


def test_partition_runs_within_its_budget() -> None:
    """A budget of nodes, not seconds: the answer is the same whatever the machine."""
    players = list(range(40))
    first = partition(players, [4] * 10, lambda a, b: (a * 7 + b * 13) % 11, budget=500)
    again = partition(players, [4] * 10, lambda a, b: (a * 7 + b * 13) % 11, budget=500)
    assert first == again and sorted(p for t in first for p in t) == players


@settings(max_examples=20, deadline=None)
@given(count=st.integers(3, 14))
def test_round_robin_at_two_meets_every_pair_once(count: int) -> None:
    players = list(range(1, count + 1))
    plans = round_robin(players, 2, 2)
    assert len(plans) == (count - 1 if count % 2 == 0 else count)
    hist = history(plans)
    assert all(hist.meetings(a, b) == 1 for a, b in itertools.combinations(players, 2))
    assert all(hist.byes[p] == count % 2 for p in players)
    for p in players:
        started, followed = hist.starts(p)
        assert abs(started - followed) <= 1, (p, started, followed)


@settings(max_examples=12, deadline=None)
@given(count=st.integers(4, 10), size=st.integers(3, 4))
def test_round_robin_at_bigger_tables_meets_everyone(count: int, size: int) -> None:
    players = list(range(1, count + 1))
    plans = round_robin(players, size, 2)
    hist = history(plans)
    assert all(hist.meetings(a, b) >= 1 for a, b in itertools.combinations(players, 2))
    assert len({hist.byes[p] for p in players}) == 1, "everyone sits out equally often"
    for p in players:
        games = len(hist.seats.get(p, []))
        assert hist.seat_count(p, 0) <= -(-games // size) + 1, "nobody keeps starting"


def test_round_robin_of_four_at_three() -> None:
    """Four entrants, tables of three: each round one sits out; four rounds, every trio once."""
    plans = round_robin([1, 2, 3, 4], 3, 2)
    assert len(plans) == 4
    assert sorted(tuple(sorted(p.tables[0])) for p in plans) == sorted(
        itertools.combinations([1, 2, 3, 4], 3)
    )
    assert sorted(p.byes[0] for p in plans) == [1, 2, 3, 4]
    firsts = [p.tables[0][0] for p in plans]
    assert len(set(firsts)) == 4, "each starts once"


def test_table_plan() -> None:
    assert table_plan(7, 2, 2) == ([2, 2, 2], 1)
    assert table_plan(7, 3, 2) == ([3, 3], 1)
    assert table_plan(8, 3, 2) == ([3, 3, 2], 0)
    assert table_plan(6, 4, 2) == ([4, 2], 0)
    assert table_plan(9, 4, 2) == ([4, 4], 1)

"""``bench/tileup_ceiling.py``: Tile Up!'s room for a one-step search, on a tiny budget."""

from __future__ import annotations

import dataclasses
import random

from bench import tileup_ceiling as bench
from games.ai.profile import profile_of


def test_a_ceiling_game_measures_the_policys_first_choice_against_the_others() -> None:
    lines = bench.ceiling_game(92000, every=0.02, worlds=2)
    assert lines, "some decision was measured"
    assert lines == bench.ceiling_game(92000, every=0.02, worlds=2)  # seeded: the same every time
    for line in lines:
        assert 1 <= len(line["moves"]) <= bench.CANDIDATES
        assert line["upper"] >= 0  # the policy's own move is among those measured
    assert bench.summary(lines).startswith(f"ceiling, {len(lines)} decisions (seeds 92000-92000)")


def test_a_ceiling_game_can_measure_more_or_fewer_candidates() -> None:
    lines = bench.ceiling_game(92000, every=0.02, worlds=2, candidates=2)
    assert lines and all(1 <= len(line["moves"]) <= 2 for line in lines)
    assert [line["ply"] for line in lines] == [line["ply"] for line in bench.ceiling_game(92000, 0.02, 2)]


def test_a_whole_game_playout_is_a_result_for_the_seat() -> None:
    state = bench.GAME.new(2, bench.GAME.Options(), seed=5)
    seat = bench.GAME.to_act(state)
    assert seat is not None
    move = bench.heuristics.plan_move(state)
    world = bench.GAME.determinize(bench.GAME.view(state, seat), seat, random.Random(1))
    assert bench.whole_game(world, move, seat) in (0.0, 0.5, 1.0)


def test_the_switches_summary_reads_a_results_file() -> None:
    lines = [
        {
            "index": 0,
            "seed": 5,
            "seat": 0,
            "score": 1.0,
            "advantage": 0.1,
            "error": 0.03,
            "decisions": 9,
            "differing": 2,
        },
        {
            "index": 1,
            "seed": 5,
            "seat": 1,
            "score": 0.0,
            "advantage": -0.02,
            "error": 0.04,
            "decisions": 8,
            "differing": 2,
        },
    ]
    assert bench.summary(lines) == (
        "hard vs hard/10, 2 games (seeds 5-5): won 50.0 %; 4 moves off the policy, "
        "worth +0.0200 ± 0.0245 each, +0.040 ± 0.049 a game"
    )


def test_a_switches_game_with_a_tiny_search_sums_its_departures() -> None:
    profile = dataclasses.replace(profile_of(bench.GAME), playouts=10, horizon=2)
    line = bench.switches_game(92100, 0, profile, worlds=1)
    assert line["seed"] == 92100 and line["seat"] == 0
    assert 0 <= line["differing"] <= line["decisions"]
    assert line["score"] in (0.0, 0.5, 1.0)

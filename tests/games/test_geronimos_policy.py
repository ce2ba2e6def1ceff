"""``bench/geronimos_policy.py``: its free-weight gain is ``normal``'s, and its players finish games."""

from __future__ import annotations

import random

from bench import geronimos_policy as bench
from games.geronimos import GAME
from games.geronimos.heuristic import Table


def test_the_free_weight_gain_with_normals_weights_is_normals_gain() -> None:
    compared = 0
    for seed in range(3):
        table = Table(GAME.new(2, seed=96800 + seed))
        rng = random.Random(seed)
        while not table.finished:
            if table.drawn:
                for card, rotation, cell, _ in table.placements():
                    free = bench.weighed_gain(table, bench.NORMAL_WEIGHTS, card, rotation, cell)
                    assert abs(free - table.gain(card, rotation, cell)) < 1e-9
                    compared += 1
            table.greedy_step(rng)
    assert compared > 100


def test_normals_weights_play_normals_game() -> None:
    for seat in (0, 1):
        table = Table(GAME.new(2, seed=96810))
        rng = random.Random(96810 * 7 + seat)
        while not table.finished:
            table.greedy_step(rng)
        expected = 0.5 if table.winner is None else float(table.winner == seat)
        assert bench.play(96810, seat, bench.greedy(bench.NORMAL_WEIGHTS)) == expected


def test_a_player_whose_leaders_are_searched_finishes_its_games_the_same_way_every_time() -> None:
    job = bench.Job(96820, 1, "leaders", candidates=2, worlds=2)
    assert job() in (0.0, 0.5, 1.0)
    assert job() == job()

"""``bench/calibrate_chances.py``: fitting a chance model and checking what hints say."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from bench import calibrate_chances as bench
from games.puzzominos.game import CHANCE_WEIGHTS, chance_features, win_chance
from games.registry import get
from games.tileup import heuristics


def test_the_fit_finds_the_weights_that_made_the_results() -> None:
    rng = random.Random(4)
    rows = [(rng.uniform(-20, 20), rng.uniform(-20, 20)) for _ in range(4000)]
    truth = (0.15, -0.05)
    results = [1.0 if rng.random() < bench.logistic(truth[0] * a + truth[1] * b) else 0.0 for a, b in rows]
    found = bench.fit_logistic(rows, results)
    assert found == pytest.approx(truth, abs=0.02)


def test_the_tileup_chance_weighs_its_features() -> None:
    state = get("tileup").new(2, get("tileup").Options(), seed=4)
    state = dataclasses.replace(state, scores=(12, 0))
    features = heuristics.chance_features(state, 0)
    lead, closed = heuristics.lead_and_closed(state, 0)
    assert features == pytest.approx((lead, lead * closed, lead * closed**4))
    z = sum(w * x for w, x in zip(heuristics.CHANCE_WEIGHTS, features, strict=True))
    assert heuristics.win_chance(state, 0) == pytest.approx(bench.logistic(z))


def test_scores_and_bands() -> None:
    brier, loss = bench.scores([0.5, 0.5], [1.0, 0.0])
    assert brier == pytest.approx(0.25) and loss == pytest.approx(math.log(2))
    bands = bench.reliability([0.1, 0.15, 0.9, 1.0], [0.0, 1.0, 1.0, 1.0])
    assert bands == [("0-20 %", 2, pytest.approx(0.125), 0.5), ("80-100 %", 2, pytest.approx(0.95), 1.0)]


def test_a_checked_game_keeps_what_a_hint_would_say_and_the_result() -> None:
    lines = bench.check_game("geronimos", 98000, share=0.2, playouts=24)
    assert lines == bench.check_game("geronimos", 98000, share=0.2, playouts=24)  # seeded
    assert lines
    for line in lines:
        assert 0 <= line["chance"] <= 1 and 0 <= line["value"] <= 1
        assert line["result"] in (0.0, 0.5, 1.0)
    text = bench.summary(lines)
    assert text.startswith(f"{len(lines)} decisions (seeds 98000-98000)")
    assert "value: Brier" in text and "chance: Brier" in text


def test_puzzominos_chances_follow_the_lead_the_tempo_and_the_pieces() -> None:
    """Puzz-Ominos' chance model: the two seats' chances add up to one, the features are those
    the fit takes, and a lead is worth something."""
    game = get("puzzominos")
    state = game.new(2, game.Options(), seed=3)
    assert win_chance(state, 0) + win_chance(state, 1) == pytest.approx(1.0)
    for seat in (0, 1):
        z = sum(w * x for w, x in zip(CHANCE_WEIGHTS, chance_features(state, seat), strict=True))
        assert win_chance(state, seat) == pytest.approx(bench.logistic(z))
    ahead = dataclasses.replace(state, scores=(6, 0), to_act=None)
    assert win_chance(ahead, 0) > 0.85
    assert win_chance(ahead, 0) + win_chance(ahead, 1) == pytest.approx(1.0)


def test_the_fits_take_positions_with_results() -> None:
    rows = bench.FITS["puzzominos"]([95000], 10)
    assert rows and all(
        len(features) == len(CHANCE_WEIGHTS) and result in (0.0, 0.5, 1.0) for features, result in rows
    )
    rows = bench.FITS["tileup"]([94000], 40)
    assert rows and all(len(features) == 3 for features, _ in rows)


def test_triominos_chances_weigh_the_lead_against_the_target() -> None:
    from games.triominos.heuristic import win_chance as triominos_chance

    assert triominos_chance(0, 400) == pytest.approx(0.5)
    assert triominos_chance(50, 400) + triominos_chance(-50, 400) == pytest.approx(1.0)
    assert 0.55 < triominos_chance(50, 400) < 0.65 < triominos_chance(50, 200)
    rows = bench.FITS["triominos"]([97000, 97001], 1)
    assert rows and all(len(features) == 1 and result in (0.0, 0.5, 1.0) for features, result in rows)


def test_a_check_may_seat_more_players() -> None:
    lines = bench.check_game("tileup", 98500, share=0.02, playouts=12, players=3)
    assert lines and all(line["result"] in (0.0, 0.25, 0.5, 0.75, 1.0) for line in lines)

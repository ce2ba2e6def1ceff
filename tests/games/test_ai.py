"""The computer players: levels, budgets, decisions, and the search reading only its seat's view.

Strength is shown by the tournament bench (``bench/ai_tournament.py``), not here: these tests use
small playout budgets (never seconds), so every decision is reproducible and fast on any machine.
"""

from __future__ import annotations

import dataclasses
import itertools
import pickle
import random
from typing import Any

import pytest

from games import ai, registry
from games.ai import Budget, Decision, EasyPlayer, GreedyPlayer, RandomPlayer, SearchPlayer, Why
from games.ai.budget import as_budget
from games.ai.match import play_match
from games.ai.search import Candidate, WorldSearch, logistic, paired, rank_result
from games.core import Game, Outcome
from games.errors import GameError
from tests.support import tiny

SMALL = Budget(playouts=16, seconds=None)
"""A budget that makes every decision reproducible and quick."""

HIDDEN = [game for game in registry.all_games() if game.hidden_information]
GAMES = registry.all_games()


def needs_determinize(game: Game[Any, Any]) -> None:
    """Games with hidden information that cannot sample it yet cannot be searched."""
    if game.hidden_information and type(game)._determinize is Game._determinize:
        pytest.xfail(f"{game.name} has no determinize yet (it is moving to the game template)")


def decisions_along(game: Game[Any, Any], seed: int, count: int, players: int | None = None) -> list[Any]:
    """States of a greedy game where the seat to act has a real choice (more than one move)."""
    found = []
    for state in ai.greedy_states(game, players or game.min_players, seed):
        if game.to_act(state) is None or game.forced_move(state) is not None:
            continue
        if len(game.legal_moves(state)) > 1:
            found.append(state)
    step = max(1, len(found) // count)
    return found[::step][:count]


# -- levels --------------------------------------------------------------------------------------


def test_levels_and_their_players() -> None:
    assert list(ai.LEVELS) == ["easy", "normal", "hard"]
    assert ai.DEFAULT_LEVEL == "normal" and ai.HINT_LEVEL == "hard"
    assert isinstance(ai.player_for("easy", 1), EasyPlayer)
    assert isinstance(ai.player_for("normal", 1), GreedyPlayer)
    assert isinstance(ai.player_for("greedy", 1), GreedyPlayer), "games stored before the levels"
    assert isinstance(ai.player_for(None, 1), GreedyPlayer)
    assert isinstance(ai.player_for("random", 1), RandomPlayer)
    hard = ai.player_for("hard", 1, 0.5)
    assert isinstance(hard, SearchPlayer) and hard.budget.seconds == 0.5 and hard.budget.playouts is None
    assert ai.player_for("hard", 1).budget == Budget(seconds=ai.DEFAULT_SECONDS)
    with pytest.raises(KeyError):
        ai.player_for("grandmaster")


def test_budgets() -> None:
    assert as_budget(None) == Budget()
    assert as_budget(1.5).seconds == 1.5 and as_budget(1.5).playouts is None
    assert as_budget(SMALL) is SMALL
    for wrong in ({"seconds": 0.0}, {"playouts": 0}, {"scale": 0.0}, {"scale": 11.0}):
        with pytest.raises(ValueError):
            Budget(**wrong)  # type: ignore[arg-type]
    assert Budget().playouts_for(600) == 600 and Budget(scale=0.1).playouts_for(600) == 60
    assert Budget(playouts=7, scale=0.1).playouts_for(600) == 7 and Budget(scale=0.01).playouts_for(50) == 1
    ticks = itertools.count()
    deadline = Budget(seconds=3, clock=lambda: float(next(ticks))).start(100)
    assert deadline.limit == 100 and deadline.left() == 100
    assert [deadline.out_of_time() for _ in range(4)] == [False, False, True, True]


def test_results_and_logistic() -> None:
    outcome = Outcome((5, 9, 9), (3, 1, 1), "done")
    assert [rank_result(outcome, seat) for seat in range(3)] == [0.0, 0.75, 0.75]
    assert rank_result(Outcome((0,), (1,), "gave_up", frozenset({0})), 0) == 0.0
    assert logistic(0) == 0.5 and logistic(-3) == pytest.approx(1 - logistic(3))
    assert logistic(-1e9) == pytest.approx(0.0) and logistic(1e9) == pytest.approx(1.0)


# -- the search reads only its seat's view -------------------------------------------------------


@pytest.mark.parametrize("game", HIDDEN, ids=[game.name for game in HIDDEN])
def test_same_view_same_decision(game: Game[Any, Any]) -> None:
    """Two true states that the seat to act cannot tell apart get the same decision."""
    needs_determinize(game)
    for state in decisions_along(game, seed=11, count=4, players=game.max_players):
        seat = game.to_act(state)
        seen = game.view(state, seat)
        other = game.determinize(seen, seat, random.Random(99))
        assert game.view(other, seat) == seen
        assert other != state, "the hidden things should differ"
        first = SearchPlayer(7, SMALL).decide(game, state)
        second = SearchPlayer(7, SMALL).decide(game, other)
        assert first.move == second.move
        assert first.choices == second.choices and first.line == second.line


@pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
def test_decisions_are_reproducible_and_legal(game: Game[Any, Any]) -> None:
    needs_determinize(game)
    budget = SMALL if game.hidden_information else Budget(playouts=6, seconds=None)
    for state in decisions_along(game, seed=5, count=2):
        first = SearchPlayer(3, budget).decide(game, state)
        again = SearchPlayer(3, budget).decide(game, state)
        assert first.move == again.move and first.choices == again.choices
        assert game.is_legal(state, first.move)
        assert game.parse_move(state, first.notation) == first.move
        check_decision(game, state, first)


def check_decision(game: Game[Any, Any], state: Any, decision: Decision) -> None:
    """What a hint relies on: the chosen move first among the choices, facts that pickle."""
    assert decision.seat == game.to_act(state) and decision.level == "hard"
    assert decision.choices[0].move == decision.move and decision.chosen.notation == decision.notation
    if decision.why == Why.SEARCH:
        assert decision.playouts <= SMALL.playouts  # type: ignore[operator]
        values = [choice.value for choice in decision.choices]
        assert all(choice.visits >= 1 for choice in decision.choices)
        assert all(value is not None and 0 <= value <= 1 for value in values)
    assert pickle.loads(pickle.dumps(decision)) == decision


def test_forced_moves_need_no_search() -> None:
    game = registry.get("triominos")
    states = ai.greedy_states(game, 2, 5)
    state = next(s for s in states if game.to_act(s) is not None and game.forced_move(s))
    decision = SearchPlayer(1, SMALL).decide(game, state)
    assert decision.why == Why.FORCED and decision.move == game.forced_move(state)
    assert decision.playouts == 0 and decision.confidence is None


def test_the_search_is_anytime() -> None:
    """The search keeps to its time: when the time is up it plays its best move so far, and its
    first candidate when even the first playout cannot finish within twice the time."""
    game = registry.get("tileup")
    state = decisions_along(game, seed=3, count=2)[1]
    for tick, least in ((0.01, 1), (1.0, 0)):
        ticks = itertools.count()
        budget = Budget(playouts=10_000, seconds=1.0, clock=lambda tick=tick, ticks=ticks: tick * next(ticks))
        decision = SearchPlayer(1, budget).decide(game, state)
        assert game.is_legal(state, decision.move)
        assert least <= decision.playouts < 10_000 and decision.seconds <= 3


def test_games_end_with_hard_seats() -> None:
    """A whole game of each quick kind, hard against the other levels, ends."""
    for name, levels in [
        ("geronimos", ["hard", "normal"]),
        ("triominos", ["easy", "hard", "normal"]),
        ("puzzosolo", ["hard"]),
        ("tiny", ["hard", "random"]),
    ]:
        game = tiny.GAME if name == "tiny" else registry.get(name)
        options = game.Options(target=200) if name == "triominos" else None
        result = play_match(game, levels, 4, Budget(playouts=6, seconds=None), options)
        assert result.outcome is not None and sum(result.decisions) == len(result.record.moves)


# -- the simple players --------------------------------------------------------------------------


@pytest.mark.parametrize("player", [GreedyPlayer(2), EasyPlayer(2), RandomPlayer(2)])
def test_simple_players_decide(player: Any) -> None:
    game = registry.get("geronimos")
    state = decisions_along(game, seed=2, count=1)[0]
    decision = player.decide(game, state)
    assert game.is_legal(state, decision.move) and decision.level == player.level
    assert decision.value is None


def test_the_greedy_player_takes_the_best_gain() -> None:
    game = registry.get("triominos")
    for state in decisions_along(game, seed=9, count=5):
        gains = [game.move_gain(state, move) for move in game.legal_moves(state)]
        assert game.move_gain(state, GreedyPlayer(1).choose(game, state)) == max(gains)


def test_the_easy_player_is_not_always_greedy() -> None:
    game = registry.get("tileup")
    state = decisions_along(game, seed=1, count=3)[1]
    best = max(game.move_gain(state, move) for move in game.legal_moves(state))
    gains = {game.move_gain(state, EasyPlayer(seed).choose(game, state)) for seed in range(30)}
    assert best in gains and min(gains) < best


def test_no_move_to_choose_is_an_error() -> None:
    game = registry.get("geronimos")
    final = ai.greedy_states(game, 2, 1)[-1]
    for player in (GreedyPlayer(), EasyPlayer(), RandomPlayer(), SearchPlayer(budget=SMALL)):
        with pytest.raises(GameError):
            player.choose(game, final)


def test_a_profile_can_be_replaced() -> None:
    game = registry.get("geronimos")
    state = decisions_along(game, seed=4, count=1)[0]
    shallow = dataclasses.replace(ai.profile_of(game), horizon=0, candidates=2)
    decision = SearchPlayer(1, SMALL, shallow).decide(game, state)
    assert len(decision.choices) <= 2 and not decision.line


def test_a_switch_keeps_the_first_choice_without_evidence() -> None:
    """With ``switch``, the game's own first choice is left only for a move that is better with
    some certainty (paired over the worlds); without it, the best mean is played."""
    game = registry.get("geronimos")
    state = decisions_along(game, seed=4, count=1)[0]
    seat = game.to_act(state)
    view = game.view(state, seat)

    def search(switch: float) -> WorldSearch:
        profile = dataclasses.replace(ai.profile_of(game), switch=switch)
        return WorldSearch(game, view, seat, random.Random(1), profile, SMALL.start(16))

    first = Candidate("first", 0, values=[0.5, 0.4, 0.6])
    close = Candidate("close", 1, values=[0.6, 0.3, 0.7])
    clear = Candidate("clear", 2, values=[0.7, 0.6, 0.8])
    assert search(1.5).settle(close, [first, close]) is first
    assert search(1.5).settle(clear, [first, close, clear]) is clear
    assert search(0.0).settle(close, [first, close]) is close


def test_a_small_budget_races_fewer_candidates() -> None:
    """With ``per_candidate``, a budget too small to give every candidate that many playouts
    races only the best ordered few (at least two); a big budget races them all."""
    game = registry.get("geronimos")
    state = next(s for s in decisions_along(game, seed=4, count=12) if len(game.legal_moves(s)) >= 4)
    seat = game.to_act(state)
    view = game.view(state, seat)

    def affordable(playouts: int, per_candidate: int | None) -> int:
        profile = dataclasses.replace(ai.profile_of(game), per_candidate=per_candidate)
        deadline = Budget(playouts=playouts, seconds=None).start(0)
        return WorldSearch(game, view, seat, random.Random(1), profile, deadline).affordable()

    assert affordable(60, 20) == 3
    assert affordable(16, 20) == 2
    assert affordable(600, 20) == 30
    assert affordable(60, None) == 60
    small = dataclasses.replace(ai.profile_of(game), per_candidate=8)
    decision = SearchPlayer(1, SMALL, small).decide(game, state)
    assert 1 <= sum(1 for choice in decision.choices if choice.visits) <= 2


def test_a_hint_is_for_the_seat_to_act() -> None:
    game = registry.get("geronimos")
    state = decisions_along(game, seed=4, count=1)[0]
    seat = game.to_act(state)
    for player in (GreedyPlayer(), EasyPlayer(), RandomPlayer(), SearchPlayer(budget=SMALL)):
        assert player.decide(game, state, seat).seat == seat
        with pytest.raises(GameError):
            player.decide(game, state, 1 - seat)


# -- the worlds, the confidence and the review's weighing ----------------------------------------


@pytest.mark.parametrize("game", HIDDEN, ids=[game.name for game in HIDDEN])
def test_the_sampled_worlds_are_consistent_with_the_view(game: Game[Any, Any]) -> None:
    """Every world the search plays in is a whole state its seat cannot tell from the truth."""
    needs_determinize(game)
    for state in decisions_along(game, seed=13, count=3):
        search = SearchPlayer(5, SMALL).search(game, state)
        for _ in range(4):
            world = search.sample()
            assert game.view(world, search.seat) == search.view
            assert game.legal_moves(world) == game.legal_moves(state)


def test_a_searched_decision_says_how_sure_it_is() -> None:
    game = registry.get("triominos")
    for state in decisions_along(game, seed=5, count=4):
        decision = SearchPlayer(2, Budget(playouts=60, seconds=None)).decide(game, state)
        if decision.why != Why.SEARCH:
            continue
        sure = decision.confidence
        assert sure is not None and sure.worlds >= 1 and sure.error >= 0
        assert sure.runner_up in [choice.notation for choice in decision.choices[1:]]
        assert decision.worlds >= 1 and decision.playouts <= 60
        values = {choice.notation: choice.value for choice in decision.choices}
        assert sure.gap == pytest.approx(values[decision.notation] - values[sure.runner_up], abs=1e-9) or (
            decision.choices[1].visits != decision.chosen.visits
        )


def test_hints_report_chances_and_the_search_decides_by_values() -> None:
    """A profile's ``chance`` (a calibrated chance of the position where a playout stopped) is
    what a decision reports, as values, errors and the gap to the runner-up; the move, which the
    search ranks by its own values, is the same with or without it."""
    game = registry.get("tileup")
    budget = Budget(playouts=40, seconds=None)
    plain = dataclasses.replace(ai.profile_of(game), chance=None)
    found = 0
    for state in decisions_along(game, seed=7, count=12):
        calibrated = SearchPlayer(3, budget).decide(game, state)
        raw = SearchPlayer(3, budget, plain).decide(game, state)
        assert calibrated.move == raw.move and calibrated.playouts == raw.playouts
        if calibrated.why != Why.SEARCH:
            continue
        found += 1
        assert [c.notation for c in calibrated.choices] == [c.notation for c in raw.choices]
        assert all(0 <= (c.value or 0) <= 1 for c in calibrated.choices)
        assert calibrated.value != raw.value  # the chance model, not the logistic of evaluate
    assert found


def test_a_finished_playout_reports_its_result_as_the_chance() -> None:
    """Where a playout ends the game, the chance is the seat's result, even when the search's
    value mixes in the score lead (``margin``)."""
    game = registry.get("geominos")
    state = decisions_along(game, seed=3, count=1)[0]
    seat = game.to_act(state)
    finish = dataclasses.replace(ai.profile_of(game), horizon=10_000, margin=0.5)
    world = SearchPlayer(1, SMALL, finish).search(game, state).sample()
    move = game.legal_moves(world)[0]
    result = ai.search.ProtocolPlayouts(game, world, seat, finish)(move, random.Random(1))
    assert result.chance in (0.0, 0.5, 1.0)
    assert result.value != result.chance or result.lead == 0


def test_an_exact_search_is_sure_of_its_gap() -> None:
    """Without hidden information or chance (Puzz-Ominos), one playout of each move is all
    there is to know: the gap to the runner-up has no error."""
    game = registry.get("puzzominos")
    found = 0
    for state in decisions_along(game, seed=2, count=3):
        decision = SearchPlayer(1, SMALL).decide(game, state)
        if decision.why == Why.SEARCH and decision.confidence is not None:
            assert decision.confidence.error == 0.0 and decision.confidence.worlds == 1
            found += 1
    assert found


def test_paired_differences() -> None:
    gap, error, count = paired([0.5, 0.7, 0.9], [0.4, 0.6, 0.6, 1.0])
    assert count == 3 and gap == pytest.approx(0.5 / 3)
    assert error == pytest.approx(((0.1 - gap) ** 2 * 2 + (0.3 - gap) ** 2) ** 0.5 / (2 * 3) ** 0.5)
    assert paired([1.0], [0.0])[1] == float("inf")


@pytest.mark.parametrize("name", ["triominos", "geronimos", "tileup", "geominos"])
def test_weighing_moves_on_common_worlds(name: str) -> None:
    """The review's engine: given moves played out on the same worlds from the seat's view,
    within the playouts, reproducibly and blind to the hidden things."""
    game = registry.get(name)
    state = decisions_along(game, seed=3, count=3)[1]
    seat = game.to_act(state)
    moves = game.rank_moves(state, game.legal_moves(state))[:3]
    budget = Budget(playouts=24, seconds=None)
    weighing = SearchPlayer(9, budget).weigh(game, state, moves)
    assert [w.move for w in weighing.moves] == list(dict.fromkeys(moves))
    assert weighing.seat == seat and weighing.playouts <= 24 and weighing.worlds == 24 // len(weighing.moves)
    for weighed in weighing.moves:
        assert len(weighed.values) == weighing.worlds and 0 <= weighed.value <= 1
        assert weighed.notation == game.format_move(state, weighed.move)
    gap, error = weighing.gap(moves[0], moves[1])
    back, same = weighing.gap(moves[1], moves[0])
    assert back == pytest.approx(-gap) and same == pytest.approx(error)
    assert SearchPlayer(9, budget).weigh(game, state, moves) == weighing
    if game.hidden_information:
        other = game.determinize(game.view(state, seat), seat, random.Random(4))
        assert SearchPlayer(9, budget).weigh(game, other, moves) == weighing
    with pytest.raises(GameError):
        SearchPlayer(9, budget).weigh(game, state, [])


def test_a_review_compares_the_played_move_with_the_engines() -> None:
    game = registry.get("triominos")
    state = decisions_along(game, seed=8, count=3)[1]
    player = SearchPlayer(4, Budget(playouts=80, seconds=None))
    moves = game.legal_moves(state)
    best = player.halved().decide(game, state).move
    played = next(move for move in moves if move != best)
    review = SearchPlayer(4, Budget(playouts=80, seconds=None)).review(game, state, played)
    assert review.decision.move == best and review.played == played
    loss, error = review.loss
    assert error > 0 and loss == review.weighing.gap(best, played)[0]
    assert review.weighing.playouts <= 40 and review.decision.playouts <= 40
    itself = SearchPlayer(4, Budget(playouts=80, seconds=None)).review(game, state, best)
    assert itself.loss == (0.0, 0.0) and itself.lead_loss == (0.0, 0.0)


POLICIES = [game for game in GAMES if ai.profile_of(game).playout is not None]
"""Games with a playout policy of their own (the default one picks among the legal moves)."""


@pytest.mark.parametrize("game", POLICIES, ids=[game.name for game in POLICIES])
def test_the_playout_policys_moves_are_legal(game: Game[Any, Any]) -> None:
    """The search's playouts play their policy's moves with ``play_unchecked``: every such move
    must be legal (checked here from every position of whole games, every seat playing the
    policy), and ``play_unchecked`` must give what ``apply`` gives."""
    profile = ai.profile_of(game)
    assert profile.playout is not None
    rng = random.Random(4)
    for seed in (1, 2):
        state = game.new(game.min_players, seed=seed)
        for _ in range(3000):
            if game.to_act(state) is None:
                break
            move = profile.playout(game, state, rng)
            assert game.is_legal(state, move), f"{game.name}: the policy played {move!r}, not a legal move"
            after, events = game.apply(state, move)
            assert game.play_unchecked(state, move) == (after, events)
            state = after
        else:
            pytest.fail(f"{game.name}: the policy's game did not end")

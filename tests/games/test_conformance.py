"""The conformance suite: every registered game gets these checks by registering.

Random and greedy playouts to the end for several seeds and player counts; the notation round
trip for legal moves met on the way; record replay equality (through the text form); ``apply``
never mutates its input; ``view`` of one seat never shows another seat's hidden hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import registry
from games.ai import GreedyPlayer, RandomPlayer
from games.core import Game, Outcome
from games.records import Record, new_record, replay

MAX_PLIES = 20_000
ROUND_TRIP_SAMPLE = 25

GAMES = registry.all_games()
GAME_IDS = [game.name for game in GAMES]


def player_counts(game: Game[Any, Any]) -> list[int]:
    return sorted({game.min_players, (game.min_players + game.max_players) // 2, game.max_players})


def check_views(game: Game[Any, Any], state: Any, players: int) -> None:
    for viewer in [None, *range(players)]:
        seen = game.view(state, viewer)
        for seat in range(players):
            own = game.hand(seen, seat)
            if seat == viewer or not game.hands_hidden:
                assert own == game.hand(state, seat), f"seat {seat} must see its own hand"
            else:
                assert own is None, f"viewer {viewer} must not see seat {seat}'s hand"


def check_round_trip(game: Game[Any, Any], state: Any, moves: list[Any], rng: random.Random) -> None:
    sample = moves if len(moves) <= ROUND_TRIP_SAMPLE else rng.sample(moves, ROUND_TRIP_SAMPLE)
    for move in sample:
        text = game.format_move(state, move)
        assert game.parse_move(state, text) == move, f"{text!r} does not parse back to its move"


def playout(
    game: Game[Any, Any], players: int, seed: int, chooser: Any, *, checks: bool
) -> tuple[Record, Any, Outcome]:
    options = game.Options()
    state = game.new(players, options, seed=seed)
    record = new_record(game, [f"p{i}" for i in range(players)], options.to_dict(), seed)
    rng = random.Random(seed)
    for _ in range(MAX_PLIES):
        seat = game.to_act(state)
        if seat is None:
            break
        moves = game.legal_moves(state)
        assert moves, "a seat to act must have at least one legal move"
        assert len(set(moves)) == len(moves), "legal_moves must not repeat a move"
        if checks:
            check_round_trip(game, state, moves, rng)
            check_views(game, state, players)
        move = chooser.choose(game, state)
        before = repr(state)
        after, events = game.apply(state, move)
        assert repr(state) == before, "apply must not mutate its input"
        assert isinstance(events, tuple)
        record = record.with_move(seat, game.format_move(state, move))
        state = after
    else:
        pytest.fail(f"{game.name}: no end after {MAX_PLIES} plies")
    outcome = game.outcome(state)
    assert outcome is not None, "a game with nobody to act must have an outcome"
    assert game.legal_moves(state) == [] or game.to_act(state) is None
    return record, state, outcome


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_random_playouts_end_with_valid_outcome(game: Game[Any, Any]) -> None:
    for players in player_counts(game):
        for seed in range(3):
            record, state, outcome = playout(game, players, seed, RandomPlayer(seed), checks=True)
            assert len(outcome.ranks) == players
            assert len(outcome.scores) == players
            assert min(outcome.ranks) == 1
            assert outcome.scores == tuple(game.scores(state))
            again = Record.from_text(record.to_text())
            assert again == record
            assert replay(again).final == state, "replaying the record must give the same state"


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_greedy_playouts_end(game: Game[Any, Any]) -> None:
    for players in player_counts(game):
        record, state, _ = playout(game, players, 7, GreedyPlayer(7), checks=False)
        assert replay(record).final == state


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_same_seed_same_game(game: Game[Any, Any]) -> None:
    players = game.min_players
    first = playout(game, players, 11, RandomPlayer(3), checks=False)
    second = playout(game, players, 11, RandomPlayer(3), checks=False)
    assert first[0] == second[0] and first[1] == second[1]


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_resign_ranks_last(game: Game[Any, Any]) -> None:
    players = game.max_players
    state = game.new(players, game.Options(), seed=5)
    before = repr(state)
    after, _ = game.resign(state, players - 1)
    assert repr(state) == before
    for _ in range(MAX_PLIES):
        if game.to_act(after) is None:
            break
        after, _ = game.apply(after, RandomPlayer(1).choose(game, after))
    outcome = game.outcome(after)
    assert outcome is not None
    assert players - 1 in outcome.forfeited
    assert outcome.ranks[players - 1] == max(outcome.ranks)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_timeout_changes_state(game: Game[Any, Any]) -> None:
    state = game.new(game.min_players, game.Options(), seed=2)
    after, events = game.on_timeout(state)
    assert after != state or events, "a timeout must do something"


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_identity(game: Game[Any, Any]) -> None:
    assert registry.get(game.name) is game
    for alias in game.aliases:
        assert registry.get(alias) is game
    assert 1 <= game.min_players <= game.max_players
    assert game.title and game.summary and game.notation_help
    game.Options()  # defaults are valid

"""Geronimos' fast playouts (:class:`games.geronimos.heuristic.Table`) play the engine's rules."""

from __future__ import annotations

import random

import pytest

from games.geronimos import GAME, Options, State
from games.geronimos import heuristic as h
from games.geronimos.cards import LEADER, unlaid
from games.geronimos.state import MoveKind


def same_table(table: h.Table, state: State) -> None:
    """The table holds what the engine's state holds."""
    fresh = h.Table(state)
    for name in (
        "owner",
        "cards",
        "sides",
        "rings",
        "full",
        "bags",
        "turn",
        "drawn",
        "bonus_left",
        "bonus_card",
        "opening",
        "finished",
        "winner",
        "counts",
    ):
        assert getattr(table, name) == getattr(fresh, name), name
    assert set(table.frontier) == set(fresh.frontier)


def engine_placements(state: State) -> set[tuple[str, int, tuple[int, int], bool]]:
    found = set()
    for move in GAME.legal_moves(state):
        if move.kind is MoveKind.PLACE:
            assert move.cell is not None
            card, rotation = (LEADER, 0) if move.laid == LEADER else unlaid(move.laid)
            found.add((card, rotation, move.cell, move.stack))
    return found


@pytest.mark.parametrize(
    ("seed", "options"),
    [(1, {}), (2, {"table": "open"}), (3, {"bonus": "compulsory"}), (4, {"bag": 20, "leaders": 6})],
)
def test_the_table_plays_the_engines_rules(seed: int, options: dict[str, object]) -> None:
    rng = random.Random(seed)
    for game_number in range(3):
        state = GAME.new(2, Options.from_dict(options), seed=seed * 10 + game_number)
        while GAME.to_act(state) is not None:
            table = h.Table(state)
            same_table(table, state)
            moves = GAME.legal_moves(state)
            if state.drawn:
                assert set(table.placements()) == engine_placements(state)
                for move in moves:
                    if move.kind is MoveKind.PLACE:
                        assert move.cell is not None
                        card, rotation = (LEADER, 0) if move.laid == LEADER else unlaid(move.laid)
                        assert table.gain(card, rotation, move.cell) == pytest.approx(
                            GAME.move_gain(state, move)
                        )
                assert table.value(state.turn) == pytest.approx(GAME.evaluate(state, state.turn))
            move = moves[rng.randrange(len(moves))]
            state, _ = GAME.apply(state, move)
            h.play(table, move)
            if state.finished:
                assert table.finished and table.winner == state.winner
            else:
                same_table(table, state)


def test_playouts_end_the_game() -> None:
    state = GAME.new(2, seed=5)
    for dice in range(5):
        table = h.Table(state)
        made = table.play_out(random.Random(dice), 10_000)
        assert table.finished and 0 < made < 10_000

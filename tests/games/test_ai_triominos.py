"""Tri-Ominos' fast playouts (:mod:`games.triominos.heuristic`) play the engine's rules, and its
determinized hands honour what the round told (draws, passes, the opening)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.triominos import GAME
from games.triominos import heuristic as h
from games.triominos.rules import GOING_OUT_BONUS, hand_limits, placement_points, tiles_fitting
from games.triominos.state import Move, MoveKind, Options, State, placement
from games.triominos.tiles import LAID_TO_TILE, TILES, total


def same_table(table: h.Table, state: State) -> None:
    """The table holds what the engine's state holds."""
    fresh = h.Table(state)
    assert table.board == fresh.board and table.numbers == fresh.numbers
    assert set(table.frontier) == set(fresh.frontier)
    assert [sorted(hand) for hand in table.hands] == [sorted(hand) for hand in fresh.hands]
    assert table.well == fresh.well and table.scores == fresh.scores
    assert (table.turn, table.passes, table.drawn, table.opening) == (
        fresh.turn,
        fresh.passes,
        fresh.drawn,
        fresh.opening,
    )


def points_now(state: State, move: Move) -> float:
    """The points a placement makes now (tile and bonus; going out: +25)."""
    tile_points, bonuses = placement_points(state, move)
    going_out = GOING_OUT_BONUS if len(state.hands[state.turn]) == 1 else 0
    return float(tile_points + sum(found.points for found in bonuses) + going_out)


def step_both(table: h.Table, state: State, rng: random.Random) -> State:
    """A random legal move played by the engine and by the table."""
    moves = GAME.legal_moves(state)
    move = moves[rng.randrange(len(moves))]
    if move.kind is MoveKind.PLACE and not state.opening:
        tiles = (state.drawn,) if state.drawn else state.hands[state.turn]
        assert set(table.placements(tiles)) == {(m.laid, m.cell) for m in moves}
        best, ties = table.best_placements(tiles)
        going_out = GOING_OUT_BONUS if len(state.hands[state.turn]) == 1 else 0
        assert {(m.laid, m.cell) for m in moves if points_now(state, m) - going_out == best} == set(ties)
        for m in moves:  # the normal level's measure, on the table and in the engine
            assert m.cell is not None
            weighed = points_now(state, m) + table.judgement(m.laid, m.cell, h.NORMAL)
            assert GAME.move_gain(state, m) - 0.01 * total(LAID_TO_TILE[m.laid]) == pytest.approx(weighed)
    after, _ = GAME.apply(state, move)
    if move.kind is MoveKind.PLACE:
        assert move.cell is not None
        table.place(move.laid, move.cell)
    elif move.kind is MoveKind.DRAW:
        assert table.draw() == after.drawn
    else:
        table.pass_turn()
    if after.round != state.round or after.finished:
        assert table.scores == list(after.scores)
        assert table.finished == after.finished and (not after.finished or table.winners == after.winners)
    else:
        same_table(table, after)
    return after


@pytest.mark.parametrize(
    ("players", "seed", "limit"), [(2, 1, "unlimited"), (2, 2, "3"), (3, 3, "unlimited"), (4, 4, "3")]
)
def test_the_table_plays_the_engines_rules(players: int, seed: int, limit: str) -> None:
    rng = random.Random(seed)
    state = GAME.new(players, Options(target=200, max_draws=limit), seed=seed)
    while GAME.to_act(state) is not None:
        table = h.Table(state)
        state = step_both(table, state, rng)


def test_the_greedy_playout_plays_legal_moves_to_the_round_end() -> None:
    state = GAME.new(2, seed=5)
    table = h.Table(state)
    table.play_out(random.Random(1))
    assert table.round_ends == 1 and table.pending
    assert any(not hand for hand in table.hands) or not table.well
    longer = h.Table(state)
    longer.play_out(random.Random(1), rounds=100)
    assert longer.finished and max(longer.scores) >= state.options.target


def test_bonus_points_match_the_engine() -> None:
    state = GAME.new(2, seed=9)
    rng = random.Random(3)
    checked = 0
    while GAME.to_act(state) is not None and checked < 300:
        for move in GAME.legal_moves(state):
            if move.kind is MoveKind.PLACE and not state.opening:
                assert move.cell is not None
                from games.triominos.rules import placement_points

                _, bonuses = placement_points(state, move)
                assert h.bonus_points(dict(state.board), move.cell) == sum(b.points for b in bonuses)
                checked += 1
        moves = GAME.legal_moves(state)
        state, _ = GAME.apply(state, moves[rng.randrange(len(moves))])
    assert checked >= 100


def test_a_hand_that_drew_holds_nothing_that_fitted() -> None:
    """After the opponent drew, every determinized hand of theirs holds only tiles that did not
    fit the table then (or that it drew and kept)."""
    rng = random.Random(2)
    for seed in range(40):
        state = GAME.new(2, seed=seed)
        while GAME.to_act(state) is not None and not state.misses:
            moves = GAME.legal_moves(state)
            state, _ = GAME.apply(state, max(moves, key=lambda m: GAME.move_gain(state, m)))
        if not state.misses or state.round != 1:
            continue
        seat, laid, kept = state.misses[-1]
        viewer = 1 - seat
        seen = GAME.view(state, viewer)
        limits = hand_limits(seen)[seat]
        fitted = tiles_fitting(state.board[:laid])
        assert (fitted, 0) in limits or kept
        for n in range(10):
            whole = GAME.determinize(seen, viewer, random.Random(n))
            assert sum(1 for tile in whole.hands[seat] if tile in fitted) <= kept
        del rng
        return
    pytest.fail("no game with a draw in its first round")


def test_nobody_else_held_a_tile_above_the_opening() -> None:
    state = GAME.new(2, seed=7)
    opener = state.turn
    after, _ = GAME.apply(state, GAME.legal_moves(state)[0])
    seen = GAME.view(after, opener)
    top = after.board[0][1]
    from games.triominos.tiles import opening_rank

    for n in range(20):
        whole = GAME.determinize(seen, opener, random.Random(n))
        assert all(opening_rank(tile) < opening_rank(top) for tile in whole.hands[1 - opener])
    assert placement  # the shared move values are what the table's moves name


def test_the_normal_measure_counts_what_the_placement_changes() -> None:
    """The normal level's measure, worked out around the placed tile only, equals counting on
    the whole table after the move: the mover's tiles that still have a place, and the bonus
    chances of every empty cell."""
    rng = random.Random(4)
    state = GAME.new(2, seed=11)
    checked = 0
    while GAME.to_act(state) is not None and checked < 150:
        moves = GAME.legal_moves(state)
        for move in moves[:6]:
            if move.kind is not MoveKind.PLACE or state.opening or state.drawn:
                continue
            assert move.cell is not None
            table = h.Table(state)
            seat = state.turn
            after, _ = GAME.apply(state, move)
            if after.round != state.round:
                continue
            later = h.Table(replace(after, turn=seat))
            mover_hand = set(after.hands[seat])
            keeping = sum(1 for tile in mover_hand if later.fits_somewhere(tile))
            assert table.judgement(move.laid, move.cell, h.Weights(mobility=1.0)) == keeping
            own = set(state.hands[seat])
            unseen = len(TILES) - len(table.on_table) - len(own)
            share = len(state.hands[1 - seat]) / unseen
            hidden = table.on_table | own
            weights = h.Weights(caution=1.0, reserve=0.5)
            before = sum(table.chance(c, hidden, share, 0.5) for c in table.frontier)
            later.hands = table.hands  # the mover's hand as it was when it weighed the move
            later.on_table = table.on_table
            after_chances = sum(later.chance(c, hidden, share, 0.5) for c in later.frontier)
            assert table.judgement(move.laid, move.cell, weights) == pytest.approx(before - after_chances)
            checked += 1
        state, _ = GAME.apply(state, moves[rng.randrange(len(moves))])
    assert checked >= 100

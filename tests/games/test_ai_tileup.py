"""Tile Up!'s computer knowledge: plans that lay tiles into a goal card's shape and score it, the
way to the corners, and the evaluation the search uses."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.tileup import GAME, Move, MoveKind, State
from games.tileup import board as geo
from games.tileup import heuristics as h
from games.tileup.board import placement_problem
from games.tileup.data import CORNERS, SHAPES, SQUARES, TILE_KINDS, orientations, square_name
from games.tileup.rules import scorable_cards
from tests.games.test_tileup import base, sq, with_board, with_hand


def orange_pair() -> State:
    """Seat 0 to play with O2 in hand, an orange I3 face up and two orange tiles side by side."""
    state = with_board(base(), {"E5": "O3", "F5": "O4", "F6": "P5", "E6": "B4"})
    state = replace(state, face_up=("O-I3", "B-X5"))
    return with_hand(state, 0, "O2", cards=())


def test_every_site_of_every_shape() -> None:
    for shape, cells in SHAPES.items():
        sites = h.shape_sites(shape)
        assert len({squares for squares, _, _ in sites}) == len(sites)
        forms = orientations(cells)
        assert len(sites) == sum(
            (11 - max(x for x, _ in form)) * (11 - max(y for _, y in form)) for form in forms
        )
    assert len(h.shape_sites("O4")) == 100 and len(h.shape_sites("I3")) == 2 * 9 * 11


def test_a_plan_completes_a_card_and_scores_it() -> None:
    state = orange_pair()
    plans = h.plans(state, 0)
    assert plans and plans[0].card == 1 and plans[0].missing == 0 and plans[0].points == 3
    move = h.plan_move(state)
    assert move.kind == MoveKind.PLACE and move.tile == "O2" and move.square in (sq("D5"), sq("G5"))
    state, _ = GAME.apply(state, move)
    score = h.plan_move(state)
    assert score.kind == MoveKind.SCORE and score.card == 1
    state, _ = GAME.apply(state, score)
    assert state.scores[0] == 3


def test_a_region_must_be_whole() -> None:
    """An orange tile next to G5 spoils that site: only D5 completes the card."""
    state = orange_pair()
    state = with_board(state, {"E5": "O3", "F5": "O4", "F6": "P5", "E6": "B4", "H5": "O5"})
    squares = {plan.placements[0][1] for plan in h.plans(state, 0) if plan.card == 1}
    assert sq("D5") in squares and sq("G5") not in squares


def test_a_plan_may_stack_on_a_higher_tile_of_another_colour() -> None:
    state = with_board(orange_pair(), {"E5": "O3", "F5": "O4", "G5": "B5"})
    stacked = [plan for plan in h.plans(state, 0) if sq("G5") in plan.squares]
    assert stacked and stacked[0].placements == (("O2", sq("G5")),) and stacked[0].points == 4


def test_without_a_plan_it_draws() -> None:
    state = with_hand(orange_pair(), 0, "P1", cards=("B-O4",))
    assert h.plan_move(state) == Move(MoveKind.TILES)
    state = with_hand(state, 0, "P1 P2 P3 P4", cards=())
    assert h.plan_move(state) == Move(MoveKind.GOAL)


def test_the_way_to_the_corners() -> None:
    state = GAME.new(2, seed=1)
    assert h.corners_left(state.board) == 36
    step = h._corner_step(state.board)
    assert step is not None and not state.board[step]
    assert GAME.is_legal(with_hand(state, state.to_act, "O1"), Move(MoveKind.PLACE, "O1", step))


def test_a_leader_lays_spare_tiles_towards_a_corner() -> None:
    state = with_hand(orange_pair(), 0, "P1", cards=())
    state = replace(state, face_up=("B-X5", "B-O4"), scores=(10, 0))
    step = h._corner_step(state.board)
    assert step is not None and h.plan_move(state) == Move(MoveKind.PLACE, "P1", step)
    assert h.closing_value(state, 0) > 0 > h.closing_value(state, 1)


@pytest.mark.parametrize(("players", "seed"), [(2, 200), (3, 201)])
def test_planning_players_end_by_the_corners(players: int, seed: int) -> None:
    state = GAME.new(players, seed=seed)
    while GAME.to_act(state) is not None:
        move = h.plan_move(state)
        assert GAME.is_legal(state, move)
        state, _ = GAME.apply(state, move)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "corners"
    assert all(state.board[corner] for corner in CORNERS)
    assert max(outcome.scores) > 30


def plans_by_every_site(state: State, seat: int, most_missing: int) -> list[h.Plan]:
    """:func:`h.plans` the long way: every site of every card's shape checked one by one."""
    board = state.board
    held = state.tiles[seat] or ()
    reach = h._board_masks(board)[1]
    found = []
    for number, card in enumerate(scorable_cards(state, seat), start=1):
        colour = card[0]
        own = h._board_masks(board)[0][colour]
        numbers = sorted(int(tile[1]) for tile in held if tile[0] == colour)
        for squares, mask, around in h.shape_sites(card[2:]):
            if around & own or not mask & reach or (mask & ~own).bit_count() > len(numbers) + most_missing:
                continue
            plan = h.site_plan(board, number, colour, squares, numbers)
            if plan is not None and plan.missing <= most_missing and plan.value > 0:
                found.append(plan)
    found.sort(key=lambda plan: (-plan.value, plan.missing, plan.card, plan.squares))
    return found


@pytest.mark.parametrize("seed", [4, 17])
def test_plans_skip_no_site_that_could_hold_one(seed: int) -> None:
    """The sites :func:`h.plans` skips by their bit masks are never ones the checks keep; and
    the board's legal squares and regions are those of the rules' definitions."""
    state = GAME.new(3, GAME.Options(), seed=seed)
    for _ in range(60):
        if GAME.to_act(state) is None:
            break
        for seat in range(state.players):
            for most_missing in (0, 2, 3):
                assert h.plans(state, seat, most_missing) == plans_by_every_site(state, seat, most_missing)
        for tile in TILE_KINDS:
            expected = [s for s in range(SQUARES) if placement_problem(state.board, tile, s) is None]
            assert geo.legal_squares(state.board, tile) == expected
        covered = [s for s in range(SQUARES) if state.board[s]]
        firsts = sorted({geo.region(state.board, s)[0] for s in covered})
        assert [squares for _, squares in geo.regions(state.board)] == [
            geo.region(state.board, s) for s in firsts
        ]
        state, _ = GAME.apply(state, h.plan_move(state))


@pytest.mark.parametrize(("players", "seed"), [(2, 31), (3, 58)])
def test_the_first_plans_are_those_of_every_site(players: int, seed: int) -> None:
    """The first ``count`` plans, made in falling order of value (and remembered), are the
    first of all the plans made site by site, every few moves of games the planning players
    play to their end (late boards: tall stacks, many plans of equal value)."""
    state = GAME.new(players, GAME.Options(), seed=seed)
    moves = 0
    while GAME.to_act(state) is not None:
        if moves % 7 == 0:
            seat = state.to_act
            for most_missing in (0, 2):
                every = plans_by_every_site(state, seat, most_missing)
                assert h.plans(state, seat, most_missing) == every
                assert h.plans(state, seat, most_missing, count=3) == every[:3]
                assert h.plans(state, seat, most_missing, count=1) == every[:1]  # plan_move's
        state, _ = GAME.apply(state, h.plan_move(state))
        moves += 1


def test_the_win_chance_is_a_chance_of_the_lead_that_grows_as_the_corners_close() -> None:
    """The calibrated chance hints report (fitted on the planning policy's games): even at an
    equal score, the two seats' chances add up to one, and a lead counts little until the
    corners are nearly covered."""
    start = base()
    assert h.win_chance(start, 0) == pytest.approx(0.5)
    ahead = replace(start, scores=(10, 0))
    assert h.win_chance(ahead, 0) + h.win_chance(ahead, 1) == pytest.approx(1.0)
    assert h.win_chance(ahead, 0) == pytest.approx(0.56, abs=0.01)
    corners = {square_name(corner): "O5" for corner in CORNERS}
    late = replace(with_board(base(), corners), scores=(10, 0))
    assert h.corners_left(late.board) == 0
    assert h.win_chance(late, 0) == pytest.approx(0.84, abs=0.01)

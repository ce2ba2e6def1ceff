"""Puzz-Ominos solitaire: targets, notation, placing, undo, hints, giving up, properties."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import records, registry
from games.core import Event, Outcome, event_phrase
from games.errors import IllegalMoveError, InvalidMoveError, InvalidOptionsError, RecordError
from games.puzzominos import solver
from games.puzzominos.board import Place
from games.puzzominos.pieces import Orientation
from games.puzzominos.targets import TARGETS, get_target
from games.puzzosolo import GAME, notation
from games.puzzosolo.game import position
from games.puzzosolo.rules import (
    first_solution,
    format_place,
    hint_place,
    legal_places,
    mask_of,
    placements,
    walls_off,
)
from games.puzzosolo.state import GIVE_UP, UNDO, SoloStatus, hint, placing
from games.puzzosolo.state import Options as SoloOptions
from games.puzzosolo.state import State as SoloState
from tests.games.test_puzzominos import FIXTURES, JSON_VALUES
from tests.support.work import at_most_doubles, does_not_grow, linear, steps_of

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")

SOLUTION_6X10 = first_solution(get_target("6x10"))


def solution(target: str) -> list[str]:
    return [format_place(place) for place in first_solution(get_target(target))]


def said(events: tuple[Event, ...]) -> list[str]:
    """The events' words, as the bot shows them."""
    return [event_phrase(GAME, event, NAMES) for event in events]


def test_registered_with_every_target_as_option() -> None:
    assert registry.get("puzzosolo") is GAME
    assert registry.get("puzzominos-solo") is GAME
    assert (GAME.min_players, GAME.max_players) == (1, 1)
    assert SoloOptions().target == "6x10"
    for name in TARGETS:
        assert SoloOptions(name).target == name
    with pytest.raises(InvalidOptionsError, match="target"):
        SoloOptions("7x7")
    with pytest.raises(InvalidOptionsError):
        GAME.new(2)


@pytest.mark.parametrize("name", list(TARGETS))
def test_every_target_solved_through_the_protocol(name: str) -> None:
    target = get_target(name)
    state = GAME.new(1, SoloOptions(name))
    moves = solution(name)
    assert len(moves) == target.needed
    for index, text in enumerate(moves):
        assert GAME.to_act(state) == 0
        move = GAME.parse_move(state, text)
        assert move in GAME.legal_moves(state)
        assert GAME.format_move(state, move) == text
        state, events = GAME.apply(state, move)
        if index < len(moves) - 1:
            assert GAME.outcome(state) is None
    assert state.status is SoloStatus.SOLVED
    assert events[-1].kind == "game_end" and said(events)[-1] == f"solved {target.name}!"
    assert GAME.to_act(state) is None and GAME.legal_moves(state) == []
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.ranks == (1,) and outcome.scores == (target.needed,) and not outcome.forfeited
    assert outcome.reason == "solved"
    assert state.covered_cells() == target.cells
    assert len(state.left()) == len(target.pieces) - target.needed


def test_the_big_t_uses_nine_of_twelve_and_8x8_holes_stay_empty() -> None:
    assert get_target("T").needed == 9 and len(get_target("T").cells) == 45
    corners = GAME.new(1, SoloOptions("8x8-corners"))
    with pytest.raises(IllegalMoveError, match="A1, outside the target"):
        GAME.parse_move(corners, "Ir1@A1")
    assert all((0, 0) not in move.place.cells for move in legal_places(corners))


def test_relaxed_forms_and_words() -> None:
    state = GAME.new(1)
    expected = placing(Place("L", Orientation(1, True), 2, 3))
    for text in ("Lr1f@C4", "L r1f @C4", "l r1 f c4", "lr1fc4", " L  r1f  @ C4 "):
        assert GAME.parse_move(state, text) == expected, text
    assert GAME.parse_move(state, "I@A1") == placing(Place("I", Orientation(0, False), 0, 0))
    assert GAME.parse_move(state, "hint Lr1f@C4") == hint(expected.place)
    assert GAME.format_move(state, hint(expected.place)) == "hint Lr1f@C4"
    assert GAME.parse_move(state, "give up") == GIVE_UP
    placed = position("6x10", ["Ir0@A1"])
    assert GAME.parse_move(placed, "UNDO") == UNDO


def test_equivalent_orientations_are_one_move() -> None:
    state = GAME.new(1)
    assert GAME.parse_move(state, "Xr3f@B2") == GAME.parse_move(state, "X@B2")
    assert GAME.format_move(state, GAME.parse_move(state, "Ir2@A1")) == "Ir0@A1"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("Lr1f@3,2", "square of the target, not x,y"),
        ("Qr0@A1", "no piece Q"),
        ("V3r0@A1", "no piece V3"),
        ("Lr5@A1", "r5 does not exist"),
        ("L@A0", "not a square"),
        ("hello", "is not a move"),
    ],
)
def test_syntax_errors(text: str, needle: str) -> None:
    with pytest.raises(InvalidMoveError, match=needle):
        GAME.parse_move(GAME.new(1), text)


def test_illegal_placements_say_what_fits() -> None:
    state = position("6x10", ["Ir1@A1"])  # I upright in column A
    with pytest.raises(IllegalMoveError, match=r"A3, A4, A5, already covered.*L fits e\.g\. at `L"):
        GAME.parse_move(state, "Lr0@A3")
    with pytest.raises(IllegalMoveError, match="I is already on the board"):
        GAME.parse_move(state, "Ir0@B1")
    with pytest.raises(IllegalMoveError, match="outside the target"):
        GAME.parse_move(state, "Lr0@F1")  # two wide from column F leaves the 6-wide board
    with pytest.raises(IllegalMoveError, match="no piece on the board"):
        GAME.parse_move(GAME.new(1), "undo")


def test_two_sets_allow_each_piece_twice() -> None:
    state = position("10x12", ["Ir0@A1", "Ir0@A2"])
    assert state.left().count("I") == 0 and state.left().count("L") == 2
    with pytest.raises(IllegalMoveError, match="I is already on the board"):
        GAME.parse_move(state, "Ir0@F1")


def test_undo_takes_the_last_piece_back() -> None:
    state = position("6x10", ["Ir1@A1", "Lr0@B1"])
    after, events = GAME.apply(state, UNDO)
    assert after.places == state.places[:1] and after.undos == 1
    assert said(events) == ["took back Lr0@B1"]
    assert after.covered_cells() == frozenset(state.places[0].cells)
    assert GAME.parse_move(after, "Lr0@B1") in GAME.legal_moves(after)


def test_hints_complete_the_position_and_are_counted() -> None:
    state = position("6x10", ["Xr0@B1"])
    hinted = 0
    events: tuple[Event, ...] = ()
    while state.status == "playing":
        place = hint_place(state)
        assert place is not None
        state, events = GAME.apply(state, GAME.parse_move(state, f"hint {format_place(place)}"))
        hinted += 1
    assert state.status is SoloStatus.SOLVED and state.hints == hinted == 11
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (1,)  # only the X was placed without a hint
    assert outcome.reason == "solved_with_hints"  # not a solve for the standings: shown apart
    assert said(events)[-1] == "solved 6x10 with 11 hints!"


def test_hint_says_when_a_position_cannot_be_completed() -> None:
    state = position("6x10", ["Xr0@A1"])  # A1 is cut off: a one-square pocket
    assert hint_place(state) is None
    assert solver.complete(state.target, state.places, limit=10) is None  # found at once, whatever the limit


def test_bounded_search_gives_up_on_a_budget() -> None:
    with pytest.raises(solver.SearchLimitError):
        solver.complete(get_target("10x12"), [], limit=3)


@pytest.mark.parametrize("name", ["6x10", "3x20", "T"])
def test_first_solution_is_a_solution_the_solver_accepts(name: str) -> None:
    target = get_target(name)
    found = first_solution(target)
    assert solver.complete(target, found) == ()  # full: nothing left to complete


def test_give_up_completes_the_players_position_when_it_can() -> None:
    start = [format_place(place) for place in SOLUTION_6X10[:3]]
    state, events = GAME.apply(position("6x10", start), GIVE_UP)
    assert state.status is SoloStatus.GAVE_UP
    assert said(events)[0] == "gave up on 6x10" and said(events)[1].startswith("your position completed: ")
    assert state.solution[:3] == SOLUTION_6X10[:3]
    covered = [cell for place in state.solution for cell in place.cells]
    assert sorted(covered) == sorted(get_target("6x10").cells)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.forfeited == {0} and outcome.scores == (0,)
    assert outcome.reason == "gave_up"
    assert GAME.to_act(state) is None


def test_give_up_from_a_dead_end_shows_a_fresh_solution() -> None:
    state, events = GAME.resign(position("6x10", ["Xr0@A1"]), 0)
    assert state.solution == SOLUTION_6X10
    listed = " ".join(format_place(place) for place in SOLUTION_6X10)
    assert state.status is SoloStatus.GAVE_UP and said(events) == ["gave up on 6x10", f"a solution: {listed}"]


def test_describe_labels_and_hand() -> None:
    state = position("6x10", ["Ir1@A1"])
    assert GAME.describe(state, NAMES) == "6x10: 1 of 12 pieces placed, 55 squares to fill"
    assert GAME.hand(state, 0) == ("F", "L", "N", "P", "T", "U", "V", "W", "X", "Y", "Z")
    assert GAME.move_label(state, UNDO) == "undo — take back Ir1@A1"
    label = GAME.move_label(state, GAME.parse_move(state, "Lr0@B1"))
    assert label == "Lr0@B1 — covers B1 B2 B3 B4 C4"


STEPS_PER_PLACEMENT = 30
"""The work allowed per placement on the target (a bit mask tested; about 17 steps when this was
written), when legal moves are listed."""


def test_legal_moves_are_fast_on_the_biggest_target() -> None:
    """Listing legal moves tests each of the target's precomputed placements once (the work is
    counted in steps, not timed), and asking again for the same position costs next to nothing."""
    state = position("10x12", ["Xr0@D4"])
    GAME.legal_moves(position("10x12", []))  # the target's placements, computed once per target
    work = steps_of(lambda: GAME.legal_moves(state))
    assert work < STEPS_PER_PLACEMENT * len(placements(state.target))
    assert steps_of(lambda: GAME.legal_moves(state)) < 100, "asked again: the moves are remembered"
    moves = GAME.legal_moves(state)
    assert len(moves) == len(set(moves)) > 1000


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(list(TARGETS)), st.integers(0, 10_000))
def test_random_play_keeps_invariants(name: str, seed: int) -> None:
    rng = random.Random(seed)
    state: SoloState = GAME.new(1, SoloOptions(name))
    for _ in range(30):
        if GAME.to_act(state) is None:
            break
        moves = GAME.legal_moves(state)
        move = moves[rng.randrange(len(moves))]
        assert GAME.parse_move(state, GAME.format_move(state, move)) == move
        before = repr(state)
        after, _ = GAME.apply(state, move)
        assert repr(state) == before
        if move == UNDO:
            assert after.placed == state.placed[:-1]
        elif move != GIVE_UP:
            assert after.placed[:-1] == state.placed and after.placed[-1].place == move.place
        state = after
        cells = [cell for placed in state.placed for cell in placed.cells]
        assert len(cells) == len(set(cells)) and set(cells) <= state.target.cells
        assert state.covered == sum(mask_of(state.target, placed.place) or 0 for placed in state.placed)
        assert GAME.scores(state)[0] <= len(state.placed)


# -- only game errors, and reading in linear time (issues 13 and 17) -------------------------


@pytest.mark.parametrize("name", list(TARGETS))
@pytest.mark.parametrize("text", ["Ir0@Y1", "Vy4", "LZ99", "Xr0@Z1", "hint Iz1"])
def test_placements_off_the_lettered_columns_are_refused_clearly(name: str, text: str) -> None:
    with pytest.raises(IllegalMoveError) as error:
        GAME.parse_move(GAME.new(1, SoloOptions(name)), text)
    assert "outside the target" in str(error.value)


@pytest.mark.parametrize(
    "text",
    [
        lambda n: "1" * n,
        lambda n: "L" + "1" * n,
        lambda n: "Lr1" + " " * n + "c4x",
        lambda n: "hint " * (n // 5),
        lambda n: "L" + "1" * (n // 2) + "," + "2" * (n // 2),
        lambda n: "Lr" + "1" * n + "@A1",
    ],
    ids=["digits", "piece-digits", "spaces", "hints", "comma", "at"],
)
def test_the_notation_reads_huge_text_in_linear_time(text: Callable[[int], str]) -> None:
    with pytest.raises(InvalidMoveError):
        notation.parse_move(text(40_000))  # straight to the reader, below the protocol's 64-character cap
    work = linear(lambda n: notation.parse_move(text(n)), 4_000, InvalidMoveError)
    assert at_most_doubles(work), work


def test_a_record_with_a_huge_move_line_is_refused_at_once() -> None:
    def record(length: int) -> records.Record:
        return records.Record("puzzosolo", {"target": "6x10"}, ("ann",)).with_move(0, "7" * length)

    with pytest.raises(RecordError):
        records.replay(record(40_000))
    work = linear(lambda n: records.replay(record(n)), 40_000, RecordError)
    assert does_not_grow(work), f"the line is refused before it is read: {work}"


# -- outcomes the standings tell apart (issue 11) -----------------------------------------------


def test_a_solve_without_hints_and_one_with_hints_end_apart() -> None:
    moves = solution("5x12")
    clean = position("5x12", moves)
    hinted = position("5x12", moves[:-1])
    hinted, events = GAME.apply(hinted, GAME.parse_move(hinted, f"hint {moves[-1]}"))
    clean_outcome, hinted_outcome = GAME.outcome(clean), GAME.outcome(hinted)
    assert clean_outcome is not None and hinted_outcome is not None
    assert (clean_outcome.reason, clean_outcome.scores) == ("solved", (12,))
    assert (hinted_outcome.reason, hinted_outcome.scores) == ("solved_with_hints", (11,))
    assert hinted_outcome.helped == {0} and not clean_outcome.helped
    assert said(events)[-1] == "solved 5x12 with 1 hint!"
    gave_up, _ = GAME.resign(position("5x12", moves[:3]), 0)
    assert GAME.outcome(gave_up) == Outcome((0,), (1,), "gave_up", frozenset({0}), 0)
    assert GAME.forfeited(gave_up) == {0}


def test_every_piece_from_a_hint_scores_nothing() -> None:
    state = GAME.new(1, SoloOptions("3x20"))
    while state.status is SoloStatus.PLAYING:
        place = hint_place(state)
        assert place is not None
        state, _ = GAME.apply(state, hint(place))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "solved_with_hints" and outcome.scores == (0,)


# -- suggestions: placements that wall off a square come last -----------------------------------


def test_placements_that_wall_off_an_unfillable_region_rank_last() -> None:
    state = GAME.new(1)
    moves = GAME.legal_moves(state)
    corner = GAME.parse_move(state, "Xr0@A1")  # leaves A1 alone
    fine = GAME.parse_move(state, "Ir1@A1")
    assert walls_off(state, corner) and not walls_off(state, fine)
    ranked = GAME.rank_moves(state, moves)
    walling = [move for move in moves if walls_off(state, move)]
    assert walling and ranked[-len(walling) :] == sorted(walling, key=lambda m: GAME.format_move(state, m))
    assert ranked.index(GIVE_UP) < ranked.index(corner)
    for move in ranked[: len(moves) - len(walling) - 1]:
        after, _ = GAME.apply(state, move)
        empty = solver.problem(after.target).full & ~after.covered
        assert all(region.bit_count() % 5 == 0 for region in solver.problem(after.target).regions(empty))


def test_a_five_square_pocket_is_fine_only_when_a_piece_left_has_its_shape() -> None:
    used = position("6x10", ["Ir0@A2"])
    assert walls_off(used, GAME.parse_move(used, "Lr0f@E1"))  # A1-E1 is an I's place, and I is down
    left = position("6x10", ["Fr0f@A1"])
    assert not walls_off(left, GAME.parse_move(left, "Lr0f@A4"))  # A2-A6 waits for the I


# -- hidden information: none ---------------------------------------------------------------------


def test_views_hide_nothing_and_determinize_gives_the_view_back() -> None:
    state = position("6x10", solution("6x10")[:4])
    assert not GAME.hidden_information
    assert GAME.view(state, 0) == GAME.view(state, None) == state
    assert GAME.determinize(state, 0, random.Random(3)) == state


@settings(max_examples=40, deadline=None)
@given(JSON_VALUES)
def test_any_json_deal_is_refused_clearly(deal: object) -> None:
    try:
        GAME.new(1, deal=deal)
    except InvalidOptionsError as error:
        assert "deal" in str(error)
        return
    assert deal in (None, [])


# -- records made before the split replay the same ---------------------------------------------------


@pytest.mark.parametrize(("name", "file"), [("solo-hints", "5x12-hints"), ("solo-giveup", "T-giveup")])
def test_records_made_before_the_split_replay_the_same(name: str, file: str) -> None:
    expected = json.loads((FIXTURES / "puzzominos-main-replays.json").read_text())[name]
    record = records.Record.from_text((FIXTURES / f"puzzosolo-{file}.record").read_text())
    replayed = records.replay(record)
    assert [list(GAME.scores(state)) for state in replayed.states] == expected["scores"]
    if "solution" in expected:
        assert [format_place(place) for place in replayed.final.solution] == expected["solution"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["6x10", "T", "10x12", "cross"]), st.integers(0, 10_000))
def test_legality_is_the_legal_list_plus_its_hints(name: str, seed: int) -> None:
    """``is_legal`` (checked directly, without the list) agrees with ``legal_moves``; a hint is
    legal exactly when its placement is."""
    rng = random.Random(seed)
    state = GAME.new(1, SoloOptions(name))
    others = [move for move in GAME.legal_moves(state) if move.places]
    for _ in range(rng.randrange(8)):
        places = [move for move in GAME.legal_moves(state) if move.places]
        if not places:
            break
        state, _ = GAME.apply(state, rng.choice(places))
    legal = set(GAME.legal_moves(state))
    for move in [*rng.sample(others, 200), UNDO, GIVE_UP, *legal]:
        assert GAME.is_legal(state, move) == (move in legal)
        if move.places:
            assert GAME.is_legal(state, hint(move.place)) == (move in legal)

"""Tile Up!: the rule text's examples, the rules file's decisions, and property tests."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import GreedyPlayer, RandomPlayer
from games.core import Event, EventKind, event_phrase, outcome_phrase
from games.errors import IllegalMoveError, InvalidMoveError, InvalidOptionsError
from games.tileup import GAME, Move, MoveKind, Options, State, Step
from games.tileup.board import placement_problem, region
from games.tileup.data import (
    ALL_CARDS,
    ALL_TILES,
    CENTER,
    SHAPES,
    fits_inside,
    orientations,
    parse_square,
    shape_of,
    square_name,
)
from games.tileup.notation import parse_text

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None
    return square


def start(players: int = 2, bag: list[str] | None = None, deck: list[str] | None = None) -> State:
    return GAME.new(players, deal={"bag": bag or [], "deck": deck or []})


def play(state: State, *texts: str) -> State:
    for text in texts:
        state, _ = GAME.apply(state, GAME.parse_move(state, text))
    return state


def with_board(state: State, stacks: dict[str, str]) -> State:
    """Replace the board: ``{"E6": "B5 O4"}`` puts B5 then O4 (on top) on E6; others empty."""
    board: list[tuple[str, ...]] = [() for _ in range(121)]
    for name, tiles in stacks.items():
        board[sq(name)] = tuple(tiles.split())
    return replace(state, board=tuple(board))


def with_hand(state: State, seat: int, tiles: str = "", cards: tuple[str, ...] | None = None) -> State:
    held = list(state.tiles)
    held[seat] = tuple(tiles.split())
    counts = list(state.tile_counts)
    counts[seat] = len(held[seat] or ())
    state = replace(state, tiles=tuple(held), tile_counts=tuple(counts))
    if cards is not None:
        own = list(state.cards)
        own[seat] = cards
        card_counts = list(state.card_counts)
        card_counts[seat] = len(cards)
        state = replace(state, cards=tuple(own), card_counts=tuple(card_counts))
    return state


# A 2-player deal: center O3 B4 P5 O5 B3 (O1, B2 go back), seat 0 gets 14, seat 1 gets 6.
BAG = ["O1", "B2", "O3", "B4", "P5", "O5", "B3", "O4", "P5", "B5", "P1", "P2", "O3"]
DECK = ["O-L4", "B-X5", "P-I3", "O-I3"]


def base() -> State:
    return start(2, BAG, DECK)


# -- setting up -----------------------------------------------------------------------


def test_center_uses_only_3_4_5_in_draw_order_and_1_2_go_back() -> None:
    state = base()
    assert [state.board[square] for square in CENTER] == [("O3",), ("B4",), ("P5",), ("O5",), ("B3",)]
    assert [square_name(square) for square in CENTER] == ["F5", "E6", "F6", "G6", "F7"]
    assert state.bag is not None and state.bag[-2:] == ("O1", "B2")
    assert sum(len(stack) for stack in state.board) == 5


def test_seeded_center_only_3_4_5() -> None:
    for seed in range(20):
        state = GAME.new(4, seed=seed)
        assert all(int(state.board[square][0][1]) >= 3 for square in CENTER)


def test_face_up_cards_hands_and_first_player() -> None:
    state = base()
    assert state.face_up == ("O-L4", "B-X5")
    assert state.cards == (("P-I3",), ("O-I3",))
    assert state.tiles == (("O4", "B5", "P5"), ("O3", "P1", "P2"))
    assert state.to_act == 0 and state.first == 0
    assert GAME.hand(state, 1) == ("O3", "P1", "P2", "goal 3: orange I3")


def test_tied_highest_redraw_only_tied_seats() -> None:
    bag = ["O3", "B4", "P5", "O5", "B3"]  # center
    bag += ["O5", "B4", "P3", "B5", "O4", "P3", "P1", "P2", "O1"]  # hands: 12, 12, 4
    bag += ["O1", "O2", "B1", "P5", "P4", "B3"]  # redraws: seat 0 gets 4, seat 1 gets 12
    state = start(3, bag)
    assert state.to_act == 1
    assert state.tiles[2] == ("O1", "P1", "P2")
    assert state.tiles[0] == ("O1", "O2", "B1")
    assert state.tiles[1] == ("B3", "P4", "P5")
    assert state.bag is not None and state.bag[-6:] == ("O5", "B4", "P3", "B5", "O4", "P3")  # in draw order


def test_redraw_compares_every_seat_again() -> None:
    bag = ["O3", "B4", "P5", "O5", "B3"]
    bag += ["O5", "B4", "P3", "B5", "O4", "P3", "P2", "O4", "B4"]  # 12, 12, 10
    bag += ["O1", "O2", "B1", "P1", "P2", "B2"]  # 4 and 5: seat 2 is now highest
    state = start(3, bag)
    assert state.to_act == 2


def test_bad_deal_is_refused() -> None:
    with pytest.raises(InvalidOptionsError):
        GAME.new(2, deal={"bag": ["O6"]})
    with pytest.raises(InvalidOptionsError):
        GAME.new(2, deal={"bag": ["O5"] * 8})
    with pytest.raises(InvalidOptionsError):
        GAME.new(2, deal={"deck": ["O-L4", "O-L4"]})
    with pytest.raises(InvalidOptionsError):
        GAME.new(5)


# -- placing tiles --------------------------------------------------------------------


def test_stacking_needs_different_colour_and_lower_number() -> None:
    state = with_hand(with_board(base(), {"F6": "B4", "G6": "O5", "E6": "B5 O4"}), 0, "O3 O4 B3 P5 P3 B2")
    legal = {GAME.format_move(state, move) for move in GAME.legal_moves(state)}
    assert "O3@F6" in legal  # orange 3 on blue 4
    assert "O4@F6" not in legal  # equal number
    assert "P5@F6" not in legal  # higher number
    assert "O3@G6" not in legal  # same colour
    assert "P3@E6" in legal and "B3@E6" in legal  # only the top tile (O4) counts
    assert "O3@E6" not in legal
    with pytest.raises(IllegalMoveError, match="same colour"):
        GAME.parse_move(state, "O3@G6")
    with pytest.raises(IllegalMoveError, match="not higher"):
        GAME.parse_move(state, "O4@F6")


def test_placement_must_touch_a_tile_orthogonally_including_this_turn() -> None:
    state = with_hand(base(), 0, "O4 B5")
    with pytest.raises(IllegalMoveError, match="not next to any tile"):
        GAME.parse_move(state, "O4@B2")
    with pytest.raises(IllegalMoveError, match="not next to any tile"):
        GAME.parse_move(state, "O4@E4")  # diagonal to F5 only
    state = play(state, "O4@F4")
    assert GAME.parse_move(state, "B5@F3") == Move(MoveKind.PLACE, "B5", sq("F3"))
    state = play(state, "B5@F3")
    assert state.highlight == (sq("F4"), sq("F3"))


def test_one_action_a_turn() -> None:
    state = play(base(), "O4@F4")
    kinds = {move.kind for move in GAME.legal_moves(state)}
    assert "goal" not in kinds and "tiles" not in kinds
    with pytest.raises(IllegalMoveError, match="already took your action"):
        GAME.parse_move(state, "tiles")
    drew = play(base(), "tiles")
    assert not any(move.kind == "place" for move in GAME.legal_moves(drew))
    with pytest.raises(IllegalMoveError, match="drew this turn"):
        GAME.parse_move(drew, "O4@F4")


def test_end_needs_an_action_unless_none_is_possible() -> None:
    state = base()
    assert Move(MoveKind.END) not in GAME.legal_moves(state)
    with pytest.raises(IllegalMoveError, match="action first"):
        GAME.parse_move(state, "end")
    stuck = with_hand(replace(state, bag=(), bag_size=0, deck=(), deck_size=0), 0, "")
    assert GAME.legal_moves(stuck) == [Move(MoveKind.END)]


def test_draw_three_tiles_or_fewer() -> None:
    state = replace(base(), bag=("P1", "P2"), bag_size=2)
    state = play(state, "tiles")
    assert state.tiles[0] == ("O4", "B5", "P1", "P2", "P5")
    assert state.bag_size == 0


# -- issue 13: apply refuses what legal_moves leaves out --------------------------------------


def test_a_second_action_after_placing_is_refused() -> None:
    state = play(base(), "O4@F4")
    for action in (Move(MoveKind.TILES), Move(MoveKind.GOAL)):
        with pytest.raises(IllegalMoveError, match="already took your action"):
            GAME.apply(state, action)
    drew = play(base(), "goal")
    with pytest.raises(IllegalMoveError, match="already took your action"):
        GAME.apply(drew, Move(MoveKind.TILES))
    with pytest.raises(IllegalMoveError, match="drew this turn"):
        GAME.apply(drew, Move(MoveKind.PLACE, "O4", sq("F4")))


def test_end_before_any_action_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="take your action first"):
        GAME.apply(base(), Move(MoveKind.END))
    scored = play(with_board(base(), L_BOARD), "score 1@C3")  # a score is not the action
    with pytest.raises(IllegalMoveError, match="take your action first"):
        GAME.apply(scored, Move(MoveKind.END))


def test_a_tile_no_longer_held_is_refused_with_a_game_error() -> None:
    state = play(base(), "O4@F4")  # seat 0 held one O4
    with pytest.raises(IllegalMoveError, match="you have no O4; your tiles are B5, P5"):
        GAME.apply(state, Move(MoveKind.PLACE, "O4", sq("F3")))
    over = play(with_hand(base(), 0, "O1 O2 O3 B1 B2 B3"), "tiles", "end", "discard B2")
    assert over.step == Step.DISCARD and over.tile_counts[0] == 8
    with pytest.raises(IllegalMoveError, match="you have no B2"):
        GAME.apply(over, Move(MoveKind.DISCARD, "B2"))


def test_stale_and_foreign_moves_are_refused() -> None:
    state = base()
    after = play(state, "tiles")
    for stale in (Move(MoveKind.TILES), Move(MoveKind.GOAL), Move(MoveKind.PLACE, "O4", sq("F4"))):
        assert stale in GAME.legal_moves(state)
        with pytest.raises(IllegalMoveError):
            GAME.apply(after, stale)
    other = GAME.new(2, seed=3)
    for foreign in GAME.legal_moves(other):
        if foreign not in GAME.legal_moves(state):
            with pytest.raises(IllegalMoveError):
                GAME.apply(state, foreign)
    for junk in (Move(MoveKind.PLACE, "O4", 500), Move(MoveKind.SCORE, square=-3, card=9), "end", None):
        with pytest.raises(IllegalMoveError):
            GAME.apply(state, junk)


def can_act(state: State) -> bool:
    """True when the seat to act has an action: a draw or a placement."""
    held = state.tiles[state.to_act] or ()
    can_draw = bool(state.bag_size or state.deck_size or state.discards)
    return can_draw or any(
        placement_problem(state.board, tile, square) is None for tile in held for square in range(121)
    )


def expected_legal(state: State, move: Move, action_possible: bool) -> bool:
    """The rules of the turn steps, written out independently of ``rules.legal_moves``."""
    seat = state.to_act
    held = state.tiles[seat] or ()
    cards = len(state.face_up) + state.card_counts[seat]
    if state.step == Step.DISCARD:
        if move.kind == MoveKind.DISCARD:
            return state.tile_counts[seat] > 7 and move.tile in held
        if move.kind == MoveKind.DISCARD_GOAL:
            return state.card_counts[seat] > 3 and len(state.face_up) < move.card <= cards
        return False
    if move.kind == MoveKind.PLACE:
        return (
            state.step in (Step.START, Step.PLACED)
            and move.tile in held
            and placement_problem(state.board, move.tile, move.square) is None
        )
    if move.kind == MoveKind.TILES:
        return state.step == Step.START and state.bag_size > 0
    if move.kind == MoveKind.GOAL:
        return state.step == Step.START and bool(state.deck_size or state.discards)
    if move.kind == MoveKind.END:
        return state.step != Step.START or not action_possible
    if move.kind == MoveKind.SCORE:
        if not 1 <= move.card <= cards:
            return False
        card = (state.face_up + (state.cards[seat] or ()))[move.card - 1]
        squares = region(state.board, move.square)
        return (
            bool(squares)
            and squares[0] == move.square
            and state.board[move.square][-1][0] == card[0]
            and shape_of(squares) == card[2:]
        )
    return False


def candidate_moves(state: State) -> list[Move]:
    """Every move of every kind that could make sense in some state."""
    moves = [Move(MoveKind.GOAL), Move(MoveKind.TILES), Move(MoveKind.END)]
    tiles = sorted(set(ALL_TILES))
    moves += [Move(MoveKind.PLACE, tile, square) for tile in tiles for square in range(121)]
    moves += [Move(MoveKind.SCORE, square=square, card=card) for card in range(8) for square in range(121)]
    moves += [Move(MoveKind.DISCARD, tile) for tile in tiles]
    moves += [Move(MoveKind.DISCARD_GOAL, card=card) for card in range(9)]
    return moves


@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_legal_moves_are_exactly_the_rules_at_every_step(players: int, seed: int) -> None:
    history = random_game(players, seed, 300)
    for state, _, _ in history[::23]:
        if GAME.to_act(state) is None:
            continue
        legal = set(GAME.legal_moves(state))
        action_possible = can_act(state)
        for index, move in enumerate(candidate_moves(state)):
            assert (move in legal) == expected_legal(state, move, action_possible), (state.step, move)
            if move not in legal and index % 17 == 0:
                with pytest.raises(IllegalMoveError):
                    GAME.apply(state, move)


def test_legal_moves_are_exactly_the_rules_in_built_positions() -> None:
    start = with_board(base(), L_BOARD)
    positions = [
        start,
        play(start, "goal"),
        play(start, "O4@F5"),
        play(start, "score 1@C3"),
        play(with_hand(base(), 0, "O1 O2 O3 B1 B2 B3"), "tiles", "end"),
        play(with_hand(base(), 0, "O4", ("P-I3", "B-T4", "P-O4")), "goal", "end"),
        with_hand(replace(base(), bag=(), bag_size=0, deck=(), deck_size=0), 0, ""),
        with_hand(replace(base(), bag=(), bag_size=0, deck=(), deck_size=0), 0, "O5 B5 P5"),
    ]
    for state in positions:
        legal = set(GAME.legal_moves(state))
        action_possible = can_act(state)
        for move in candidate_moves(state):
            assert (move in legal) == expected_legal(state, move, action_possible), (state.step, move)


def test_legal_moves_by_step() -> None:
    start = with_board(base(), L_BOARD)
    kinds = {move.kind for move in GAME.legal_moves(start)}
    assert kinds == {MoveKind.SCORE, MoveKind.PLACE, MoveKind.GOAL, MoveKind.TILES}
    drew = play(start, "goal")
    assert {move.kind for move in GAME.legal_moves(drew)} == {MoveKind.SCORE, MoveKind.END}
    placed = play(start, "O4@F5")
    assert {move.kind for move in GAME.legal_moves(placed)} == {MoveKind.SCORE, MoveKind.PLACE, MoveKind.END}
    over = play(with_hand(base(), 0, "O1 O2 O3 B1 B2 B3"), "tiles", "end")
    assert {move.kind for move in GAME.legal_moves(over)} == {MoveKind.DISCARD}


def test_forced_moves() -> None:
    assert GAME.forced_move(base()) is None
    stuck = with_hand(replace(base(), bag=(), bag_size=0, deck=(), deck_size=0), 0, "")
    assert GAME.forced_move(stuck) == Move(MoveKind.END)
    assert GAME.forced_move(play(base(), "tiles")) == Move(MoveKind.END)  # nothing to score
    assert GAME.forced_move(play(with_board(base(), L_BOARD), "tiles")) is None  # card 1 scores
    mixed = play(with_hand(base(), 0, "B1 B1 B1 B1 B1 B1 B1"), "tiles", "end")
    assert mixed.tiles[0][:3] == ("O1", "O1", "O1") and GAME.forced_move(mixed) is None
    one_kind = play(with_hand(base(), 0, "O1 O1 O1 O1 O1 O1 O1"), "tiles", "end")
    assert GAME.forced_move(one_kind) == Move(MoveKind.DISCARD, "O1")


# -- scoring --------------------------------------------------------------------------

L_BOARD = {"C3": "O3", "C4": "B5 O2", "C5": "O4", "D5": "P5 B4 O1", "F6": "B3"}


def test_orange_l_scores_the_sum_of_stack_heights() -> None:
    state = with_board(base(), L_BOARD)  # face-up card 1 is orange L4
    assert GAME.parse_move(state, "score 1@D5") == Move(MoveKind.SCORE, square=sq("C3"), card=1)
    assert (
        GAME.move_label(state, Move(MoveKind.SCORE, square=sq("C3"), card=1)) == "score 1@C3 — +7 (orange L4)"
    )
    after, events = GAME.apply(state, GAME.parse_move(state, "score 1 c4"))
    assert after.scores == (7, 0)  # 1 + 2 + 1 + 3 tiles, covered ones included
    assert [event.points for event in events if event.kind == "score"] == [7]
    assert events[0] == Event(EventKind.SCORE, seat=0, points=7, reason="goal_card", subject="orange L4")
    assert event_phrase(GAME, events[0], NAMES) == "scores orange L4 +7"
    assert event_phrase(GAME, events[1], NAMES) == "face-up card 1 is now orange V3"


def test_no_extra_tile_of_the_same_colour_adjacent() -> None:
    state = with_board(base(), {**L_BOARD, "B3": "O5"})
    assert not any(move.kind == "score" for move in GAME.legal_moves(state))
    with pytest.raises(IllegalMoveError, match="not exactly a L4"):
        GAME.parse_move(state, "score 1@C3")
    # another colour next to it does not matter
    state = with_board(base(), {**L_BOARD, "B3": "B5"})
    assert Move(MoveKind.SCORE, square=sq("C3"), card=1) in GAME.legal_moves(state)


def test_shapes_match_in_any_rotation_or_reflection() -> None:
    for name, cells in SHAPES.items():
        for form in orientations(cells):
            squares = tuple(y * 11 + x for x, y in form)
            assert shape_of(squares) == name
    assert len(orientations(SHAPES["X5"])) == 1 and len(orientations(SHAPES["L4"])) == 8
    mirrored = with_board(base(), {"D3": "O3", "D4": "O2", "D5": "O4", "C5": "O1"})
    assert Move(MoveKind.SCORE, square=sq("D3"), card=1) in GAME.legal_moves(mirrored)


def test_fits_inside_a_shape() -> None:
    line = (sq("C3"), sq("D3"))
    assert fits_inside(line, "I3") and fits_inside(line, "T4") and fits_inside(line, "X5")
    corner = (sq("C3"), sq("D3"), sq("D4"))
    assert fits_inside(corner, "V3") and fits_inside(corner, "S4") and not fits_inside(corner, "I4")
    assert not fits_inside((sq("C3"), sq("D3"), sq("E3"), sq("F3")), "I3")


def test_scored_face_up_card_is_replaced_at_once() -> None:
    state = play(with_board(base(), L_BOARD), "score 1@C3")
    assert state.face_up == ("O-V3", "B-X5")  # the deck's next card takes slot 1
    assert state.discards == ("O-L4",)
    assert state.deck_size == 22


def test_own_hidden_card_scores_only_for_its_owner() -> None:
    state = with_board(base(), {"C3": "P3", "C4": "P2", "C5": "P4"})  # seat 0 holds purple I3
    assert GAME.parse_move(state, "score 3@C4") == Move(MoveKind.SCORE, square=sq("C3"), card=3)
    after = play(state, "score 3@C4")
    assert after.cards[0] == () and after.scores[0] == 3 and after.discards == ("P-I3",)
    other = replace(state, to_act=1)  # seat 1's card 3 is orange I3
    with pytest.raises(IllegalMoveError, match="not orange"):
        GAME.parse_move(other, "score 3@C4")


def test_score_before_during_and_after_the_action() -> None:
    state = with_hand(with_board(base(), {"C3": "P3", "C4": "P2", "E6": "B4"}), 0, "P1 O4")
    state = play(state, "P1@C5", "score 3@C3", "O4@D6", "end")
    assert state.scores == (3, 0) and state.to_act == 1


def test_discard_pile_is_turned_over_unshuffled() -> None:
    state = replace(base(), deck=(), deck_size=0, discards=("B-I4", "P-X5", "O-T4"))
    after, events = GAME.apply(state, GAME.parse_move(state, "goal"))
    assert after.cards[0] == ("P-I3", "B-I4")  # the first card discarded is the new top
    assert after.deck == ("P-X5", "O-T4") and after.discards == ()
    assert Event(EventKind.INFO, reason="deck_turned") in events


def test_face_up_replacement_uses_the_recycled_pile_not_the_scored_card() -> None:
    state = replace(with_board(base(), L_BOARD), deck=(), deck_size=0, discards=("B-I4",))
    after = play(state, "score 1@C3")
    assert after.face_up == ("B-I4", "B-X5") and after.discards == ("O-L4",)


def test_score_without_a_square_takes_the_only_matching_region() -> None:
    state = with_board(base(), L_BOARD)
    assert GAME.parse_move(state, "score 1") == Move(MoveKind.SCORE, square=sq("C3"), card=1)
    with pytest.raises(IllegalMoveError, match="no whole blue X5 region"):
        GAME.parse_move(state, "score 2")
    twice = with_board(base(), {**L_BOARD, "H3": "O3", "H4": "O2", "H5": "O4", "I5": "O1", "F6": "B3"})
    with pytest.raises(IllegalMoveError, match=r"several regions; choose one: `score 1@C3`, `score 1@H3`"):
        GAME.parse_move(twice, "score 1")


# -- end of turn: limits ----------------------------------------------------------------


def test_discard_down_to_seven_tiles_at_the_end_of_the_turn() -> None:
    state = with_hand(base(), 0, "O1 O2 O3 B1 B2 B3")
    state = play(state, "tiles")
    assert state.tile_counts[0] == 9
    state = play(state, "end")
    assert state.step == Step.DISCARD and state.to_act == 0
    assert {move.kind for move in GAME.legal_moves(state)} == {"discard"}
    with pytest.raises(IllegalMoveError, match="over the limits"):
        GAME.parse_move(state, "end")
    state = play(state, "discard O1")
    assert state.to_act == 0
    state = play(state, "discard b2")
    assert state.to_act == 1 and state.step == Step.START and state.tile_counts[0] == 7
    assert state.bag is not None and state.bag[-2:] == ("O1", "B2")


def test_discard_down_to_three_goal_cards() -> None:
    state = with_hand(base(), 0, "O4", ("P-I3", "B-T4", "P-O4"))
    state = play(state, "goal", "end")
    assert [GAME.format_move(state, m) for m in GAME.legal_moves(state)] == [
        "discard goal 3",
        "discard goal 4",
        "discard goal 5",
        "discard goal 6",
    ]
    state = play(state, "discard goal 4")
    assert state.cards[0] == ("P-I3", "P-O4", "O-V3") and state.discards == ("B-T4",)
    assert state.to_act == 1


def test_discards_are_only_for_the_end_of_the_turn() -> None:
    with pytest.raises(IllegalMoveError, match="only at the end"):
        GAME.parse_move(base(), "discard O4")


# -- the end ------------------------------------------------------------------------


CORNERS_ALMOST = {
    "A1": "O3",
    "A2": "B4",
    "K1": "O3",
    "K2": "B4",
    "A11": "P3",
    "A10": "O4",
    "K10": "P3",
    "F6": "B5",
}


def test_game_ends_at_the_end_of_the_turn_covering_all_corners() -> None:
    state = replace(with_hand(with_board(base(), CORNERS_ALMOST), 0, "O4 B5"), scores=(3, 0))
    state = play(state, "O4@K11")
    assert GAME.to_act(state) == 0 and GAME.outcome(state) is None  # the turn goes on
    state = play(state, "B5@J11")
    state, events = GAME.apply(state, GAME.parse_move(state, "end"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "corners"
    assert outcome_phrase(GAME, outcome, NAMES) == "all four corners are covered"
    assert GAME.to_act(state) is None and GAME.legal_moves(state) == []
    assert events[-2:] == (
        Event(EventKind.GAME_END, reason="corners"),
        Event(EventKind.GAME_END, seat=0, reason="wins"),
    )
    assert [event_phrase(GAME, event, NAMES) for event in events[-2:]] == [
        "all four corners are covered",
        "Ann wins",
    ]
    assert GAME.describe(state, NAMES).startswith("game over (all four corners are covered)")


def test_highest_score_wins_and_ties_share() -> None:
    state = replace(with_board(base(), CORNERS_ALMOST), scores=(9, 9))
    state, events = GAME.apply(play(with_hand(state, 0, "O4"), "O4@K11"), Move(MoveKind.END))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 1) and outcome.is_draw
    winners = [event_phrase(GAME, event, NAMES) for event in events if event.reason == "shares_win"]
    assert winners == ["Ann shares the win", "Ben shares the win"]


def idle_turn(state: State) -> State:
    """A turn without a placement: draw (tiles while the bag lasts, else a goal card), end, and
    discard the first thing offered while over the limits."""
    draw = MoveKind.TILES if state.bag_size else MoveKind.GOAL
    state, _ = GAME.apply(state, Move(draw))
    state, _ = GAME.apply(state, Move(MoveKind.END))
    while state.step == Step.DISCARD:
        state, _ = GAME.apply(state, GAME.legal_moves(state)[0])
    return state


def test_safety_end_full_round_without_placement_and_empty_bag() -> None:
    state = replace(base(), bag=(), bag_size=0)
    state = play(state, "goal", "end")
    assert GAME.outcome(state) is None
    state, events = GAME.apply(play(state, "goal"), Move(MoveKind.END))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "empty_bag_round"
    assert outcome_phrase(GAME, outcome, NAMES) == "a full round passed with no tile placed and the bag empty"
    assert events[0] == Event(EventKind.GAME_END, reason="empty_bag_round")


def test_a_placement_restarts_the_empty_bag_round() -> None:
    state = with_hand(replace(base(), bag=(), bag_size=0), 1, "O4")
    state = play(state, "goal", "end", "O4@F4", "end", "goal", "end")
    assert GAME.outcome(state) is None and state.idle_empty_turns == 1


def test_two_players_with_a_full_bag_play_on_after_three_rounds_without_placements() -> None:
    state = base()
    for _ in range(3 * 2):
        state = idle_turn(state)
    assert GAME.outcome(state) is None and state.idle_turns == 6 and state.bag_size > 90
    assert GAME.to_act(state) == 0 and state.turn == 7


def test_safety_end_ten_rounds_without_placement() -> None:
    state = base()
    for _ in range(10 * 2 - 1):
        state = idle_turn(state)
        assert GAME.outcome(state) is None
    state = idle_turn(state)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "ten_idle_rounds" and state.bag_size > 80
    assert outcome_phrase(GAME, outcome, NAMES) == "ten full rounds passed with no tile placed"


def test_safety_end_counts_only_the_players_still_in() -> None:
    state = GAME.new(3, seed=4)
    state, _ = GAME.resign(state, (state.to_act + 1) % 3)
    state = replace(state, idle_turns=10 * 2 - 1)
    state = idle_turn(state)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "ten_idle_rounds"


def test_legacy_option_ends_after_three_rounds_without_placement() -> None:
    state = GAME.new(2, Options(idle_rounds=3), deal={"bag": BAG, "deck": DECK})
    for _ in range(3 * 2 - 1):
        state = idle_turn(state)
        assert GAME.outcome(state) is None
    state = idle_turn(state)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "three_idle_rounds"
    assert outcome_phrase(GAME, outcome, NAMES) == "three full rounds passed with no tile placed"


def test_the_legacy_option_is_not_offered() -> None:
    spec = Options.spec("idle_rounds")
    assert not spec.offered and spec.default == 10 and set(spec.choices) == {10, 3}
    assert Options.from_dict({"idle_rounds": "3"}) == Options(idle_rounds=3)
    with pytest.raises(InvalidOptionsError):
        Options(idle_rounds=5)


def test_resign_two_players_other_wins() -> None:
    state, events = GAME.resign(base(), 0)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.forfeited == frozenset({0})
    assert outcome.reason == "last_standing" and outcome.reason_seat == 1
    assert outcome_phrase(GAME, outcome, NAMES) == "Ben is the last player left"
    assert [event_phrase(GAME, event, NAMES) for event in events] == [
        "resigns",
        "Ben is the last player left",
        "Ben wins",
    ]


def test_resign_three_players_play_on() -> None:
    state = GAME.new(3, seed=4)
    seat = state.to_act
    state, _ = GAME.resign(state, seat)
    assert GAME.outcome(state) is None and GAME.to_act(state) == (seat + 1) % 3


# -- timeouts ---------------------------------------------------------------------------


def test_timeout_ends_the_turn_without_an_action() -> None:
    state, events = GAME.on_timeout(base())
    assert state.to_act == 1 and state.step == Step.START and state.idle_turns == 1
    assert events == (Event(EventKind.TIMEOUT, seat=0, reason="turn_timeout"),)
    assert state.last_move == "!timeout"
    assert GAME.outcome(state) is None and not state.forfeited


def test_timeout_after_placing_keeps_the_tiles_and_counts_as_a_placement() -> None:
    state = play(base(), "O4@F4")
    state, _ = GAME.on_timeout(state)
    assert state.board[sq("F4")] == ("O4",) and state.to_act == 1 and state.idle_turns == 0


def test_timeout_over_the_limits_discards_lowest_tiles_and_last_cards() -> None:
    state = with_hand(base(), 0, "O2 O5 B2 B3 P4 P5 P5", ("P-I3", "B-T4", "P-O4"))
    state = replace(state, bag=("P1", "B4", "O3", "O1"), bag_size=4)
    state = play(state, "tiles", "end")
    assert state.step == Step.DISCARD and state.tile_counts[0] == 10
    state, events = GAME.on_timeout(state)
    assert state.to_act == 1 and state.tiles[0] == ("O3", "O5", "B3", "B4", "P4", "P5", "P5")
    assert [e.subject for e in events if e.reason == "discarded_tile"] == ["P1", "O2", "B2"]
    assert event_phrase(GAME, events[1], NAMES) == "discards P1 into the bag"
    goal = play(with_hand(base(), 0, "O4", ("P-I3", "B-T4", "P-O4")), "goal")
    goal, _ = GAME.on_timeout(goal)
    assert goal.cards[0] == ("P-I3", "B-T4", "P-O4") and goal.discards == ("O-V3",)


def test_a_record_with_a_timeout_replays() -> None:
    from games.records import TIMEOUT, new_record, replay

    state = GAME.new(2, seed=9)
    record = new_record(GAME, ["a", "b"], {}, 9)
    record = record.with_move(state.to_act, "tiles").with_move(state.to_act, TIMEOUT)
    final = replay(record).final
    assert final.to_act != state.to_act and final.tile_counts[state.to_act] == 6


def test_last_move_follows_play_after_a_resignation() -> None:
    state, _ = GAME.resign(GAME.new(3, seed=4), 2)
    assert state.last_move == "!resign"
    state = play(state, "tiles")
    assert state.last_move == "tiles"


# -- notation, views and text -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("O4@F4", Move(MoveKind.PLACE, "O4", sq("F4"))),
        ("o4 f4", Move(MoveKind.PLACE, "O4", sq("F4"))),
        (" O4 @ f4 ", Move(MoveKind.PLACE, "O4", sq("F4"))),
        ("draw", Move(MoveKind.TILES)),
        ("Draw Goal", Move(MoveKind.GOAL)),
    ],
)
def test_relaxed_notation(text: str, move: Move) -> None:
    assert GAME.parse_move(base(), text) == move


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("score 2", Move(MoveKind.SCORE, card=2)),
        ("2@e6", Move(MoveKind.SCORE, card=2, square=sq("E6"))),
        ("discard card 4", Move(MoveKind.DISCARD_GOAL, card=4)),
        ("discard 4", Move(MoveKind.DISCARD_GOAL, card=4)),
        ("discard p5", Move(MoveKind.DISCARD, "P5")),
        ("done", Move(MoveKind.END)),
        ("card", Move(MoveKind.GOAL)),
    ],
)
def test_relaxed_notation_syntax(text: str, move: Move) -> None:
    assert parse_text(text) == move


def test_syntax_errors_quote_the_input() -> None:
    for text in ("hello", "X4@F4", "O4@Z9", "score two", "discard"):
        with pytest.raises(InvalidMoveError) as error:
            GAME.parse_move(base(), text)
        assert f"`{text}`" in str(error.value)
    with pytest.raises(InvalidMoveError, match="Write a move"):
        GAME.parse_move(base(), " ")
    long = "O4@" + "Z" * 60
    with pytest.raises(InvalidMoveError) as error:
        GAME.parse_move(base(), long)
    assert f"`{long[:39]}…`" in str(error.value) and long not in str(error.value)
    with pytest.raises(InvalidMoveError, match="squares are A1 to K11"):
        GAME.parse_move(base(), "O4@L1")
    with pytest.raises(IllegalMoveError, match="no goal card 7"):
        GAME.parse_move(base(), "score 7@F6")
    with pytest.raises(IllegalMoveError, match="you have no P1"):
        GAME.parse_move(base(), "P1@F4")


def test_view_hides_other_screens_and_the_bag() -> None:
    state = base()
    seen = GAME.view(state, 1)
    assert seen.tiles[0] is None and seen.cards[0] is None and seen.tiles[1] == state.tiles[1]
    assert seen.bag is None and seen.deck is None and seen.seed == 0 and seen.shuffles == 0
    assert seen.bag_size == state.bag_size and seen.deck_size == state.deck_size
    assert GAME.hand(seen, 0) is None and GAME.hand(GAME.view(state, None), 1) is None


def test_describe_names_the_step_counts_and_face_up_cards() -> None:
    text = GAME.describe(base(), NAMES)
    assert "Ann: take one action" in text
    assert "Ben 3 tiles and 1 card" in text
    assert "1 orange L4, 2 blue X5" in text and "bag 103" in text and "goal deck 23" in text


def test_greedy_scores_cards_and_places_tiles() -> None:
    state = GAME.new(3, seed=1)
    player = GreedyPlayer(1)
    kinds: Counter[str] = Counter()
    while GAME.to_act(state) is not None:
        move = player.choose(GAME, state)
        kinds[move.kind] += 1
        state, _ = GAME.apply(state, move)
    assert kinds["score"] > 0 and kinds["place"] > 20 and max(state.scores) > 0


# -- properties -------------------------------------------------------------------------


def conserved(state: State) -> None:
    held = [tile for hand in state.tiles for tile in hand or ()]
    on_board = [tile for stack in state.board for tile in stack]
    assert Counter((state.bag or ()) + tuple(held) + tuple(on_board)) == Counter(ALL_TILES)
    cards = [card for hand in state.cards for card in hand or ()]
    assert sorted((*(state.deck or ()), *state.discards, *state.face_up, *cards)) == sorted(ALL_CARDS)
    assert state.bag_size == len(state.bag or ()) and state.deck_size == len(state.deck or ())
    assert state.tile_counts == tuple(len(hand or ()) for hand in state.tiles)
    for stack in state.board:
        for lower, upper in itertools.pairwise(stack):
            assert lower[0] != upper[0] and int(lower[1]) > int(upper[1])


def random_game(players: int, seed: int, steps: int) -> list[tuple[State, Any, Any]]:
    state = GAME.new(players, seed=seed)
    chooser = RandomPlayer(seed)
    history = []
    for _ in range(steps):
        if GAME.to_act(state) is None:
            break
        move = chooser.choose(GAME, state)
        after, events = GAME.apply(state, move)
        history.append((state, move, events))
        state = after
    history.append((state, None, ()))
    return history


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_random_playouts_keep_invariants(players: int, seed: int) -> None:
    history = random_game(players, seed, 400)
    total = [0] * players
    for state, move, events in history:
        conserved(state)
        for event in events:
            if event.kind == "score":
                total[event.seat] += event.points
        if move is None:
            assert tuple(total) == history[-1][0].scores
            continue
        legal = GAME.legal_moves(state)
        assert move in legal and len(set(legal)) == len(legal)
        assert GAME.parse_move(state, GAME.format_move(state, move)) == move
        if state.step == Step.DISCARD:
            assert all(m.kind.startswith("discard") for m in legal)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_every_legal_placement_and_score_is_accepted(seed: int) -> None:
    history = random_game(3, seed, 120)
    state = history[-1][0]
    if GAME.to_act(state) is None:
        return
    for move in GAME.legal_moves(state):
        text = GAME.format_move(state, move)
        assert GAME.parse_move(state, text) == move
        after, _ = GAME.apply(state, move)
        conserved(after)
        if move.kind == "score":
            assert after.scores[state.to_act] > state.scores[state.to_act]


# -- hidden information ---------------------------------------------------------------------------


def counts_of(state: State) -> tuple[Counter[str], Counter[str]]:
    """Every tile and every goal card of a whole state, wherever it is."""
    tiles = Counter((*(state.bag or ()), *(t for hand in state.tiles for t in hand or ())))
    tiles.update(tile for stack in state.board for tile in stack)
    cards = Counter((*(state.deck or ()), *state.discards, *state.face_up))
    cards.update(card for hand in state.cards for card in hand or ())
    return tiles, cards


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), plies=st.integers(0, 250))
def test_determinized_states_deal_only_what_the_viewer_cannot_see(
    players: int, seed: int, plies: int
) -> None:
    state = random_game(players, seed, plies)[-1][0]
    for viewer in [None, *range(players)]:
        seen = GAME.view(state, viewer)
        first = GAME.determinize(seen, viewer, random.Random(1))
        assert GAME.view(first, viewer) == seen
        assert counts_of(first) == (Counter(ALL_TILES), Counter(ALL_CARDS))
        conserved(first)
        assert (first.board, first.face_up, first.discards) == (state.board, state.face_up, state.discards)
        if viewer is not None:
            assert first.tiles[viewer] == state.tiles[viewer] and first.cards[viewer] == state.cards[viewer]
        assert first.seed not in (None, 0) and first.shuffles == 0
        others = [GAME.determinize(seen, viewer, random.Random(n)) for n in range(2, 6)]
        if state.bag_size > 3:
            assert len({other.bag for other in others}) > 1, "the bag order is drawn at random"


def test_a_view_of_a_dealt_game_keeps_no_seed_and_determinizes_with_a_fresh_one() -> None:
    state = base()
    assert state.seed is None
    seen = GAME.view(state, 0)
    assert seen.seed == 0 and seen.bag is None and seen.deck is None and seen.tiles[1] is None
    dealt = GAME.determinize(seen, 0, random.Random(7))
    assert dealt.tiles[0] == state.tiles[0] and dealt.cards[0] == state.cards[0]
    assert dealt.tile_counts == state.tile_counts and len(dealt.cards[1] or ()) == 1
    assert dealt.bag_size == len(dealt.bag or ()) == state.bag_size
    assert dealt.deck_size == len(dealt.deck or ()) == state.deck_size
    assert isinstance(dealt.seed, int) and dealt.seed != 0
    after, _ = GAME.apply(dealt, Move(MoveKind.TILES))  # playable
    assert after.tile_counts[0] == 6


# -- deals from strangers ---------------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(10**20, 10**40)
    | st.text(max_size=8)
    | st.sampled_from(["O4", "P1", "O-L4", "B-X5", "bag", "deck"]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.sampled_from(["bag", "deck", "x"]), inner),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(deal=JSON)
def test_a_deal_is_a_game_or_a_clear_refusal(deal: Any) -> None:
    if deal is None:
        return
    try:
        state = GAME.new(2, deal=deal)
    except InvalidOptionsError as error:
        assert 0 < len(str(error)) < 300
        return
    conserved(state)


def test_deal_errors_are_short_and_clear() -> None:
    for deal, words in (
        ({"bag": "O4"}, "must be a list of tile names"),
        ({"bag": [10**400]}, "a value of type int"),
        ({"bag": ["x" * 10_000]}, "(or it is not a tile name)"),
        ({"hand": []}, "only 'bag' and 'deck'"),
        ([[], [], []], "A deal is"),
        ({"deck": [["O-L4"]]}, "a value of type list"),
    ):
        with pytest.raises(InvalidOptionsError) as error:
            GAME.new(2, deal=deal)
        assert words in str(error.value) and len(str(error.value)) < 200


# -- events -------------------------------------------------------------------------------------------


def test_draw_and_discard_events_are_facts() -> None:
    _, events = GAME.apply(replace(base(), bag=("P1", "P2"), bag_size=2), Move(MoveKind.TILES))
    assert events == (Event(EventKind.DRAW, seat=0, reason="drew_tiles", count=2),)
    assert event_phrase(GAME, events[0], NAMES) == "draws 2 tiles"
    _, events = GAME.apply(base(), Move(MoveKind.GOAL))
    assert [event_phrase(GAME, event, NAMES) for event in events] == ["draws a goal card"]
    over = play(with_hand(base(), 0, "O4", ("P-I3", "B-T4", "P-O4")), "goal")
    over, events = GAME.apply(over, Move(MoveKind.END))
    words = event_phrase(GAME, events[0], NAMES)
    assert words == "must discard down to 7 tiles and 3 goal cards to end the turn"
    _, events = GAME.apply(over, Move(MoveKind.DISCARD_GOAL, card=4))
    assert events == (Event(EventKind.DISCARD, seat=0, reason="discarded_goal", subject="blue T4"),)
    assert event_phrase(GAME, events[0], NAMES) == "discards goal card blue T4"


def test_the_last_face_up_card_leaves_its_slot_empty() -> None:
    state = replace(with_board(base(), L_BOARD), deck=(), deck_size=0, discards=())
    after, events = GAME.apply(state, GAME.parse_move(state, "score 1@C3"))
    assert after.face_up == ("B-X5",) and after.discards == ("O-L4",)
    assert event_phrase(GAME, events[-1], NAMES) == "no goal card is left to replace face-up card 1"

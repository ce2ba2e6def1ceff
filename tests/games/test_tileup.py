"""Tile Up!: the rule text's examples, the rules file's decisions, and property tests."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import GreedyPlayer, RandomPlayer
from games.errors import IllegalMoveError, InvalidMoveError, InvalidOptionsError
from games.tileup import GAME, TileUpMove, TileUpState
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
from games.tileup.state import DISCARD, START

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None
    return square


def start(players: int = 2, bag: list[str] | None = None, deck: list[str] | None = None) -> TileUpState:
    return GAME.new(players, deal={"bag": bag or [], "deck": deck or []})


def play(state: TileUpState, *texts: str) -> TileUpState:
    for text in texts:
        state, _ = GAME.apply(state, GAME.parse_move(state, text))
    return state


def with_board(state: TileUpState, stacks: dict[str, str]) -> TileUpState:
    """Replace the board: ``{"E6": "B5 O4"}`` puts B5 then O4 (on top) on E6; others empty."""
    board: list[tuple[str, ...]] = [() for _ in range(121)]
    for name, tiles in stacks.items():
        board[sq(name)] = tuple(tiles.split())
    return replace(state, board=tuple(board))


def with_hand(
    state: TileUpState, seat: int, tiles: str = "", cards: tuple[str, ...] | None = None
) -> TileUpState:
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


def base() -> TileUpState:
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
    assert GAME.parse_move(state, "B5@F3") == TileUpMove("place", "B5", sq("F3"))
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
    assert TileUpMove("end") not in GAME.legal_moves(state)
    with pytest.raises(IllegalMoveError, match="action first"):
        GAME.parse_move(state, "end")
    stuck = with_hand(replace(state, bag=(), bag_size=0, deck=(), deck_size=0), 0, "")
    assert GAME.legal_moves(stuck) == [TileUpMove("end")]


def test_draw_three_tiles_or_fewer() -> None:
    state = replace(base(), bag=("P1", "P2"), bag_size=2)
    state = play(state, "tiles")
    assert state.tiles[0] == ("O4", "B5", "P1", "P2", "P5")
    assert state.bag_size == 0


# -- scoring --------------------------------------------------------------------------

L_BOARD = {"C3": "O3", "C4": "B5 O2", "C5": "O4", "D5": "P5 B4 O1", "F6": "B3"}


def test_orange_l_scores_the_sum_of_stack_heights() -> None:
    state = with_board(base(), L_BOARD)  # face-up card 1 is orange L4
    assert GAME.parse_move(state, "score 1@D5") == TileUpMove("score", square=sq("C3"), card=1)
    assert (
        GAME.move_label(state, TileUpMove("score", square=sq("C3"), card=1)) == "score 1@C3 — +7 (orange L4)"
    )
    after, events = GAME.apply(state, GAME.parse_move(state, "score 1 c4"))
    assert after.scores == (7, 0)  # 1 + 2 + 1 + 3 tiles, covered ones included
    assert [event.points for event in events if event.kind == "score"] == [7]
    assert events[0].text == "orange L4 +7"


def test_no_extra_tile_of_the_same_colour_adjacent() -> None:
    state = with_board(base(), {**L_BOARD, "B3": "O5"})
    assert not any(move.kind == "score" for move in GAME.legal_moves(state))
    with pytest.raises(IllegalMoveError, match="not exactly a L4"):
        GAME.parse_move(state, "score 1@C3")
    # another colour next to it does not matter
    state = with_board(base(), {**L_BOARD, "B3": "B5"})
    assert TileUpMove("score", square=sq("C3"), card=1) in GAME.legal_moves(state)


def test_shapes_match_in_any_rotation_or_reflection() -> None:
    for name, cells in SHAPES.items():
        for form in orientations(cells):
            squares = tuple(y * 11 + x for x, y in form)
            assert shape_of(squares) == name
    assert len(orientations(SHAPES["X5"])) == 1 and len(orientations(SHAPES["L4"])) == 8
    mirrored = with_board(base(), {"D3": "O3", "D4": "O2", "D5": "O4", "C5": "O1"})
    assert TileUpMove("score", square=sq("D3"), card=1) in GAME.legal_moves(mirrored)


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
    assert GAME.parse_move(state, "score 3@C4") == TileUpMove("score", square=sq("C3"), card=3)
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
    assert any("turned over" in event.text for event in events)


def test_face_up_replacement_uses_the_recycled_pile_not_the_scored_card() -> None:
    state = replace(with_board(base(), L_BOARD), deck=(), deck_size=0, discards=("B-I4",))
    after = play(state, "score 1@C3")
    assert after.face_up == ("B-I4", "B-X5") and after.discards == ("O-L4",)


def test_score_without_a_square_takes_the_only_matching_region() -> None:
    state = with_board(base(), L_BOARD)
    assert GAME.parse_move(state, "score 1") == TileUpMove("score", square=sq("C3"), card=1)
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
    assert state.phase == DISCARD and state.to_act == 0
    assert {move.kind for move in GAME.legal_moves(state)} == {"discard"}
    with pytest.raises(IllegalMoveError, match="over the limits"):
        GAME.parse_move(state, "end")
    state = play(state, "discard O1")
    assert state.to_act == 0
    state = play(state, "discard b2")
    assert state.to_act == 1 and state.phase == START and state.tile_counts[0] == 7
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
    state = with_hand(with_board(base(), CORNERS_ALMOST), 0, "O4 B5")
    state = play(state, "O4@K11")
    assert GAME.to_act(state) == 0 and GAME.outcome(state) is None  # the turn goes on
    state = play(state, "B5@J11")
    state, events = GAME.apply(state, GAME.parse_move(state, "end"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "all four corners are covered"
    assert GAME.to_act(state) is None and GAME.legal_moves(state) == []
    assert events[-1].kind == "game_end"


def test_highest_score_wins_and_ties_share() -> None:
    state = replace(with_board(base(), CORNERS_ALMOST), scores=(9, 9))
    state = play(with_hand(state, 0, "O4"), "O4@K11", "end")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 1) and outcome.is_draw


def test_safety_end_full_round_without_placement_and_empty_bag() -> None:
    state = replace(base(), bag=(), bag_size=0)
    state = play(state, "goal", "end")
    assert GAME.outcome(state) is None
    state = play(state, "goal", "end")
    outcome = GAME.outcome(state)
    assert outcome is not None and "bag empty" in outcome.reason


def test_safety_end_three_rounds_without_placement() -> None:
    state = base()
    for _ in range(5):
        state = play(state, "goal", "end")
        assert GAME.outcome(state) is None
        if state.phase == DISCARD:
            state = play(state, "discard goal 3")
    state = play(state, "tiles", "end")
    outcome = GAME.outcome(state)
    assert outcome is not None and "three full rounds" in outcome.reason


def test_resign_two_players_other_wins() -> None:
    state, events = GAME.resign(base(), 0)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.forfeited == frozenset({0})
    assert events[0].kind == "forfeit"


def test_resign_three_players_play_on() -> None:
    state = GAME.new(3, seed=4)
    seat = state.to_act
    state, _ = GAME.resign(state, seat)
    assert GAME.outcome(state) is None and GAME.to_act(state) == (seat + 1) % 3


# -- timeouts ---------------------------------------------------------------------------


def test_timeout_ends_the_turn_without_an_action() -> None:
    state, events = GAME.on_timeout(base())
    assert state.to_act == 1 and state.phase == START and state.idle_turns == 1
    assert events[0].kind == "timeout" and state.last_move == "!timeout"
    assert GAME.outcome(state) is None and not state.forfeited


def test_timeout_after_placing_keeps_the_tiles_and_counts_as_a_placement() -> None:
    state = play(base(), "O4@F4")
    state, _ = GAME.on_timeout(state)
    assert state.board[sq("F4")] == ("O4",) and state.to_act == 1 and state.idle_turns == 0


def test_timeout_over_the_limits_discards_lowest_tiles_and_last_cards() -> None:
    state = with_hand(base(), 0, "O2 O5 B2 B3 P4 P5 P5", ("P-I3", "B-T4", "P-O4"))
    state = replace(state, bag=("P1", "B4", "O3", "O1"), bag_size=4)
    state = play(state, "tiles", "end")
    assert state.phase == DISCARD and state.tile_counts[0] == 10
    state, events = GAME.on_timeout(state)
    assert state.to_act == 1 and state.tiles[0] == ("O3", "O5", "B3", "B4", "P4", "P5", "P5")
    assert [e.text for e in events if "discarded" in e.text] == [
        "discarded P1 into the bag",
        "discarded O2 into the bag",
        "discarded B2 into the bag",
    ]
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
        ("O4@F4", TileUpMove("place", "O4", sq("F4"))),
        ("o4 f4", TileUpMove("place", "O4", sq("F4"))),
        (" O4 @ f4 ", TileUpMove("place", "O4", sq("F4"))),
        ("draw", TileUpMove("tiles")),
        ("Draw Goal", TileUpMove("goal")),
    ],
)
def test_relaxed_notation(text: str, move: TileUpMove) -> None:
    assert GAME.parse_move(base(), text) == move


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("score 2", TileUpMove("score", card=2)),
        ("2@e6", TileUpMove("score", card=2, square=sq("E6"))),
        ("discard card 4", TileUpMove("discard_goal", card=4)),
        ("discard 4", TileUpMove("discard_goal", card=4)),
        ("discard p5", TileUpMove("discard", "P5")),
        ("done", TileUpMove("end")),
        ("card", TileUpMove("goal")),
    ],
)
def test_relaxed_notation_syntax(text: str, move: TileUpMove) -> None:
    assert parse_text(text) == move


def test_syntax_errors_quote_the_input() -> None:
    for text in ("hello", "X4@F4", "O4@Z9", "score two", "discard", ""):
        with pytest.raises(InvalidMoveError) as error:
            GAME.parse_move(base(), text)
        assert f"`{text}`" in str(error.value)
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
    assert seen.bag is None and seen.deck is None and seen.seed is None
    assert seen.bag_size == state.bag_size and seen.deck_size == state.deck_size
    assert GAME.hand(seen, 0) is None and GAME.hand(GAME.view(state, None), 1) is None


def test_describe_names_the_step_counts_and_face_up_cards() -> None:
    text = GAME.describe(base(), NAMES)
    assert "Ann: take one action" in text
    assert "Ben 3 tiles/1 cards" in text
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


def conserved(state: TileUpState) -> None:
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


def random_game(players: int, seed: int, steps: int) -> list[tuple[TileUpState, Any, Any]]:
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
        if state.phase == DISCARD:
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

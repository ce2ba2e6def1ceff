"""Geronimos rules tests: the examples of the rule text and the rules file, and properties."""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.ai import greedy_states
from games.core import Event, EventKind, event_phrase, outcome_phrase
from games.errors import IllegalMoveError, InvalidMoveError, InvalidOptionsError, RecordError
from games.geronimos import GAME, Move, Options, State
from games.geronimos.cards import ALL_CARDS, LEADER, SIDES, laid, unlaid
from games.geronimos.hexgrid import DIRECTIONS, distance, full_rings, neighbour, neighbours, ring
from games.geronimos.rules import contacts, frontier, number_matches, placed_piece
from games.geronimos.state import BONUS, DISCARD, STOP, Piece
from games.records import Record, replay

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")

H = (0, 0)
FILL = ["123456", "132456", "142356", "152346", "162345", "124356", "125346", "126345"]


def drew(seat: int, card: str, reason: str = "draw") -> Event:
    """The event of ``seat`` drawing ``card`` (a turn card, or a bonus card)."""
    return Event(EventKind.DRAW, seat=seat, count=1, subject=card, reason=reason)


def reasons(events: tuple[Event, ...]) -> list[str]:
    return [event.reason for event in events]


def new(deal: list[list[str]], **options: object) -> State:
    return GAME.new(2, Options.from_dict(options), seed=1, deal=deal)


def play(state: State, text: str) -> tuple[State, tuple[Event, ...]]:
    return GAME.apply(state, GAME.parse_move(state, text))


def piece(text: str, owner: int) -> Piece:
    if text == LEADER:
        return Piece(LEADER, 0, owner)
    card, rotation = unlaid(text)
    return Piece(card, rotation, owner)


def position(
    pieces: dict[tuple[int, int], tuple[str, int]],
    drawn: str,
    *,
    turn: int = 0,
    bags: tuple[tuple[str, ...], tuple[str, ...]] = (("142563",), ("142563",)),
    table: str = "rings",
    bonus_left: int = 0,
    bonus: str = "optional",
) -> State:
    """A mid-game position: ``pieces`` maps cells to (laid text or L, owner)."""
    board = tuple(sorted((cell, (piece(text, owner),)) for cell, (text, owner) in pieces.items()))
    return State(
        options=Options(table=table, bonus=bonus),
        seed=0,
        bags=bags,
        board=board,
        turn=turn,
        drawn=drawn,
        bonus_left=bonus_left,
        opening=False,
    )


def showing(side: int, number: int, base: str) -> str:
    """``base`` laid so that the side of the neighbour across ``side`` of H shows ``number``."""
    for rotation in range(6):
        if SIDES[base, rotation][(side + 3) % 6] == number:
            return laid(base, rotation)
    raise AssertionError


Pieces = dict[tuple[int, int], tuple[str, int]]


def ring_around(hole_card: str, sides: dict[int, int], rotation: int = 0) -> Pieces:
    """Number cards around H matching ``hole_card`` laid in ``rotation`` on the given sides,
    owned as ``sides[side]`` says."""
    target = SIDES[hole_card, rotation]
    return {
        neighbour(H, side): (showing(side, target[side], FILL[side + 1]), owner)
        for side, owner in sides.items()
    }


# -- cards and geometry ---------------------------------------------------------------------------


def test_there_are_120_distinct_cards_named_from_the_single_dot() -> None:
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 120
    assert all(card[0] == "1" and sorted(card) == list("123456") for card in ALL_CARDS)


def test_rotation_puts_the_single_dot_on_that_side() -> None:
    assert laid("153264", 5) == "532641"
    assert unlaid("532641") == ("153264", 5)
    for rotation in range(6):
        assert SIDES["153264", rotation][rotation] == 1


def test_sides_touch_their_opposites() -> None:
    for side in range(6):
        back = neighbour(neighbour(H, side), (side + 3) % 6)
        assert back == H
    assert DIRECTIONS[0] == (1, -1)  # top-right


def test_rings() -> None:
    assert [len(list(ring(n))) for n in range(4)] == [1, 6, 12, 18]
    assert all(distance(cell) == 2 for cell in ring(2))
    assert full_rings([H, *neighbours(H)]) == 1
    assert full_rings([H, (1, 0)]) == 0
    assert full_rings([(1, 0)]) == -1


# -- the start ------------------------------------------------------------------------------------


def test_figure_2_blue_first_number_5_beats_red_6() -> None:
    state = new([["153264", "124356"], ["162345", "124356"]])
    assert state.first == 0
    assert state.tops[H] == Piece("153264", 0, 0)
    assert GAME.to_act(state) == 1 and state.drawn == "162345"
    assert GAME.hand(state, 1) == ("162345",) and GAME.hand(state, 0) == ()
    story = GAME.describe(state, NAMES)
    assert "Ann (Blue) draws 153264, Ben (Red) draws 162345." in story
    assert "Ann's numbers after the single dot are lower, so Ann lays first. Ann lays 153264@0,0." in story


def test_red_lays_first_with_the_lower_card() -> None:
    state = new([["162345", "124356"], ["153264", "124356"]])
    assert state.first == 1 and state.tops[H].owner == 1 and GAME.to_act(state) == 0


def test_equal_first_numbers_compare_the_next() -> None:
    state = new([["152436", "124356"], ["152346", "124356"]])
    assert state.first == 1  # 5 = 5, then 2 = 2, then 3 < 4
    state = new([["156432", "124356"], ["156423", "124356"]])
    assert state.first == 1  # 5 6 4 = 5 6 4, then 2 < 3


def test_identical_cards_go_back_and_both_draw_again() -> None:
    state = new([["153264", "162345", "124356"], ["153264", "154326", "124356"]])
    assert state.first == 1  # the redraw: 162345 against 154326
    assert state.tops[H].card == "154326" and state.drawn == "162345"
    assert state.bags[0] == ("124356", "153264") and state.bags[1] == ("124356", "153264")
    assert state.start_draws == (("153264", "153264"), ("162345", "154326"))
    assert "Identical cards: both go back into the bags and both draw again." in GAME.describe(state, NAMES)


def test_two_leaders_go_back_and_both_draw_again() -> None:
    state = new([["L", "153264"], ["L", "162345"]])
    assert state.first == 0 and state.drawn == "162345"
    assert state.bags == (("L",), ("L",))
    assert "Two Leaders: both go back" in GAME.describe(state, NAMES)


def test_one_leader_the_opponent_lays_first() -> None:
    state = new([["L", "124356"], ["165432", "124356"]])
    assert state.first == 1 and state.tops[H].card == "165432"
    assert state.drawn == LEADER and GAME.to_act(state) == 0
    assert "Ann drew a Leader, so Ben lays first." in GAME.describe(state, NAMES)


def test_seeded_redraw_reshuffles_reproducibly() -> None:
    for seed in range(300):
        state = GAME.new(2, Options(bag=20, leaders=6), seed=seed)
        if len(state.start_draws) > 1:
            assert GAME.new(2, Options(bag=20, leaders=6), seed=seed) == state
            assert sum(map(len, state.bags)) == 2 * 26 - 2
            return
    pytest.fail("no seed needed a redraw")


def test_second_card_is_laid_next_to_the_first_matching_it() -> None:
    state = new([["153264", "124356"], ["162345", "124356"]])
    moves = GAME.legal_moves(state)
    assert len(moves) == 6  # one rotation per neighbour of 0,0
    assert all(move.cell in neighbours(H) and not move.stack for move in moves)
    for move in moves:
        assert move.cell is not None
        assert number_matches(state.tops, move.cell, placed_piece(move, 1)) == 1
    after, events = play(state, "@1,0")
    assert GAME.to_act(after) == 0 and after.drawn == "124356"
    assert not after.opening and after.bonus_left == 0
    assert drew(0, "124356") in events


def test_a_leader_start_card_goes_next_to_the_first_not_on_it() -> None:
    state = new([["L", "124356"], ["165432", "124356"]])
    moves = GAME.legal_moves(state)
    assert sorted(move.cell for move in moves if move.cell) == sorted(neighbours(H))
    with pytest.raises(IllegalMoveError, match="next to the first card"):
        GAME.parse_move(state, "L@0,0^")


# -- placing a card ----------------------------------------------------------------------------


def test_every_touching_side_must_match_and_two_contacts_are_needed() -> None:
    state = new([["153264", "124356"], ["162345", "124356"]])
    state, _ = play(state, "@1,0")
    for move in GAME.legal_moves(state):
        assert move.cell is not None
        touching = contacts(state.tops, move.cell)
        assert len(touching) >= 2 or distance(move.cell) == 1  # outside of the full ring 0
        assert number_matches(state.tops, move.cell, placed_piece(move, 0)) == len(touching)


def test_outside_of_a_full_ring_one_contact_is_enough_only_there() -> None:
    state = new([["153264", "124356"], ["162345", "124356"]])
    state, _ = play(state, "@1,0")
    ring_two = [move for move in GAME.legal_moves(state) if move.cell and distance(move.cell) == 2]
    assert ring_two == []
    touching = state.tops[(1, 0)].sides
    assert touching is not None
    fitting = next(laid("124356", r) for r in range(6) if SIDES["124356", r][4] == touching[1])
    with pytest.raises(IllegalMoveError, match="touches just one card"):
        GAME.parse_move(state, f"{fitting}@2,0")


def test_open_table_allows_one_contact_anywhere() -> None:
    state = new([["153264", "124356"], ["162345", "124356"]], table="open")
    state, _ = play(state, "@1,0")
    ring_two = [move for move in GAME.legal_moves(state) if move.cell and distance(move.cell) == 2]
    assert ring_two


def test_figure_4_leader_in_a_cove_the_real_cards_must_match() -> None:
    pieces = ring_around("123456", {0: 1, 2: 1})
    pieces[neighbour(H, 1)] = (LEADER, 1)
    state = position(pieces, "123456")
    at_hole = [move for move in GAME.legal_moves(state) if move.cell == H]
    assert at_hole == [Move.place("123456", H)]  # side 1 (against the Leader) may show any number
    assert GAME.parse_move(state, "@0,0") == Move.place("123456", H)
    with pytest.raises(IllegalMoveError, match="side"):
        GAME.parse_move(state, "612345@0,0")


def test_next_to_leaders_only_any_rotation_fits() -> None:
    state = position({(1, 0): (LEADER, 1), (0, 1): (LEADER, 0)}, "123456")
    assert len([move for move in GAME.legal_moves(state) if move.cell == H]) == 6
    with pytest.raises(IllegalMoveError, match="in 6 ways"):
        GAME.parse_move(state, "@0,0")


def test_a_card_may_not_sit_on_its_own() -> None:
    state = position({(1, 0): (LEADER, 1), (0, 1): (LEADER, 0)}, "123456")
    with pytest.raises(IllegalMoveError, match="not next to the table"):
        GAME.parse_move(state, "123456@5,5")


def test_leader_goes_next_to_any_card_or_on_top_of_any_card() -> None:
    state = position({H: ("123456", 0), (1, 0): ("132456", 1)}, LEADER)
    moves = GAME.legal_moves(state)
    assert Move.place(LEADER, H, True) in moves and Move.place(LEADER, (1, 0), True) in moves
    assert Move.place(LEADER, (5, 0)) not in moves
    assert len([move for move in moves if not move.stack]) == len(frontier(state.tops))
    assert GAME.parse_move(state, "L@0,0^") == Move.place(LEADER, H, True)
    assert GAME.parse_move(state, "l@0,0") == Move.place(LEADER, H, True)  # relaxed: ^ implied


def test_discard_only_when_the_card_fits_nowhere() -> None:
    state = position({(3, 0): (LEADER, 0), (-3, 0): (LEADER, 1)}, "123456")
    assert GAME.legal_moves(state) == [DISCARD]
    assert GAME.forced_move(state) == DISCARD  # the session plays it by itself
    after, events = GAME.apply(state, DISCARD)
    assert after.discards[0] == ("123456",)
    assert Event(EventKind.DISCARD, seat=0, subject="123456", reason="discard") in events
    assert event_phrase(GAME, events[0], NAMES) == "discards 123456: it fits nowhere"
    playable = position({(1, 0): (LEADER, 1), (0, 1): (LEADER, 0)}, "123456")
    assert GAME.forced_move(playable) is None
    with pytest.raises(IllegalMoveError, match="must be played"):
        GAME.parse_move(playable, "discard")


# -- bonus moves ----------------------------------------------------------------------------------
# The rule text: "if the current player matches three numbers on their turn, they *may*
# immediately draw one additional card from their bag and immediately play it as a bonus move";
# 4, 5 and 6 matches earn 2, 3 and 4 cards. By default each bonus card is offered (`bonus` draws
# it, `stop` declines the rest); the option bonus=compulsory draws them all at once.


def test_three_matching_numbers_offer_one_bonus_card() -> None:
    state = position(ring_around("123456", {0: 1, 1: 1, 2: 0}), "123456", bags=(("142563", "L"), ("L",)))
    after, events = play(state, "123456@0,0")
    assert Event(EventKind.BONUS, seat=0, count=1, subject="3", reason="bonus") in events
    assert event_phrase(GAME, events[-1], NAMES) == "matches 3 numbers: 1 bonus card"
    assert GAME.to_act(after) == 0 and after.deciding and after.drawn == "" and after.bonus_left == 1
    assert GAME.legal_moves(after) == [BONUS, STOP]
    assert GAME.hand(after, 0) == ()
    offer = "Ann may draw a bonus card: `bonus` draws the next, `stop` ends the turn."
    assert offer in GAME.describe(after, NAMES)
    assert GAME.continues_turn(state, after)  # the turn clock runs on
    assert GAME.forced_move(after) is None  # a choice, not a forced move
    drawn, events = play(after, "bonus")
    assert events == (drew(0, "142563", "bonus_draw"),)
    assert event_phrase(GAME, events[0], NAMES) == "draws bonus card 142563"
    assert GAME.to_act(drawn) == 0 and drawn.drawn == "142563" and drawn.bonus_left == 0 and drawn.bonus_card
    assert "Ann must play the bonus card: 142563." in GAME.describe(drawn, NAMES)
    assert GAME.continues_turn(after, drawn)
    ended, _ = GAME.apply(drawn, GAME.legal_moves(drawn)[0])
    assert GAME.to_act(ended) == 1 and ended.drawn == LEADER and not ended.bonus_card
    assert not GAME.continues_turn(drawn, ended)


def test_stop_declines_the_bonus_card_and_ends_the_turn() -> None:
    state = position(ring_around("123456", {0: 1, 1: 1, 2: 0}), "123456", bags=(("142563", "L"), ("L",)))
    after, _ = play(state, "123456@0,0")
    stopped, events = play(after, "stop")
    assert events[0] == Event(EventKind.PASS, seat=0, count=1, reason="bonus_declined")
    assert event_phrase(GAME, events[0], NAMES) == "declines 1 bonus card"
    assert drew(1, "L") in events
    assert GAME.to_act(stopped) == 1 and stopped.bags[0] == ("142563", "L")  # the bonus card stays
    assert stopped.bonus_left == 0 and not GAME.continues_turn(after, stopped)
    assert GAME.parse_move(after, "done") == STOP and GAME.parse_move(after, " Bonus ") == BONUS


@pytest.mark.parametrize(("sides", "bonus"), [(4, 2), (5, 3), (6, 4)])
def test_four_five_six_matches_earn_two_three_four_cards(sides: int, bonus: int) -> None:
    owners = {side: side % 2 for side in range(sides)}  # mixed owners: no surround
    bags = (("142563", "153246", "L", "L"), ("L",))
    state = position(ring_around("123456", owners), "123456", bags=bags)
    after, events = play(state, "123456@0,0")
    assert Event(EventKind.BONUS, seat=0, count=bonus, subject=str(sides), reason="bonus") in events
    assert GAME.to_act(after) == 0 and after.deciding and after.bonus_left == bonus
    drawn, _ = play(after, "bonus")
    assert drawn.drawn == "142563" and drawn.bonus_left == bonus - 1
    placed, _ = GAME.apply(drawn, GAME.legal_moves(drawn)[0])
    assert placed.deciding and placed.turn == 0  # offered again, one card at a time
    stopped, events = play(placed, "stop")
    assert Event(EventKind.PASS, seat=0, count=placed.bonus_left, reason="bonus_declined") in events
    assert GAME.to_act(stopped) == 1


@pytest.mark.parametrize(("sides", "bonus"), [(3, 1), (4, 2), (5, 3), (6, 4)])
def test_compulsory_bonus_cards_are_drawn_at_once(sides: int, bonus: int) -> None:
    owners = {side: side % 2 for side in range(sides)} if sides > 3 else {0: 1, 1: 1, 2: 0}
    bags = (("142563", "153246", "L", "L"), ("L",))
    state = position(ring_around("123456", owners), "123456", bags=bags, bonus="compulsory")
    after, events = play(state, "123456@0,0")
    assert Event(EventKind.BONUS, seat=0, count=bonus, subject=str(sides), reason="bonus") in events
    assert drew(0, "142563", "bonus_draw") in events
    assert GAME.to_act(after) == 0 and after.drawn == "142563" and after.bonus_left == bonus - 1
    assert after.bonus_card and not after.deciding and GAME.continues_turn(state, after)
    assert not {BONUS, STOP} & set(GAME.legal_moves(after))


def test_a_discarded_bonus_card_still_leaves_the_rest_on_offer() -> None:
    far = {(3, 0): (LEADER, 0), (-3, 0): (LEADER, 1)}
    state = position(far, "123456", bags=(("L",), ("L",)), bonus_left=1)
    state = replace(state, bonus_card=True)
    after, events = GAME.apply(state, DISCARD)
    assert reasons(events) == ["discard"] and after.deciding and after.bonus_left == 1


def test_no_bonus_offer_when_the_bag_is_empty() -> None:
    state = position(ring_around("123456", {0: 1, 1: 1, 2: 0}), "123456", bags=((), ("L",)))
    after, events = play(state, "123456@0,0")
    assert Event(EventKind.INFO, seat=0, count=1, reason="bonus_bag_empty") in events
    assert GAME.to_act(after) == 1 and not after.deciding


def test_leader_contacts_do_not_count_for_the_bonus() -> None:
    pieces = ring_around("123456", {0: 1, 1: 1})
    pieces[neighbour(H, 2)] = (LEADER, 0)
    state = position(pieces, "123456")
    after, events = play(state, "123456@0,0")
    assert not any(event.kind == EventKind.BONUS for event in events)
    assert GAME.to_act(after) == 1


def test_bonus_cards_earn_bonuses_of_their_own() -> None:
    # a bonus card laid with three matches earns one more card, on top of the one still on offer
    pieces = ring_around("123456", {0: 1, 1: 1, 2: 0})
    state = position(pieces, "123456", bags=(("L", "L"), ("L",)), bonus_left=1)
    after, _ = play(state, "123456@0,0")
    assert after.deciding and after.bonus_left == 2
    compulsory = position(pieces, "123456", bags=(("L", "L"), ("L",)), bonus_left=1, bonus="compulsory")
    after, _ = play(compulsory, "123456@0,0")
    assert after.drawn == LEADER and after.bonus_left == 1


def test_bonus_and_stop_only_while_deciding() -> None:
    state = position({(1, 0): (LEADER, 1), (0, 1): (LEADER, 0)}, "123456")
    for text in ("bonus", "stop"):
        with pytest.raises(IllegalMoveError, match="no bonus card on offer"):
            GAME.parse_move(state, text)
    deciding = position(ring_around("123456", {0: 1, 1: 1, 2: 0}), "", bags=(("L",), ("L",)), bonus_left=2)
    assert deciding.deciding and GAME.legal_moves(deciding) == [BONUS, STOP]
    for text in ("@1,0", "L@5,5", "discard"):
        with pytest.raises(IllegalMoveError, match="first decide on your bonus card"):
            GAME.parse_move(deciding, text)
    with pytest.raises(IllegalMoveError, match="2 bonus cards, one at a time"):
        GAME.apply(deciding, DISCARD)
    assert [GAME.format_move(deciding, move) for move in GAME.legal_moves(deciding)] == ["bonus", "stop"]
    assert GAME.move_label(deciding, STOP) == "stop · decline 2 bonus cards"


def test_the_computer_takes_a_bonus_card_unless_it_must_lose_with_it() -> None:
    state = position(ring_around("123456", {0: 1, 1: 1, 2: 0}), "", bags=(("L", "L"), ("L",)), bonus_left=1)
    assert GAME.rank_moves(state, GAME.legal_moves(state)) == [BONUS, STOP]
    # a hole ringed by six Red cards, and a Blue card that fits only there: it would be surrounded
    doomed = "123465"
    ring = ring_around(doomed, dict.fromkeys(range(6), 1))
    assert {move.cell for move in GAME.legal_moves(position(ring, doomed))} == {H}
    state = position(ring, "", bags=((doomed,), ("L",)), bonus_left=1)
    assert GAME.move_gain(state, BONUS) < GAME.move_gain(state, STOP)
    assert GAME.rank_moves(state, GAME.legal_moves(state)) == [STOP, BONUS]
    taken, _ = play(state, "bonus")
    lost, _ = GAME.apply(taken, GAME.legal_moves(taken)[0])
    outcome = GAME.outcome(lost)
    assert outcome is not None and outcome.winners == (1,)


def test_evaluate_counts_bonus_cards_until_they_are_played() -> None:
    state = position(ring_around("123456", {0: 1, 1: 1, 2: 0}), "", bags=(("L", "L"), ("L",)), bonus_left=2)
    drawn, _ = play(state, "bonus")
    stopped, _ = play(state, "stop")
    assert GAME.evaluate(drawn, 0) == GAME.evaluate(state, 0) > GAME.evaluate(stopped, 0)


# -- stacking -------------------------------------------------------------------------------------


def test_stack_on_the_opponents_identical_card_in_the_same_rotation() -> None:
    state = position({H: ("123456", 1), (1, 0): (LEADER, 0)}, "123456")
    assert Move.place("123456", H, True) in GAME.legal_moves(state)
    after, events = play(state, "123456@0,0^")
    assert after.stacks[H] == (Piece("123456", 0, 1), Piece("123456", 0, 0))
    assert after.tops[H].owner == 0  # only the top card counts
    assert GAME.scores(after) == (2, 0)
    assert Event(EventKind.SCORE, seat=1, points=-1, other=0, subject="123456", reason="covered") in events
    assert event_phrase(GAME, events[1], NAMES) == "has 123456 covered by Ann −1"
    with pytest.raises(IllegalMoveError, match="same rotation"):
        GAME.parse_move(state, "612345@0,0^")


def test_never_stack_on_your_own_card() -> None:
    state = position({H: ("123456", 0), (1, 0): (LEADER, 1)}, "123456")
    assert not [move for move in GAME.legal_moves(state) if move.stack]
    with pytest.raises(IllegalMoveError, match="your own"):
        GAME.parse_move(state, "123456@0,0^")


def test_only_the_top_card_counts_for_stacking() -> None:
    state = position({H: ("123456", 1)}, LEADER)
    state, _ = play(state, "L@0,0^")
    state = replace(state, turn=1, drawn="123456")
    # Red's own card lies under Blue's Leader: nothing to stack on
    assert not [move for move in GAME.legal_moves(state) if move.stack]


# -- winning --------------------------------------------------------------------------------------


def surround_position(bonus_left: int) -> State:
    pieces = dict.fromkeys(neighbours(H)[1:], (LEADER, 0))
    pieces[H] = ("123456", 1)
    return position(pieces, LEADER, bags=(("L", "L"), ("L", "L")), bonus_left=bonus_left)


def test_surrounding_an_enemy_card_wins_at_once_even_with_a_turn_left() -> None:
    state = surround_position(bonus_left=2)
    after, events = play(state, "L@1,-1")
    assert GAME.to_act(after) is None and after.surrounded == H
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and outcome.ranks == (1, 2)
    assert outcome.reason == "surrounded" and outcome.reason_seat == 0
    assert outcome_phrase(GAME, outcome, NAMES) == "Ann surrounded an enemy card"
    assert events[-1] == Event(EventKind.GAME_END, seat=0, other=1, subject="0,0", reason="surround")
    assert event_phrase(GAME, events[-1], NAMES) == "surrounds Ben's card at 0,0 and wins"
    assert "Game over: Ann surrounded an enemy card." in GAME.describe(after, NAMES)
    assert GAME.legal_moves(after) == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.parse_move(after, "discard")


def test_laying_into_a_hole_ringed_by_enemy_cards_loses() -> None:
    pieces = dict.fromkeys(neighbours(H), (LEADER, 1))
    state = position(pieces, LEADER)
    after, _ = play(state, "L@0,0")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (1,)


def test_move_gain_sees_the_win() -> None:
    state = surround_position(bonus_left=0)
    best = GAME.rank_moves(state, GAME.legal_moves(state))[0]
    assert best == Move.place(LEADER, (1, -1))
    assert "WINS" in GAME.move_label(state, best)


# -- the end by empty bags -----------------------------------------------------------------------


def test_bags_empty_most_cards_around_one_enemy_card_wins() -> None:
    pieces = {H: ("123456", 1), (1, -1): (LEADER, 0), (1, 0): (LEADER, 0)}
    state = position(pieces, LEADER, bags=((), ()))
    after, events = play(state, "L@0,1")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "most_around"
    assert events[-1] == Event(EventKind.GAME_END, seat=0, other=1, count=3, reason="bags_siege")
    words = event_phrase(GAME, events[-1], NAMES)
    assert words == "wins with 3 cards around one enemy card: both bags are empty"


def test_bags_empty_then_most_top_cards() -> None:
    state = position({H: (LEADER, 0), (1, 0): (LEADER, 1)}, LEADER, bags=((), ()))
    after, _ = play(state, "L@-1,0")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (2, 1)


def test_bags_empty_all_equal_is_a_draw() -> None:
    state = position({(3, 0): (LEADER, 0), (-3, 0): (LEADER, 1)}, "123456", bags=((), ()))
    after, _ = GAME.apply(state, DISCARD)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.ranks == (1, 1) and outcome.is_draw


def test_when_one_bag_is_empty_the_other_plays_on() -> None:
    state = position({(1, 0): (LEADER, 1), (0, 1): (LEADER, 0)}, LEADER, bags=(("L",), ()))
    after, events = play(state, "L@0,0")
    assert GAME.to_act(after) == 0 and after.drawn == LEADER
    assert Event(EventKind.INFO, seat=1, other=0, reason="bag_empty") in events
    assert event_phrase(GAME, events[-2], NAMES) == "has an empty bag, so Ann plays on"
    assert not GAME.continues_turn(state, after)  # a new turn of the same seat: a fresh clock


def test_resign_the_other_wins() -> None:
    state = GAME.new(2, seed=3)
    after, events = GAME.resign(state, 0)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.ranks == (2, 1) and outcome.forfeited == frozenset({0})
    assert reasons(events) == ["resigned", "last_standing"]
    assert outcome_phrase(GAME, outcome, NAMES) == "Ben is the last player left"
    with pytest.raises(IllegalMoveError):
        GAME.resign(after, 1)


def test_running_out_of_time_forfeits() -> None:
    state = GAME.new(2, seed=3)
    seat = GAME.to_act(state)
    assert seat is not None
    after, events = GAME.on_timeout(state)
    assert events[0] == Event(EventKind.FORFEIT, seat=seat, reason="forfeit")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (1 - seat,) and outcome.forfeited == frozenset({seat})


# -- notation, options, views ---------------------------------------------------------------------


def test_notation_errors_quote_the_input_and_say_what_fits() -> None:
    state = new([["153264", "124356"], ["162345", "124356"]])
    with pytest.raises(InvalidMoveError, match="`hello`"):
        GAME.parse_move(state, "hello")
    with pytest.raises(InvalidMoveError, match="each number 1 to 6"):
        GAME.parse_move(state, "112345@1,0")
    with pytest.raises(IllegalMoveError, match="card you must play is 162345"):
        GAME.parse_move(state, "123456@1,0")
    with pytest.raises(IllegalMoveError, match="not a Leader"):
        GAME.parse_move(state, "L@1,0")
    with pytest.raises(IllegalMoveError, match="162345 fits at:"):
        GAME.parse_move(state, "@4,4")
    with pytest.raises(IllegalMoveError, match="drop the"):
        GAME.parse_move(state, "@1,0^")


def test_relaxed_forms() -> None:
    state = new([["153264", "124356"], ["162345", "124356"]])
    move = GAME.legal_moves(state)[0]
    text = GAME.format_move(state, move)
    assert GAME.parse_move(state, f"  {text.replace('@', ' @ ')} ") == move
    assert GAME.parse_move(state, f"@{text.split('@')[1]}") == move


def test_options_are_validated() -> None:
    with pytest.raises(InvalidOptionsError):
        Options(bag=10)
    with pytest.raises(InvalidOptionsError):
        Options(leaders=7)
    with pytest.raises(InvalidOptionsError):
        Options(table="square")
    with pytest.raises(InvalidOptionsError):
        Options(bonus="sometimes")
    with pytest.raises(InvalidOptionsError):
        GAME.new(3)
    with pytest.raises(InvalidOptionsError):
        GAME.new(2, deal=[["999999"], ["L"]])
    assert registry.get("geronimo") is GAME


def test_seeded_bags_are_identical_sets() -> None:
    state = GAME.new(2, Options(bag=30, leaders=2), seed=9)
    cards = [sorted([*bag, drawn]) for bag, drawn in zip(state.bags, _start_cards(state), strict=True)]
    assert cards[0] == cards[1] and len(cards[0]) == 32 and cards[0].count(LEADER) == 2


def _start_cards(state: State) -> tuple[str, str]:
    first = state.tops[H].card
    return (first, state.drawn) if state.first == 0 else (state.drawn, first)


def test_options_declare_their_choices_with_labels() -> None:
    specs = {spec.name: spec for spec in Options.specs()}
    assert specs["bonus"].default == "optional" and specs["bonus"].choices == ("optional", "compulsory")
    assert specs["table"].choices == ("rings", "open")
    for spec in specs.values():
        assert spec.help and all(choice in spec.labels for choice in spec.choices)
    assert (specs["bag"].low, specs["bag"].high) == (20, 120)
    assert (specs["leaders"].low, specs["leaders"].high) == (0, 6)
    assert Options.from_dict({"bonus": "compulsory"}).bonus == "compulsory"


def test_view_hides_the_order_of_the_bags_and_the_seed() -> None:
    state = GAME.new(2, seed=4)
    seen = GAME.view(state, None)
    assert seen.seed == 0 and state.seed == 4
    assert seen.bags == (tuple(sorted(state.bags[0])), tuple(sorted(state.bags[1])))
    assert seen.board == state.board and GAME.hand(seen, state.turn) == (state.drawn,)
    assert GAME.view(state, 0) == GAME.view(state, 1) == seen  # nothing is private to a seat


def test_determinize_draws_the_bag_orders_and_a_fresh_seed() -> None:
    states = greedy_states(GAME, 2, 3, plies=15)
    state = states[-1]
    seen = GAME.view(state, state.turn)
    guesses = [GAME.determinize(seen, state.turn, random.Random(n)) for n in range(5)]
    for guess in guesses:
        assert GAME.view(guess, state.turn) == seen
        assert [sorted(bag) for bag in guess.bags] == [sorted(bag) for bag in state.bags]
        assert guess.board == state.board and guess.drawn == state.drawn and guess.seed != 0
    assert len({guess.bags for guess in guesses}) == 5 and len({guess.seed for guess in guesses}) == 5
    assert GAME.determinize(seen, state.turn, random.Random(0)) == guesses[0]


@settings(max_examples=150, deadline=None)
@given(
    deal=st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-(10**30), 10**30)
        | st.text(max_size=8)
        | st.sampled_from(["L", "l", "153264", " 162345 ", "123456"]),
        lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
        max_leaves=30,
    )
)
def test_any_json_deal_is_accepted_or_refused_with_a_clear_error(deal: object) -> None:
    try:
        state = GAME.new(2, deal=deal)
    except InvalidOptionsError as error:
        assert str(error)
        return
    assert GAME.to_act(state) in (0, 1)


def test_a_deal_is_checked_strictly() -> None:
    for deal, message in (
        ({"blue": []}, "list of two bags"),
        ([["153264"], ["162345"], []], "list of two bags"),
        ([["153264", 7], ["162345"]], "list of card names"),
        ([["153264", ["L"]], ["162345"]], "list of card names"),
        ([["1532649" * 20], ["162345"]], "is not a card"),
        ([["153264", "153264"], ["162345"]], "holds a card twice"),
        ([["L"] * 5000, ["L"]], "at most 1000"),
        ([["L", "L"], ["L", "L"]], "could not be decided"),
        ([[], ["162345"]], "runs out of cards"),
    ):
        with pytest.raises(InvalidOptionsError, match=message):
            GAME.new(2, deal=deal)


# -- properties -----------------------------------------------------------------------------------


def check_invariants(state: State, total: tuple[int, int]) -> None:
    tops = state.tops
    for cell, top in tops.items():
        for side in range(6):
            other = tops.get(neighbour(cell, side))
            if top.sides and other is not None and other.sides:
                assert top.sides[side] == other.sides[(side + 3) % 6]
    for stack in state.stacks.values():
        for below, above in itertools.pairwise(stack):
            if not above.is_leader:
                assert below.owner != above.owner and below.card == above.card
    for seat in range(2):
        placed = sum(1 for stack in state.stacks.values() for p in stack if p.owner == seat)
        held = len(state.bags[seat]) + len(state.discards[seat]) + (state.drawn != "" and state.turn == seat)
        assert placed + held == total[seat]


def check_turn(state: State, moves: list[Move]) -> None:
    """What the seat to act may do matches the state: a decision, or its drawn card."""
    if state.deciding:
        assert moves == [BONUS, STOP] and state.bonus_left > 0 and state.bags[state.turn]
        assert state.options.bonus == "optional"
    else:
        assert not {BONUS, STOP} & set(moves) and state.drawn
    assert (GAME.forced_move(state) == DISCARD) == (moves == [DISCARD])


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    bag=st.integers(20, 60),
    leaders=st.integers(0, 6),
    table=st.sampled_from(["rings", "open"]),
    bonus=st.sampled_from(["optional", "compulsory"]),
)
def test_random_playouts_keep_the_invariants(
    seed: int, bag: int, leaders: int, table: str, bonus: str
) -> None:
    state = GAME.new(2, Options(bag=bag, leaders=leaders, table=table, bonus=bonus), seed=seed)
    total = (bag + leaders, bag + leaders)
    rng = random.Random(seed)
    score_sum = [1 if state.tops[H].owner == seat else 0 for seat in range(2)]
    while GAME.to_act(state) is not None:
        moves = GAME.legal_moves(state)
        assert len(set(moves)) == len(moves)
        check_turn(state, moves)
        move = rng.choice(moves)
        assert GAME.parse_move(state, GAME.format_move(state, move)) == move
        before = state
        state, events = GAME.apply(state, move)
        in_bonus = state.deciding or state.bonus_card
        assert GAME.continues_turn(before, state) == (state.turn == before.turn and in_bonus)
        for event in events:
            assert isinstance(event.kind, EventKind) and event.reason in GAME.phrases
            if event.kind == EventKind.SCORE and event.seat is not None:
                score_sum[event.seat] += event.points
        check_invariants(state, total)
    assert tuple(score_sum) == GAME.scores(state)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == GAME.scores(state)
    assert outcome.reason in GAME.phrases and outcome.reason_seat == state.winner


# -- further examples: contact rules, wins during bonus and stacking, tiebreaks -----------------------


def test_figure_3_a_card_matching_two_cards() -> None:
    pieces = ring_around("123456", {0: 1, 1: 0})
    state = position(pieces, "123456")
    move = GAME.parse_move(state, "@0,0")
    assert move == Move.place("123456", H)
    after, events = GAME.apply(state, move)
    assert not any(event.kind == "bonus" for event in events)  # 2 matches: no bonus
    assert GAME.to_act(after) == 1


def test_one_contact_only_on_the_outside_of_the_full_rings() -> None:
    pieces: Pieces = {cell: (LEADER, index % 2) for index, cell in enumerate([H, *neighbours(H)])}
    state = position(pieces, "123456")
    outside = [move for move in GAME.legal_moves(state) if move.cell and distance(move.cell) == 2]
    assert {move.cell for move in outside} == set(ring(2))  # rings 0 and 1 full: ring 2 is the outside
    del pieces[(1, 0)]
    state = position(pieces, "123456")
    cells = {move.cell for move in GAME.legal_moves(state)}
    assert (1, 0) in cells  # the hole in ring 1 touches six cards
    assert not {
        cell for cell in cells if cell and distance(cell) == 2 and len(contacts(state.tops, cell)) < 2
    }
    assert (2, -2) not in cells and (1, -2) in cells  # 2,-2 touches only 1,-1; 1,-2 touches two


def test_a_bonus_card_can_win() -> None:
    # Blue's 3-match at 0,0 earns a bonus card; the bonus Leader closes the ring round Red's 3,0
    target, gap = (3, 0), (4, 0)
    pieces = ring_around("123456", {1: 0, 2: 0, 3: 0})
    pieces.update(dict.fromkeys((cell for cell in neighbours(target) if cell != gap), (LEADER, 0)))
    pieces[target] = ("123456", 1)
    state = position(pieces, "123456", bags=(("L", "L"), ("L",)))
    after, events = play(state, "123456@0,0")
    assert Event(EventKind.BONUS, seat=0, count=1, subject="3", reason="bonus") in events
    after, _ = play(after, "bonus")
    assert GAME.to_act(after) == 0 and after.drawn == LEADER and not after.finished
    won, events = play(after, "L@4,0")
    outcome = GAME.outcome(won)
    assert outcome is not None and outcome.winners == (0,) and won.surrounded == target
    assert events[-1].kind == "game_end"


def test_stacking_takes_the_cell_and_can_win() -> None:
    # five Blue Leaders around Red's 0,0; Red's identical card on the sixth side is covered
    sixth = neighbour(H, 0)
    pieces: Pieces = dict.fromkeys(neighbours(H)[1:], (LEADER, 0))
    pieces[H] = ("123456", 1)
    pieces[sixth] = ("132456", 1)
    state = position(pieces, "132456")
    move = GAME.parse_move(state, "132456@1,-1")  # ^ implied on an occupied cell
    assert move == Move.place("132456", sixth, True)
    after, _ = GAME.apply(state, move)
    assert after.stacks[sixth] == (Piece("132456", 0, 1), Piece("132456", 0, 0))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and after.surrounded == H


def test_a_leader_laid_on_top_can_win() -> None:
    # Blue's Leader covers Red's card beside Red's 0,0: the sixth neighbour becomes Blue's
    pieces: Pieces = dict.fromkeys(neighbours(H), (LEADER, 0))
    pieces[H] = ("123456", 1)
    pieces[neighbour(H, 3)] = ("132456", 1)
    state = position(pieces, LEADER)
    after, _ = play(state, "L@-1,1^")
    assert after.stacks[(-1, 1)][-1] == Piece(LEADER, 0, 0)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and after.surrounded == H


def test_bags_empty_five_around_beats_four() -> None:
    blue_round = dict.fromkeys(neighbours(H)[:4], (LEADER, 0))
    red_card = {H: ("123456", 1)}
    far = (6, 0)
    red_round = dict.fromkeys(neighbours(far)[:5], (LEADER, 1))
    pieces: Pieces = {**blue_round, **red_card, far: (LEADER, 0), **red_round}
    state = position(pieces, LEADER, turn=1, bags=((), ()))
    after, events = play(state, "L@8,0")  # Red lays somewhere harmless; both bags are now empty
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == "most_around"
    assert events[-1] == Event(EventKind.GAME_END, seat=1, other=0, count=5, reason="bags_siege")
    assert "Ben has the most cards around one enemy card" in outcome_phrase(GAME, outcome, NAMES)


def test_bags_empty_equal_sieges_and_equal_tops_is_a_draw() -> None:
    pieces: Pieces = {H: (LEADER, 0), (1, 0): (LEADER, 1), (2, 0): (LEADER, 0), (0, 1): (LEADER, 1)}
    state = position(pieces, LEADER, turn=1, bags=((), ()))
    # Red covers its own Leader at 0,1: the counts stay 2 each, both best sieges stay 2
    after, events = play(state, "L@0,1^")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.is_draw and outcome.ranks == (1, 1)
    assert outcome.scores == (2, 2) and outcome.reason == "all_equal" and outcome.reason_seat is None
    assert events[-1] == Event(EventKind.GAME_END, count=2, reason="bags_draw")
    assert event_phrase(GAME, events[-1], NAMES).endswith("are equal: a draw")


# -- games stored before bonus cards became a choice ---------------------------------------------

RECORDS = Path(__file__).resolve().parent / "records"
OLD_RECORDS = sorted(RECORDS.glob("geronimos-before-bonus-choice-*.txt"))
MIGRATION = Path(__file__).resolve().parents[2] / "bot" / "migrations" / "0005_geronimos_bonus.sql"


def test_there_are_records_from_before_the_bonus_choice() -> None:
    assert len(OLD_RECORDS) == 2


@pytest.mark.parametrize("path", OLD_RECORDS, ids=[path.stem for path in OLD_RECORDS])
def test_records_from_before_the_bonus_choice_replay_the_same_with_compulsory_bonus(path: Path) -> None:
    """Records made on main before this change (bonus cards drawn at once), with the option the
    migration sets for stored games, replay to the same result, table and discards."""
    record = Record.from_text(path.read_text(encoding="utf-8"))
    assert "bonus" not in record.options
    expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    legacy = replace(record, options={**record.options, "bonus": "compulsory"})
    result = replay(legacy)
    final = result.final
    outcome = GAME.outcome(final)
    assert outcome is not None and len(legacy.moves) == expected["moves"]
    assert list(GAME.scores(final)) == expected["scores"]
    assert list(outcome.ranks) == expected["outcome"]["ranks"]
    assert list(outcome.winners) == expected["outcome"]["winners"]
    assert outcome.is_draw == expected["outcome"]["draw"]
    board = [[q, r, [list(piece) for piece in stack]] for (q, r), stack in final.board]
    assert board == expected["board"]
    assert [list(cards) for cards in final.discards] == expected["discards"]
    assert (list(final.surrounded) if final.surrounded else None) == expected["surrounded"]
    earned = [event for events in result.events for event in events if event.kind == EventKind.BONUS]
    assert earned, "the record has bonus cards"
    with pytest.raises(RecordError, match="first decide on your bonus card"):
        replay(record)  # under the new default the first bonus card is a choice


def test_the_migration_keeps_stored_games_on_compulsory_bonus_cards() -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL)")
    rows = [
        ("geronimos", '{"bag": 40, "leaders": 4, "table": "rings"}'),
        ("geronimos", '{"bag": 20, "bonus": "optional", "leaders": 0, "table": "open"}'),
        ("triominos", '{"target": 400}'),
    ]
    db.executemany("INSERT INTO games (game, options) VALUES (?, ?)", rows)
    db.executescript(MIGRATION.read_text(encoding="utf-8"))
    stored = [json.loads(text) for (text,) in db.execute("SELECT options FROM games ORDER BY id")]
    assert stored[0] == {"bag": 40, "leaders": 4, "table": "rings", "bonus": "compulsory"}
    assert stored[1]["bonus"] == "optional" and stored[2] == {"target": 400}
    assert Options.from_dict(stored[0]) == Options(bonus="compulsory")

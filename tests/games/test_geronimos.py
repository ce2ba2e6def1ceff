"""Geronimos rules tests: the examples of the rule text and the rules file, and properties."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.core import Event
from games.errors import IllegalMoveError, InvalidMoveError, InvalidOptionsError
from games.geronimos import GAME, Move, Options, State
from games.geronimos.cards import ALL_CARDS, LEADER, SIDES, laid, unlaid
from games.geronimos.hexgrid import DIRECTIONS, distance, full_rings, neighbour, neighbours, ring
from games.geronimos.rules import contacts, frontier, number_matches, placed_piece
from games.geronimos.state import DISCARD, Piece

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")

H = (0, 0)
FILL = ["123456", "132456", "142356", "152346", "162345", "124356", "125346", "126345"]


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
) -> State:
    """A mid-game position: ``pieces`` maps cells to (laid text or L, owner)."""
    board = tuple(sorted((cell, (piece(text, owner),)) for cell, (text, owner) in pieces.items()))
    return State(
        options=Options(table=table),
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
    assert "Blue lays first" in GAME.describe(state, NAMES)


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
    assert any("Identical cards" in line for line in state.start_log)


def test_two_leaders_go_back_and_both_draw_again() -> None:
    state = new([["L", "153264"], ["L", "162345"]])
    assert state.first == 0 and state.drawn == "162345"
    assert state.bags == (("L",), ("L",))
    assert any("Two Leaders" in line for line in state.start_log)


def test_one_leader_the_opponent_lays_first() -> None:
    state = new([["L", "124356"], ["165432", "124356"]])
    assert state.first == 1 and state.tops[H].card == "165432"
    assert state.drawn == LEADER and GAME.to_act(state) == 0
    assert "Blue drew a Leader, so Red lays first." in state.start_log


def test_seeded_redraw_reshuffles_reproducibly() -> None:
    for seed in range(300):
        state = GAME.new(2, Options(bag=20, leaders=6), seed=seed)
        if len(state.start_log) > 3:
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
    assert Event("draw", "Blue draws 124356", 0) in events


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
    assert at_hole == [Move("123456", H)]  # side 1 (against the Leader) may show any number
    assert GAME.parse_move(state, "@0,0") == Move("123456", H)
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
    assert Move(LEADER, H, True) in moves and Move(LEADER, (1, 0), True) in moves
    assert Move(LEADER, (5, 0)) not in moves
    assert len([move for move in moves if not move.stack]) == len(frontier(state.tops))
    assert GAME.parse_move(state, "L@0,0^") == Move(LEADER, H, True)
    assert GAME.parse_move(state, "l@0,0") == Move(LEADER, H, True)  # relaxed: ^ implied


def test_discard_only_when_the_card_fits_nowhere() -> None:
    state = position({(3, 0): (LEADER, 0), (-3, 0): (LEADER, 1)}, "123456")
    assert GAME.legal_moves(state) == [DISCARD]
    after, events = GAME.apply(state, DISCARD)
    assert after.discards[0] == ("123456",)
    assert any(event.kind == "pass" for event in events)
    playable = position({(1, 0): (LEADER, 1), (0, 1): (LEADER, 0)}, "123456")
    with pytest.raises(IllegalMoveError, match="must be played"):
        GAME.parse_move(playable, "discard")


# -- bonus moves ----------------------------------------------------------------------------------


def test_three_matching_numbers_earn_one_bonus_card() -> None:
    state = position(ring_around("123456", {0: 1, 1: 1, 2: 0}), "123456", bags=(("142563", "L"), ("L",)))
    after, events = play(state, "123456@0,0")
    assert Event("bonus", "3 matching numbers: 1 bonus card", 0) in events
    assert Event("draw", "Blue draws bonus card 142563", 0) in events
    assert GAME.to_act(after) == 0 and after.drawn == "142563" and after.bonus_left == 0
    assert after.bonus_card and "Blue must play the bonus card: 142563." in GAME.describe(after, NAMES)
    assert GAME.continues_turn(state, after)  # the turn clock runs on
    after, events = GAME.apply(after, GAME.legal_moves(after)[0])
    assert GAME.to_act(after) == 1 and after.drawn == LEADER and not after.bonus_card


@pytest.mark.parametrize(("sides", "bonus"), [(4, 2), (5, 3), (6, 4)])
def test_four_five_six_matches_earn_two_three_four_cards(sides: int, bonus: int) -> None:
    owners = {side: side % 2 for side in range(sides)}  # mixed owners: no surround
    bags = (("142563", "153246", "L", "L"), ("L",))
    state = position(ring_around("123456", owners), "123456", bags=bags)
    after, events = play(state, "123456@0,0")
    plural = "s" if bonus > 1 else ""
    assert Event("bonus", f"{sides} matching numbers: {bonus} bonus card{plural}", 0) in events
    assert GAME.to_act(after) == 0 and after.bonus_left == bonus - 1


def test_leader_contacts_do_not_count_for_the_bonus() -> None:
    pieces = ring_around("123456", {0: 1, 1: 1})
    pieces[neighbour(H, 2)] = (LEADER, 0)
    state = position(pieces, "123456")
    after, events = play(state, "123456@0,0")
    assert not any(event.kind == "bonus" for event in events)
    assert GAME.to_act(after) == 1


def test_bonus_cards_earn_bonuses_of_their_own() -> None:
    # a bonus card laid with three matches earns one more card
    pieces = ring_around("123456", {0: 1, 1: 1, 2: 0})
    state = position(pieces, "123456", bags=(("L", "L"), ("L",)), bonus_left=1)
    after, _ = play(state, "123456@0,0")
    assert after.drawn == LEADER and after.bonus_left == 1


# -- stacking -------------------------------------------------------------------------------------


def test_stack_on_the_opponents_identical_card_in_the_same_rotation() -> None:
    state = position({H: ("123456", 1), (1, 0): (LEADER, 0)}, "123456")
    assert Move("123456", H, True) in GAME.legal_moves(state)
    after, events = play(state, "123456@0,0^")
    assert after.stacks[H] == (Piece("123456", 0, 1), Piece("123456", 0, 0))
    assert after.tops[H].owner == 0  # only the top card counts
    assert GAME.scores(after) == (2, 0)
    assert Event("score", "card covered -1", 1, -1) in events
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
    state = State(**{**state.__dict__, "turn": 1, "drawn": "123456"})
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
    assert "Blue surrounded Red's card at 0,0" in outcome.reason
    assert events[-1].kind == "game_end"
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
    assert best == Move(LEADER, (1, -1))
    assert "WINS" in GAME.move_label(state, best)


# -- the end by empty bags -----------------------------------------------------------------------


def test_bags_empty_most_cards_around_one_enemy_card_wins() -> None:
    pieces = {H: ("123456", 1), (1, -1): (LEADER, 0), (1, 0): (LEADER, 0)}
    state = position(pieces, LEADER, bags=((), ()))
    after, _ = play(state, "L@0,1")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,)
    assert "3 cards around one enemy card" in outcome.reason


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
    assert any("Red's bag is empty" in event.text for event in events)
    assert not GAME.continues_turn(state, after)  # a new turn of the same seat: a fresh clock


def test_resign_the_other_wins() -> None:
    state = GAME.new(2, seed=3)
    after, _ = GAME.resign(state, 0)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.ranks == (2, 1) and outcome.forfeited == frozenset({0})


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


def test_view_hides_only_the_order_of_the_bags() -> None:
    state = GAME.new(2, seed=4)
    seen = GAME.view(state, None)
    assert seen.bags == (tuple(sorted(state.bags[0])), tuple(sorted(state.bags[1])))
    assert seen.board == state.board and GAME.hand(seen, state.turn) == (state.drawn,)


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


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    bag=st.integers(20, 60),
    leaders=st.integers(0, 6),
    table=st.sampled_from(["rings", "open"]),
)
def test_random_playouts_keep_the_invariants(seed: int, bag: int, leaders: int, table: str) -> None:
    state = GAME.new(2, Options(bag=bag, leaders=leaders, table=table), seed=seed)
    total = (bag + leaders, bag + leaders)
    rng = random.Random(seed)
    score_sum = [1 if state.tops[H].owner == seat else 0 for seat in range(2)]
    while GAME.to_act(state) is not None:
        moves = GAME.legal_moves(state)
        assert len(set(moves)) == len(moves)
        move = rng.choice(moves)
        assert GAME.parse_move(state, GAME.format_move(state, move)) == move
        state, events = GAME.apply(state, move)
        for event in events:
            if event.kind == "score" and event.seat is not None:
                score_sum[event.seat] += event.points
        check_invariants(state, total)
    assert tuple(score_sum) == GAME.scores(state)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == GAME.scores(state)


# -- further examples: contact rules, wins during bonus and stacking, tiebreaks -----------------------


def test_figure_3_a_card_matching_two_cards() -> None:
    pieces = ring_around("123456", {0: 1, 1: 0})
    state = position(pieces, "123456")
    move = GAME.parse_move(state, "@0,0")
    assert move == Move("123456", H)
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
    assert Event("bonus", "3 matching numbers: 1 bonus card", 0) in events
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
    assert move == Move("132456", sixth, True)
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
    after, _ = play(state, "L@8,0")  # Red lays somewhere harmless; both bags are now empty
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (1,)
    assert "5 cards around one enemy card (against 4)" in outcome.reason


def test_bags_empty_equal_sieges_and_equal_tops_is_a_draw() -> None:
    pieces: Pieces = {H: (LEADER, 0), (1, 0): (LEADER, 1), (2, 0): (LEADER, 0), (0, 1): (LEADER, 1)}
    state = position(pieces, LEADER, turn=1, bags=((), ()))
    # Red covers its own Leader at 0,1: the counts stay 2 each, both best sieges stay 2
    after, events = play(state, "L@0,1^")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.is_draw and outcome.ranks == (1, 1)
    assert outcome.scores == (2, 2) and "a draw" in outcome.reason
    assert events[-1] == Event("game_end", outcome.reason, None)

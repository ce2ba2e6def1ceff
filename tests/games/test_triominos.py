"""Tri-Ominos rules tests: the examples of the rule text and the rules file, and properties."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.core import Event
from games.errors import IllegalMoveError, InvalidMoveError, InvalidOptionsError
from games.triominos import GAME, Move, Options, State
from games.triominos.grid import Cell, cells_at, corner_parts, corners, neighbours, points_up
from games.triominos.rules import bonus, hand_size
from games.triominos.state import DRAW_MOVE, PASS_MOVE, PLACE
from games.triominos.tiles import LAID_TO_TILE, ROTATIONS, TILES, hand_total, total

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")

LOW = [t for t in TILES if total(t) <= 7 and len(set(t)) > 1]
"""Low tiles without a triple, to fill hands that must not open."""


# -- helpers -------------------------------------------------------------------------------------


def deal_for(hands: list[list[str]], well: list[str] = (), *, fill: list[str] | None = None) -> list[str]:  # type: ignore[assignment]
    """One round's order: each hand completed with unused low tiles, then the top of the well."""
    players = len(hands)
    size = hand_size(players)
    used = {LAID_TO_TILE[t] for hand in hands for t in hand} | {LAID_TO_TILE[t] for t in well}
    pool = [t for t in (fill if fill is not None else LOW) if t not in used]
    order: list[str] = []
    for hand in hands:
        extra = [pool.pop(0) for _ in range(size - len(hand))]
        order.extend([*hand, *extra])
    return [*order, *well]


def new(hands: list[list[str]], well: list[str] = (), **options: object) -> State:  # type: ignore[assignment]
    return GAME.new(len(hands), Options.from_dict(options), seed=1, deal=[deal_for(hands, well)])


def play(state: State, text: str) -> tuple[State, tuple[Event, ...]]:
    return GAME.apply(state, GAME.parse_move(state, text))


def points(events: tuple[Event, ...], seat: int | None = None) -> int:
    return sum(e.points for e in events if seat is None or e.seat == seat)


def consistent(board: dict[Cell, str], cell: Cell, laid: str) -> bool:
    """``laid`` on ``cell`` agrees with every tile already touching its corners."""
    for corner, digit in zip(corners(cell), laid, strict=True):
        for other in cells_at(corner):
            if other != cell and other in board:
                index = corners(other).index(corner)
                if board[other][index] != digit:
                    return False
    return True


def solve(cells: list[Cell], fixed: dict[Cell, str], avoid: set[str] = frozenset()) -> dict[Cell, str]:  # type: ignore[assignment]
    """A consistent board on ``cells``: ``fixed`` maps cells to tile names (any rotation); the other
    cells get distinct tiles not in ``avoid`` (backtracking)."""
    board: dict[Cell, str] = {}
    used: set[str] = set()
    order = sorted(cells, key=lambda c: (c not in fixed, c[1], c[0]))

    def step(index: int) -> bool:
        if index == len(order):
            return True
        cell = order[index]
        tiles = [fixed[cell]] if cell in fixed else [t for t in TILES if t not in avoid]
        for tile in tiles:
            if tile in used or (cell not in fixed and tile in fixed.values()):
                continue
            for laid in ROTATIONS[tile]:
                if consistent(board, cell, laid):
                    board[cell] = laid
                    used.add(tile)
                    if step(index + 1):
                        return True
                    del board[cell]
                    used.discard(tile)
        return False

    assert step(0), "no consistent board"
    return board


def position(
    board: dict[Cell, str],
    hands: list[list[str]],
    well: list[str] | None = None,
    turn: int = 0,
    **options: object,
) -> State:
    """A mid-round position: the board, the hands (names), the well (default: every other tile)."""
    placed = [LAID_TO_TILE[laid] for laid in board.values()]
    held = [LAID_TO_TILE[t] for hand in hands for t in hand]
    rest = [t for t in TILES if t not in placed and t not in held] if well is None else well
    start = GAME.new(len(hands), Options.from_dict(options), seed=3)
    return replace(
        start,
        board=tuple(board.items()),
        hands=tuple(tuple(sorted(LAID_TO_TILE[t] for t in hand)) for hand in hands),
        well=tuple(rest),
        opening=False,
        turn=turn,
        opener=0,
    )


def around(cell: Cell) -> set[Cell]:
    """Every cell sharing a corner with ``cell`` (itself excluded)."""
    return {c for corner in corners(cell) for c in cells_at(corner)} - {cell}


def placed_with(cells: list[Cell], target: Cell, tile: str) -> tuple[State, str]:
    """A position where ``cells`` are occupied and seat 1 holds ``tile`` which fits on ``target``;
    returns the state and the laid text to play."""
    board = solve([*cells, target], {target: tile})
    laid = board.pop(target)
    state = position(board, [[tile, "001"], ["002", "003"]])
    return state, f"{laid}@{target[0]},{target[1]}"


# -- tiles and geometry --------------------------------------------------------------------------


def test_tile_counts() -> None:
    assert len(TILES) == 56 == len(set(TILES))
    kinds = Counter(len(set(tile)) for tile in TILES)
    assert kinds == {1: 6, 2: 30, 3: 20}
    assert sum(total(tile) for tile in TILES) == 420
    by_total = Counter(total(tile) for tile in TILES)
    assert [by_total[n] for n in range(16)] == [1, 1, 2, 3, 4, 5, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1]


def test_tiles_are_chiral() -> None:
    assert "012" in TILES and "021" not in TILES
    assert LAID_TO_TILE["120"] == LAID_TO_TILE["201"] == "012"
    assert "021" not in LAID_TO_TILE and "102" not in LAID_TO_TILE
    assert ROTATIONS["444"] == ("444",)
    assert set(ROTATIONS["445"]) == {"445", "454", "544"}


def test_geometry() -> None:
    assert points_up((0, 0)) and not points_up((1, 0)) and not points_up((0, -1))
    assert neighbours((0, 0)) == ((-1, 0), (1, 0), (0, 1))
    assert neighbours((1, 0)) == ((0, 0), (2, 0), (1, -1))
    for cell in [(0, 0), (1, 0), (-3, 2), (4, -1)]:
        for other in neighbours(cell):
            assert len(set(corners(cell)) & set(corners(other))) == 2
            assert cell in neighbours(other)
        for corner in corners(cell):
            assert len(set(cells_at(corner))) == 6 and cell in cells_at(corner)
            assert all(corner in corners(c) for c in cells_at(corner))
        for index in range(3):
            edge, only, opposite = corner_parts(cell, index)
            assert set(edge) | {opposite} == set(neighbours(cell))
            assert len({cell, *edge, *only}) == 6


def test_hand_sizes_and_well() -> None:
    for players, size in [(2, 9), (3, 7), (4, 7), (5, 6), (6, 6)]:
        state = GAME.new(players, seed=4)
        assert [len(hand) for hand in state.hands] == [size] * players
        assert len(state.well) == 56 - players * size
        assert sorted([*state.well, *(t for hand in state.hands for t in hand)]) == sorted(TILES)


# -- opening -------------------------------------------------------------------------------------


def test_opening_with_444_scores_22() -> None:
    state = new([["444", "013"], ["023", "014"]], ["555"])
    assert GAME.to_act(state) == 0
    assert GAME.legal_moves(state) == [Move(PLACE, "444", (0, 0))]
    after, events = play(state, "444@0,0")
    assert after.scores == (22, 0)
    assert "opening triple +10" in [e.text for e in events]


def test_highest_triple_opens_and_play_goes_clockwise() -> None:
    state = new([["333"], ["444"], ["111"]], ["555"])
    assert GAME.to_act(state) == 1
    after, _ = play(state, "444@0,0")
    assert GAME.to_act(after) == 2


def test_zeros_option_scores_40_and_shows_the_other_triple() -> None:
    state = new([["013"], ["555", "000"]])
    assert GAME.to_act(state) == 1
    assert set(GAME.legal_moves(state)) == {Move(PLACE, "555", (0, 0)), Move(PLACE, "000", (0, 0))}
    after, events = play(state, "000@0,0")
    assert after.scores == (0, 40)
    assert any("shows 555" in e.text for e in events)
    other, _ = play(state, "555@0,0")
    assert other.scores == (0, 25)


def test_only_triple_000_opens_for_40() -> None:
    others = [t for t in TILES if len(set(t)) == 1 and t != "000"]
    state = new([["000"], ["013"]], others)
    after, _ = play(state, "000@0,0")
    assert after.scores == (40, 0)


def no_triples_deal(hands: list[list[str]]) -> State:
    fill = [t for t in TILES if len(set(t)) > 1 and total(t) <= 10]
    rest = [t for t in TILES if len(set(t)) == 1 or total(t) > 10]
    rest = [t for t in rest if t not in {LAID_TO_TILE[x] for hand in hands for x in hand}]
    return GAME.new(len(hands), seed=1, deal=[deal_for(hands, rest, fill=fill)])


def test_opening_without_triple_5_4_3_scores_12() -> None:
    state = no_triples_deal([["013"], ["345"]])
    assert GAME.to_act(state) == 1
    assert len(GAME.legal_moves(state)) == 3  # any rotation at 0,0
    after, events = play(state, "534@0,0")
    assert after.scores == (0, 12)
    assert [e.text for e in events if e.points] == ["tile 345 +12"]


def test_equal_totals_compare_sorted_numbers() -> None:
    state = no_triples_deal([["445"], ["355"]])
    assert GAME.to_act(state) == 1  # 5-5-3 beats 5-4-4


# -- plays and matching --------------------------------------------------------------------------


def test_plays_3_4_4_scores_11_and_5_5_2_scores_12() -> None:
    state = no_triples_deal([["345"], ["344"]])
    state, _ = play(state, "345@0,0")  # corners: top 3, lower right 4, lower left 5
    assert GAME.to_act(state) == 1
    state, events = play(state, "434@1,0")  # down cell: bottom 4, upper left 3, upper right 4
    assert state.scores == (12, 11) and points(events) == 11
    opened = no_triples_deal([["355"], ["255"]])
    opened, _ = play(opened, "355@0,0")
    after, events = play(opened, "255@0,1")  # bottom 2 under the 5-5 edge
    assert after.scores == (13, 12) and points(events) == 12


def test_every_touching_corner_must_match() -> None:
    state = no_triples_deal([["345"], ["344", "134"]])
    state, _ = play(state, "345@0,0")
    with pytest.raises(IllegalMoveError, match="corner must show"):
        GAME.parse_move(state, "344@1,0")
    with pytest.raises(IllegalMoveError, match="shares no edge"):
        GAME.parse_move(state, "434@5,5")
    with pytest.raises(IllegalMoveError, match="not in your hand"):
        GAME.parse_move(state, "555@1,0")
    with pytest.raises(IllegalMoveError, match="taken"):
        GAME.parse_move(state, "434@0,0")
    # a corner-only contact counts too: -2,-1 touches -1,0 at its upper left corner only
    probe = position({(0, 0): "345", (-2, -1): "122"}, [["035", "135"], ["002"]])
    assert GAME.parse_move(probe, "513@-1,0") == Move(PLACE, "513", (-1, 0))
    with pytest.raises(IllegalMoveError, match="upper left corner must show 1, not 0"):
        GAME.parse_move(probe, "503@-1,0")


# -- bonuses -------------------------------------------------------------------------------------


def test_hexagon_with_0_5_5_scores_60() -> None:
    target = (0, 0)
    ring = [c for c in cells_at(corners(target)[0]) if c != target]
    state, text = placed_with(ring, target, "055")
    after, events = play(state, text)
    assert after.scores[0] == 60
    assert "hexagon +50" in [e.text for e in events]


@pytest.mark.parametrize("count, expected", [(2, 60), (3, 70)])
def test_two_and_three_hexagons_at_once(count: int, expected: int) -> None:
    target = (0, 1)
    cells = {c for corner in corners(target)[:count] for c in cells_at(corner)} - {target}
    state, text = placed_with(sorted(cells), target, "123")
    after, events = play(state, text)
    bonuses = [e for e in events if e.text.startswith(f"{count} hexagons")]
    assert len(bonuses) == 1 and bonuses[0].points == expected
    assert after.scores[0] == 6 + expected
    assert not any("bridge" in e.text for e in events)  # one bonus per play


def test_bridge_with_1_4_4_scores_49() -> None:
    # the tile on 0,0 touches 0,1 across its bottom side and 1,-1 at its top corner only,
    # with 1,0 beside that corner empty: one side and the point opposite
    chain = [(0, 1), (1, 1), (2, 1), (2, 0), (3, 0), (3, -1), (2, -1), (1, -1)]
    state, text = placed_with(chain, (0, 0), "144")
    after, events = play(state, text)
    assert after.scores[0] == 49
    assert "bridge +40" in [e.text for e in events]


def test_added_to_the_bridge_with_1_1_5_scores_47() -> None:
    # two sides matched (left and right neighbours), the side below empty, and a cell touching
    # only the lower-left corner is occupied
    target = (1, 0)  # a down cell: neighbours 0,0 / 2,0 / 1,-1
    cells = [(0, 0), (2, 0), (-1, 0), (-1, 1)]
    state, text = placed_with(cells, target, "115")
    edge, only, opposite = corner_parts(target, 1)  # the upper left corner
    occupied = set(cells)
    assert sum(n in occupied for n in neighbours(target)) == 2
    assert opposite in occupied and any(c in occupied for c in only)
    assert not all(c in occupied for c in edge)
    after, events = play(state, text)
    assert after.scores[0] == 47
    assert "bridge +40" in [e.text for e in events]


def test_no_bridge_when_both_edge_cells_are_filled_or_nothing_opposite() -> None:
    occupied = {(0, 1), (1, -1), (-1, 0), (1, 0), (0, 0)}
    assert bonus(occupied, (0, 0)) == ("", 0)  # both edge cells at the top corner are filled
    assert bonus({(0, 0), (1, 0), (1, -1)}, (0, 0)) == ("", 0)  # nothing across the opposite side


# -- drawing and passing -------------------------------------------------------------------------


def test_draw_until_a_tile_fits_then_play_it() -> None:
    board = {(0, 0): "555"}
    state = position(board, [["001", "012"], ["013"]], ["011", "002", "055", "111"])
    assert GAME.legal_moves(state) == [DRAW_MOVE]
    after, events = play(state, "draw")
    assert after.scores[0] == -15
    assert "3 tiles" in events[0].text and "−15" in events[0].text and "055" in events[0].text
    assert after.drawn == "055" and after.hands[0] == ("001", "002", "011", "012", "055")
    assert after.well == ("111",)
    moves = GAME.legal_moves(after)
    assert moves and all(LAID_TO_TILE[m.laid] == "055" for m in moves)
    with pytest.raises(IllegalMoveError, match="you drew"):
        GAME.parse_move(after, "012@0,1")
    done, events = play(after, GAME.format_move(after, moves[0]))
    assert done.scores[0] == -15 + 10 and GAME.to_act(done) == 1


def test_max_draws_3_then_pass_minus_10() -> None:
    board = {(0, 0): "555"}
    well = ["011", "002", "003", "055", "111"]
    state = position(board, [["001", "012"], ["013"]], well, max_draws="3")
    after, _events = play(state, "draw")
    assert after.scores[0] == -15 and after.stuck and GAME.legal_moves(after) == [PASS_MOVE]
    assert len(after.well) == 2 and len(after.hands[0]) == 5
    passed, _ = play(after, "pass")
    assert passed.scores[0] == -25 and GAME.to_act(passed) == 1
    unlimited = position(board, [["001", "012"], ["013"]], well)
    assert play(unlimited, "draw")[0].drawn == "055"


def test_empty_well_pass_minus_10_and_pass_only_when_forced() -> None:
    board = {(0, 0): "555"}
    state = position(board, [["001", "012"], ["155", "013"]], [])
    assert GAME.legal_moves(state) == [PASS_MOVE]
    after, events = play(state, "pass")
    assert after.scores == (-10, 0) and events[0].text == "passes −10"
    with pytest.raises(IllegalMoveError, match="not allowed"):
        GAME.parse_move(after, "pass")
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(after, "draw")


def test_draw_that_empties_the_well_without_a_fit_forces_a_pass() -> None:
    state = position({(0, 0): "555"}, [["001"], ["013"]], ["002", "003"])
    after, events = play(state, "draw")
    assert after.scores[0] == -10 and after.stuck and after.well == ()
    assert "well is empty" in events[0].text
    passed, _ = play(after, "pass")
    assert passed.scores[0] == -20


# -- end of a round and of the game ---------------------------------------------------------------


def test_going_out_scores_25_plus_the_other_hands_and_deals_again() -> None:
    state = position({(0, 0): "555"}, [["155"], ["013", "024"], ["001"]])
    after, events = play(state, "155@0,1")
    others = hand_total(("013", "024")) + hand_total(("001",))
    assert after.scores == (11 + 25 + others, 0, 0)
    texts = [e.text for e in events]
    assert "going out +25" in texts and f"tiles left in the other hands +{others}" in texts
    summary = next(e for e in events if e.kind == "round_end")
    assert "seat 1 went out and wins the round" in summary.text and "totals: seat 1" in summary.text
    assert after.round == state.round + 1 and after.board == () and after.opening
    assert [len(h) for h in after.hands] == [7, 7, 7]
    assert "Round 1: seat 1 went out" in GAME.describe(after, NAMES)


def test_blocked_round_fewest_tiles_wins_others_minus_own() -> None:
    state = position({(0, 0): "555"}, [["001", "002"], ["013"], ["024", "003"]], [], turn=0)
    for _ in range(2):
        state, events = play(state, "pass")
    assert not any(e.kind == "round_end" for e in events)
    state, events = play(state, "pass")
    assert any(e.kind == "round_end" for e in events)
    gained = hand_total(("001", "002", "024", "003")) - hand_total(("013",))
    assert state.scores == (-10, -10 + gained, -10)
    assert any("blocked" in e.text for e in events)


def test_blocked_round_ties_lower_total_then_earlier_seat_from_opener() -> None:
    board = {(0, 0): "555"}
    state = position(board, [["013"], ["001"], ["002"]], [])
    state = replace(state, opener=2)
    for _ in range(3):
        state, _events = play(state, "pass")
    # all hold one tile; seat 2 (001) has the lowest total
    assert state.scores[1] == -10 + hand_total(("013", "002")) - 1
    tied = replace(position(board, [["003"], ["012"], ["004"]], []), opener=1)
    for _ in range(3):
        tied, _ = play(tied, "pass")
    # seats 1 and 2 both hold 3 points; from the opener (seat 2) seat 2 comes first
    assert tied.scores[1] == -10 + 3 + 4 - 3


def test_game_ends_after_the_round_round_winner_wins_if_at_target() -> None:
    base = position({(0, 0): "555"}, [["155"], ["013"]], target=200)
    state = replace(base, scores=(170, 390))
    after, events = play(state, "155@0,1")
    assert after.finished and after.scores[0] >= 200
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,)  # the round winner, not the higher score
    assert events[-1].kind == "game_end"
    assert GAME.to_act(after) is None and GAME.legal_moves(after) == []


def test_game_end_highest_score_when_round_winner_below_target_and_ties_share() -> None:
    base = position({(0, 0): "555"}, [["155"], ["013"], ["024"]], target=300)
    state = replace(base, scores=(0, 310, 305))
    after, _ = play(state, "155@0,1")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (1,) and outcome.ranks == (3, 1, 2)
    tie = replace(base, scores=(0, 310, 310))
    after, _ = play(tie, "155@0,1")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (1, 2) and outcome.is_draw


def test_target_reached_mid_round_finishes_the_round() -> None:
    base = position({(0, 0): "555"}, [["155", "001"], ["255", "013"]], target=200)
    state = replace(base, scores=(199, 0))
    after, _ = play(state, "155@0,1")
    assert after.scores[0] >= 200 and not after.finished and GAME.to_act(after) == 1


def test_scores_may_go_negative() -> None:
    state = position({(0, 0): "555"}, [["001"], ["013"]], [])
    after, _ = play(state, "pass")
    assert after.scores[0] == -10


# -- notation ------------------------------------------------------------------------------------


def test_notation_spellings() -> None:
    state = no_triples_deal([["345"], ["344"]])
    state, _ = play(state, "345@0,0")
    move = Move(PLACE, "434", (1, 0))
    for text in ["434@1,0", "434 1,0", "4-3-4@1,0", "4-3-4 @ (1, 0)", " 434@1 ,0 "]:
        assert GAME.parse_move(state, text) == move
    assert GAME.format_move(state, move) == "434@1,0"
    assert GAME.format_move(state, DRAW_MOVE) == "draw"


def test_bad_notation_is_a_syntax_error_that_explains() -> None:
    state = GAME.new(2, seed=1)
    with pytest.raises(InvalidMoveError, match="453@2,-1"):
        GAME.parse_move(state, "hello")
    with pytest.raises(InvalidMoveError, match="never turned over"):
        GAME.parse_move(state, "021@0,0")
    with pytest.raises(InvalidMoveError, match="0 to 5"):
        GAME.parse_move(state, "679@0,0")


def test_opening_must_be_the_opening_tile() -> None:
    state = new([["444", "013"], ["023", "014"]], ["555"])
    with pytest.raises(IllegalMoveError, match="opens at 0,0"):
        GAME.parse_move(state, "013@0,0")


# -- views, options, deal, timeouts, resign -------------------------------------------------------


def test_view_hides_other_hands_and_the_well() -> None:
    state = GAME.new(3, seed=8)
    seen = GAME.view(state, 1)
    assert GAME.hand(seen, 1) == state.hands[1]
    assert GAME.hand(seen, 0) is None and GAME.hand(seen, 2) is None
    assert set(seen.well) == {"?"} and len(seen.well) == len(state.well)
    assert seen.deal is None and [len(h) for h in seen.hands] == [7, 7, 7]
    public = GAME.view(state, None)
    assert all(GAME.hand(public, seat) is None for seat in range(3))
    text = GAME.describe(public, NAMES)
    assert "Ann 7, Ben 7, Cat 7" in text and "well: 35" in text


def test_options() -> None:
    assert Options() == Options(target=400, max_draws="unlimited")
    for target in (200, 300, 400, 500):
        Options(target=target)
    with pytest.raises(InvalidOptionsError):
        Options(target=100)
    with pytest.raises(InvalidOptionsError):
        Options.from_dict({"max_draws": "5"})
    assert Options.from_dict({"max_draws": "3", "target": "200"}).draw_limit == 3
    with pytest.raises(InvalidOptionsError):
        GAME.new(7)


def test_explicit_deal_format() -> None:
    state = GAME.new(2, deal=["5-5-5", "120", "013"])  # one round; the rest in canonical order
    assert state.hands[0] == ("000", "001", "002", "003", "004", "005", "012", "013", "555")
    assert state.hands[1] == ("011", "014", "015", "022", "023", "024", "025", "033", "034")
    assert state.well[0] == "035" and len(state.well) == 38
    two_rounds = GAME.new(2, deal=[["555"], ["444"]])
    assert "555" in two_rounds.hands[0]
    assert two_rounds.deal is not None and two_rounds.deal[1][0] == "444"
    with pytest.raises(InvalidOptionsError, match="twice"):
        GAME.new(2, deal=[["555", "555"]])
    with pytest.raises(InvalidOptionsError, match="not a tile"):
        GAME.new(2, deal=[["021"]])
    assert GAME.new(2, seed=5) == GAME.new(2, seed=5)
    assert GAME.new(2, seed=5).hands != GAME.new(2, seed=6).hands


def test_timeout_passes_with_minus_10_and_lays_a_forced_opening() -> None:
    state = new([["444", "013"], ["023", "014"]], ["555"])
    opened, _ = GAME.on_timeout(state)
    assert opened.scores == (22, 0) and not opened.opening
    later, events = GAME.on_timeout(opened)
    assert later.scores == (22, -10) and GAME.to_act(later) == 0
    assert events[0].kind == "pass"


def test_resign_skips_the_seat_and_ends_with_one_left() -> None:
    state = GAME.new(3, seed=2)
    after, events = GAME.resign(state, 2)
    assert events[0].kind == "forfeit" and 2 in after.forfeited
    assert GAME.to_act(after) != 2
    done, _ = GAME.resign(after, 0)
    outcome = GAME.outcome(done)
    assert outcome is not None and outcome.winners == (1,) and outcome.ranks[0] == outcome.ranks[2] == 2


def test_registry_aliases() -> None:
    for alias in ("triominos", "tri", "triomino", "Tri-Ominos"):
        assert registry.get(alias) is GAME


# -- properties ------------------------------------------------------------------------------------


def brute_force_placements(state: State) -> set[Move]:
    """Every placement by the definition: empty cell, a full edge with a tile, every touching
    corner equal (checked cell by cell)."""
    board = state.cells
    tiles = [state.drawn] if state.drawn else state.hands[state.turn]
    xs = [c[0] for c in board]
    ys = [c[1] for c in board]
    found: set[Move] = set()
    for y in range(min(ys) - 1, max(ys) + 2):
        for x in range(min(xs) - 1, max(xs) + 2):
            cell = (x, y)
            if cell in board or not any(n in board for n in neighbours(cell)):
                continue
            for tile in tiles:
                for laid in ROTATIONS[tile]:
                    if consistent(board, cell, laid):
                        found.add(Move(PLACE, laid, cell))
    return found


def check_invariants(before: State, move: Move, after: State, events: tuple[Event, ...]) -> None:
    changed = sum(after.scores) - sum(before.scores)
    assert points(events) == changed, "every point must come with an event"
    if after.round == before.round and not after.finished:
        placed = [LAID_TO_TILE[laid] for _, laid in after.board]
        held = [t for hand in after.hands for t in hand]
        assert sorted([*placed, *held, *after.well]) == sorted(TILES)
        cells = after.cells
        for cell, laid in after.board:
            assert consistent({c: v for c, v in cells.items() if c != cell}, cell, laid)


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    picks=st.integers(0, 10_000),
    max_draws=st.sampled_from(["unlimited", "3"]),
)
def test_random_games_keep_invariants(players: int, seed: int, picks: int, max_draws: str) -> None:
    rng = random.Random(picks)
    state = GAME.new(players, Options(target=200, max_draws=max_draws), seed=seed)
    for _ in range(400):
        if GAME.to_act(state) is None:
            break
        moves = GAME.legal_moves(state)
        assert len(set(moves)) == len(moves)
        if not state.opening and moves[0].kind == PLACE:
            assert set(moves) == brute_force_placements(state)
        elif not state.opening:
            assert not brute_force_placements(state)
        for move in moves[:30]:
            assert GAME.parse_move(state, GAME.format_move(state, move)) == move
        move = moves[rng.randrange(len(moves))]
        before = repr(state)
        after, events = GAME.apply(state, move)
        assert repr(state) == before
        check_invariants(state, move, after, events)
        state = after


@settings(max_examples=30, deadline=None)
@given(cell=st.tuples(st.integers(-20, 20), st.integers(-20, 20)), index=st.integers(0, 2))
def test_corner_parts_partition_the_six_cells(cell: Cell, index: int) -> None:
    edge, only, opposite = corner_parts(cell, index)
    corner = corners(cell)[index]
    assert {cell, *edge, *only} == set(cells_at(corner))
    assert corner not in corners(opposite)
    assert all(corner in corners(c) for c in edge)


def test_deal_lists_later_rounds_too() -> None:
    from games.triominos.rules import deal_round

    state = GAME.new(2, deal=[["555"], ["444", "333"]])
    second = deal_round(state, 2)
    assert "444" in second.hands[0] and "333" in second.hands[0] and second.opener == 0
    third = deal_round(state, 3)  # shuffled from the seed
    assert sorted([*third.well, *third.hands[0], *third.hands[1]]) == sorted(TILES)


def test_rules_file_notation_example() -> None:
    from games.triominos.notation import parse_syntax

    move = parse_syntax("453@2,-1")
    assert move == Move(PLACE, "453", (2, -1)) and LAID_TO_TILE["453"] == "345"
    assert not points_up((2, -1))  # a down cell: 4 at the bottom, 5 upper left, 3 upper right
    assert parse_syntax("453 2,-1") == parse_syntax("4-5-3@2,-1") == move

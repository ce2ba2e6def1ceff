"""Tri-Ominos rules tests: the examples of the rule text and the rules file, and properties."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.core import Event, EventKind, event_phrase, outcome_phrase
from games.errors import IllegalMoveError, InvalidMoveError, InvalidOptionsError
from games.triominos import GAME, Move, MoveKind, Options, State
from games.triominos.grid import Cell, cells_at, corner_parts, corners, neighbours, points_up
from games.triominos.rules import Bonus, bonus, hand_size
from games.triominos.state import DRAW_MOVE, PASS_MOVE
from games.triominos.tiles import LAID_TO_TILE, ROTATIONS, TILES, hand_total, total

PLACE = MoveKind.PLACE

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


def facts(events: tuple[Event, ...], kind: EventKind = EventKind.SCORE) -> list[tuple[str, int]]:
    """The reasons and points of the events of ``kind``."""
    return [(e.reason, e.points) for e in events if e.kind == kind]


def said(events: tuple[Event, ...], names: tuple[str, ...] = NAMES) -> list[str]:
    """The events in words, as the bot says them."""
    return [event_phrase(GAME, e, names) for e in events]


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
        opening_tile="",
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
    assert facts(events) == [("tile", 12), ("opening_triple", 10)]
    assert said(events) == ["lays 444 +12", "opens with a triple +10"]


def test_highest_triple_opens_and_play_goes_clockwise() -> None:
    state = new([["333"], ["444"], ["111"]], ["555"])
    assert GAME.to_act(state) == 1
    after, _ = play(state, "444@0,0")
    assert GAME.to_act(after) == 2


def test_zeros_option_scores_40_and_shows_the_other_triple() -> None:
    state = new([["013"], ["555", "000"]])
    assert GAME.to_act(state) == 1
    assert set(GAME.legal_moves(state)) == {Move(PLACE, "555", (0, 0)), Move(PLACE, "000", (0, 0))}
    assert state.opening_tile == "555"
    after, events = play(state, "000@0,0")
    assert after.scores == (0, 40)
    assert facts(events) == [("tile", 0), ("opening_triple", 10), ("opening_zeros", 30)]
    shown = [e for e in events if e.reason == "shows_triple"]
    assert len(shown) == 1 and shown[0].subject == "555" and shown[0].seat == 1
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
    assert [(e.reason, e.subject, e.points) for e in events] == [("tile", "345", 12)]


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
    assert facts(events) == [("tile", 10), ("hexagon", 50)]
    assert said(events)[1] == "closes a hexagon +50"


@pytest.mark.parametrize("count, expected", [(2, 60), (3, 70)])
def test_two_and_three_hexagons_at_once(count: int, expected: int) -> None:
    target = (0, 1)
    cells = {c for corner in corners(target)[:count] for c in cells_at(corner)} - {target}
    state, text = placed_with(sorted(cells), target, "123")
    after, events = play(state, text)
    bonuses = [e for e in events if e.reason == "hexagons"]
    assert len(bonuses) == 1 and bonuses[0].points == expected and bonuses[0].count == count
    assert said(events)[1] == f"closes {count} hexagons at once +{expected}"
    assert after.scores[0] == 6 + expected
    assert not any(e.reason == "bridge" for e in events)  # one bonus per play


def test_bridge_with_1_4_4_scores_49() -> None:
    # the tile on 0,0 touches 0,1 across its bottom side and 1,-1 at its top corner only,
    # with 1,0 beside that corner empty: one side and the point opposite
    chain = [(0, 1), (1, 1), (2, 1), (2, 0), (3, 0), (3, -1), (2, -1), (1, -1)]
    state, text = placed_with(chain, (0, 0), "144")
    after, events = play(state, text)
    assert after.scores[0] == 49
    assert facts(events) == [("tile", 9), ("bridge", 40)]


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
    assert facts(events) == [("tile", 7), ("bridge", 40)]
    assert after.last_text.endswith("+47 (bridge)")


def test_no_bridge_when_both_edge_cells_are_filled_or_nothing_opposite() -> None:
    occupied = {(0, 1), (1, -1), (-1, 0), (1, 0), (0, 0)}
    assert bonus(occupied, (0, 0)) is None  # both edge cells at the top corner are filled
    assert bonus({(0, 0), (1, 0), (1, -1)}, (0, 0)) is None  # nothing across the opposite side
    assert bonus({(0, 0), (0, 1), (1, -1)}, (0, 0)) == Bonus("bridge", 1, 40)


# -- drawing and passing -------------------------------------------------------------------------


def test_draw_until_a_tile_fits_then_play_it() -> None:
    board = {(0, 0): "555"}
    state = position(board, [["001", "012"], ["013"]], ["011", "002", "055", "111"])
    assert GAME.legal_moves(state) == [DRAW_MOVE]
    after, events = play(state, "draw")
    assert after.scores[0] == -15
    assert [(e.kind, e.reason, e.count, e.points, e.subject) for e in events] == [
        (EventKind.DRAW, "drew", 3, -15, ""),
        (EventKind.INFO, "drawn_fits", 0, 0, "055"),
    ]
    assert said(events) == ["draws 3 tiles from the well −15", "drew 055, which fits and must be played now"]
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
    after, events = play(state, "draw")
    assert after.scores[0] == -15 and after.stuck and GAME.legal_moves(after) == [PASS_MOVE]
    assert said(events)[1] == "found nothing that fits in 3 draws: must pass"
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
    assert after.scores == (-10, 0) and facts(events, EventKind.PASS) == [("passed", -10)]
    assert said(events) == ["passes −10"]
    with pytest.raises(IllegalMoveError, match="not allowed"):
        GAME.parse_move(after, "pass")
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(after, "draw")


def test_draw_that_empties_the_well_without_a_fit_forces_a_pass() -> None:
    state = position({(0, 0): "555"}, [["001"], ["013"]], ["002", "003"])
    after, events = play(state, "draw")
    assert after.scores[0] == -10 and after.stuck and after.well == ()
    assert facts(events, EventKind.DRAW) == [("drew", -10)]
    assert [e.reason for e in events if e.kind == EventKind.INFO] == ["well_empty"]
    passed, _ = play(after, "pass")
    assert passed.scores[0] == -20


# -- end of a round and of the game ---------------------------------------------------------------


def test_going_out_scores_25_plus_the_other_hands_and_deals_again() -> None:
    state = position({(0, 0): "555"}, [["155"], ["013", "024"], ["001"]])
    after, events = play(state, "155@0,1")
    others = hand_total(("013", "024")) + hand_total(("001",))
    assert after.scores == (11 + 25 + others, 0, 0)
    assert facts(events) == [("tile", 11), ("going_out", 25), ("others_hands", others)]
    (summary,) = (e for e in events if e.kind == EventKind.ROUND_END)
    assert (summary.seat, summary.reason, summary.count) == (0, "went_out", 1)
    assert said(events) == [
        "lays 155 +11",
        "goes out and wins the round",
        "takes the going-out bonus +25",
        f"scores +{others} for the 3 tiles left in the other hands",
        f"opens round 2 with {after.opening_tile}",
    ]
    opens = events[-1]
    assert opens.kind == EventKind.INFO and opens.seat == after.opener == after.turn
    assert after.round == state.round + 1 and after.board == () and after.opening
    assert [len(h) for h in after.hands] == [7, 7, 7]
    described = GAME.describe(after, NAMES)
    assert "wins" not in described and "Round 2" in described  # the summary is said once


def test_blocked_round_fewest_tiles_wins_others_minus_own() -> None:
    state = position({(0, 0): "555"}, [["001", "002"], ["013"], ["024", "003"]], [], turn=0)
    for _ in range(2):
        state, events = play(state, "pass")
    assert not any(e.kind == EventKind.ROUND_END for e in events)
    state, events = play(state, "pass")
    gained = hand_total(("001", "002", "024", "003")) - hand_total(("013",))
    assert state.scores == (-10, -10 + gained, -10)
    (summary,) = (e for e in events if e.kind == EventKind.ROUND_END)
    assert (summary.seat, summary.reason) == (1, "blocked")
    own = hand_total(("013",))
    assert facts(events) == [("others_hands", gained + own), ("own_hand", -own)]
    assert [e.seat for e in events if e.kind == EventKind.SCORE] == [1, 1]
    assert said(events)[1:4] == [
        "wins the round with the fewest tiles: every player passed and the well is empty",
        f"scores +{gained + own} for the 4 tiles left in the other hands",
        f"counts −{own} for the 1 tile left in their own hand",
    ]


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
    assert (outcome.reason, outcome.reason_seat) == ("round_winner_over_higher", 0)
    assert events[-1].kind == EventKind.GAME_END and events[-1].reason == outcome.reason
    assert GAME.to_act(after) is None and GAME.legal_moves(after) == []


def test_game_end_highest_score_when_round_winner_below_target_and_ties_share() -> None:
    base = position({(0, 0): "555"}, [["155"], ["013"], ["024"]], target=300)
    state = replace(base, scores=(0, 310, 305))
    after, _ = play(state, "155@0,1")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (1,) and outcome.ranks == (3, 1, 2)
    assert (outcome.reason, outcome.reason_seat) == ("highest_at_target", 1)
    assert outcome_phrase(GAME, outcome, NAMES[:3]).startswith("Ben has the highest score")
    tie = replace(base, scores=(0, 310, 310))
    after, _ = play(tie, "155@0,1")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (1, 2) and outcome.is_draw
    assert (outcome.reason, outcome.reason_seat) == ("tie_at_target", None)


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
    assert seen.seed == 0 and state.seed == 8  # issue 13: nothing to recompute the hands from
    assert seen.opening_tile == state.opening_tile and seen.turn == state.turn
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
    assert facts(events, EventKind.TIMEOUT) == [("turn_lost", -10)] and len(events) == 1
    assert said(events) == ["loses the turn −10"]


def test_resign_skips_the_seat_and_ends_with_one_left() -> None:
    state = GAME.new(3, seed=2)
    after, events = GAME.resign(state, 2)
    assert events[0].kind == EventKind.FORFEIT and events[0].reason == "resigned" and 2 in after.forfeited
    assert GAME.to_act(after) != 2
    done, events = GAME.resign(after, 0)
    outcome = GAME.outcome(done)
    assert outcome is not None and outcome.winners == (1,) and outcome.ranks[0] == outcome.ranks[2] == 2
    assert (outcome.reason, outcome.reason_seat) == ("last_standing", 1)
    assert events[-1].kind == EventKind.GAME_END
    assert outcome_phrase(GAME, outcome, NAMES[:3]) == "Ben is the last player left"


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
    for seat in range(after.players):
        assert points(events, seat) == after.scores[seat] - before.scores[seat], "points come with events"
    assert all(isinstance(e.kind, EventKind) and e.reason in GAME.phrases for e in events)
    placed = [LAID_TO_TILE[laid] for _, laid in after.board]
    held = [t for hand in after.hands for t in hand]
    assert sorted([*placed, *held, *after.well]) == sorted(TILES), "every tile is somewhere, once"
    if after.round == before.round:
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
    from games.triominos.notation import parse_move

    move = parse_move("453@2,-1")
    assert move == Move(PLACE, "453", (2, -1)) and LAID_TO_TILE["453"] == "345"
    assert not points_up((2, -1))  # a down cell: 4 at the bottom, 5 upper left, 3 upper right
    assert parse_move("453 2,-1") == parse_move("4-5-3@2,-1") == move


# -- forced turns ------------------------------------------------------------------------------


def test_forced_draw_and_pass_when_nothing_fits() -> None:
    board = {(0, 0): "555"}
    state = position(board, [["001", "012"], ["013"]], ["011", "002", "055", "111"])
    assert GAME.forced_move(state) == DRAW_MOVE
    empty = position(board, [["001", "012"], ["013"]], [])
    assert GAME.forced_move(empty) == PASS_MOVE
    stuck, _ = play(position(board, [["001"], ["013"]], ["002", "003"]), "draw")
    assert stuck.stuck and GAME.forced_move(stuck) == PASS_MOVE


def test_a_drawn_tile_with_one_place_is_forced_with_several_it_is_a_choice() -> None:
    board = {(0, 0): "555"}
    state = position(board, [["001", "012"], ["013"]], ["011", "002", "055", "111"])
    drawn, _ = play(state, "draw")
    moves = GAME.legal_moves(drawn)
    assert drawn.drawn == "055" and len(moves) > 1 and GAME.forced_move(drawn) is None
    single = position({(0, 0): "555", (1, 0): "552"}, [["001"], ["013"]], ["235", "111"])
    assert GAME.legal_moves(single) == [DRAW_MOVE]
    single, _ = play(single, "draw")
    only = GAME.legal_moves(single)
    assert len(only) == 1 and GAME.forced_move(single) == only[0]


def test_a_placement_from_the_hand_is_a_decision_unless_it_is_the_only_move() -> None:
    state = position({(0, 0): "555"}, [["155", "255"], ["013"]])
    assert len(GAME.legal_moves(state)) > 1 and GAME.forced_move(state) is None
    opening = new([["444", "013"], ["023", "014"]], ["555"])
    assert GAME.forced_move(opening) == Move(PLACE, "444", (0, 0))  # one triple, one way to lie
    choice = new([["013"], ["555", "000"]])
    assert GAME.forced_move(choice) is None  # 5-5-5 or 0-0-0
    assert GAME.forced_move(no_triples_deal([["013"], ["345"]])) is None  # three rotations


def test_a_draw_continues_the_turn() -> None:
    board = {(0, 0): "555"}
    state = position(board, [["001", "012"], ["013"]], ["011", "002", "055", "111"])
    drawn, _ = play(state, "draw")
    assert GAME.continues_turn(state, drawn)
    placed, _ = play(drawn, GAME.format_move(drawn, GAME.legal_moves(drawn)[0]))
    assert not GAME.continues_turn(drawn, placed)
    # the player who goes out may open the next round: that is a new turn
    out = position({(0, 0): "555"}, [["155"], ["013"]])
    after, _ = play(out, "155@0,1")
    assert not GAME.continues_turn(out, after)


# -- the end of the game, in words --------------------------------------------------------------


def test_round_winner_at_target_wins_with_fewer_points_and_the_reason_says_so() -> None:
    base = position({(0, 0): "555"}, [["155"], ["013"], ["024"]], target=200)
    state = replace(base, scores=(219, 150, 278))
    after, events = play(state, "155@0,1")
    assert after.scores == (265, 150, 278)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0,) and outcome.ranks == (1, 3, 2)
    assert (outcome.reason, outcome.reason_seat) == ("round_winner_over_higher", 0)
    names = ("Alice", "Bob", "Cara")
    reason = outcome_phrase(GAME, outcome, names)
    assert reason.startswith("Alice won the last round at or above the target")
    assert "even with fewer points" in reason
    assert said(events, names)[-1] == reason  # the game-end event says the same
    alone = replace(base, scores=(219, 150, 100))
    outcome = GAME.outcome(play(alone, "155@0,1")[0])
    assert outcome is not None and outcome.reason == "round_winner_at_target"
    assert outcome_phrase(GAME, outcome, names) == "Alice won the last round and reached the target"


# -- hidden information --------------------------------------------------------------------------


def check_determinized(state: State, viewer: int | None, rng: random.Random) -> State:
    """A determinized state of ``viewer``'s view, checked against what the view shows."""
    seen = GAME.view(state, viewer)
    whole = GAME.determinize(seen, viewer, rng)
    assert GAME.view(whole, viewer) == seen
    assert whole.masked == frozenset() and whole.deal is None and whole.seed != 0
    placed = [LAID_TO_TILE[laid] for _, laid in whole.board]
    held = [t for hand in whole.hands for t in hand]
    assert sorted([*placed, *held, *whole.well]) == sorted(TILES)
    assert [len(h) for h in whole.hands] == [len(h) for h in state.hands]
    assert len(whole.well) == len(state.well)
    if state.drawn:
        assert state.drawn in whole.hands[whole.turn]
    if state.opening and not state.finished:
        from games.triominos.rules import find_opening

        assert find_opening(whole.hands, whole.active) == (state.opener, state.opening_tile)
    if viewer is not None and viewer == GAME.to_act(state):
        assert GAME.legal_moves(whole) == GAME.legal_moves(state)
        assert GAME.legal_moves(seen) == GAME.legal_moves(state)  # the hand image lists them
    return whole


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000), plies=st.integers(0, 80))
def test_determinized_states_respect_every_public_fact(players: int, seed: int, plies: int) -> None:
    state = GAME.new(players, Options(target=200), seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if GAME.to_act(state) is None:
            break
        moves = GAME.legal_moves(state)
        state, _ = GAME.apply(state, moves[rng.randrange(len(moves))])
    for viewer in [None, *range(players)]:
        whole = check_determinized(state, viewer, random.Random(viewer))
        if GAME.to_act(whole) is not None:
            after, _ = GAME.apply(whole, GAME.legal_moves(whole)[0])  # playable
            assert after is not whole


def test_determinized_states_differ_in_hidden_things_only() -> None:
    state = GAME.new(4, seed=3, deal=[["555"], ["444"]])  # an explicit deal is hidden too
    seen = GAME.view(state, 2)
    assert seen.deal is None and seen.seed == 0
    samples = [GAME.determinize(seen, 2, random.Random(n)) for n in range(8)]
    assert len({s.hands for s in samples}) == 8 and len({s.well for s in samples}) == 8
    assert len({s.seed for s in samples}) == 8  # later rounds are dealt from a fresh seed
    assert all(s.hands[2] == state.hands[2] and s.board == state.board for s in samples)
    assert GAME.determinize(seen, 2, random.Random(5)) == samples[5]


def test_determinize_keeps_the_opening_and_a_pending_drawn_tile() -> None:
    opening = new([["444", "013"], ["023", "014"], ["111", "012"]], ["555"])
    for viewer in (None, 1, 2):
        for n in range(20):
            whole = check_determinized(opening, viewer, random.Random(n))
            assert "444" in whole.hands[0]
            assert "555" not in whole.hands[1] and "555" not in whole.hands[2]
    board = {(0, 0): "555"}
    top = ["011", "002", "055"]
    rest = [t for t in TILES if t not in {"555", "001", "012", "013", *top}]
    drawn, _ = play(position(board, [["001", "012"], ["013"]], [*top, *rest]), "draw")
    for n in range(20):
        whole = check_determinized(drawn, 1, random.Random(n))
        assert whole.drawn == "055" and "055" in whole.hands[0] and len(whole.hands[0]) == 5


# -- explicit deals from strangers --------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(10**300, 10**400)
    | st.text(max_size=12)
    | st.sampled_from(TILES)
    | st.floats(allow_nan=True),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=60,
)


@settings(max_examples=200, deadline=None)
@given(deal=JSON | st.lists(st.lists(st.sampled_from(TILES) | JSON, max_size=60), max_size=4))
def test_any_json_deal_is_a_game_or_an_options_error(deal: object) -> None:
    try:
        state = GAME.new(3, deal=deal)
    except InvalidOptionsError as error:
        assert str(error) and len(str(error)) < 300
        return
    assert deal is None or state.deal is not None
    assert sorted([*state.well, *(t for hand in state.hands for t in hand)]) == sorted(TILES)


def test_deal_limits() -> None:
    with pytest.raises(InvalidOptionsError, match="only 56"):
        GAME.new(2, deal=[[*TILES, "000"]])
    with pytest.raises(InvalidOptionsError, match="at most"):
        GAME.new(2, deal=[["555"]] * 1001)
    with pytest.raises(InvalidOptionsError, match="not a number"):
        GAME.new(2, deal=[[10**5000]])
    with pytest.raises(InvalidOptionsError, match="not a tile"):
        GAME.new(2, deal=[["5" * 10_000]])
    assert GAME.new(2, deal=[["5 - 5 - 5"]]).hands[0][-1] == "555"


# -- notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["4341,0", "434@1", "434@1,0,", "434@1,0)x", "4 3@1,0", "434@٣,0", "434@--1,0", "4--3-4@1,0"]
)
def test_malformed_placements_are_syntax_errors(text: str) -> None:
    from games.triominos.notation import parse_move

    with pytest.raises(InvalidMoveError, match="is not a Tri-Ominos move"):
        parse_move(text)


def test_errors_quote_the_input_shortened() -> None:
    state = GAME.new(2, seed=1)
    with pytest.raises(InvalidMoveError) as caught:
        GAME.parse_move(state, "1" * 30 + "@" + "2" * 30)
    assert "…`" in str(caught.value) and len(str(caught.value)) < 250
    with pytest.raises(IllegalMoveError, match=r"^`012@4,4`: the round opens at 0,0"):
        GAME.parse_move(state, " 0-1-2 @ (4, 4) ")


def test_options_are_offered_with_labels_and_help() -> None:
    specs = {spec.name: spec for spec in Options.specs()}
    assert specs["target"].choices == (200, 300, 400, 500) and specs["target"].default == 400
    assert specs["max_draws"].choices == ("unlimited", "3") and specs["max_draws"].default == "unlimited"
    for spec in specs.values():
        assert spec.help and set(spec.labels) == set(spec.choices)
    assert specs["target"].label(400).endswith("(default)")


# -- whole games -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_scores_are_the_sum_of_the_events_and_the_end_says_why(seed: int) -> None:
    state = GAME.new(3, Options(target=200, max_draws="3"), seed=seed)
    chooser = random.Random(seed)
    totals = [0, 0, 0]
    last: tuple[Event, ...] = ()
    while GAME.to_act(state) is not None:
        moves = GAME.legal_moves(state)
        state, last = GAME.apply(state, moves[chooser.randrange(len(moves))])
        for event in last:
            if event.seat is not None:
                totals[event.seat] += event.points
            assert "seat" not in " ".join(said(last, NAMES[:3])).lower()
    assert tuple(totals) == state.scores
    outcome = GAME.outcome(state)
    assert outcome is not None and last[-1].kind == EventKind.GAME_END
    assert last[-1].reason == outcome.reason and outcome.reason_seat in (*outcome.winners, None)
    assert any(e.kind == EventKind.ROUND_END for e in last)

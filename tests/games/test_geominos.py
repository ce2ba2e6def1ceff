"""Geominos rules tests: the examples of the rule text and the rules file, and properties."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.ai import GreedyPlayer, RandomPlayer
from games.core import Event
from games.errors import IllegalMoveError, InvalidMoveError, InvalidOptionsError
from games.geominos import GAME, Move, Options, State
from games.geominos.board import SIZE, assessed, in_center, is_light, parse_square, square_name
from games.geominos.rules import forfeit, move_cost, next_turn, placements
from games.geominos.state import Placed
from games.geominos.tiles import TILE_NAMES, TILE_TABLE, pose, poses, sections_count, shape_cells

JOE, ANNA = 0, 1
REST = [name for name in TILE_NAMES if name not in ("Chair", "Seahorse", "Gorilla")]


def deck(*first: str) -> list[str]:
    """A deck with ``first`` on top and the other tiles after, in table order."""
    return [*first, *(name for name in TILE_NAMES if name not in first)]


def new(players: int = 2, deal: list[str] | None = None, seed: int = 1, **options: object) -> State:
    return GAME.new(players, Options.from_dict(options), seed=seed, deal=deal)


def play(state: State, text: str) -> tuple[State, tuple[Event, ...]]:
    return GAME.apply(state, GAME.parse_move(state, text))


def touching(state: State, move: Move, tile: str | None = None) -> list[tuple[int, int]]:
    """``(pips of the new section, pips of the board section)`` for every orthogonal contact
    (with sections of the board tile ``tile`` only, if given)."""
    pairs = []
    for dr, dc, pips in move.pose.sections:
        row, col = move.row + dr, move.col + dc
        for nr, nc in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            index = nr * SIZE + nc
            if not (0 <= nr < SIZE and 0 <= nc < SIZE and state.grid[index]):
                continue
            if tile is None or state.board[state.owners[index]].tile == tile:
                pairs.append((pips, state.grid[index]))
    return pairs


# -- the tile set and the board (rules file) ---------------------------------------------------


def test_tile_table_checks() -> None:
    assert len(TILE_TABLE) == 21
    assert sum(sections_count(name) for name in TILE_NAMES) == 147
    counts = Counter(pip for _, _, side_a, side_b in TILE_TABLE for pip in side_a + side_b)
    assert counts == {str(value): 49 for value in range(1, 7)}
    sizes = sorted(sections_count(name) for name in TILE_NAMES)
    assert sizes[0] == 5 and sizes[-1] == 9
    shapes = {
        frozenset(frozenset((r, c) for r, c, _ in p.sections) for p in poses(name)) for name in TILE_NAMES
    }
    assert len(shapes) == 21, "all 21 shapes differ under rotation and reflection"


def test_sides_differ_and_poses_are_eight() -> None:
    for name, shape, side_a, side_b in TILE_TABLE:
        assert side_a != side_b
        assert len(shape_cells(shape)) == len(side_a) == len(side_b)
        assert len({p.sections for p in poses(name)}) == 8


def test_side_b_is_the_mirrored_shape_and_rotation_is_clockwise() -> None:
    chair_a = {(r, c) for r, c, _ in pose("Chair", "A", 0).sections}
    assert chair_a == {(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (3, 0), (3, 2)}
    chair_b = pose("Chair", "B", 0)
    assert {(r, c) for r, c, _ in chair_b.sections} == {(r, 2 - c) for r, c in chair_a}
    # side B's first section (4 pips) is the back of side A's first section, at the top right
    assert (0, 2, 4) in chair_b.sections
    turned = pose("Chair", "B", 90)
    assert (turned.height, turned.width) == (3, 4)
    assert turned.sections == ((0, 0, 1), (0, 1, 5), (1, 1, 3), (2, 0, 2), (2, 1, 6), (2, 2, 6), (2, 3, 4))
    hammer = pose("Hammer", "A", 90)  # XXX/.X./.X. turned clockwise: the head on the right
    assert {(r, c) for r, c, _ in hammer.sections} == {(0, 2), (1, 0), (1, 1), (1, 2), (2, 2)}


def test_board_blocks() -> None:
    light = [(r, c) for r in range(SIZE) for c in range(SIZE) if is_light(r, c)]
    assert len(light) == 225 and SIZE * SIZE - len(light) == 216
    for corner in ((0, 0), (0, 20), (20, 0), (20, 20)):
        assert is_light(*corner)
    assert all(is_light(r, c) for r in range(9, 12) for c in range(9, 12))
    assert not is_light(0, 3) and not is_light(3, 0) and is_light(3, 3)
    assert in_center(9, 9) and in_center(11, 11) and not in_center(8, 10)
    assert not assessed(10, 10) and assessed(0, 0) and not assessed(0, 3)
    assert square_name(10, 10) == "K11" and parse_square("k11") == (10, 10)
    assert parse_square("J10") == (9, 9) and parse_square("L12") == (11, 11)
    assert parse_square("V1") is None and parse_square("A22") is None


# -- setting up ---------------------------------------------------------------------------------


def test_center_tile_is_side_a_centered_on_k11() -> None:
    state = new(deal=deck("Chair"))
    center = state.board[0]
    assert (center.tile, center.side, center.rotation, center.owner) == ("Chair", "A", 0, None)
    assert (center.row, center.col) == (9, 9)  # 4 rows: the extra row goes down
    table = new(deal=deck("Table")).board[0]  # 2x4: rows K11-K12, columns J-M
    assert (table.row, table.col) == (10, 9)


@pytest.mark.parametrize(
    ("mode", "players", "sizes", "deck_left", "aside"),
    [
        ("five", 2, [5, 5], 10, 0),
        ("five", 3, [5, 5, 5], 3, 2),
        ("five", 4, [5, 5, 5, 5], 0, 0),
        ("all", 2, [10, 10], 0, 0),
        ("all", 3, [6, 6, 6], 0, 2),
        ("all", 4, [5, 5, 5, 5], 0, 0),
        ("one", 3, [1, 0, 0], 17, 2),
    ],
)
def test_modes_deal(mode: str, players: int, sizes: list[int], deck_left: int, aside: int) -> None:
    state = new(players, seed=9, mode=mode)
    assert [len(hand) for hand in state.hands] == sizes
    assert len(state.deck) == deck_left and len(state.aside) == aside
    assert state.turn == 0


def test_deal_order_is_round_robin_and_three_players_set_the_last_two_aside() -> None:
    cards = deck("Chair")
    state = new(3, deal=cards, mode="five")
    assert state.hands[0] == tuple(cards[1:16:3])
    assert state.hands[1] == tuple(cards[2:16:3])
    assert state.aside == tuple(cards[-2:])
    assert state.deck == tuple(cards[16:19])


def test_bad_deals_and_options_are_refused() -> None:
    with pytest.raises(InvalidOptionsError):
        new(deal=["Chair", "Chair"])
    with pytest.raises(InvalidOptionsError):
        new(deal=[*deck("Chair")[:-1], "Teapot"])
    with pytest.raises(InvalidOptionsError):
        Options(minutes=4)
    with pytest.raises(InvalidOptionsError):
        Options(mode="two")
    with pytest.raises(InvalidOptionsError):
        Options(hours=200)
    with pytest.raises(InvalidOptionsError):
        GAME.new(5)


# -- the examples of the source text ------------------------------------------------------------


def test_figures_3_and_4_joe_is_assessed_1_and_anna_4() -> None:
    # The project's own tile set has no Seahorse placement like the figure's, so Joe places
    # the Rabbit next to the Chair (1-pip sections side by side), and Anna the Boot where two
    # 5-pip sections match.
    state = new(deal=deck("Chair", "Rabbit", "Boot"))
    assert "Rabbit" in state.hands[JOE] and "Boot" in state.hands[ANNA]
    joe = next(
        m
        for m in state.legal
        if m.tile == "Rabbit" and move_cost(m) == 1 and (1, 1) in touching(state, m, "Chair")
    )
    state, events = GAME.apply(state, joe)
    assert state.totals == (1, 0)
    assert [(e.seat, e.points) for e in events if e.kind == "score"] == [(JOE, 1)]
    anna = next(
        m for m in state.legal if m.tile == "Boot" and move_cost(m) == 4 and (5, 5) in touching(state, m)
    )
    state, events = GAME.apply(state, anna)
    assert state.totals == (1, 4)
    assert events[0].text == "pips on light squares +4"


def test_a_one_pip_section_on_a_light_square_costs_one() -> None:
    # Hammer B0 at C1: C1 (1 pip) is on the light corner block; D1, E1, D2, D3 are dark
    assert pose("Hammer", "B", 0).sections == ((0, 0, 1), (0, 1, 2), (0, 2, 6), (1, 1, 1), (2, 1, 5))
    assert move_cost(Move("Hammer", "B", 0, 0, 2)) == 1
    # Hammer A0 at B3: B3 (3) and C3 (1) are light, D3 (5), C4 (4) and C5 (2) dark: 4 points
    assert move_cost(Move("Hammer", "A", 0, 2, 1)) == 4
    # Hammer A0 at A1: sections A1 (3), B1 (1), C1 (5), B2 (4), B3 (2), all on the light corner block
    assert move_cost(Move("Hammer", "A", 0, 0, 0)) == 3 + 1 + 5 + 4 + 2
    # at D1 the whole hammer is on a dark block: nothing to pay
    assert move_cost(Move("Hammer", "A", 0, 0, 3)) == 0
    # Hammer A0 at J10 lies in the center square: free
    assert move_cost(Move("Hammer", "A", 0, 9, 9)) == 0
    # Hammer A180 at C1: the stem (2 then 4) in column D is dark, the head on row 3 spans C3-E3
    cost = move_cost(Move("Hammer", "A", 180, 0, 2))
    spots = [(dr, 2 + dc, p) for dr, dc, p in pose("Hammer", "A", 180).sections]
    assert cost == sum(p for r, c, p in spots if is_light(r, c))


def test_non_matching_contacts_are_fine_but_one_match_is_needed() -> None:
    state = new(deal=deck("Chair", "Seahorse", "Gorilla"))
    for move in state.legal:
        pairs = touching(state, move)
        assert any(a == b for a, b in pairs)
    some_mixed = [m for m in state.legal if any(a != b for a, b in touching(state, m))]
    assert some_mixed, "placements with non-matching contacts beside a match are legal"


def test_score_sheet_joe_1_then_6_anna_4_then_5() -> None:
    state = new(deal=deck("Chair"))
    sheet: list[tuple[int, int]] = []
    for seat, cost in ((JOE, 1), (ANNA, 4), (JOE, 6), (ANNA, 5)):
        assert state.turn == seat
        move = next(m for m in state.legal if move_cost(m) == cost)
        state, _ = GAME.apply(state, move)
        sheet.append(state.totals)
    assert sheet == [(1, 0), (1, 4), (7, 4), (7, 9)]
    assert GAME.scores(state) == (7, 9)


def test_match_totals_carry_and_the_starter_rotates() -> None:
    state = new(seed=3, match="on")
    player = GreedyPlayer(3)
    while not (len(state.board) == 21 - 1 and state.game_index == 0):
        state, _ = GAME.apply(state, player.choose(GAME, state))
    # one tile is left in game one: make the totals of the example come out after it
    last = player.choose(GAME, state)
    mover = state.turn
    assert mover is not None
    wanted = (53, 56)
    before = tuple(wanted[s] - (move_cost(last) if s == mover else 0) for s in range(2))
    state = replace(state, points=before, totals=before)
    state, events = GAME.apply(state, last)
    assert state.game_index == 1 and not state.finished
    assert state.totals == (53, 56) and state.points == (0, 0)
    assert state.past_games == ((53, 56),)
    assert state.starter == ANNA and state.turn == ANNA
    assert any(e.kind == "round_end" for e in events)
    assert len(state.board) == 1, "a new game starts from a fresh center tile"
    while GAME.to_act(state) is not None:
        state, _ = GAME.apply(state, player.choose(GAME, state))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == tuple(a + b for a, b in zip(*state.past_games, strict=True))
    assert outcome.ranks[0] == (1 if outcome.scores[0] <= outcome.scores[1] else 2)


def test_match_with_three_players_is_three_games() -> None:
    state = new(3, seed=5, match="on", mode="all")
    starters = [state.starter]
    player = GreedyPlayer(5)
    while GAME.to_act(state) is not None:
        index = state.game_index
        state, _ = GAME.apply(state, player.choose(GAME, state))
        if state.game_index != index:
            starters.append(state.starter)
    assert starters == [0, 1, 2]
    assert len(state.past_games) == 3


# -- playing ------------------------------------------------------------------------------------


def test_five_tile_draws_after_each_placement() -> None:
    state = new(2, seed=2)
    tile = state.deck[0]
    move = state.legal[0]
    after, events = GAME.apply(state, move)
    assert tile in after.hands[JOE] and len(after.hands[JOE]) == 5
    assert any(e.kind == "draw" and tile in e.text for e in events)
    assert after.turn == ANNA


def test_three_players_five_tile_each_draws_one_more() -> None:
    state = new(3, seed=4)
    player = GreedyPlayer(4)
    drawn = Counter()
    while GAME.to_act(state) is not None:
        state, events = GAME.apply(state, player.choose(GAME, state))
        drawn.update(e.seat for e in events if e.kind == "draw")
    assert drawn == {0: 1, 1: 1, 2: 1}
    assert len(state.board) == 19 and len(state.aside) == 2


def test_one_tile_draws_then_places() -> None:
    state = new(2, seed=6, mode="one")
    assert len(state.hands[JOE]) == 1 and state.hands[ANNA] == ()
    move = state.legal[0]
    state, events = GAME.apply(state, move)
    assert state.hands[JOE] == () and len(state.hands[ANNA]) == 1
    assert [e.kind for e in events] == ["score", "draw"]


def cover_all_but(state: State, holes: set[tuple[int, int]]) -> State:
    """``state`` with tiles (overlapping, as a test fixture) on every square but ``holes``."""
    board = list(state.board)
    covered = {(r, c) for placed in board for r, c, _ in placed.squares()}
    for row in range(SIZE):
        for col in range(SIZE):
            if (row, col) in covered or (row, col) in holes:
                continue
            placed = next(
                filler
                for shape in (*poses("Star"), *poses("Stairs"), *poses("Hammer"))
                for dr, dc, _ in shape.sections
                if (filler := _filler(shape.tile, shape.side, shape.rotation, row - dr, col - dc, holes))
            )
            board.append(placed)
            covered |= {(r, c) for r, c, _ in placed.squares()}
    return replace(state, board=tuple(board))


def _filler(
    tile: str, side: str, rotation: int, row: int, col: int, holes: set[tuple[int, int]]
) -> Placed | None:
    placed = Placed(tile, side, rotation, row, col, 0)
    spots = {(r, c) for r, c, _ in placed.squares()}
    inside = all(0 <= r < SIZE and 0 <= c < SIZE for r, c in spots)
    return placed if inside and not spots & holes else None


def test_no_legal_placement_costs_5_and_passes() -> None:
    state = new(2, seed=1, mode="all")
    holes = {(r, c) for r in range(3) for c in range(3)}
    crowded = cover_all_but(state, holes)
    crowded = replace(crowded, hands=(("Gorilla",), ("Hammer", "Star", "Stairs", "Ladder")), turn=None)
    assert not placements(crowded, ("Gorilla",)), "a 4x3 tile cannot fit a 3x3 hole"
    assert placements(crowded, crowded.hands[ANNA])
    after, events = next_turn(crowded, JOE, ())
    assert after.turn == ANNA
    assert after.points == (5, 0)
    assert [(e.kind, e.seat, e.points) for e in events] == [("score", JOE, 5), ("pass", JOE, 0)]


def test_game_ends_when_no_player_can_place() -> None:
    state = new(2, seed=1, mode="all")
    crowded = cover_all_but(state, {(0, 0), (0, 1), (1, 0), (1, 1)})
    crowded = replace(crowded, hands=(("Gorilla",), ("Star",)), turn=None)
    after, events = next_turn(crowded, JOE, ())
    assert after.finished and after.reason == "no player can place a tile"
    assert after.totals == (5, 5)
    assert events[-1].kind == "game_end"
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.is_draw


def test_one_tile_sets_an_unplaceable_tile_aside() -> None:
    state = new(2, seed=1, mode="one")
    crowded = cover_all_but(state, {(r, c) for r in range(3) for c in range(3)})
    crowded = replace(crowded, hands=((), ()), deck=("Gorilla", "Star", "Anchor"), aside=(), turn=None)
    after, events = next_turn(crowded, JOE, ())
    assert after.aside == ("Gorilla",)
    assert after.turn == ANNA and after.hands[ANNA] == ("Star",)
    assert after.points == (5, 0)
    assert [e.kind for e in events] == ["draw", "score", "pass", "draw"]


# -- time ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("minutes", [1, 2, 3])
def test_live_clock_periods(minutes: int) -> None:
    state = new(minutes=minutes)
    assert GAME.turn_seconds(state) == minutes * 60


def test_timeout_penalty_then_extra_minute_then_forfeit() -> None:
    state = new(minutes=3)
    state, events = GAME.on_timeout(state)
    assert state.totals == (5, 0) and state.penalized and state.turn == JOE
    assert events[0].kind == "timeout" and "+5" in events[0].text
    assert GAME.turn_seconds(state) == 60
    state, events = GAME.on_timeout(state)
    assert state.finished
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (ANNA,) and outcome.forfeited == {JOE}


def test_a_move_in_the_extra_minute_clears_the_penalty() -> None:
    state, _ = GAME.on_timeout(new())
    state, _ = GAME.apply(state, state.legal[0])
    assert not state.penalized and state.turn == ANNA
    assert GAME.turn_seconds(state) == 120


def test_async_clock_leaves_the_period_to_the_session() -> None:
    state = new(clock="async", hours=6)
    assert GAME.turn_seconds(state) is None
    state, events = GAME.on_timeout(state)
    assert "one more period" in events[0].text and GAME.turn_seconds(state) is None


def test_forfeit_with_more_players_the_rest_play_on() -> None:
    state = new(3, seed=3)
    held = state.hands[0]
    state, _ = GAME.on_timeout(state)
    state, events = GAME.on_timeout(state)
    assert not state.finished and state.turn == 1
    assert state.hands[0] == () and set(held) <= set(state.aside)
    assert events[0].kind == "forfeit"
    player = GreedyPlayer(1)
    while GAME.to_act(state) is not None:
        assert GAME.to_act(state) != 0
        state, _ = GAME.apply(state, player.choose(GAME, state))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks[0] == 3


def test_resign_out_of_turn() -> None:
    state = new(4, seed=8)
    state, _ = GAME.resign(state, 2)
    assert state.turn == 0 and 2 in state.forfeited
    state, _ = forfeit(state, 2, "resigned")  # twice is nothing
    assert len(state.forfeited) == 1


# -- notation -----------------------------------------------------------------------------------


def test_notation_examples() -> None:
    state = new(deal=deck("Seahorse", "Chair"))
    chair = next(m for m in state.legal if m.tile == "Chair" and m.side == "B" and m.rotation == 90)
    text = GAME.format_move(state, chair)
    assert text == f"Chair B90 {square_name(chair.row, chair.col)}"
    square = square_name(chair.row, chair.col)
    assert GAME.parse_move(state, f"cha b90 {square.lower()}") == chair
    assert GAME.parse_move(state, f"CHAIRB90{square}") == chair
    zero = next(m for m in state.legal if m.tile == "Chair" and m.side == "B" and m.rotation == 0)
    assert GAME.parse_move(state, f"chair b {square_name(zero.row, zero.col)}") == zero


def test_notation_errors() -> None:
    state = new(deal=deck("Seahorse", "Chair", "Gorilla", "Star", "Stairs"))
    with pytest.raises(InvalidMoveError, match="not a Geominos move"):
        GAME.parse_move(state, "put it there")
    with pytest.raises(InvalidMoveError, match="passed over automatically"):
        GAME.parse_move(state, "pass")
    with pytest.raises(InvalidMoveError, match="rotation"):
        GAME.parse_move(state, "chair a45 k12")
    with pytest.raises(InvalidMoveError, match="no tile called"):
        GAME.parse_move(state, "teapot a0 k12")
    star = next(m for m in state.legal if m.tile == "Star")
    where = square_name(star.row, star.col)
    assert GAME.parse_move(state, f"st {star.side}{star.rotation} {where}") == star, "only Star is held"
    with pytest.raises(InvalidMoveError, match="could be Star or Snake"):
        GAME.parse_move(state, "s a0 k12")
    with pytest.raises(IllegalMoveError, match="do not hold Gorilla"):
        GAME.parse_move(state, "gorilla a0 k12")
    with pytest.raises(IllegalMoveError, match="stick out"):
        GAME.parse_move(state, "chair a0 u21")
    with pytest.raises(IllegalMoveError, match="already taken"):
        GAME.parse_move(state, "chair a0 j10")
    with pytest.raises(IllegalMoveError, match="matches no pips") as caught:
        GAME.parse_move(state, "chair a0 a1")
    assert "Cheapest placements: `Chair" in str(caught.value)


def test_registry_and_identity() -> None:
    assert registry.get("geo") is GAME
    assert GAME.lower_is_better and not GAME.hands_hidden
    assert GAME.hand(GAME.view(new(), None), ANNA) == new().hands[ANNA]
    view = GAME.view(new(3), 1)
    assert set(view.deck) == {"?"} and set(view.aside) == {"?"}


# -- properties ---------------------------------------------------------------------------------


def tile_count(state: State) -> int:
    return len(state.board) + sum(len(h) for h in state.hands) + len(state.deck) + len(state.aside)


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    mode=st.sampled_from(["five", "all", "one"]),
    match=st.sampled_from(["off", "on"]),
)
def test_playouts_keep_the_invariants(players: int, seed: int, mode: str, match: str) -> None:
    state = new(players, seed=seed, mode=mode, match=match)
    player = RandomPlayer(seed)
    rng = random.Random(seed)
    penalties = 0
    while GAME.to_act(state) is not None:
        assert tile_count(state) == 21
        moves = GAME.legal_moves(state)
        for move in rng.sample(moves, min(3, len(moves))):
            assert GAME.parse_move(state, GAME.format_move(state, move)) == move
            assert any(a == b for a, b in touching(state, move))
        move = player.choose(GAME, state)
        before = state.totals
        state, events = GAME.apply(state, move)
        gained = sum(e.points for e in events if e.kind == "score")
        assert sum(state.totals) - sum(before) == gained
        ends = [index for index, e in enumerate(events) if e.kind == "round_end"]
        if ends:  # a new game of the match began: count its penalties only
            penalties = 0
            events = events[ends[-1] + 1 :]
        penalties += sum(1 for e in events if "no legal placement" in e.text)
    assert len(state.past_games) == (players if match == "on" else 1)
    assert state.totals == tuple(map(sum, zip(*state.past_games, strict=True)))
    squares = sum(len(p.pose.sections) for p in state.board)
    assert squares == sum(1 for pips in state.grid if pips), "tiles never overlap"
    assert sum(state.points) == sum(p.points for p in state.board) + 5 * penalties
    assert tile_count(state) == 21
    expected_unplayed = 2 if players == 3 else 0
    assert len(state.aside) >= expected_unplayed


@settings(max_examples=20, deadline=None)
@given(
    tile=st.sampled_from(TILE_NAMES),
    side=st.sampled_from(["A", "B"]),
    turns=st.integers(0, 3),
)
def test_four_quarter_turns_come_back(tile: str, side: str, turns: int) -> None:
    start = pose(tile, side, 90 * turns)
    pips = TILE_TABLE[TILE_NAMES.index(tile)][2 if side == "A" else 3]
    assert sorted(p for _, _, p in start.sections) == sorted(int(ch) for ch in pips)
    assert start.height * start.width >= len(start.sections)

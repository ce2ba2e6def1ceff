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
from games.ai.search import greedy_playout_move
from games.core import Event, EventKind, event_phrase, outcome_phrase
from games.errors import IllegalMoveError, InvalidMoveError, InvalidOptionsError
from games.geominos import GAME, Move, Options, State, notation
from games.geominos.board import SIZE, assessed, in_center, is_light, parse_square, square_name
from games.geominos.game import greedy_playout
from games.geominos.rules import deck_for, move_cost, next_turn, placements
from games.geominos.state import Placed
from games.geominos.tiles import TILE_NAMES, TILE_TABLE, pose, poses, sections_count, shape_cells
from games.records import Record, new_record, replay
from tests.support.work import at_most_doubles, linear

JOE, ANNA = 0, 1
NAMES = ("Joe", "Anna", "Cara", "Dan")
REST = [name for name in TILE_NAMES if name not in ("Chair", "Seahorse", "Gorilla")]


def deck(*first: str) -> list[str]:
    """A deck with ``first`` on top and the other tiles after, in table order."""
    return [*first, *(name for name in TILE_NAMES if name not in first)]


def new(players: int = 2, deal: list[str] | None = None, seed: int = 1, **options: object) -> State:
    return GAME.new(players, Options.from_dict(options), seed=seed, deal=deal)


def play(state: State, text: str) -> tuple[State, tuple[Event, ...]]:
    return GAME.apply(state, GAME.parse_move(state, text))


def legal(state: State) -> list[Move]:
    return GAME.legal_moves(state)


def words(events: tuple[Event, ...], players: int = 2) -> list[str]:
    """The events as a player reads them (the bot puts the name first)."""
    return [event_phrase(GAME, event, NAMES[:players]) for event in events]


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
    assert len(state.deck) == deck_left and len(state.unseen) == aside and state.aside == ()
    assert state.turn == 0


def test_deal_order_is_round_robin_and_three_players_set_the_last_two_aside() -> None:
    cards = deck("Chair")
    state = new(3, deal=cards, mode="five")
    assert state.hands[0] == tuple(cards[1:16:3])
    assert state.hands[1] == tuple(cards[2:16:3])
    assert state.unseen == tuple(cards[-2:])
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
    with pytest.raises(InvalidOptionsError, match="each of the 21 tiles exactly once"):
        new(deal=["Chair"] * 21)
    with pytest.raises(InvalidOptionsError, match="1 game"):
        new(deal=[deck("Chair"), deck("Tree")])  # two decks for a single game
    with pytest.raises(InvalidOptionsError, match=r"unknown tiles `x{39}…`"):
        new(deal=[*deck("Chair")[:-1], "x" * 10_000])
    assert new(2, deal=[deck("Chair"), deck("Tree")], match="on").board[0].tile == "Chair"
    assert new(deal=[name.upper() for name in deck("Chair")]).board[0].tile == "Chair"


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(TILE_NAMES),
    lambda inner: st.lists(inner, max_size=25) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=60,
)


@settings(max_examples=200, deadline=None)
@given(deal=JSON | st.permutations(TILE_NAMES).map(lambda names: [*names[:-1], 7]), match=st.booleans())
def test_random_json_deals_are_refused_with_a_clear_error(deal: object, match: bool) -> None:
    try:
        state = new(2, deal=deal, match="on" if match else "off")  # type: ignore[arg-type]
    except InvalidOptionsError as error:
        assert str(error) and len(str(error)) < 600
    else:
        assert tile_count(state) == 21


def test_options_are_declared_with_choices_labels_and_ranges() -> None:
    specs = {spec.name: spec for spec in Options.specs()}
    assert list(specs) == ["mode", "clock", "minutes", "hours", "match"]
    assert specs["mode"].choices == ("five", "all", "one") and specs["mode"].default == "five"
    assert specs["mode"].label("five") == "Five-Tile: hold 5, draw after each placement (default)"
    assert specs["clock"].labels["async"].startswith("async: hours a move")
    assert specs["minutes"].choices == (1, 2, 3) and specs["minutes"].label(3) == "3 minutes (beginners)"
    assert (specs["hours"].low, specs["hours"].high, specs["hours"].default) == (1, 168, 24)
    assert specs["match"].labels["on"].startswith("on: one game per player")
    assert all(spec.help for spec in specs.values())
    assert Options.from_dict({"minutes": "3", "match": "on"}) == Options(minutes=3, match="on")


# -- the examples of the source text ------------------------------------------------------------


def test_figures_3_and_4_joe_is_assessed_1_and_anna_4() -> None:
    # The project's own tile set has no Seahorse placement like the figure's, so Joe places
    # the Rabbit next to the Chair (1-pip sections side by side), and Anna the Boot where two
    # 5-pip sections match.
    state = new(deal=deck("Chair", "Rabbit", "Boot"))
    assert "Rabbit" in state.hands[JOE] and "Boot" in state.hands[ANNA]
    joe = next(
        m
        for m in legal(state)
        if m.tile == "Rabbit" and move_cost(m) == 1 and (1, 1) in touching(state, m, "Chair")
    )
    state, events = GAME.apply(state, joe)
    assert state.totals == (1, 0)
    assert [(e.seat, e.points) for e in events if e.kind == "score"] == [(JOE, 1)]
    anna = next(
        m for m in legal(state) if m.tile == "Boot" and move_cost(m) == 4 and (5, 5) in touching(state, m)
    )
    state, events = GAME.apply(state, anna)
    assert state.totals == (1, 4)
    placed = events[0]
    assert (placed.kind, placed.seat, placed.reason, placed.subject) == ("score", ANNA, "pips", "Boot")
    assert words(events)[0] == "pips on light squares +4"


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
    for move in legal(state):
        pairs = touching(state, move)
        assert any(a == b for a, b in pairs)
    some_mixed = [m for m in legal(state) if any(a != b for a, b in touching(state, m))]
    assert some_mixed, "placements with non-matching contacts beside a match are legal"


def test_score_sheet_joe_1_then_6_anna_4_then_5() -> None:
    state = new(deal=deck("Chair"))
    sheet: list[tuple[int, int]] = []
    for seat, cost in ((JOE, 1), (ANNA, 4), (JOE, 6), (ANNA, 5)):
        assert state.turn == seat
        move = next(m for m in legal(state) if move_cost(m) == cost)
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
    assert [(e.seat, e.points) for e in events if e.reason == "game_points"] == [(JOE, 53), (ANNA, 56)]
    assert "Anna was assessed +56 in game 1" in [f"Anna {w}" for w in words(events)]
    assert any(e.kind == "round_end" and e.reason == "game_all_placed" and e.count == 1 for e in events)
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
    move = legal(state)[0]
    after, events = GAME.apply(state, move)
    assert tile in after.hands[JOE] and len(after.hands[JOE]) == 5
    assert any(e.kind == "draw" and e.seat == JOE and e.subject == tile for e in events)
    assert f"draws {tile}" in words(events)
    assert after.turn == ANNA


def test_three_players_five_tile_each_draws_one_more() -> None:
    state = new(3, seed=4)
    player = GreedyPlayer(4)
    drawn = Counter()
    while GAME.to_act(state) is not None:
        state, events = GAME.apply(state, player.choose(GAME, state))
        drawn.update(e.seat for e in events if e.kind == "draw")
    assert drawn == {0: 1, 1: 1, 2: 1}
    assert len(state.board) == 19 and len(state.unseen) == 2 and state.aside == ()


def test_one_tile_draws_then_places() -> None:
    state = new(2, seed=6, mode="one")
    assert len(state.hands[JOE]) == 1 and state.hands[ANNA] == ()
    move = legal(state)[0]
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
    assert words(events) == ["has no tile that fits anywhere on the board +5", "passes"]


def test_game_ends_when_no_player_can_place() -> None:
    state = new(2, seed=1, mode="all")
    crowded = cover_all_but(state, {(0, 0), (0, 1), (1, 0), (1, 1)})
    crowded = replace(crowded, hands=(("Gorilla",), ("Star",)), turn=None)
    after, events = next_turn(crowded, JOE, ())
    assert after.finished and after.reason == "blocked"
    assert after.totals == (5, 5)
    assert events[-1].kind == "game_end" and words(events)[-1] == "no player can place a tile"
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.is_draw
    assert outcome_phrase(GAME, outcome, NAMES[:2]) == "no player can place a tile"


def test_one_tile_sets_an_unplaceable_tile_aside() -> None:
    state = new(2, seed=1, mode="one")
    crowded = cover_all_but(state, {(r, c) for r in range(3) for c in range(3)})
    crowded = replace(crowded, hands=((), ()), deck=("Gorilla", "Star", "Anchor"), aside=(), turn=None)
    after, events = next_turn(crowded, JOE, ())
    assert after.aside == ("Gorilla",)
    assert after.turn == ANNA and after.hands[ANNA] == ("Star",)
    assert after.points == (5, 0)
    assert [e.kind for e in events] == ["draw", "score", "discard", "pass", "draw"]
    assert words(events) == [
        "draws Gorilla",
        "cannot place Gorilla anywhere on the board +5",
        "sets Gorilla aside unplayed",
        "passes",
        "draws Star",
    ]


# -- a pass and the end when nobody can place, in real play (issue 13) ----------------------------
#
# Sixteen placements around the Dog center tile that leave the Anchor no place anywhere: found by
# a beam search over legal placements (keeping the Anchor's placements fewest) and checked by the
# engine. The Ladder still fits at B6 without opening a place for the Anchor.

SEALING = (
    "Stairs B0 M11", "Star B90 O9", "Giraffe A180 G10", "Seahorse A180 J6",
    "Table A0 L8", "Chair B270 G5", "Crown A180 F8", "Rabbit B270 D3",
    "Tree A90 G2", "Sword A270 B3", "Flag A270 E6", "Camel B0 C1",
    "Hammer A0 A1", "Boot A0 A2", "Gorilla A180 C8", "Snake A0 A10",
)  # fmt: skip
SEALED_DEAL = ["Dog", *(text.split()[0] for text in SEALING), "Anchor", "Ladder", "Elephant", "Sailboat"]
CARA = 2


def play_all(state: State, moves: tuple[str, ...]) -> tuple[State, tuple[Event, ...]]:
    """Play ``moves`` in turn order; the events of the last one."""
    events: tuple[Event, ...] = ()
    for index, text in enumerate(moves):
        assert state.turn == index % state.players, text
        state, events = play(state, text)
    return state, events


def test_one_tile_a_drawn_tile_that_fits_nowhere_costs_5_and_the_turn_passes() -> None:
    state, events = play_all(new(2, deal=SEALED_DEAL, mode="one"), SEALING)
    assert not placements(state, ("Anchor",)), "the Anchor fits nowhere on this board"
    # Anna placed the Snake; Joe's turn began by itself: he drew the Anchor, was assessed 5,
    # the Anchor went aside, and Anna drew the Ladder and is to play
    assert [(e.kind, e.seat, e.reason, e.points, e.subject) for e in events] == [
        ("score", ANNA, "pips", 6, "Snake"),
        ("draw", JOE, "drew", 0, "Anchor"),
        ("score", JOE, "drawn_no_fit", 5, "Anchor"),
        ("discard", JOE, "set_aside", 0, "Anchor"),
        ("pass", JOE, "passed", 0, ""),
        ("draw", ANNA, "drew", 0, "Ladder"),
    ]
    assert words(events)[1:] == [
        "draws Anchor",
        "cannot place Anchor anywhere on the board +5",
        "sets Anchor aside unplayed",
        "passes",
        "draws Ladder",
    ]
    assert GAME.to_act(state) == ANNA and state.hands == ((), ("Ladder",)) and state.aside == ("Anchor",)
    assert state.plies == len(SEALING), "the pass is played by the rules, not as a move"
    placed = sum(p.points for p in state.board if p.owner == JOE)
    assert state.points[JOE] == placed + 5
    player = GreedyPlayer(1)
    while GAME.to_act(state) is not None:
        state, events = GAME.apply(state, player.choose(GAME, state))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "all_placed" and state.aside == ("Anchor",)
    assert len(state.board) == 20 and tile_count(state) == 21
    assert outcome_phrase(GAME, outcome, NAMES[:2]) == "every tile in play is placed"


def test_all_tile_a_hand_that_fits_nowhere_passes_then_nobody_can_place_and_the_game_ends() -> None:
    state = new(3, deal=SEALED_DEAL, mode="all")
    assert state.hands[ANNA] == ("Star", "Table", "Rabbit", "Flag", "Boot", "Anchor")
    assert state.hands[CARA][-1] == "Ladder" and state.unseen == ("Elephant", "Sailboat")
    state, events = play_all(state, SEALING)
    # Joe placed the Snake; Anna holds only the Anchor, which fits nowhere: +5 and Cara plays
    assert [(e.kind, e.seat, e.reason, e.points) for e in events] == [
        ("score", JOE, "pips", 6),
        ("score", ANNA, "no_fit", 5),
        ("pass", ANNA, "passed", 0),
    ]
    assert words(events, 3)[1:] == ["has no tile that fits anywhere on the board +5", "passes"]
    assert GAME.to_act(state) == CARA and state.hands == ((), ("Anchor",), ("Ladder",))
    before = state.totals
    state, events = play(state, "Ladder A0 B6")
    # Joe and Cara hold nothing and the Anchor still fits nowhere: Anna is assessed 5 again, and
    # since nobody can place, the game ends
    assert [(e.kind, e.seat, e.reason, e.points) for e in events] == [
        ("score", CARA, "pips", 13),
        ("score", ANNA, "no_fit", 5),
        ("pass", ANNA, "passed", 0),
        ("game_end", None, "blocked", 0),
    ]
    assert words(events, 3)[-1] == "no player can place a tile"
    assert state.finished and GAME.to_act(state) is None and GAME.legal_moves(state) == []
    assert state.totals == (before[0], before[1] + 5, before[2] + 13) == (60, 76, 69)
    assert state.hands[ANNA] == ("Anchor",), "the Anchor stays unplayed"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 3, 2)
    assert (outcome.reason, outcome.reason_seat) == ("blocked", None)
    assert outcome_phrase(GAME, outcome, NAMES[:3]) == "no player can place a tile"
    assert GAME.describe(state, NAMES[:3]).endswith("Game over: no player can place a tile.")
    with pytest.raises(IllegalMoveError, match="game is over"):
        play(state, "Ladder A0 B6")
    record = new_record(GAME, NAMES[:3], Options(mode="all").to_dict(), 1, SEALED_DEAL)
    for index, text in enumerate(SEALING):
        record = record.with_move(index % 3, text)
    record = record.with_move(CARA, "Ladder A0 B6")  # Anna was passed over
    assert replay(Record.from_text(record.to_text())).final == state, "the passes replay from the record"


def test_in_match_play_a_game_nobody_can_finish_ends_and_the_next_begins() -> None:
    state = new(3, deal=[SEALED_DEAL], mode="all", match="on")
    state, _ = play_all(state, SEALING)
    state, events = play(state, "Ladder A0 B6")
    assert not state.finished and state.game_index == 1 and state.past_games == ((60, 76, 69),)
    assert state.starter == ANNA and state.totals == (60, 76, 69) and state.points == (0, 0, 0)
    summary = [(e.kind, e.seat, e.reason, e.points, e.count) for e in events if e.kind == "round_end"]
    assert summary == [
        ("round_end", None, "game_blocked", 0, 1),
        ("round_end", JOE, "game_points", 60, 1),
        ("round_end", ANNA, "game_points", 76, 1),
        ("round_end", CARA, "game_points", 69, 1),
    ]
    said = words(events, 3)
    assert "game 1 is over: no player can place a tile" in said
    assert "was assessed +76 in game 1" in said
    assert f"game 2 begins with {state.board[0].tile} as the center tile" in said


# -- time ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("minutes", [1, 2, 3])
def test_live_clock_periods(minutes: int) -> None:
    state = new(minutes=minutes)
    assert GAME.turn_seconds(state) == minutes * 60


def test_timeout_penalty_then_extra_minute_then_forfeit() -> None:
    state = new(minutes=3)
    state, events = GAME.on_timeout(state)
    assert state.totals == (5, 0) and state.penalized and state.turn == JOE
    assert (events[0].kind, events[0].seat, events[0].points) == ("timeout", JOE, 5)
    assert words(events) == ["time penalty +5; one more minute to place a tile"]
    assert GAME.turn_seconds(state) == 60
    state, events = GAME.on_timeout(state)
    assert state.finished
    assert words(events) == ["ran out of time twice and forfeits", "Anna is the last player left"]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (ANNA,) and outcome.forfeited == {JOE}
    assert (outcome.reason, outcome.reason_seat) == ("last_standing", ANNA)
    assert outcome_phrase(GAME, outcome, NAMES[:2]) == "Anna is the last player left"
    assert GAME.describe(state, NAMES[:2]).endswith("Game over: Anna is the last player left.")


def test_a_move_in_the_extra_minute_clears_the_penalty() -> None:
    state, _ = GAME.on_timeout(new())
    state, _ = GAME.apply(state, legal(state)[0])
    assert not state.penalized and state.turn == ANNA
    assert GAME.turn_seconds(state) == 120


def test_async_clock_leaves_the_period_to_the_session() -> None:
    state = new(clock="async", hours=6)
    assert GAME.turn_seconds(state) is None
    state, events = GAME.on_timeout(state)
    assert words(events) == ["time penalty +5; one more period to place a tile"]
    assert GAME.turn_seconds(state) is None


def test_forfeit_with_more_players_the_rest_play_on() -> None:
    state = new(3, seed=3)
    held = state.hands[0]
    state, _ = GAME.on_timeout(state)
    state, events = GAME.on_timeout(state)
    assert not state.finished and state.turn == 1
    assert state.hands[0] == () and set(held) <= set(state.aside)
    assert (events[0].kind, events[0].seat, events[0].reason) == ("forfeit", 0, "forfeit_timeout")
    player = GreedyPlayer(1)
    while GAME.to_act(state) is not None:
        assert GAME.to_act(state) != 0
        state, _ = GAME.apply(state, player.choose(GAME, state))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks[0] == 3


def test_resign_out_of_turn() -> None:
    state = new(4, seed=8)
    held = state.hands[2]
    state, events = GAME.resign(state, 2)
    assert state.turn == 0 and 2 in state.forfeited
    assert state.aside == held and state.hands[2] == ()
    assert words(events, 4) == ["resigns"]
    with pytest.raises(IllegalMoveError, match="already resigned"):
        GAME.resign(state, 2)
    assert len(state.forfeited) == 1


# -- notation -----------------------------------------------------------------------------------


def test_notation_examples() -> None:
    state = new(deal=deck("Seahorse", "Chair"))
    chair = next(m for m in legal(state) if m.tile == "Chair" and m.side == "B" and m.rotation == 90)
    text = GAME.format_move(state, chair)
    assert text == f"Chair B90 {square_name(chair.row, chair.col)}"
    square = square_name(chair.row, chair.col)
    assert GAME.parse_move(state, f"cha b90 {square.lower()}") == chair
    assert GAME.parse_move(state, f"CHAIRB90{square}") == chair
    zero = next(m for m in legal(state) if m.tile == "Chair" and m.side == "B" and m.rotation == 0)
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
    star = next(m for m in legal(state) if m.tile == "Star")
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


def test_notation_errors_quote_the_input_and_say_what_is_legal() -> None:
    state = new(deal=deck("Seahorse", "Chair", "Gorilla", "Star", "Stairs"))
    for text, error, start in (
        ("teapot a0 k12", InvalidMoveError, "`teapot a0 k12`: there is no tile called `teapot`"),
        ("chair a0 v3", InvalidMoveError, "`chair a0 v3`: squares run from A1 to U21"),
        ("chair a0 k0", InvalidMoveError, "`chair a0 k0`: squares run"),
        ("chair a0099 k12", InvalidMoveError, "`chair a0099 k12`: the rotation is 0, 90, 180 or 270"),
        ("chair é0 k12", InvalidMoveError, "`chair é0 k12` is not a Geominos move"),
        ("chair 90 k12", InvalidMoveError, "`chair 90 k12` is not a Geominos move"),
        ("gorilla a0 k12", IllegalMoveError, "`gorilla a0 k12`: you do not hold Gorilla"),
        ("chair a0 a1", IllegalMoveError, "`Chair A0 A1` matches no pips"),
    ):
        with pytest.raises(error) as caught:
            GAME.parse_move(state, text)
        assert str(caught.value).startswith(start), str(caught.value)
    chair = next(m for m in legal(state) if m.tile == "Chair" and m.rotation == 90)
    spaced = f"  CHAIR {chair.side} 090 {square_name(chair.row, chair.col)[0]} {chair.row + 1} "
    assert GAME.parse_move(state, spaced) == chair


def test_the_parser_is_linear_in_its_input() -> None:
    state = new(deal=deck("Seahorse", "Chair"))
    for text in (
        lambda n: "c" * n + "a0k12",
        lambda n: "chair" + "b" * n + "0k12",
        lambda n: "ch" + "9a" * (n // 2),
    ):
        with pytest.raises(InvalidMoveError) as caught:
            notation.parse_move(state, text(200_000))  # below the base class, which refuses long text itself
        assert len(str(caught.value)) < 600
        work = linear(lambda n, text=text: notation.parse_move(state, text(n)), 4_000, InvalidMoveError)
        assert at_most_doubles(work), work


def test_registry_and_identity() -> None:
    assert registry.get("geo") is GAME
    assert GAME.lower_is_better and not GAME.hands_hidden
    assert GAME.hand(GAME.view(new(), None), ANNA) == new().hands[ANNA]
    view = GAME.view(new(3), 1)
    assert set(view.deck) == {"?"} and set(view.unseen) == {"?"}


# -- hidden information -------------------------------------------------------------------------


def test_a_view_hides_the_deck_the_unseen_cards_the_deal_and_the_seed() -> None:
    decks = [deck("Chair"), deck("Tree"), deck("Anchor")]
    state = new(3, deal=decks, seed=77, match="on")
    for viewer in (None, 0, 1, 2):
        view = GAME.view(state, viewer)
        assert view.hands == state.hands, "hands are public"
        assert view.deck == ("?",) * len(state.deck) and view.unseen == ("?", "?")
        assert view.decks == () and view.seed == 0, "later games' decks stay hidden"
        assert (view.board, view.totals, view.turn) == (state.board, state.totals, state.turn)
        assert "Tree" not in repr(view.decks) and "77" not in repr(view.seed)


def test_determinize_deals_the_unseen_tiles_at_random_and_keeps_the_view() -> None:
    state = new(3, seed=12, mode="five", match="on")
    state, _ = GAME.apply(state, legal(state)[0])
    state, _ = GAME.resign(state, 2)  # a hand set aside in the open
    view = GAME.view(state, 0)
    hidden = set(state.deck) | set(state.unseen)
    first = GAME.determinize(view, 0, random.Random(1))
    second = GAME.determinize(view, 0, random.Random(2))
    for guess in (first, second):
        assert GAME.view(guess, 0) == view
        assert set(guess.deck) | set(guess.unseen) == hidden, "drawn from the tiles not accounted for"
        assert len(guess.deck) == len(state.deck) and len(guess.unseen) == len(state.unseen)
        assert guess.aside == state.aside and guess.hands == state.hands
        assert guess.seed != 0 and guess.decks == ()
        assert tile_count(guess) == 21
    assert (first.deck, first.unseen, first.seed) != (second.deck, second.unseen, second.seed)


def test_determinized_matches_play_on_into_freshly_shuffled_games() -> None:
    state = new(2, deal=[deck("Chair"), deck("Tree")], match="on", mode="all")
    guess = GAME.determinize(GAME.view(state, 1), 1, random.Random(5))
    player = GreedyPlayer(2)
    while guess.game_index == 0:
        guess, _ = GAME.apply(guess, player.choose(GAME, guess))
    assert guess.board[0].tile == deck_for(guess.seed, (), 1)[0], "the second deck comes from the fresh seed"
    while GAME.to_act(guess) is not None:
        guess, _ = GAME.apply(guess, player.choose(GAME, guess))
    assert GAME.outcome(guess) is not None and len(guess.past_games) == 2


# -- properties ---------------------------------------------------------------------------------


def tile_count(state: State) -> int:
    held = sum(len(h) for h in state.hands)
    return len(state.board) + held + len(state.deck) + len(state.unseen) + len(state.aside)


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
    game_points: list[tuple[int, int]] = []
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
        assert sum(state.totals) - sum(before) == gained, "the totals move by the score events"
        for event in events:
            assert isinstance(event.kind, EventKind) and event.reason in GAME.phrases, event
            if event.reason == "center_tile":  # a new game of the match began: count its penalties
                penalties = 0
            penalties += event.reason in ("no_fit", "drawn_no_fit")
            if event.reason == "game_points":
                assert event.seat is not None
                game_points.append((event.seat, event.points))
    games = players if match == "on" else 1
    assert len(state.past_games) == games
    assert state.totals == tuple(map(sum, zip(*state.past_games, strict=True)))
    if match == "on":
        assert game_points == [(seat, past[seat]) for past in state.past_games for seat in range(players)]
    squares = sum(len(p.pose.sections) for p in state.board)
    assert squares == sum(1 for pips in state.grid if pips), "tiles never overlap"
    assert sum(state.points) == sum(p.points for p in state.board) + 5 * penalties
    assert tile_count(state) == 21
    assert len(state.unseen) == (2 if players == 3 else 0)


@settings(max_examples=10, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    mode=st.sampled_from(["five", "all", "one"]),
    plies=st.integers(0, 60),
)
def test_determinized_match_views_are_whole_games(players: int, seed: int, mode: str, plies: int) -> None:
    state = new(players, seed=seed, mode=mode, match="on")
    player = RandomPlayer(seed)
    for _ in range(plies):
        if GAME.to_act(state) is None:
            break
        state, _ = GAME.apply(state, player.choose(GAME, state))
    viewer = GAME.to_act(state)
    view = GAME.view(state, viewer)
    guess = GAME.determinize(view, viewer, random.Random(seed))
    assert GAME.view(guess, viewer) == view and tile_count(guess) == 21
    assert sorted((*guess.deck, *guess.unseen)) == sorted((*state.deck, *state.unseen))
    while GAME.to_act(guess) is not None:
        guess, _ = GAME.apply(guess, player.choose(GAME, guess))
    assert len(guess.past_games) == players and GAME.outcome(guess) is not None


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


def placements_by_definition(state: State, hand: tuple[str, ...]) -> list[Move]:
    """Every placement the rules allow, found square by square: the tile on the board, no
    section on a taken square, some section beside (not diagonally) one with the same pips;
    tile by tile, side A then B, rotations in order, squares row by row."""
    found = []
    for tile in dict.fromkeys(hand):
        for shape in poses(tile):
            for row in range(SIZE - shape.height + 1):
                for col in range(SIZE - shape.width + 1):
                    move = Move(tile, shape.side, shape.rotation, row, col)
                    cells = [(row + dr, col + dc) for dr, dc, _ in shape.sections]
                    if all(not state.grid[r * SIZE + c] for r, c in cells) and any(
                        a == b for a, b in touching(state, move)
                    ):
                        found.append(move)
    return found


@pytest.mark.parametrize(("seed", "mode"), [(3, "five"), (8, "all")])
def test_placements_are_exactly_those_the_rules_allow_in_order(seed: int, mode: str) -> None:
    state = new(2, seed=seed, mode=mode)
    player = RandomPlayer(seed)
    rng = random.Random(seed)
    plies = 0
    while GAME.to_act(state) is not None:
        if plies % 4 == 0:
            hand = state.hands[state.turn or 0]
            assert placements(state, hand) == placements_by_definition(state, hand)
            assert all(GAME.is_legal(state, move) for move in placements(state, hand))
            legal_set = set(placements(state, hand))
            for _ in range(300):
                tile = rng.choice(TILE_NAMES)
                row, col = rng.randrange(-2, SIZE + 2), rng.randrange(-2, SIZE + 2)
                move = Move(tile, rng.choice("AB"), rng.choice((0, 90, 180, 270)), row, col)
                assert GAME.is_legal(state, move) == (move in legal_set), move
        state, _ = GAME.apply(state, player.choose(GAME, state))
        plies += 1


@pytest.mark.parametrize("seed", [2, 9])
def test_the_playout_policy_is_the_search_default_greedy_playout(seed: int) -> None:
    """The playouts' own policy finds the same move, with the same random draws, as the
    search's default greedy playout over every legal move."""
    state = new(3, seed=seed, mode="five")
    player = RandomPlayer(seed)
    while GAME.to_act(state) is not None:
        quick, generic = random.Random(seed), random.Random(seed)
        assert greedy_playout(GAME, state, quick) == greedy_playout_move(GAME, state, generic, 0.0, None)
        assert quick.random() == generic.random()
        state, _ = GAME.apply(state, player.choose(GAME, state))

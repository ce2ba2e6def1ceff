"""Puzz-Ominos (two players): the rule text's examples, the turn structure, notation, properties."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import records, registry
from games.__main__ import selfplay
from games.ai import GreedyPlayer
from games.core import Event, EventKind, event_phrase
from games.errors import IllegalMoveError, InvalidMoveError, InvalidOptionsError, RecordError
from games.puzzominos import GAME, notation
from games.puzzominos.board import Place, placed_cells
from games.puzzominos.game import position
from games.puzzominos.pieces import (
    ALL_PIECES,
    ORIENTATIONS,
    Orientation,
    canonical_orientation,
    distinct_orientations,
    size,
)
from games.puzzominos.rules import targets
from games.puzzominos.scoring import estimate, estimate_place, standings, touched_squares
from games.puzzominos.state import PASS, Colour, Move, MoveKind, Placement
from games.puzzominos.state import Options as PuzzOptions
from games.puzzominos.state import State as PuzzState
from tests.support.work import at_most_doubles, linear, steps_of

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")

FAR = [f"{piece}r0@{20 * k},60" for k, piece in enumerate(ALL_PIECES)]


def play(state: PuzzState, *texts: str) -> tuple[PuzzState, list[Event]]:
    events: list[Event] = []
    for text in texts:
        state, new = GAME.apply(state, GAME.parse_move(state, text))
        events.extend(new)
    return state, events


def points(events: list[Event]) -> int:
    return sum(event.points for event in events if event.kind == "score")


def said(events: list[Event], kind: EventKind | None = None) -> list[str]:
    """The events' words (of one kind), as the bot shows them."""
    return [event_phrase(GAME, e, NAMES) for e in events if kind is None or e.kind == kind]


def is_legal_place(state: PuzzState, place: Place) -> bool:
    return GAME.is_legal(state, Move.placing(place))


def far_pieces(seat: int, skip: set[str]) -> list[tuple[int, str]]:
    """Pieces parked far from the action (for positions late in the game)."""
    y = 60 if seat == 0 else 90
    return [(seat, text.replace(",60", f",{y}")) for text in FAR if text.split("r")[0] not in skip]


# -- the source's examples ---------------------------------------------------------------


def test_red_starts_blue_touches_three_red_squares() -> None:
    state = GAME.new(2)
    assert GAME.to_act(state) == 0
    state, events = play(state, "Ir0@0,0")
    assert events == [] and GAME.to_act(state) == 1
    state, events = play(state, "Tr0@0,1")  # top bar under three squares of the red I
    assert points(events) == 3
    assert events[0] == Event(EventKind.SCORE, seat=1, points=3, reason="touch", count=3, subject="Red")
    assert said(events) == ["touches 3 Red squares +3"]
    assert state.scores == (0, 3)


def test_later_piece_touching_one_square_scores_one() -> None:
    state, _ = play(GAME.new(2), "Ir0@0,0", "Tr0@0,1")
    state, events = play(state, "Lr0@3,1")  # touches its own I and the blue square 2,1
    assert points(events) == 1
    assert state.scores == (1, 3)


def test_two_blue_squares_and_one_empty_space_score_three() -> None:
    state = position([(0, "Ir1@-1,1"), (1, "Ir0@0,0")])
    state, events = play(state, "Ur0@0,1")  # the U's cup closes 1,1 under the blue I
    assert said(events, EventKind.SCORE) == [
        "touches 2 Blue squares +2",
        "encloses 1 empty square +1",
    ]
    assert points(events) == 3


def test_distinct_squares_counted_once() -> None:
    state = position([(0, "Ir1@-1,0"), (1, "Ir1@1,1")])
    state, events = play(state, "Ur2@0,0")  # wraps the blue square 1,1 on three sides
    assert points(events) == 1


WALLS = [(0, "Lr0@0,0"), (0, "Ir0@1,0"), (1, "Ir0@1,2")]


def test_three_enclosed_squares_score_nothing() -> None:
    state = position(WALLS)
    state, events = play(state, "Vr0f@4,-1")  # closes the pocket 1,1 2,1 3,1
    assert points(events) == 2  # the two blue squares only
    assert said(events, EventKind.INFO) == ["encloses 3 empty squares: no points (3 or more)"]


def test_last_piece_scores_every_enclosed_square() -> None:
    parked = far_pieces(0, {"L", "I", "V"}) + far_pieces(1, {"I", "V3"})
    state = position(WALLS + parked, to_act=0)
    assert len(state.left(0)) == 1
    state, events = play(state, "Vr0f@4,-1")
    assert points(events) == 2 + 3
    assert "last piece encloses 3 empty squares +3" in said(events)
    assert GAME.to_act(state) is None


def test_two_small_groups_score_with_one_piece() -> None:
    # Holes at 1,1 and 3,1 under a blue bar; the T4 closes both and touches 2,0.
    state = position([(1, "Ir0@0,0"), (0, "Ir1@0,1"), (0, "Lr0@4,1")])
    state, events = play(state, "T4r2@1,1")
    assert said(events, EventKind.SCORE) == [
        "touches 1 Blue square +1",
        "encloses 1 empty square +1",
        "encloses 1 empty square +1",
    ]  # one event per group: the bot merges them into "encloses 2 empty squares +2"
    assert said(events, EventKind.BONUS) == ["Free Turn: Ann plays a second piece"]


ROOM = [(0, "Ir0@0,0"), (0, "Ir0@0,3"), (0, "Ir1@-1,0"), (0, "Ir1@5,0")]
"""Walls around an already enclosed room of 10 empty squares (x 0-4, y 1-2)."""


def test_pockets_carved_out_of_an_enclosed_room_score() -> None:
    # The room was enclosed before, but each pocket the U leaves is a new group that it walls in.
    state, events = play(position(ROOM), "Ur0@1,1")
    assert said(events, EventKind.SCORE) == [
        "encloses 1 empty square +1",
        "encloses 2 empty squares +2",
        "encloses 2 empty squares +2",
    ]
    # Groups enclosed earlier score nothing again for a piece that does not touch them.
    state, events = play(state, "Xr0@1,4", "Lr0@-2,-4")
    assert said(events, EventKind.SCORE) == ["touches 1 Red square +1"]


def test_diagonals_do_not_open_an_enclosed_square() -> None:
    # 0,0 and 1,1 get walled in on their four sides while every diagonal stays open.
    state = position([(0, "Ir0@-5,0"), (0, "Ir1@0,1"), (0, "Ir1@0,-5")])
    state, events = play(state, "Ur3@1,0")
    assert points(events) == 2
    assert said(events, EventKind.SCORE) == ["encloses 1 empty square +1"] * 2


def test_completed_game_tally_blue_wins_30_to_29() -> None:
    # The source's score sheet: 13 Red turns (14 pieces), 12 Blue turns (13 pieces).
    red = [2, 3, 2, 2, 2, 1, 3, 2, 1, 3, 2, 3, 3]
    blue = [3, 1, 2, 1, 3, 4, 2, 3, 2, 3, 3, 3]
    assert (sum(red), sum(blue)) == (29, 30)
    assert standings((29, 30), (14, 13)) == (2, 1)
    assert standings((30, 30), (14, 13)) == (2, 1)  # a tie: fewer pieces played wins
    assert standings((30, 30), (13, 13)) == (1, 1)  # then a draw


def test_game_ends_when_red_plays_its_fourteenth_piece() -> None:
    parked = far_pieces(0, {"L", "I", "V"}) + far_pieces(1, {"I", "V3"})
    state = position(WALLS + parked, to_act=0, scores=(24, 30))
    state, events = play(state, "Vr0f@4,-1")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (29, 30)
    assert outcome.winners == (1,)
    assert state.left(1) == ("V3",)  # Blue never gets to play his Free Turn piece
    assert GAME.legal_moves(state) == []
    assert [e.reason for e in events if e.kind == "game_end"] == ["all_played"]
    assert said(events)[-3:] == [
        "Ann played all 14 pieces",
        "Ann (Red) ends with 29 points",
        "Ben (Blue) ends with 30 points",
    ]
    assert (outcome.reason, outcome.reason_seat) == ("all_played", 0)


def test_tie_goes_to_fewer_pieces() -> None:
    parked = far_pieces(0, {"L", "I", "V"}) + far_pieces(1, {"I", "V3"})
    state = position(WALLS + parked, to_act=0, scores=(25, 30))
    state, _ = play(state, "Vr0f@4,-1")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (30, 30) and outcome.winners == (1,)


# -- placement rules --------------------------------------------------------------------


def test_first_piece_goes_at_origin() -> None:
    state = GAME.new(2)
    moves = GAME.legal_moves(state)
    assert all(m.kind is MoveKind.PLACE and (m.x, m.y) == (0, 0) for m in moves)
    assert len(moves) == sum(len({placed_cells(p, o, 0, 0) for o in ORIENTATIONS}) for p in ALL_PIECES)
    with pytest.raises(IllegalMoveError, match="0,0"):
        GAME.parse_move(state, "Lr0@1,1")


def test_blue_first_piece_must_touch_red() -> None:
    state, _ = play(GAME.new(2), "Xr0@0,0")
    with pytest.raises(IllegalMoveError, match="touch a Red piece"):
        GAME.parse_move(state, "Ir0@10,10")
    for move in GAME.legal_moves(state):
        assert move.kind is MoveKind.PLACE
        cells = set(placed_cells(move.piece, move.orientation, move.x, move.y))
        assert not cells & state.occupied
        assert any(
            (x + dx, y + dy) in state.squares[0]
            for x, y in cells
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )


def test_later_pieces_must_touch_your_own() -> None:
    state, _ = play(GAME.new(2), "Ir0@0,0", "Ir0@0,1")
    # touches Blue only, not Red's own piece
    with pytest.raises(IllegalMoveError, match="touch one of your pieces") as error:
        GAME.parse_move(state, "Lr0@0,2")
    assert "Legal for L" in str(error.value)


def test_overlap_and_replay_errors() -> None:
    state, _ = play(GAME.new(2), "Ir0@0,0", "Ir0@0,1")
    with pytest.raises(IllegalMoveError, match="already taken"):
        GAME.parse_move(state, "Xr0@0,-1")
    with pytest.raises(IllegalMoveError, match="already played I"):
        GAME.parse_move(state, "Ir0@0,-1")


def test_diagonal_contact_does_not_count() -> None:
    state, _ = play(GAME.new(2), "Pr0@0,0")  # P occupies 0,0 1,0 0,1 1,1 0,2
    assert not is_legal_place(state, Place("I", Orientation(0, False), 2, 2))
    assert is_legal_place(state, Place("I", Orientation(0, False), 1, 2))


# -- Free Turn ----------------------------------------------------------------------------


def test_free_turn_gives_a_second_piece() -> None:
    state, events = play(GAME.new(2), "V3r0@0,0")
    assert GAME.to_act(state) == 0 and state.second_piece
    assert any(e.kind == "bonus" for e in events)
    assert PASS in GAME.legal_moves(state)
    state, _ = play(state, "Ir0@2,0")
    assert GAME.to_act(state) == 1 and not state.second_piece


def test_second_free_turn_piece_ends_the_turn() -> None:
    state, _ = play(GAME.new(2), "V3r0@0,0", "T4r0@2,0")
    assert GAME.to_act(state) == 1


def test_free_turn_piece_as_first_of_a_later_turn() -> None:
    state, _ = play(GAME.new(2), "Ir0@0,0", "Ir0@0,1", "V3r0@5,0")
    assert GAME.to_act(state) == 0
    state, _ = play(state, "pass")
    assert GAME.to_act(state) == 1


def test_second_piece_compulsory_option() -> None:
    state = GAME.new(2, PuzzOptions(second_piece="compulsory"))
    state, _ = play(state, "V3r0@0,0")
    assert PASS not in GAME.legal_moves(state)
    with pytest.raises(IllegalMoveError, match="compulsory"):
        GAME.parse_move(state, "pass")
    with pytest.raises(InvalidOptionsError):
        PuzzOptions(second_piece="sometimes")


def test_pass_only_in_a_free_turn() -> None:
    state = GAME.new(2)
    assert PASS not in GAME.legal_moves(state)
    with pytest.raises(IllegalMoveError, match="Free Turn"):
        GAME.parse_move(state, "pass")


def test_a_player_without_room_is_skipped_and_game_ends() -> None:
    # Red's V3 is boxed in by Blue (only the one-square hole 1,1 is left): Red can never place.
    box = [(1, "Ir0@-1,-1"), (1, "Lr0@-1,0"), (1, "Vr0f@0,0")]
    state = position([(0, "V3r0@0,0"), *box], to_act=1)
    state, events = GAME.apply(state, GAME.legal_moves(state)[0])
    assert [(e.kind, e.seat, e.reason) for e in events if e.kind == "pass"] == [(EventKind.PASS, 0, "stuck")]
    assert "Ann cannot place a piece and passes for the rest of the game" in said(events)
    assert GAME.to_act(state) == 1 and 0 in state.stuck
    while GAME.to_act(state) is not None:
        state, _ = GAME.apply(state, GAME.legal_moves(state)[0])
    outcome = GAME.outcome(state)
    assert outcome is not None and state.left(1) == ()


# -- notation -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["L r1f @3,-2", "Lr1f@3,-2", "l r1 f 3,-2", "  L R1F @ 3 , -2 "])
def test_relaxed_forms(text: str) -> None:
    state = position([(0, "Ir0@0,-3")])
    move = GAME.parse_move(state, text)
    assert GAME.format_move(state, move) == "Lr1f@3,-2"


def test_equivalent_orientation_is_normalised() -> None:
    state = GAME.new(2)
    assert GAME.format_move(state, GAME.parse_move(state, "Xr3f@0,0")) == "Xr0@0,0"
    assert GAME.format_move(state, GAME.parse_move(state, "I r2 0,0")) == "Ir0@0,0"
    assert GAME.format_move(state, GAME.parse_move(state, "V3 0,0")) == "V3r0@0,0"
    assert GAME.format_move(state, GAME.parse_move(state, "v 0,0")) == "Vr0@0,0"


@pytest.mark.parametrize(
    ("text", "needle"),
    [("Q r0 @1,1", "the pieces are F, I, L"), ("L r5 @1,1", "r0 to r3"), ("hello", "is not a move")],
)
def test_syntax_errors(text: str, needle: str) -> None:
    with pytest.raises(InvalidMoveError, match=needle):
        GAME.parse_move(GAME.new(2), text)


def test_registry_and_identity() -> None:
    assert registry.get("puzz") is GAME and registry.get("Puzz-Ominos") is GAME
    with pytest.raises(InvalidOptionsError):
        GAME.new(3)
    with pytest.raises(InvalidOptionsError):
        GAME.new(2, deal=["x"])
    assert GAME.hand(GAME.new(2), 1) == ALL_PIECES


def test_resign_ends_with_other_winning() -> None:
    state, _ = play(GAME.new(2), "Ir0@0,0", "Tr0@0,1")
    state, events = GAME.resign(state, 1)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.forfeited == {1}
    assert events[0].kind == "forfeit"


def test_labels_and_describe() -> None:
    state, _ = play(GAME.new(2), "Ir0@0,0")
    move = GAME.parse_move(state, "Tr0@0,1")
    assert GAME.move_label(state, move) == "Tr0@0,1 — +3"
    assert "Ben (Blue)'s first piece must touch Red" in GAME.describe(state, NAMES)


STEPS_PER_CANDIDATE = 30
"""The work allowed per candidate placement (a piece's square on a frontier cell; about 12 when
this was written)."""


def test_legal_moves_late_in_a_game_cost_a_few_steps_per_candidate_placement() -> None:
    """Legal moves are found around the seat's frontier: the work (counted in steps, not timed)
    follows the cells a piece must cover and the pieces left, never the size of the table."""
    state = dataclasses.replace(greedy_game(3, stop_at=20))  # a new object: nothing cached
    seat = GAME.to_act(state)
    assert seat is not None and len(state.occupied) > 90
    frontier = targets(state, seat)
    candidates = sum(
        len(frontier) * size(piece) for piece in state.left(seat) for _ in distinct_orientations(piece)
    )
    assert steps_of(lambda: GAME.legal_moves(state)) < STEPS_PER_CANDIDATE * candidates


# -- properties ---------------------------------------------------------------------------


def greedy_game(seed: int, stop_at: int = 99) -> PuzzState:
    state = GAME.new(2)
    player = GreedyPlayer(seed)
    while GAME.to_act(state) is not None and len(state.placements) < stop_at:
        state, _ = GAME.apply(state, player.choose(GAME, state))
    return state


def check_invariants(state: PuzzState) -> None:
    cells = [c for p in state.placements for c in p.cells]
    assert len(cells) == len(set(cells)) == len(state.occupied)
    assert sum(size(p.piece) for p in state.placements) == len(cells)
    for seat in (0, 1):
        played = state.played(seat)
        assert len(played) == len(set(played)) <= 14
        assert sum(p.points for p in state.placements if p.seat == seat) == state.scores[seat]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), optional=st.booleans())
def test_random_playouts_keep_invariants(seed: int, optional: bool) -> None:
    rng = random.Random(seed)
    options = PuzzOptions(second_piece="optional" if optional else "compulsory")
    state = GAME.new(2, options)
    while GAME.to_act(state) is not None:
        moves = GAME.legal_moves(state)
        assert moves and len(set(moves)) == len(moves)
        for move in rng.sample(moves, min(5, len(moves))):
            assert GAME.parse_move(state, GAME.format_move(state, move)) == move
            if move.kind is MoveKind.PLACE:
                assert GAME.is_legal(state, move)
                assert canonical_orientation(move.piece, move.orientation) == move.orientation
        move = rng.choice(moves)
        seat = state.to_act
        assert seat is not None
        gain = GAME.move_gain(state, move)
        after, events = GAME.apply(state, move)
        delta = after.scores[seat] - state.scores[seat]
        assert delta == sum(e.points for e in events if e.kind == "score")
        if move.kind is MoveKind.PLACE and len(state.left(seat)) > 1:
            assert gain == delta  # the estimate is exact before the last piece
        state = after
        check_invariants(state)
    assert any(len(state.left(s)) == 0 for s in (0, 1)) or state.stuck == {0, 1}


@settings(max_examples=25, deadline=None)
@given(
    piece=st.sampled_from(ALL_PIECES),
    rotation=st.integers(0, 3),
    flipped=st.booleans(),
    x=st.integers(-30, 30),
    y=st.integers(-30, 30),
)
def test_notation_round_trip(piece: str, rotation: int, flipped: bool, x: int, y: int) -> None:
    orientation = canonical_orientation(piece, Orientation(rotation, flipped))
    move = Move(MoveKind.PLACE, piece, orientation, x, y)
    assert notation.parse_move(notation.format_move(move)) == move
    spaced = f" {piece.lower()} r{rotation}{' f' if flipped else ''} {x},{y}"
    assert notation.parse_move(spaced) == move


# -- who starts: the coin flip, and games stored before it ------------------------------------

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MIGRATIONS = Path(__file__).resolve().parents[2] / "bot" / "migrations"


def test_selfplay_seeds_show_both_colours_starting() -> None:
    """Who plays Red and starts is a coin flip by the seed; the notation follows: whoever is
    Red places the first piece at 0,0, and Blue's first piece must touch it."""
    starters = set()
    for seed in range(4):  # seeds 0, 1, 3: Red is seat 0; seed 2: seat 1
        record = selfplay(GAME, 2, seed, "greedy")
        state = GAME.new(2, seed=seed)
        starters.add(state.red)
        assert record.moves[0].seat == state.red == GAME.to_act(state)
        assert record.moves[0].text.endswith("@0,0")
        final = records.replay(record).final
        for placement in final.placements:
            assert placement.colour == final.colour(placement.seat)
            assert (placement.colour is Colour.RED) == (placement.seat == state.red)
        assert final.colour(final.red) is Colour.RED and final.colour(1 - final.red) is Colour.BLUE
        assert final.seat_of(Colour.RED) == final.red
    assert starters == {0, 1}


def test_the_second_seat_as_red() -> None:
    state = GAME.new(2, deal=[1])
    assert (state.red, GAME.to_act(state)) == (1, 1)
    assert "Ben (Red) starts: Red's first piece goes at 0,0" in GAME.describe(state, NAMES)
    with pytest.raises(IllegalMoveError, match="0,0"):
        GAME.parse_move(state, "Lr0@1,1")
    state, _ = play(state, "Ir0@0,0")
    with pytest.raises(IllegalMoveError, match="touch a Red piece"):
        GAME.parse_move(state, "Ir0@10,10")
    state, events = play(state, "Tr0@0,1")
    assert said(events) == ["touches 3 Red squares +3"] and state.scores == (3, 0)
    assert "Ann (Blue)" in GAME.describe(state, NAMES)


def test_deal_fixes_who_is_red_and_legacy_option_keeps_the_first_seat() -> None:
    assert GAME.new(2, deal=[0], seed=2).red == 0
    assert GAME.new(2, deal=[], seed=2).red == GAME.new(2, seed=2).red == 1
    legacy = PuzzOptions(first="seat0")
    assert all(GAME.new(2, legacy, seed=seed).red == 0 for seed in range(6))
    assert not PuzzOptions.spec("first").offered and PuzzOptions.spec("second_piece").offered
    with pytest.raises(InvalidOptionsError):
        PuzzOptions(first="loser")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)
"""Random JSON, nested lists and objects, huge numbers: what an imported record's deal may hold."""


@settings(max_examples=60, deadline=None)
@given(JSON_VALUES)
def test_any_json_deal_is_taken_or_refused_clearly(deal: object) -> None:
    try:
        state = GAME.new(2, deal=deal)
    except InvalidOptionsError as error:
        assert "deal" in str(error)
        return
    assert deal in (None, [], [0], [1])
    assert state.red == (deal[0] if deal else GAME.new(2).red)  # type: ignore[index]


def migrated_options(options: dict[str, object]) -> dict[str, object]:
    """``options`` of a Puzz-Ominos game stored before the coin flip, after the migrations."""
    db = sqlite3.connect(":memory:")
    scripts = sorted(MIGRATIONS.glob("*.sql"))
    ours = MIGRATIONS / "0007_puzzominos_first.sql"
    for script in scripts[: scripts.index(ours)]:
        db.executescript(script.read_text(encoding="utf-8"))
    row = "INSERT INTO games (game, channel_id, host_id, status, options, seed, created_at, updated_at) "
    db.execute(row + "VALUES ('puzzominos', 1, 1, 'finished', ?, 7, 0, 0)", (json.dumps(options),))
    db.execute(row + "VALUES ('puzzominos', 1, 1, 'playing', ?, 8, 0, 0)", (json.dumps({"first": "coin"}),))
    db.execute(row + "VALUES ('geominos', 1, 1, 'playing', '{}', 9, 0, 0)")
    db.executescript(ours.read_text(encoding="utf-8"))
    stored = db.execute("SELECT options FROM games ORDER BY id")
    (old, newer, other) = [json.loads(text) for (text,) in stored]
    assert newer == {"first": "coin"} and other == {}, "only games stored before the change are marked"
    return dict(old)


@pytest.mark.parametrize("name", ["duel-greedy", "duel-random"])
def test_records_made_before_the_coin_flip_replay_the_same(name: str) -> None:
    """Records made by the code on main before the change (fixtures) replay to the same scores
    after every move, once the migration has marked their options with ``first=seat0``."""
    expected = json.loads((FIXTURES / "puzzominos-main-replays.json").read_text())[name]
    record = records.Record.from_text((FIXTURES / f"puzzominos-{name}.record").read_text())
    options = migrated_options(record.options)
    assert options == {**record.options, "first": "seat0"}
    marked = records.Record(record.game, options, record.players, record.seed, record.deal, record.moves)
    replayed = records.replay(marked)
    assert [list(GAME.scores(state)) for state in replayed.states] == expected["scores"]
    outcome = GAME.outcome(replayed.final)
    assert outcome is not None and list(outcome.ranks) == expected["ranks"]
    if name == "duel-greedy":  # its seed gives the second seat Red: unmarked, it would not replay
        with pytest.raises(RecordError):
            records.replay(record)


# -- reading is linear ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        lambda n: "L" + " " * n + "!",
        lambda n: "Lr" + "1" * n + "@1,1",
        lambda n: "L" + "1" * n + ",",
        lambda n: "Lr1" + " " * (n // 2) + "f" + " " * (n // 2) + "@",
        lambda n: "@" * (n // 2) + "1" * (n // 2),
        lambda n: "V3" + "9" * n,
    ],
    ids=["spaces", "digits", "comma", "split", "at-signs", "nines"],
)
def test_the_notation_reads_huge_text_in_linear_time(text: Callable[[int], str]) -> None:
    with pytest.raises(InvalidMoveError):
        notation.parse_move(text(60_000))  # below the protocol's 64-character cap
    work = linear(lambda n: notation.parse_move(text(n)), 4_000, InvalidMoveError)
    assert at_most_doubles(work), work


def test_ambiguous_compact_forms_read_as_before() -> None:
    def read(text: str) -> str:
        return notation.format_move(notation.parse_move(text))

    assert read("V30,0") == "V3r0@0,0"  # V3 at 0,0, as the old regular expression read it
    assert read("L3,4") == "Lr0@3,4"
    assert read("V 30,0") == "Vr0@30,0"
    assert read("T4 r1 -2 , +3") == "T4r1@-2,3"


# -- nothing is hidden --------------------------------------------------------------------------


def test_views_hide_nothing_and_determinize_gives_the_view_back() -> None:
    state = greedy_game(5, stop_at=10)
    assert not GAME.hidden_information
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        assert view == state
        assert GAME.determinize(view, seat, random.Random(1)) == view
    assert not any(field.name in ("seed", "deal") for field in dataclasses.fields(state))


def test_a_single_legal_move_is_forced() -> None:
    """The session plays a forced move at once: only when it is the one legal move."""
    # Red's one square 0,0 and a plus-shaped hole under it, walled in by Blue; Red holds only X.
    red = {(0, 0)}
    hole = {(0, 1), (-1, 2), (0, 2), (1, 2), (0, 3)}
    wall = {(x + dx, y + dy) for x, y in red | hole for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    wall -= red | hole
    played = tuple(
        Placement(0, piece, Orientation(0, False), 100, 100, turn, 0)
        for turn, piece in enumerate(ALL_PIECES)
        if piece != "X"
    )
    state = PuzzState(
        placements=played, squares=(frozenset(red), frozenset(wall)), occupied=frozenset(red | wall), turn=30
    )
    moves = GAME.legal_moves(state)
    assert [GAME.format_move(state, m) for m in moves] == ["Xr0@-1,1"]
    assert GAME.forced_move(state) == moves[0]
    assert GAME.forced_move(GAME.new(2)) is None


def test_running_out_of_time_forfeits() -> None:
    state, _ = play(GAME.new(2), "Ir0@0,0")
    state, events = GAME.on_timeout(state)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.forfeited == {1}
    assert (outcome.reason, outcome.reason_seat) == ("timeout", 1)
    assert events[0].kind == EventKind.TIMEOUT and said(events)[0] == "ran out of time"


def test_only_a_free_turns_second_piece_continues_a_turn() -> None:
    """A stuck opponent gives the mover a new turn (its own board and clock), not a running one."""
    from games.ai import RandomPlayer

    state = GAME.new(2, GAME.Options(), seed=11)
    chooser = RandomPlayer(11)
    seen = set()
    while GAME.to_act(state) is not None:
        after, _ = GAME.apply(state, chooser.choose(GAME, state))
        continues = GAME.continues_turn(state, after)
        assert continues == (after.second_piece and GAME.to_act(after) == GAME.to_act(state))
        seen.add(continues)
        state = after
    assert seen == {True, False}


@pytest.mark.parametrize("seed", [5, 21])
def test_the_quick_estimate_is_the_estimate_for_every_placement(seed: int) -> None:
    """The computer players weigh placements with ``estimate_place``: it must give exactly what
    ``estimate`` gives (and what the placement then scores), pockets of one and two squares
    included, for every legal placement of greedy games (which wall in pockets often)."""
    player = GreedyPlayer(seed)
    state = GAME.new(2, PuzzOptions(), seed=seed)
    pockets = 0
    while (seat := GAME.to_act(state)) is not None:
        last = len(state.left(seat)) == 1
        for move in GAME.legal_moves(state):
            if move.kind is not MoveKind.PLACE:
                continue
            cells = placed_cells(move.piece, move.orientation, move.x, move.y)
            slow = estimate(cells, state.squares[1 - seat], state.occupied, last=last)
            quick = estimate_place(
                move.piece,
                move.orientation,
                move.x,
                move.y,
                state.squares[1 - seat],
                state.occupied,
                last=last,
            )
            assert quick == slow, move
            pockets += slow > touched_squares(cells, state.squares[1 - seat])
        state, _ = GAME.apply(state, player.choose(GAME, state))
    assert pockets, "some placements wall in a pocket"

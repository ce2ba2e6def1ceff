"""Puzz-Ominos solitaire on any target (issue 13): rectangles ``WxH``, shapes drawn as rows, the
big cross and the ring; what is refused and why; one standings name per shape; the bounded
solver's verdicts; records and the command line on custom targets."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import records
from games.__main__ import main
from games.errors import InvalidOptionsError
from games.puzzominos import solver
from games.puzzominos.pieces import PENTOMINOES
from games.puzzominos.shapes import canonical, images, parts
from games.puzzominos.solver import SearchLimitError, Verdict, count_solutions, solutions
from games.puzzominos.targets import TARGETS, parse_shape, parse_target, standing_name, target_option
from games.puzzosolo import GAME, check_target
from games.puzzosolo.game import position
from games.puzzosolo.rules import first_solution, format_place
from games.puzzosolo.state import Options, SoloStatus
from tests.games.test_puzzominos_solver import brute_force_classes
from tests.support.work import at_most_doubles, does_not_grow, linear

CROSS_DISTINCT = 24
CROSS_ALL = 96
"""The big cross's solutions (found by the solver, checked by brute force below): its four
symmetries (two mirrors and the half turn) give every solution three other copies."""


def options(target: str) -> Options:
    return Options(target_option(target=target))


# -- reading a target ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "needed", "sets"),
    [
        ("5x12", "5x12", 12, 1),
        ("12 x 5", "12x5", 12, 1),
        ("15x4", "15x4", 12, 1),
        ("7x5", "7x5", 7, 1),
        ("2x30", "2x30", 12, 1),
        ("13x5", "13x5", 13, 2),
        ("CROSS", "cross", 12, 1),
        ("Ring", "ring", 24, 2),
    ],
)
def test_rectangles_and_names(text: str, name: str, needed: int, sets: int) -> None:
    target = parse_target(text)
    assert (target.name, target.needed, target.sets) == (name, needed, sets)
    assert len(target.cells) == 5 * needed
    assert GAME.new(1, options(text)).target == target


def test_a_drawn_shape_takes_a_piece_count_from_its_area() -> None:
    drawing = "  ..XX../XXXXXX/XXXXXX/XXXXXX/......  "
    target = parse_shape(drawing)
    assert (len(target.cells), target.needed, target.pieces) == (20, 4, PENTOMINOES)
    assert target.spec == "..XX/XXXXXX/XXXXXX/XXXXXX"
    assert target.title == "shape 6 wide and 4 high, 20 squares, with any 4 of the 12 pentominoes"
    assert target_option(shape=drawing) == target.spec
    assert target_option(target=target.spec) == target.spec  # the stored value names it again
    assert parse_target(target.spec).cells == target.cells


@pytest.mark.parametrize(
    ("target", "shape", "needle"),
    [
        (
            "7x7",
            None,
            "49 squares; a target needs a multiple of 5 (each pentomino covers 5): add 1 or take 4 away",
        ),
        ("8x8", None, "Did you mean 8x8-corners"),
        ("11x11", None, "both sets together cover at most 120: make it 1 square smaller"),
        ("30x2", None, "at most 26 wide (its columns are A to Z). Stand it upright: `2x30`"),
        ("1x65", None, "at most 60 high"),
        ("0x5", None, "at least 1 square wide"),
        ("99999x2", None, "far too big"),
        ("hexagon", None, "is not a target: name a target (6x10"),
        ("6x10", "XXXXX", "not both"),
        (None, "XXX/XX?", "`?` (character 7) is not part of a drawing"),
        (None, "XX.XXX", "falls apart into 2 parts"),
        (
            None,
            "XXXXX/...../XXXXX",
            "falls apart into 2 parts (squares join edge to edge, not by their corners)",
        ),
        (None, "X/.X/..X/...X/....X", "falls apart into 5 parts"),
        (None, "XXXX", "4 squares; a target needs at least 5"),
        (None, "...", "draws no square"),
        (None, "X" * 27, "27 squares wide"),
        (None, "X" + "/X" * 60, "61 rows high"),
        (None, "XXXXXXXXXX/" * 13, "130 squares; both sets together cover at most 120"),
    ],
)
def test_refusals_say_what_to_fix(target: str | None, shape: str | None, needle: str) -> None:
    with pytest.raises(InvalidOptionsError) as error:
        target_option(target=target, shape=shape)
    assert needle in str(error.value)


def test_options_refuse_a_bad_target_and_the_default_is_6x10() -> None:
    assert target_option() == target_option("", " ") == "6x10" and Options().target == "6x10"
    with pytest.raises(InvalidOptionsError, match="Choose a target"):
        Options(" ")
    with pytest.raises(InvalidOptionsError, match="multiple of 5"):
        Options("7x7")
    with pytest.raises(InvalidOptionsError, match="multiple of 5"):
        Options.from_dict({"target": "3x3"})
    spec = Options.spec("target")
    assert not spec.choices and spec.labels["cross"].startswith("big cross")


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="X.X#/ x-_Q", max_size=120))
def test_any_drawing_is_a_target_or_a_clear_refusal(text: str) -> None:
    try:
        target = parse_target(text)
    except InvalidOptionsError as error:
        assert str(error)
        return
    assert len(target.cells) % 5 == 0 and 5 <= len(target.cells) <= 120
    assert len(parts(target.cells)) == 1
    assert target.width <= 26 and target.height <= 60
    assert parse_target(target.spec).cells == target.cells


def test_reading_a_target_is_quick_whatever_its_length() -> None:
    """Long text is refused before it is read (the work, counted in steps, does not grow with
    it) and a drawing is read in work linear in its size."""
    for text in (lambda n: "X" * n, lambda n: "/" * n, lambda n: "9" * n + "x1"):
        with pytest.raises(InvalidOptionsError):
            parse_target(text(100_000))
        work = linear(lambda n, text=text: parse_target(text(n)), 50_000, InvalidOptionsError)
        assert does_not_grow(work), work
    parse_target(("XXXXXXXXXX/" * 12)[:-1])
    work = linear(lambda rows: parse_target(("XXXXXXXXXX/" * rows)[:-1]), 6)
    assert at_most_doubles(work), work


# -- one name per shape for the standings ----------------------------------------------------------


def test_a_shape_turned_or_mirrored_is_one_target_for_the_standings() -> None:
    assert GAME.variant(options("6x10")) == GAME.variant(options("10x6")) == "6x10"
    assert GAME.variant(options("XXXXXXXXXX/" * 6)) == "6x10"
    assert GAME.variant(options("7x5")) == GAME.variant(options("5x7")) == "5x7"
    drawn = "XXX./..XX/..XX/.XXX"
    variants = {
        GAME.variant(Options(target_option(shape=parse_drawing(image)))) for image in images(cells(drawn))
    }
    assert len(variants) == 1 and variants == {canonical(cells(drawn))}
    for name, target in TARGETS.items():
        for image in images(target.cells):
            assert GAME.variant(Options(target_option(shape=parse_drawing(image)))) == name


def cells(drawing: str) -> frozenset[tuple[int, int]]:
    return parse_shape(drawing).cells


def parse_drawing(shape: frozenset[tuple[int, int]]) -> str:
    width = max(x for x, _ in shape) + 1
    height = max(y for _, y in shape) + 1
    return "/".join("".join("X" if (x, y) in shape else "." for x in range(width)) for y in range(height))


def test_standing_names_keep_named_targets() -> None:
    assert [standing_name(target) for target in TARGETS.values()] == list(TARGETS)


# -- the solver on chosen targets --------------------------------------------------------------------


def test_2x30_is_refused_as_unsolvable_because_the_solver_proves_it() -> None:
    found = check_target("2x30")
    assert found.refused and found.verdict is Verdict.UNSOLVABLE
    assert "fit nowhere" in found.message and "X" in found.message
    assert solver.check(parse_target("2x30")).positions == 0  # proven before any search


@pytest.mark.parametrize("text", ["5x12", "15x4", "7x5", "cross", "ring", "..XX/XXXXXX/XXXXXX/XXXXXX"])
def test_solvable_targets_are_accepted(text: str) -> None:
    found = check_target(target_option(target=text))
    assert found.verdict is Verdict.SOLVABLE and not found.refused


def test_a_target_the_search_cannot_decide_in_its_limit_is_refused_with_the_reason() -> None:
    found = check_target("10x12", limit=5)
    assert found.verdict is Verdict.UNDECIDED and found.refused
    assert "could not tell within 5 positions" in found.message
    assert "no game starts on it" in found.message and "named target" in found.message


def test_an_impossible_shape_is_proven_so() -> None:
    found = check_target("5x2")  # only two Ls, two Ps or two Is fill it, and a set has one of each
    assert found.verdict is Verdict.UNSOLVABLE and found.refused
    assert "cannot be filled with 2 pentominoes (the solver proved it)" in found.message


def test_the_big_cross_count_is_asserted() -> None:
    """The solver's counts of the big cross, and the classes of its solutions found by brute force
    (every solution enumerated once: the costly part)."""
    cross = TARGETS["cross"]
    found = list(solutions(cross))
    assert count_solutions(cross) == CROSS_DISTINCT == brute_force_classes(cross, found)
    assert count_solutions(cross, distinct=False) == CROSS_ALL == len(found)


def test_the_ring_count_is_beyond_the_limit() -> None:
    with pytest.raises(SearchLimitError, match="beyond its limit"):
        count_solutions(TARGETS["ring"], limit=20_000)
    with pytest.raises(SearchLimitError):
        list(solutions(TARGETS["ring"], limit=20_000))


def test_a_2_wide_plus_is_proven_unsolvable() -> None:
    """Why the big cross is not a plus with arms of one width: 2 wide, six pentominoes cannot fit."""
    plus = "/".join(["......XX"] * 7 + ["X" * 16] * 2 + ["......XX"] * 7)
    assert check_target(target_option(shape=plus)).verdict is Verdict.UNSOLVABLE


# -- playing, records and the command line on custom targets -----------------------------------------


def test_a_custom_target_plays_replays_and_gives_up() -> None:
    spec = target_option(shape="XXXXX/XXXXX/XXXXX")
    moves = [format_place(place) for place in first_solution(parse_target(spec))]
    state = position(spec, moves)
    assert state.status is SoloStatus.SOLVED and len(moves) == 3
    record = records.new_record(GAME, ["ann"], Options(spec).to_dict(), None)
    for text in moves[:2]:
        record = record.with_move(0, text)
    record = record.with_move(0, "giveup")
    text = record.to_text()
    replayed = records.replay(records.Record.from_text(text)).final
    assert replayed.status is SoloStatus.GAVE_UP and replayed.target.spec == "XXXXX/XXXXX/XXXXX"
    assert records.replay(records.Record.from_text(text)).final == replayed


def test_give_up_on_a_target_without_a_solution_shows_none() -> None:
    state = GAME.new(1, Options(target_option(target="2x30")))
    after, events = GAME.resign(state, 0)
    assert after.solution == () and [event.reason for event in events] == [
        "target_given_up",
        "no_solution_found",
    ]


def test_cli_solves_and_counts_custom_targets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "puzzominos", "XXXXX/XXXXX/XXXXX", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "solvable" and len(data["solution"]) == 3
    assert main(["solve", "puzzominos", "2x30"]) == 1
    assert "no place at all for" in capsys.readouterr().out
    assert main(["solve", "puzzominos", "cross", "--count"]) == 0
    assert capsys.readouterr().out.startswith(f"cross: {CROSS_DISTINCT} distinct solutions")
    assert main(["solve", "puzzominos", "ring", "--count", "--limit", "5000", "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["solutions"] is None and data["beyond_limit"] and data["limit"] == 5000
    assert main(["solve", "puzzominos", "10x12", "--limit=3"]) == 3
    assert "no solution found within 3 positions" in capsys.readouterr().out
    assert main(["solve", "puzzominos", "6x10", "--limit", "lots"]) == 2
    assert main(["solve", "puzzominos", "7x7"]) == 2
    assert "multiple of 5" in capsys.readouterr().err


def test_compiled_targets_are_not_kept_forever() -> None:
    for width in range(1, 13):
        solver.problem(parse_target(f"{width}x5"))
    assert solver.problem.cache_info().currsize <= solver.problem.cache_info().maxsize

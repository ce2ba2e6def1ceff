"""The Puzz-Ominos solver against an independent brute force, and its budgets.

Every solution it finds is an exact cover; its counts and verdicts agree with a plain recursive
search written here (small random targets); and no search looks at more positions than its
budget, whatever the target, so a drawn target of up to 120 squares is decided or refused within
a bounded amount of work (positions are counted, never seconds).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.puzzominos import solver
from games.puzzominos.board import Place
from games.puzzominos.pieces import PENTOMINOES, distinct_orientations, oriented_cells
from games.puzzominos.solver import Budget, SearchLimitError, Verdict
from games.puzzominos.targets import TARGETS, Target, parse_target
from games.puzzosolo import GAME, check_target, rules
from games.puzzosolo.state import Options, SoloStatus

Cell = tuple[int, int]


# -- an independent reference: plain recursion over sets of squares -------------------------


@cache
def shapes_of(name: str) -> tuple[tuple[Cell, ...], ...]:
    """Every orientation of ``name`` as cells relative to its first cell in reading order."""
    found = []
    for orientation in distinct_orientations(name):
        cells = sorted(oriented_cells(name, orientation), key=lambda cell: (cell[1], cell[0]))
        x0, y0 = cells[0]
        found.append(tuple((x - x0, y - y0) for x, y in cells))
    return tuple(found)


def reference_count(cells: frozenset[Cell], pieces: Sequence[str], needed: int) -> int:
    """How many ways ``needed`` pieces from ``pieces`` (copies of a name alike) tile ``cells``."""

    def fill(empty: frozenset[Cell], left: Counter[str], to_place: int) -> int:
        if not empty:
            return 1
        if to_place == 0:
            return 0
        x, y = min(empty, key=lambda cell: (cell[1], cell[0]))
        total = 0
        for name in [name for name, count in left.items() if count]:
            for shape in shapes_of(name):
                placed = frozenset((x + dx, y + dy) for dx, dy in shape)
                if placed <= empty:
                    left[name] -= 1
                    total += fill(empty - placed, left, to_place - 1)
                    left[name] += 1
        return total

    return fill(cells, Counter(pieces), needed)


def is_exact_cover(target: Target, places: Sequence[Place]) -> bool:
    covered = [cell for place in places for cell in place.cells]
    used = Counter(place.piece for place in places)
    return (
        len(covered) == len(set(covered)) == len(target.cells)
        and set(covered) == target.cells
        and not used - Counter(target.pieces)
        and len(places) == target.needed
    )


@st.composite
def small_targets(draw: st.DrawFn) -> Target:
    """A random edge-connected shape of 5 to 20 squares in a 6x6 box, with a random piece set."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    size = 5 * draw(st.integers(1, 4))
    cells = {(rng.randrange(6), rng.randrange(6))}
    while len(cells) < size:
        x, y = rng.choice(sorted(cells))
        dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
        if 0 <= x + dx < 6 and 0 <= y + dy < 6:
            cells.add((x + dx, y + dy))
    left, top = min(x for x, _ in cells), min(y for _, y in cells)
    shape = frozenset((x - left, y - top) for x, y in cells)
    pieces = tuple(draw(st.lists(st.sampled_from(PENTOMINOES), min_size=size // 5, max_size=8)))
    width = max(x for x, _ in shape) + 1
    height = max(y for _, y in shape) + 1
    return Target("random", "random", width, height, shape, pieces, size // 5)


# -- agreement with the reference ------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(small_targets())
def test_counts_and_verdicts_agree_with_the_reference(target: Target) -> None:
    expected = reference_count(target.cells, target.pieces, target.needed)
    assert solver.count_solutions(target, distinct=False) == expected
    found = list(solver.solutions(target))
    assert len(found) == expected == len({frozenset(places) for places in found})
    assert all(is_exact_cover(target, places) for places in found)
    check = solver.check(target, limit=None)
    assert (check.verdict is Verdict.SOLVABLE) == (expected > 0)
    if expected:
        assert is_exact_cover(target, check.solution)
        assert check.positions >= 1
    completion = solver.complete(target, (), limit=None)
    assert (completion is not None) == (expected > 0)
    if completion is not None:
        assert is_exact_cover(target, completion)
    distinct = solver.count_solutions(target)
    assert (distinct > 0) == (expected > 0) and distinct <= expected


@settings(max_examples=40, deadline=None)
@given(small_targets(), st.integers(0, 2**32))
def test_completing_part_of_a_solution_keeps_it(target: Target, seed: int) -> None:
    solution = solver.complete(target, (), limit=None)
    if not solution:
        return
    kept = random.Random(seed).sample(list(solution), random.Random(seed).randrange(len(solution)))
    rest = solver.complete(target, kept, limit=None)
    assert rest is not None and is_exact_cover(target, [*kept, *rest])


# -- budgets -----------------------------------------------------------------------------------


class Counted:
    """Counts the positions the completion search looks at (one ``next_square`` each)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.positions = 0
        original = solver.Problem.next_square

        def counted(problem: solver.Problem, empty: int, left: int, backwards: bool) -> int | None:
            self.positions += 1
            return original(problem, empty, left, backwards)

        monkeypatch.setattr(solver.Problem, "next_square", counted)


def drawn_shapes(seed: int, count: int) -> Iterator[str]:
    """Random connected drawings of 65 to 120 squares (two sets) in a 14x14 box."""
    rng = random.Random(seed)
    for _ in range(count):
        size = 5 * rng.randint(13, 24)
        cells = {(7, 7)}
        while len(cells) < size:
            x, y = rng.choice(sorted(cells))
            dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
            if 0 <= x + dx < 14 and 0 <= y + dy < 14:
                cells.add((x + dx, y + dy))
        yield "/".join("".join("X" if (x, y) in cells else "." for x in range(14)) for y in range(14))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_drawn_target_is_decided_or_refused_within_its_budget(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random blobs of up to 120 squares are the solver's hard cases (most cannot be filled, and
    proving it can take very long): each ends within the limit, solved, proven impossible or
    refused with the reason."""
    for drawing in drawn_shapes(seed, 2):
        counted = Counted(monkeypatch)
        limit = 400
        found = check_target(drawing, limit=limit)
        assert counted.positions <= limit
        if found.verdict is Verdict.SOLVABLE:
            assert not found.refused
        else:
            assert found.refused
            assert "Draw a smaller" in found.message or "cannot be filled" in found.message


def test_the_limits_are_positions_and_shared_budgets_add_up(monkeypatch: pytest.MonkeyPatch) -> None:
    target = parse_target("10x12")
    counted = Counted(monkeypatch)
    with pytest.raises(SearchLimitError) as error:
        solver.complete(target, (), limit=100)
    assert counted.positions == error.value.positions == 100
    check = solver.check(target, limit=5_000)
    assert check.verdict is Verdict.SOLVABLE and 0 < check.positions <= 5_000
    counted.positions = 0
    budget = Budget(150)
    solver.complete(target, check.solution[:20], budget=budget)  # full but for 4 pieces: quick
    first = budget.spent
    with pytest.raises(SearchLimitError):
        solver.complete(target, (), budget=budget)  # the rest of the 150
    assert budget.spent == counted.positions == 150 and 0 < first < 150


def test_a_give_up_looks_at_most_at_its_two_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Giving up completes the player's position, else shows a solution of the empty target: on a
    target neither search can settle, it stops after both limits and says so."""
    monkeypatch.setattr(rules, "GIVE_UP_LIMIT", 60)
    monkeypatch.setattr(rules, "SOLUTION_LIMIT", 90)
    rules.first_solution.cache_clear()
    state = GAME.new(1, Options("10x12"))
    counted = Counted(monkeypatch)
    after, events = GAME.resign(state, 0)
    assert counted.positions <= 60 + 90
    assert after.status is SoloStatus.GAVE_UP and after.solution == ()
    assert events[-1].reason == "no_solution_found"


def test_every_named_target_is_solved_within_the_check_limit() -> None:
    """So a game on any named target can always show a solution when given up."""
    for name in TARGETS:  # and /puzzominos solo starts one without a check (targets.is_named)
        found = solver.check(parse_target(name))
        assert found.verdict is Verdict.SOLVABLE and found.positions <= rules.SOLUTION_LIMIT

"""A board keeps its size from move to move unless it grows (boards of unbounded games grow in
steps), over whole greedy games."""

from __future__ import annotations

import itertools

import pytest

from games import registry
from games.ai import greedy_states
from rendering.registry import renderer


def sizes(game: str, players: int, seed: int, plies: int | None = None) -> list[tuple[int, int]]:
    """The board image size after every move of a greedy game."""
    rules = registry.get(game)
    draw = renderer(game).board
    names = [f"P{seat}" for seat in range(players)]
    found = []
    for state in greedy_states(rules, players, seed, plies=plies):
        found.append(draw(rules.view(state, None), names).size)
    return found


@pytest.mark.parametrize(
    ("game", "players", "seed", "plies"),
    [
        ("triominos", 2, 8, 120),
        ("triominos", 4, 7, 120),
        ("puzzominos", 2, 4, None),
        ("geronimos", 2, 7, None),
    ],
)
def test_sizes_mostly_stay(game: str, players: int, seed: int, plies: int | None) -> None:
    """The width never changes; the height changes only now and then, when the board outgrows
    its frame (growing in columns may make the cells, and so the height, smaller)."""
    found = sizes(game, players, seed, plies)
    pairs = list(itertools.pairwise(found))
    assert {width for width, _ in found} == {1000}
    same = sum(before == after for before, after in pairs)
    assert same >= 0.8 * len(pairs), f"{same} of {len(pairs)} moves kept the size"


def test_geominos_and_tile_up_sizes_are_steady() -> None:
    for game, players in (("geominos", 2), ("tileup", 3)):
        found = set(sizes(game, players, 4))
        assert len(found) <= 4, (game, found)

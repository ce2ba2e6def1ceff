"""``games.core.evolve``: ``dataclasses.replace``, fast, and the same thing."""

from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field
from functools import cached_property

import pytest

from games import ai, registry
from games.core import evolve


@dataclass(frozen=True)
class Plain:
    number: int
    items: tuple[int, ...] = ()
    names: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Cached:
    number: int

    @cached_property
    def double(self) -> int:
        return 2 * self.number


@dataclass(frozen=True)
class Checked:
    number: int

    def __post_init__(self) -> None:
        if self.number < 0:
            raise ValueError("negative")


@dataclass(frozen=True, slots=True)
class Slotted:
    number: int


@dataclass(frozen=True)
class WithInitVar:
    number: int
    scale: InitVar[int] = 1


def test_a_copy_with_changes_equal_to_replaces() -> None:
    before = Plain(1, (2, 3), frozenset({"a"}))
    after = evolve(before, number=5)
    assert after == dataclasses.replace(before, number=5) == Plain(5, (2, 3), frozenset({"a"}))
    assert hash(after) == hash(Plain(5, (2, 3), frozenset({"a"})))
    assert before == Plain(1, (2, 3), frozenset({"a"}))  # the original is untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.number = 6  # type: ignore[misc]


def test_a_cached_property_is_not_carried_over() -> None:
    before = Cached(2)
    assert before.double == 4
    assert evolve(before, number=5).double == 10


def test_what_it_cannot_copy_goes_to_replace() -> None:
    with pytest.raises(ValueError, match="negative"):
        evolve(Checked(1), number=-1)  # __post_init__ runs
    assert evolve(Slotted(1), number=2) == Slotted(2)
    assert evolve(WithInitVar(1), number=2) == WithInitVar(2)
    with pytest.raises(TypeError):
        evolve(Plain(1), numbr=2)  # an unknown field, as replace says


@pytest.mark.parametrize("game", registry.all_games(), ids=[game.name for game in registry.all_games()])
def test_every_state_of_a_game_copies_as_replace_does(game: object) -> None:
    for count, state in enumerate(ai.greedy_states(game, game.min_players, 3)):  # type: ignore[attr-defined]
        if count % 7:
            continue
        names = [f.name for f in dataclasses.fields(state)]
        for name in names:
            value = getattr(state, name)
            assert evolve(state, **{name: value}) == dataclasses.replace(state, **{name: value}) == state

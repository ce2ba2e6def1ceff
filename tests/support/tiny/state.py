"""Tiny Tiles values: the options, the moves and the state (frozen dataclasses)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.core import GameOptions, option

TILES = tuple(sorted(list(range(1, 7)) * 2))
"""Twelve tiles numbered 1-6, two of each."""
HAND_LIMIT = 5
"""A seat may draw while it holds fewer tiles than this."""


@dataclass(frozen=True)
class Options(GameOptions):
    """Tiny Tiles has one option: the hand size."""

    hand: int = option(3, help="Tiles dealt to each player", low=1, high=4)


class MoveKind(StrEnum):
    """What a move does."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"


@dataclass(frozen=True)
class Move:
    """Play ``tile``, draw one tile, or pass."""

    kind: MoveKind
    tile: int = 0


@dataclass(frozen=True)
class State:
    """A Tiny Tiles position; in a view, hidden hands are None and the deck is empty."""

    hands: tuple[tuple[int, ...] | None, ...]
    deck: tuple[int, ...]
    deck_size: int
    scores: tuple[int, ...]
    to_act: int
    last: int
    forfeited: frozenset[int] = frozenset()
    last_move: str = ""
    played: tuple[int, ...] = ()
    """Tiles out of the game, in order: played, or in the hand of a seat that resigned."""
    sizes: tuple[int, ...] = ()
    """In a view: how many tiles each seat holds (hidden hands are None)."""

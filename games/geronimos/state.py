"""Values of a Geronimos game: options, pieces on the table, moves and the state."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from games.core import GameOptions, require_choice, require_range
from games.geronimos.cards import LEADER, SIDES, laid
from games.geronimos.hexgrid import Cell

SEAT_NAMES = ("Blue", "Red")
"""Seat 0 is Blue (the 7th Cavalry), seat 1 is Red."""

TABLES = ("rings", "open")


@dataclass(frozen=True)
class Options(GameOptions):
    """Variants: how many number cards each bag holds, how many Leaders, the contact rule."""

    bag: int = 40
    leaders: int = 4
    table: str = "rings"

    def validate(self) -> None:
        """Check the ranges of every option."""
        require_range("bag", self.bag, 20, 120)
        require_range("leaders", self.leaders, 0, 6)
        require_choice("table", self.table, TABLES)


class Piece(NamedTuple):
    """A card on the table: its name (or ``L``), its rotation and its owner's seat."""

    card: str
    rotation: int
    owner: int

    @property
    def is_leader(self) -> bool:
        """True for a (wild) Leader card."""
        return self.card == LEADER

    @property
    def sides(self) -> tuple[int, ...] | None:
        """The number on each side 0-5, or None for a Leader."""
        return None if self.card == LEADER else SIDES[self.card, self.rotation]

    @property
    def text(self) -> str:
        """The piece as the notation writes it (``532641`` or ``L``)."""
        return LEADER if self.card == LEADER else laid(self.card, self.rotation)


@dataclass(frozen=True)
class Move:
    """A placement (``laid`` is the card read from side 0, or ``L``) or a discard.

    A discard has ``laid == ""`` and no cell. ``stack`` is True when the card goes on top of
    the card already in ``cell``.
    """

    laid: str = ""
    cell: Cell | None = None
    stack: bool = False

    @property
    def is_discard(self) -> bool:
        """True for the discard action."""
        return self.cell is None


DISCARD = Move()


@dataclass(frozen=True)
class State:
    """A whole game. ``board`` lists ``(cell, stack bottom to top)`` sorted by cell.

    ``bags[seat]`` holds the cards still in that bag, the next draw first. ``drawn`` is the
    card the seat to act must play now ("" when the game is over); ``bonus_card`` is True when
    it is a bonus card; ``bonus_left`` counts the bonus cards that seat still draws after this one.
    """

    options: Options
    seed: int
    bags: tuple[tuple[str, ...], tuple[str, ...]]
    board: tuple[tuple[Cell, tuple[Piece, ...]], ...]
    turn: int
    drawn: str
    bonus_left: int = 0
    bonus_card: bool = False
    opening: bool = True
    first: int = 0
    start_log: tuple[str, ...] = ()
    discards: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    last: Cell | None = None
    last_text: str = ""
    plies: int = 0
    finished: bool = False
    winner: int | None = None
    surrounded: Cell | None = None
    reason: str = ""
    forfeited: frozenset[int] = frozenset()

    @cached_property
    def stacks(self) -> dict[Cell, tuple[Piece, ...]]:
        """Every occupied cell's stack, bottom to top."""
        return dict(self.board)

    @cached_property
    def tops(self) -> dict[Cell, Piece]:
        """The top card of every occupied cell (only the top counts)."""
        return {cell: stack[-1] for cell, stack in self.board}

    @cached_property
    def legal(self) -> tuple[Move, ...]:
        """The legal moves of the seat to act (computed once per state)."""
        from games.geronimos.rules import compute_legal  # the rules import this module

        return compute_legal(self)

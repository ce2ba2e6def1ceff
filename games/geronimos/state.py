"""Values of a Geronimos game: options, pieces on the table, moves and the state."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import NamedTuple

from games.core import GameOptions, option
from games.geronimos.cards import LEADER, SIDES, laid
from games.geronimos.hexgrid import Cell

SEAT_NAMES = ("Blue", "Red")
"""The colours of the seats: seat 0 is Blue (the 7th Cavalry), seat 1 is Red."""

TABLES = ("rings", "open")
BONUS_RULES = ("optional", "compulsory")


@dataclass(frozen=True)
class Options(GameOptions):
    """Variants: how many number cards each bag holds, how many Leaders, the contact rule and
    whether bonus cards may be declined."""

    bag: int = option(
        40, low=20, high=120, help="Distinct number cards in each bag (the same cards for both players)"
    )
    leaders: int = option(4, low=0, high=6, help="Wild Leader cards in each bag")
    table: str = option(
        "rings",
        choices=TABLES,
        labels={
            "rings": "rings: one contact only outside a full ring",
            "open": "open: one contact wherever a cell touches one card",
        },
        help="Where a card may touch just one card",
    )
    bonus: str = option(
        "optional",
        choices=BONUS_RULES,
        labels={
            "optional": "optional: draw each bonus card, or stop",
            "compulsory": "compulsory: every bonus card is drawn and played",
        },
        help="Whether a player may decline bonus cards",
    )


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


class MoveKind(StrEnum):
    """What a move does."""

    PLACE = "place"
    """Lay the drawn card in (or on top of) a cell."""
    DISCARD = "discard"
    """Give up the drawn card: it fits nowhere."""
    BONUS = "bonus"
    """Draw the next bonus card (it must then be played)."""
    STOP = "stop"
    """Decline the bonus cards still on offer; the turn ends."""


@dataclass(frozen=True)
class Move:
    """A move. A placement has ``laid`` (the card read from side 0, or ``L``) and ``cell``;
    ``stack`` is True when the card goes on top of the card already in ``cell``. The other
    kinds carry nothing else."""

    kind: MoveKind
    laid: str = ""
    cell: Cell | None = None
    stack: bool = False

    @classmethod
    def place(cls, laid_text: str, cell: Cell, stack: bool = False) -> Move:
        """A placement of the card ``laid_text`` (as laid, or ``L``) in ``cell``."""
        return cls(MoveKind.PLACE, laid_text, cell, stack)


DISCARD = Move(MoveKind.DISCARD)
BONUS = Move(MoveKind.BONUS)
STOP = Move(MoveKind.STOP)


@dataclass(frozen=True)
class State:
    """A whole game. ``board`` lists ``(cell, stack bottom to top)`` sorted by cell.

    ``bags[seat]`` holds the cards still in that bag, the next draw first (a view shows them
    sorted). ``drawn`` is the card the seat to act must play now; it is "" when the game is
    over, and while that seat decides whether to draw a bonus card (:attr:`deciding`).
    ``bonus_card`` is True when the drawn card is a bonus card; ``bonus_left`` counts the bonus
    cards that seat may still draw. ``start_draws`` are the start cards drawn (Blue's, Red's),
    one pair per attempt; ``first`` laid its card at 0,0. ``reason`` is the end's phrase code.
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
    start_draws: tuple[tuple[str, str], ...] = ()
    discards: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    last: Cell | None = None
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

    @property
    def deciding(self) -> bool:
        """True while the seat to act decides whether to draw its next bonus card."""
        return not self.finished and not self.drawn

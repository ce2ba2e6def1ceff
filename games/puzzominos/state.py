"""Puzz-Ominos for two players: the values (options, colours, moves, placements, the state).

Seats are the order of the players; colours are Red and Blue. Red is whoever starts: a coin
flip by the game's seed decides which seat that is (:attr:`State.red`), except in games stored
before the engine flipped the coin, where the first seat is Red (option ``first=seat0``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import cached_property

from games.core import GameOptions, Seat, option
from games.puzzominos.board import Place, placed_cells
from games.puzzominos.pieces import ALL_PIECES, Cell, Cells, Orientation

SET_SIZE = len(ALL_PIECES)
NO_SQUARES: frozenset[Cell] = frozenset()
R0 = Orientation(0, False)

SECOND_PIECE_CHOICES = ("optional", "compulsory")
FIRST_CHOICES = ("coin", "seat0")


class Colour(IntEnum):
    """A set of pieces: Red starts."""

    RED = 0
    BLUE = 1

    @property
    def label(self) -> str:
        """``Red`` or ``Blue``."""
        return COLOUR_NAMES[self]


COLOUR_NAMES = ("Red", "Blue")
"""The colours' names, by :class:`Colour`."""


@dataclass(frozen=True)
class Options(GameOptions):
    """The two-player game's options."""

    second_piece: str = option(
        "optional",
        choices=SECOND_PIECE_CHOICES,
        labels={"optional": "`pass` declines it", "compulsory": "place one when you can"},
        help="Whether a Free Turn's second piece may be declined",
    )
    first: str = option(
        "coin",
        choices=FIRST_CHOICES,
        labels={
            "coin": "a coin flip by the game's seed decides who is Red and starts",
            "seat0": "the first seat is Red and starts (games stored before the coin flip)",
        },
        help="Who plays Red and starts",
        offered=False,
    )


class MoveKind(StrEnum):
    """A move places a piece, or passes (declines a Free Turn's second piece)."""

    PLACE = "place"
    PASS = "pass"


@dataclass(frozen=True, order=True)
class Move:
    """A move: ``kind``, and for a placement the piece, its orientation (canonical) and the
    top-left corner of its bounding box."""

    kind: MoveKind
    piece: str = ""
    orientation: Orientation = R0
    x: int = 0
    y: int = 0

    @classmethod
    def placing(cls, place: Place) -> Move:
        """The move that makes ``place``."""
        return cls(MoveKind.PLACE, place.piece, place.orientation, place.x, place.y)

    @property
    def place(self) -> Place:
        """The placement of a ``PLACE`` move."""
        return Place(self.piece, self.orientation, self.x, self.y)


PASS = Move(MoveKind.PASS)


@dataclass(frozen=True)
class Placement:
    """A piece on the table, in the order played, with its colour, turn and points."""

    seat: Seat
    piece: str
    orientation: Orientation
    x: int
    y: int
    turn: int
    points: int
    colour: Colour = Colour.RED

    @property
    def cells(self) -> Cells:
        """The squares it covers."""
        return placed_cells(self.piece, self.orientation, self.x, self.y)

    @property
    def move(self) -> Move:
        """The move that put it there."""
        return Move(MoveKind.PLACE, self.piece, self.orientation, self.x, self.y)


@dataclass(frozen=True)
class State:
    """The whole game: every placement, each seat's squares, scores and whose turn it is."""

    options: Options = Options()
    red: Seat = 0
    """The seat that plays Red (and started)."""
    placements: tuple[Placement, ...] = ()
    squares: tuple[frozenset[Cell], frozenset[Cell]] = (NO_SQUARES, NO_SQUARES)
    """Each seat's covered squares."""
    occupied: frozenset[Cell] = NO_SQUARES
    scores: tuple[int, int] = (0, 0)
    to_act: Seat | None = 0
    turn: int = 1
    """The number of the current turn (1 is Red's first)."""
    second_piece: bool = False
    """True while the seat to act is placing the second piece of a Free Turn."""
    stuck: frozenset[Seat] = frozenset()
    """Seats that found no legal placement: they are skipped from then on."""
    forfeited: frozenset[Seat] = frozenset()
    end_reason: str = ""
    """Why the game ended, a phrase code (``all_played``, ``nobody_can_place``, ``resigned``)."""
    end_seat: Seat | None = None
    """The seat the end reason speaks of (who played all 14, who resigned)."""

    def colour(self, seat: Seat) -> Colour:
        """The colour ``seat`` plays."""
        return Colour.RED if seat == self.red else Colour.BLUE

    def seat_of(self, colour: Colour) -> Seat:
        """The seat that plays ``colour``."""
        return self.red if colour is Colour.RED else 1 - self.red

    def played(self, seat: Seat) -> tuple[str, ...]:
        """The pieces ``seat`` has played, in order."""
        return tuple(p.piece for p in self.placements if p.seat == seat)

    @cached_property
    def pieces_played(self) -> tuple[int, int]:
        """How many pieces each seat has played."""
        counts = [0, 0]
        for placement in self.placements:
            counts[placement.seat] += 1
        return counts[0], counts[1]

    @cached_property
    def free_neighbours(self) -> dict[Cell, tuple[Cell, ...]]:
        """A memo for the computer players' estimates: the empty neighbours of an empty square,
        filled in square by square as they are asked (see
        :func:`games.puzzominos.scoring.estimate_place`)."""
        return {}

    def left(self, seat: Seat) -> tuple[str, ...]:
        """The pieces ``seat`` still holds, in set order."""
        done = set(self.played(seat))
        return tuple(piece for piece in ALL_PIECES if piece not in done)

    @property
    def last_turn(self) -> tuple[Placement, ...]:
        """The placements of the most recent turn that placed anything (highlighted on boards)."""
        if not self.placements:
            return ()
        turn = self.placements[-1].turn
        return tuple(p for p in self.placements if p.turn == turn)

"""Puzz-Ominos solitaire: the values (options, status, moves, pieces on the target, the state)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from games.core import GameOptions, option
from games.puzzominos.board import Place
from games.puzzominos.pieces import Cell, Orientation
from games.puzzominos.targets import DEFAULT_TARGET, TARGETS, Target, parse_target

R0 = Orientation(0, False)


@dataclass(frozen=True)
class Options(GameOptions):
    """The target to fill: a named target, a rectangle ``WxH`` or a shape drawn as rows."""

    target: str = option(
        DEFAULT_TARGET,
        labels={name: target.title for name, target in TARGETS.items()},
        help="The shape to fill: a named target, a rectangle WxH or a shape drawn as rows of X and .",
    )

    def validate(self) -> None:
        super().validate()
        parse_target(self.target)


class SoloStatus(StrEnum):
    """How a solitaire game stands."""

    PLAYING = "playing"
    SOLVED = "solved"
    GAVE_UP = "gave up"


class MoveKind(StrEnum):
    """Place a piece (on a hint or not), take the last one back, or give up."""

    PLACE = "place"
    HINT = "hint"
    UNDO = "undo"
    GIVE_UP = "giveup"


@dataclass(frozen=True, order=True)
class Move:
    """A move: ``kind``, and for a placement (``PLACE`` or ``HINT``) the piece, its canonical
    orientation and the square of the top-left corner of its bounding box (``0,0`` is A1)."""

    kind: MoveKind
    piece: str = ""
    orientation: Orientation = R0
    x: int = 0
    y: int = 0

    @property
    def place(self) -> Place:
        """The placement of a ``PLACE`` or ``HINT`` move."""
        return Place(self.piece, self.orientation, self.x, self.y)

    @property
    def places(self) -> bool:
        """True for a move that puts a piece on the target."""
        return self.kind is MoveKind.PLACE or self.kind is MoveKind.HINT


def placing(place: Place) -> Move:
    """The move that makes ``place``."""
    return Move(MoveKind.PLACE, place.piece, place.orientation, place.x, place.y)


def hint(place: Place) -> Move:
    """The move that makes ``place`` on the solver's advice."""
    return Move(MoveKind.HINT, place.piece, place.orientation, place.x, place.y)


UNDO = Move(MoveKind.UNDO)
GIVE_UP = Move(MoveKind.GIVE_UP)


@dataclass(frozen=True)
class Placed:
    """A piece on the target, with whether a hint put it there."""

    place: Place
    hinted: bool = False

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The squares it covers (target coordinates)."""
        return self.place.cells


@dataclass(frozen=True)
class State:
    """A solitaire game: the target, the pieces on it, and how it ended."""

    options: Options = Options()
    placed: tuple[Placed, ...] = ()
    covered: int = 0
    """Bitmask of covered squares in the solver's numbering of the target."""
    hints: int = 0
    undos: int = 0
    status: SoloStatus = SoloStatus.PLAYING
    solution: tuple[Place, ...] = ()
    """After giving up: a full solution (the player's pieces first when they could stay), or
    nothing when the solver found none within its limit."""

    @property
    def target(self) -> Target:
        """The target being filled."""
        return parse_target(self.options.target)

    @property
    def places(self) -> tuple[Place, ...]:
        """The placements on the board, in order."""
        return tuple(p.place for p in self.placed)

    def left(self) -> tuple[str, ...]:
        """The pieces not on the board, in set order (a name twice with two sets)."""
        pieces = self.target.pieces
        remaining = Counter(pieces)
        remaining.subtract(p.place.piece for p in self.placed)
        return tuple(name for name in dict.fromkeys(pieces) for _ in range(remaining[name]))

    def covered_cells(self) -> frozenset[Cell]:
        """Every covered square."""
        return frozenset(cell for p in self.placed for cell in p.cells)

    @property
    def empty_squares(self) -> int:
        """How many target squares are still empty."""
        return len(self.target.cells) - 5 * len(self.placed)

    @property
    def own_pieces(self) -> int:
        """Pieces on the board placed without a hint."""
        return sum(1 for p in self.placed if not p.hinted)

"""Values of a Tri-Ominos game: options, moves and the state (with cached derived facts)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from games.core import GameOptions, require_choice
from games.triominos.grid import Cell, Corner, corners, neighbours

TARGETS = (200, 300, 400, 500)
MAX_DRAWS = ("unlimited", "3")


@dataclass(frozen=True)
class Options(GameOptions):
    """Variants: the score that ends the game and how many tiles one turn may draw."""

    target: int = 400
    max_draws: str = "unlimited"

    def validate(self) -> None:
        """Check every option against its choices."""
        require_choice("target", self.target, TARGETS)
        require_choice("max_draws", self.max_draws, MAX_DRAWS)

    @property
    def draw_limit(self) -> int | None:
        """How many tiles one turn may draw, or None for no limit."""
        return None if self.max_draws == "unlimited" else int(self.max_draws)


PLACE, DRAW, PASS = "place", "draw", "pass"


@dataclass(frozen=True)
class Move:
    """A placement (``laid`` reads the numbers as they lie, ``cell`` where), ``draw`` or ``pass``."""

    kind: str
    laid: str = ""
    cell: Cell | None = None


DRAW_MOVE = Move(DRAW)
PASS_MOVE = Move(PASS)

HIDDEN = "?"
"""A tile that the viewer may not see (in a masked hand or the well)."""


@dataclass(frozen=True)
class State:
    """A whole game.

    ``board`` lists ``(cell, laid)`` in the order the tiles were placed this round. ``hands``
    hold tile names, sorted. ``well`` is the draw pile, the next tile first. ``drawn`` is the
    tile the seat to act drew and must play now (it is also in its hand); ``stuck`` is True after
    a draw found nothing that fits: the seat must pass. ``passes`` counts passes since the last
    placement. ``last``, ``last_seat`` and ``last_text`` describe the latest move (for the
    board image). ``masked`` are the seats whose hands this (view) state hides.
    """

    options: Options
    seed: int
    players: int
    deal: tuple[tuple[str, ...], ...] | None
    round: int
    hands: tuple[tuple[str, ...], ...]
    well: tuple[str, ...]
    board: tuple[tuple[Cell, str], ...]
    scores: tuple[int, ...]
    turn: int
    opener: int
    opening: bool = True
    drawn: str = ""
    stuck: bool = False
    passes: int = 0
    last: Cell | None = None
    last_seat: int | None = None
    last_text: str = ""
    plies: int = 0
    round_summary: str = ""
    finished: bool = False
    reason: str = ""
    winners: tuple[int, ...] = ()
    forfeited: frozenset[int] = frozenset()
    masked: frozenset[int] = frozenset()

    @cached_property
    def cells(self) -> dict[Cell, str]:
        """Every occupied cell and the tile on it, as laid."""
        return dict(self.board)

    @cached_property
    def corner_numbers(self) -> dict[Corner, int]:
        """The number shown at every corner touched by a tile."""
        numbers: dict[Corner, int] = {}
        for cell, laid in self.board:
            for corner, digit in zip(corners(cell), laid, strict=True):
                numbers[corner] = int(digit)
        return numbers

    @cached_property
    def frontier(self) -> tuple[Cell, ...]:
        """The empty cells sharing an edge with a tile, sorted (where tiles may go)."""
        occupied = self.cells
        found = {other for cell in occupied for other in neighbours(cell) if other not in occupied}
        return tuple(sorted(found, key=lambda c: (c[1], c[0])))

    @cached_property
    def active(self) -> tuple[int, ...]:
        """The seats still playing (not forfeited)."""
        return tuple(seat for seat in range(self.players) if seat not in self.forfeited)

    @cached_property
    def legal(self) -> tuple[Move, ...]:
        """The legal moves of the seat to act (computed once per state)."""
        from games.triominos.rules import compute_legal  # the rules import this module

        return compute_legal(self)

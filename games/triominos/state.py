"""Values of a Tri-Ominos game: the options, the moves and the state (with the board's cheap
derived facts cached on it)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache

from games.core import GameOptions, option
from games.triominos.grid import Cell, Corner, corners, neighbours


@dataclass(frozen=True)
class Options(GameOptions):
    """Variants: the score that ends the game and how many tiles one turn may draw."""

    target: int = option(
        400,
        choices=(200, 300, 400, 500),
        labels={
            200: "200 points: a short game",
            300: "300 points",
            400: "400 points: the rule book's game",
            500: "500 points: a long game",
        },
        help="The score that ends the game (the round in which someone reaches it is finished first)",
    )
    max_draws: str = option(
        "unlimited",
        choices=("unlimited", "3"),
        labels={
            "unlimited": "unlimited: draw until a tile fits (the rule book)",
            "3": "3: after three draws without a fit, −10 and the turn passes (later editions)",
        },
        help="How many tiles one turn may draw from the well",
    )

    @property
    def draw_limit(self) -> int | None:
        """How many tiles one turn may draw, or None for no limit."""
        return None if self.max_draws == "unlimited" else int(self.max_draws)


class MoveKind(StrEnum):
    """What a move does."""

    PLACE = "place"
    """Lay a tile from the hand (or the tile just drawn)."""
    DRAW = "draw"
    """Nothing fits: draw from the well until a tile fits."""
    PASS = "pass"
    """Nothing fits and nothing can be drawn: −10, the turn passes."""


@dataclass(frozen=True, slots=True)
class Move:
    """A placement (``laid`` reads the numbers as they lie, ``cell`` where), ``draw`` or ``pass``."""

    kind: MoveKind
    laid: str = ""
    cell: Cell | None = None


DRAW_MOVE = Move(MoveKind.DRAW)
PASS_MOVE = Move(MoveKind.PASS)


@lru_cache(maxsize=1 << 16)
def placement(laid: str, cell: Cell) -> Move:
    """The move laying ``laid`` on ``cell``, one shared value per placement (legal moves are
    listed for every state; sharing them saves building the same values again)."""
    return Move(MoveKind.PLACE, laid, cell)


HIDDEN = "?"
"""A tile that the viewer may not see (in a masked hand or the well)."""


@dataclass(frozen=True)
class State:
    """A whole game (or, with ``masked`` seats, what one seat may see of it).

    ``board`` lists ``(cell, laid)`` in the order the tiles were placed this round. ``hands``
    hold tile names, sorted. ``well`` is the draw pile, the next tile first. ``opening_tile`` is
    the tile that opens the round while nobody has played (public: the players compare their
    triples to find the opener); "" after the opening. ``drawn`` is the tile the seat to act drew
    and must play now (it is also in its hand; public, as it goes on the table at once);
    ``stuck`` is True after a draw found nothing that fits: the seat must pass. ``passes``
    counts passes since the last placement. ``last``, ``last_seat`` and ``last_text`` describe
    the latest move (for the board image). ``reason`` is the outcome's phrase code once
    ``finished``. ``masked`` are the seats whose hands this (view) state hides.
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
    opening_tile: str = ""
    drawn: str = ""
    stuck: bool = False
    passes: int = 0
    last: Cell | None = None
    last_seat: int | None = None
    last_text: str = ""
    finished: bool = False
    reason: str = ""
    winners: tuple[int, ...] = ()
    forfeited: frozenset[int] = frozenset()
    masked: frozenset[int] = frozenset()

    @property
    def opening(self) -> bool:
        """True while the round waits for its opening tile."""
        return bool(self.opening_tile)

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

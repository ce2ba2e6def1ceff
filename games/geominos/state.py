"""Values of a Geominos game: options, placed tiles, moves, the state and the rules' numbers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from games.core import GameOptions, option
from games.geominos.board import SIZE, placement_cost
from games.geominos.tiles import Pose, pose

HAND_SIZE = 5
"""Tiles each player takes before play in the Five-Tile game."""
NO_PLACEMENT_PENALTY = 5
"""Points for a seat none of whose tiles fits anywhere (the turn then passes)."""
TIME_PENALTY = 5
"""Points for running out of time the first time in a turn."""
EXTRA_MINUTE = 60
"""Seconds the live clock gives after a time penalty."""


@dataclass(frozen=True)
class Options(GameOptions):
    """Variants: how the tiles are given out, the clock, and match play (defaults first)."""

    mode: str = option(
        "five",
        choices=("five", "all", "one"),
        labels={
            "five": "Five-Tile: hold 5, draw after each placement",
            "all": "All-Tile: every tile dealt before play",
            "one": "One-Tile: draw one tile and place it",
        },
        help="How the tiles are given out",
    )
    clock: str = option(
        "live",
        choices=("live", "async"),
        labels={
            "live": "live: 1-3 minutes a move, +5 and one more minute, then forfeit",
            "async": "async: hours a move, +5 and the same time again, then forfeit",
        },
        help="Live minutes per move, or async hours per move",
    )
    minutes: int = option(
        2,
        choices=(1, 2, 3),
        labels={1: "1 minute (advanced)", 2: "2 minutes (intermediate)", 3: "3 minutes (beginners)"},
        help="Live clock: minutes per move",
    )
    hours: int = option(24, low=1, high=168, help="Async clock: hours per move (1-168)")
    match: str = option(
        "off",
        choices=("off", "on"),
        labels={
            "off": "off: one game",
            "on": "on: one game per player, the starter rotating, points add up",
        },
        help="Match play: as many games as players",
    )

    def describe(self) -> str:
        """A short summary, e.g. ``Five-Tile, live clock 2 min a move, single game``."""
        mode = {"five": "Five-Tile", "all": "All-Tile", "one": "One-Tile"}[self.mode]
        if self.clock == "live":
            clock = f"live clock {self.minutes} min a move (+5 and one more minute, then forfeit)"
        else:
            clock = f"async clock {self.hours} h a move (+5 and the same again, then forfeit)"
        match = "match play (one game per player)" if self.match == "on" else "single game"
        return f"{mode}, {clock}, {match}"


@dataclass(frozen=True)
class Move:
    """A placement: the tile, its side and clockwise rotation, and the square (row, column from
    0) of the top-left corner of its bounding box. Placing is the only move: a seat with no
    legal placement is passed over by the rules, not by a move."""

    tile: str
    side: str
    rotation: int
    row: int
    col: int

    @property
    def pose(self) -> Pose:
        """The tile turned as this move places it."""
        return pose(self.tile, self.side, self.rotation)

    def __hash__(self) -> int:
        return self.hashed

    @cached_property
    def hashed(self) -> int:
        """The move's hash, worked out once (the rules share one move value between states,
        and every state's legal moves are put in a set)."""
        return hash((self.tile, self.side, self.rotation, self.row, self.col))

    @cached_property
    def cost(self) -> int:
        """The points the placement costs: its pips on light squares outside the center
        (worked out once per move: the rules share one move value between states)."""
        return placement_cost(self.tile, self.side, self.rotation, self.row, self.col)


@dataclass(frozen=True)
class Placed:
    """A tile on the board: how it lies, who placed it (None for the center tile) and its cost."""

    tile: str
    side: str
    rotation: int
    row: int
    col: int
    owner: int | None
    points: int = 0

    @property
    def pose(self) -> Pose:
        """The tile turned as it lies."""
        return pose(self.tile, self.side, self.rotation)

    def squares(self) -> list[tuple[int, int, int]]:
        """``(row, col, pips)`` of each section on the board."""
        return [(self.row + dr, self.col + dc, pips) for dr, dc, pips in self.pose.sections]


@dataclass(frozen=True)
class State:
    """A whole game (or match).

    ``board`` lists the placed tiles, the center tile first. ``hands[seat]`` are the tiles a seat
    holds (in One-Tile, the tile drawn for the current turn); every hand is public. ``deck`` is
    the rest of the deck, top card first; ``unseen`` the two cards set aside unseen with three
    players; ``aside`` the tiles set aside in the open (tiles that found no place in One-Tile,
    the hands of forfeited seats). A view hides the order of ``deck`` and the tiles of
    ``unseen`` (each shown as ``"?"``), the ``decks`` of an explicit deal and the ``seed``.
    ``points`` are this game's points, ``totals`` the match totals (equal to ``points`` outside
    match play). ``penalized`` is True once the seat to act has had its first time-out this
    turn. ``reason`` is the phrase code of how the game (match) ended, ``reason_seat`` the
    seat it speaks of.
    """

    options: Options
    seed: int
    decks: tuple[tuple[str, ...], ...]
    game_index: int
    starter: int
    board: tuple[Placed, ...]
    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    unseen: tuple[str, ...]
    turn: int | None
    points: tuple[int, ...]
    totals: tuple[int, ...]
    aside: tuple[str, ...] = ()
    forfeited: frozenset[int] = frozenset()
    penalized: bool = False
    finished: bool = False
    reason: str = ""
    reason_seat: int | None = None
    last: int | None = None
    plies: int = 0
    past_games: tuple[tuple[int, ...], ...] = ()

    @property
    def players(self) -> int:
        """How many seats."""
        return len(self.hands)

    @property
    def games(self) -> int:
        """How many games the match has (1 outside match play)."""
        return self.players if self.options.match == "on" else 1

    @cached_property
    def grid(self) -> tuple[int, ...]:
        """Pips on every square (index ``row * 21 + col``), 0 where empty."""
        cells = [0] * (SIZE * SIZE)
        for placed in self.board:
            for row, col, pips in placed.squares():
                cells[row * SIZE + col] = pips
        return tuple(cells)

    @cached_property
    def owners(self) -> tuple[int, ...]:
        """Which entry of ``board`` covers every square, -1 where empty."""
        cells = [-1] * (SIZE * SIZE)
        for index, placed in enumerate(self.board):
            for row, col, _ in placed.squares():
                cells[row * SIZE + col] = index
        return tuple(cells)

    @cached_property
    def pip_masks(self) -> tuple[int, ...]:
        """For each pip value 0..6, a bit mask of the squares whose section shows it (bit
        ``row * 21 + col``; entry 0 stays empty)."""
        masks = [0] * 7
        for placed in self.board:
            origin = placed.row * SIZE + placed.col
            for dr, dc, pips in placed.pose.sections:
                masks[pips] |= 1 << (origin + dr * SIZE + dc)
        return tuple(masks)

    @cached_property
    def occupied(self) -> int:
        """A bit mask of the covered squares (bit ``row * 21 + col``)."""
        mask = 0
        for value in self.pip_masks:
            mask |= value
        return mask

    @cached_property
    def frontier(self) -> tuple[int, ...]:
        """For each pip value 0..6, a bit mask of the empty squares next to (not diagonally) a
        section showing it (entry 0 stays empty)."""
        empty = ALL_SQUARES & ~self.occupied
        return tuple(neighbours(mask) & empty for mask in self.pip_masks)


ALL_SQUARES = (1 << (SIZE * SIZE)) - 1
"""The bit mask of every square."""
NOT_FIRST_COLUMN = sum(1 << (row * SIZE + col) for row in range(SIZE) for col in range(1, SIZE))
NOT_LAST_COLUMN = sum(1 << (row * SIZE + col) for row in range(SIZE) for col in range(SIZE - 1))


def neighbours(mask: int) -> int:
    """The squares above, below, left or right of a square of ``mask`` (on the board)."""
    vertical = (mask << SIZE) | (mask >> SIZE)
    sideways = ((mask << 1) & NOT_FIRST_COLUMN) | ((mask >> 1) & NOT_LAST_COLUMN)
    return (vertical | sideways) & ALL_SQUARES

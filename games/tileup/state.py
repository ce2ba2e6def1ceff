"""The Tile Up! state and move values (frozen, hashable)."""

from __future__ import annotations

from dataclasses import dataclass, field

Stack = tuple[str, ...]
"""The tiles on one square, bottom first (the last one is the top tile)."""

START = "start"
"""Turn steps: nothing done yet (any action, scoring)."""
DREW = "drew"
"""The player drew (a goal card or tiles): scoring and ``end`` remain."""
PLACED = "placed"
"""The player placed at least one tile: more placements, scoring and ``end``."""
DISCARD = "discard"
"""The player ended the turn over the limits: only discards remain."""
OVER = "over"
"""The game has ended."""


@dataclass(frozen=True)
class TileUpMove:
    """One move of a turn.

    ``kind`` is ``goal``, ``tiles``, ``place`` (``tile`` at ``square``), ``score`` (card
    ``card`` with the region holding ``square``, the region's first square in reading order),
    ``discard`` (a ``tile``), ``discard_goal`` (card ``card``) or ``end``. Card numbers count
    the face-up cards first, then the player's own cards in the order they were drawn.
    """

    kind: str
    tile: str = ""
    square: int = -1
    card: int = 0


@dataclass(frozen=True)
class TileUpState:
    """A whole game. In a view, other seats' hands, the bag and the deck are None."""

    board: tuple[Stack, ...]
    bag: tuple[str, ...] | None
    bag_size: int
    deck: tuple[str, ...] | None
    deck_size: int
    discards: tuple[str, ...]
    """The goal-card discard pile, face up, oldest first (turned over it is the new deck)."""
    face_up: tuple[str, ...]
    tiles: tuple[tuple[str, ...] | None, ...]
    cards: tuple[tuple[str, ...] | None, ...]
    tile_counts: tuple[int, ...]
    card_counts: tuple[int, ...]
    scores: tuple[int, ...]
    to_act: int
    first: int
    """The seat that started (highest tile sum at set-up)."""
    phase: str = START
    highlight: tuple[int, ...] = ()
    """Squares placed in the current turn, or in the last turn that placed tiles."""
    idle_turns: int = 0
    """Consecutive turns without a placement."""
    idle_empty_turns: int = 0
    """Consecutive turns without a placement that ended with the bag empty."""
    turn: int = 1
    forfeited: frozenset[int] = field(default_factory=frozenset)
    reason: str = ""
    seed: int | None = None
    """The seed that reshuffles the bag when tiles go back into it (None with a deal)."""
    shuffles: int = 0
    last_move: str = ""

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.scores)

    @property
    def over(self) -> bool:
        """True when the game has ended."""
        return self.phase == OVER

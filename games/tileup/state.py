"""The Tile Up! values: options, moves, turn steps and the state (frozen, hashable)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from games.core import GameOptions, option
from games.tileup.data import Stack

IDLE_ROUNDS = 10
"""Full rounds in a row without a placement that end the game (the bag need not be empty)."""
LEGACY_IDLE_ROUNDS = 3
"""The rule before issue 13, kept for games stored before it (set by a migration)."""


@dataclass(frozen=True)
class Options(GameOptions):
    """Tile Up! has no variants players choose; ``idle_rounds`` keeps old games replaying."""

    idle_rounds: int = option(
        IDLE_ROUNDS,
        choices=(IDLE_ROUNDS, LEGACY_IDLE_ROUNDS),
        labels={
            IDLE_ROUNDS: "ten full rounds without a placement end the game",
            LEGACY_IDLE_ROUNDS: "three full rounds (the rule of games stored before issue 13)",
        },
        help="How many full rounds without a tile placed end the game (the safety end).",
        offered=False,
    )


class MoveKind(StrEnum):
    """What a move does."""

    GOAL = "goal"
    """The action: draw a goal card."""
    TILES = "tiles"
    """The action: draw three tiles (fewer when the bag holds fewer)."""
    PLACE = "place"
    """The action, one tile at a time: ``tile`` on ``square``."""
    SCORE = "score"
    """Score card ``card`` with the region whose first square (reading order) is ``square``."""
    DISCARD = "discard"
    """Over the limits after ``end``: put ``tile`` back into the bag."""
    DISCARD_GOAL = "discard_goal"
    """Over the limits after ``end``: discard goal card ``card``."""
    END = "end"
    """End the turn."""


class Step(StrEnum):
    """Where the seat to act is in its turn."""

    START = "start"
    """Nothing done yet: any action, scoring (``end`` only when no action is possible)."""
    DREW = "drew"
    """The player drew (a goal card or tiles): scoring and ``end`` remain."""
    PLACED = "placed"
    """The player placed at least one tile: more placements, scoring and ``end``."""
    DISCARD = "discard"
    """The player ended the turn over the limits: only discards remain."""
    OVER = "over"
    """The game has ended."""


@dataclass(frozen=True)
class Move:
    """One move of a turn (see :class:`MoveKind`).

    Card numbers count the face-up cards first, then the player's own cards in the order they
    were drawn. ``square`` is -1 where the move has none.
    """

    kind: MoveKind
    tile: str = ""
    square: int = -1
    card: int = 0


@dataclass(frozen=True)
class State:
    """A whole game. In a view, other seats' tiles and cards, the bag and the deck are None."""

    board: tuple[Stack, ...]
    bag: tuple[str, ...] | None
    bag_size: int
    deck: tuple[str, ...] | None
    deck_size: int
    discards: tuple[str, ...]
    """The goal-card discard pile, face up, oldest first (turned over it is the new deck)."""
    face_up: tuple[str, ...]
    tiles: tuple[tuple[str, ...] | None, ...]
    """Every seat's tiles, sorted by colour then number."""
    cards: tuple[tuple[str, ...] | None, ...]
    """Every seat's goal cards, in the order drawn."""
    tile_counts: tuple[int, ...]
    card_counts: tuple[int, ...]
    scores: tuple[int, ...]
    to_act: int
    first: int
    """The seat that started (highest tile sum at set-up)."""
    step: Step = Step.START
    highlight: tuple[int, ...] = ()
    """Squares placed in the current turn, or in the last turn that placed tiles."""
    idle_turns: int = 0
    """Consecutive turns without a placement."""
    idle_empty_turns: int = 0
    """Consecutive turns without a placement that ended with the bag empty."""
    turn: int = 1
    forfeited: frozenset[int] = field(default_factory=frozenset)
    reason: str = ""
    """Why the game ended: a phrase code (see :attr:`games.tileup.game.TileUp.phrases`)."""
    seed: int | None = None
    """The seed that reshuffles the bag when tiles go back into it (None with a deal; 0 in a
    view)."""
    shuffles: int = 0
    last_move: str = ""
    options: Options = Options()

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.scores)

    @property
    def over(self) -> bool:
        """True when the game has ended."""
        return self.step == Step.OVER

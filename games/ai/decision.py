"""What a computer player decided and why, as facts (no sentences): the move, the points it
makes now, how the search rated it and its rivals, and the play it sets up. The bot words a
hint from these; they pickle, so a worker process can hand them back."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


class Why:
    """How a decision was reached (:attr:`Decision.why`)."""

    FORCED = "forced"
    """The rules left no choice (``forced_move``, or a single legal move): no search."""
    SEARCH = "search"
    """The search player's most visited move."""
    EXPERT = "expert"
    """The game's expert (a solver) knew the move."""
    GREEDY = "greedy"
    """The best immediate gain."""
    EASY = "easy"
    """A good move by immediate gain, not always the best."""
    RANDOM = "random"
    """A uniformly random legal move."""


@dataclass(frozen=True)
class Choice:
    """One move the player weighed.

    ``visits``: in how many sampled worlds the search played it out; ``value``: the mover's chance
    after it, from 0 (last) to 1 (first; for two players, of winning, if both sides play on like
    the search's playouts: see :class:`~games.ai.profile.Result`), None when not searched;
    ``points``: the mean change of the mover's score it makes at once (in the game's own
    units: in Geominos points are bad), over the worlds sampled; ``gain``: the game's
    ``move_gain`` (the greedy player's measure); ``error``: the standard error of ``value``
    (None with fewer than two playouts); ``score`` and ``lead``: the mover's mean score and
    score lead where the playouts ended (see :class:`~games.ai.profile.Result`).
    """

    move: Any
    notation: str
    visits: int = 0
    value: float | None = None
    points: float = 0.0
    gain: float = 0.0
    error: float | None = None
    score: float | None = None
    lead: float | None = None


@dataclass(frozen=True)
class Confidence:
    """How sure the search is of its move: the ``gap`` between its chance and the runner-up's
    (``runner_up``, in notation), paired over the ``worlds`` both played, with the gap's
    standard ``error``. The runner-up is the best other move by the search's value (so ``gap``
    may be slightly negative when a switch rule kept the game's own first choice)."""

    runner_up: str
    gap: float
    error: float
    worlds: int

    @property
    def z(self) -> float:
        """The gap in standard errors (large when the move is clearly the best)."""
        if self.error <= 0:
            return math.inf if self.gap > 0 else 0.0
        return self.gap / self.error

    @property
    def sure(self) -> bool:
        """True when the move is better than the runner-up beyond doubt (two standard errors)."""
        return self.z >= 2.0


@dataclass(frozen=True)
class Step:
    """One move of the line the player expects after its move: who plays it (``seat``), its
    notation and the points it makes (mean over the worlds sampled)."""

    seat: int
    notation: str
    points: float = 0.0


@dataclass(frozen=True)
class Decision:
    """A computer player's decision for ``seat``: ``move`` (with ``notation``) and how it was
    reached (``why``, one of :class:`Why`).

    ``choices`` are the moves weighed, best first (the chosen one first), at most a handful;
    ``line`` is the expected play after the move (the line of its first playout, opponents'
    moves included: what the move sets up); ``playouts``, ``worlds`` and ``seconds`` say how
    much thinking went into it; ``confidence`` how sure the search is (None without a search or
    without a rival).
    """

    move: Any
    notation: str
    seat: int
    level: str
    why: str
    choices: tuple[Choice, ...] = ()
    line: tuple[Step, ...] = ()
    playouts: int = 0
    worlds: int = 0
    seconds: float = 0.0
    confidence: Confidence | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Game facts an expert adds (e.g. a solver's verdict)."""

    @property
    def chosen(self) -> Choice:
        """The chosen move's :class:`Choice` (a bare one when nothing was weighed)."""
        return self.choices[0] if self.choices else Choice(self.move, self.notation)

    @property
    def points(self) -> float:
        """The points the move makes at once (see :attr:`Choice.points`)."""
        return self.chosen.points

    @property
    def value(self) -> float | None:
        """The search's estimate of the mover's result after the move (0..1; None if none)."""
        return self.chosen.value

    @property
    def setup(self) -> tuple[Step, ...]:
        """The mover's own next moves in :attr:`line` (what the move prepares)."""
        return tuple(step for step in self.line if step.seat == self.seat)

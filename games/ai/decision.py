"""What a computer player decided and why, as facts (no sentences): the move, the points it
makes now, how the search rated it and its rivals, and the play it sets up. The bot words a
hint from these; they pickle, so a worker process can hand them back."""

from __future__ import annotations

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

    ``visits``: in how many sampled worlds the search played it out; ``value``: the mover's mean
    result after it, from 0 (last) to 1 (first; for two players, about the chance of winning),
    None when not searched;
    ``points``: the mean change of the mover's score it makes at once (in the game's own
    units: in Geominos points are bad), over the worlds sampled; ``gain``: the game's
    ``move_gain`` (the greedy player's measure).
    """

    move: Any
    notation: str
    visits: int = 0
    value: float | None = None
    points: float = 0.0
    gain: float = 0.0


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
    ``line`` is the expected play after the move (the search's most visited line, opponents'
    moves included: what the move sets up); ``iterations`` and ``seconds`` say how much
    thinking went into it.
    """

    move: Any
    notation: str
    seat: int
    level: str
    why: str
    choices: tuple[Choice, ...] = ()
    line: tuple[Step, ...] = ()
    iterations: int = 0
    seconds: float = 0.0
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

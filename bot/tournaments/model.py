"""Tournament values: the rules, entrants, rounds, tables and their results. Plain frozen
dataclasses of ints and strings (no discord, no storage), so pairing and standings are pure
functions of them and the service stores them as they are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

WIN = Fraction(1)
"""What winning a table is worth (a draw at two is half of it; a bye is worth a win)."""
BYE_POINTS = WIN


class Format(StrEnum):
    """How tables are formed."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"

    @property
    def label(self) -> str:
        """The format as players read it."""
        return "Swiss" if self is Format.SWISS else "round robin"


class Phase(StrEnum):
    """Where a tournament stands."""

    SIGNUP = "signup"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def active(self) -> bool:
        """True while it may still change (sign-up, running or paused)."""
        return self in (Phase.SIGNUP, Phase.RUNNING, Phase.PAUSED)

    @property
    def words(self) -> str:
        """Where it stands, as in "Spring Swiss is under way"."""
        return PHASE_WORDS[self]


PHASE_WORDS = {
    Phase.SIGNUP: "still in sign-up",
    Phase.RUNNING: "under way",
    Phase.PAUSED: "paused",
    Phase.FINISHED: "over",
    Phase.CANCELLED: "called off",
}


class Tiebreak(StrEnum):
    """A way of ordering entrants with equal points."""

    BUCHHOLZ_CUT1 = "bh_cut1"
    BUCHHOLZ = "bh"
    SONNEBORN_BERGER = "sb"
    HEAD_TO_HEAD = "h2h"
    WINS = "wins"
    GAME_SCORE = "score"

    @property
    def short(self) -> str:
        """The column heading."""
        return TIEBREAK_SHORT[self]

    @property
    def words(self) -> str:
        """What it is, in a few words, for the rules."""
        return TIEBREAK_WORDS[self]


TIEBREAK_SHORT = {
    Tiebreak.BUCHHOLZ_CUT1: "BH-C1",
    Tiebreak.BUCHHOLZ: "BH",
    Tiebreak.SONNEBORN_BERGER: "SB",
    Tiebreak.HEAD_TO_HEAD: "H2H",
    Tiebreak.WINS: "Wins",
    Tiebreak.GAME_SCORE: "Game pts",
}
TIEBREAK_WORDS = {
    Tiebreak.BUCHHOLZ_CUT1: "Buchholz less the weakest round",
    Tiebreak.BUCHHOLZ: "Buchholz (your opponents' points)",
    Tiebreak.SONNEBORN_BERGER: "Sonneborn-Berger (the points of those you beat)",
    Tiebreak.HEAD_TO_HEAD: "head-to-head between the tied players",
    Tiebreak.WINS: "most tables won",
    Tiebreak.GAME_SCORE: "total game points",
}
SWISS_TIEBREAKS = (
    Tiebreak.BUCHHOLZ_CUT1,
    Tiebreak.BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.GAME_SCORE,
)
ROUND_ROBIN_TIEBREAKS = (
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.WINS,
    Tiebreak.GAME_SCORE,
)


@dataclass(frozen=True)
class Rules:
    """What the organiser chose (and what follows from the game)."""

    game: str
    format: Format
    rounds: int
    """Swiss: as chosen. Round robin: 0 until the start, then as many as the schedule has."""
    table_size: int
    min_table: int
    """The fewest players a table of this game may have (at least two)."""
    turn_seconds: int
    round_seconds: int = 0
    """A round's deadline after it starts (0: none; the turn clock alone keeps games moving)."""
    max_entrants: int = 64
    options: Mapping[str, Any] = field(default_factory=dict)
    lower_is_better: bool = False
    """The game's own scores: the fewest points wins (Geominos)."""

    @property
    def tiebreaks(self) -> tuple[Tiebreak, ...]:
        """The tiebreaks, in the order they apply."""
        return SWISS_TIEBREAKS if self.format is Format.SWISS else ROUND_ROBIN_TIEBREAKS

    @property
    def min_entrants(self) -> int:
        """The fewest entrants a start needs: more than one table's worth."""
        return max(3, self.table_size + 1)


@dataclass(frozen=True)
class Entrant:
    """Someone playing: a member (``user_id``) or a computer (``ai_level``)."""

    number: int
    """1, 2, ... in sign-up order: the entrant's id within the tournament."""
    user_id: int | None
    name: str
    ai_level: str | None = None
    seed: int | None = None
    """The starting rank (1 is the top seed), drawn at the start from ratings."""
    withdrawn_round: int | None = None
    """The round in which they withdrew (None: still playing)."""

    @property
    def is_computer(self) -> bool:
        """True for a computer entrant."""
        return self.ai_level is not None

    def active_in(self, round_number: int) -> bool:
        """True when they are still playing in that round."""
        return self.withdrawn_round is None or round_number < self.withdrawn_round


class How(StrEnum):
    """How a table's result came about."""

    PLAYED = "played"
    """The game ended (absent players lost on time or resigned)."""
    STOPPED = "stopped"
    """The game was stopped (aborted, or the round's deadline came): the player to act lost,
    the others ranked by the scores at that moment."""
    FORFEIT = "forfeit"
    """No game was played: the absent players lost, the others won."""
    ADJUSTED = "adjusted"
    """The organiser set it."""


@dataclass(frozen=True)
class TableResult:
    """A table's result, by seat: ranks (1 is best, equal ranks tie), the game's scores, and
    the seats of absent players (they lost: time, abandonment, withdrawal)."""

    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    absent: frozenset[int] = frozenset()
    how: How = How.PLAYED

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "ranks": list(self.ranks),
            "scores": list(self.scores),
            "absent": sorted(self.absent),
            "how": self.how.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableResult:
        """Read :meth:`to_dict`'s form back."""
        return cls(
            tuple(data["ranks"]), tuple(data["scores"]), frozenset(data.get("absent", ())), How(data["how"])
        )


@dataclass(frozen=True)
class Table:
    """One table of a round: entrants in seat order (the first starts), its game, its result."""

    id: int
    round: int
    number: int
    seats: tuple[int, ...]
    game_id: int | None = None
    result: TableResult | None = None

    @property
    def done(self) -> bool:
        """True once it has a result."""
        return self.result is not None


@dataclass(frozen=True)
class Round:
    """A round: who sat out with a bye, when it started and its deadline."""

    number: int
    byes: tuple[int, ...] = ()
    started_at: float | None = None
    deadline: float | None = None
    finished_at: float | None = None


@dataclass(frozen=True)
class Plan:
    """A round's pairing: tables (entrants in seat order) and byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()

    def players(self) -> list[int]:
        """Everyone in it, tables first."""
        return [p for table in self.tables for p in table] + list(self.byes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"tables": [list(t) for t in self.tables], "byes": list(self.byes)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Plan:
        """Read :meth:`to_dict`'s form back."""
        return cls(tuple(tuple(t) for t in data["tables"]), tuple(data.get("byes", ())))


@dataclass(frozen=True)
class Adjustment:
    """A result the organiser changed: who, when, why, and what it was before."""

    table_id: int
    user_id: int
    made_at: float
    reason: str
    before: TableResult | None
    after: TableResult


@dataclass(frozen=True)
class Tournament:
    """A whole tournament as stored."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    rules: Rules
    phase: Phase
    seed: int
    created_at: float
    closes_at: float | None = None
    round: int = 0
    """The round under way (or the last one played); 0 before the start."""
    message_id: int | None = None
    started_at: float | None = None
    finished_at: float | None = None
    schedule: tuple[Plan, ...] = ()
    """A round robin's planned rounds (drawn at the start)."""
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    tables: tuple[Table, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()

    def entrant(self, number: int) -> Entrant:
        """The entrant with that number."""
        for entrant in self.entrants:
            if entrant.number == number:
                return entrant
        raise KeyError(number)

    def by_user(self, user_id: int) -> Entrant | None:
        """The entrant who is that member, or None."""
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def names(self) -> dict[int, str]:
        """Entrant number -> name."""
        return {e.number: e.name for e in self.entrants}

    def tables_of(self, round_number: int) -> list[Table]:
        """The tables of a round, by number."""
        return sorted((t for t in self.tables if t.round == round_number), key=lambda t: t.number)

    def round_row(self, round_number: int) -> Round | None:
        """The stored round, or None."""
        return next((r for r in self.rounds if r.number == round_number), None)

    def table_of_game(self, game_id: int) -> Table | None:
        """The table playing that game, or None."""
        return next((t for t in self.tables if t.game_id == game_id), None)

    def round_complete(self, round_number: int) -> bool:
        """True when every table of the round has a result."""
        row = self.round_row(round_number)
        return row is not None and all(t.done for t in self.tables_of(round_number))

    def completed_rounds(self) -> list[int]:
        """The rounds whose tables all have results, in order."""
        return [
            r.number for r in sorted(self.rounds, key=lambda r: r.number) if self.round_complete(r.number)
        ]

    def with_entrants(self, entrants: Sequence[Entrant]) -> Tournament:
        """A copy with other entrants."""
        return replace(self, entrants=tuple(entrants))

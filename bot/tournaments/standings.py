"""Standings: points and tiebreaks from the tables played, as pure functions.

Points generalise chess's 1 / ½ / 0 to tables of any size: at a table of ``m`` players each
player scores, against each other player, 1 for finishing above them, ½ for a tie and 0 for
finishing below, and the table is worth the average of that (times :data:`WIN`). At two players
that is a win, a draw or a loss; at four, the places are worth 1, ⅔, ⅓ and 0. An absent player
(lost on time, abandoned, withdrew) scores 0 and counts as beaten by everyone present. A bye is
worth a win.

Tiebreaks (each applies among the players still tied after the ones before it):

- Buchholz: the sum, over your rounds, of your opponents' points (at a bigger table, the
  average of that table's opponents); a bye round counts your own points. Cut-1 drops your
  weakest round.
- Sonneborn-Berger: for each opponent, your result against them times their points (averaged
  over the table's opponents like the table's points).
- Head-to-head: your results against the players tied with you.
- Wins: the tables you won outright. Game points: the total of the games' own scores (the
  lowest total is best where the game's fewest points win).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from bot.tournaments.model import BYE_POINTS, WIN, Entrant, How, Rules, Table, TableResult, Tiebreak

Value = Fraction | int


def pairwise(result: TableResult, seat: int, other: int) -> Fraction:
    """What ``seat`` scored against ``other`` at one table: 1, ½ or 0."""
    if seat in result.absent:
        return Fraction(0)
    if other in result.absent:
        return Fraction(1)
    mine, theirs = result.ranks[seat], result.ranks[other]
    if mine < theirs:
        return Fraction(1)
    return Fraction(1, 2) if mine == theirs else Fraction(0)


def table_points(result: TableResult, seat: int) -> Fraction:
    """The points ``seat`` earned at a table (see the module's rules)."""
    others = [o for o in range(len(result.ranks)) if o != seat]
    if not others:
        return WIN
    return WIN * sum((pairwise(result, seat, o) for o in others), Fraction(0)) / len(others)


@dataclass(frozen=True)
class Meeting:
    """One table from one player's side: who else sat there and how it went against each."""

    round: int
    points: Fraction
    against: tuple[tuple[int, Fraction], ...]
    """``(opponent, result against them)`` for each other player at the table."""
    score: int | None
    """The game's own score (None where no game was played)."""


@dataclass
class Record:
    """Everything one entrant did, round by round."""

    number: int
    meetings: list[Meeting] = field(default_factory=list)
    bye_rounds: list[int] = field(default_factory=list)

    @property
    def points(self) -> Fraction:
        """Points from tables and byes."""
        return sum((m.points for m in self.meetings), Fraction(0)) + BYE_POINTS * len(self.bye_rounds)

    @property
    def wins(self) -> int:
        """Tables won outright."""
        return sum(1 for m in self.meetings if m.points == WIN)


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    number: int
    points: Fraction
    tiebreaks: Mapping[Tiebreak, Value | None]
    """Each tiebreak's value (head-to-head: None unless it was needed)."""
    played: int
    """Tables played (byes apart)."""
    wins: int
    byes: int
    withdrawn: bool = False


def records(
    entrants: Iterable[Entrant], tables: Iterable[Table], byes: Mapping[int, Sequence[int]]
) -> dict[int, Record]:
    """Each entrant's record from the tables with a result and the byes (``round -> byes``)."""
    found = {e.number: Record(e.number) for e in entrants}
    for table in tables:
        result = table.result
        if result is None:
            continue
        scored = result.how in (How.PLAYED, How.STOPPED, How.ADJUSTED)
        for seat, number in enumerate(table.seats):
            if number not in found:
                continue
            against = tuple(
                (other, pairwise(result, seat, o)) for o, other in enumerate(table.seats) if o != seat
            )
            score = result.scores[seat] if scored and seat not in result.absent else None
            found[number].meetings.append(Meeting(table.round, table_points(result, seat), against, score))
    for round_number, numbers in byes.items():
        for number in numbers:
            if number in found:
                found[number].bye_rounds.append(round_number)
    return found


def _buchholz_rounds(record: Record, points: Mapping[int, Fraction]) -> list[Fraction]:
    values = [
        sum((points[o] for o, _ in m.against), Fraction(0)) / len(m.against)
        for m in record.meetings
        if m.against
    ]
    return values + [record.points] * len(record.bye_rounds)


def sonneborn_berger(record: Record, points: Mapping[int, Fraction]) -> Fraction:
    """Σ over tables of (result against each opponent × their points), averaged per table."""
    total = Fraction(0)
    for meeting in record.meetings:
        if meeting.against:
            total += sum((r * points[o] for o, r in meeting.against), Fraction(0)) / len(meeting.against)
    return total


def head_to_head(record: Record, group: set[int]) -> Fraction:
    """``record``'s results against the members of ``group`` (the players tied with them)."""
    return sum((r for m in record.meetings for o, r in m.against if o in group), Fraction(0))


def game_score(record: Record) -> int:
    """The total of the games' own scores."""
    return sum(m.score for m in record.meetings if m.score is not None)


def global_tiebreaks(record: Record, points: Mapping[int, Fraction]) -> dict[Tiebreak, Value]:
    """Every tiebreak that does not depend on who else is tied."""
    rounds = _buchholz_rounds(record, points)
    buchholz = sum(rounds, Fraction(0))
    return {
        Tiebreak.BUCHHOLZ: buchholz,
        Tiebreak.BUCHHOLZ_CUT1: buchholz - min(rounds) if rounds else Fraction(0),
        Tiebreak.SONNEBORN_BERGER: sonneborn_berger(record, points),
        Tiebreak.WINS: record.wins,
        Tiebreak.GAME_SCORE: game_score(record),
    }


def standings(
    entrants: Sequence[Entrant],
    tables: Iterable[Table],
    byes: Mapping[int, Sequence[int]],
    rules: Rules,
) -> list[Standing]:
    """The standings, best first; entrants tied on points and every tiebreak share a rank."""
    found = records(entrants, tables, byes)
    points = {number: record.points for number, record in found.items()}
    values: dict[int, dict[Tiebreak, Value | None]] = {}
    for number, record in found.items():
        values[number] = {**global_tiebreaks(record, points), Tiebreak.HEAD_TO_HEAD: None}
    seeds = {e.number: (e.seed if e.seed is not None else e.number) for e in entrants}
    groups = _split(sorted(found, key=lambda n: (-points[n], seeds[n])), lambda n: points[n])
    for tiebreak in rules.tiebreaks:
        refined: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if tiebreak is Tiebreak.HEAD_TO_HEAD:
                members = set(group)
                for number in group:
                    values[number][tiebreak] = head_to_head(found[number], members - {number})

            def key(number: int, t: Tiebreak = tiebreak) -> Value:
                value = values[number][t] or 0
                flip = t is Tiebreak.GAME_SCORE and rules.lower_is_better
                return -value if flip else value

            ordered = sorted(group, key=lambda n: (-key(n), seeds[n]))
            refined.extend(_split(ordered, key))
        groups = refined
    withdrawn = {e.number for e in entrants if e.withdrawn_round is not None}
    lines: list[Standing] = []
    rank = 1
    for group in groups:
        for number in group:
            record = found[number]
            lines.append(
                Standing(
                    rank=rank,
                    number=number,
                    points=points[number],
                    tiebreaks={t: values[number][t] for t in rules.tiebreaks},
                    played=len(record.meetings),
                    wins=record.wins,
                    byes=len(record.bye_rounds),
                    withdrawn=number in withdrawn,
                )
            )
        rank += len(group)
    return lines


def _split(ordered: list[int], key: Callable[[int], Value]) -> list[list[int]]:
    """Consecutive runs of equal ``key``."""
    groups: list[list[int]] = []
    for number in ordered:
        if groups and key(groups[-1][0]) == key(number):
            groups[-1].append(number)
        else:
            groups.append([number])
    return groups


def byes_by_round(rounds: Iterable[tuple[int, Sequence[int]]]) -> dict[int, list[int]]:
    """``round -> byes`` from ``(round, byes)`` pairs."""
    found: dict[int, list[int]] = defaultdict(list)
    for number, byes in rounds:
        found[number].extend(byes)
    return dict(found)


def format_points(value: Value | None) -> str:
    """Points as players write them: ``2½``, ``1⅔``, ``3``; ``–`` for none."""
    if value is None:
        return "–"
    if isinstance(value, int):
        return str(value)
    whole, part = divmod(value, 1)
    fractions = {
        Fraction(1, 2): "½",
        Fraction(1, 3): "⅓",
        Fraction(2, 3): "⅔",
        Fraction(1, 4): "¼",
        Fraction(3, 4): "¾",
        Fraction(1, 6): "⅙",
        Fraction(5, 6): "⅚",
    }
    if part == 0:
        return str(int(whole))
    if part in fractions:
        return (str(int(whole)) if whole else "") + fractions[part]
    return f"{float(value):.2f}"

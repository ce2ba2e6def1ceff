"""The daily challenge, as pure functions: which solitaire target a day has, how a day's
attempts rank, a member's streak, and the words for them. No storage, no discord.

Each day (UTC) has one target for everyone, the same in every server: one of the named
one-set targets, all of which have known solutions (the solver finds one in about a second,
and their solutions have been counted: 3x20 has 2, 6x10 has 2339). The days run through the
targets in cycles: each cycle is a shuffle of all of them drawn from the cycle's number, so that
every target comes once a cycle, and never on two days running.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence

from bot.storage import DailyResult
from games.core import counted
from games.puzzominos.targets import TARGETS, Target

DAILY_TARGETS = ("6x10", "5x12", "4x15", "3x20", "8x8-corners", "8x8-b2g7", "8x8-center", "T", "cross")
"""The targets a day may have: the named targets of one set (all with known solutions)."""
EPOCH = dt.date(2024, 1, 1)
"""Day 0 of the cycles."""
SALT = "tilehost daily"


def day_of(timestamp: float) -> str:
    """The UTC day of a unix time, ``YYYY-MM-DD``."""
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).date().isoformat()


def parse_day(text: str) -> str:
    """``text`` as a day ``YYYY-MM-DD``; raises ``ValueError`` when it is not one."""
    return dt.date.fromisoformat(text.strip()).isoformat()


def next_day_starts(day: str) -> float:
    """The unix time the day after ``day`` begins (UTC midnight)."""
    following = dt.date.fromisoformat(day) + dt.timedelta(days=1)
    return dt.datetime.combine(following, dt.time(), dt.UTC).timestamp()


def _cycle(number: int) -> list[str]:
    order = list(DAILY_TARGETS)
    random.Random(f"{SALT}:{number}").shuffle(order)
    return order


def target_of(day: str) -> Target:
    """The day's target: its place in its cycle's shuffle (the first of a cycle moved on one
    place when the previous cycle ended with it, so no target comes two days running)."""
    number = (dt.date.fromisoformat(day) - EPOCH).days
    cycle, place = divmod(number, len(DAILY_TARGETS))
    order = _cycle(cycle)
    if _cycle(cycle - 1)[-1] == order[0]:
        order = order[1:] + order[:1]
    return TARGETS[order[place]]


# -- a day's standings ---------------------------------------------------------------------------


def rank_key(result: DailyResult) -> tuple[int, float, float, int]:
    """Solved without hints, quickest first; then solved with hints, fewest first; then the
    attempts given up and those still being played, most pieces first."""
    seconds = result.seconds if result.seconds is not None else float("inf")
    if result.solved and not result.hints:
        return (0, seconds, 0, result.user_id)
    if result.solved:
        return (1, result.hints, seconds, result.user_id)
    if result.finished:
        return (2, -result.pieces, 0, result.user_id)
    return (3, -result.pieces, 0, result.user_id)


def ranked(results: Sequence[DailyResult]) -> list[DailyResult]:
    """A day's attempts in standings order (see :func:`rank_key`)."""
    return sorted((r for r in results if r.game_id is not None), key=rank_key)


def streak(days_solved: Sequence[str], today: str) -> int:
    """Days solved in a row (with or without hints), up to ``today`` or, while today's is not
    solved yet, up to yesterday; ``days_solved`` latest first."""
    if not days_solved:
        return 0
    expected = dt.date.fromisoformat(today)
    latest = dt.date.fromisoformat(days_solved[0])
    if latest not in (expected, expected - dt.timedelta(days=1)):
        return 0
    count = 0
    for day in days_solved:
        if dt.date.fromisoformat(day) != latest - dt.timedelta(days=count):
            break
        count += 1
    return count


def duration(seconds: float) -> str:
    """``7m 05s``, ``1h 02m 00s``."""
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m {secs:02d}s" if hours else f"{minutes}m {secs:02d}s"


def outcome_words(result: DailyResult, target: Target) -> str:
    """``solved in 7m 05s``, ``solved with 2 hints in 9m 10s``, ``gave up with 7 of 12 pieces
    placed``, ``playing: 5 of 12 pieces placed``."""
    of = f"{result.pieces} of {target.needed} pieces placed"
    took = f" in {duration(result.seconds)}" if result.seconds is not None else ""
    if result.solved and result.hints:
        return f"solved with {counted(result.hints, 'hint')}{took}"
    if result.solved:
        return f"solved without hints{took}"
    if result.finished:
        return f"gave up with {of}" + (f" ({counted(result.hints, 'hint')})" if result.hints else "")
    return f"playing: {of}" + (f", {counted(result.hints, 'hint')}" if result.hints else "")


def streak_words(days: int) -> str:
    """``streak 3 days`` (nothing for none)."""
    return f"streak {counted(days, 'day')}" if days else ""


def ordinal(rank: int) -> str:
    """``1st``, ``2nd``, ``11th``, ``23rd``."""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def place_words(results: Sequence[DailyResult], user_id: int, where: str) -> str:
    """``2nd of 5 in this server`` for a finished attempt among a day's (ranked) attempts."""
    finished = [result for result in results if result.finished]
    for number, result in enumerate(finished, start=1):
        if result.user_id == user_id:
            return f"{ordinal(number)} of {len(finished)} {where}"
    return ""

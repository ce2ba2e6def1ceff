"""A whole game between computer players of given levels: what ``python -m games selfplay`` and
the tournament bench play. Each seat has its own player (seeded from the game's seed and the
seat), and every decision is timed."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games import records
from games.ai import SearchPlayer, player_for
from games.ai.budget import Budget
from games.ai.profile import SearchProfile
from games.core import Game, GameOptions, Outcome
from games.errors import GameError

MAX_PLIES = 100_000


@dataclass(frozen=True)
class MatchResult:
    """A finished game: its record, outcome, and per seat the decisions made and the longest
    one (seconds, wall clock)."""

    record: records.Record
    outcome: Outcome
    levels: tuple[str, ...]
    decisions: tuple[int, ...]
    slowest: tuple[float, ...]
    thinking: tuple[float, ...]
    """Per seat, the seconds spent deciding in all."""


def play_match(
    game: Game[Any, Any],
    levels: Sequence[str],
    seed: int,
    budget: Budget | float | None = None,
    options: GameOptions | None = None,
    profile: SearchProfile | None = None,
    budgets: Sequence[Budget | float | None] | None = None,
) -> MatchResult:
    """Play a game from ``seed`` with a computer of ``levels[seat]`` in every seat, ``hard`` ones
    thinking within ``budget`` (or ``budgets[seat]``); ``profile`` replaces the game's search
    profile for the ``hard`` seats (experiments)."""
    players = len(levels)
    chosen = options if options is not None else game.Options()
    state = game.new(players, chosen, seed=seed)
    names = [f"{level}-{seat + 1}" for seat, level in enumerate(levels)]
    record = records.new_record(game, names, chosen.to_dict(), seed)
    limits = list(budgets) if budgets is not None else [budget] * players
    computers = [player_for(level, seed * 31 + seat, limits[seat]) for seat, level in enumerate(levels)]
    for computer in computers:
        if isinstance(computer, SearchPlayer):
            computer.profile = profile
    decisions = [0] * players
    slowest = [0.0] * players
    thinking = [0.0] * players
    for _ in range(MAX_PLIES):
        seat = game.to_act(state)
        if seat is None:
            outcome = game.outcome(state)
            assert outcome is not None
            return MatchResult(
                record, outcome, tuple(levels), tuple(decisions), tuple(slowest), tuple(thinking)
            )
        started = time.perf_counter()
        move = computers[seat].choose(game, state)
        spent = time.perf_counter() - started
        decisions[seat] += 1
        slowest[seat] = max(slowest[seat], spent)
        thinking[seat] += spent
        record = record.with_move(seat, game.format_move(state, move))
        state, _ = game.apply(state, move)
    raise GameError(f"{game.name}: self-play did not end after {MAX_PLIES} moves")

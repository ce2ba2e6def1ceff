"""Advice: the moves autocomplete suggests, hints, and the computer seats' choices, all worked
out off the event loop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from bot import errors, workers
from bot.sessions.session import Session, ready, require_playing, seat_for
from bot.status import Status
from games import ai

log = logging.getLogger(__name__)

SUGGESTION_LIMIT = 25
FALLBACK_LEVEL = "easy"
"""The level a computer seat plays a move at when its own search went past its budget."""


class Advice:
    """What the computer thinks: suggestions, hints and computer moves, within
    ``computer_budget`` for a ``hard`` decision."""

    def __init__(self, computer_budget: ai.Budget) -> None:
        self.computer_budget = computer_budget
        self._hinting: dict[int, tuple[Any, asyncio.Future[ai.Decision]]] = {}
        """The hint being searched for each game, with its position (asked again meanwhile: shared)."""

    async def suggestions(self, session: Session, user_id: int, typed: str) -> list[tuple[str, str]]:
        """Up to 25 legal moves ``(label, notation)`` for the user, best first, filtered by
        every word typed (any order, any case). Ranked off the event loop, once per position:
        the ranking is kept with the state it was made from, so it never outlives it."""
        if session.loading is not None:
            return []  # autocomplete cannot wait: the game is still being loaded after a restart
        state = session.state
        if session.status is not Status.PLAYING or session.seat_of(user_id) != session.to_act():
            return []
        cached = session._suggested
        if cached is None or cached[0] is not state:
            try:
                ranked = await workers.run(
                    workers.ranked_moves,
                    session.game,
                    state,
                    kind=workers.SUGGESTIONS,
                    stale=lambda: session.state is not state,
                )
            except workers.Superseded:
                return []  # the position moved on while it waited: the player types again
            cached = (state, session.ply, ranked)
            if session.state is state:
                session._suggested = cached
        ranked = cached[2]
        hinted = session._hinted
        if hinted is not None and hinted[0] is state:
            ranked = lead_with_hint(ranked, hinted[1].notation)
        return filter_suggestions(ranked, typed)

    async def hint(self, session: Session, user_id: int) -> ai.Decision:
        """The ``hard`` computer's choice for the user's seat (to act), from what that seat can
        see, with what it weighed; kept for the position, so autocomplete leads with it."""
        await ready(session)
        require_playing(session)
        seat = seat_for(session, user_id)
        if session.to_act() != seat:
            raise errors.NotYourTurn("A hint is for your own turn; it is not your turn now.")
        state = session.state
        hinted = session._hinted
        if hinted is not None and hinted[0] is state:
            return hinted[1]
        searching = self._hinting.get(session.id)
        if searching is None or searching[0] is not state:
            owner = workers.Owner(session.row.guild_id, user_id=user_id)
            search = asyncio.ensure_future(
                workers.run(
                    workers.hint,
                    session.game,
                    state,
                    seat,
                    search_seed(session),
                    self.computer_budget,
                    kind=workers.HINT,
                    owner=owner,
                )
            )
            searching = self._hinting[session.id] = (state, search)
            search.add_done_callback(lambda _: self._forget_hint(session.id, search))
        decision = await asyncio.shield(searching[1])
        if session.state is state:
            session._hinted = (state, decision)
        return decision

    def _forget_hint(self, game_id: int, search: asyncio.Future[ai.Decision]) -> None:
        if self._hinting.get(game_id, (None, None))[1] is search:
            del self._hinting[game_id]
        if not search.cancelled():
            search.exception()  # retrieved: it is raised to whoever asked

    async def computer_choice(self, session: Session) -> Any:
        """The move of the computer seat to act, at its level (in the long lane, in turn with the
        other games and members); a search past its budget plays that move at ``easy``."""
        seat = session.seat_to_act()
        level = seat.ai_level if seat is not None else None
        owner = workers.Owner(session.row.guild_id, game_id=session.id)
        args = (session.game, session.state, level, search_seed(session), self.computer_budget)
        try:
            return await workers.run(workers.computer_move, *args, kind=workers.COMPUTER, owner=owner)
        except workers.WorkTooLong:
            log.warning("game %s: the %s computer went past its budget; this move is easy", session.id, level)
            easy = (*args[:2], FALLBACK_LEVEL, *args[3:])
            return await workers.run(workers.computer_move, *easy, kind=workers.COMPUTER, owner=owner)


def filter_suggestions(ranked: Sequence[tuple[str, str]], typed: str) -> list[tuple[str, str]]:
    """The suggestions whose label or notation holds every word typed (any order, any case)."""
    words = typed.lower().split()
    found = []
    for label, notation in ranked:
        haystack = f"{label} {notation}".lower()
        compact = haystack.replace(" ", "")
        if all(word in haystack or word in compact for word in words):
            found.append((label, notation))
            if len(found) == SUGGESTION_LIMIT:
                break
    return found


def search_seed(session: Session) -> int:
    """The seed of a computer's or a hint's decision: the game's and the position's, so that a
    decision is reproducible (the search itself sees only the seat's view)."""
    return session.row.seed + session.ply


def lead_with_hint(ranked: Sequence[tuple[str, str]], notation: str) -> list[tuple[str, str]]:
    """The suggestions with the hinted move first, marked as the hint."""
    hinted = [(f"💡 hint · {label}", move) for label, move in ranked if move == notation]
    return hinted + [(label, move) for label, move in ranked if move != notation]

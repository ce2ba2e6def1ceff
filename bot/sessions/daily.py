"""The daily challenge's side of the session service: one attempt per member per day (UTC), a
solitaire of the day's target played in a room of the member's own (a private thread the Discord
layer makes), the day's results, streaks, and who may see a daily's record.

An attempt is claimed before its room and game are made, so a second command cannot start a
second one; a claim whose game never came (the bot stopped in between) is taken up again by the
member's next command. The game is an ordinary solitaire game (restored, clocked and ranked like
any), whose channel and thread are the member's private room: nothing of it shows in the channel
it was asked from, and ``last_finished`` there never finds it.
"""

from __future__ import annotations

from dataclasses import replace

from bot import errors
from bot.between import daily
from bot.sessions.lobby import Lobby
from bot.sessions.lookup import Shared
from bot.sessions.session import Session
from bot.status import Status
from bot.storage import DailyAttempt, DailyResult, GameRow
from games import puzzosolo

SOLO = puzzosolo.GAME.name
STALE_CLAIM_SECONDS = 120.0
"""A claim without a game older than this was left by a stop: the member's next command takes
it up (a younger one is being set up right now)."""


class Dailies:
    """Attempts at the daily challenge (the game itself is :class:`~bot.sessions.lobby.Lobby`'s)."""

    def __init__(self, shared: Shared, lobby: Lobby) -> None:
        self.shared = shared
        self.lobby = lobby

    def today(self) -> str:
        """Today (UTC), ``YYYY-MM-DD``."""
        return daily.day_of(self.shared.now())

    async def attempt(self, user_id: int, day: str | None = None) -> DailyAttempt | None:
        """The member's attempt at a day's challenge (today's by default)."""
        return await self.shared.storage.daily_attempt(day or self.today(), user_id)

    async def claim(self, user_id: int, guild_id: int | None, channel_id: int) -> DailyAttempt:
        """Claim today's attempt for the member (raises :class:`bot.storage.DailyTaken` when
        they have one; a stale claim without a game is handed back to be set up again)."""
        day = self.today()
        target = daily.target_of(day).name
        storage = self.shared.storage
        existing = await storage.daily_attempt(day, user_id)
        if existing is not None and existing.game_id is None:
            if self.shared.now() - existing.claimed_at >= STALE_CLAIM_SECONDS:
                return existing
            raise errors.SessionError("Your daily challenge is being set up; look again in a moment.")
        return await storage.claim_daily(
            day=day,
            user_id=user_id,
            guild_id=guild_id,
            channel_id=channel_id,
            target=target,
            now=self.shared.now(),
        )

    async def give_back(self, attempt: DailyAttempt) -> None:
        """Drop a claim whose room or game could not be made (nothing was played)."""
        await self.shared.storage.drop_daily_claim(attempt.day, attempt.user_id)

    async def begin(self, attempt: DailyAttempt, room_id: int, name: str) -> Session:
        """Make and start the attempt's solitaire in the member's room ``room_id``."""
        session = await self.lobby.create(
            SOLO,
            guild_id=attempt.guild_id,
            channel_id=room_id,
            user_id=attempt.user_id,
            name=name,
            options={"target": attempt.target},
            turn_seconds=0,
        )
        await self.shared.storage.set_thread(session.id, room_id)
        session.row = replace(session.row, thread_id=room_id)
        await self.shared.storage.set_daily_game(attempt.day, attempt.user_id, session.id)
        await self.lobby.start(session, attempt.user_id)
        return session

    async def results(self, day: str, guild_id: int | None) -> list[DailyResult]:
        """A day's attempts (in one server, or everywhere) in standings order."""
        return daily.ranked(await self.shared.storage.daily_results(day, guild_id))

    async def streaks(self, user_ids: list[int], day: str | None = None) -> dict[int, int]:
        """Each member's days solved in a row, up to ``day`` (today by default)."""
        until = day or self.today()
        solved = await self.shared.storage.days_solved(user_ids, until)
        return {user_id: daily.streak(days, until) for user_id, days in solved.items()}

    async def check_visible(self, row: GameRow, viewer: int) -> None:
        """Refuse to show ``viewer`` a solitaire's record while it could help them at a daily:

        - another member's daily, until the viewer has finished their own attempt at that day's
          target, or the day is over without their having one under way;
        - anyone else's solitaire of today's target (a daily of an earlier cycle, or a public
          solitaire from another day: the days come back to each target), until the viewer has
          finished today's attempt or the day is over."""
        if row.game != SOLO:
            return
        attempt = await self.shared.storage.daily_of_game(row.id)
        owner = attempt.user_id if attempt is not None else row.host_id
        if owner == viewer:
            return
        today = self.today()
        target = daily.target_of(today).name
        if row.variant == target and not await self._finished(viewer, today):
            raise errors.SessionError(
                f"Game #{row.id} is a solitaire of `{target}`, today's daily challenge: its record stays "
                "hidden from you until you have finished your own attempt today (or the day is over)."
            )
        if attempt is None:
            return
        own = await self.shared.storage.daily_attempt(attempt.day, viewer)
        if own is None and attempt.day < today:
            return  # the day is over and they never began it: it cannot help them any more
        if own is not None and await self._finished(viewer, attempt.day):
            return
        raise errors.SessionError(
            f"Game #{row.id} is a daily challenge ({attempt.day}): its record stays hidden from you "
            "until you have finished your own attempt at that day's target (or the day is over)."
        )

    async def _finished(self, user_id: int, day: str) -> bool:
        """Whether the member's attempt at ``day``'s challenge is over (solved or given up)."""
        own = await self.shared.storage.daily_attempt(day, user_id)
        if own is None or own.game_id is None:
            return False
        game = await self.shared.storage.game(own.game_id)
        return game is not None and game.status is not Status.PLAYING

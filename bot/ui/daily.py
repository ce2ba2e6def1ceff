"""The daily challenge in Discord (``/puzzominos daily``, ``/puzzominos dailyboard``).

Each member plays the day's target in a private thread of their own, made in the channel where
they asked: the thread's one board message is edited as they play (as any solitaire's), and only
they (and the server's moderators, who see every private thread) can open it. The channel sees
one line when someone finishes: how it went, their place and streak, never the board. A
member's record of the day stays hidden from the others until they have finished their own
(see :meth:`bot.sessions.daily.Dailies.check_visible`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal, Protocol

import discord

from bot import errors
from bot.between import daily
from bot.sessions import SessionService, Update
from bot.sessions.daily import SOLO, Dailies
from bot.storage import DailyAttempt, DailyResult, DailyTaken
from bot.ui import buttons, replies
from bot.words import escape, short

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440
"""A daily's private thread closes after a day without a message (it reopens when played)."""
BOARD_LINES = 20
"""The most attempts a daily leaderboard lists."""


class DailyBot(Protocol):
    """What the daily needs of the bot: the session service and Discord's channels."""

    @property
    def service(self) -> SessionService:
        """The session service."""

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None:
        """A cached channel or thread."""

    def get_guild(self, id: int, /) -> discord.Guild | None:
        """A server the bot is in (cached)."""


# -- playing ------------------------------------------------------------------------------------


def _home_channel(interaction: discord.Interaction) -> discord.TextChannel:
    """The text channel a member's daily thread is made in (a thread's own channel)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        channel = channel.parent
    if not isinstance(channel, discord.TextChannel):
        raise errors.NoGameHere("Play the daily challenge from a server's text channel.")
    return channel


def _check_permissions(channel: discord.TextChannel) -> None:
    allowed = channel.permissions_for(channel.guild.me)
    missing = [
        words
        for flag, words in (
            (allowed.create_private_threads, "Create Private Threads"),
            (allowed.send_messages_in_threads, "Send Messages in Threads"),
        )
        if not flag
    ]
    if missing:
        raise errors.SessionError(
            f"The daily challenge is played in a private thread of your own, and the bot may not make one "
            f"in {channel.mention} (it needs {' and '.join(missing)} there): ask a moderator, or use "
            "`/puzzominos daily` in another channel."
        )


async def play(interaction: discord.Interaction, bot: DailyBot) -> None:
    """``/puzzominos daily``: start today's attempt in a new private thread, or say where it
    stands."""
    await replies.defer_private(interaction)
    dailies = bot.service.dailies
    user = interaction.user
    attempt = await dailies.attempt(user.id)
    if attempt is not None and attempt.game_id is not None:
        await replies.private(interaction, await standing(bot, attempt, interaction.guild_id))
        return
    channel = _home_channel(interaction)
    _check_permissions(channel)
    try:
        attempt = await dailies.claim(user.id, interaction.guild_id, channel.id)
    except DailyTaken as taken:
        await replies.private(interaction, await standing(bot, taken.attempt, interaction.guild_id))
        return
    thread = await _open_room(dailies, attempt, channel, user)
    try:
        await dailies.begin(attempt, thread.id, buttons.display_name(user))
    except Exception:
        await dailies.give_back(attempt)
        await _delete(thread)
        raise
    target = daily.target_of(attempt.day)
    await replies.private(
        interaction,
        f"🧩 Today's daily challenge ({attempt.day}): **{target.name}**, {target.title}.\n"
        f"Your board is in {thread.mention}: only you can see it (and the server's moderators). Play there "
        "with `/puzzominos play`; your time runs from your first move to your last. Hints and giving up "
        "count as such, and there is one attempt a day.",
    )


async def _open_room(
    dailies: Dailies, attempt: DailyAttempt, channel: discord.TextChannel, user: discord.abc.User
) -> discord.Thread:
    """The member's private thread for the attempt (the claim is given back if it fails)."""
    name = f"Daily {attempt.day} · {buttons.display_name(user)}"[:100]
    try:
        thread = await channel.create_thread(
            name=name,
            type=discord.ChannelType.private_thread,
            invitable=False,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
        await thread.add_user(user)
    except discord.HTTPException as error:
        await dailies.give_back(attempt)
        log.info("no private thread for %s's daily in %s: %s", user.id, channel.id, error)
        raise errors.SessionError(
            f"The bot could not make your private thread in {channel.mention}; nothing was started. "
            "Try again, or use another channel."
        ) from None
    return thread


async def _delete(thread: discord.Thread) -> None:
    try:
        await thread.delete()
    except discord.HTTPException:
        log.info("could not delete the unused daily thread %s", thread.id)


async def standing(bot: DailyBot, attempt: DailyAttempt, guild_id: int | None) -> str:
    """Where the member's attempt stands, privately: under way (with its thread), or how it went
    with their place, streak and when the next daily comes."""
    dailies = bot.service.dailies
    target = daily.target_of(attempt.day)
    if attempt.game_id is None:
        return "Your daily challenge is being set up; look again in a moment."
    results = await dailies.results(attempt.day, attempt.guild_id)  # the server it is played in
    mine = next((r for r in results if r.user_id == attempt.user_id), None)
    if mine is None:
        return "Your daily challenge is being set up; look again in a moment."
    where = f"<#{mine.thread_id}>" if mine.thread_id else "your private thread"
    if not mine.finished:
        how = daily.outcome_words(mine, target)
        return f"🧩 Your daily challenge ({attempt.day}, **{target.name}**) is under way in {where}: {how}."
    streak = (await dailies.streaks([attempt.user_id], attempt.day))[attempt.user_id]
    home = bot.get_guild(attempt.guild_id) if attempt.guild_id is not None else None
    played_in = (
        "in this server"
        if attempt.guild_id == guild_id
        else f"in {escape(home.name) if home else 'its server'}"
    )
    place = daily.place_words(results, attempt.user_id, played_in)
    extras = " · ".join(part for part in (place, daily.streak_words(streak)) if part)
    return (
        f"🧩 You have played today's daily challenge (**{target.name}**): {daily.outcome_words(mine, target)}"
        + (f" — {extras}" if extras else "")
        + f".\nThe next one comes <t:{int(daily.next_day_starts(attempt.day))}:R>; `/puzzominos dailyboard` "
        "shows today's results."
    )


# -- the channel's line when someone finishes -----------------------------------------------------


class DailyNotices:
    """Tells the channel a daily was asked from when it ends: one line, no board, no pings."""

    def __init__(self, bot: DailyBot, post: Any) -> None:
        self.bot = bot
        self._post = post
        self._tasks: set[asyncio.Task[None]] = set()

    async def on_update(self, update: Update) -> None:
        """The session service's listener (a daily that ended gets its line, in the background)."""
        if not update.finished or update.session.game.name != SOLO:
            return
        task = asyncio.get_running_loop().create_task(self._notice(update.session.id), name="daily-notice")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _notice(self, game_id: int) -> None:
        try:
            attempt = await self.bot.service.storage.daily_of_game(game_id)
            if attempt is None:
                return
            seats = await self.bot.service.storage.seats(game_id)
            await self._post(attempt.channel_id, await self.line(attempt, seats[0].name))
        except Exception:
            log.exception("the daily notice of game %s failed", game_id)

    async def line(self, attempt: DailyAttempt, name: str) -> str:
        """``🧩 ann solved the daily challenge of 2025-01-15 (T) without hints in 7m 05s — 2nd
        of 5 in this server · streak 3 days``."""
        dailies = self.bot.service.dailies
        results = await dailies.results(attempt.day, attempt.guild_id)
        mine = next(r for r in results if r.user_id == attempt.user_id)
        target = daily.target_of(attempt.day)
        streak = (await dailies.streaks([attempt.user_id], attempt.day))[attempt.user_id]
        place = daily.place_words(results, attempt.user_id, "in this server")
        extras = " · ".join(part for part in (place, daily.streak_words(streak)) if part)
        when = "today's" if attempt.day == dailies.today() else f"the {attempt.day}"
        return (
            f"🧩 {display(name)} finished {when} daily challenge (`{target.name}`): "
            f"{daily.outcome_words(mine, target)}" + (f" — {extras}" if extras else "") + "."
        )

    async def close(self) -> None:
        """Let the notices under way finish."""
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


# -- the leaderboard --------------------------------------------------------------------------------


async def board(bot: DailyBot, guild_id: int | None, day: str) -> discord.Embed:
    """A day's results, in one server or everywhere: finished attempts ranked, with streaks, then
    those still being played."""
    dailies = bot.service.dailies
    target = daily.target_of(day)
    results = await dailies.results(day, guild_id)
    streaks = await dailies.streaks([r.user_id for r in results], day)
    where = "this server" if guild_id is not None else "all servers"
    embed = discord.Embed(title=f"Daily challenge {day} — {target.name} ({where})"[:256])
    finished = [r for r in results if r.finished]
    lines = [_line(number, r, target, streaks.get(r.user_id, 0)) for number, r in enumerate(finished, 1)]
    shown = lines[:BOARD_LINES]
    if len(lines) > BOARD_LINES:
        shown.append(f"… and {len(lines) - BOARD_LINES} more")
    playing = [f"<@{r.user_id}>" for r in results if not r.finished]
    if playing:
        shown.append(
            "Still playing: " + ", ".join(playing[:BOARD_LINES]) + ("…" if len(playing) > BOARD_LINES else "")
        )
    embed.description = ("\n".join(shown) or "Nobody has played it yet: `/puzzominos daily`!")[:4000]
    order = "solved without hints first (quickest), then with hints (fewest), then pieces placed"
    embed.set_footer(text=f"{target.title} · {order}"[:2048])
    return embed


def _line(number: int, result: DailyResult, target: Any, streak: int) -> str:
    text = f"**{number}.** <@{result.user_id}> — {daily.outcome_words(result, target)}"
    return text + (f" · {daily.streak_words(streak)}" if streak else "")


def display(name: str) -> str:
    """A member's name as a notice writes it."""
    return f"**{escape(short(name))}**"

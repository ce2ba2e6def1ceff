"""Replies to interactions: private answers, errors, and the mentions a message may make."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

from bot import errors, workers
from bot.storage import unavailable
from bot.words import clip
from games.errors import GameError

log = logging.getLogger(__name__)

NOTHING_RECORDED = "Something went wrong on our side and nothing was recorded. Please try again."
STORAGE_DOWN = (
    "⚠️ The bot cannot store anything right now (its database is full or read-only), so nothing was "
    "recorded. Please tell the bot's owner, and try again later."
)
NO_PINGS = discord.AllowedMentions.none()
"""What every message may mention unless it names the users it means to ping."""


def pinging(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions for exactly these users (no roles, no @everyone, no reply ping)."""
    users = [discord.Object(user_id) for user_id in dict.fromkeys(user_ids)]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


async def defer_private(interaction: discord.Interaction) -> None:
    """Acknowledge at once (Discord's three seconds), privately, before any work."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def defer_public(interaction: discord.Interaction) -> None:
    """Acknowledge at once with a public reply to come."""
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True)


async def private(interaction: discord.Interaction, text: str, **kwargs: Any) -> bool:
    """Answer only the user; True when it arrived (a failure is logged, never raised)."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(clip(text), ephemeral=True, allowed_mentions=NO_PINGS, **kwargs)
        else:
            await interaction.response.send_message(
                clip(text), ephemeral=True, allowed_mentions=NO_PINGS, **kwargs
            )
    except discord.HTTPException:
        log.warning("could not answer %s privately: %s", interaction.user.id, text[:200])
        return False
    return True


def refusal(error: BaseException) -> Exception | None:
    """The refusal ``error`` carries (a session or game error, Discord's own checks and
    transformers, work that took too long), or None when it is a failure of the bot."""
    original = getattr(error, "original", error)
    if isinstance(original, app_commands.TransformerError) and isinstance(
        original.__cause__, errors.SessionError | GameError
    ):
        return original.__cause__  # a refusal while reading an option (e.g. a game number)
    refused = (
        errors.SessionError,
        GameError,
        workers.WorkTooLong,
        app_commands.TransformerError,
        app_commands.CheckFailure,
    )
    return original if isinstance(original, refused) else None


async def answer_error(interaction: discord.Interaction, error: Exception) -> None:
    """The one place a refused command is answered (the command tree's error handler): session
    and game errors, Discord's own checks and transformers become a private message saying what
    was wrong; anything else is logged with its traceback and the user is told that nothing was
    recorded."""
    original: BaseException = refusal(error) or getattr(error, "original", None) or error
    if isinstance(original, errors.SessionError | GameError):
        await private(interaction, str(original))
    elif isinstance(original, workers.WorkTooLong):
        await private(interaction, "That took too long; nothing was changed. Try again later.")
    elif isinstance(original, workers.WorkerLost):
        log.warning("/%s: %s", getattr(interaction.command, "qualified_name", "?"), original)
        await private(interaction, "That work stopped before it was done; nothing was changed. Try again.")
    elif isinstance(original, app_commands.TransformerError | app_commands.CheckFailure):
        await private(interaction, str(original))
    elif unavailable(original):
        command = getattr(interaction.command, "qualified_name", "?")
        log.error("/%s: the database takes no writes: %s", command, original)
        await private(interaction, STORAGE_DOWN)
    else:
        command = getattr(interaction.command, "qualified_name", "?")
        log.error("unexpected error in /%s", command, exc_info=original)
        await private(interaction, NOTHING_RECORDED)


def answer_refusals(tree: app_commands.CommandTree[Any]) -> None:
    """Answer a refused command (bad input, not your turn...) as a refusal before the tree's
    present ``on_error`` hears of it; every other error still reaches that handler. Local mode
    uses it: SimCord wraps ``on_error`` when the bot starts to capture the bot's errors, and its
    page marks an action whose command reported an error as failed ("Action outcome
    uncertain", an error badge), which a refusal is not."""
    captured = tree.on_error

    async def on_error(interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        if refusal(error) is not None:
            await answer_error(interaction, error)
            return
        await captured(interaction, error)

    tree.on_error = on_error  # type: ignore[method-assign]

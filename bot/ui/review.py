"""``/review`` in Discord: which game and whose play, the review (kept, or made now in the
long-work lane), and its message with the pictures of the moves that cost the most and the chart.

Who may ask: the game must be over (hands are no longer secret then) and in this server, or
the asker one of its players (the same rule as the game's record and replay, which reveal
everything already). Anyone allowed may review any player of it privately; only one's own
review may be posted for everyone, so nobody's mistakes are shown in public but by themselves.
"""

from __future__ import annotations

import io
import logging
from typing import Any, Protocol

import discord

from bot import errors, workers
from bot.between.review_words import review_message
from bot.sessions import SessionService
from bot.storage import GameRow
from bot.ui import replies
from games import registry
from games.records import Record
from rendering.review import review_pictures

log = logging.getLogger(__name__)

HISTORY_LOOKBACK = 25
"""How many of a player's latest games are looked through for the last one to review."""


class ReviewBot(Protocol):
    """What a review needs of the bot: the session service."""

    @property
    def service(self) -> SessionService:
        """The session service."""


async def last_reviewable(bot: ReviewBot, user_id: int, guild_id: int | None) -> tuple[GameRow, Record]:
    """The player's last finished game against others (in this server, or anywhere in a direct
    message)."""
    storage = bot.service.storage
    for row in await storage.history(user_id, guild_id, limit=HISTORY_LOOKBACK):
        if registry.get(row.game).max_players > 1:
            return await bot.service.finished_record(row.game_id)
    raise errors.NoGameHere(
        "There is no finished game against others to review here; name one with `game_id` (see `/history`)."
    )


def check(
    row: GameRow, seats: list[Any], subject: discord.abc.User, asker: discord.abc.User, public: bool
) -> int:
    """The subject's seat in the game, once the request is allowed (see the module's rules)."""
    game = registry.get(row.game)
    if game.max_players == 1:
        raise errors.SessionError(
            f"Game #{row.id} is a solitaire: there is no opponent to weigh moves against (its hints and "
            "giving up show a solution)."
        )
    seat = next((s.seat for s in seats if s.user_id == subject.id), None)
    if seat is None:
        raise errors.NotSeated(f"{subject.display_name} did not play in {game.title} #{row.id}.")
    if public and subject.id != asker.id:
        raise errors.SessionError(
            "Only your own review can be posted for everyone; leave `public` off to see this one privately."
        )
    return seat


async def send(
    interaction: discord.Interaction, bot: ReviewBot, row: GameRow, record: Record, seat: int, public: bool
) -> None:
    """Make (or find) the review and answer with it: privately, or for everyone. The answer is
    deferred privately either way (a refusal once the work has begun, e.g. over the caps on long
    work, is the deferred message's edit, and must not be public); a public review is then
    posted as a second message."""
    await replies.defer_private(interaction)
    owner = workers.Owner(guild_id=interaction.guild_id, user_id=interaction.user.id)
    data = await bot.service.reviews.review(row, record, seat, owner)
    moments, chart = await workers.run(review_pictures, record, data, kind=workers.PICTURE)
    names = list(record.players)
    files = [
        discord.File(io.BytesIO(png), filename=f"review-{row.id}-{number}.png")
        for number, png in enumerate(moments, start=1)
    ]
    files.append(discord.File(io.BytesIO(chart), filename=f"review-{row.id}-chart.png"))
    text = review_message(registry.get(row.game), row.id, names, data)
    try:
        if public:
            await interaction.followup.send(
                f"🔎 Your review of {registry.get(row.game).title} #{row.id} is posted below for everyone.",
                ephemeral=True,
            )
        await interaction.followup.send(
            text, files=files, ephemeral=not public, allowed_mentions=replies.NO_PINGS
        )
    except discord.HTTPException as error:  # a very long review outlived the interaction: it is kept
        log.warning(
            "the review of game %s could not be sent (%s); asking again shows it at once", row.id, error
        )

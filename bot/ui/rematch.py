"""The **Rematch** button under a game's result: the first player to press it opens a lobby
with the same players and options at the same table (see :mod:`bot.sessions.rematch`); each
other player's press takes their seat in it. It keeps working after a restart."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot import errors, words
from bot.sessions import Session, Status
from bot.storage import unavailable
from bot.ui import buttons, replies
from bot.ui.protocol import TableBot
from games.errors import GameError

log = logging.getLogger(__name__)


def result_view(session: Session) -> discord.ui.View | None:
    """The Rematch button for a finished game's result; None for a solitaire or a tournament's
    game (the tournament pairs the next round)."""
    if session.status is not Status.FINISHED or session.game.max_players == 1 or session.row.in_tournament:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(session.id))
    return view


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th:rematch:(?P<id>\d+)"):
    """Rematch of the game its custom id names."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Rematch",
                emoji="🔁",
                style=discord.ButtonStyle.primary,
                custom_id=f"th:rematch:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: TableBot = interaction.client  # type: ignore[assignment]
        try:
            await self._run(interaction, bot)
        except (errors.SessionError, GameError) as error:
            await replies.private(interaction, str(error))
        except Exception as error:
            if unavailable(error):
                log.error(
                    "the rematch button of game %s: the database takes no writes: %s", self.game_id, error
                )
                await replies.private(interaction, replies.STORAGE_DOWN)
                return
            log.exception("the rematch button of game %s failed", self.game_id)
            await replies.private(interaction, replies.NOTHING_RECORDED)

    async def _run(self, interaction: discord.Interaction, bot: TableBot) -> None:
        await replies.defer_private(interaction)
        user = interaction.user
        session, opened = await bot.service.rematch(self.game_id, user.id, buttons.display_name(user))
        if not opened:
            await replies.private(interaction, f"You have a seat in the rematch, {words.header(session)}.")
            await bot.announcer.refresh_lobby(session)
            return
        content, view = words.lobby_message(session), buttons.lobby_view(session)
        message = await bot.announcer.post(session.row.channel_id, content, view=view)
        if message is not None:
            await bot.service.set_lobby_message(session, message.id)
        where = f": {message.jump_url}" if message is not None else ""
        await replies.private(
            interaction,
            f"You opened the rematch, {words.header(session)}{where}. The others take their seats with "
            "**Rematch** or the lobby's **Join**; you start it when you are ready.",
        )

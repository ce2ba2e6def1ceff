"""Persistent buttons (they keep working after a restart) and the private hand reply they share
with ``/<game> hand``."""

from __future__ import annotations

import logging
import re
from enum import StrEnum
from typing import Any

import discord

from bot import errors, words
from bot.sessions import Session, SessionService, Status
from bot.storage import unavailable
from bot.ui import files, replies
from bot.ui.protocol import TableBot
from games.errors import GameError

log = logging.getLogger(__name__)


class ButtonVerb(StrEnum):
    """What a table button does."""

    JOIN = "join"
    START = "start"
    COMPUTER = "cpu"
    HAND = "hand"


LABELS = {
    ButtonVerb.JOIN: ("Join", discord.ButtonStyle.success),
    ButtonVerb.COMPUTER: ("Add computer", discord.ButtonStyle.secondary),
    ButtonVerb.START: ("Start", discord.ButtonStyle.primary),
    ButtonVerb.HAND: ("My tiles", discord.ButtonStyle.secondary),
}
_VERBS = "|".join(verb.value for verb in ButtonVerb)


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"th:(?P<verb>{_VERBS}):(?P<id>\d+)"
):
    """A button on a lobby or turn message; its custom id names the verb and the game."""

    def __init__(self, verb: ButtonVerb, game_id: int) -> None:
        label, style = LABELS[verb]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"th:{verb.value}:{game_id}"))
        self.verb = verb
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(ButtonVerb(match["verb"]), int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: TableBot = interaction.client  # type: ignore[assignment]
        try:
            session = bot.service.get(self.game_id)
            if session is None:
                raise errors.GameOver("That game is no longer running.")
            await self._run(interaction, bot, session)
        except (errors.SessionError, GameError) as error:
            await replies.private(interaction, str(error))
        except Exception as error:
            if unavailable(error):
                log.error(
                    "the %s button of game %s: the database takes no writes: %s",
                    self.verb,
                    self.game_id,
                    error,
                )
                await replies.private(interaction, replies.STORAGE_DOWN)
                return
            log.exception("the %s button of game %s failed", self.verb, self.game_id)
            await replies.private(interaction, replies.NOTHING_RECORDED)

    async def _run(self, interaction: discord.Interaction, bot: TableBot, session: Session) -> None:
        service = bot.service
        user = interaction.user
        if self.verb is ButtonVerb.HAND:
            await send_hand(interaction, service, session)
        elif self.verb is ButtonVerb.START:
            await interaction.response.defer()
            troubles = await bot.announcer.troubles(await service.start(session, user.id))
            if troubles:
                await replies.private(interaction, "\n".join(troubles))
        else:
            if self.verb is ButtonVerb.JOIN:
                await service.join(session, user.id, display_name(user))
            else:
                await service.add_computer(session, user.id)
            try:
                await interaction.response.edit_message(
                    content=words.lobby_message(session),
                    view=lobby_view(session),
                    allowed_mentions=replies.NO_PINGS,
                )
            except discord.HTTPException:
                # stored already: say so (never "nothing was recorded") and show it on the lobby
                log.warning("the %s button of game %s: the lobby edit failed", self.verb, self.game_id)
                done = "You have a seat" if self.verb is ButtonVerb.JOIN else "A computer player takes a seat"
                await replies.private(interaction, f"{done} at {words.header(session)}.")
                await bot.announcer.refresh_lobby(session)


def throttle(interaction: discord.Interaction, kind: str) -> None:
    """Count a request that draws or searches against the user's and the channel's allowance
    (see :mod:`bot.limits`); raises :class:`bot.limits.TooFast` before any work is done. A
    thread's requests count with its channel's (threads do not multiply its allowance)."""
    limits = getattr(interaction.client, "limits", None)
    if limits is not None:
        limits.check(kind, interaction.user.id, allowance_channel(interaction))


def allowance_channel(interaction: discord.Interaction) -> int | None:
    """The channel whose allowance a request counts against: a thread's parent channel."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return channel.parent_id
    return interaction.channel_id


def display_name(user: discord.abc.User) -> str:
    """The name a player goes by in this server."""
    return getattr(user, "display_name", None) or user.name


def lobby_view(session: Session) -> discord.ui.View:
    """Join / Add computer / Start buttons for a lobby message."""
    view = discord.ui.View(timeout=None)
    for verb in (ButtonVerb.JOIN, ButtonVerb.COMPUTER, ButtonVerb.START):
        view.add_item(TableButton(verb, session.id))
    return view


def turn_view(session: Session) -> discord.ui.View | None:
    """A "My tiles" button under a turn message while the game runs (where hands are kept)."""
    if session.status is not Status.PLAYING or session.game.max_players == 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(ButtonVerb.HAND, session.id))
    return view


async def send_hand(interaction: discord.Interaction, service: SessionService, session: Session) -> None:
    """The user's own tiles, cards or pieces, as text and a picture, only to them."""
    throttle(interaction, "board")
    await replies.defer_private(interaction)
    await service.ready(session)
    seat = session.seat_of(interaction.user.id)
    if seat is None:
        raise errors.NotSeated("You are not playing in this game, so you have no tiles to see.")
    if session.state is None:
        raise errors.NotStarted("The game has not started; tiles are dealt at the start.")
    hand = session.game.hand(session.view(seat), seat)
    listed = ", ".join(hand) if hand else "nothing"
    text = f"Your hand in {words.header(session)}: {listed}"
    await interaction.followup.send(
        words.clip(text),
        file=await files.hand_file(session, seat),
        ephemeral=True,
        allowed_mentions=replies.NO_PINGS,
    )

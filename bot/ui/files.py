"""Board and hand pictures as Discord attachments, drawn in worker processes."""

from __future__ import annotations

import io

import discord

from bot import workers
from bot.sessions import Session
from rendering import registry as renderers
from rendering.base import Renderer


def _renderer(session: Session) -> Renderer:
    return renderers.renderer(session.game.name)


async def board_png(session: Session) -> bytes:
    """The public board as PNG bytes."""
    view = session.view(None)
    return await workers.run(workers.render, _renderer(session), "board", view, session.picture_names)


async def board_file(session: Session) -> discord.File:
    """The public board as a PNG attachment."""
    png = await board_png(session)
    return discord.File(io.BytesIO(png), filename=f"{session.game.name}-{session.id}-{session.ply}.png")


async def hand_file(session: Session, seat: int) -> discord.File:
    """``seat``'s private view as a PNG attachment (for ephemeral replies only)."""
    view = session.view(seat)
    png = await workers.run(workers.render, _renderer(session), "hand", view, seat, session.picture_names)
    return discord.File(io.BytesIO(png), filename=f"{session.game.name}-{session.id}-hand.png")

"""Board and hand pictures as Discord attachments, drawn in the interactive lane of the workers.

A picture is always of the position the game is in when it is drawn: a request still waiting
when the game moves on is not drawn for the old position (the worker draws the new one), and
the requests for one position share one drawing (several messages show the same board).
"""

from __future__ import annotations

import asyncio
import io
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot import workers
from bot.sessions import Session
from rendering import registry as renderers
from rendering.base import Renderer

REDRAWS = 3
"""How many times a picture is drawn again for a newer position before the position of the
moment is drawn whatever happens meanwhile."""
KEPT = 32
"""Finished boards kept for another message of the same position."""


@dataclass
class _Drawing:
    session: weakref.ref[Session]
    ply: int
    names: tuple[str, ...]
    png: asyncio.Future[bytes]


_drawings: OrderedDict[int, _Drawing] = OrderedDict()


def _renderer(session: Session) -> Renderer:
    return renderers.renderer(session.game.name)


async def board_png(session: Session, *, exact: bool = False) -> bytes:
    """The public board as PNG bytes; ``exact``: of this very position, even if the game has
    left it (a message that tells of a position shows that one)."""
    for attempt in range(REDRAWS + 1):
        drawing = _drawing_of(session, strict=not exact and attempt < REDRAWS)
        try:
            return await asyncio.shield(drawing.png)
        except workers.Superseded:
            if attempt == REDRAWS:
                raise
    raise AssertionError("unreachable")


def _drawing_of(session: Session, strict: bool) -> _Drawing:
    """The drawing of the session's board now: one under way or just made, else a new one
    (which is not drawn if the game moves on while it waits, when ``strict``)."""
    ply, names = session.ply, tuple(session.picture_names)
    drawing = _drawings.get(session.id)
    loop = asyncio.get_running_loop()
    if (
        drawing is not None
        and drawing.session() is session
        and (drawing.ply, drawing.names) == (ply, names)
        and drawing.png.get_loop() is loop
        and not (drawing.png.done() and (drawing.png.cancelled() or drawing.png.exception() is not None))
    ):
        _drawings.move_to_end(session.id)
        return drawing
    view = session.view(None)
    png = loop.create_task(
        workers.run(
            workers.render,
            _renderer(session),
            "board",
            view,
            list(names),
            kind=workers.BOARD,
            key=("board", session.id) if strict else None,
            stale=_left(session, ply) if strict else None,
        )
    )
    png.add_done_callback(_forget_failure)
    drawing = _drawings[session.id] = _Drawing(weakref.ref(session), ply, names, png)
    _drawings.move_to_end(session.id)
    while len(_drawings) > KEPT and next(iter(_drawings.values())).png.done():
        _drawings.popitem(last=False)
    return drawing


def _left(session: Session, ply: int) -> Callable[[], bool]:
    """A job's staleness test: has the game left the position at ``ply``?"""
    return lambda: session.ply != ply


def _forget_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()  # retrieved: a failed drawing is raised to its callers, not logged twice


async def board_file(session: Session, *, exact: bool = False) -> discord.File:
    """The public board as a PNG attachment (``exact``: see :func:`board_png`)."""
    png = await board_png(session, exact=exact)
    return discord.File(io.BytesIO(png), filename=f"{session.game.name}-{session.id}-{session.ply}.png")


async def hand_file(session: Session, seat: int) -> discord.File:
    """``seat``'s private view as a PNG attachment (for ephemeral replies only)."""
    for attempt in range(REDRAWS + 1):
        ply = session.ply
        try:
            png = await workers.run(
                workers.render,
                _renderer(session),
                "hand",
                session.view(seat),
                seat,
                session.picture_names,
                kind=workers.HAND,
                stale=_left(session, ply) if attempt < REDRAWS else None,
            )
        except workers.Superseded:
            continue
        return discord.File(io.BytesIO(png), filename=f"{session.game.name}-{session.id}-hand.png")
    raise AssertionError("unreachable")

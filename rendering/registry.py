"""The renderers of the games, registered in one place, and the PNG functions the bot calls.

Every game has one :class:`~rendering.base.Renderer` (``RENDERER`` in ``rendering/<module>.py``,
for each module of :data:`games.registry.GAME_MODULES`, the one list of shipped games), all
collected in :data:`SHIPPED`: a renderer that fails to import, or a module without one, is an
error when this module is imported (at start), never a silent skip. Tests register the
renderers of their own games with :func:`register`.

``view`` is ``game.view(state, seat_or_None)`` and ``players`` are display names in seat order.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from games.errors import UnknownGameError
from games.registry import GAME_MODULES
from rendering.base import Renderer
from rendering.common import drawable_names, to_png


def _load_shipped() -> tuple[Renderer, ...]:
    found = []
    for module in GAME_MODULES:
        renderer = getattr(importlib.import_module(f"rendering.{module}"), "RENDERER", None)
        if not isinstance(renderer, Renderer):
            raise TypeError(f"rendering.{module} must define RENDERER, a rendering.base.Renderer")
        found.append(renderer)
    return tuple(found)


SHIPPED: tuple[Renderer, ...] = _load_shipped()
"""The renderer of every shipped game, in the order of :data:`games.registry.GAME_MODULES`."""

_renderers: dict[str, Renderer] = {}


def register(renderer: Renderer) -> Renderer:
    """Use ``renderer`` for its game (re-registering a game replaces its renderer)."""
    if not isinstance(renderer, Renderer):
        raise TypeError(f"{renderer!r} is not a rendering.base.Renderer")
    _renderers[renderer.game] = renderer
    return renderer


def unregister(game: str) -> None:
    """Forget the renderer of ``game`` (tests clean up after themselves)."""
    _renderers.pop(game, None)


for _shipped in SHIPPED:
    register(_shipped)


def renderer(game: str) -> Renderer:
    """The renderer of game ``game`` (its registered name); raises :class:`UnknownGameError`."""
    found = _renderers.get(game)
    if found is None:
        known = ", ".join(sorted(_renderers))
        raise UnknownGameError(f"No renderer is registered for {game!r}; there are: {known}.")
    return found


def board_png(game: str, view: Any, players: Sequence[str]) -> bytes:
    """The board of ``game`` as PNG bytes."""
    return to_png(renderer(game).board(view, drawable_names(players)))


def hand_png(game: str, view: Any, seat: int, players: Sequence[str]) -> bytes:
    """``seat``'s hand (screen) as PNG bytes."""
    return to_png(renderer(game).hand(view, seat, drawable_names(players)))

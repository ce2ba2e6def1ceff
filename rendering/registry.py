"""Find the renderer of a game by name.

Each renderer module ``rendering/<game>.py`` provides::

    render_board(view, players: Sequence[str]) -> PIL.Image.Image
    render_hand(view, seat: int, players: Sequence[str]) -> PIL.Image.Image

where ``view`` is ``game.view(state, seat_or_None)`` and ``players`` are display names in
seat order. The functions here return PNG bytes.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from rendering.common import drawable_names, to_png

_overrides: dict[str, ModuleType] = {}


def register(name: str, module: ModuleType) -> None:
    """Use ``module`` as the renderer of game ``name`` (tests register their own games)."""
    _overrides[name] = module


def renderer(name: str) -> ModuleType:
    """The renderer module of game ``name``."""
    if name in _overrides:
        return _overrides[name]
    return importlib.import_module(f"rendering.{name}")


def board_png(name: str, view: Any, players: Sequence[str]) -> bytes:
    """The board of game ``name`` as PNG bytes."""
    return to_png(renderer(name).render_board(view, drawable_names(players)))


def hand_png(name: str, view: Any, seat: int, players: Sequence[str]) -> bytes:
    """``seat``'s hand (screen) as PNG bytes."""
    return to_png(renderer(name).render_hand(view, seat, drawable_names(players)))

"""The registry of games: one protocol object per game, found by name or alias."""

from __future__ import annotations

import importlib
from typing import Any

from games.core import Game
from games.errors import UnknownGameError

GAME_MODULES = ("geominos", "triominos", "geronimos", "puzzominos", "puzzosolo", "tileup")
"""The one list of shipped games, by module under ``games``; each exposes ``GAME``. A module
that fails to import, or has no ``GAME``, is an error at start, never a silent skip."""

_games: dict[str, Game[Any, Any]] = {}
_aliases: dict[str, str] = {}
_loaded = False
_shipped: list[str] = []


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    """Register ``game`` under its name and aliases (re-registering a name replaces it)."""
    _games[game.name] = game
    _aliases[game.name] = game.name
    for alias in game.aliases:
        _aliases[alias.lower()] = game.name
    return game


def unregister(name: str) -> None:
    """Remove a game (tests register throwaway games and clean up after themselves)."""
    game = _games.pop(name, None)
    if game is None:
        return
    for alias, target in list(_aliases.items()):
        if target == name:
            del _aliases[alias]


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in GAME_MODULES:
        package = importlib.import_module(f"games.{module}")
        game = getattr(package, "GAME", None)
        if not isinstance(game, Game):
            raise TypeError(f"games.{module} must define GAME, an instance of games.core.Game")
        register(game)
        _shipped.append(game.name)


def get(name: str) -> Game[Any, Any]:
    """The game called ``name`` (or an alias, any case); raises :class:`UnknownGameError`."""
    _load_builtin()
    key = _aliases.get(name.strip().lower())
    if key is None:
        known = ", ".join(sorted(_games)) or "none"
        raise UnknownGameError(f"There is no game called {name!r}. The games are: {known}.")
    return _games[key]


def all_games() -> list[Game[Any, Any]]:
    """Every registered game, shipped games first in their fixed order."""
    _load_builtin()
    order = {name: index for index, name in enumerate(GAME_MODULES)}
    return sorted(_games.values(), key=lambda game: (order.get(game.name, len(order)), game.name))


def names() -> list[str]:
    """The names of every registered game."""
    return [game.name for game in all_games()]


def shipped_names() -> list[str]:
    """The names of the games that ship with Tilehost (not those registered by tests)."""
    _load_builtin()
    return list(_shipped)

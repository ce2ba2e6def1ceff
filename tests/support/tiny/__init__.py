"""Tiny Tiles: a test-only game (never shipped) laid out as the game package template of docs/development.md.

Twelve tiles numbered 1-6 (two of each) are shuffled by the seed; each seat gets three, hidden.
On your turn play a tile whose number differs from the last one played (score its number), or
`draw` one tile (while the deck lasts and you hold fewer than five), or `pass` when nothing
else is legal (which clears the last number). The game ends when every tile is played.

Modules: :mod:`state` (options, moves, state), :mod:`rules`, :mod:`notation`, :mod:`game`; the
renderer (:mod:`renderer`) and the cog (:mod:`cog`) stand in for ``rendering/tiny.py`` and
``cogs/tiny.py``.

Explicit deal: a list of the twelve tile numbers in the order they are dealt (seat 0 first,
three each), the rest being the deck, top first.
"""

from games import registry
from rendering import registry as renderers
from tests.support.tiny.game import TinyGame
from tests.support.tiny.renderer import RENDERER

GAME = TinyGame()
# A shipped game is registered from games.registry.GAME_MODULES and rendering.registry.SHIPPED;
# this test game registers itself on import, so that worker processes (which unpickle it by
# its class, importing this package) know it and its renderer too.
registry.register(GAME)
renderers.register(RENDERER)

__all__ = ["GAME"]

"""Puzz-Ominos for two players (``GAME``); the solitaire is :mod:`games.puzzosolo`, which shares
this package's pieces, targets and solver.

Each player holds a full set of 14 pieces (public): the 12 pentominoes and the Free Turn pieces
V3 and T4. There is no board: Red's first piece goes at 0,0, Blue's must touch Red, then every
piece touches one of its owner's own; touching opponent squares and walling in one or two empty
squares score. Modules: ``pieces``, ``board``, ``scoring``, ``reading`` (geometry and text);
``state``, ``rules``, ``notation``, ``game`` (the duel); ``shapes``, ``targets``, ``solver``
(the solitaire's targets and the exact-cover solver).

Who plays Red (and starts) is a coin flip by the game's seed, the only chance in the game.
``deal`` may fix it instead: ``null`` or ``[]`` (the seed decides), ``[0]`` or ``[1]`` (that seat
plays Red). Games stored before the coin flip carry the option ``first=seat0``.
"""

from games.puzzominos.game import PuzzOminos

GAME = PuzzOminos()

__all__ = ["GAME"]

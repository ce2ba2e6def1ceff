"""Puzz-Ominos: pentomino placement for two players (``GAME``), and solitaire challenges.

The two-player game has no chance: seat 0 is Red and starts (the session's seat assignment
is the coin flip). ``new`` ignores ``seed``; ``deal`` must be null or ``[]`` (there is nothing
to deal: each player holds a full set of 14 pieces, public).
"""

from games.puzzominos.game import GAME

__all__ = ["GAME"]

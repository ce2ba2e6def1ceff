"""The one hierarchy of game errors.

Every message is meant for a player: it quotes what they typed and says what would be legal.
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every error a game raises about a player's input or a record."""


class InvalidMoveError(GameError):
    """The text is not a move in the game's notation (a syntax error)."""


class IllegalMoveError(GameError):
    """The move is well formed but the rules do not allow it now."""


class InvalidOptionsError(GameError):
    """The chosen options (variants) are out of range or inconsistent."""


class RecordError(GameError):
    """A game record cannot be read or does not replay."""


class UnknownGameError(GameError):
    """No registered game has that name or alias."""

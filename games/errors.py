"""The one hierarchy of game errors.

Every message is meant for a player: it quotes what they typed (shortened, with :func:`quote`)
and says what would be legal.
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


QUOTE_LIMIT = 40
"""How much of a player's input an error message quotes."""


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as an error message quotes it: in backticks, shortened to ``limit`` characters
    with an ellipsis, backticks and line breaks inside replaced, so a message stays short and
    its quote cannot break out of the code span."""
    flat = " ".join(str(text).split()).replace("`", "'")
    if len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    return f"`{flat}`"

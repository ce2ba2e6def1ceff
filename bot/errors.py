"""Errors of the session service: each one is a message a player can act on."""

from __future__ import annotations


class SessionError(Exception):
    """A request the session service refuses; nothing was stored."""


class NoGameHere(SessionError):
    """No lobby or game of that kind in this channel."""


class NotSeated(SessionError):
    """The user has no seat at this table."""


class NotYourTurn(SessionError):
    """Another seat is to act."""


class GameFull(SessionError):
    """Every seat is taken."""


class NotStarted(SessionError):
    """The game is still in its lobby."""


class AlreadyStarted(SessionError):
    """The game has left its lobby."""


class AlreadySeated(SessionError):
    """The user already has a seat."""


class NotHost(SessionError):
    """Only the host (or a moderator) may do this."""


class GameExists(SessionError):
    """The channel already has an active game of that kind."""


class StaleAction(SessionError):
    """The action was made against an older position."""


class GameOver(SessionError):
    """The game has ended."""

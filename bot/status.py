"""Where a stored game stands: one enum for the storage rows and the sessions alike."""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """Where a game stands (the ``games.status`` column holds its value)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"

    @property
    def is_active(self) -> bool:
        """True for a lobby or a game being played (not yet over)."""
        return self in (Status.LOBBY, Status.PLAYING)

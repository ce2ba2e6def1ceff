"""Which games a bot process drives: the games of the servers on its Discord shards.

Discord puts server ``guild_id`` on shard ``(guild_id >> 22) % shard_count``; direct messages
(no server) are on shard 0. A process that runs some of the shards loads, clocks, reminds and
lets computers move only for the games of those servers, so two processes sharing one database
never drive the same game.
"""

from __future__ import annotations

from dataclasses import dataclass


class ShardError(ValueError):
    """A shard setting is malformed; the message says what is expected."""


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard of a server (``None``: a direct message, on shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """The shards ``ids`` (of ``count`` in all) that this process runs."""

    ids: frozenset[int]
    count: int

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ShardError(f"the shard count must be at least 1, not {self.count}")
        if not self.ids:
            raise ShardError("a process must run at least one shard")
        wrong = sorted(shard for shard in self.ids if not 0 <= shard < self.count)
        if wrong:
            raise ShardError(
                f"shard {wrong[0]} does not exist: with {self.count} shards they are 0-{self.count - 1}"
            )

    @classmethod
    def all(cls, count: int) -> Shards:
        """Every shard of ``count``."""
        return cls(frozenset(range(count)), count)

    @property
    def covers_all(self) -> bool:
        """True when this process runs every shard (no game belongs to another process)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        """True when the games of server ``guild_id`` (None: direct messages) are this process's."""
        return shard_of(guild_id, self.count) in self.ids


def parse_ids(text: str) -> frozenset[int]:
    """Shard ids from ``"0-3"``, ``"5"`` or ``"0-3,8,10-11"``; raises :class:`ShardError`."""
    ids: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        first, dash, last = part.partition("-")
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            raise ShardError(f"{text!r} is not a list of shards like 0-3 or 0,2,5")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ShardError(f"{part!r} counts down; write the lower shard first (e.g. {high}-{low})")
        ids.update(range(low, high + 1))
    return frozenset(ids)

"""Rate limits on the commands that render or search (boards, hands, hints, replays, records).

A token bucket per (kind, user) and per (kind, channel): a user may make ``burst`` requests of a
kind at once, then one more every ``period / burst`` seconds; a channel likewise, with its own
(larger) allowance. Time comes from the bot's clock, so tests can move it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from bot.errors import SessionError

MAX_BUCKETS = 20_000
"""Above this many remembered buckets, the ones that have refilled are forgotten."""


class TooFast(SessionError):
    """A user or channel made too many requests of one kind in a short time."""

    def __init__(self, wait: float) -> None:
        self.wait = max(1, math.ceil(wait))
        super().__init__(f"You're going fast: try again in {self.wait} s.")


@dataclass(frozen=True)
class Rate:
    """``burst`` requests per ``period`` seconds."""

    burst: int
    period: float

    @property
    def per_second(self) -> float:
        """How fast the allowance comes back."""
        return self.burst / self.period

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``"5/10"``: 5 requests per 10 seconds. Raises ValueError on anything else."""
        burst_text, _, period_text = text.strip().partition("/")
        burst, period = int(burst_text), float(period_text or "nan")
        if not (1 <= burst <= 10_000 and 0 < period <= 86_400):
            raise ValueError(text)
        return cls(burst, period)

    def __str__(self) -> str:
        return f"{self.burst}/{self.period:g}"


@dataclass
class _Bucket:
    tokens: float
    at: float


class Limits:
    """Per-user and per-channel token buckets for each kind of request."""

    def __init__(self, per_user: Rate | None, per_channel: Rate | None, now: Callable[[], float]) -> None:
        """``None`` for a rate: no limit of that scope."""
        self.per_user = per_user
        self.per_channel = per_channel
        self._now = now
        self._buckets: dict[tuple[str, str, int], _Bucket] = {}

    def check(self, kind: str, user_id: int, channel_id: int | None) -> None:
        """Take one request of ``kind`` from the user's and the channel's allowance, or raise
        :class:`TooFast` (taking nothing) saying how long to wait. For a request made in a
        thread, ``channel_id`` is the thread's parent channel: its threads share its allowance."""
        now = self._now()
        keys: list[tuple[tuple[str, int], Rate]] = []
        if self.per_user is not None:
            keys.append((("user", user_id), self.per_user))
        if channel_id is not None and self.per_channel is not None:
            keys.append((("channel", channel_id), self.per_channel))
        buckets = [(self._bucket(kind, who, rate, now), rate) for who, rate in keys]
        wait = max(((1 - bucket.tokens) / rate.per_second for bucket, rate in buckets), default=0.0)
        if wait > 0:
            raise TooFast(wait)
        for bucket, _ in buckets:
            bucket.tokens -= 1

    def _bucket(self, kind: str, who: tuple[str, int], rate: Rate, now: float) -> _Bucket:
        key = (kind, *who)
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= MAX_BUCKETS:
                self._forget_full(now)
            bucket = self._buckets[key] = _Bucket(float(rate.burst), now)
        else:
            elapsed = max(0.0, now - bucket.at)
            bucket.tokens = min(float(rate.burst), bucket.tokens + elapsed * rate.per_second)
            bucket.at = now
        return bucket

    def _forget_full(self, now: float) -> None:
        for key, bucket in list(self._buckets.items()):
            rate = self.per_user if key[1] == "user" else self.per_channel
            if rate is None or bucket.tokens + (now - bucket.at) * rate.per_second >= rate.burst:
                del self._buckets[key]

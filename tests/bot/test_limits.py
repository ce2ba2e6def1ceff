"""The token buckets of the rate limits: bursts, refill, per-channel totals, kinds apart."""

from __future__ import annotations

import pytest

from bot.errors import SessionError
from bot.limits import MAX_BUCKETS, Limits, Rate, TooFast


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limits(user: str = "3/30", channel: str = "5/10") -> tuple[Limits, Clock]:
    clock = Clock()
    return Limits(Rate.parse(user), Rate.parse(channel), now=clock), clock


def test_a_burst_then_a_polite_wait() -> None:
    rates, clock = limits()
    for _ in range(3):
        rates.check("board", 1, 10)
    with pytest.raises(TooFast) as refused:
        rates.check("board", 1, 10)
    assert isinstance(refused.value, SessionError)
    assert str(refused.value) == "You're going fast: try again in 10 s."
    clock.now += 9.9
    with pytest.raises(TooFast, match="try again in 1 s"):
        rates.check("board", 1, 10)
    clock.now += 0.1
    rates.check("board", 1, 10)


def test_kinds_users_and_channels_are_counted_apart() -> None:
    rates, _ = limits()
    for _ in range(3):
        rates.check("board", 1, 10)
    rates.check("hint", 1, 10)
    rates.check("board", 2, 10)
    with pytest.raises(TooFast):  # the same user in another channel: the user's allowance is spent
        rates.check("board", 1, 11)


def test_the_channel_allowance_is_shared_and_a_refusal_takes_nothing() -> None:
    rates, clock = limits(user="3/30", channel="5/10")
    for user in range(5):
        rates.check("board", user, 10)
    with pytest.raises(TooFast, match="try again in 2 s"):
        rates.check("board", 9, 10)
    clock.now += 2
    rates.check("board", 9, 10)
    # user 9 was refused once: that refusal did not spend any of its own allowance
    clock.now += 100
    for _ in range(3):
        rates.check("board", 9, 10)


def test_no_channel_only_counts_the_user() -> None:
    rates, _ = limits(user="1/5")
    rates.check("board", 1, None)
    with pytest.raises(TooFast):
        rates.check("board", 1, None)


def test_refilled_buckets_are_forgotten_when_there_are_too_many() -> None:
    rates, clock = limits(user="1/1", channel="1000/1")
    for user in range(MAX_BUCKETS):
        rates.check("board", user, None)
    clock.now += 2
    rates.check("board", -1, None)
    assert len(rates._buckets) == 1


def test_a_missing_rate_is_no_limit() -> None:
    rates = Limits(None, Rate(2, 10), now=Clock())
    for user in range(2):
        rates.check("board", user, None)
        rates.check("board", user, None)
    rates.check("board", 7, 10)
    rates.check("board", 7, 10)
    with pytest.raises(TooFast):
        rates.check("board", 8, 10)
    unlimited = Limits(None, None, now=Clock())
    for _ in range(1000):
        unlimited.check("board", 1, 10)


@pytest.mark.parametrize("text", ["", "5", "0/10", "5/0", "x/10", "5/-1", "5/ten", "99999/1"])
def test_malformed_rates_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Rate.parse(text)


def test_rates_read_and_print() -> None:
    assert Rate.parse(" 12/60 ") == Rate(12, 60.0)
    assert str(Rate(12, 60)) == "12/60"
    assert Rate(12, 60).per_second == pytest.approx(0.2)

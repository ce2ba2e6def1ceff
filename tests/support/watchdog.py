"""A watchdog of the event loop on the real clock: a thread asks the loop to run a tiny callback
every few milliseconds and notes when it ran. A loop held by work on it answers late (or not at
all while the work lasts); SimCord's still clock changes nothing here."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field

from bot.lanes import real_now

EVERY = 0.005


@dataclass(frozen=True)
class Sample:
    """One ping: when it was asked (real seconds) and how long the loop took to run it."""

    asked: float
    lag: float

    @property
    def answered(self) -> float:
        return self.asked + self.lag


@dataclass
class Watchdog:
    """Pings ``loop`` from a thread while it runs (``with Watchdog(loop) as dog: ...``)."""

    loop: asyncio.AbstractEventLoop
    samples: list[Sample] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> Watchdog:
        self._thread = threading.Thread(target=self._run, name="loop-watchdog", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            ran = threading.Event()
            asked = real_now()
            self.loop.call_soon_threadsafe(ran.set)
            while not ran.wait(0.05):
                if self._stop.is_set():
                    return
            self.samples.append(Sample(asked, real_now() - asked))
            self._stop.wait(EVERY)

    def answered_between(self, start: float, end: float) -> int:
        """How many pings the loop answered between two moments (real seconds)."""
        return sum(1 for sample in self.samples if start < sample.answered < end)

    @property
    def worst(self) -> float:
        """The longest the loop took to answer (seconds)."""
        return max((sample.lag for sample in self.samples), default=0.0)

    def percentile(self, share: float) -> float:
        """The lag under which ``share`` of the pings were answered."""
        ordered = sorted(sample.lag for sample in self.samples)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0

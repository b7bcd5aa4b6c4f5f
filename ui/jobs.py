"""Long UI work: an honest progress text and cancellation per browser session.

Gradio's `cancels=` stops waiting for an event, but the worker thread running a
synchronous handler goes on. So a long handler also checks a per-session flag from
its progress callback (`Cancellations.check`) and stops at the next chunk, leaving the
workspace as it was.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field


class Cancelled(Exception):
    """Raised inside a long handler when its session asked to cancel."""


@dataclass
class Cancellations:
    """One flag per session id (Gradio's `request.session_hash`)."""

    _flags: dict[str, threading.Event] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, session: str) -> threading.Event:
        """A fresh flag for the session's new job (an earlier cancel does not carry over)."""
        with self._lock:
            flag = self._flags[session] = threading.Event()
        return flag

    def cancel(self, session: str) -> bool:
        """Ask the session's running job to stop; False when none runs."""
        with self._lock:
            flag = self._flags.get(session)
        if flag is None:
            return False
        flag.set()
        return True

    def finish(self, session: str, flag: threading.Event) -> None:
        with self._lock:
            if self._flags.get(session) is flag:
                del self._flags[session]


@dataclass
class Estimate:
    """Progress text with a remaining-time estimate from the rate measured so far."""

    unit: str = "part"
    clock: Callable[[], float] = time.monotonic
    started: float = field(default=0.0)

    def __post_init__(self) -> None:
        self.started = self.clock()

    def elapsed(self) -> float:
        return self.clock() - self.started

    def describe(self, done: int, total: int) -> str:
        elapsed = self.elapsed()
        text = f"{done} of {total} {self.unit}(s) in {elapsed:.0f} s"
        if done <= 0 or total <= done:
            return text
        remaining = elapsed / done * (total - done)
        return f"{text}, about {_duration(remaining)} left"


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    return f"{seconds / 60:.1f} min"

"""Sign-in throttling: after a few failures, each further attempt for the same user name, or from
the same address, must wait twice as long as the last (exponential back-off, capped)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

FREE_FAILURES = 5  # failures allowed before any waiting
FIRST_WAIT_S = 1.0  # the wait after the sixth failure; doubled with each further one
MAX_WAIT_S = 900.0


@dataclass
class _Record:
    failures: int = 0
    last_failure: float = 0.0


@dataclass
class SignInThrottle:
    clock: Callable[[], float] = time.monotonic
    free_failures: int = FREE_FAILURES
    first_wait_s: float = FIRST_WAIT_S
    max_wait_s: float = MAX_WAIT_S
    _records: dict[str, _Record] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait_s(self, user: str, address: str) -> float:
        """Seconds before `user` may try again from `address` (0: now)."""
        with self._lock:
            return max(self._wait_of(f"user:{user.strip().casefold()}"), self._wait_of(f"address:{address}"))

    def failed(self, user: str, address: str) -> int:
        """Count a failure against the user name and the address; returns the user's failures."""
        now = self.clock()
        with self._lock:
            for key in (f"user:{user.strip().casefold()}", f"address:{address}"):
                record = self._records.setdefault(key, _Record())
                record.failures += 1
                record.last_failure = now
            return self._records[f"user:{user.strip().casefold()}"].failures

    def succeeded(self, user: str, address: str) -> None:
        with self._lock:
            self._records.pop(f"user:{user.strip().casefold()}", None)
            self._records.pop(f"address:{address}", None)

    def _wait_of(self, key: str) -> float:
        record = self._records.get(key)
        if record is None or record.failures < self.free_failures:
            return 0.0
        wait = min(self.max_wait_s, self.first_wait_s * 2 ** (record.failures - self.free_failures))
        return max(0.0, record.last_failure + wait - self.clock())

"""Both CPU cores kept busy by other processes, as when another user extracts or a batch job runs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

BURN = "while True: pass"


@contextmanager
def busy_cores(count: int | None = None) -> Iterator[list[subprocess.Popen]]:
    """`count` (default: every core) processes spinning at normal priority; stopped on exit."""
    burners = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(count or os.cpu_count() or 2)]
    try:
        yield burners
    finally:
        for burner in burners:
            burner.terminate()
        for burner in burners:
            try:
                burner.wait(timeout=10)
            except subprocess.TimeoutExpired:
                burner.kill()

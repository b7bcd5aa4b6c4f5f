"""Run browser tests N times in a row with every CPU core kept busy by other processes.

    .venv/bin/python -m tests.browser.repeat_under_load 10 tests/browser/test_studio.py::test_x ...

Prints one line per run and the number of runs that passed; exits 1 unless all passed."""

from __future__ import annotations

import subprocess
import sys
import time

from tests.browser.load import busy_cores


def main(argv: list[str]) -> int:
    runs, tests = int(argv[0]), argv[1:]
    passed = 0
    with busy_cores():
        for number in range(1, runs + 1):
            started = time.monotonic()
            result = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests],
                capture_output=True,
                text=True,
            )
            ok = result.returncode == 0
            passed += ok
            tail = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
            print(
                f"run {number}: {'passed' if ok else 'FAILED'} in {time.monotonic() - started:.0f} s: {tail}",
                flush=True,
            )
            if not ok:
                print(result.stdout[-4000:], flush=True)
    print(f"{passed} of {runs} runs passed under load", flush=True)
    return 0 if passed == runs else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Sign-in is throttled per user name and per address (issue 17)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from pathlib import Path

from core.throttle import FREE_FAILURES, SignInThrottle
from storage.repository import Repository
from ui.app import _sign_in_checker
from ui.http_limits import CLIENT_ADDRESS

PASSWORD = "correct horse battery"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_back_off_doubles_after_the_free_failures() -> None:
    clock = FakeClock()
    throttle = SignInThrottle(clock=clock)
    for _ in range(FREE_FAILURES):
        assert throttle.wait_s("ada", "10.0.0.1") == 0
        throttle.failed("ada", "10.0.0.1")
    assert throttle.wait_s("ada", "10.0.0.1") == 1.0
    throttle.failed("ada", "10.0.0.1")
    assert throttle.wait_s("ADA ", "10.0.0.9") == 2.0  # the user name, from any address
    assert throttle.wait_s("bob", "10.0.0.1") == 2.0  # the address, for any user name
    assert throttle.wait_s("bob", "10.0.0.2") == 0
    clock.now += 2.0
    assert throttle.wait_s("ada", "10.0.0.1") == 0
    throttle.succeeded("ada", "10.0.0.1")
    assert throttle.wait_s("ada", "10.0.0.1") == 0


def test_the_studio_refuses_even_the_right_password_while_throttled(tmp_path: Path, caplog) -> None:
    clock = FakeClock()
    with Repository(tmp_path / "auth.sqlite3") as repo:
        repo.add_user("ada", PASSWORD)
        check = _sign_in_checker(repo, SignInThrottle(clock=clock))

        async def attempt(password: str, address: str = "192.0.2.7") -> bool:
            CLIENT_ADDRESS.set(address)
            return await check("ada", password)

        with caplog.at_level(logging.WARNING, logger="rps"):
            assert [_run_alone(attempt("guess")) for _ in range(FREE_FAILURES)] == [False] * FREE_FAILURES
            assert _run_alone(attempt(PASSWORD)) is False  # throttled: the password is not even checked
        assert "failed sign-in for 'ada' from 192.0.2.7 (5 in a row)" in caplog.text
        assert "sign-in refused for 'ada' from 192.0.2.7: throttled" in caplog.text
        clock.now += 1.5
        assert _run_alone(attempt(PASSWORD)) is True


def _run_alone(coroutine):
    """asyncio.run in a thread of its own: playwright's sync API (browser tests in the same run) may hold
    this thread's event loop."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()

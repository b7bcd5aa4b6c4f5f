"""The real studio in a subprocess (temp SQLite db, real spaCy) driven by headless Chromium."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
START_TIMEOUT_S = 180  # a machine whose cores are busy starts the studio slowly
STUDIO_LOGS: dict[str, Path] = {}  # URL -> log of each studio running now (copied out when a test fails)
LOG_NOISE = (" INFO presidio-analyzer: ", "presidio-analyzer: Recognizer not added to registry")
EXPECT_TIMEOUT_MS = 60_000


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_served(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the studio exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(
        f"the studio did not answer at {url} within {START_TIMEOUT_S} s:\n{log.read_text()[-3000:]}"
    )


@contextmanager
def running_studio(folder: Path, *extra_args: str) -> Iterator[str]:
    """`python app.py` on a free port with its database in `folder`; yields its URL."""
    port = _free_port()
    env = dict(os.environ)
    env.update(
        {
            "GRADIO_ANALYTICS_ENABLED": "False",
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "PYTHONPATH": str(REPO),
            "GRADIO_TEMP_DIR": str(folder / "gradio"),
        }
    )
    log = folder / "studio.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                str(REPO / "app.py"),
                "--port",
                str(port),
                "--db",
                str(folder / "studio.sqlite3"),
                *extra_args,
            ],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/"
    STUDIO_LOGS[url] = log
    try:
        _wait_until_served(url, process, log)
        yield url
    finally:
        STUDIO_LOGS.pop(url, None)
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="session")
def studio_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_studio(tmp_path_factory.mktemp("studio")) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is not installed: run `make browser` (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    # Views re-render in a follow-up event; on a machine whose cores are busy that takes seconds,
    # more than playwright's 5 s default.
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def new_page(browser) -> tuple[object, object]:
    """A page in a fresh browser context (a new studio session), dialogs recorded in `page.dialogs`."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    created = context.new_page()
    created.dialogs = []
    created.console_errors = []

    def on_dialog(dialog) -> None:
        created.dialogs.append(dialog.message)
        dialog.dismiss()

    created.on("dialog", on_dialog)
    created.on("console", lambda msg: msg.type == "error" and created.console_errors.append(msg.text))
    # an exception thrown in the page or in one of its frames (a graph frame whose script failed)
    created.on("pageerror", lambda error: created.console_errors.append(f"uncaught: {error}"))
    created.set_default_timeout(30_000)
    return context, created


@pytest.fixture
def page(browser, studio_url: str) -> Iterator[object]:
    context, fresh = new_page(browser)
    yield fresh
    context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[pytest.TestReport]:
    """A failed browser test leaves a picture of every page still open, for the CI log's reader."""
    report = yield
    browser = getattr(item, "funcargs", {}).get("browser")
    if report.when == "call" and report.failed and browser is not None:
        ARTIFACTS.mkdir(exist_ok=True)
        pages = [page for context in browser.contexts for page in context.pages]
        for number, open_page in enumerate(pages):
            try:
                open_page.screenshot(path=str(ARTIFACTS / f"failed-{item.name}-{number}.png"), full_page=True)
            except Exception as error:  # a picture must never hide the failure itself
                report.sections.append(("failure screenshot", f"page {number}: {error}"))
            errors = getattr(open_page, "console_errors", [])
            if errors:
                report.sections.append((f"page {number} console errors", "\n".join(errors[-30:])))
        _keep_studio_logs(item.name, report)
    return report


def _keep_studio_logs(test: str, report: pytest.TestReport) -> None:
    """Each running studio's log beside the screenshots, and its last lines in the report: the server
    side of a failure (a traceback, an event that never ended) is otherwise lost with the temp folder."""
    for number, log in enumerate(STUDIO_LOGS.values()):
        try:
            text = log.read_text(errors="replace")
            lines = [line for line in text.splitlines() if not any(noise in line for noise in LOG_NOISE)]
            kept = ARTIFACTS / f"failed-{test.replace('/', '_')}-studio-{number}.log"
            kept.write_text("\n".join(lines), encoding="utf-8")
        except OSError as error:  # a log must never hide the failure itself
            report.sections.append(("studio log", f"{log}: {error}"))
            continue
        report.sections.append((f"studio log {number} (last 60 lines)", "\n".join(lines[-60:])))

"""Reading a vis-network graph iframe that the studio may re-render at any moment.

Gradio replaces an iframe's srcdoc whenever a later event re-renders the graph, which destroys the
frame's execution context mid-read. Every read therefore fetches the current frame, waits until its
network has drawn, and starts again if a re-render navigated it in between. A graph of the whole
sample corpus takes its layout in the browser: with both cores busy (load average 12), one run in 10
failed at that read with the risk graph still blank in its screenshot under a 30 s wait, hence 90 s.

The graph frame is sandboxed, so Chromium treats it as cross-origin, and a cross-origin frame out of
the viewport gets no animation frames: Playwright's default polling (requestAnimationFrame) then never
re-checks, and CI once waited out 180 s on a graph that had drawn. The frame is scrolled into view and
polled on a timer."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Error

RENDER_RACES = ("Execution context was destroyed", "Frame was detached", "has been closed")


POLL_MS = 250


def ready_frame(page, elem: str, timeout_ms: int = 90_000):
    iframe = page.locator(f"#{elem} iframe")
    iframe.scroll_into_view_if_needed(timeout=timeout_ms)
    frame = iframe.element_handle().content_frame()
    frame.wait_for_function(
        "document.body && document.body.dataset.ready === '1'", timeout=timeout_ms, polling=POLL_MS
    )
    return frame


def srcdoc(page, elem: str) -> str:
    return page.locator(f"#{elem} iframe").get_attribute("srcdoc") or ""


def wait_for_rerender(page, elem: str, before: str, timeout_ms: int = 60_000) -> None:
    """Wait until the graph's srcdoc differs from `before`: the views re-render in a follow-up
    event after an action's status message, so the message alone does not mean the graph is new."""
    page.wait_for_function(
        "([sel, before]) => { const f = document.querySelector(sel);"
        " return f && f.getAttribute('srcdoc') !== before; }",
        arg=[f"#{elem} iframe", before],
        timeout=timeout_ms,
    )


def settled_frame(page, elem: str, quiet_ms: int = 1_000, timeout_ms: int = 30_000):
    """The graph frame once its srcdoc has stayed the same for `quiet_ms` and it has drawn."""
    deadline = time.monotonic() + timeout_ms / 1000
    last = srcdoc(page, elem)
    while time.monotonic() < deadline:
        page.wait_for_timeout(quiet_ms)
        now = srcdoc(page, elem)
        if now == last:
            break
        last = now
    return ready_frame(page, elem, timeout_ms)


def evaluate_in_graph(page, elem: str, expression: str, timeout_ms: int = 90_000) -> Any:
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        try:
            return ready_frame(page, elem, timeout_ms).evaluate(expression)
        except Error as error:
            if not any(race in str(error) for race in RENDER_RACES) or time.monotonic() > deadline:
                raise
            page.wait_for_timeout(200)

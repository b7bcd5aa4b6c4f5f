"""Small page helpers of the browser tests: open a tab, wait for the views to settle."""

from __future__ import annotations

from playwright.sync_api import expect


def open_tab(page, name: str) -> None:
    """Click the tab `name` in the tab bar. Gradio also lists tabs in an overflow menu whose buttons
    have the same role and name, and a busy page can hold both for a moment: click a visible one."""
    tab = page.get_by_role("tab", name=name).filter(visible=True).first
    tab.click()
    # a click a busy page has not yet handled leaves the old panel shown, and reads of the new one's
    # graph frame (display: none, so no animation frames) wait for nothing
    expect(page.get_by_role("tab", name=name, selected=True).first).to_be_attached(timeout=60_000)


def wait_views_settled(page, timeout_ms: int = 180_000) -> None:
    """Until no view render is in flight or about to be (`ui.page_scripts.VIEWS_SETTLED_JS`): on a busy
    machine the page can show an older render for a moment before the settling one."""
    from ui.page_scripts import VIEWS_SETTLED_JS

    page.wait_for_timeout(500)  # an event just triggered may not have been sent yet
    page.wait_for_function(VIEWS_SETTLED_JS, timeout=timeout_ms)

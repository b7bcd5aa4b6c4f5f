"""Opening a studio tab from a test."""

from __future__ import annotations


def open_tab(page, name: str) -> None:
    """Click the tab `name` in the tab bar. Gradio also lists tabs in an overflow menu whose buttons
    have the same role and name, and a busy page can hold both for a moment: click a visible one."""
    page.get_by_role("tab", name=name).filter(visible=True).first.click()

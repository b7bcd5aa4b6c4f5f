"""Issue 19, item 4 in the browser: one action marks a category of personal data private; the table
and the graph show the categories."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.tabs import open_tab, wait_views_settled

pytestmark = pytest.mark.browser


def test_mark_the_health_category_private(page, studio_url, artifacts):
    page.goto(studio_url)
    expect(page.locator("#rps-message")).to_contain_text(re.compile(r"\d+ triple\(s\)"), timeout=60_000)
    open_tab(page, "Knowledge graph & privacy")
    wait_views_settled(page)
    # The sample corpus's HR record holds a condition: the category is offered with its count.
    choice = page.locator("#rps-mark_category_choice input")
    choice.click()
    expect(page.locator("ul[role=listbox]").first).to_contain_text("health (1 triple(s))")
    page.locator("ul[role=listbox] li").filter(has_text="health").first.click()
    page.locator("#rps-mark_category").click()
    expect(page.locator("#rps-message")).to_contain_text(
        "Marked 1 more triple(s) of the category 'health' private (1 in all)", timeout=60_000
    )
    expect(page.locator("#rps-filter_moves")).to_contain_text("(1 marked private by you)")

    page.locator("#rps-filter_search textarea, #rps-filter_search input").first.fill("asthma")
    page.keyboard.press("Enter")
    wait_views_settled(page)
    row = page.locator("#rps-triples tbody tr").filter(has_text="asthma").first
    expect(row).to_contain_text("private")
    expect(row).to_contain_text("health")
    graph = page.locator("#rps-graph iframe").get_attribute("srcdoc") or ""
    assert "medical_condition [health]" in graph and '"status":"private"' in graph
    page.screenshot(path=str(artifacts / "issue19-category-marks.png"), full_page=True)

    page.locator("#rps-undo_marks").click()
    expect(page.locator("#rps-message")).to_contain_text("Undone", timeout=60_000)
    expect(page.locator("#rps-filter_moves")).to_contain_text("Nothing is private yet")

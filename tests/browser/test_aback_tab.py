"""The ABack tab in a real browser: demo records, streamed guarded generation with a backtrack."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.tabs import open_tab

pytestmark = pytest.mark.browser


def test_demo_records_generate_streams_tokens_and_backtracks(page, studio_url, artifacts):
    page.goto(studio_url)
    open_tab(page, "ABack generation")
    page.locator("#rps-aback_load_demo").click()
    status = page.locator("#rps-aback_status")
    expect(status).to_contain_text(re.compile(r"Loaded 12 PriGenQA"), timeout=30_000)

    page.locator("#rps-aback_retrieve").click()
    expect(page.locator("#rps-aback_records")).to_contain_text("finance case", timeout=60_000)
    indicators = page.locator("#rps-aback_indicators textarea")
    expect(indicators).not_to_have_value("", timeout=30_000)

    page.locator("#rps-aback_max_tokens input").fill("24")
    page.get_by_text("ABack settings").click()
    page.locator("#rps-aback_d input").fill("10")  # with l = 5: two traced units + the look-ahead unit
    page.locator("#rps-aback_generate").click()
    stream = page.locator("#rps-aback_stream")
    expect(stream.locator(".rps-aback-token").first).to_be_visible(timeout=120_000)
    expect(stream.locator('[data-phase="done"]')).to_be_attached(timeout=180_000)
    # the demo query asks for the records verbatim: SmolLM2 writes a name, ABack backtracks
    removed = stream.locator("del.rps-aback-removed")
    assert removed.count() >= 1
    expect(removed.first.locator("mark.rps-aback-leak")).to_be_visible()
    expect(page.locator("#rps-aback_timeline")).to_contain_text("Event 1")
    first_event_units = page.locator("#rps-aback_timeline table").first.locator("tbody tr")
    # d = 10 with l = 5: at most two traced units plus the look-ahead unit (fewer when the leak
    # comes within the first d tokens), spanning no more than d + l tokens
    assert 1 <= first_event_units.count() <= 3
    spans = [
        first_event_units.nth(i).locator("td").nth(1).inner_text() for i in range(first_event_units.count())
    ]
    bounds = [int(n) for span in spans for n in re.findall(r"\d+", span)]
    assert max(bounds) - min(bounds) <= 10 + 5
    expect(status).to_contain_text("Done", timeout=120_000)
    expect(page.locator("#rps-aback_answers")).to_contain_text("Boundary 2 (no protection)")
    leaked_text = removed.first.locator("mark.rps-aback-leak").inner_text().lstrip("⚠")
    assert leaked_text in indicators.input_value()
    page.screenshot(path=str(artifacts / "aback-tab.png"), full_page=True)

    # A reload shows the run again: the question, the answer with its trace, the baselines.
    query = page.locator("#rps-aback_query textarea").input_value()
    answers = page.locator("#rps-aback_answers").inner_text()
    page.reload()
    open_tab(page, "ABack generation")
    expect(page.locator('#rps-aback_stream [data-phase="done"]')).to_be_attached(timeout=120_000)
    expect(page.locator("#rps-aback_stream del.rps-aback-removed").first).to_be_visible()
    expect(page.locator("#rps-aback_timeline")).to_contain_text("Event 1")
    assert page.locator("#rps-aback_query textarea").input_value() == query
    assert page.locator("#rps-aback_answers").inner_text() == answers
    expect(status).to_contain_text("Done")

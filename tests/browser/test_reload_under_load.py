"""With both cores busy, a text added before the page's start-up has finished is autosaved; a reload
brings back the added document, the undo steps, the annotator's name and ABack's demo records."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.load import busy_cores
from tests.browser.tabs import open_tab

pytestmark = pytest.mark.browser

SLOW = 120_000
TITLE = "Early field note"
TEXT = "Ines Marlow works for Quillon Foods. Quillon Foods is located in Brackwater."


AT_MOST_THE_ADDED_TEXT_PENDING = """() => {
  const summary = document.querySelector('#rps-documents_summary');
  if (!summary || !/triple\\(s\\)/.test(summary.innerText)) return false;
  const pending = summary.innerText.match(/(\\d+) not extracted yet/);
  return !pending || Number(pending[1]) <= 1;
}"""


def wait_message(page, pattern: str) -> None:
    expect(page.locator("#rps-message")).to_contain_text(re.compile(pattern), timeout=SLOW)


def test_early_action_undo_annotator_and_demo_records_survive_a_reload(page, studio_url, artifacts):
    with busy_cores():
        page.goto(studio_url)
        # before the start-up (session id, sample extraction) has finished
        page.locator("#rps-paste_title input, #rps-paste_title textarea").first.fill(TITLE)
        page.locator("#rps-paste_text textarea").fill(TEXT)
        page.locator("#rps-add_text").click()
        expect(page.locator("#rps-documents")).to_contain_text(TITLE, timeout=SLOW)
        page.wait_for_function("localStorage.getItem('rps-browser-session')", timeout=SLOW)
        # the start-up's extraction of the sample corpus has ended; the added text is extracted with it
        # when it came first, else it waits, counted, for Extract triples
        page.wait_for_function(AT_MOST_THE_ADDED_TEXT_PENDING, timeout=SLOW)

        open_tab(page, "Knowledge graph & privacy")
        page.locator("#rps-random_split").click()
        wait_message(page, r"Random split\. Triples: \d+ private")
        expect(page.locator("#rps-undo_marks")).to_have_text("Undo (1)", timeout=SLOW)

        open_tab(page, "Review rewrites")
        page.locator("#rps-review_annotator input, #rps-review_annotator textarea").first.fill("carol")
        open_tab(page, "ABack generation")
        page.locator("#rps-aback_load_demo").click()
        expect(page.locator("#rps-aback_status")).to_contain_text("Loaded 12 PriGenQA", timeout=SLOW)
        page.wait_for_function(
            "localStorage.getItem('rps-aback-demo') && localStorage.getItem('rps-annotator')", timeout=SLOW
        )
        page.wait_for_timeout(5_000)  # the autosave after the last action

        page.reload()
        wait_message(page, r"Restored your workspace")
        expect(page.locator("#rps-documents")).to_contain_text(TITLE, timeout=SLOW)
        open_tab(page, "Knowledge graph & privacy")
        expect(page.locator("#rps-undo_marks")).to_have_text("Undo (1)", timeout=SLOW)
        open_tab(page, "Review rewrites")
        name = page.locator("#rps-review_annotator input, #rps-review_annotator textarea").first
        expect(name).to_have_value("carol", timeout=SLOW)
        open_tab(page, "ABack generation")
        records = page.locator("#rps-aback_records")
        expect(records).to_contain_text("12 PriGenQA-style demo records", timeout=SLOW)
        page.screenshot(path=str(artifacts / "reload-under-load.png"), full_page=True)

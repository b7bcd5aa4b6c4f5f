"""With both cores busy, every row click marks the triple the row showed, and a filtered table is
never overwritten by an older re-render."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.load import busy_cores
from tests.browser.tabs import open_tab

pytestmark = pytest.mark.browser

SEARCHES = ["Mara Voss", "Tomas Reyl", "Harrow Vale", "Lindqvist Robotics", "Priya Okafor", "asthma"]
SLOW = 90_000
START = 180_000  # the page's start-up (sample extraction) on a machine whose cores are busy


def cell(page, row: int, column: int):
    return page.locator(f'#rps-triples [data-testid="cell-{row}-{column}"]')


def search(page, text: str) -> None:
    box = page.locator("#rps-filter_search textarea, #rps-filter_search input").first
    box.fill(text)
    box.press("Enter")


EVERY_ROW_HOLDS = """([term]) => {
  const rows = {};
  for (const c of document.querySelectorAll('#rps-triples [role=gridcell][data-row]')) {
    rows[c.dataset.row] = (rows[c.dataset.row] || '') + ' ' + c.innerText;
  }
  const texts = Object.values(rows);
  return texts.length > 0 && texts.every(t => t.toLowerCase().includes(term.toLowerCase()));
}"""


READ_AND_CLICK = """([row]) => {
  const cells = [1, 2, 3].map(c => document.querySelector(`#rps-triples [data-testid="cell-${row}-${c}"]`));
  const shown = cells.map(c => c.innerText.trim());
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
    cells[0].dispatchEvent(new MouseEvent(type, {bubbles: true, cancelable: true, view: window}));
  }
  return shown;
}"""


def wait_filtered(page, term: str, timeout: int = SLOW) -> None:
    """Until every row of the table holds `term` (the filtered table is on the screen)."""
    page.wait_for_function(EVERY_ROW_HOLDS, arg=[term], timeout=timeout)


def test_row_clicks_mark_the_shown_triple_while_the_cores_are_busy(page, studio_url, artifacts):
    with busy_cores():
        page.goto(studio_url)
        expect(page.locator("#rps-message")).to_contain_text(re.compile(r"\d+ triple\(s\)"), timeout=START)
        open_tab(page, "Knowledge graph & privacy")
        clicked: list[tuple[str, str, str]] = []
        for round_number, term in enumerate(SEARCHES * 2):
            search(page, term)
            wait_filtered(page, term)
            row = len(clicked) % 2  # the first or second row of the filtered table
            if cell(page, row, 1).count() == 0:
                row = 0
            # the row as one snapshot, clicked at once: reading cell by cell could mix two renders
            shown = tuple(page.evaluate(READ_AND_CLICK, [row]))
            if round_number % 3 == 0:  # a filter change right behind the click races the click's re-render
                search(page, SEARCHES[(round_number + 1) % len(SEARCHES)])
            head, relation, tail = shown
            named = rf"\({re.escape(head)}, {re.escape(relation)}, {re.escape(tail)}\)"
            expect(page.locator("#rps-message")).to_contain_text(
                re.compile(rf"(Marked|Unmarked) {named}"), timeout=SLOW
            )
            clicked.append(shown)
        # the last filter wins: no older, unfiltered re-render is left on the screen
        last = SEARCHES[-1]
        search(page, last)
        wait_filtered(page, last)
        # the filtered render arrives (a fixed 3 s was too short beside two more busy processes: the
        # screenshot taken after the failed check showed the filtered rows), then nothing older replaces it
        page.wait_for_function(EVERY_ROW_HOLDS, arg=[last], timeout=SLOW)
        page.wait_for_timeout(3_000)
        assert page.evaluate(EVERY_ROW_HOLDS, [last])
        page.screenshot(path=str(artifacts / "keys-under-load.png"), full_page=True)
    assert not page.dialogs

"""The studio in a real browser: upload, extract, mark a triple private, see graph and risk change."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.graph_frames import evaluate_in_graph, ready_frame, srcdoc, wait_for_rerender
from tests.browser.tabs import open_tab, wait_views_settled

pytestmark = pytest.mark.browser
# On a machine whose cores are busy with other work, start-up and re-renders take tens of seconds.
LOADED = 180_000

NOTE = "Ada Brook works for Zephyr Labs. Zephyr Labs is located in Northport. Ada Brook plays the violin.\n"


def wait_message(page, pattern: str) -> None:
    expect(page.locator("#rps-message")).to_contain_text(re.compile(pattern), timeout=LOADED)


RED_DASHED_EDGES = (
    "window.network ? window.network.body.data.edges.get()"
    ".filter(e => e.color.color === '#d62728' && e.dashes).length : 0"
)


def test_upload_extract_mark_private_updates_graph_and_risk(page, studio_url, artifacts, tmp_path):
    page.set_default_timeout(LOADED // 2)
    page.goto(studio_url)
    wait_message(page, r"\d+ triple\(s\)")  # the sample corpus was extracted on load
    page.screenshot(path=str(artifacts / "01-documents.png"), full_page=True)

    note = tmp_path / "field_notes.txt"
    note.write_text(NOTE, encoding="utf-8")
    page.locator("#rps-upload input[type=file]").set_input_files(str(note))
    wait_message(page, r"add the upload to them, or replace them")  # the workspace holds the sample
    page.locator("#rps-upload_merge").click()
    wait_message(page, r"Loaded 1 of 1 file")
    expect(page.locator("#rps-documents")).to_contain_text("field_notes")

    page.locator("#rps-extract").click()
    wait_message(page, r"spacy: [1-9]\d* new triple")

    open_tab(page, "Knowledge graph & privacy")
    page.locator("#rps-filter_search textarea, #rps-filter_search input").first.fill("Ada Brook")
    page.keyboard.press("Enter")
    wait_views_settled(page)
    expect(page.locator('#rps-triples [data-testid="cell-0-1"]')).to_contain_text("Ada Brook")
    before = srcdoc(page, "rps-graph")
    assert evaluate_in_graph(page, "rps-graph", RED_DASHED_EDGES) == 0

    open_tab(page, "Cross-document risk")
    risk_before = page.locator("#rps-risk_summary").inner_text()
    assert "Nothing is private yet" in risk_before

    open_tab(page, "Knowledge graph & privacy")
    wait_views_settled(page)
    expect(page.locator('#rps-triples [data-testid="cell-0-1"]')).to_contain_text("Ada Brook")
    relation = page.locator('#rps-triples [data-testid="cell-0-2"]').inner_text().strip()
    tail = page.locator('#rps-triples [data-testid="cell-0-3"]').inner_text().strip()
    page.locator('#rps-triples [data-testid="cell-0-1"]').click()
    wait_message(page, r"Marked \(Ada Brook, " + re.escape(relation.lower()))
    expect(page.locator('#rps-triples [data-testid="cell-0-0"]')).to_have_text("private")

    wait_for_rerender(page, "rps-graph", before)
    after = srcdoc(page, "rps-graph")
    assert '"status":"private"' in after and "#d62728" in after
    assert evaluate_in_graph(page, "rps-graph", RED_DASHED_EDGES) == 1
    frame = ready_frame(page, "rps-graph")
    page.screenshot(path=str(artifacts / "02-graph-private.png"), full_page=True)

    # Selecting the private edge shows the sentence with the span highlighted.
    edge_id = frame.evaluate("window.network.body.data.edges.get().find(e => e.color.color === '#d62728').id")
    frame.evaluate("id => window.showEdge(id)", edge_id)
    expect(frame.locator("#panel mark")).to_contain_text(re.compile(rf"^Ada Brook .*{re.escape(tail)}"))

    open_tab(page, "Cross-document risk")
    expect(page.locator("#rps-risk_summary")).to_contain_text("of 1 private triple(s)")
    expect(page.locator('#rps-risk_table [data-testid="cell-0-0"]')).to_contain_text("Ada Brook")
    assert '"status":"private"' in srcdoc(page, "rps-risk_graph")
    page.screenshot(path=str(artifacts / "03-risk.png"), full_page=True)

    # A random split over everything: the risk view lists private triples reachable through other documents.
    open_tab(page, "Knowledge graph & privacy")
    page.locator("#rps-random_split").click()
    wait_message(page, r"A random split replaces your 1 private mark")  # asks first: marks would be lost
    page.locator("#rps-confirm_random_split_yes").click()
    wait_message(page, r"Random split\. Triples: \d+ private")
    open_tab(page, "Cross-document risk")
    expect(page.locator("#rps-risk_summary")).to_contain_text("r_connect")
    # the whole corpus's risk graph takes its layout in the browser: beside two busy loops on 2 cores one
    # run in 4 (session 14) was still blank after graph_frames' 90 s, so this read waits as long as the rest
    edges = "window.network.body.data.edges.get().length"
    assert evaluate_in_graph(page, "rps-risk_graph", edges, timeout_ms=LOADED) > 0
    page.screenshot(path=str(artifacts / "04-risk-random-split.png"), full_page=True)
    assert not page.dialogs

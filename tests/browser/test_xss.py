"""Markup in titles, text and extracted entities is shown as text, never run (page and graph iframes)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.graph_frames import settled_frame, srcdoc, wait_for_rerender
from tests.browser.tabs import open_tab, wait_views_settled

pytestmark = pytest.mark.browser

SCRIPT = "<script>window.__xss=1</script>"
IMG = '<img src=x onerror="window.__xss=2">'
TITLE = f"Evil {SCRIPT}{IMG}"
# The extractor blanks markup before parsing (entities come out clean); the titles and the texts
# themselves still carry it to every view, where it must stay text.
TEXT = (
    f"{SCRIPT} The company employs Mallory. Mallory lives in {IMG} town. "
    f"<b>Mallory</b> works for <i>Acme</i>. Eve lives in {IMG}."
)


def wait_message(page, pattern: str) -> None:
    expect(page.locator("#rps-message")).to_contain_text(re.compile(pattern), timeout=60_000)


def assert_nothing_ran(page) -> None:
    for frame in page.frames:
        assert frame.evaluate("typeof window.__xss") == "undefined", frame.url
    assert not page.dialogs
    assert page.locator("img[src=x]").count() == 0


def click_everything_in_graph(page, elem: str) -> str:
    """Click every node and select every edge of the graph iframe; returns the panel texts seen."""
    frame = settled_frame(page, elem)
    box = page.locator(f"#{elem} iframe").bounding_box()
    positions = frame.evaluate(
        "() => { const p = window.network.getPositions(); return Object.keys(p).map("
        "id => window.network.canvasToDOM(p[id])); }"
    )
    seen = []
    for pos in positions:
        page.mouse.click(box["x"] + pos["x"], box["y"] + pos["y"])
        seen.append(frame.locator("#panel").inner_text())
    for edge_id in frame.evaluate("window.network.body.data.edges.getIds()"):
        frame.evaluate("id => window.showEdge(id)", edge_id)
        seen.append(frame.locator("#panel").inner_text())
    return "\n".join(seen)


def test_markup_in_documents_and_entities_never_runs(page, studio_url, artifacts, tmp_path):
    page.goto(studio_url)
    wait_message(page, r"\d+ triple\(s\)")

    page.locator("#rps-paste_title input, #rps-paste_title textarea").first.fill(TITLE)
    page.locator("#rps-paste_text textarea").fill(TEXT)
    page.locator("#rps-add_text").click()
    wait_message(page, r"Added document")

    bundle = tmp_path / "evil.json"
    bundle.write_text(json.dumps({"title": IMG, "text": TEXT.replace("Mallory", "Trudy")}), encoding="utf-8")
    page.locator("#rps-upload input[type=file]").set_input_files(str(bundle))
    wait_message(page, r"add the upload to them, or replace them")  # the workspace holds the sample
    page.locator("#rps-upload_merge").click()
    wait_message(page, r"Loaded 1 of 1 file")
    expect(page.locator("#rps-documents")).to_contain_text(SCRIPT)  # shown as text
    assert_nothing_ran(page)

    page.locator("#rps-extract").click()
    wait_message(page, r"spacy: [1-9]\d* new triple")
    page.screenshot(path=str(artifacts / "xss-01-documents.png"), full_page=True)

    open_tab(page, "Knowledge graph & privacy")
    page.locator("#rps-filter_search textarea, #rps-filter_search input").first.fill("Mallory")
    page.keyboard.press("Enter")
    # The extraction's re-render of every view (unfiltered) can still be landing while the search's
    # narrowed render has landed; the page then asks for one settling render (`SETTLE_JS`). A click
    # before that may hit a row of the stale table, as a person's would: wait until the views settle.
    wait_views_settled(page)
    expect(page.locator("#rps-triples")).to_contain_text("Mallory")
    # the unfiltered table holds other rows too: wait until the search has narrowed it
    expect(page.locator('#rps-triples [data-testid="cell-6-0"]')).to_have_count(0)
    expect(page.locator("#rps-triples")).not_to_contain_text("</b")  # no markup inside an entity
    first_head = page.locator('#rps-triples [data-testid="cell-0-1"]')
    first_head.click()
    wait_message(page, r"Marked \(")
    # the views re-render after the action: wait for it before typing into a re-rendered dropdown
    expect(page.locator('#rps-triples [data-testid="cell-0-0"]')).not_to_have_text("public")
    page.locator("#rps-mark_entity_choice input").fill("Mallory")
    page.keyboard.press("Enter")
    graph_before = srcdoc(page, "rps-graph")
    page.locator("#rps-mark_entity").click()
    wait_message(page, r"Marked \d+ more triple")
    wait_for_rerender(page, "rps-graph", graph_before)

    panels = click_everything_in_graph(page, "rps-graph")
    assert "onerror" in panels or "<script>" in panels  # markup reached the panel as text
    page.screenshot(path=str(artifacts / "xss-02-graph.png"), full_page=True)
    assert_nothing_ran(page)

    open_tab(page, "Cross-document risk")
    expect(page.locator("#rps-risk_summary")).to_contain_text("private triple(s)")
    click_everything_in_graph(page, "rps-risk_graph")
    page.screenshot(path=str(artifacts / "xss-03-risk.png"), full_page=True)
    assert_nothing_ran(page)

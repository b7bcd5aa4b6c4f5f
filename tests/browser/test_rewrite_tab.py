"""Rewrite tab in a real browser: run an eraser, read the diff and the metrics, see a run go stale.

A document whose text carries markup is rewritten; the markup must show as text in both
panes of the diff, never run.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.graph_frames import evaluate_in_graph
from tests.browser.tabs import open_tab
from tests.browser.test_xss import assert_nothing_ran

pytestmark = pytest.mark.browser

SLOW = 90_000  # views re-render after an action; on a loaded machine that can take tens of seconds

SCRIPT = "<script>window.__xss=1</script>"
IMG = '<img src=x onerror="window.__xss=2">'
TITLE = f"Evil {SCRIPT}"
TEXT = (
    f"{SCRIPT} Mallory Quinn lives in Harrow Vale. {IMG} Mallory Quinn works for Lindqvist Robotics. "
    "Mallory Quinn plays the violin."
)


def wait_message(page, pattern: str) -> None:
    expect(page.locator("#rps-message")).to_contain_text(re.compile(pattern), timeout=2 * SLOW)


def drawn_places(page, elem: str) -> dict[str, tuple[float, float]]:
    """The places the graph page `elem` was given for its entities (its JSON block)."""
    page_html = page.locator(f"#{elem} iframe").get_attribute("srcdoc") or ""
    found = re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', page_html, re.S)
    assert found, f"no graph data in #{elem}"
    nodes = json.loads(found.group(1))["nodes"]
    return {n["id"]: (n["x"], n["y"]) for n in nodes if "x" in n}


def choose(page, elem: str, option: str) -> None:
    page.locator(f"#{elem} input").click()
    page.get_by_role("option", name=option).click()


def test_run_mask_see_diff_metrics_and_stale(page, studio_url, artifacts):
    page.set_default_timeout(SLOW)
    page.goto(studio_url)
    wait_message(page, r"\d+ triple\(s\)")
    page.locator("#rps-paste_title input, #rps-paste_title textarea").first.fill(TITLE)
    page.locator("#rps-paste_text textarea").fill(TEXT)
    page.locator("#rps-add_text").click()
    wait_message(page, r"Added document")
    page.locator("#rps-extract").click()
    wait_message(page, r"spacy: [1-9]\d* new triple")

    open_tab(page, "Knowledge graph & privacy")
    page.locator("#rps-mark_entity_choice input").fill("Mallory Quinn")
    page.keyboard.press("Enter")
    page.locator("#rps-mark_entity").click()
    wait_message(page, r"Marked \d+ more triple")

    open_tab(page, "Rewrite (Eraser4RAG)")
    expect(page.locator("#rps-rewrite_runs")).to_contain_text("No rewrites yet", timeout=SLOW)
    boxes = page.locator("#rps-rewrite_erasers")
    for label in boxes.locator("label").all():
        checkbox = label.locator("input")
        if checkbox.is_checked():
            checkbox.uncheck()
    boxes.get_by_label("mask", exact=True).check()
    boxes.get_by_label("graph-guided", exact=True).check()
    page.locator("#rps-rewrite_run").click()
    wait_message(page, r"mask: (\d+) of \1 document\(s\) rewritten \(fresh\)")
    expect(page.locator("#rps-message")).to_contain_text(
        re.compile(r"graph-guided: (\d+) of \1 document"), timeout=SLOW
    )
    expect(page.locator("#rps-rewrite_runs")).to_contain_text("up to date", timeout=SLOW)

    metrics = page.locator("#rps-rewrite_metrics")
    expect(metrics.locator('[data-testid="cell-0-0"]')).to_have_text("graph-guided", timeout=SLOW)
    expect(metrics.locator('[data-testid="cell-1-0"]')).to_have_text("mask", timeout=SLOW)
    for row in (0, 1):
        r_pri = float(metrics.locator(f'[data-testid="cell-{row}-3"]').inner_text())
        r_pub = float(metrics.locator(f'[data-testid="cell-{row}-4"]').inner_text())
        assert 0.0 <= r_pri < r_pub <= 1.0
    choose(page, "rps-rewrite_method", "mask")

    choose(page, "rps-rewrite_document", TITLE)
    diff = page.locator("#rps-rewrite_diff")
    original = diff.locator('[data-pane="original"]')
    rewrite = diff.locator('[data-pane="rewrite"]')
    expect(original).to_contain_text(SCRIPT, timeout=SLOW)  # markup shown as text
    expect(original).to_contain_text(IMG, timeout=SLOW)
    expect(rewrite).to_contain_text(IMG, timeout=SLOW)
    assert original.locator(".rps-del").count() > 0  # what mask removed
    assert original.locator(".rps-private").count() > 0  # the private sentences
    assert rewrite.locator(".rps-ins").count() > 0  # the placeholders it put in
    expect(rewrite).not_to_contain_text("Harrow Vale", timeout=SLOW)
    expect(page.locator("#rps-rewrite_doc_metrics")).to_contain_text("Evil", timeout=SLOW)
    edges = evaluate_in_graph(page, "rps-rewrite_graph", "window.network.body.data.edges.get().length")
    assert edges > 0  # re-extracted triples
    # laid out like the original: each entity of both graphs is drawn where the original graph has it
    original_places = drawn_places(page, "rps-graph")
    rewritten_places = evaluate_in_graph(page, "rps-rewrite_graph", "window.network.getPositions()")
    shared = set(original_places) & set(rewritten_places)
    assert len(shared) >= 3
    for node in shared:  # vis reports whole pixels
        assert rewritten_places[node]["x"] == pytest.approx(original_places[node][0], abs=1.0)
        assert rewritten_places[node]["y"] == pytest.approx(original_places[node][1], abs=1.0)
    # the matplotlib figure (an image; the plot's own label is off so it covers no point)
    expect(page.locator("#rps-rewrite_scatter img").first).to_be_visible(timeout=SLOW)
    page.locator("#rps-rewrite_graph").screenshot(path=str(artifacts / "rewrite-01-graph.png"))
    page.locator("#rps-rewrite_diff").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "rewrite-01-diff.png"), full_page=True)
    assert_nothing_ran(page)

    open_tab(page, "Cross-document risk")
    expect(page.locator("#rps-risk_summary")).to_contain_text(
        "r_connect after rewriting with mask", timeout=SLOW
    )

    # Changing the definition keeps the run and marks it stale; nothing is re-run.
    open_tab(page, "Knowledge graph & privacy")
    page.locator("#rps-random_split").click()
    wait_message(page, r"Random split\.|Confirm or cancel")  # replacing marks may ask first
    confirm = page.locator("#rps-confirm_random_split_yes")
    if confirm.count() and confirm.is_visible():
        confirm.click()
    wait_message(page, r"Random split\..* \d+ private")
    open_tab(page, "Rewrite (Eraser4RAG)")
    expect(page.locator("#rps-rewrite_runs")).to_contain_text("stale", timeout=SLOW)
    expect(metrics.locator('[data-testid="cell-0-1"]')).to_have_text("stale", timeout=SLOW)
    expect(page.locator("#rps-rewrite_diff")).to_contain_text("stale", timeout=SLOW)
    page.screenshot(path=str(artifacts / "rewrite-02-stale.png"), full_page=True)
    assert_nothing_ran(page)

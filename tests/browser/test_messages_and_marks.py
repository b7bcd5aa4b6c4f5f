"""Issue 9 (UI): user strings never render as markup in any message path; marks can be undone
and are never replaced or cleared without a confirmation; the graph is fitted and stable; the
triples table fits at 1280 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.graph_frames import evaluate_in_graph
from tests.browser.tabs import open_tab, wait_views_settled

pytestmark = pytest.mark.browser

IMG = '<img src="/x.png">'
MD_IMG = "![x](/x.png)"
SCRIPT_END = "</script>"
TITLE = f"T {IMG} {MD_IMG} {SCRIPT_END}"
WORKSPACE = f"W {IMG} {MD_IMG}"
TEXT = "Ada Brook works for Zephyr Labs. Zephyr Labs is located in Northport. Ada Brook plays the violin."


def wait_message(page, pattern: str) -> None:
    expect(page.locator("#rps-message")).to_contain_text(re.compile(pattern), timeout=60_000)


def record_image_fetches(page) -> list[str]:
    """Every request for x.png (from the page or any frame) is recorded and answered 404."""
    fetched: list[str] = []

    def on_route(route) -> None:
        fetched.append(route.request.url)
        route.fulfill(status=404, body="")

    page.context.route(re.compile(r".*x\.png.*"), on_route)
    return fetched


def no_markup_rendered(page) -> None:
    for frame in page.frames:
        assert frame.locator("img[src='/x.png'], img[src*='x.png']").count() == 0, frame.url


def test_user_markup_shows_as_text_in_every_message_path(page, studio_url, artifacts):
    fetched = record_image_fetches(page)
    page.goto(studio_url)
    wait_message(page, r"\d+ triple\(s\)")

    # Status line: a pasted title.
    page.locator("#rps-paste_title input, #rps-paste_title textarea").first.fill(TITLE)
    page.locator("#rps-paste_text textarea").fill(TEXT)
    page.locator("#rps-add_text").click()
    wait_message(page, "Added document")
    expect(page.locator("#rps-message")).to_contain_text(IMG)
    expect(page.locator("#rps-message")).to_contain_text(MD_IMG)
    expect(page.locator("#rps-message")).to_contain_text(SCRIPT_END)

    # Error toast: an entity typed into the mark-entity box. The views re-render in a follow-up
    # event after the status message (the documents list shows the new title then); typing into
    # the dropdown before that lets the re-render wipe the typed value (seen once in CI).
    expect(page.locator("#rps-documents")).to_contain_text(TITLE, timeout=60_000)
    open_tab(page, "Knowledge graph & privacy")
    choice = page.locator("#rps-mark_entity_choice input")
    choice.fill(IMG + " " + MD_IMG)
    choice.press("Enter")
    expect(choice).to_have_value(IMG + " " + MD_IMG)
    page.locator("#rps-mark_entity").click()
    toast = page.locator('[data-testid="toast-body"]').first
    expect(toast).to_contain_text(IMG, timeout=30_000)
    expect(toast).to_contain_text(MD_IMG)

    # Dropdown labels: the document filter lists the title.
    page.locator("#rps-filter_document input").click()
    expect(page.locator("ul[role=listbox]").first).to_contain_text(IMG)
    page.keyboard.press("Escape")

    # Status line, summary and saved-workspace dropdown: a workspace name.
    open_tab(page, "Documents")
    page.get_by_text("Save, load, export, import").click()
    page.locator("#rps-save_name input, #rps-save_name textarea").first.fill(WORKSPACE)
    page.locator("#rps-save").click()
    wait_message(page, "Saved as")
    expect(page.locator("#rps-message")).to_contain_text(WORKSPACE)
    expect(page.locator("#rps-documents_summary")).to_contain_text(WORKSPACE)
    page.locator("#rps-saved input").click()
    expect(page.locator("ul[role=listbox]").first).to_contain_text(WORKSPACE)
    page.keyboard.press("Escape")

    # Loading it in another session (another user's browser) shows the name as text too.
    other = page.context.browser.new_context(viewport={"width": 1280, "height": 900})
    other_page = other.new_page()
    other_fetched = record_image_fetches(other_page)
    other_page.goto(studio_url)
    wait_message(other_page, r"\d+ triple\(s\)")
    other_page.get_by_text("Save, load, export, import").click()
    other_page.locator("#rps-saved input").click()
    other_page.locator("ul[role=listbox] li").filter(has_text=WORKSPACE).first.click()
    other_page.locator("#rps-load").click()
    # the sample corpus in view would be replaced: asked first
    wait_message(other_page, "Loading replaces the workspace in view")
    other_page.locator("#rps-confirm_load_workspace_yes").click()
    wait_message(other_page, "Loaded")
    expect(other_page.locator("#rps-message")).to_contain_text(WORKSPACE)
    other_page.screenshot(path=str(artifacts / "issue9-messages-other-user.png"), full_page=True)
    no_markup_rendered(other_page)
    other.close()

    page.screenshot(path=str(artifacts / "issue9-messages.png"), full_page=True)
    no_markup_rendered(page)
    assert fetched == [] and other_fetched == [], (fetched, other_fetched)
    assert not page.dialogs


def graph_positions(page) -> dict:
    return evaluate_in_graph(
        page,
        "rps-graph",
        "() => { const c = document.getElementById('graph'); const p = window.network.getPositions();"
        " const dom = {}; for (const id in p) dom[id] = window.network.canvasToDOM(p[id]);"
        " return {canvas: p, dom: dom, w: c.clientWidth, h: c.clientHeight,"
        " scale: window.network.getScale()}; }",
        timeout_ms=60_000,
    )


def test_marks_confirm_and_undo_graph_fitted_and_stable_table_fits(page, studio_url, artifacts):
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(studio_url)
    wait_message(page, r"\d+ triple\(s\)")
    open_tab(page, "Knowledge graph & privacy")

    # The first view is fitted: every node lies inside the canvas.
    first = graph_positions(page)
    assert first["dom"], "the sample graph has nodes"
    for pos in first["dom"].values():
        assert -1 <= pos["x"] <= first["w"] + 1 and -1 <= pos["y"] <= first["h"] + 1, pos

    # Table: the document column is on screen at 1280 px.
    header = page.locator("#rps-triples th").filter(has_text="document").first
    box = header.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1280, box
    assert "Apply filters" not in page.content()

    # Three marks, one vocabulary (on the settled table: see test_xss).
    wait_views_settled(page)
    for row in range(3):
        page.locator(f'#rps-triples [data-testid="cell-{row}-1"]').click()
        expect(page.locator("#rps-filter_moves")).to_contain_text(f"({row + 1} marked private by you)")
    wait_message(page, r"Triples: \d+ private, \d+ public")

    # Same graph after a mark: nodes do not move (seeded, settled, frozen).
    after = graph_positions(page)
    assert after["canvas"].keys() == first["canvas"].keys()
    for node, pos in first["canvas"].items():
        moved = after["canvas"][node]
        assert abs(moved["x"] - pos["x"]) < 1 and abs(moved["y"] - pos["y"]) < 1, node

    # A random split asks before replacing them; cancel keeps them.
    page.locator("#rps-random_split").click()
    wait_message(page, r"A random split replaces your \d private mark")
    expect(page.locator("#rps-confirm_random_split")).to_be_visible()
    page.screenshot(path=str(artifacts / "issue9-confirm.png"), full_page=True)
    page.locator("#rps-confirm_random_split_no").click()
    expect(page.locator("#rps-confirm_random_split")).to_be_hidden()
    page.locator("#rps-random_split").click()
    page.locator("#rps-confirm_random_split_yes").click()
    wait_message(page, r"Random split\.")

    # Undo puts the three marks back; clearing asks first.
    page.locator("#rps-undo_marks").click()
    wait_message(page, r"Undone")
    expect(page.locator("#rps-filter_moves")).to_contain_text("3 marked private by you")
    page.locator("#rps-clear_private").click()
    wait_message(page, r"Clear all 3 private mark")
    page.locator("#rps-confirm_clear_private_yes").click()
    wait_message(page, r"Cleared all private marks")
    page.locator("#rps-undo_marks").click()
    expect(page.locator("#rps-filter_moves")).to_contain_text("3 marked private by you", timeout=30_000)
    page.screenshot(path=str(artifacts / "issue9-graph-1280.png"), full_page=True)

    # Clearing the workspace asks first.
    open_tab(page, "Documents")
    page.locator("#rps-clear_workspace").click()
    wait_message(page, r"Clear the workspace: \d+ document")
    page.locator("#rps-confirm_clear_workspace_no").click()
    expect(page.locator("#rps-documents_summary")).to_contain_text("document(s)")
    assert not page.dialogs


def test_a_long_extraction_shows_progress_and_can_be_cancelled(page, studio_url, artifacts):
    page.goto(studio_url)
    wait_message(page, r"\d+ triple\(s\)")
    expect(page.locator("#rps-documents_summary")).to_contain_text(re.compile(r"\d+ triple\(s\)"))
    summary = page.locator("#rps-documents_summary").inner_text()
    long_text = " ".join(
        f"Mara Voss{i} works for Lindqvist Robotics. Lindqvist Robotics is located in Harrow Vale."
        for i in range(800)
    )
    page.locator("#rps-paste_title input, #rps-paste_title textarea").first.fill("long")
    page.locator("#rps-paste_text textarea").fill(long_text)
    page.locator("#rps-add_text").click()
    wait_message(page, "Added document")
    page.locator("#rps-extract").click()
    expect(page.locator("#rps-extract_progress")).to_contain_text("spacy:", timeout=30_000)  # the bar
    page.screenshot(path=str(artifacts / "issue9-extract-progress.png"))
    page.locator("#rps-cancel_extract").click()
    wait_message(page, r"Extraction cancelled: (kept 0 new triple|the sources extracted so far are kept)")
    expect(page.locator("#rps-extract_progress")).to_contain_text("cancelled")
    triples = re.search(r"(\d+) triple\(s\)", summary).group(1)
    expect(page.locator("#rps-documents_summary")).to_contain_text(f"{triples} triple(s)")
    expect(page.locator("#rps-documents_summary")).to_contain_text("1 not extracted yet")

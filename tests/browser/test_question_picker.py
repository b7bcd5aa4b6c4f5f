"""Real retrieval files in a real browser: a file with bad records lists them and loads its good
records on request; the question picker shows one retrieval set's graph, with its own privacy marks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.graph_frames import evaluate_in_graph
from tests.browser.tabs import open_tab

pytestmark = pytest.mark.browser
# "All 40 entities and 25 triples shown." / "Showing 59 of 68 entities and 78 of 84 triples (..."
TRIPLES_TOTAL = r"(\d+) triples (?:shown|\()"

SLICE = Path(__file__).resolve().parents[1] / "data" / "popqa_slice.jsonl"


def wait_message(page, pattern: str) -> None:
    expect(page.locator("#rps-message")).to_contain_text(re.compile(pattern), timeout=90_000)


def choose(page, elem: str, option: str) -> None:
    page.locator(f"#{elem} input").click()
    page.get_by_role("option", name=re.compile(re.escape(option))).first.click()


def caption(page) -> str:
    return page.locator("#rps-graph .rps-caption").inner_text()


def test_bad_records_then_good_ones_then_pick_a_question(page, studio_url, artifacts, tmp_path):
    page.goto(studio_url)
    wait_message(page, r"\d+ triple\(s\)")

    first = SLICE.read_text(encoding="utf-8").splitlines()[0]
    bad = json.dumps({"question": "Who?", "ctxs": [{"title": "t", "text": 5}]})
    upload = tmp_path / "popqa_two.jsonl"
    upload.write_text("\n".join([first, '{"question": broken', bad]) + "\n", encoding="utf-8")
    page.locator("#rps-upload input[type=file]").set_input_files(str(upload))
    wait_message(page, r"add the upload to them, or replace them")  # the workspace holds the sample
    page.locator("#rps-upload_merge").click()
    wait_message(page, r"Load the 1 good record\(s\)")
    errors = page.locator("#rps-upload_errors")
    expect(errors).to_contain_text("line 2")
    expect(errors).to_contain_text("line 3")
    expect(errors).to_contain_text("ctxs[0].text")
    page.locator("#rps-load_good_records").click()
    wait_message(page, r"Loaded the good records of popqa_two\.jsonl")
    expect(page.locator("#rps-documents_summary")).to_contain_text("empty passage(s)")
    expect(page.locator("#rps-documents")).to_contain_text("(empty passage)")
    page.screenshot(path=str(artifacts / "picker-01-documents.png"), full_page=True)

    page.locator("#rps-extract").click()
    wait_message(page, r"spacy: [1-9]\d* new triple")
    # the views (the graph's caption too) re-render in a follow-up event after the message
    expect(page.locator("#rps-documents_summary")).not_to_contain_text("not extracted yet")

    open_tab(page, "Knowledge graph & privacy")
    whole = caption(page)
    choose(page, "rps-scope", "What is Henry Feilden's occupation?")
    wait_message(page, r"Showing the graph of .What is Henry Feilden's occupation\?. \(25 passages\)")
    expect(page.locator("#rps-graph .rps-caption")).not_to_have_text(whole)
    total_in_set = int(re.search(TRIPLES_TOTAL, caption(page)).group(1))
    assert total_in_set < int(re.search(TRIPLES_TOTAL, whole).group(1))
    before_split = page.locator("#rps-graph iframe").get_attribute("srcdoc")
    page.locator("#rps-random_split").click()
    wait_message(page, r"Random split\. Triples: \d+ private.*Sampling: connected")
    expect(page.locator("#rps-graph .rps-caption")).to_contain_text(f"{total_in_set} triples")
    expect(page.locator("#rps-graph iframe")).not_to_have_attribute("srcdoc", before_split)
    assert evaluate_in_graph(page, "rps-graph", "window.network.body.data.edges.get().length") > 0
    page.wait_for_timeout(1500)  # let the layout settle before the picture
    page.locator("#rps-graph iframe").screenshot(path=str(artifacts / "picker-02-question-graph.png"))

    choose(page, "rps-scope", "Whole corpus")
    wait_message(page, r"Showing the whole corpus as one graph\. Nothing is private")
    choose(page, "rps-scope", "What is Henry Feilden's occupation?")
    wait_message(page, r"Showing the graph of .* \d+ private")
    assert not page.dialogs

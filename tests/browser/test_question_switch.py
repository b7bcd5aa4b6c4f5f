"""Sample corpus: a random split and a mask rewrite on question 1, then questions 2 and 3: every view
follows the question (no stale dropdown value breaks the page), and undo is the question's own."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.tabs import open_tab

pytestmark = pytest.mark.browser

SLOW = 90_000
TOASTS = '[data-testid="toast-body"]'
QUESTIONS = [
    "Where does Mara Voss work?",
    "Which doctor treats Tomas Reyl?",
    "Where is Corvane Logistics located?",
]


def wait_message(page, pattern: str) -> None:
    expect(page.locator("#rps-message")).to_contain_text(re.compile(pattern), timeout=SLOW)


def choose_question(page, question: str) -> None:
    page.locator("#rps-scope input").click()
    page.get_by_role("option", name=re.compile(re.escape(question))).first.click()
    wait_message(page, rf"Showing the graph of .{re.escape(question)}.")


def table_text(page) -> str:
    return page.locator("#rps-triples").inner_text()


def test_switching_questions_after_a_rewrite_keeps_every_view_on_the_question(page, studio_url, artifacts):
    page.goto(studio_url)
    wait_message(page, r"\d+ triple\(s\)")
    open_tab(page, "Knowledge graph & privacy")
    choose_question(page, QUESTIONS[0])
    page.locator("#rps-random_split").click()
    wait_message(page, r"Random split\. Triples: \d+ private")
    expect(page.locator("#rps-undo_marks")).to_have_text("Undo (1)", timeout=SLOW)

    open_tab(page, "Rewrite (Eraser4RAG)")
    boxes = page.locator("#rps-rewrite_erasers")
    for label in boxes.locator("label").all():
        if label.locator("input").is_checked():
            label.locator("input").uncheck()
    boxes.get_by_label("mask", exact=True).check()
    page.locator("#rps-rewrite_run").click()
    wait_message(page, r"mask: (\d+) of \1 document\(s\) rewritten")
    expect(page.locator("#rps-rewrite_document input")).not_to_have_value("", timeout=SLOW)

    open_tab(page, "Knowledge graph & privacy")
    for question, must_show in ((QUESTIONS[1], "Tomas Reyl"), (QUESTIONS[2], "Corvane Logistics")):
        choose_question(page, question)
        expect(page.locator("#rps-triples")).to_contain_text(must_show, timeout=SLOW)
        expect(page.locator("#rps-undo_marks")).to_have_text("Undo", timeout=SLOW)
        expect(page.locator("#rps-undo_marks")).to_be_disabled()
        expect(page.locator("#rps-scope input")).to_have_value(re.compile(re.escape(question)))
    assert "Mara Voss" not in table_text(page) or "Corvane" in table_text(page)
    expect(page.locator(TOASTS)).to_have_count(0)
    open_tab(page, "Rewrite (Eraser4RAG)")
    expect(page.locator("#rps-rewrite_runs")).to_contain_text("No rewrites yet", timeout=SLOW)
    expect(page.locator("#rps-rewrite_document input")).to_have_value("")
    page.screenshot(path=str(artifacts / "question-switch.png"), full_page=True)

    # back on question 1: its run, its marks and its undo step are still there
    open_tab(page, "Knowledge graph & privacy")
    choose_question(page, QUESTIONS[0])
    expect(page.locator("#rps-undo_marks")).to_have_text("Undo (1)", timeout=SLOW)
    open_tab(page, "Rewrite (Eraser4RAG)")
    expect(page.locator("#rps-rewrite_runs")).to_contain_text("mask", timeout=SLOW)
    expect(page.locator(TOASTS)).to_have_count(0)
    assert not page.dialogs

"""The review tab in headless Chromium against a running studio whose store holds three tasks:
keyboard accept, edit, undo, a second annotator in overlap mode, and user text kept inert."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from core.eraser4rag.annotation.candidates import CandidateProposal
from core.eraser4rag.annotation.scoring import Scores
from storage.annotation_store import AnnotationStore
from tests.annotation_fixtures import tiny_task
from tests.browser.conftest import ARTIFACTS, REPO, _free_port, _wait_until_served
from tests.browser.tabs import open_tab

pytestmark = pytest.mark.browser
XSS = "<img src=x onerror=\"document.title='pwned'\">"


@pytest.fixture(scope="module")
def review_studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("review")
    db = folder / "studio.sqlite3"
    with AnnotationStore(db) as store:
        ids = store.add_tasks(
            [tiny_task(f"d{i}", f"Mara Voss lives in Harrow Vale. Note {i} {XSS}") for i in range(3)]
        )
        for i, task_id in enumerate(ids):
            store.add_candidate(
                task_id,
                CandidateProposal("model", "openai:m", f"Candidate {i} {XSS}"),
                Scores(0.0, 1.0, (), "spacy", i != 1),
            )
    port = _free_port()
    env = dict(
        os.environ,
        GRADIO_ANALYTICS_ENABLED="False",
        HF_HUB_OFFLINE="1",
        PYTHONPATH=str(REPO),
        GRADIO_TEMP_DIR=str(folder / "gradio"),
    )
    log = folder / "studio.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, str(REPO / "app.py"), "--port", str(port), "--db", str(db)],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        _wait_until_served(url, process, log)
        yield url, db
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_keyboard_accept_edit_undo_and_a_second_annotator(page, review_studio, artifacts) -> None:
    url, db = review_studio
    page.goto(url)
    open_tab(page, "Review rewrites")
    page.locator("#rps-review_annotator textarea, #rps-review_annotator input").first.fill("ann")
    page.locator("#rps-review_load").click()
    candidate = page.locator("#rps-review_candidate")
    expect(candidate).to_contain_text("Candidate 0")
    expect(page.locator("#rps-review_original .rps-private")).to_contain_text(
        "Mara Voss lives in Harrow Vale"
    )
    expect(candidate).to_contain_text("<img src=x")  # shown as text, never parsed
    page.locator("body").click(position={"x": 5, "y": 5})
    # the private triples, named with their sentences
    expect(page.locator("#rps-review_private")).to_contain_text("Mara Voss lives in Harrow Vale")
    page.keyboard.press("a")
    # pending honours the automatic filter: candidate 1 failed it and is listed under filtered-out only
    expect(candidate).to_contain_text("Candidate 2")
    expect(page.locator("#rps-review_progress")).to_contain_text("ann")
    # decided at once: faster than anyone reads the item
    expect(page.locator("#rps-review_status")).to_contain_text("Warning: decided in")
    page.keyboard.press("e")
    edit = page.locator("#rps-review_edit textarea")
    edit.fill("Mara Voss is an architect.")
    edit.press("Control+Enter")
    expect(page.locator("#rps-review_status")).to_contain_text("Nothing left in")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("u")
    expect(candidate).to_contain_text("Candidate 2")
    expect(page.locator("#rps-review_status")).to_contain_text("Undone")
    expect(edit).to_have_value("Mara Voss is an architect.")  # the undone edit's text is back
    page.screenshot(path=str(artifacts / "review-tab.png"), full_page=True)
    with AnnotationStore(db) as store:
        decisions = [(p.annotator, p.reviewed, p.accepted, p.edited) for p in store.progress()]
        assert decisions == [("ann", 1, 1, 0)]  # the edit was undone
    # a second annotator in overlap mode reviews the item ann accepted
    page.locator("#rps-review_annotator textarea, #rps-review_annotator input").first.fill("bob")
    page.locator("#rps-review_overlap input").check()
    expect(candidate).to_contain_text("Candidate 0")
    scores = page.locator("#rps-review_scores")
    expect(scores).to_contain_text("hidden until you decide")  # blind: ann's decision is not shown
    expect(scores).not_to_contain_text("accept")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("r")
    expect(page.locator("#rps-review_progress")).to_contain_text("Cohen's kappa")
    assert page.title() != "pwned"
    with AnnotationStore(db) as store:
        assert store.decision_pairs("ann", "bob") == [("accept", "reject")]


def test_training_panel_shows_the_stored_run_live(page, review_studio) -> None:
    """A run recorded in the store (by this studio's background job, the CLI or another process)
    appears with its curve after a reload, and grows while it runs."""
    url, db = review_studio
    with AnnotationStore(db) as store:
        run = store.start_run("sft", {"learning_rate": 5e-5}, 2)
        store.log_points(run, [{"step": 1, "loss": 2.0}, {"step": 2, "loss": 1.4}])
    page.goto(url)
    open_tab(page, "Review rewrites")
    page.get_by_text("Train the rewriter on accepted items").click()
    status = page.locator("#rps-train_status")
    expect(status).to_contain_text(f"Run {run} (sft): running, 2 point(s)", timeout=20_000)
    curve = page.locator("#rps-train_curve")
    expect(curve).to_contain_text("loss", timeout=20_000)  # the legend of real points
    assert "NaN" not in curve.inner_text() and "Infinity" not in curve.inner_text()
    with AnnotationStore(db) as store:
        store.log_points(run, [{"step": 3, "loss": 1.1}])
        store.finish_run(run, "finished", "3 point(s)", "/tmp/adapter")
    expect(status).to_contain_text("finished, 3 point(s)", timeout=20_000)
    page.locator("#rps-train_curve").screenshot(path=str(ARTIFACTS / "train-curve.png"))
    page.reload()
    open_tab(page, "Review rewrites")
    page.get_by_text("Train the rewriter on accepted items").click()
    expect(page.locator("#rps-train_status")).to_contain_text("finished, 3 point(s)", timeout=20_000)


def test_two_annotators_submitting_at_the_same_moment_both_land(review_studio) -> None:
    """Two HTTP clients (two sessions) show the same item in overlap mode and decide at once."""
    import threading

    from gradio_client import Client

    url, db = review_studio
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def annotate(name: str, endpoint: str) -> None:
        try:
            client = Client(url, verbose=False)
            client.predict(name, "all", True, api_name="/review_show")
            barrier.wait(30)
            client.predict(name, "all", True, api_name=endpoint)
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)

    threads = [
        threading.Thread(target=annotate, args=("carol", "/review_accept")),
        threading.Thread(target=annotate, args=("dave", "/review_reject")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    with AnnotationStore(db) as store:
        assert store.decision_pairs("carol", "dave") == [("accept", "reject")]


def test_a_decision_made_meanwhile_in_another_tab_is_not_overwritten(review_studio) -> None:
    """One annotator, two sessions on the same item: the second decision is refused with what to
    do, and goes through once that session has shown the item again."""
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    url, db = review_studio
    first, second = Client(url, verbose=False), Client(url, verbose=False)
    for client in (first, second):
        client.predict("erin", "all", True, api_name="/review_show")
    first.predict("erin", "all", True, api_name="/review_accept")
    with pytest.raises(AppError) as refused:
        second.predict("erin", "all", True, api_name="/review_reject")
    assert "changed elsewhere" in str(refused.value) and "Reload the item" in str(refused.value)
    with AnnotationStore(db) as store:
        candidate = store.next_item("erin", "all").candidate.id
        assert store.review_version(candidate, "erin") == 1
        assert [p.accepted for p in store.progress() if p.annotator == "erin"] == [1]
    second.predict("erin", "all", True, api_name="/review_show")
    second.predict("erin", "all", True, api_name="/review_reject")
    with AnnotationStore(db) as store:
        assert store.review_version(candidate, "erin") == 2
        assert [(p.accepted, p.rejected) for p in store.progress() if p.annotator == "erin"] == [(0, 1)]

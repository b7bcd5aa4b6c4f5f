"""Candidate generation: a chat model over real HTTP (the project's OpenAI-compatible server on
127.0.0.1), the embedded SmolLM2, and an eraser of the studio (offline), scored and stored."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from core.eraser4rag.annotation.run import make_source, run_candidates
from core.eraser4rag.annotation.scoring import passes_filter
from core.extract import get_extractor
from core.llm import LocalChatClient
from core.openai_server import serve
from core.settings import Settings
from storage.annotation_store import AnnotationStore
from tests.annotation_fixtures import popqa_tasks, tiny_task

SECRET = "sk-test-never-stored-4f1e2d"


@pytest.fixture
def store(tmp_path: Path):
    with AnnotationStore(tmp_path / "studio.sqlite3") as opened:
        yield opened


def test_paper_filter_thresholds():
    assert passes_filter(0.0, 0.9, 0.0, 0.8)
    assert not passes_filter(0.0, 0.8, 0.0, 0.8)  # r_pub must be above 0.8
    assert not passes_filter(0.5, 1.0, 0.0, 0.8)
    assert passes_filter(0.0, None, 0.0, 0.8)  # nothing public to keep


def test_model_candidates_over_http_with_retries_bounded_concurrency_and_no_key(
    store, tmp_path, monkeypatch, caplog
):
    tasks = popqa_tasks()  # 5 tasks: the documents of the slice holding a private triple
    ids = store.add_tasks(tasks)
    tasks = [replace(t, id=i) for t, i in zip(tasks, ids, strict=True)]
    lock = threading.Lock()
    state = {"calls": 0, "running": 0, "peak": 0}

    def responder(messages):
        with lock:
            state["calls"] += 1
            call = state["calls"]
            state["running"] += 1
            state["peak"] = max(state["peak"], state["running"])
        try:
            time.sleep(0.05)
            if call <= 2:
                raise RuntimeError("overloaded")  # HTTP 500: the client retries with backoff
            document = messages[-1]["content"].split("Document:\n", 1)[1].split("\n\nAnswer with", 1)[0]
            return f"Here is the rewritten document:\n{document[:80]}"
        finally:
            with lock:
                state["running"] -= 1

    server, base_url = serve(responder, model_name="annotator-model")
    monkeypatch.setenv("RPS_LLM_API_KEY", SECRET)
    caplog.set_level(logging.DEBUG)
    try:
        settings = Settings(
            db=str(tmp_path / "studio.sqlite3"),
            llm_base_url=base_url,
            llm_model="annotator-model",
            annotate_concurrency=2,
            annotate_retries=3,
            annotate_backoff_s=0.01,
        )
        seen: list[tuple[int, int]] = []
        report = run_candidates(
            store,
            tasks,
            make_source("model", settings),
            get_extractor("spacy", settings),
            settings,
            progress=lambda done, total: seen.append((done, total)),
        )
    finally:
        server.shutdown()
        server.server_close()
    assert report.stored == len(tasks) and report.failed == []
    assert state["peak"] <= 2 and state["calls"] == len(tasks) + 2
    assert seen[-1] == (len(tasks), len(tasks))
    stored = [c for i in ids for c in store.candidates(i)]
    assert {c.source for c in stored} == {"openai:annotator-model"}
    assert all(c.prompt == "annotate_rewrite.txt" and c.r_pri is not None for c in stored)
    assert all(not c.text.startswith("Here is") for c in stored)  # the preamble is cleaned
    assert all(c.prompt_tokens > 0 and c.completion_tokens > 0 for c in stored)
    assert report.tokens_estimated  # a plain responder reports no usage: counts are estimated and say so
    # filtered-out candidates stay reviewable
    assert store.next_item("ann", view="filtered-out") is not None or all(c.passed_filter for c in stored)
    assert SECRET.encode() not in (tmp_path / "studio.sqlite3").read_bytes()
    for extra in tmp_path.glob("studio.sqlite3-*"):
        assert SECRET.encode() not in extra.read_bytes()
    assert SECRET not in caplog.text


def test_failing_endpoint_is_reported_per_task_and_the_rest_is_stored(store, tmp_path):
    tasks = popqa_tasks()[:3]
    ids = store.add_tasks(tasks)
    tasks = [replace(t, id=i) for t, i in zip(tasks, ids, strict=True)]
    server, base_url = serve(lambda messages: (_ for _ in ()).throw(RuntimeError("down")), model_name="m")
    try:
        settings = Settings(llm_base_url=base_url, llm_model="m", annotate_retries=1, annotate_backoff_s=0.01)
        report = run_candidates(
            store, tasks, make_source("model", settings), get_extractor("spacy", settings), settings
        )
    finally:
        server.shutdown()
        server.server_close()
    assert report.stored == 0 and len(report.failed) == 3
    assert "HTTP 500" in report.failed[0] and "document" in report.failed[0]


def test_embedded_model_through_the_server_reports_real_token_counts(store, tmp_path):
    task = tiny_task()
    (task_id,) = store.add_tasks([task])
    server, base_url = serve(LocalChatClient(""), model_name="smollm2")
    try:
        settings = Settings(llm_base_url=base_url, llm_model="smollm2", rewriter_max_new_tokens=12)
        report = run_candidates(
            store,
            [replace(task, id=task_id)],
            make_source("model", settings),
            get_extractor("spacy", settings),
            settings,
        )
    finally:
        server.shutdown()
        server.server_close()
    (candidate,) = store.candidates(task_id)
    assert report.stored == 1 and not candidate.tokens_estimated
    assert candidate.prompt_tokens > 50 and 0 < candidate.completion_tokens <= 12


def test_eraser_candidates_offline_graph_guided_with_verify(store, tmp_path):
    tasks = popqa_tasks()
    ids = store.add_tasks(tasks)
    tasks = [replace(t, id=i) for t, i in zip(tasks, ids, strict=True)]
    settings = Settings()
    report = run_candidates(
        store,
        tasks,
        make_source("graph-guided", settings, verify=True),
        get_extractor("spacy", settings),
        settings,
    )
    assert report.stored == len(tasks)
    stored = [c for i in ids for c in store.candidates(i)]
    assert {c.source for c in stored} == {"eraser:graph-guided+verify"}
    assert all(c.r_pri == 0.0 for c in stored)  # verify removes what re-extraction still finds
    assert sum(c.passed_filter for c in stored) == report.passed
    assert store.tasks_without_candidate_from("eraser:graph-guided+verify") == [
        t for t in store.tasks() if t.id not in ids
    ]

"""Rewrite runs: kept with their definition in a real SQLite file, exported, marked stale, resumed.

The sample corpus, the real spaCy extractor and the real `mask` eraser; nothing is mocked.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from alembic import command

from core.eraser4rag.erasers import get_eraser
from core.eraser4rag.erasers.base import EraseRequest, Rewrite
from core.eraser4rag.erasers.evaluation import evaluate_rewrites
from core.eraser4rag.rewrites import RewriteRun, surviving_connections
from core.eraser4rag.workspace import FRESH, INCOMPLETE, STALE, Workspace
from core.extract import get_extractor
from core.serialize import BundleError, import_bundle
from core.settings import Settings
from storage.db import alembic_config, current_revision, head_revision, make_engine
from storage.repository import Repository, StorageError


@pytest.fixture(scope="module")
def settings() -> Settings:
    return Settings()


@pytest.fixture(scope="module")
def extractor(settings: Settings):
    return get_extractor("spacy", settings)


@pytest.fixture(scope="module")
def evaluate(extractor):
    return lambda request, rewrites, triples: evaluate_rewrites(request, rewrites, extractor, triples)


@pytest.fixture(scope="module")
def masked(settings: Settings, extractor, evaluate) -> Workspace:
    """The sample corpus, a seeded 25 % split and one complete `mask` run."""
    ws = Workspace()
    ws.load_sample()
    ws.extract(extractor)
    ws.random_split(0.25, 0)
    list(ws.run_erasers([get_eraser("mask", settings)], evaluate=evaluate))
    return ws


@pytest.fixture
def ws(masked: Workspace) -> Workspace:
    return copy.deepcopy(masked)


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repository]:
    with Repository(tmp_path / "studio.sqlite3") as repository:
        yield repository


class FailingAfter:
    """The real mask eraser behind a connection that drops after `ok` documents, as an endpoint can."""

    def __init__(self, inner, ok: int) -> None:
        self.inner, self.ok = inner, ok
        self.name, self.trained = inner.name, inner.trained

    def erase(self, request: EraseRequest, progress=None) -> Iterator[Rewrite]:
        for done, rewrite in enumerate(self.inner.erase(request, progress)):
            if done == self.ok:
                raise ConnectionError("the endpoint closed the connection")
            yield rewrite


def test_a_run_holds_every_document_with_metrics(ws: Workspace) -> None:
    run = ws.rewrite_runs["mask"]
    assert run.complete and ws.rewrite_state("mask") == FRESH
    assert [r.doc_id for r in run.rewrites] == [d.id for d in ws.corpus.documents]
    overall = run.metrics["overall"]
    assert overall["documents"] == len(ws.corpus.documents)
    assert 0.0 <= overall["r_pri"] <= overall["r_pub"] <= 1.0
    assert set(run.metrics["per_doc"]) == {d.id for d in ws.corpus.documents}
    changed = [r for r in run.rewrites if r.edits]
    assert changed and all(r.text != r.original for r in changed)


def test_save_and_reopen_keeps_runs_then_a_new_definition_makes_them_stale(
    ws: Workspace, tmp_path: Path
) -> None:
    path = tmp_path / "studio.sqlite3"
    with Repository(path) as repo:
        ws.save(repo, "demo")
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT COUNT(*) FROM rewrites").fetchone()[0]
    assert rows == len(ws.rewrite_runs["mask"].rewrites)

    with Repository(path) as repo:
        loaded = Workspace()
        loaded.load(repo, "demo")
        assert loaded.rewrite_runs == ws.rewrite_runs
        assert loaded.rewrite_state("mask") == FRESH

        loaded.random_split(0.25, 1)  # another definition: the run is kept, and stale
        assert loaded.rewrite_state("mask") == STALE
        loaded.save(repo, "demo")
    with Repository(path) as repo:
        again = Workspace()
        again.load(repo, "demo")
        assert again.rewrite_state("mask") == STALE
        assert again.rewrite_runs["mask"] == ws.rewrite_runs["mask"]  # nothing recomputed
        again.random_split(0.25, 0)  # back to the definition it came from
        assert again.rewrite_state("mask") == FRESH


def test_a_changed_document_text_makes_the_run_stale(ws: Workspace) -> None:
    doc = ws.corpus.documents[0]
    ws.corpus.documents[0] = replace(doc, text=doc.text + " One more sentence.")
    ws._set_corpus(ws.corpus)
    assert ws.rewrite_state("mask") == STALE


def test_running_again_reuses_a_fresh_run_and_recompute_replaces_it(
    ws: Workspace, settings, evaluate
) -> None:
    before = ws.rewrite_runs["mask"]
    list(ws.run_erasers([get_eraser("mask", settings)], evaluate=evaluate))
    assert ws.rewrite_runs["mask"] is before
    list(ws.run_erasers([get_eraser("mask", settings)], recompute=True, evaluate=evaluate))
    assert ws.rewrite_runs["mask"] is not before
    assert [r.text for r in ws.rewrite_runs["mask"].rewrites] == [r.text for r in before.rewrites]


def test_failure_mid_run_keeps_what_was_done_and_running_again_continues(
    ws: Workspace, settings, evaluate
) -> None:
    ws.forget_rewrites()
    failing = FailingAfter(get_eraser("mask", settings), ok=3)
    list(ws.run_erasers([failing], evaluate=evaluate))
    run = ws.rewrite_runs["mask"]
    assert len(run.rewrites) == 3 and ws.rewrite_state("mask") == INCOMPLETE
    stopped = ws.corpus.documents[3]
    assert [p.doc_id for p in run.problems] == [stopped.id]
    assert stopped.title in run.problems[0].message and "Run again" in run.problems[0].message
    assert not run.metrics  # metrics only for a complete set

    done_first = run.rewrites
    list(ws.run_erasers([get_eraser("mask", settings)], evaluate=evaluate))
    resumed = ws.rewrite_runs["mask"]
    assert resumed.complete and ws.rewrite_state("mask") == FRESH and not resumed.problems
    assert resumed.rewrites[:3] == done_first  # kept, not recomputed
    assert resumed.metrics["overall"]["documents"] == len(ws.corpus.documents)


def test_a_definition_without_private_triples_is_refused_naming_the_documents(
    ws: Workspace, settings
) -> None:
    ws.clear_private()
    with pytest.raises(ValueError, match="nothing is private yet"):
        list(ws.run_erasers([get_eraser("mask", settings)]))
    ws.marked_private = set()
    # a definition whose marks were all moved out by the filters has no private triple
    ws._set_definition(ws_definition_without_private(ws))
    with pytest.raises(ValueError, match=r"no private triple in these documents \('Harrow Vale News'"):
        list(ws.run_erasers([get_eraser("mask", settings)]))
    assert "mask" in ws.rewrite_runs  # the earlier run is still there


def ws_definition_without_private(ws: Workspace):
    from core.eraser4rag.filters import define_privacy

    return define_privacy(ws.all_keys(), set(), ws.query_keys())


def test_export_and_import_carry_the_runs_with_their_definition(ws: Workspace, repo: Repository) -> None:
    ws.save(repo, "demo")
    text = repo.export_json("demo")
    bundle = json.loads(text)
    assert [run["definition"] for run in bundle["rewrites"]] == ["default"]
    stored = repo.import_json(text, name="copy")
    imported = Workspace()
    imported.load(repo, stored)
    assert imported.rewrite_runs == ws.rewrite_runs and imported.rewrite_state("mask") == FRESH

    broken = json.loads(text)
    changed = next(i for i, r in enumerate(broken["rewrites"][0]["rewrites"]) if r["edits"])
    broken["rewrites"][0]["rewrites"][changed]["edits"][0]["original_span"] = [5, 1]
    where = rf"rewrites\[0\]\.rewrites\[{changed}\]\.edits\[0\]\.original_span"
    with pytest.raises(StorageError, match=where):
        repo.import_json(json.dumps(broken), name="broken")
    assert "broken" not in {s.name for s in repo.list_corpora()}  # all or nothing
    broken = json.loads(text)
    broken["rewrites"][0]["doc_ids"][2] = "nowhere"
    with pytest.raises(BundleError, match=r"rewrites\[0\]\.doc_ids\[2\]: no document with id 'nowhere'"):
        import_bundle(broken)


def test_runs_outlive_cleared_marks_through_save_export_and_import(ws: Workspace, repo: Repository) -> None:
    ws.clear_private()
    assert ws.rewrite_state("mask") == STALE
    ws.save(repo, "demo")  # the definition is deleted; its runs stay
    stored = repo.import_json(repo.export_json("demo"), name="copy")
    imported = Workspace()
    imported.load(repo, stored)
    assert imported.rewrite_runs == ws.rewrite_runs and imported.rewrite_state("mask") == STALE


def test_migration_from_the_previous_head_keeps_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    engine = make_engine(path)
    config = alembic_config()
    previous = "0001_initial"
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, previous)
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO corpora (id, name, created_at, updated_at, extractor, meta) "
            "VALUES (1, 'old', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'spacy', '{}')"
        )
        connection.exec_driver_sql(
            "INSERT INTO documents (corpus_id, position, doc_id, title, text, source) "
            "VALUES (1, 0, 'd1', 'Old', 'Alice works at Acme.', '')"
        )
    assert current_revision(engine) == previous
    engine.dispose()
    with Repository(path) as repo:
        assert current_revision(make_engine(path)) == head_revision()
        corpus, _ = repo.load_corpus("old")
        assert [d.text for d in corpus.documents] == ["Alice works at Acme."]
        assert repo.load_rewrites("old") == []
        run = RewriteRun("mask", False, True, "f", ("d1",), definition_name="default")
        repo.save_rewrites("old", [run])
        assert repo.load_rewrites("old") == [run]


def test_surviving_connections_give_one_path_per_connected_private_triple() -> None:
    private = ("a", "r", "c")
    path = surviving_connections([private], [("a", "x", "b"), ("b", "y", "c")])
    assert path == {private: (("a", "x", "b"), ("b", "y", "c"))}
    assert surviving_connections([private], [("a", "x", "b")]) == {}
    assert surviving_connections([private], [private]) == {private: (private,)}


@pytest.fixture
def reader_endpoint():
    """A real OpenAI-compatible HTTP endpoint whose reader quotes the passages it was given;
    `fail_from` makes it answer HTTP 500 from that call on, as a failing endpoint does."""
    from core.openai_server import serve

    state = {"calls": 0, "fail_from": None}

    def respond(messages):
        state["calls"] += 1
        if state["fail_from"] is not None and state["calls"] >= state["fail_from"]:
            raise RuntimeError("model overloaded")
        prompt = messages[-1]["content"]
        return prompt.split("Question:")[0]

    server, url = serve(respond)
    yield url, state
    server.shutdown()
    server.server_close()


def _answer_with(settings: Settings):
    from core.eraser4rag.erasers.answer import answer_question

    return lambda question, titles, texts: answer_question(question, titles, texts, settings)


def test_downstream_accuracy_reads_original_and_rewritten_texts(ws: Workspace, reader_endpoint) -> None:
    from core.eraser4rag.erasers.answer import answer_is_correct

    url, _state = reader_endpoint
    settings = Settings(llm_base_url=url, llm_model="quoting-reader")
    run = ws.measure_accuracy("mask", _answer_with(settings), answer_is_correct)
    queries = [q for q in ws.corpus.queries if q.answers]
    assert run.accuracy["records"] == len(queries) and not run.accuracy["stopped"]
    by_id = {d.id: d for d in ws.corpus.documents}
    expected_rewritten = [  # the reader quotes each passage with its title
        answer_is_correct(
            " ".join(f"{by_id[d].title}: {run.rewrite_of(d).text}" for d in q.doc_ids), q.answers
        )
        for q in queries
    ]
    assert [row["correct_rewritten"] for row in run.accuracy["answers"]] == expected_rewritten
    assert run.accuracy["original"] == 1.0  # every gold answer is in the original passages
    assert all(answer_is_correct(" ".join(by_id[d].text for d in q.doc_ids), q.answers) for q in queries)
    assert ws.rewrite_runs["mask"].accuracy == run.accuracy  # kept with the run


def test_a_reader_failing_mid_way_keeps_the_answered_queries(
    ws: Workspace, reader_endpoint, tmp_path
) -> None:
    from core.eraser4rag.erasers.answer import answer_is_correct

    url, state = reader_endpoint
    state["fail_from"] = 4  # two queries answered (two calls each), the third fails
    settings = Settings(llm_base_url=url, llm_model="failing-reader", llm_timeout_s=5)
    run = ws.measure_accuracy("mask", _answer_with(settings), answer_is_correct)
    second = [q for q in ws.corpus.queries if q.answers][1]
    assert run.accuracy["records"] == 1 and len(run.accuracy["answers"]) == 1
    assert second.text in run.accuracy["stopped"] and "model overloaded" in run.accuracy["stopped"]
    with Repository(tmp_path / "s.sqlite3") as repo:
        ws.save(repo, "demo")
        again = Workspace()
        again.load(repo, "demo")
    assert again.rewrite_runs["mask"].accuracy == run.accuracy


def test_runs_belong_to_their_retrieval_set(masked: Workspace, settings, evaluate) -> None:
    ws = copy.deepcopy(masked)
    query = next(q for q in ws.corpus.queries if len(q.doc_ids) > 1)
    ws.set_scope(query.id)
    assert ws.rewrite_runs == {}  # the whole corpus's runs are not this question's
    ws.random_split(0.5, 0)
    list(ws.run_erasers([get_eraser("mask", settings)], evaluate=evaluate))
    run = ws.rewrite_runs["mask"]
    assert run.doc_ids == query.doc_ids and run.definition_name == f"default@{query.id}"
    ws.set_scope(None)
    assert ws.rewrite_state("mask") == FRESH  # the corpus-wide run is untouched
    ws.set_scope(query.id)
    assert ws.rewrite_state("mask") == FRESH and ws.rewrite_runs["mask"] is run


def test_llm_each_on_a_real_endpoint_empty_reply_then_failure_then_resume(ws: Workspace, evaluate) -> None:
    """A real OpenAI-compatible HTTP endpoint: an empty rewrite, one good one, then HTTP 500s."""
    from core.openai_server import serve

    state = {"calls": 0, "failing": True}

    def respond(messages):
        state["calls"] += 1
        if state["calls"] == 1:
            return ""
        if state["calls"] >= 3 and state["failing"]:
            raise RuntimeError("upstream timeout")
        return "A passage about the weather."

    server, url = serve(respond)
    try:
        settings = Settings(llm_base_url=url, llm_model="test-model", llm_timeout_s=5)
        request = ws.rewrite_request()
        needing = [d for d in request.documents if request.private_keys_of(d.id)]
        ws.forget_rewrites()
        list(ws.run_erasers([get_eraser("llm-each", settings)], evaluate=evaluate))
        run = ws.rewrite_runs["llm-each"]
        assert ws.rewrite_state("llm-each") == INCOMPLETE
        assert [p.doc_id for p in run.problems] == [needing[0].id, needing[2].id]
        assert "empty rewrite" in run.problems[0].message and needing[0].title in run.problems[0].message
        assert "upstream timeout" in run.problems[1].message and needing[2].title in run.problems[1].message
        order = [d.id for d in request.documents]
        assert [r.doc_id for r in run.rewrites] == order[: order.index(needing[2].id)]

        state["failing"] = False
        list(ws.run_erasers([get_eraser("llm-each", settings)], evaluate=evaluate))
        resumed = ws.rewrite_runs["llm-each"]
        assert ws.rewrite_state("llm-each") == FRESH and len(resumed.rewrites) == len(order)
        assert resumed.rewrites[: len(run.rewrites)] == run.rewrites  # the earlier ones were kept
        assert resumed.rewrite_of(needing[2].id).text == "A passage about the weather."
        assert [p.doc_id for p in resumed.problems] == [needing[0].id]  # the empty rewrite is still listed
    finally:
        server.shutdown()
        server.server_close()


def test_autosave_keeps_rewrite_runs_of_a_browser_session(ws: Workspace, tmp_path: Path) -> None:
    from ui.sessions import LOCAL_USER, Autosaver, session_key

    path = tmp_path / "auto.sqlite3"
    key = session_key(LOCAL_USER, "0" * 32)
    with Repository(path) as repo:
        saver = Autosaver(repo)
        assert saver.save(ws, key, LOCAL_USER)
        assert not saver.save(ws, key, LOCAL_USER)  # nothing changed: nothing written
    with Repository(path) as repo:
        restored = Workspace()
        assert Autosaver(repo).restore(restored, key, LOCAL_USER)
    assert restored.rewrite_runs == ws.rewrite_runs and restored.rewrite_state("mask") == FRESH


def test_an_empty_rewrite_is_explained_by_the_kind_of_eraser() -> None:
    """A rule eraser empties a document whose every sentence stated a private fact (the Rewrite tab told
    graph-guided's user to "use graph-guided for this document"); a model's empty reply is a fault."""
    from core.eraser4rag.rewrites import _empty_rewrite_problem
    from core.types import Document

    doc = Document("d1", "Olav Eikeland", "Olav Eikeland is a Norwegian philosopher.")
    empty = Rewrite("d1", "graph-guided", doc.text, "", (), (), (), 0.0)
    rule = _empty_rewrite_problem("graph-guided", doc, empty)
    model = _empty_rewrite_problem("llm-each", doc, replace(empty, eraser="llm-each"))
    assert rule is not None and "every sentence" in rule.message and "Unmark" in rule.message
    assert model is not None and "Check the model or endpoint" in model.message
    assert _empty_rewrite_problem("graph-guided", doc, replace(empty, text="Olav Eikeland.")) is None

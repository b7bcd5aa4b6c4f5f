"""The annotation store on real SQLite files: schema, queue, reviews, agreement, runs, migration."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from core.eraser4rag.annotation.agreement import cohen_kappa
from core.eraser4rag.annotation.candidates import CandidateProposal
from core.eraser4rag.annotation.scoring import Scores
from storage.annotation_store import AnnotationStore, AnnotationStoreError, UndoneReview
from storage.db import head_revision, make_engine, upgrade_to
from storage.tables import Base
from tests.annotation_fixtures import tiny_task

GOOD = Scores(0.0, 1.0, (), "spacy", True)
BAD = Scores(1.0, 1.0, (("mara voss", "residence", "harrow vale"),), "spacy", False)


@pytest.fixture
def store(tmp_path: Path):
    with AnnotationStore(tmp_path / "a" / "studio.sqlite3") as opened:
        yield opened


def fill(store: AnnotationStore, n: int = 3) -> list[int]:
    ids = store.add_tasks([tiny_task(f"d{i}", f"Mara Voss lives in Harrow Vale {i}.") for i in range(n)])
    return [
        store.add_candidate(
            task_id, CandidateProposal("model", "openai:m", f"Mara Voss {i}."), GOOD if i % 2 == 0 else BAD
        )
        for i, task_id in enumerate(ids)
    ]


def test_wal_foreign_keys_and_schema_match_models(store: AnnotationStore, tmp_path: Path) -> None:
    path = tmp_path / "a" / "studio.sqlite3"
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    engine = make_engine(path)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    with pytest.raises(AnnotationStoreError, match="no annotation task"):
        store.add_candidate(999, CandidateProposal("model", "m", "x"), None)


def test_tasks_and_candidates_are_deduplicated(store: AnnotationStore) -> None:
    first = store.add_tasks([tiny_task("d1"), tiny_task("d1")])
    assert first[0] == first[1]
    proposal = CandidateProposal("eraser", "eraser:graph-guided", "She works as an architect.", notes=("n",))
    a = store.add_candidate(first[0], proposal, GOOD)
    assert store.add_candidate(first[0], proposal, GOOD) == a
    stored = store.candidate(a)
    assert (stored.r_pri, stored.r_pub, stored.passed_filter, stored.notes) == (0.0, 1.0, True, ("n",))
    task = store.task(first[0])
    assert task.private == tiny_task().private and task.private_spans == ((0, 31),)


def test_queue_views_reviews_undo_and_progress(store: AnnotationStore) -> None:
    candidates = fill(store, 4)  # 0 and 2 pass the automatic filter, 1 and 3 do not
    item = store.next_item("ann")
    assert item is not None and item.candidate.id == candidates[0] and item.remaining == 2
    store.review(candidates[0], "ann", "accept", seconds=1.5)
    assert store.next_item("ann").candidate.id == candidates[2]  # pending honours the filter
    assert (
        store.next_item("bob").candidate.id == candidates[2]
    )  # without overlap, reviewed items leave everyone's queue
    assert store.next_item("bob", overlap=True).candidate.id == candidates[0]
    filtered = store.next_item("ann", view="filtered-out")
    assert filtered is not None and filtered.candidate.id == candidates[1] and filtered.remaining == 2
    with pytest.raises(AnnotationStoreError, match="edited text"):
        store.review(candidates[1], "ann", "edit", "  ")
    store.review(candidates[1], "ann", "edit", "Someone lives somewhere.")
    assert store.next_item("ann", view="filtered-out").candidate.id == candidates[3]
    undone = store.undo_last_review("ann")
    assert undone == UndoneReview(candidates[1], "edit", "Someone lives somewhere.")  # the text comes back
    assert store.next_item("ann", view="filtered-out").candidate.id == candidates[1]
    store.review(candidates[2], "ann", "accept")
    assert store.undo_last_review("ann") == UndoneReview(candidates[2], "accept", "")
    store.review(candidates[0], "bob", "reject")
    disagreed = store.next_item("carol", view="disagreed")
    assert disagreed is not None and disagreed.candidate.id == candidates[0]
    assert set(disagreed.reviews) == {("ann", "accept"), ("bob", "reject")}
    progress = {p.annotator: p for p in store.progress()}
    assert (progress["ann"].reviewed, progress["ann"].accepted, progress["ann"].mean_seconds) == (1, 1, 1.5)
    assert progress["bob"].rejected == 1
    with pytest.raises(AnnotationStoreError, match="annotator"):
        store.next_item("   ")


def test_an_item_carries_the_asking_annotators_review_version(store: AnnotationStore) -> None:
    c = fill(store, 2)
    assert store.next_item("ann", view="all").version == 0
    store.review(c[0], "ann", "accept", expected_version=0)
    store.review(c[0], "bob", "reject")
    assert store.next_item("ann", view="all").version == 1
    store.review(c[0], "ann", "reject", expected_version=1)
    assert store.item(c[0], "all", "ann").version == 2
    assert store.item(c[0], "all", "bob").version == 1
    assert store.item(c[0]).version == 0  # nobody asking
    with pytest.raises(AnnotationStoreError, match="changed elsewhere"):
        store.review(c[0], "ann", "accept", expected_version=1)
    assert store.undo_last("ann") == c[0]
    assert store.item(c[0], "all", "ann").version == 3  # the undo is a change too


def test_a_tab_that_showed_an_undone_review_cannot_overwrite_the_pending_item(store: AnnotationStore) -> None:
    c = fill(store, 1)
    store.review(c[0], "ann", "accept", expected_version=0)
    stale_tab = store.review_version(c[0], "ann")  # 1: another tab still shows the accepted review
    assert store.undo_last("ann") == c[0]
    assert store.review_version(c[0], "ann") == 2
    with pytest.raises(AnnotationStoreError, match="changed elsewhere"):
        store.review(c[0], "ann", "edit", "Old view.", expected_version=stale_tab)
    assert store.next_item("ann").candidate.id == c[0]  # still pending, nothing overwritten
    store.review(c[0], "ann", "reject", expected_version=store.next_item("ann").version)
    assert store.review_version(c[0], "ann") == 3
    assert store.undo_last("ann") == c[0] and store.review_version(c[0], "ann") == 4


def test_accepted_examples_use_the_latest_edit_and_skip_rejections(store: AnnotationStore) -> None:
    c = fill(store, 3)
    store.review(c[0], "ann", "accept")
    store.review(c[1], "ann", "edit", "Mara Voss is an architect.")
    store.review(c[2], "ann", "accept")
    store.review(c[2], "bob", "reject")
    examples = {e.candidate_id: e.target for e in store.accepted_examples()}
    assert examples == {c[0]: "Mara Voss 0.", c[1]: "Mara Voss is an architect."}
    assert [target for _, target in store.accepted_pairs()] == ["Mara Voss 0.", "Mara Voss is an architect."]


def test_kappa_from_overlap_pairs(store: AnnotationStore) -> None:
    c = fill(store, 4)
    decisions = [("accept", "accept"), ("reject", "reject"), ("edit", "accept"), ("accept", "reject")]
    for cid, (a, b) in zip(c, decisions, strict=True):
        store.review(cid, "ann", a, "edited" if a == "edit" else "")
        store.review(cid, "bob", b)
    agreement = cohen_kappa(store.decision_pairs("ann", "bob"))
    assert agreement.items == 4 and agreement.observed == 0.75
    assert agreement.kappa == pytest.approx(0.5)  # p_o 0.75, p_e 0.5 on keep/reject labels


def test_parallel_reviews_all_land(store: AnnotationStore, tmp_path: Path) -> None:
    c = fill(store, 20)
    errors: list[Exception] = []

    def annotate(name: str) -> None:
        try:
            with AnnotationStore(tmp_path / "a" / "studio.sqlite3") as own:  # its own connection pool
                for cid in c:
                    own.review(cid, name, "accept")
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=annotate, args=(name,)) for name in ("ann", "bob", "carol")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.counts()["reviews"] == 60


def test_training_runs_record_curves_and_interrupted_runs_fail(store: AnnotationStore) -> None:
    run = store.start_run("sft", {"lr": 5e-5, "epochs": 3}, examples=4)
    store.log_points(run, [{"step": 1, "loss": 2.0}, {"step": 2, "loss": 1.5}])
    assert [p["loss"] for p in store.run(run).curve] == [2.0, 1.5]
    with pytest.raises(AnnotationStoreError, match="secrets"):
        store.start_run("sft", {"llm_api_key": "sk-x"})
    assert store.fail_interrupted_runs(silent_for_s=3600) == []
    assert store.fail_interrupted_runs(silent_for_s=-1) == [run]
    failed = store.run(run)
    assert failed.status == "failed" and "interrupted" in failed.message
    other = store.start_run("rl", {})
    store.finish_run(other, "finished", artefact_dir="/tmp/adapter")
    assert store.run(other).status == "finished"


def test_previous_release_database_upgrades_in_place(tmp_path: Path) -> None:
    """A database at 0003 (before the annotation tables) filled with rows upgrades, every row kept."""
    path = tmp_path / "old.sqlite3"
    engine = make_engine(path)
    upgrade_to(engine, "0003_rewrites")
    engine.dispose()
    with sqlite3.connect(path) as connection:
        connection.execute(
            "INSERT INTO users (name, password_hash, created_at) VALUES ('own', 'x', '2026-01-01')"
        )
        connection.execute(
            "INSERT INTO corpora (name, created_at, updated_at, extractor, meta, owner_id, visibility, kind) "
            "VALUES ('c', '2026-01-01', '2026-01-01', 'spacy', '{}', (SELECT max(id) FROM users), "
            "'private', 'saved')"
        )
        connection.execute(
            "INSERT INTO documents (corpus_id, position, doc_id, title, text, source) "
            "VALUES (1, 0, 'd', 't', 'Text.', '')"
        )
    tables = ("users", "corpora", "documents")
    before = _dump(path, tables)
    with AnnotationStore(path) as store:
        store.add_tasks([tiny_task()])
    assert _dump(path, tables) == before
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchone()[0] == head_revision()


def _dump(path: Path, tables: tuple[str, ...]) -> dict[str, list[tuple]]:
    """Every row of the tables; columns added by later revisions (version, content digest) are left
    out, so rows written by an older release compare equal after the upgrade."""
    later = {"version", "content_digest"}
    with sqlite3.connect(path) as connection:
        dump = {}
        for table in tables:
            columns = [c[1] for c in connection.execute(f"PRAGMA table_info({table})") if c[1] not in later]
            query = f"SELECT {', '.join(columns)} FROM {table} ORDER BY id"
            dump[table] = connection.execute(query).fetchall()
        return dump

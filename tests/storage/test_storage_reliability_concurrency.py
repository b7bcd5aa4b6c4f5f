"""Several real processes at once (issue 17): opening a new database, saving one workspace,
creating one name, first reviews by new annotators. Nothing is lost silently, nothing fails raw."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.eraser4rag.annotation.candidates import CandidateProposal
from core.eraser4rag.workspace import Workspace
from core.saving import SaveConflict
from storage.annotation_store import AnnotationStore, AnnotationStoreError
from storage.db import current_revision, head_revision, make_engine
from storage.repository import Repository
from tests.annotation_fixtures import tiny_task
from tests.reliability_workload import build_workspace, run_together

REPO = str(Path(__file__).resolve().parents[2])
PROCESSES = 8


def test_processes_open_a_new_database_at_once(store_target: str) -> None:
    results = run_together([["open", store_target]] * PROCESSES, REPO)
    assert results == ["opened"] * PROCESSES
    engine = make_engine(store_target)
    assert current_revision(engine) == head_revision()
    engine.dispose()


def test_mark_changes_of_concurrent_writers_are_merged(store_target: str) -> None:
    with Repository(store_target) as repo:
        build_workspace(300, 0).save(repo, "shared")
    results = run_together([["mark", store_target, "shared", str(i)] for i in range(PROCESSES)], REPO)
    assert all(r.startswith("saved ") for r in results), results
    added = {tuple(r.removeprefix("saved ").split("|")) for r in results}
    assert len(added) == PROCESSES
    with Repository(store_target) as repo:
        ws = Workspace()
        ws.load(repo, "shared")
        assert added <= ws.marked_private  # every writer's mark is there
        assert len(ws.marked_private) == len(build_workspace(300, 0).marked_private) + PROCESSES


def test_conflicting_content_changes_are_refused_with_what_to_do(store_target: str) -> None:
    with Repository(store_target) as repo:
        build_workspace(100, 0).save(repo, "shared")
    results = run_together([["edit", store_target, "shared", str(i)] for i in range(PROCESSES)], REPO)
    saved = [r for r in results if r.startswith("saved")]
    conflicts = [r for r in results if r.startswith("conflict")]
    assert len(saved) + len(conflicts) == PROCESSES, results
    assert len(saved) >= 1
    assert all("Load it again and re-apply your changes, or save under another name" in c for c in conflicts)
    with Repository(store_target) as repo:
        ws = Workspace()
        ws.load(repo, "shared")
        notes = [d.title for d in ws.corpus.documents if d.title.startswith("note ")]
    assert len(notes) == 1 and f"saved {notes[0]}" in saved  # the one that won is what is stored


def test_concurrent_first_saves_of_one_name_create_it_once(store_target: str) -> None:
    results = run_together([["create", store_target, "fresh", "10"] for _ in range(PROCESSES)], REPO)
    assert not [result for result in results if result.startswith("failed")], results
    outcomes = " ".join(results).split()
    assert len(outcomes) == 10 * PROCESSES, results
    assert outcomes.count("created") == 1 and outcomes.count("refused") == 10 * PROCESSES - 1


def test_concurrent_first_reviews_by_new_annotators_are_all_stored(store_target: str) -> None:
    with AnnotationStore(store_target) as store:
        task_id = store.add_tasks([tiny_task()])[0]
        candidate = store.add_candidate(task_id, CandidateProposal("person", "ann", "A rewrite."), None)
    threads = 25
    commands = [["review", store_target, str(candidate), f"p{i}", str(threads)] for i in range(PROCESSES)]
    results = run_together(commands, REPO)
    assert results == [" ".join(["ok"] * threads)] * PROCESSES
    with AnnotationStore(store_target) as store:
        assert store.counts()["reviews"] == threads * PROCESSES
        assert len(store.annotators()) == threads * PROCESSES
        assert store.review_version(candidate, "p0-0") == 1


def test_a_review_changed_elsewhere_is_refused_not_overwritten(store_target: str) -> None:
    with AnnotationStore(store_target) as store:
        task_id = store.add_tasks([tiny_task()])[0]
        candidate = store.add_candidate(task_id, CandidateProposal("person", "ann", "A rewrite."), None)
        seen = store.review_version(candidate, "ann")  # 0: not reviewed yet, in two tabs
        store.review(candidate, "ann", "accept", expected_version=seen)
        with pytest.raises(AnnotationStoreError, match="Reload the item and review again"):
            store.review(candidate, "ann", "reject", expected_version=seen)
        assert store.review_version(candidate, "ann") == 1
        store.review(candidate, "ann", "reject", expected_version=1)
        assert store.review_version(candidate, "ann") == 2


def test_a_stale_copy_with_other_content_is_refused_and_changes_nothing(store_target: str) -> None:
    with Repository(store_target) as repo:
        build_workspace(50, 0).save(repo, "shared")
        first, second = Workspace(), Workspace()
        first.load(repo, "shared")
        second.load(repo, "shared")
        first.add_text("One writer's note.", "first")
        first.save(repo, "shared")
        stored = repo.export_json("shared")
        second.add_text("Another writer's note.", "second")
        with pytest.raises(SaveConflict, match="Load it again and re-apply your changes"):
            second.save(repo, "shared")
        assert repo.export_json("shared") == stored
        second.save(repo, "shared copy")  # the way out the message names
        assert repo.name_taken("shared copy")

"""Review items from the studio's own marks: the review tab's buttons and the CLI's --workspace."""

from __future__ import annotations

import html
import json
from pathlib import Path

import gradio as gr
import pytest

from core.cli import main
from core.eraser4rag.annotation.export import fluent_examples
from core.eraser4rag.workspace import Workspace
from core.extract import get_extractor
from core.settings import Settings
from storage.annotation_store import AnnotationStore
from storage.repository import Repository
from ui.app import build_app


def endpoint(demo, api_name: str):
    return next(f.fn for f in demo.fns.values() if f.api_name == api_name)


@pytest.fixture(scope="module")
def marked() -> Workspace:
    ws = Workspace()
    ws.load_sample()
    ws.extract(get_extractor("spacy", Settings()))
    ws.set_scope("retriever-queries-q1")
    ws.random_split(0.5, 3)
    ws.set_scope(None)
    ws.random_split(0.2, 4)
    return ws


def test_review_tab_makes_items_from_the_workspace_and_exports_sft(marked: Workspace, tmp_path: Path) -> None:
    db = tmp_path / "studio.sqlite3"
    demo = build_app(Settings(db=str(db), sample_corpus=False))
    note, _progress = endpoint(demo, "review_generate")(marked, "mask")
    assert "task(s) from this workspace (whole corpus; question " in note
    assert "candidate(s) from mask stored" in note
    q1 = next(q for q in marked.corpus.queries if q.id == "retriever-queries-q1")
    assert repr(q1.text) in html.unescape(note)  # each definition the tasks come from is named
    with AnnotationStore(db) as store:
        tasks = store.tasks()
        assert tasks and {task.definition for task in tasks} == {"default", "default@retriever-queries-q1"}
        item = store.next_item("ann")
        # an item whose rewrite the SFT export keeps (an empty or broken rewrite is no target)
        while item is not None and not fluent_examples([(item.task, item.candidate.text)])[0]:
            item = store.next_item("ann", "all", after=item.candidate.id)
        assert item is not None
    with pytest.raises(gr.Error, match="no accepted item yet"):
        endpoint(demo, "review_export_sft")()
    with AnnotationStore(db) as store:
        store.review(item.candidate.id, "ann", "accept")
    message, path = endpoint(demo, "review_export_sft")()
    assert "Exported 1 accepted example" in message
    (line,) = Path(path).read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["completion"].strip() == item.candidate.text.strip()
    assert marked.scope is None  # the workspace's scope is left as it was


def test_review_tab_without_marks_says_what_to_do(tmp_path: Path) -> None:
    demo = build_app(Settings(db=str(tmp_path / "s.sqlite3"), sample_corpus=False))
    with pytest.raises(gr.Error, match="mark triples private"):
        endpoint(demo, "review_generate")(Workspace(), "mask")


def test_cli_tasks_take_a_saved_workspaces_marks(marked: Workspace, tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "studio.sqlite3")
    with Repository(db) as repo:
        marked.save(repo, "field-notes")
    assert main(["--db", db, "annotate", "tasks", "--workspace", "field-notes"]) == 0
    assert "from workspace field-notes" in capsys.readouterr().out
    with AnnotationStore(db) as store:
        batches = {task.batch for task in store.tasks()}
    assert batches == {"workspace:field-notes"}
    assert main(["--db", db, "annotate", "tasks", "--workspace", "nope"]) != 0
    assert "no saved corpus named 'nope'" in capsys.readouterr().err


def test_items_made_again_after_the_marks_changed_replace_the_unreviewed_old_ones(tmp_path: Path) -> None:
    """The walk-through found an item still listing earlier private triples, its candidate still
    holding the address marked private since: made again, the old unreviewed item is withdrawn; a
    reviewed one stays (a person's decision is never deleted)."""
    from core.types import triple_key

    db = tmp_path / "studio.sqlite3"
    demo = build_app(Settings(db=str(db), sample_corpus=False))
    make_items = endpoint(demo, "review_generate")
    ws = Workspace()
    ws.load_sample()
    ws.extract(get_extractor("spacy", Settings()))
    asthma = triple_key("Tomas Reyl", "medical_condition", "asthma")
    address = ("tomas reyl", "residence", "14 birch lane")
    ws.toggle_private(asthma)
    make_items(ws, "mask")
    with AnnotationStore(db) as store:
        (reviewed,) = store.tasks()
        store.review(store.next_item("ann").candidate.id, "ann", "accept")
    ws.toggle_private(address)
    note, _ = make_items(ws, "mask")
    assert "withdrawn" not in note  # the only earlier item was reviewed: it stays
    with AnnotationStore(db) as store:
        unreviewed = next(t for t in store.tasks() if t.id != reviewed.id)
    assert set(unreviewed.private) == {asthma, address}
    ws.toggle_private(asthma)
    note, _ = make_items(ws, "mask")
    assert "1 item(s) made from earlier marks of the same passages, which nobody had reviewed" in note
    with AnnotationStore(db) as store:
        tasks = {t.id: t for t in store.tasks()}
    assert unreviewed.id not in tasks and reviewed.id in tasks
    assert [set(t.private) for i, t in tasks.items() if i != reviewed.id] == [{address}]

"""The same store on SQLite and on a real PostgreSQL server: schema by the same Alembic revisions,
every kind of write, and the studio built on it (issue 17)."""

from __future__ import annotations

from datetime import timedelta

import gradio as gr
import pytest

from core.eraser4rag.workspace import Workspace
from core.saving import OverwriteRefused
from core.settings import Settings
from storage.db import current_revision, head_revision, make_engine
from storage.repository import Repository, StorageError
from tests.core.test_serialize import sample_corpus_and_triples, sample_definition
from ui.app import build_app

PASSWORD = "correct horse battery"


def test_the_repository_works_the_same_on_both(store_target: str) -> None:
    corpus, triples = sample_corpus_and_triples()
    with Repository(store_target) as repo:
        engine = make_engine(store_target)
        assert current_revision(engine) == head_revision()
        engine.dispose()
        repo.save_corpus("notes", corpus, triples, meta={"origin": "test"})
        definition = sample_definition(triples)
        repo.save_definition("notes", "default", definition, {"ratio": 0.3})
        assert [s.name for s in repo.list_corpora()] == ["notes"]
        assert repo.load_corpus("notes") == (corpus, triples)
        assert repo.load_definition("notes", "default") == definition
        copy = repo.import_json(repo.export_json("notes"), name="notes copy")
        assert repo.load_workspace(copy).definitions == {"default": definition}
        with pytest.raises(StorageError, match="already exists"):
            repo.save_corpus("notes", corpus, triples)
        repo.add_user("ada", PASSWORD)
        assert repo.verify_user("ada", PASSWORD) and not repo.verify_user("ada", "wrong password")
        assert repo.set_sharing("notes", users=["ada"], public=False).users == ("ada",)
        assert [s.name for s in repo.for_user("ada").list_corpora()] == ["notes"]
        repo.save_session("k1", "ada", corpus=corpus, triples=triples, extractor="", meta={}, definitions={})
        assert repo.has_session("k1", "ada")
        assert repo.prune_sessions(timedelta(seconds=-1)) == 1
        repo.delete_corpus("notes copy")
        assert [s.name for s in repo.list_corpora()] == ["notes"]


def test_workspace_save_and_overwrite_rules_on_both(store_target: str) -> None:
    with Repository(store_target) as repo:
        ws = Workspace()
        ws.add_text("Ada Lovelace was born in London.", "Ada")
        ws.save(repo, "w")
        other = Workspace()
        other.add_text("Grace Hopper was born in New York.", "Grace")
        with pytest.raises(OverwriteRefused):
            other.save(repo, "w")
        other.save(repo, "w", overwrite=True)
        loaded = Workspace()
        loaded.load(repo, "w")
        assert [d.title for d in loaded.corpus.documents] == ["Grace"]


def test_the_studio_runs_on_the_store(store_target: str) -> None:
    demo = build_app(Settings(db=store_target, sample_corpus=False))
    save = next(f.fn for f in demo.fns.values() if f.api_name == "save_workspace")
    ws = Workspace()
    ws.add_text("Ada Lovelace was born in London.", "Ada")
    ws, message, *_ = save(ws, "from the studio", gr.Request())
    assert "Saved as" in message
    assert demo.studio_context.repository.name_taken("from the studio")
    demo.studio_context.repository.close()

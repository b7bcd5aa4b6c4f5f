"""Documents tab endpoints: an upload into a non-empty workspace asks (add or replace); Export
without a name says what to do."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
import pytest

from core.eraser4rag.workspace import Workspace
from core.settings import Settings
from ui.app import build_app


def endpoint(demo, api_name: str):
    return next(f.fn for f in demo.fns.values() if f.api_name == api_name)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("docs")
    return build_app(Settings(db=str(folder / "studio.sqlite3"), sample_corpus=False))


def _note(tmp_path: Path) -> str:
    path = tmp_path / "field_notes.txt"
    path.write_text("Ada Brook works for Zephyr Labs.", encoding="utf-8")
    return str(path)


def test_an_upload_into_an_empty_workspace_is_added_at_once(demo, tmp_path: Path) -> None:
    _ws, message, *_rest, pending, _row, _prompt, result = endpoint(demo, "add_files")(
        Workspace(), [_note(tmp_path)]
    )
    assert "Loaded 1 of 1 file" in message and pending == []
    assert result["workspace"]["documents"] == 1


def test_an_upload_into_a_workspace_with_documents_asks_then_adds_or_replaces(demo, tmp_path: Path) -> None:
    ws = Workspace()
    ws.load_sample()
    before = len(ws.corpus.documents)
    ws, message, _errors, _upload, pending, row, _prompt, _result = endpoint(demo, "add_files")(
        ws, [_note(tmp_path)]
    )
    assert "add the upload to them, or replace them" in message and len(ws.corpus.documents) == before
    assert pending and row.visible is True
    merged = endpoint(demo, "add_files_merge")(ws, pending)[0]
    assert len(merged.corpus.documents) == before + 1

    assert not Path(pending[0]).exists()  # the temporary upload is removed once read

    again = Workspace()
    again.load_sample()
    pending = [_note(tmp_path)]  # a new upload waiting for the answer
    replaced, message, *_ = endpoint(demo, "add_files_replace")(again, pending)
    assert message.count("Replaced") and [d.title for d in replaced.corpus.documents] == ["field_notes"]
    assert not replaced.corpus.queries


def test_export_before_naming_says_what_to_do(demo) -> None:
    with pytest.raises(gr.Error, match="Type a name in"):
        endpoint(demo, "export_json")(Workspace(), "", gr.Request())

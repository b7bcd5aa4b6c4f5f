"""No silent overwrite in the studio: saving or exporting under another saved workspace's name asks
first and changes nothing until confirmed (issue 17)."""

from __future__ import annotations

from pathlib import Path

import gradio as gr

from core.eraser4rag.workspace import Workspace
from core.settings import Settings
from tests.core.test_serialize import sample_corpus_and_triples
from ui.app import build_app


def endpoint(demo, api_name: str):
    return next(f.fn for f in demo.fns.values() if f.api_name == api_name)


def test_save_and_export_over_another_workspace_ask_first(tmp_path: Path) -> None:
    demo = build_app(Settings(db=str(tmp_path / "tab.sqlite3"), sample_corpus=False))
    repo = demo.studio_context.repository
    request = gr.Request()
    corpus, triples = sample_corpus_and_triples()
    repo.save_corpus("notes", corpus, triples)
    before = (repo.workspace_version("notes"), repo.export_json("notes"))
    ws = Workspace()
    ws.add_text("Ada Lovelace was born in London.", "Ada")

    for api_name in ("save_workspace", "export_json"):
        ws, message, *outputs, row, prompt, _result = endpoint(demo, api_name)(ws, "notes", request)
        assert "&#x27;notes&#x27; already exists" in message and "Overwrite it?" in message
        assert row.visible is True and "Overwrite it?" in prompt
        assert all(isinstance(o, type(gr.skip())) for o in outputs)
        assert (repo.workspace_version("notes"), repo.export_json("notes")) == before  # unchanged

    ws, message, _, row, _, _result = endpoint(demo, "save_workspace_overwrite")(ws, "notes", request)
    assert "Saved as &#x27;notes&#x27;" in message and row.visible is False
    loaded, _ = repo.load_corpus("notes")
    assert [d.title for d in loaded.documents] == ["Ada"]

    # Saving again under the name it was saved as needs no question (its version is checked).
    ws.add_text("Charles Babbage was born in London.", "Babbage")
    ws, message, _, row, _, _result = endpoint(demo, "save_workspace")(ws, "notes", request)
    assert "Saved as &#x27;notes&#x27;" in message and row.visible is False
    ws, message, path, _, row, _, _result = endpoint(demo, "export_json")(ws, "", request)
    assert "Exported &#x27;notes&#x27;" in message and Path(path).exists()
    repo.close()


def test_the_re_render_after_load_asks_keeps_the_pick_the_confirmation_loads(tmp_path: Path) -> None:
    """Loading over an unsaved workspace asks first; every action re-renders the views, and the
    saved-workspaces dropdown used to fall back to the name of the workspace in view (none), so
    "Yes, do it" sent no name and failed with "choose a saved workspace"."""
    demo = build_app(Settings(db=str(tmp_path / "tab.sqlite3"), sample_corpus=False))
    ctx = demo.studio_context
    repo = ctx.repository
    corpus, triples = sample_corpus_and_triples()
    repo.save_corpus("notes", corpus, triples)
    repo.save_corpus("drafts", corpus, triples)
    ws = Workspace()
    ws.add_text("Ada Lovelace was born in London.", "Ada")
    request = gr.Request()

    ws, message, *_ = endpoint(demo, "load_workspace")(ws, "notes", request)
    assert "Loading replaces the workspace in view" in message
    saved = ctx.get("saved")
    view_inputs = ctx.view_inputs()
    values = ["notes" if component is saved else None for component in view_inputs]
    rendered = dict(zip([c._id for c in ctx.view_outputs()], ctx.render_all(ws, *values), strict=True))
    assert rendered[saved._id].value == "notes"

    ws, message, *_ = endpoint(demo, "load_workspace_confirmed")(ws, rendered[saved._id].value, request)
    assert "Loaded &#x27;notes&#x27;" in message and ws.name == "notes"
    repo.close()

"""Leftovers of the newcomer's walk through the studio (issue 20), checked without a browser:
stale dropdown values, double-click repeats, tab-owned messages,
choices kept over a reload."""

from __future__ import annotations

import json

import gradio as gr
import pytest

from core.settings import Settings
from ui import messages
from ui.app import build_app
from ui.context import among, as_bool, tab_of


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> gr.Blocks:
    folder = tmp_path_factory.mktemp("walkthrough")
    settings = Settings(db=str(folder / "studio.sqlite3"), annotation_db=str(folder / "review.sqlite3"))
    return build_app(settings)


def test_a_method_value_the_session_has_no_choices_for_is_accepted_and_replaced(studio):
    """A render sent before the newest choices reached the server carries the page's older value:
    it must reach the render (which replaces it), not fail in gradio's check of the choices."""
    from core.eraser4rag.workspace import Workspace
    from ui.rewrite_tab import render_selection

    ctx = studio.studio_context
    for name in ("rewrite_method", "rewrite_document"):
        assert ctx.get(name).preprocess("graph-guided") == "graph-guided"
    method, document, *_ = render_selection(Workspace(), "graph-guided", "retriever-queries-q1-d0")
    assert method.value is None and method.choices == []
    assert document.value is None


def test_a_double_click_on_a_row_toggles_the_triple_once(studio):
    """The row click's handler ignores the second press: the triple stays marked."""
    ctx = studio.studio_context
    select = next(fn for fn in studio.fns.values() if fn.api_name == "select_triple")
    from core.eraser4rag.workspace import Workspace

    ws = Workspace()
    ws.add_text("Ada Brook works for Zephyr Labs.", "notes")
    from core.extract import get_extractor

    ws.extract(get_extractor("spacy", ctx.settings))
    key = sorted(ws.all_keys())[0]
    row = ["public", ws.graph.label(key[0]), key[1], ws.graph.label(key[2]), "notes"]
    event = gr.SelectData(None, {"index": [0, 1], "value": row[1], "row_value": row})
    ws, *_ = select.fn(ws, json.dumps(row), event)
    assert key in ws.private_keys()
    ws, message, *_ = select.fn(ws, json.dumps({"repeat_of": row}), event)
    assert key in ws.private_keys()
    assert message == gr.skip()  # the first click's message stays on the line


def test_each_action_message_names_the_tab_of_its_trigger(studio):
    ctx = studio.studio_context
    assert tab_of(ctx.get("random_split")) == "graph"
    assert tab_of(ctx.get("rewrite_run")) == "rewrite"
    assert tab_of(ctx.get("message")) == ""
    html = messages.status_html("<b>x</b>", tab="graph")
    assert 'data-tab="graph"' in html and "<b>" not in html
    clear = next(fn for fn in studio.fns.values() if fn.api_name == "clear_private_confirmed")
    from core.eraser4rag.workspace import Workspace

    _ws, line, *_ = clear.fn(Workspace())
    assert 'data-tab="graph"' in line


def test_restored_choices_are_only_those_the_build_still_offers():
    restore = among([("Graph-guided", "graph-guided"), ("Mask", "mask")])
    assert restore(["mask", "gone"]) == ["mask"]
    assert restore([]) == []
    assert restore("mask") is None
    assert as_bool(True) is True and as_bool("yes") is None


def test_loading_or_importing_over_work_in_view_asks_first(studio, tmp_path):
    from core.eraser4rag.workspace import Workspace

    demo = studio
    endpoint = {fn.api_name: fn.fn for fn in demo.fns.values() if fn.api_name}
    request = gr.Request(username=None)
    saved = Workspace()
    saved.add_text("Ada Brook works for Zephyr Labs.", "notes")
    saved.save(demo.studio_context.repository, "notes")
    bundle = tmp_path / "notes.json"
    bundle.write_text(demo.studio_context.repository.export_json("notes"), encoding="utf-8")

    work = Workspace()
    work.add_text("Mara Voss lives in Harrow Vale.", "unsaved")
    for name, chosen in (("load_workspace", "notes"), ("import_json", str(bundle))):
        ws, message, *rest = endpoint[name](work, chosen, request)
        assert "replaces the workspace in view (1 document(s)" in message and "never saved" in message
        assert rest[-3].visible is True  # the confirmation row (then its prompt, the JSON result)
        assert [d.title for d in ws.corpus.documents] == ["unsaved"]  # nothing replaced yet
    ws, message, *_ = endpoint["load_workspace_confirmed"](work, "notes", request)
    assert "Loaded &#x27;notes&#x27;" in message and [d.title for d in ws.corpus.documents] == ["notes"]
    ws, message, *_ = endpoint["load_workspace"](Workspace(), "notes", request)  # nothing to lose: at once
    assert "Loaded &#x27;notes&#x27;" in message

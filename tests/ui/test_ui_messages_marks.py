"""Issue 9 (UI side), unit level: escaped messages, undo, one state vocabulary, graph budget,
tables without duplicates and with ids for repeated titles, extraction progress and cancel."""

from __future__ import annotations

import threading

import gradio as gr
import pytest

from core.eraser4rag.graph_view import visible_part
from core.eraser4rag.workspace import (
    EXCLUDED,
    INFERABLE,
    STATUS_LABELS,
    UNDO_DEPTH,
    Workspace,
    status_counts_text,
)
from core.types import Triple, triple_key
from ui import messages
from ui.context import _user_errors
from ui.jobs import Cancellations, Cancelled, Estimate

IMG = '<img src="/x.png">'
MD_IMG = "![x](/x.png)"


def test_status_line_and_toasts_escape_html_and_are_not_markdown():
    html = messages.status_html(f"Added {IMG} {MD_IMG} </script>")
    assert "<img" not in html and "&lt;img src=&quot;/x.png&quot;&gt;" in html
    assert "&lt;/script&gt;" in html
    assert MD_IMG in html  # literal: the status line is gr.HTML, which parses no Markdown
    error = messages.error(f"no entity {IMG}")
    assert "<img" not in error.message and "&lt;img" in error.message


def test_actions_escape_their_message_and_their_errors():
    def ok(ws, title):
        return ws, f"Added {title}"

    def bad(ws, title):
        raise KeyError(f"no entity {title}")

    _, status, result = _user_errors(ok)(Workspace(), IMG)
    assert "<img" not in status and "&lt;img" in status
    assert result["message"] == f"Added {IMG}"  # the JSON result for scripts carries the plain text
    with pytest.raises(gr.Error) as caught:
        _user_errors(bad)(Workspace(), IMG)
    assert "<img" not in caught.value.message and "&lt;img" in caught.value.message


@pytest.fixture
def ws() -> Workspace:
    workspace = Workspace()
    rows = [
        ("a", "Ada", "work_for", "Zephyr"),
        ("a", "Ada", "work_for", "Zephyr"),  # the same triple twice in one document
        ("b", "Zephyr", "located_in", "Northport"),
        ("c", "Ada", "live_in", "Northport"),
    ] + [("d", f"P{i}", "know", f"Q{i}") for i in range(25)]
    workspace.add_text("x", "Same title")
    workspace.add_text("y", "Same title")
    workspace.triples = [Triple(head=h, relation=r, tail=t, doc_id=d, span=(0, 1)) for d, h, r, t in rows]
    workspace._triples_changed()
    return workspace


def test_undo_puts_back_each_of_the_last_twenty_mark_changes(ws: Workspace):
    keys = sorted(ws.all_keys())
    states = []
    for key in keys[: UNDO_DEPTH + 3]:
        states.append(set(ws.marked_private))
        ws.toggle_private(key)
    ws.random_split(0.5, seed=1)
    ws.clear_private()
    assert ws.marked_private == set()
    ws.undo()  # the clear
    ws.undo()  # the random split
    assert ws.marked_private == set(keys[: UNDO_DEPTH + 3])
    for expected in reversed(states[-(UNDO_DEPTH - 2) :]):
        ws.undo()
        assert ws.marked_private == expected
    with pytest.raises(ValueError, match="nothing to undo"):
        ws.undo()


def test_one_vocabulary_for_the_states(ws: Workspace):
    ws.toggle_private(triple_key("Ada", "live_in", "Northport"))  # inferable through Zephyr
    assert ws.status_of(triple_key("Ada", "live_in", "Northport")) == INFERABLE
    text = status_counts_text(ws.status_counts())
    assert STATUS_LABELS[INFERABLE] == "excluded: inferable from public" and STATUS_LABELS[INFERABLE] in text
    assert STATUS_LABELS[EXCLUDED] == "excluded: connects private facts"
    from ui.graph_tab import render_moves, render_table

    assert STATUS_LABELS[INFERABLE] in render_moves(ws)
    rows = render_table(ws, "", "", "", "")
    assert {row[0] for row in rows} <= set(STATUS_LABELS.values())
    assert "left the private set" not in render_moves(ws)


def test_table_has_no_duplicate_rows_and_repeated_titles_carry_ids(ws: Workspace):
    from ui.graph_tab import render_table

    first, second = ws.corpus.documents
    ws.triples += [
        Triple(head="Ada", relation="own", tail="Car", doc_id=first.id, span=(0, 1)),
        Triple(head="Ada", relation="own", tail="Car", doc_id=second.id, span=(0, 1)),
    ]
    ws._triples_changed()
    rows = render_table(ws, "", "", "", "")
    assert len(rows) == len({tuple(row) for row in rows})
    assert [row[4] for row in rows if row[1] == "Ada" and row[2] == "work_for"] == ["a (×2)"]
    own = sorted(row[4] for row in rows if row[2] == "own")
    assert own == sorted([f"Same title [{first.id}]", f"Same title [{second.id}]"])


def test_risk_table_lists_each_private_triple_once(ws: Workspace):
    from ui.risk_tab import render_risk_view

    key = triple_key("Ada", "work_for", "Zephyr")
    ws.triples += [
        Triple(head="Ada", relation="work_for", tail="Zephyr", doc_id=d, span=(0, 1)) for d in ("e", "f", "g")
    ]
    ws._triples_changed()
    ws.toggle_private(key)
    _summary, rows, _graph = render_risk_view(ws)
    assert [row[0] for row in rows].count("Ada —work_for→ Zephyr") == 1


def test_large_graph_is_cut_to_whole_groups_and_counts_what_is_hidden():
    keys = [("hub", "r", f"n{i}") for i in range(30)] + [("a", "r", "b"), ("c", "r", "d")]
    view = visible_part(keys, 34)
    assert view.nodes_shown == 33 and view.components_shown == 2 and view.nodes_hidden == 2
    assert "Hidden: 2 entities, 1 triple(s)" in view.summary()
    cut = visible_part(keys, 10)
    assert cut.cut and cut.nodes_shown == 10 and ("hub", "r", "n0") in cut.keys
    assert visible_part(keys, 100).summary() == "All 35 entities and 32 triples shown."


def test_estimate_uses_the_measured_rate():
    now = [0.0]
    estimate = Estimate(unit="chunk", clock=lambda: now[0])
    now[0] = 10.0
    assert estimate.describe(2, 10) == "2 of 10 chunk(s) in 10 s, about 40 s left"
    assert estimate.describe(0, 10) == "0 of 10 chunk(s) in 10 s"


def test_cancel_stops_an_extraction_and_leaves_the_workspace_as_it_was():
    workspace = Workspace()
    workspace.add_text("Ada Brook works for Zephyr Labs.", "one")
    workspace.add_text("Zephyr Labs is located in Northport.", "two")
    jobs = Cancellations()
    flag = jobs.start("session")

    class Extractor:
        name = "fake-for-cancel"

        def extract_many(self, items, progress=None, titles=None):
            for done in range(1, len(items) + 1):
                if done == 1:
                    assert jobs.cancel("session")
                if progress is not None:
                    progress(done, len(items))
            return []

    def report(done: int, total: int) -> None:
        if flag.is_set():
            raise Cancelled

    with pytest.raises(Cancelled):
        workspace.extract(Extractor(), progress=report)
    assert workspace.triples == [] and workspace.extracted_ids == set()
    jobs.finish("session", flag)
    assert not jobs.cancel("session")


def test_long_extraction_runs_in_a_worker_process_and_cancel_ends_it():
    from core.extract import get_extractor
    from core.settings import Settings
    from ui.jobs import ProcessExtractor, WorkerPool

    settings = Settings()
    text = "Ada Brook works for Zephyr Labs. Zephyr Labs is located in Northport."
    in_process, in_worker = Workspace(), Workspace()
    for workspace in (in_process, in_worker):
        workspace.add_text(text, "story")
    in_process.extract(get_extractor("spacy", settings))
    pool = WorkerPool()
    seen: list[tuple[int, int]] = []
    worker_extractor = ProcessExtractor("spacy", settings, pool=pool)
    in_worker.extract(worker_extractor, progress=lambda done, total: seen.append((done, total)))
    assert in_worker.triples == in_process.triples and in_worker.triples
    assert seen[-1] == (1, 1)

    flag = threading.Event()
    flag.set()
    worker = pool._idle[0]  # the warm worker is reused, and ended by the cancel
    cancelled = Workspace()
    cancelled.add_text(text * 50, "long")
    with pytest.raises(Cancelled):
        cancelled.extract(ProcessExtractor("spacy", settings, flag, pool=pool))
    assert not worker.process.is_alive() and cancelled.triples == []


def test_a_row_click_marks_the_row_the_page_showed_not_the_tables_data(ws: Workspace):
    """The page sends the clicked row's cells as it showed them; the table's data may already hold
    another render whose row at that position is another triple."""
    import json

    from ui.graph_tab import clicked_key, render_table

    shown, other = render_table(ws, "", "", "", "Ada")[:2]
    assert shown[1:4] != other[1:4]
    key = clicked_key(ws, json.dumps(shown), other)
    assert key == triple_key(shown[1], shown[2], shown[3])
    assert clicked_key(ws, "", other) == triple_key(other[1], other[2], other[3])  # no shown row recorded
    assert clicked_key(ws, "not json", other) == triple_key(other[1], other[2], other[3])
    gone = json.dumps(["public", "Ida", "work_for", "Zephyr", "a"])
    with pytest.raises(ValueError, match="no longer in this workspace"):
        clicked_key(ws, gone, other)
    with pytest.raises(ValueError, match="click a triple row"):
        clicked_key(ws, "", [])

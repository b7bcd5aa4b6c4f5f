"""Documents tab rendering without a browser: empty passages, every bad record, large uploads."""

from __future__ import annotations

import json

from core.eraser4rag.workspace import Workspace
from ui.documents_tab import ROWS_SHOWN, render_documents, render_errors, render_load_good, render_summary


def test_empty_passages_are_listed_as_empty_and_counted():
    ctxs = [{"title": "Blank", "text": "  "}, {"title": "Full", "text": "Ada sings."}]
    record = {"question": "Q?", "ctxs": ctxs}
    ws = Workspace()
    assert ws.add_files([("r.jsonl", json.dumps(record).encode())], 100_000) == []
    html = render_documents(ws)
    assert "(empty passage)" in html and "Ada sings." in html
    assert "<b>1</b> empty passage(s), never extracted" in render_summary(ws)


def test_every_bad_record_is_listed_escaped_and_the_good_ones_offered():
    lines = [
        json.dumps({"title": "ok", "text": "Fine."}),
        '{"title": "<img src=x>" broken',
        json.dumps({"title": ["x"], "text": "y"}),
    ]
    ws = Workspace()
    errors = ws.add_files([("m.jsonl", "\n".join(lines).encode())], 100_000)
    html = render_errors(errors)
    assert "2 problem(s) in 2 of 3 record(s)" in html and "line 2" in html and "line 3" in html
    assert "field title: must be a string" in html and "<img" not in html
    button = render_load_good(ws)
    assert button.visible is True and button.value == "Load the 1 good record(s)"
    ws.load_held_back()
    assert render_load_good(ws).visible is False and ws.corpus.documents[0].title == "ok"


def test_a_large_upload_lists_the_first_rows_and_counts_the_rest():
    lines = "\n".join(json.dumps({"title": f"n{i}", "text": f"Note {i}."}) for i in range(ROWS_SHOWN + 50))
    ws = Workspace()
    ws.add_files([("big.jsonl", lines.encode())], 1_000_000)
    html = render_documents(ws)
    assert html.count("<tr>") <= ROWS_SHOWN + 1 and "… and 50 more" in html

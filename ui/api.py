"""What scripts read: JSON of the workspace as the page shows it (the HTML stays for the page).

Every action's endpoint ends with a `result` object (`action_result`: the plain message and the
workspace's counts), and these read-only endpoints return the data itself, for the session's
current question:

- `/triples`: every triple with its key, document, span and status;
- `/marks`: the marked and private keys, the status counts, the scope;
- `/rewrites`: each rewrite run with its state (fresh/stale/incomplete), metrics and rewritten texts.

A `gradio_client.Client` keeps one session, so `/load_sample`, `/extract`, `/random_split`,
`/rewrite_run` and then `/triples`, `/marks`, `/rewrites` act on and read the same workspace.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from core.eraser4rag.workspace import Workspace
from core.serialize import rewrite_to_dict
from core.types import TripleKey

RESULT = "api_result"  # the registered JSON component every action also writes


def key_json(key: TripleKey) -> list[str]:
    return list(key)


def workspace_counts(ws: Workspace) -> dict[str, Any]:
    return {
        "scope": ws.scope,
        "documents": len(ws.corpus.documents),
        "queries": len(ws.corpus.queries),
        "triples": len(ws.triples),
        "triples_in_scope": len(ws.scoped_triples()),
        "marked": len(ws.marked_private),
        "status_counts": ws.status_counts() if ws.definition is not None else {},
    }


def action_result(ws: Workspace, message: str) -> dict[str, Any]:
    """The JSON an action's endpoint returns next to its HTML: the plain message and the counts."""
    return {"ok": True, "message": message, "workspace": workspace_counts(ws)}


def triples_json(ws: Workspace) -> list[dict[str, Any]]:
    statuses = ws.statuses()
    return [
        {
            "head": triple.head,
            "relation": triple.relation,
            "tail": triple.tail,
            "key": key_json(triple.key),
            "doc_id": triple.doc_id,
            "span": list(triple.span) if triple.span else None,
            "backend": triple.backend,
            "status": statuses.get(triple.key, "public"),
        }
        for triple in ws.scoped_triples()
    ]


def marks_json(ws: Workspace) -> dict[str, Any]:
    return {
        "scope": ws.scope,
        "marked": sorted(key_json(key) for key in ws.marked_private),
        "private": sorted(key_json(key) for key in ws.private_keys()),
        "status_counts": ws.status_counts() if ws.definition is not None else {},
        "undo_steps": len(ws.mark_history),
    }


def rewrites_json(ws: Workspace) -> list[dict[str, Any]]:
    return [
        {
            "label": label,
            "eraser": run.eraser,
            "verify": run.verify,
            "state": ws.rewrite_state(label),
            "doc_ids": list(run.doc_ids),
            "metrics": run.metrics.get("overall", {}),
            "per_document": run.metrics.get("per_doc", {}),
            "accuracy": run.accuracy,
            "rewrites": [rewrite_to_dict(rewrite) for rewrite in run.rewrites],
            "problems": [{"doc_id": p.doc_id, "message": p.message} for p in run.problems],
        }
        for label, run in ws.rewrite_runs.items()
    ]


def build(ctx: Any) -> None:
    """Hidden buttons whose click endpoints return the workspace's data as JSON."""
    readers = {"triples": triples_json, "marks": marks_json, "rewrites": rewrites_json}
    with gr.Row(visible=False):
        for name, reader in readers.items():
            output = gr.JSON(visible=False, label=name)
            button = gr.Button(visible=False)
            button.click(
                _reading(reader), [ctx.workspace_state], [output], api_name=name, show_progress="hidden"
            )


def _reading(reader: Any) -> Any:
    def read(ws: Workspace) -> Any:
        return reader(ws)

    read.__name__ = f"read_{reader.__name__}"
    return read

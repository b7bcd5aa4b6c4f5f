"""Cross-document risk tab: which private triples other documents still reveal, and how."""

from __future__ import annotations

from collections.abc import Iterable

import gradio as gr

from core.eraser4rag.filters import FilterMove
from core.eraser4rag.risk import InferenceRisk
from core.eraser4rag.workspace import FRESH, INFERABLE, Workspace, status_label
from core.types import TripleKey
from ui.context import StudioContext
from ui.render import (
    esc,
    format_key,
    format_path,
    graph_data,
    graph_elements,
    graph_page,
    ratio_bar,
    srcdoc_iframe,
    vis_urls,
)

TABLE_HEADERS = ["private triple", "in documents", "at risk", "through documents", "path"]


def build(ctx: StudioContext) -> None:
    with gr.Tab("Cross-document risk", id="risk"):
        summary = ctx.register("risk_summary", gr.HTML())
        table = ctx.register(
            "risk_table",
            gr.Dataframe(
                headers=TABLE_HEADERS,
                datatype="str",
                interactive=False,
                wrap=True,
                max_height=360,
                column_widths=["24%", "17%", "12%", "17%", "30%"],
                label="Private triples (click a row to show only its path)",
            ),
        )
        graph = ctx.register("risk_graph", gr.HTML())

    ctx.add_view(render_risk_view, [summary, table, graph])

    def on_select(ws: Workspace, evt: gr.SelectData) -> str:
        # The row names its triple by what it shows, never by its position in a table that may
        # have changed since.
        row = evt.row_value or []
        return render_risk_graph(ws, focus_key=key_of_row(ws, str(row[0]) if row else ""))

    ctx.view_event(table.select, on_select, [ctx.workspace_state], [graph], selected=True)


def key_of_row(ws: Workspace, shown: str) -> TripleKey | None:
    """The triple a risk-table row shows (its first cell, `format_key`), or None when no longer there."""
    label = ws.graph.label
    candidates = [*ws.private_keys(), *(move.key for move in ws.inferable_moves())]
    return next((key for key in candidates if format_key(key, label) == shown), None)


def render_risk_view(ws: Workspace) -> tuple[str, list[list[str]], str]:
    risks = ws.risks()
    inferable = ws.inferable_moves()
    rows = risk_rows(ws, risks) + inferable_rows(ws, inferable)
    summary = render_summary(ws, risks, inferable)
    return summary, rows, render_risk_graph(ws, risks=risks, inferable=inferable)


def _docs_named(ws: Workspace, doc_ids: Iterable[str]) -> str:
    """Document names, once each (a repeated title carries its id: `Workspace.source_title`)."""
    return ", ".join(dict.fromkeys(ws.source_title(d) for d in doc_ids))


def inferable_rows(ws: Workspace, inferable: list[FilterMove] | None = None) -> list[list[str]]:
    """Rows for triples marked private that public triples already reveal (filter b)."""
    label = ws.graph.label
    rows = []
    for move in ws.inferable_moves() if inferable is None else inferable:
        key = move.key
        path_docs = [d for path_key in move.path for d in sorted(ws.graph.docs_of(path_key))]
        rows.append(
            [
                format_key(key, label),
                _docs_named(ws, sorted(ws.graph.docs_of(key))),
                status_label(INFERABLE),
                _docs_named(ws, path_docs),
                format_path(key[0], move.path, label),
            ]
        )
    return rows


def private_rows_order(ws: Workspace, risks: list[InferenceRisk]) -> list[TripleKey]:
    """Each private triple once: those at risk first, then by key (the risk table's row order)."""
    at_risk = {r.key for r in risks}
    return sorted(ws.private_keys(), key=lambda key: (key not in at_risk, key))


def risk_rows(ws: Workspace, risks: list[InferenceRisk]) -> list[list[str]]:
    """One row per private triple, whatever the number of its occurrences and risky paths."""
    by_key: dict[TripleKey, list[InferenceRisk]] = {}
    for risk in risks:
        by_key.setdefault(risk.key, []).append(risk)
    label = ws.graph.label
    rows = []
    for key in private_rows_order(ws, risks):
        docs = sorted(ws.graph.docs_of(key))
        found = by_key.get(key, [])
        risky_docs = sorted({r.doc_id for r in found})
        shortest = min(found, key=lambda r: (len(r.path), r.doc_id)) if found else None
        rows.append(
            [
                format_key(key, label),
                _docs_named(ws, docs),
                f"yes, in {len(risky_docs)} of {len(docs)}" if found else "no",
                _docs_named(ws, [d for r in found for d in r.path_docs]),
                format_path(key[0], shortest.path, label) if shortest else "",
            ]
        )
    return rows


def render_summary(
    ws: Workspace, risks: list[InferenceRisk], inferable: list[FilterMove] | None = None
) -> str:
    if ws.definition is None:
        return (
            '<p class="rps-empty">Nothing is private yet: '
            "define private triples in the Knowledge graph tab.</p>"
        )
    private = ws.private_keys()
    at_risk = {r.key for r in risks}
    inferable_count = len(ws.inferable_moves() if inferable is None else inferable)
    value = ws.r_connect_after_erasure()
    return (
        '<div class="rps-risk-summary">'
        f"<p><b>{len(at_risk)}</b> of <b>{len(private)}</b> private triple(s) can be inferred from other "
        f"documents ({len(risks)} document occurrence(s) at risk).</p>"
        + (
            f"<p><b>{inferable_count}</b> marked triple(s) are {esc(status_label(INFERABLE))}: "
            "public triples already connect their entities, so erasing them alone protects nothing "
            "(listed last, with the public path).</p>"
            if inferable_count
            else ""
        )
        + ratio_bar(ws.r_connect_before(), "r_connect before rewriting (original documents)")
        + ratio_bar(value, "r_connect after erasing exactly the private triples")
        + counted_apart(ws, at_risk | {move.key for move in (inferable or ws.inferable_moves())})
        + rewrite_bars(ws)
        + '<p class="rps-note">r_connect: share of private triples whose head and tail stay connected '
        "(lower is safer). Before rewriting every private triple still states its own connection; "
        "the rewrites are graded on the triples re-extracted from them (Rewrite tab).</p></div>"
    )


def counted_apart(ws: Workspace, listed: set[TripleKey]) -> str:
    """Says which private triples r_connect counts as connected although the table does not list
    them as at risk, and why, so the two figures never seem to contradict each other."""
    apart = sorted(ws.connected_after_erasure() - listed)
    if not apart:
        return ""
    names = "; ".join(format_key(key, ws.graph.label) for key in apart)
    return (
        f'<p class="rps-note">r_connect counts {len(apart)} private triple(s) as still connected that the '
        f"table does not list as at risk: {esc(names)}. The table counts what the public facts of other "
        "documents reveal (Eraser4RAG Eq. 2): no path through a value many facts share (an occupation, a "
        "field, a condition, a nationality), none inside the stating document alone; r_connect counts any "
        "connection.</p>"
    )


def rewrite_bars(ws: Workspace) -> str:
    """r_connect after each kept rewrite run, as measured when it ran (stale runs say so)."""
    bars = []
    for label in sorted(ws.rewrite_runs):
        value = ws.rewrite_runs[label].metrics.get("overall", {}).get("r_connect")
        state = ws.rewrite_state(label)
        suffix = "" if state == FRESH else f" ({state})"
        bars.append(ratio_bar(value, f"r_connect after rewriting with {label}{suffix}"))
    if not bars:
        return '<p class="rps-note">No rewrites yet: run an eraser in the Rewrite tab to compare.</p>'
    return '<div class="rps-rewrite-bars">' + "".join(bars) + "</div>"


def render_risk_graph(
    ws: Workspace,
    risks: list[InferenceRisk] | None = None,
    focus_key: TripleKey | None = None,
    inferable: list[FilterMove] | None = None,
) -> str:
    risks = ws.risks() if risks is None else risks
    private = ws.private_keys()
    inferable = ws.inferable_moves() if inferable is None else inferable
    keys: set[TripleKey] = set(private)
    path_keys: set[TripleKey] = set()
    if focus_key is not None and focus_key in private:
        keys = {focus_key}
        risks = [r for r in risks if r.key == focus_key]
        inferable = []
    elif focus_key is not None:
        keys, risks = set(), []
        inferable = [move for move in inferable if move.key == focus_key]
    for risk in risks:
        path_keys.update(risk.path)
    for move in inferable:
        keys.add(move.key)
        path_keys.update(move.path)
    keys |= path_keys
    statuses = ws.statuses()
    statuses.update({key: "path" for key in path_keys if key not in private})
    edges = {key: ws.graph.edges[key] for key in ws.graph.edges if key in keys}
    titles = ws.source_titles()
    nodes, graph_edges = graph_elements(
        edges, statuses, ws.corpus, titles, ws.graph.label, ws.graph.documents_mentioning
    )
    js, css = vis_urls()
    page = graph_page(
        graph_data(nodes, graph_edges, positions=ws.node_positions()),
        js,
        css,
        empty="No private triples, so nothing is at risk.",
        legend=("private", INFERABLE, "path"),
    )
    caption = (
        '<div class="rps-caption">Private triples (red, dashed), triples marked private but '
        f"{esc(status_label(INFERABLE))} (purple, dotted) and the paths through other documents that "
        "reconnect them (orange): "
        f"{esc(len(path_keys))} path edge(s).</div>"
    )
    return caption + srcdoc_iframe(page, "Cross-document risk graph", height=480)

"""Rewrite tab: run erasers over the documents, compare original and rewrite, read the metrics.

Runs are kept in the workspace with the privacy definition they came from; this tab only
shows them (views never recompute anything) and marks a run *stale* once the definition or a
document changed. Erasers run, and downstream accuracy is measured, only on a button press.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import gradio as gr

from core.eraser4rag.erasers import ERASER_NAMES, get_eraser
from core.eraser4rag.erasers.answer import answer_is_correct, answer_question
from core.eraser4rag.erasers.fluency import Broken, broken_in_rewrite
from core.eraser4rag.erasers.pipeline import tools_for
from core.eraser4rag.rewrites import RewriteRun, run_label, surviving_connections
from core.eraser4rag.workspace import FRESH, INCOMPLETE, STALE, Workspace
from core.model_loading import get_spacy
from core.serialize import triple_from_dict
from core.settings import Settings
from core.types import Corpus, Document, Triple, TripleKey
from ui.context import StudioContext, among, as_bool
from ui.render import (
    Layer,
    esc,
    graph_data,
    graph_elements,
    graph_page,
    html_table,
    layered_text,
    side_by_side,
    srcdoc_iframe,
    vis_urls,
)
from ui.rewrite_plot import scatter_figure

METRIC_HEADERS = [
    "method",
    "state",
    "documents",
    "r_pri ↓",
    "r_pub ↑",
    "r_connect ↓",
    "leak check ↓",
    "s / doc",
    "D_special r_pri",
    "D_special r_pub",
    "in D_infer",
]
DOC_HEADERS = [
    "document",
    "private",
    "public",
    "r_pri ↓",
    "r_pub ↑",
    "leak check ↓",
    "D_special",
    "seconds",
    "notes",
]
DEFAULT_ERASERS = ("graph-guided", "mask")
ERASERS_STORAGE_KEY = "rps-rewrite-erasers"
VERIFY_STORAGE_KEY = "rps-rewrite-verify"
# What this browser keeps over a reload (`StudioContext.keep_over_reload`): None until the user changes it.
BROWSER_STATES = {ERASERS_STORAGE_KEY: None, VERIFY_STORAGE_KEY: None}
MAX_GRAPH_EDGES = 400
MAX_NOTES_LISTED = 20
STATE_TEXT = {
    FRESH: "up to date",
    STALE: "stale: the privacy definition or a document changed since; run again to update",
    INCOMPLETE: "incomplete: stopped before its last document; run again to continue",
}


def build(ctx: StudioContext) -> None:
    settings = ctx.settings
    choices = eraser_choices(settings)
    with gr.Tab("Rewrite (Eraser4RAG)", id="rewrite"):
        gr.Markdown(
            "Rewrite the documents without their private triples and measure what still leaks "
            "(Eraser4RAG). Runs are kept with the privacy definition they came from and are never "
            "re-run by themselves: when the definition changes they are marked *stale*."
        )
        with gr.Row():
            erasers = ctx.register(
                "rewrite_erasers",
                gr.CheckboxGroup(
                    choices=choices,
                    value=[name for name in DEFAULT_ERASERS if name in {v for _, v in choices}][:1],
                    label="Erasers",
                ),
            )
            with gr.Column(scale=0, min_width=260):
                verify = ctx.register("rewrite_verify", gr.Checkbox(label="Verify and repair", value=False))
                recompute = ctx.register(
                    "rewrite_recompute", gr.Checkbox(label="Recompute runs that are up to date", value=False)
                )
                run = ctx.register("rewrite_run", gr.Button("Run erasers", variant="primary"))
        scope = ctx.register("rewrite_scope", gr.HTML())
        runs = ctx.register("rewrite_runs", gr.HTML())
        metrics = ctx.register(
            "rewrite_metrics",
            gr.Dataframe(
                headers=METRIC_HEADERS,
                datatype="str",
                interactive=False,
                wrap=True,
                label="Metrics per method (whole set; D_special as in the paper's Table 1)",
            ),
        )
        # the title is drawn above the axes by the figure: gradio's label would cover the top-left points
        scatter = ctx.register(
            "rewrite_scatter", gr.Plot(label="r_pub against r_pri (one point per method)", show_label=False)
        )
        # A render sends choices and value together, but a render or event the page sent before the
        # newest choices reached the server still carries the value the page showed then (a method of
        # the question before a switch, a page restored after a reload): gradio refused it ("Value:
        # graph-guided is not in the list of choices: []") and the event was lost. So these accept any
        # value, and `render_selection` replaces one the choices lack.
        with gr.Row():
            method = ctx.register(
                "rewrite_method", gr.Dropdown(label="Method", choices=[], value=None, allow_custom_value=True)
            )
            document = ctx.register(
                "rewrite_document",
                gr.Dropdown(label="Document", choices=[], value=None, allow_custom_value=True),
            )
        diff = ctx.register("rewrite_diff", gr.HTML())
        doc_metrics = ctx.register(
            "rewrite_doc_metrics",
            gr.Dataframe(
                headers=DOC_HEADERS,
                datatype="str",
                interactive=False,
                wrap=True,
                label="Metrics per document (chosen method)",
            ),
        )
        graph = ctx.register("rewrite_graph", gr.HTML())
        with gr.Accordion("Downstream utility (answers the queries; runs the model)", open=False):
            gr.Markdown(
                "For queries that carry gold answers: answer each from its original documents and from "
                "the rewritten ones, and report accuracy (a gold answer appears in the output)."
            )
            accuracy_run = ctx.register("rewrite_accuracy_run", gr.Button("Measure accuracy"))
            accuracy = ctx.register("rewrite_accuracy", gr.HTML())

    def on_run(
        ws: Workspace,
        names: list[str],
        verify_value: bool,
        recompute_value: bool,
        progress: gr.Progress = gr.Progress(),  # noqa: B008
    ) -> Iterator[tuple[Any, ...]]:
        yield from run_erasers(ws, settings, names or [], verify_value, recompute_value, progress)

    def on_accuracy(
        ws: Workspace,
        label: str | None,
        progress: gr.Progress = gr.Progress(),  # noqa: B008
    ) -> tuple[Any, ...]:
        return measure_accuracy(ws, settings, label, progress)

    ctx.action(
        run.click, on_run, [erasers, verify, recompute], [runs], api_name="rewrite_run", show_progress="full"
    )
    ctx.keep_over_reload(erasers, ERASERS_STORAGE_KEY, among(choices))
    ctx.keep_over_reload(verify, VERIFY_STORAGE_KEY, as_bool)
    ctx.action(accuracy_run.click, on_accuracy, [method], [], api_name="rewrite_accuracy")
    ctx.add_view(render_scope, [scope])
    ctx.add_view(render_runs, [runs])
    ctx.add_view(render_metrics, [metrics])
    ctx.add_view(render_scatter, [scatter])
    ctx.add_view(render_accuracy, [accuracy])
    ctx.add_view(render_selection, [method, document, diff, doc_metrics, graph], [method, document])
    for trigger in (method.input, document.input):
        ctx.view_event(
            trigger,
            render_selection,
            [ctx.workspace_state, method, document],
            [method, document, diff, doc_metrics, graph],
        )


# ---------------------------------------------------------------------------------- actions


def eraser_choices(settings: Settings) -> list[tuple[str, str]]:
    """(label, name) of every eraser this build has; eraser4rag without an adapter says "untrained"."""
    found = []
    for name in ERASER_NAMES:
        try:
            eraser = get_eraser(name, settings)
        except (ValueError, RuntimeError, OSError):
            continue
        found.append((name if eraser.trained else f"{name} (untrained)", name))
    return found


def run_erasers(
    ws: Workspace, settings: Settings, names: list[str], verify: bool, recompute: bool, progress: Any
) -> Iterator[tuple[Any, ...]]:
    """Run the chosen erasers; yields (workspace, message, runs view) after every document."""
    if not names:
        raise ValueError("choose at least one eraser")
    erasers = [get_eraser(name, settings) for name in names]
    tools = tools_for(settings)  # the erasure pipeline's models: verify-and-repair and grading

    def report(done: int, total: int) -> None:
        progress((done, total), desc="rewriting", unit="documents")

    progress((0, 1), desc="rewriting")
    for run in ws.run_erasers(erasers, verify, recompute, progress=report, tools=tools):
        done = len(run.rewrites)
        yield ws, f"{run.label}: {done} of {len(run.doc_ids)} document(s) rewritten…", render_runs(ws)
    yield ws, finished_message(ws, [e.name for e in erasers], verify), render_runs(ws)


def finished_message(ws: Workspace, names: list[str], verify: bool) -> str:
    parts = []
    for name in names:
        label = run_label(name, verify)
        run = ws.rewrite_runs.get(label)
        if run is None:
            continue
        state = ws.rewrite_state(label)
        text = f"{label}: {len(run.rewrites)} of {len(run.doc_ids)} document(s) rewritten ({state})"
        if run.problems:
            text += f"; {len(run.problems)} problem(s), first: {run.problems[0].message}"
        parts.append(text)
    return ". ".join(parts) + "."


def measure_accuracy(ws: Workspace, settings: Settings, label: str | None, progress: Any) -> tuple[Any, ...]:
    """Answer the queries with gold answers from original and rewritten documents (runs the reader)."""
    if not label or label not in ws.rewrite_runs:
        raise ValueError("choose a method whose rewrites to answer from (run an eraser first)")

    def report(done: int, total: int) -> None:
        progress((done, total), desc="answering", unit="queries")

    def answer(question: str, titles: Any, texts: Any) -> str:
        return answer_question(question, titles, texts, settings)

    run = ws.measure_accuracy(label, answer, answer_is_correct, report)
    result = run.accuracy
    if result["stopped"]:
        return ws, result["stopped"]
    return ws, (
        f"Accuracy for {label} on {result['records']} query(ies): original {_fmt(result['original'])}, "
        f"rewritten {_fmt(result['rewritten'])}."
    )


# ------------------------------------------------------------------------------------ views


def _fmt(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def ordered_labels(ws: Workspace) -> list[str]:
    return sorted(ws.rewrite_runs, key=lambda lbl: (ws.rewrite_runs[lbl].eraser, ws.rewrite_runs[lbl].verify))


def _method_name(run: RewriteRun) -> str:
    return run.label if run.trained else f"{run.label} (untrained)"


def render_scope(ws: Workspace) -> str:
    """What a run rewrites: the chosen question's retrieved passages, or every document."""
    retrieval_set = ws.retrieval_set()
    count = len(ws.rewrite_documents())
    if retrieval_set is None:
        where = f"the whole corpus ({count} document(s))"
    else:
        where = f"the {count} passage(s) retrieved for “{retrieval_set.query.text}”"
    return (
        f'<p class="rps-caption">Erasers rewrite {esc(where)}, under that scope\'s privacy definition. '
        "Choose a question in the Knowledge graph tab to work on one retrieval set, as the paper does.</p>"
    )


def render_runs(ws: Workspace) -> str:
    if not ws.rewrite_runs:
        return '<p class="rps-empty">No rewrites yet: choose erasers and press Run erasers.</p>'
    titles = ws.source_titles()
    rows, problems, notes = [], [], []
    for label in ordered_labels(ws):
        run = ws.rewrite_runs[label]
        state = ws.rewrite_state(label)
        name = esc(run.label) + ("" if run.trained else ' <span class="rps-untrained">untrained</span>')
        rows.append(
            [
                name,
                esc(STATE_TEXT[state]),
                esc(f"{len(run.rewrites)} of {len(run.doc_ids)}"),
                esc(run.created_at),
            ]
        )
        for problem in run.problems:
            title = titles.get(problem.doc_id, problem.doc_id)
            problems.append(f"<li><b>{esc(run.label)}</b>, {esc(title)}: {esc(problem.message)}</li>")
        for rewrite in run.rewrites:  # e.g. a document longer than the model's context
            title = titles.get(rewrite.doc_id, rewrite.doc_id)
            notes.extend(f"<li><b>{esc(run.label)}</b>, {esc(title)}: {esc(n)}</li>" for n in rewrite.notes)
    table = html_table(["method", "state", "rewritten", "computed"], rows)
    listed = f'<div class="rps-problems"><ul>{"".join(problems)}</ul></div>' if problems else ""
    count = len(notes)
    if count > MAX_NOTES_LISTED:
        notes = [
            *notes[:MAX_NOTES_LISTED],
            f"<li>… {count - MAX_NOTES_LISTED} more in the per-document table</li>",
        ]
    noted = (
        f'<details class="rps-note"><summary>{count} note(s) from the erasers, by document</summary>'
        f"<ul>{''.join(notes)}</ul></details>"
        if notes
        else ""
    )
    return f'<div class="rps-runs" data-runs="{len(rows)}">{table}{listed}{noted}</div>'


def render_metrics(ws: Workspace) -> list[list[str]]:
    rows = []
    for label in ordered_labels(ws):
        run = ws.rewrite_runs[label]
        overall = run.metrics.get("overall", {})
        special = overall.get("D_special", {})
        rows.append(
            [
                _method_name(run),
                ws.rewrite_state(label),
                str(len(run.rewrites)),
                _fmt(overall.get("r_pri")),
                _fmt(overall.get("r_pub")),
                _fmt(overall.get("r_connect")),
                _fmt(overall.get("leak_check")),
                _fmt(overall.get("seconds_per_doc")),
                _fmt(special.get("r_pri")),
                _fmt(special.get("r_pub")),
                _fmt(run.metrics.get("in_d_infer")),
            ]
        )
    return rows


def render_scatter(ws: Workspace) -> Any:
    """A matplotlib figure: r_pub against r_pri, one labelled point per method (best: top left)."""
    return scatter_figure(scatter_points(ws))


def scatter_points(ws: Workspace) -> list[dict[str, Any]]:
    points = []
    for label in ordered_labels(ws):
        run = ws.rewrite_runs[label]
        overall = run.metrics.get("overall", {})
        if overall.get("r_pri") is None or overall.get("r_pub") is None:
            continue
        state = ws.rewrite_state(label)
        name = _method_name(run) + (" (stale)" if state == STALE else "")
        points.append({"method": name, "r_pri": float(overall["r_pri"]), "r_pub": float(overall["r_pub"])})
    return points


def render_accuracy(ws: Workspace) -> str:
    rows = []
    for label in ordered_labels(ws):
        result = ws.rewrite_runs[label].accuracy
        if result:
            rows.append(
                [
                    esc(label),
                    esc(f"{_fmt(result.get('records'))} of {_fmt(result.get('asked'))}"),
                    esc(_fmt(result.get("original"))),
                    esc(_fmt(result.get("rewritten"))),
                ]
            )
    if not rows:
        return '<p class="rps-empty">No accuracy measured yet.</p>'
    stopped = [
        f"<li>{esc(label)}: {esc(ws.rewrite_runs[label].accuracy['stopped'])}</li>"
        for label in ordered_labels(ws)
        if ws.rewrite_runs[label].accuracy.get("stopped")
    ]
    headers = ["method", "queries answered", "accuracy (original)", "accuracy (rewritten)"]
    notes = f'<ul class="rps-problems">{"".join(stopped)}</ul>' if stopped else ""
    return html_table(headers, rows) + notes


def render_selection(ws: Workspace, label: str | None, doc_id: str | None) -> tuple[Any, ...]:
    labels = ordered_labels(ws)
    label = label if label in labels else (labels[0] if labels else None)
    run = ws.rewrite_runs.get(label) if label else None
    doc_choices = (
        [(text, r.doc_id) for r, text in zip(run.rewrites, doc_labels(ws, run), strict=True)] if run else []
    )
    doc_ids = [d for _, d in doc_choices]
    if run is not None and doc_id not in doc_ids:
        doc_id = _first_changed(run) or (doc_ids[0] if doc_ids else None)
    # A value the new choices lack (another question's document) would make every later event
    # that reads this dropdown fail, so the value is always one of the choices or None.
    method_update = gr.Dropdown(
        choices=[(_method_name(ws.rewrite_runs[lbl]), lbl) for lbl in labels], value=label
    )
    doc_update = gr.Dropdown(choices=doc_choices, value=doc_id if doc_id in doc_ids else None)
    if run is None:
        empty = '<p class="rps-empty">Run an eraser to see its rewrites here.</p>'
        return method_update, doc_update, empty, [], empty
    return (
        method_update,
        doc_update,
        render_diff(ws, run, doc_id),
        render_doc_metrics(ws, run),
        render_rewritten_graph(ws, run),
    )


def _first_changed(run: RewriteRun) -> str | None:
    return next((r.doc_id for r in run.rewrites if r.edits), None)


def _private_layers(ws: Workspace, doc_id: str) -> list[Layer]:
    private = ws.private_keys()
    label = ws.graph.label
    return [
        Layer(t.span, "rps-private", f"private: {label(t.key[0])} —{t.key[1]}→ {label(t.key[2])}")
        for t in ws.triples
        if t.doc_id == doc_id and t.key in private
    ]


def _surviving_layers(run: RewriteRun, doc_id: str, private: set[TripleKey]) -> list[Layer]:
    layers = []
    for item in run.metrics.get("triples", []):
        triple = triple_from_dict(item)
        if triple.doc_id == doc_id and triple.key in private:
            layers.append(Layer(triple.span, "rps-leak", f"private triple still here: {triple.label()}"))
    return layers


def render_diff(ws: Workspace, run: RewriteRun, doc_id: str | None) -> str:
    rewrite = run.rewrite_of(doc_id) if doc_id else None
    if rewrite is None:
        return '<p class="rps-empty">Choose a document.</p>'
    left = [
        Layer(e.original_span, "rps-del", e.reason or e.kind) for e in rewrite.edits if e.kind != "inserted"
    ]
    left += [
        Layer(e.original_span, "rps-del", f"inserted here: {e.reason}")
        for e in rewrite.edits
        if e.kind == "inserted"
    ]
    right = [Layer(e.rewrite_span, "rps-ins", e.reason or e.kind) for e in rewrite.edits]
    right += _surviving_layers(run, rewrite.doc_id, set(rewrite.removed))
    broken = broken_in_rewrite(rewrite.original, rewrite.text, get_spacy())
    right += broken_layers(broken)
    original_html = layered_text(rewrite.original, _private_layers(ws, rewrite.doc_id) + left)
    rewrite_html = layered_text(rewrite.text, right)
    title = ws.source_title(rewrite.doc_id)
    notes = list(rewrite.notes) + [f"repair: {r}" for r in rewrite.repairs]
    stale = ws.rewrite_state(run.label) == STALE
    legend = (
        '<div class="rps-legend"><span class="rps-private">private triple (sentence)</span>'
        '<span class="rps-del">removed</span><span class="rps-ins">inserted / replaced</span>'
        '<span class="rps-leak">private triple re-extracted from the rewrite</span>'
        '<span class="rps-broken">reads broken (fluency checker)</span></div>'
    )
    return (
        (f'<p class="rps-problems">{esc(STATE_TEXT[STALE])}</p>' if stale else "")
        + broken_notice(broken)
        + legend
        + side_by_side(f"Original: {title}", original_html, f"Rewrite ({run.label})", rewrite_html)
        + (f'<ul class="rps-note">{"".join(f"<li>{esc(n)}</li>" for n in notes)}</ul>' if notes else "")
    )


def broken_layers(broken: Sequence[Broken]) -> list[Layer]:
    """The rewrite's broken constructions, marked where they are."""
    return [Layer(b.span, "rps-broken", f"reads broken: {b.kind}") for b in broken]


def broken_notice(broken: Sequence[Broken]) -> str:
    """A line above the diff when the fluency checker flags the rewrite (it never reaches SFT data)."""
    if not broken:
        return ""
    kinds = ", ".join(dict.fromkeys(b.kind for b in broken))
    return (
        f'<p class="rps-problems rps-broken-notice">This rewrite does not read as written English '
        f"({len(broken)} broken construction(s): {esc(kinds)}); marked below.</p>"
    )


def doc_labels(ws: Workspace, run: RewriteRun) -> list[str]:
    """Each rewritten document's title, with its id when another document has the same title."""
    titles = [ws.source_title(r.doc_id) for r in run.rewrites]
    repeated = {t for t in titles if titles.count(t) > 1}
    return [f"{t} [{r.doc_id}]" if t in repeated else t for t, r in zip(titles, run.rewrites, strict=True)]


def render_doc_metrics(ws: Workspace, run: RewriteRun) -> list[list[str]]:
    per_doc = run.metrics.get("per_doc", {})
    rows = []
    for rewrite, label in zip(run.rewrites, doc_labels(ws, run), strict=True):
        m = per_doc.get(rewrite.doc_id, {})
        notes = "; ".join([*rewrite.notes, *rewrite.repairs])
        rows.append(
            [
                label,
                _fmt(m.get("private")),
                _fmt(m.get("public")),
                _fmt(m.get("r_pri")),
                _fmt(m.get("r_pub")),
                _fmt(m.get("leak_check")),
                _fmt(m.get("special")),
                f"{rewrite.seconds:.3f}",
                notes,
            ]
        )
    return rows


def render_rewritten_graph(ws: Workspace, run: RewriteRun) -> str:
    triples = [triple_from_dict(item) for item in run.metrics.get("triples", [])]
    private = {key for rewrite in run.rewrites for key in rewrite.removed}  # G_pri when the run was made
    edges: dict[TripleKey, list[Triple]] = {}
    for triple in triples:
        edges.setdefault(triple.key, []).append(triple)
    connected = [tuple(k) for k in run.metrics.get("connected", [])]  # what r_connect counted
    paths = surviving_connections(connected, edges)
    on_path = {key for path in paths.values() for key in path}
    statuses = {
        key: ("private" if key in private else "leak" if key in on_path else "public") for key in edges
    }
    total = len(edges)
    if total > MAX_GRAPH_EDGES:  # red edges first, then as many others as the page can carry
        ranked = sorted(edges, key=lambda key: statuses[key] == "public")
        edges = {key: edges[key] for key in ranked[:MAX_GRAPH_EDGES]}
    texts = Corpus(documents=[Document(r.doc_id, ws.source_title(r.doc_id), r.text) for r in run.rewrites])
    mentioning: dict[str, set[str]] = {}
    for triple in triples:
        for node in triple.key[0], triple.key[2]:
            mentioning.setdefault(node, set()).add(triple.doc_id)
    nodes, graph_edges = graph_elements(
        edges, statuses, texts, ws.source_titles(), ws.graph.label, lambda n: mentioning.get(n, set())
    )
    js, css = vis_urls()
    page = graph_page(
        graph_data(nodes, graph_edges, positions=ws.node_positions()),
        js,
        css,
        empty="No triples re-extracted from the rewrites.",
        legend=("private", "leak", "public"),
    )
    caption = (
        f'<div class="rps-caption">Graph of the rewritten documents ({esc(run.label)}), each entity '
        "where the original graph draws it: "
        f"{len(paths)} private triple(s) still connected (red: a surviving private triple or a path that "
        "reconnects a private head and tail)."
        + (f" Showing {len(edges)} of {total} triples, red ones first." if total > len(edges) else "")
        + "</div>"
    )
    return caption + srcdoc_iframe(page, "Graph of the rewritten set", height=440)

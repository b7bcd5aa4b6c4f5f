"""Knowledge graph & privacy tab: the graph, the triples table and the privacy definition."""

from __future__ import annotations

from typing import Any

import gradio as gr

from core.filters import FILTER_PUBLIC
from core.types import TripleKey, triple_key
from core.workspace import SPLIT_METHODS, Workspace
from ui.context import StudioContext
from ui.render import (
    esc,
    format_path,
    graph_data,
    graph_elements,
    graph_page,
    html_list,
    srcdoc_iframe,
    vis_urls,
)

TABLE_HEADERS = ["status", "head", "relation", "tail", "document"]
TABLE_MAX_ROWS = 2000
MOVES_SHOWN = 100
KEY_SEPARATOR = " | "
WHOLE_CORPUS_LABEL = "Whole corpus (one graph)"


def build(ctx: StudioContext) -> None:
    settings = ctx.settings
    with gr.Tab("Knowledge graph & privacy", id="graph"):
        # The paper's unit: one graph per question and its retrieved passages.
        scope = ctx.register(
            "scope",
            gr.Dropdown(label="Question (retrieval set)", choices=[(WHOLE_CORPUS_LABEL, "")], value=""),
        )
        with gr.Row():
            doc_filter = ctx.register(
                "filter_document", gr.Dropdown(label="Document", choices=[("All", "")], value="")
            )
            entity_filter = ctx.register(
                "filter_entity", gr.Dropdown(label="Entity", choices=[("All", "")], value="")
            )
            relation_filter = ctx.register(
                "filter_relation", gr.Dropdown(label="Relation", choices=[("All", "")], value="")
            )
            search = ctx.register(
                "filter_search", gr.Textbox(label="Search", placeholder="text in head, relation, tail")
            )
            max_edges = ctx.register(
                "filter_max_edges", gr.Slider(10, 1000, value=150, step=10, label="Max edges in the graph")
            )
        graph = ctx.register("graph", gr.HTML())
        with gr.Row():
            with gr.Column(scale=3):
                table = ctx.register(
                    "triples",
                    gr.Dataframe(
                        headers=TABLE_HEADERS,
                        datatype="str",
                        interactive=False,
                        wrap=True,
                        max_height=420,
                        label="Triples (click a row to mark or unmark it private)",
                    ),
                )
            with gr.Column(scale=2):
                mark_choice = ctx.register(
                    "mark_entity_choice", gr.Dropdown(label="Entity", choices=[], allow_custom_value=True)
                )
                mark = ctx.register("mark_entity", gr.Button("Mark entity private"))
                with gr.Row():
                    ratio = ctx.register(
                        "split_ratio",
                        gr.Slider(0.05, 1.0, value=settings.private_ratio, step=0.05, label="Ratio"),
                    )
                    seed = ctx.register(
                        "split_seed", gr.Number(value=settings.seed, precision=0, label="Seed")
                    )
                method = ctx.register(
                    "split_method",
                    gr.Radio(list(SPLIT_METHODS), value=settings.split_method, label="Sampling"),
                )
                split = ctx.register("random_split", gr.Button("Random split"))
                with gr.Row():
                    apply = ctx.register("apply_filters", gr.Button("Apply filters", variant="primary"))
                    clear = ctx.register("clear_private", gr.Button("Clear private marks"))
                # Named twin of the row click, for scripts and tests: "head | relation | tail".
                toggle_key = ctx.register("toggle_key", gr.Textbox(visible=False))
                toggle = ctx.register("toggle_triple", gr.Button("Toggle", visible=False))
        moves = ctx.register("filter_moves", gr.HTML())

    filters = [doc_filter, entity_filter, relation_filter, search, max_edges]

    def on_select(ws: Workspace, evt: gr.SelectData) -> tuple[Any, ...]:
        row = evt.row_value
        if not row or len(row) < 4:
            raise ValueError("click a triple row to mark it private")
        key = triple_key(row[1], row[2], row[3])
        return _toggle(ws, key)

    def on_toggle_text(ws: Workspace, text: str) -> tuple[Any, ...]:
        return _toggle(ws, parse_key(text))

    def on_mark_entity(ws: Workspace, entity: str | None) -> tuple[Any, ...]:
        added = ws.mark_entity_private(entity or "")
        return ws, f"Marked {added} more triple(s) of {entity!r} private. {_counts(ws)}"

    def on_split(
        ws: Workspace, ratio_value: float, seed_value: float | None, method_value: str | None
    ) -> tuple[Any, ...]:
        chosen = method_value or settings.split_method
        ws.random_split(float(ratio_value), int(seed_value or 0), chosen)
        return ws, f"Random split. {_counts(ws)} Sampling: {chosen}."

    def on_scope(ws: Workspace, query_id: str | None) -> tuple[Any, ...]:
        ws.set_scope(query_id or None)
        return ws, f"Showing {_scope_label(ws)}. {_counts(ws)}"

    def on_apply(ws: Workspace) -> tuple[Any, ...]:
        definition = ws.apply_filters()
        return ws, f"Filters applied: {len(definition.moves)} triple(s) moved. {_counts(ws)}"

    def on_clear(ws: Workspace) -> tuple[Any, ...]:
        ws.clear_private()
        return ws, "Cleared all private marks."

    ctx.action(table.select, on_select, [], [], api_name="select_triple")
    ctx.action(toggle.click, on_toggle_text, [toggle_key], [], api_name="toggle_triple")
    ctx.action(mark.click, on_mark_entity, [mark_choice], [], api_name="mark_entity")
    ctx.action(split.click, on_split, [ratio, seed, method], [], api_name="random_split")
    ctx.action(scope.input, on_scope, [scope], [], api_name="set_scope")
    ctx.action(apply.click, on_apply, [], [], api_name="apply_filters")
    ctx.action(clear.click, on_clear, [], [], api_name="clear_private")

    def render_filtered(
        ws: Workspace, doc: str, entity: str, relation: str, text: str, limit: float
    ) -> tuple:
        doc, entity, relation, text = doc or "", entity or "", relation or "", text or ""
        graph_html = render_graph(ws, doc, entity, relation, text, int(limit or 150))
        return graph_html, render_table(ws, doc, entity, relation, text)

    def render_choices(ws: Workspace, doc: str, entity: str, relation: str, chosen: str | None) -> tuple:
        return (
            _dropdown([("All", "")] + [(ws.source_title(d), d) for d in _source_ids(ws)], doc),
            _dropdown([("All", "")] + [(label, label) for label in _entity_labels(ws)], entity),
            _dropdown([("All", "")] + [(r, r) for r in sorted({k[1] for k in ws.all_keys()})], relation),
            gr.Dropdown(choices=_entity_labels(ws), value=chosen or None),
        )

    ctx.add_view(render_scope, [scope])
    ctx.add_view(
        render_choices,
        [doc_filter, entity_filter, relation_filter, mark_choice],
        [doc_filter, entity_filter, relation_filter, mark_choice],
    )
    ctx.add_view(render_filtered, [graph, table], filters)
    ctx.add_view(render_moves, [moves])
    for component in filters:
        trigger = component.release if isinstance(component, gr.Slider) else component.change
        if isinstance(component, gr.Textbox):
            trigger = component.submit
        trigger(
            render_filtered,
            [ctx.workspace_state, *filters],
            [graph, table],
            api_visibility="private",
            show_progress="hidden",
        )


def _toggle(ws: Workspace, key: TripleKey) -> tuple[Any, ...]:
    marked = ws.toggle_private(key)
    verb = "Marked" if marked else "Unmarked"
    return ws, f"{verb} ({key[0]}, {key[1]}, {key[2]}) private. {_counts(ws)}"


def parse_key(text: str) -> TripleKey:
    parts = [part.strip() for part in (text or "").split(KEY_SEPARATOR.strip())]
    if len(parts) != 3 or not all(parts):
        raise ValueError(f"a triple is written 'head | relation | tail', got {text!r}")
    return triple_key(*parts)


def _counts(ws: Workspace) -> str:
    if ws.definition is None:
        return "Nothing is private."
    d = ws.definition
    return f"{len(d.private)} private, {len(d.public)} public, {len(d.excluded)} excluded."


def _dropdown(choices: list[tuple[str, str]], value: str) -> Any:
    values = {v for _, v in choices}
    return gr.Dropdown(choices=choices, value=value if value in values else "")


def _source_ids(ws: Workspace) -> list[str]:
    retrieval_set = ws.retrieval_set()
    if retrieval_set is not None:
        return [d.id for d in retrieval_set.documents] + [retrieval_set.query.id]
    return [d.id for d in ws.corpus.documents] + [q.id for q in ws.corpus.queries]


def render_scope(ws: Workspace) -> Any:
    questions = [(f"{text} ({query_id})", query_id) for query_id, text in ws.scopes()]
    choices = [(WHOLE_CORPUS_LABEL, ""), *questions]
    return gr.Dropdown(choices=choices, value=ws.scope or "")


def _scope_label(ws: Workspace) -> str:
    retrieval_set = ws.retrieval_set()
    if retrieval_set is None:
        return "the whole corpus as one graph"
    return f"the graph of {retrieval_set.query.text!r} ({len(retrieval_set.documents)} passages)"


def _entity_labels(ws: Workspace) -> list[str]:
    return sorted({ws.graph.label(node) for node in ws.graph.nodes()}, key=str.casefold)


def render_graph(ws: Workspace, doc: str, entity: str, relation: str, text: str, limit: int) -> str:
    if not ws.scoped_triples():
        page_data = {"nodes": [], "edges": []}
        empty = "No triples yet: load documents and extract triples in the Documents tab."
    else:
        sub = ws.graph.subgraph(
            doc_ids=[doc] if doc else None,
            entity=entity or None,
            relation=relation or None,
            search=text or None,
            limit=limit,
        )
        nodes, edges = graph_elements(
            sub.edges, ws.statuses(), ws.corpus, _titles(ws), ws.graph.label, ws.graph.documents_mentioning
        )
        page_data = graph_data(nodes, edges)
        empty = "No triple matches these filters."
    js, css = vis_urls()
    shown = len(page_data["edges"])
    caption = f'<div class="rps-caption">{shown} of {len(ws.graph)} distinct triple(s) shown.</div>'
    return caption + srcdoc_iframe(graph_page(page_data, js, css, empty=empty), "Knowledge graph")


def render_table(ws: Workspace, doc: str, entity: str, relation: str, text: str) -> list[list[str]]:
    rows = ws.triples_table(doc_id=doc, entity=entity, relation=relation, search=text, limit=TABLE_MAX_ROWS)
    return [[r["status"], r["head"], r["relation"], r["tail"], r["document"]] for r in rows]


def render_moves(ws: Workspace) -> str:
    if ws.definition is None:
        return (
            '<p class="rps-empty">Nothing is private yet: '
            "click triples, mark an entity or use a random split.</p>"
        )
    d = ws.definition
    label = ws.graph.label
    counts = (
        f"<p><b>{len(d.private)}</b> private · <b>{len(d.public)}</b> public · "
        f"<b>{len(d.excluded)}</b> excluded by the filters ({len(d.marked)} marked).</p>"
    )
    items = []
    for move in ws.moves(limit=MOVES_SHOWN):
        head, relation, tail = move.key
        triple = f"<b>{esc(label(head))} —{esc(relation)}→ {esc(label(tail))}</b>"
        if move.filter == FILTER_PUBLIC:
            why = "left the public set: its entities are connected in the private graph"
        else:
            why = "left the private set: it can be inferred from the public graph"
        path = (
            f'<br><span class="rps-path">via {esc(format_path(head, move.path, label))}</span>'
            if move.path
            else ""
        )
        items.append(f"{triple} {esc(why)}{path}")
    more = len(d.moves) - MOVES_SHOWN
    tail_note = f"<p>… and {more} more move(s).</p>" if more > 0 else ""
    return (
        "<h3>What the filters moved, and why</h3>"
        + counts
        + html_list(items, "The filters moved nothing: the private and public sets are already separate.")
        + tail_note
    )


def _titles(ws: Workspace) -> dict[str, str]:
    return ws.source_titles()

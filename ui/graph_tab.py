"""Knowledge graph & privacy tab: the graph, the triples table and the privacy definition."""

from __future__ import annotations

import json
from typing import Any

import gradio as gr

from core.eraser4rag.erasers.pipeline import SPLIT_METHODS
from core.eraser4rag.filters import FILTER_PUBLIC
from core.eraser4rag.graph_view import visible_part
from core.eraser4rag.workspace import (
    EXCLUDED,
    INFERABLE,
    STATUS_EXPLANATIONS,
    STATUS_LABELS,
    Workspace,
    status_counts_text,
    status_label,
)
from core.types import TripleKey, triple_key
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

TABLE_HEADERS = ["status", "head", "relation", "tail", "document", "category"]
TABLE_COLUMN_WIDTHS = ["17%", "19%", "15%", "19%", "20%", "10%"]
TABLE_MAX_ROWS = 2000
MAX_NODES_DEFAULT = 60
MOVES_SHOWN = 100
KEY_SEPARATOR = " | "
WHOLE_CORPUS_LABEL = "Whole corpus (one graph)"


def build(ctx: StudioContext) -> None:
    settings = ctx.settings
    with gr.Tab("Knowledge graph & privacy", id="graph"):
        # The paper's unit: one graph per question and its retrieved passages.
        scope = ctx.register(
            "scope",
            # set_scope checks the id itself: an API session's dropdown never got the page's choices.
            gr.Dropdown(
                label="Question (retrieval set)",
                choices=[(WHOLE_CORPUS_LABEL, "")],
                value="",
                allow_custom_value=True,
            ),
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
            max_nodes = ctx.register(
                "filter_max_nodes",
                gr.Slider(10, 300, value=MAX_NODES_DEFAULT, step=10, label="Max entities in the graph"),
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
                        column_widths=TABLE_COLUMN_WIDTHS,
                        label="Triples (click a row to mark or unmark it private)",
                    ),
                )
            with gr.Column(scale=2):
                mark_choice = ctx.register(
                    "mark_entity_choice", gr.Dropdown(label="Entity", choices=[], allow_custom_value=True)
                )
                mark = ctx.register("mark_entity", gr.Button("Mark entity private"))
                category_choice = ctx.register(
                    "mark_category_choice",
                    gr.Dropdown(label="Category of personal data", choices=[], allow_custom_value=True),
                )
                mark_category = ctx.register("mark_category", gr.Button("Mark category private"))
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
                with gr.Row():
                    split = ctx.register("random_split", gr.Button("Random split"))
                    clear = ctx.register("clear_private", gr.Button("Clear private marks"))
                    undo = ctx.register("undo_marks", gr.Button("Undo", interactive=False))
                split_confirm = ctx.confirmation("random_split")
                clear_confirm = ctx.confirmation("clear_private")
                # Named twin of the row click, for scripts and tests: "head | relation | tail".
                toggle_key = ctx.register("toggle_key", gr.Textbox(visible=False))
                toggle = ctx.register("toggle_triple", gr.Button("Toggle", visible=False))
                shown_row = ctx.register("triples_shown_row", gr.Textbox(visible=False))
        moves = ctx.register("filter_moves", gr.HTML())

    filters = [doc_filter, entity_filter, relation_filter, search, max_nodes]

    def on_select(ws: Workspace, shown: str, evt: gr.SelectData) -> tuple[Any, ...]:
        return _toggle(ws, clicked_key(ws, shown, evt.row_value))

    def on_toggle_text(ws: Workspace, text: str) -> tuple[Any, ...]:
        return _toggle(ws, parse_key(text))

    def on_mark_entity(ws: Workspace, entity: str | None) -> tuple[Any, ...]:
        added = ws.mark_entity_private(entity or "")
        return ws, f"Marked {added} more triple(s) of {entity!r} private. {_counts(ws)}"

    def on_mark_category(ws: Workspace, category: str | None) -> tuple[Any, ...]:
        added = ws.mark_category_private(category or "")
        wanted = (category or "").strip().casefold()
        marked = sum(1 for k, c in ws.key_categories().items() if c == wanted and k in ws.marked_private)
        return (
            ws,
            f"Marked {added} more triple(s) of the category {category!r} private ({marked} in all). "
            + _counts(ws),
        )

    def on_split(
        ws: Workspace, ratio_value: float, seed_value: float | None, method_value: str | None
    ) -> tuple[Any, ...]:
        chosen = method_value or settings.split_method
        ws.random_split(float(ratio_value), int(seed_value or 0), chosen)
        return ws, f"Random split. {_counts(ws)} Sampling: {chosen}. Undo puts the earlier marks back."

    def on_scope(ws: Workspace, query_id: str | None) -> tuple[Any, ...]:
        ws.set_scope(query_id or None)
        return ws, f"Showing {_scope_label(ws)}. {_counts(ws)}"

    def ask_split(ws: Workspace, *_: Any) -> str | None:
        marked = len(ws.marked_private)
        return f"A random split replaces your {marked} private mark(s)." if marked else None

    def on_clear(ws: Workspace) -> tuple[Any, ...]:
        ws.clear_private()
        return ws, "Cleared all private marks. Undo puts them back."

    def ask_clear(ws: Workspace) -> str | None:
        marked = len(ws.marked_private)
        return f"Clear all {marked} private mark(s)?" if marked else None

    def on_undo(ws: Workspace) -> tuple[Any, ...]:
        ws.undo()
        return ws, f"Undone: the marks are back as they were. {_counts(ws)}"

    ctx.row_action(table, "triples", shown_row, on_select, api_name="select_triple")
    ctx.action(toggle.click, on_toggle_text, [toggle_key], [], api_name="toggle_triple")
    ctx.action(mark.click, on_mark_entity, [mark_choice], [], api_name="mark_entity")
    ctx.action(mark_category.click, on_mark_category, [category_choice], [], api_name="mark_category")
    ctx.action(undo.click, on_undo, [], [], api_name="undo_marks")
    ctx.action(scope.input, on_scope, [scope], [], api_name="set_scope")
    ctx.confirmed_action(
        split, split_confirm, on_split, [ratio, seed, method], ask=ask_split, api_name="random_split"
    )
    ctx.confirmed_action(clear, clear_confirm, on_clear, ask=ask_clear, api_name="clear_private")

    def render_filtered(
        ws: Workspace, doc: str, entity: str, relation: str, text: str, limit: float
    ) -> tuple:
        doc, entity, relation, text = doc or "", entity or "", relation or "", text or ""
        graph_html = render_graph(ws, doc, entity, relation, text, int(limit or MAX_NODES_DEFAULT))
        return graph_html, render_table(ws, doc, entity, relation, text)

    def render_choices(ws: Workspace, doc: str, entity: str, relation: str) -> tuple:
        return (
            _dropdown([("All", "")] + [(ws.source_title(d), d) for d in _source_ids(ws)], doc),
            _dropdown([("All", "")] + [(label, label) for label in _entity_labels(ws)], entity),
            _dropdown([("All", "")] + [(r, r) for r in sorted({k[1] for k in ws.all_keys()})], relation),
            # choices only: the value is what the user is typing, and this render's copy may be older
            gr.Dropdown(choices=_entity_labels(ws)),
        )

    ctx.add_view(render_scope, [scope])
    ctx.add_view(
        render_choices,
        [doc_filter, entity_filter, relation_filter, mark_choice],
        [doc_filter, entity_filter, relation_filter],
    )
    ctx.add_view(render_category_choices, [category_choice])
    ctx.add_view(render_filtered, [graph, table], filters)
    ctx.add_view(render_moves, [moves])
    ctx.add_view(render_undo, [undo])
    for component in filters:
        trigger = component.release if isinstance(component, gr.Slider) else component.change
        if isinstance(component, gr.Textbox):
            trigger = component.submit
        ctx.view_event(trigger, render_filtered, [ctx.workspace_state, *filters], [graph, table])


def _toggle(ws: Workspace, key: TripleKey) -> tuple[Any, ...]:
    marked = ws.toggle_private(key)
    verb = "Marked" if marked else "Unmarked"
    label = ws.graph.label
    text = f"{verb} ({label(key[0])}, {key[1]}, {label(key[2])}) private"
    status = ws.status_of(key)
    if marked and status != "private":  # the filters did not keep it: say so in the same words
        text += f", but it is {status_label(status)}"
    return ws, f"{text}. {_counts(ws)}"


def clicked_key(ws: Workspace, shown: str, row_value: Any) -> TripleKey:
    """The triple of a clicked row: the row as the page showed it (`shown`, JSON of its cells) when
    known, else the row the table's data held; never a row position."""
    row = _shown_cells(shown) or row_value
    if not row or len(row) < 4:
        raise ValueError("click a triple row to mark it private")
    key = triple_key(str(row[1]), str(row[2]), str(row[3]))
    if key not in ws.all_keys():
        raise ValueError(
            f"The clicked row ({key[0]}, {key[1]}, {key[2]}) is no longer in this workspace's triples; "
            "nothing was marked. Click the row again now that the table is up to date."
        )
    return key


def _shown_cells(shown: str) -> list[str] | None:
    try:
        cells = json.loads(shown) if shown else None
    except json.JSONDecodeError:
        return None
    if isinstance(cells, list) and all(isinstance(c, str) for c in cells):
        return cells
    return None


def render_category_choices(ws: Workspace) -> Any:
    """The scope's categories of personal data, each with its number of triples."""
    choices = [
        (f"{category} ({count} triple(s))", category) for category, count in ws.category_counts().items()
    ]
    return gr.Dropdown(choices=choices)


def render_undo(ws: Workspace) -> Any:
    steps = len(ws.mark_history)
    return gr.Button(value=f"Undo ({steps})" if steps else "Undo", interactive=bool(steps))


def parse_key(text: str) -> TripleKey:
    parts = [part.strip() for part in (text or "").split(KEY_SEPARATOR.strip())]
    if len(parts) != 3 or not all(parts):
        raise ValueError(f"a triple is written 'head | relation | tail', got {text!r}")
    return triple_key(*parts)


def _counts(ws: Workspace) -> str:
    if ws.definition is None:
        return "Nothing is private."
    return f"Triples: {status_counts_text(ws.status_counts())}."


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


def render_graph(
    ws: Workspace, doc: str, entity: str, relation: str, text: str, max_nodes: int = MAX_NODES_DEFAULT
) -> str:
    """The filtered graph, cut to whole connected groups within `max_nodes` entities."""
    caption = ""
    if not ws.scoped_triples():
        page_data: dict[str, Any] = {"nodes": [], "edges": []}
        empty = "No triples yet: load documents and extract triples in the Documents tab."
    else:
        sub = ws.graph.subgraph(
            doc_ids=[doc] if doc else None,
            entity=entity or None,
            relation=relation or None,
            search=text or None,
        )
        view = visible_part(sub.edges, max_nodes, priority=ws.private_keys())
        edges_shown = {key: sub.edges[key] for key in view.keys}
        nodes, edges = graph_elements(
            edges_shown,
            ws.statuses(),
            ws.corpus,
            _titles(ws),
            ws.graph.label,
            ws.graph.documents_mentioning,
            ws.key_categories(),
        )
        groups = question_groups(ws, [node.id for node in nodes])
        page_data = graph_data(nodes, edges, groups, positions=ws.node_positions())
        empty = "No triple matches these filters."
        filtered = len(sub.edges) < len(ws.graph)
        caption = view.summary() + (f" ({len(ws.graph)} triples before the filters.)" if filtered else "")
    js, css = vis_urls()
    caption_html = f'<div class="rps-caption">{esc(caption)}</div>' if caption else ""
    return caption_html + srcdoc_iframe(graph_page(page_data, js, css, empty=empty), "Knowledge graph")


def question_groups(ws: Workspace, nodes: list[str]) -> dict[str, str] | None:
    """In the whole-corpus view of a corpus with questions: each entity's question (the one whose
    passages mention it; "" when several or none do), so the graph reads as clusters with a legend."""
    if ws.scope is not None or not ws.corpus.queries:
        return None
    question_of_source = {}
    for query in ws.corpus.queries:
        question_of_source[query.id] = query.text
        for doc_id in query.doc_ids:
            question_of_source.setdefault(doc_id, query.text)
    groups = {}
    for node in nodes:
        questions = {question_of_source.get(source, "") for source in ws.graph.documents_mentioning(node)}
        groups[node] = questions.pop() if len(questions) == 1 else ""
    return groups


def render_table(ws: Workspace, doc: str, entity: str, relation: str, text: str) -> list[list[str]]:
    rows = ws.triples_table(doc_id=doc, entity=entity, relation=relation, search=text, limit=TABLE_MAX_ROWS)
    return [
        [status_label(r["status"]), r["head"], r["relation"], r["tail"], _document_cell(r), r["category"]]
        for r in rows
    ]


def _document_cell(row: dict[str, Any]) -> str:
    times = row.get("occurrences", 1)
    return row["document"] + (f" (×{times})" if times > 1 else "")


def render_moves(ws: Workspace) -> str:
    if ws.definition is None:
        return (
            '<p class="rps-empty">Nothing is private yet: '
            "click triples, mark an entity or use a random split.</p>"
        )
    d = ws.definition
    label = ws.graph.label
    counts = (
        f"<p>Triples: {esc(status_counts_text(ws.status_counts()))} "
        f"({len(d.marked)} marked private by you).</p>"
    )
    items = []
    for move in ws.moves(limit=MOVES_SHOWN):
        head, relation, tail = move.key
        triple = f"<b>{esc(label(head))} —{esc(relation)}→ {esc(label(tail))}</b>"
        state = EXCLUDED if move.filter == FILTER_PUBLIC else INFERABLE
        why = f"{STATUS_LABELS[state]} — {STATUS_EXPLANATIONS[state]}"
        path = (
            f'<br><span class="rps-path">via {esc(format_path(head, move.path, label))}</span>'
            if move.path
            else ""
        )
        items.append(f"{triple} {esc(why)}{path}")
    more = len(d.moves) - MOVES_SHOWN
    tail_note = f"<p>… and {more} more move(s).</p>" if more > 0 else ""
    return (
        "<h3>Triples the filters excluded, and why</h3>"
        + counts
        + html_list(items, "The filters moved nothing: the private and public sets are already separate.")
        + tail_note
    )


def _titles(ws: Workspace) -> dict[str, str]:
    return ws.source_titles()

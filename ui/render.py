"""Presentation helpers: escaped HTML, highlighted spans, paths and the graph page.

Everything user-provided that reaches HTML goes through `esc` (text and attributes) or
`json_for_html` (data read by the graph page's script). The graph page is a standalone
HTML document shown in an `<iframe srcdoc=...>` (gr.HTML runs no scripts); it draws
with vis-network from pyvis's bundled copy, served by the studio itself, and fills its
details panel with `textContent` only, so no user text is ever parsed as HTML.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.eraser4rag.workspace import STATUS_EXPLANATIONS, STATUS_LABELS
from core.types import Corpus, Span, Triple, TripleKey

VIS_VERSION_DIR = "vis-9.1.2"
CONTEXT_CHARS = 160
MAX_OCCURRENCES_SHOWN = 3
NODE_LABEL_CHARS = 40

# Edge styles by status (vis-network edge options). Private edges are red and dashed.
EDGE_STYLES: dict[str, dict[str, Any]] = {
    "private": {"color": "#d62728", "dashes": [8, 5], "width": 3},
    "public": {"color": "#8c8c8c", "dashes": False, "width": 1.5},
    "excluded": {"color": "#b8b8b8", "dashes": [2, 5], "width": 1.5},
    "inferable": {"color": "#9467bd", "dashes": [2, 5], "width": 2},
    "query": {"color": "#1f77b4", "dashes": False, "width": 1.5},
    "path": {"color": "#ff7f0e", "dashes": False, "width": 4},
    "leak": {"color": "#d62728", "dashes": False, "width": 4},
}
PATH = "path"  # the risk view's extra style: a triple on an inference path
LEAK = "leak"  # the rewrite tab's extra style: a surviving connection of a private head and tail
LEGEND_LABELS = {**STATUS_LABELS, PATH: "on an inference path", LEAK: "still connects private entities"}
STATUS_TEXT = {
    **{status: f"{STATUS_LABELS[status]}: {text}" for status, text in STATUS_EXPLANATIONS.items()},
    PATH: "on an inference path: another document's triple that reconnects private entities",
    LEAK: "survived the rewrite and reconnects a private head and tail in the rewritten documents",
}
GRAPH_SEED = 7  # vis-network layout seed: the same graph is drawn the same way on every render


def esc(value: object) -> str:
    """HTML-escape text for element content and quoted attributes."""
    return html.escape(str(value), quote=True)


def json_for_html(data: object) -> str:
    """JSON safe inside `<script>` and HTML attributes: no raw `<`, `>`, `&` or line separators."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


def clamp_span(text: str, span: Span) -> Span:
    start = max(0, min(span[0], len(text)))
    end = max(start, min(span[1], len(text)))
    return start, end


def span_context(text: str, span: Span, margin: int = CONTEXT_CHARS) -> tuple[str, str, str]:
    """(before, span text, after), the outer parts cut to `margin` characters with an ellipsis."""
    start, end = clamp_span(text, span)
    before = text[max(0, start - margin) : start]
    after = text[end : end + margin]
    if start - margin > 0:
        before = "…" + before
    if end + margin < len(text):
        after = after + "…"
    return before, text[start:end], after


def highlight(text: str, span: Span, margin: int | None = None) -> str:
    """Escaped text with the span wrapped in `<mark>` (whole text, or `margin` characters around it)."""
    if margin is None:
        start, end = clamp_span(text, span)
        before, marked, after = text[:start], text[start:end], text[end:]
    else:
        before, marked, after = span_context(text, span, margin)
    return f"{esc(before)}<mark>{esc(marked)}</mark>{esc(after)}"


def format_key(key: TripleKey, label: Callable[[str], str] = str) -> str:
    head, relation, tail = key
    return f"{label(head)} —{relation}→ {label(tail)}"


def format_path(start: str, path: Sequence[TripleKey], label: Callable[[str], str] = str) -> str:
    """`A —work_for→ B —located_in→ C`, walking `path` from `start` (edges may be walked backwards)."""
    parts = [label(start)]
    node = start
    for head, relation, tail in path:
        if node == head:
            parts.append(f"—{relation}→ {label(tail)}")
            node = tail
        else:
            parts.append(f"←{relation}— {label(head)}")
            node = head
    return " ".join(parts)


# --------------------------------------------------------------------------------- graph page


@dataclass(frozen=True)
class GraphNode:
    id: str
    label: str
    documents: tuple[str, ...]  # titles of the documents mentioning the node

    @property
    def size(self) -> int:
        return min(10 + 5 * len(self.documents), 40)


@dataclass(frozen=True)
class Occurrence:
    document: str
    before: str
    sentence: str
    after: str


@dataclass(frozen=True)
class GraphEdge:
    id: str
    source: str
    target: str
    relation: str
    status: str
    title: str  # "head —relation→ tail" in surface forms
    occurrences: tuple[Occurrence, ...] = field(default=())
    category: str = ""  # the kind of personal data (`Triple.category`), "" for an ordinary fact


def source_texts(corpus: Corpus) -> dict[str, str]:
    """Text of every document and query by id, built once per render."""
    return {d.id: d.text for d in corpus.documents} | {q.id: q.text for q in corpus.queries}


def occurrences_of(
    triples: Iterable[Triple], texts: Mapping[str, str], titles: Mapping[str, str]
) -> tuple[Occurrence, ...]:
    shown: list[Occurrence] = []
    for triple in list(triples)[:MAX_OCCURRENCES_SHOWN]:
        before, sentence, after = span_context(texts.get(triple.doc_id, ""), triple.span)
        shown.append(Occurrence(titles.get(triple.doc_id, triple.doc_id), before, sentence, after))
    return tuple(shown)


def graph_elements(
    edges: Mapping[TripleKey, Sequence[Triple]],
    statuses: Mapping[TripleKey, str],
    corpus: Corpus,
    titles: Mapping[str, str],
    label: Callable[[str], str],
    documents_mentioning: Callable[[str], Iterable[str]],
    categories: Mapping[TripleKey, str] | None = None,
) -> tuple[list[GraphNode], list[GraphEdge]]:
    """Nodes and styled edges for `edges` (key -> occurrences), statuses decide the style;
    `categories` (key -> kind of personal data) label the edges that hold personal data."""
    categories = categories or {}
    nodes: dict[str, GraphNode] = {}
    graph_edges: list[GraphEdge] = []
    texts = source_texts(corpus)
    for index, (key, occurrences) in enumerate(edges.items()):
        head, relation, tail = key
        for node in (head, tail):
            if node not in nodes:
                docs = sorted(titles.get(d, d) for d in documents_mentioning(node))
                nodes[node] = GraphNode(node, label(node), tuple(docs))
        first = occurrences[0] if occurrences else None
        title = f"{first.head} —{first.relation}→ {first.tail}" if first else format_key(key, label)
        graph_edges.append(
            GraphEdge(
                id=f"e{index}",
                source=head,
                target=tail,
                relation=relation,
                status=statuses.get(key, "public"),
                title=title,
                occurrences=occurrences_of(occurrences, texts, titles),
                category=categories.get(key, ""),
            )
        )
    return list(nodes.values()), graph_edges


def _short(text: str, limit: int = NODE_LABEL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


GROUP_COLOURS = ("#9ecae1", "#a1d99b", "#fdae6b", "#bcbddc", "#fdd0a2", "#c7e9c0", "#dadaeb", "#fcbba1")
SHARED_GROUP_COLOUR = "#d9d9d9"
# Label colours of the categories of personal data (the line keeps its status colour and dashes).
CATEGORY_COLOURS = ("#1b7837", "#762a83", "#b35806", "#2166ac", "#8c510a", "#c51b7d", "#01665e", "#4d4d4d")


def graph_data(
    nodes: Sequence[GraphNode],
    edges: Sequence[GraphEdge],
    groups: Mapping[str, str] | None = None,
    positions: Mapping[str, tuple[float, float]] | None = None,
) -> dict[str, Any]:
    """The JSON the graph page reads: vis-network options plus details for the panel.

    `groups` (node id -> group name, e.g. the question whose passages mention it) colours the nodes
    and adds a legend of the groups; "" is the shared/no-question group, drawn grey. A node with a
    place in `positions` (`Workspace.node_positions`) is drawn there; the page lays out the others."""
    positions = positions or {}
    names = list(dict.fromkeys(name for name in (groups or {}).values() if name))
    colour_of = {name: GROUP_COLOURS[i % len(GROUP_COLOURS)] for i, name in enumerate(names)}
    vis_nodes = [
        {
            "id": n.id,
            "label": _short(n.label),
            "size": n.size,
            "full": n.label,
            "documents": list(n.documents),
            **(
                {
                    "colour": colour_of.get(groups.get(n.id, ""), SHARED_GROUP_COLOUR),
                    "group": groups.get(n.id, ""),
                }
                if groups
                else {}
            ),
            **({"x": positions[n.id][0], "y": positions[n.id][1]} if n.id in positions else {}),
        }
        for n in nodes
    ]
    category_names = sorted({e.category for e in edges if e.category})
    category_colour = {
        name: CATEGORY_COLOURS[i % len(CATEGORY_COLOURS)] for i, name in enumerate(category_names)
    }
    vis_edges = []
    for e in edges:
        style = EDGE_STYLES.get(e.status, EDGE_STYLES["public"])
        vis_edges.append(
            {
                "id": e.id,
                "from": e.source,
                "to": e.target,
                "label": _short(e.relation, 30) + (f" [{e.category}]" if e.category else ""),
                "category": e.category,
                **({"fontColour": category_colour[e.category]} if e.category else {}),
                "arrows": "to",
                "color": {"color": style["color"], "highlight": style["color"]},
                "dashes": style["dashes"],
                "width": style["width"],
                "status": e.status,
                "statusText": STATUS_TEXT.get(e.status, e.status),
                "title_text": e.title,
                "occurrences": [
                    {"document": o.document, "before": o.before, "sentence": o.sentence, "after": o.after}
                    for o in e.occurrences
                ],
            }
        )
    legend = [{"name": name, "colour": colour_of[name]} for name in names]
    if groups and any(not groups.get(n.id, "") for n in nodes):
        legend.append({"name": "in several questions' passages, or none", "colour": SHARED_GROUP_COLOUR})
    categories = [{"name": name, "colour": category_colour[name]} for name in category_names]
    return {"nodes": vis_nodes, "edges": vis_edges, "groups": legend, "categories": categories}


_PAGE_CSS = """
html, body { margin: 0; height: 100%; font: 14px/1.4 system-ui, sans-serif; color: #222; background: #fff; }
#wrap { display: flex; height: 100%; }
#graph { flex: 1 1 68%; min-width: 0; border-right: 1px solid #ddd; }
#panel { flex: 0 0 32%; overflow: auto; padding: 8px 12px; box-sizing: border-box; }
#panel h3 { margin: 4px 0 6px; font-size: 15px; word-break: break-word; }
#panel .status { font-size: 12px; padding: 2px 6px; border-radius: 8px; display: inline-block; color: #fff; }
#panel .doc { font-weight: 600; margin-top: 10px; }
#panel .ctx { white-space: pre-wrap; word-break: break-word; }
#panel mark { background: #ffe08a; padding: 0 1px; }
#panel .hint, #empty { color: #666; }
#empty { padding: 24px; }
#drawing { position: absolute; top: 16px; left: 16px; color: #666; }
#legend { font-size: 12px; margin-top: 12px; color: #444; }
#legend span { display: inline-block; width: 22px; height: 0; margin: 0 4px 3px 8px; vertical-align: middle; }
"""

_PAGE_SCRIPT = """
(function () {
  const data = JSON.parse(document.getElementById('graph-data').textContent);
  const panel = document.getElementById('panel');
  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }
  function clearPanel() { while (panel.firstChild) panel.removeChild(panel.firstChild); }
  const edgesById = new Map(data.edges.map(e => [e.id, e]));
  const nodesById = new Map(data.nodes.map(n => [n.id, n]));
  function showEdge(edge) {
    clearPanel();
    panel.appendChild(el('h3', edge.title_text));
    const status = el('span', edge.statusText, 'status');
    status.style.background = edge.color.color;
    panel.appendChild(status);
    if (edge.category) panel.appendChild(el('div', 'Category: ' + edge.category, 'hint'));
    for (const occ of edge.occurrences) {
      panel.appendChild(el('div', occ.document, 'doc'));
      const ctx = el('div', null, 'ctx');
      ctx.appendChild(document.createTextNode(occ.before));
      ctx.appendChild(el('mark', occ.sentence));
      ctx.appendChild(document.createTextNode(occ.after));
      panel.appendChild(ctx);
    }
    document.body.dataset.selected = 'edge:' + edge.id;
  }
  function showNode(node) {
    clearPanel();
    panel.appendChild(el('h3', node.full));
    panel.appendChild(el('div', 'Mentioned in ' + node.documents.length + ' document(s):', 'hint'));
    const list = el('ul');
    for (const title of node.documents) list.appendChild(el('li', title));
    panel.appendChild(list);
    document.body.dataset.selected = 'node:' + node.id;
  }
  window.showEdge = id => showEdge(edgesById.get(id));
  window.showNode = id => showNode(nodesById.get(id));
  if (!data.edges.length) {
    document.getElementById('graph').appendChild(el('div', data.empty, null)).id = 'empty';
    document.body.dataset.ready = '1';
    return;
  }
  if (typeof vis === 'undefined') {
    document.getElementById('graph').appendChild(el('div', 'vis-network did not load.', null)).id = 'empty';
    return;
  }
  // A node with a place (x, y) given by the server stays there, so the graphs of one question (its
  // graph, risk graph, rewritten graph) draw each entity in the same place; physics places the rest.
  const placed = data.nodes.filter(n => n.x !== undefined).length;
  const nodes = new vis.DataSet(data.nodes.map(n => Object.assign({id: n.id, label: n.label, size: n.size},
    n.colour ? {color: {background: n.colour, border: '#666666'}} : {},
    n.x !== undefined ? {x: n.x, y: n.y, fixed: true} : {})));
  const legend = document.getElementById('legend');
  if (legend && data.groups && data.groups.length) {
    legend.appendChild(el('div', 'Entities by question (their passages):', 'hint'));
    for (const group of data.groups) {
      const row = el('div', null, 'group');
      const dot = el('i');
      dot.style.cssText = 'display:inline-block;width:10px;height:10px;border-radius:5px;margin:0 6px 0 8px;'
        + 'border:1px solid #666;background:' + group.colour;
      row.appendChild(dot);
      row.appendChild(document.createTextNode(group.name));
      legend.appendChild(row);
    }
  }
  if (legend && data.categories && data.categories.length) {
    legend.appendChild(el('div', 'Triples by category of personal data (label colour):', 'hint'));
    for (const category of data.categories) {
      const row = el('div', null, 'category');
      const name = el('b', '[' + category.name + ']');
      name.style.cssText = 'margin:0 6px 0 8px;color:' + category.colour;
      row.appendChild(name);
      legend.appendChild(row);
    }
  }
  const edges = new vis.DataSet(data.edges.map(e => Object.assign({
    id: e.id, from: e.from, to: e.to, label: e.label, arrows: e.arrows, color: e.color, dashes: e.dashes,
    width: e.width}, e.fontColour ? {font: {color: e.fontColour}} : {})));
  // A large graph (a whole corpus's risk view) gets fewer layout rounds: each round costs more, and on
  // a busy machine 400 rounds over hundreds of entities kept the view blank for more than a minute.
  function layoutRounds(count) {
    return Math.min(400, Math.max(100, Math.round(40000 / Math.max(count, 1))));
  }
  // Seeded layout, physics run to a settled state then frozen: the same graph is drawn the
  // same way on every render, and nothing moves after a click.
  const container = document.getElementById('graph');
  // vis draws nothing until the layout has settled (seconds on a busy machine): say so meanwhile.
  const drawing = el('div', 'Laying out ' + data.nodes.length + ' entities and ' + data.edges.length
    + ' triples…', null);
  drawing.id = 'drawing';
  document.body.appendChild(drawing);
  const network = new vis.Network(container, {nodes: nodes, edges: edges}, {
    layout: {randomSeed: data.seed, improvedLayout: data.nodes.length <= 120},
    nodes: {shape: 'dot', color: {background: '#9ecae1', border: '#3182bd'},
            font: {size: 14, strokeWidth: 3, strokeColor: '#ffffff'}},
    edges: {font: {size: 11, align: 'middle', color: '#555', strokeWidth: 3, strokeColor: '#ffffff'},
            smooth: false},
    physics: {enabled: placed < data.nodes.length, solver: 'forceAtlas2Based',
              forceAtlas2Based: {gravitationalConstant: -90, springLength: 110, avoidOverlap: 0.4},
              stabilization: {enabled: true, iterations: layoutRounds(data.nodes.length), fit: true}},
    interaction: {hover: true, tooltipDelay: 150},
  });
  // Labels keep a legible size on screen whatever the zoom (canvas font size / scale).
  function keepLabelsLegible() {
    const scale = network.getScale();
    if (!(scale > 0)) return;
    const grow = Math.min(Math.max(1, 1 / scale), 4);
    network.setOptions({nodes: {font: {size: 14 * grow}}, edges: {font: {size: 11 * grow}}});
    document.body.dataset.scale = scale.toFixed(3);
  }
  // Fit whenever the frame gets its real size (a graph rendered in a hidden tab has none).
  function fitToFrame() {
    if (!container.clientWidth || !container.clientHeight) return;
    network.setSize(container.clientWidth + 'px', container.clientHeight + 'px');
    network.fit({animation: false});
    keepLabelsLegible();
  }
  function settled() {
    drawing.remove();
    network.setOptions({physics: false});
    fitToFrame();
    document.body.dataset.ready = '1';
  }
  if (placed < data.nodes.length) {
    // a stabilization that never reports (a frame the browser throttles on a busy machine) still ends
    let done = false;
    const settleOnce = () => { if (!done) { done = true; settled(); } };
    network.once('stabilizationIterationsDone', settleOnce);
    setTimeout(settleOnce, 20000);
  } else settled();  // nothing to lay out
  network.on('zoom', keepLabelsLegible);
  new ResizeObserver(fitToFrame).observe(container);
  network.on('click', params => {
    if (params.nodes.length) showNode(nodesById.get(params.nodes[0]));
    else if (params.edges.length) showEdge(edgesById.get(params.edges[0]));
  });
  window.network = network;
})();
"""


def graph_page(
    data: Mapping[str, Any],
    vis_js_url: str,
    vis_css_url: str,
    hint: str = "Click an edge or a node to see its sentence and documents.",
    empty: str = "No triples to show.",
    legend: Sequence[str] = ("private", "public", "excluded", "inferable", "query"),
) -> str:
    """A whole HTML document for an iframe's srcdoc; user text lives only in the JSON block."""
    payload = dict(data)
    payload["empty"] = empty
    payload["seed"] = GRAPH_SEED
    legend_html = "".join(
        f'<span style="border-top: 3px {"dashed" if EDGE_STYLES[s]["dashes"] else "solid"} '
        f'{EDGE_STYLES[s]["color"]}"></span>{esc(LEGEND_LABELS.get(s, s))}<br>'
        for s in legend
    )
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        f'<link rel="stylesheet" href="{esc(vis_css_url)}">'
        f'<script src="{esc(vis_js_url)}"></script>'
        f"<style>{_PAGE_CSS}</style></head><body>"
        '<div id="wrap"><div id="graph"></div>'
        f'<div id="panel"><div class="hint">{esc(hint)}</div><div id="legend">{legend_html}</div></div></div>'
        f'<script id="graph-data" type="application/json">{json_for_html(payload)}</script>'
        f"<script>{_PAGE_SCRIPT}</script></body></html>"
    )


def srcdoc_iframe(page: str, title: str, height: int = 560, elem_class: str = "rps-graph-frame") -> str:
    """An iframe that runs `page`: sandboxed (scripts only, opaque origin), srcdoc escaped."""
    return (
        f'<iframe class="{esc(elem_class)}" title="{esc(title)}" sandbox="allow-scripts" '
        f'style="width: 100%; height: {int(height)}px; border: 1px solid #ddd; border-radius: 6px;" '
        f'srcdoc="{esc(page)}"></iframe>'
    )


def vis_asset_dir() -> Path:
    """pyvis's bundled vis-network folder (served by the studio; no CDN)."""
    # pyvis (~0.4 s) loads only when a graph is drawn
    import pyvis

    return Path(pyvis.__file__).resolve().parent / "templates" / "lib" / VIS_VERSION_DIR


def vis_urls() -> tuple[str, str]:
    folder = vis_asset_dir()
    return (
        f"/gradio_api/file={folder / 'vis-network.min.js'}",
        f"/gradio_api/file={folder / 'vis-network.css'}",
    )


# ------------------------------------------------------------------------------- small tables


def html_list(items: Iterable[str], empty: str, css_class: str = "rps-list") -> str:
    """A `<ul>` of already-escaped items, or the escaped `empty` message."""
    rendered = "".join(f"<li>{item}</li>" for item in items)
    return (
        f'<ul class="{esc(css_class)}">{rendered}</ul>'
        if rendered
        else f'<p class="rps-empty">{esc(empty)}</p>'
    )


def html_table(headers: Sequence[str], rows: Iterable[Sequence[str]], css_class: str = "rps-table") -> str:
    """A table; `rows` cells must already be escaped HTML, headers are escaped here."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="{esc(css_class)}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def ratio_bar(value: float | None, label: str) -> str:
    """A small horizontal bar for a ratio in [0, 1] (the r_connect summary)."""
    if value is None:
        return f'<div class="rps-bar-label">{esc(label)}: n/a</div>'
    percent = max(0.0, min(1.0, value)) * 100
    return (
        f'<div class="rps-bar-label">{esc(label)}: <b>{value:.2f}</b></div>'
        f'<div class="rps-bar"><div class="rps-bar-fill" style="width: {percent:.1f}%"></div></div>'
    )


# ------------------------------------------------------------------------------ rewrite diff


@dataclass(frozen=True)
class Layer:
    """A span of a text to show with a CSS class (and a tooltip); an empty span is a caret mark."""

    span: Span
    css_class: str
    title: str = ""


def layered_text(text: str, layers: Sequence[Layer]) -> str:
    """Escaped `text` with every layer's span wrapped in `<span class=...>`; overlapping layers
    combine their classes on the characters they share. Empty spans become a caret (a thin bar)."""
    cuts = {0, len(text)}
    for layer in layers:
        cuts.update(clamp_span(text, layer.span))
    ordered = sorted(cuts)
    carets: dict[int, list[Layer]] = {}
    for layer in layers:
        start, end = clamp_span(text, layer.span)
        if start == end:
            carets.setdefault(start, []).append(layer)
    parts: list[str] = []
    for start, end in zip(ordered, [*ordered[1:], None], strict=False):
        for layer in carets.get(start, ()):
            css, title = esc(layer.css_class), esc(layer.title)
            # a thin bar, not a character: nothing stray to read or to copy with the text
            parts.append(
                f'<span class="rps-caret {css}" title="{title}" role="img" aria-label="{title}"></span>'
            )
        if end is None:
            break
        covering = [
            layer
            for layer in layers
            if layer.span[0] <= start and end <= layer.span[1] and layer.span[0] < layer.span[1]
        ]
        segment = esc(text[start:end])
        if covering:
            classes = " ".join(dict.fromkeys(layer.css_class for layer in covering))
            titles = "; ".join(dict.fromkeys(layer.title for layer in covering if layer.title))
            parts.append(f'<span class="{esc(classes)}" title="{esc(titles)}">{segment}</span>')
        else:
            parts.append(segment)
    return "".join(parts)


def side_by_side(left_title: str, left_html: str, right_title: str, right_html: str) -> str:
    """Two panes (already-rendered HTML bodies; titles are escaped here)."""
    return (
        '<div class="rps-diff">'
        f'<div class="rps-pane"><div class="rps-pane-title">{esc(left_title)}</div>'
        f'<div class="rps-pane-text" data-pane="original">{left_html}</div></div>'
        f'<div class="rps-pane"><div class="rps-pane-title">{esc(right_title)}</div>'
        f'<div class="rps-pane-text" data-pane="rewrite">{right_html}</div></div>'
        "</div>"
    )

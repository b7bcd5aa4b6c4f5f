"""Presentation helpers: escaping, highlighted spans, paths, the graph page and its iframe."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from core.types import Corpus, Document, Triple
from ui.render import (
    EDGE_STYLES,
    esc,
    format_path,
    graph_data,
    graph_elements,
    graph_page,
    highlight,
    json_for_html,
    span_context,
    srcdoc_iframe,
    vis_asset_dir,
    vis_urls,
)

EVIL = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'


def _page_json(page: str) -> dict:
    match = re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', page, re.S)
    assert match, "graph page has no data block"
    return json.loads(match.group(1))


def _sample():
    text = f"Intro. {EVIL} works for Acme & Co. Outro."
    doc = Document(id="d1", title=f"Title {EVIL}", text=text)
    start = text.index(EVIL)
    end = text.index("Co.") + 3
    triples = [
        Triple(EVIL, "works_for", "Acme & Co", "d1", (start, end)),
        Triple("Acme & Co", "located_in", "Paris", "d1", (0, 6)),
    ]
    return Corpus(documents=[doc]), triples


def test_esc_escapes_markup_and_quotes():
    assert esc(EVIL) == html.escape(EVIL, quote=True)
    assert "<" not in esc(EVIL) and '"' not in esc(EVIL)
    assert esc("it's") == "it&#x27;s"


def test_json_for_html_has_no_raw_markup_and_round_trips():
    data = {"a": EVIL, "b": "x & y \u2028 </script>"}
    text = json_for_html(data)
    assert not set("<>&") & set(text)
    assert "\u2028" not in text
    assert json.loads(text) == data


def test_highlight_marks_exactly_the_span_and_escapes_the_rest():
    text = "before <b>bold</b> after"
    out = highlight(text, (7, 18))
    assert out == "before <mark>&lt;b&gt;bold&lt;/b&gt;</mark> after"


def test_highlight_clamps_spans_outside_the_text():
    assert highlight("abc", (2, 99)) == "ab<mark>c</mark>"
    assert highlight("abc", (-5, 1)) == "<mark>a</mark>bc"


def test_span_context_cuts_long_sides_with_ellipsis():
    text = "x" * 500 + "TARGET" + "y" * 500
    before, marked, after = span_context(text, (500, 506), margin=10)
    assert marked == "TARGET"
    assert before == "…" + "x" * 10 and after == "y" * 10 + "…"


def test_format_path_walks_edges_in_both_directions():
    path = [("mara", "works_for", "lindqvist"), ("lindqvist", "located_in", "harrow vale")]
    assert format_path("mara", path) == "mara —works_for→ lindqvist —located_in→ harrow vale"
    backwards = [("lindqvist", "located_in", "harrow vale"), ("mara", "works_for", "lindqvist")]
    assert (
        format_path("harrow vale", backwards, str.upper)
        == "HARROW VALE ←located_in— LINDQVIST ←works_for— MARA"
    )


def test_graph_elements_style_private_edges_red_and_dashed():
    corpus, triples = _sample()
    edges = {t.key: [t] for t in triples}
    statuses = {triples[0].key: "private", triples[1].key: "public"}
    nodes, graph_edges = graph_elements(
        edges, statuses, corpus, {"d1": corpus.documents[0].title}, str, lambda node: {"d1"}
    )
    data = graph_data(nodes, graph_edges)
    private_edge = next(e for e in data["edges"] if e["status"] == "private")
    public_edge = next(e for e in data["edges"] if e["status"] == "public")
    assert private_edge["color"]["color"] == EDGE_STYLES["private"]["color"] == "#d62728"
    assert private_edge["dashes"] and not public_edge["dashes"]
    assert private_edge["occurrences"][0]["sentence"].startswith(EVIL)
    assert {n["id"] for n in data["nodes"]} == {triples[0].key[0], "acme & co", "paris"}


def test_node_size_grows_with_documents():
    corpus, triples = _sample()
    edges = {t.key: [t] for t in triples}
    docs = {"acme & co": {"d1", "d2", "d3"}}
    nodes, _ = graph_elements(edges, {}, corpus, {}, str, lambda node: docs.get(node, {"d1"}))
    sizes = {n.id: n.size for n in nodes}
    assert sizes["acme & co"] > sizes["paris"]


def test_graph_page_keeps_user_text_out_of_markup():
    corpus, triples = _sample()
    nodes, edges = graph_elements(
        {t.key: [t] for t in triples}, {}, corpus, {"d1": corpus.documents[0].title}, str, lambda node: {"d1"}
    )
    page = graph_page(graph_data(nodes, edges), "/vis.js", "/vis.css")
    assert "<script>window.__xss" not in page
    assert "<img" not in page
    data = _page_json(page)
    assert any(EVIL in e["title_text"] for e in data["edges"])
    assert "innerHTML" not in page


def test_graph_page_loads_vis_from_the_studio_not_a_cdn():
    js, css = vis_urls()
    page = graph_page({"nodes": [], "edges": []}, js, css)
    assert f'src="{js}"' in page and f'href="{css}"' in page
    assert "http://" not in page and "https://" not in page
    assert (vis_asset_dir() / "vis-network.min.js").is_file()
    assert Path(js.removeprefix("/gradio_api/file=")).is_file()


def test_srcdoc_iframe_escapes_the_whole_page_into_the_attribute():
    page = '<html><body><p title="q">a & b</p><script>x = "</iframe>";</script></body></html>'
    frame = srcdoc_iframe(page, 'Graph "x"')
    match = re.fullmatch(r'<iframe [^>]*srcdoc="([^"]*)"></iframe>', frame)
    assert match, frame
    assert html.unescape(match.group(1)) == page
    assert 'sandbox="allow-scripts"' in frame
    assert 'title="Graph &quot;x&quot;"' in frame


def test_risk_view_lists_triples_inferable_from_public_ones_with_their_path():
    from core.eraser4rag.workspace import Workspace
    from core.extract import get_extractor
    from core.settings import Settings
    from core.types import triple_key
    from ui.risk_tab import key_of_row, render_risk_graph, render_risk_view

    ws = Workspace()
    ws.load_sample()
    ws.extract(get_extractor("spacy", Settings()))
    ws.toggle_private(triple_key("Mara Voss", "residence", "Harrow Vale"))
    summary, rows, graph = render_risk_view(ws)
    assert "inferable from public" in summary
    inferable = [row for row in rows if row[2] == "excluded: inferable from public"]
    assert len(inferable) == 1
    assert inferable[0][0] == "Mara Voss —residence→ Harrow Vale"
    assert "Lindqvist Robotics" in inferable[0][4]  # the public path through her employer
    assert EDGE_STYLES["inferable"]["color"] in graph
    focus = key_of_row(ws, rows[-1][0])
    assert focus == triple_key("Mara Voss", "residence", "Harrow Vale")
    focused = render_risk_graph(ws, focus_key=focus)
    assert "Lindqvist Robotics" in focused and "residence" in focused


def test_private_triples_are_drawn_first_and_entities_are_grouped_by_question() -> None:
    from core.eraser4rag.graph_view import visible_part

    big = [("hub", "knows", f"person{i}") for i in range(30)]
    private = ("mara", "lives_in", "vale")
    view = visible_part([*big, private], max_nodes=10, priority={private})
    assert private in view.keys  # its small component comes before the large one
    cut = visible_part(
        [*big, ("person3", "lives_in", "vale")], max_nodes=4, priority={("person3", "lives_in", "vale")}
    )
    assert ("person3", "lives_in", "vale") in cut.keys  # the cut starts at the private triple

    from core.eraser4rag.workspace import Workspace
    from core.extract import get_extractor
    from core.settings import Settings
    from ui.graph_tab import question_groups, render_graph

    ws = Workspace()
    ws.load_sample()
    ws.extract(get_extractor("spacy", Settings()))
    groups = question_groups(ws, list(ws.graph.nodes()))
    assert groups and "Where does Mara Voss work?" in set(groups.values())
    page = render_graph(ws, "", "", "", "")
    assert "Entities by question" in page and "Where does Mara Voss work?" in page
    ws.set_scope("retriever-queries-q1")
    assert question_groups(ws, list(ws.graph.nodes())) is None  # one question in view: no legend needed


def test_an_insertion_point_is_a_bar_not_a_character() -> None:
    from ui.render import Layer, layered_text

    html = layered_text("Mara lives here.", [Layer((5, 5), "rps-del", "inserted here: <b>x</b>")])
    assert "‸" not in html and 'class="rps-caret rps-del"' in html and "&lt;b&gt;" in html


def test_graphs_of_one_scope_draw_each_entity_in_the_same_place() -> None:
    """The rewritten graph is laid out like the original: places come from the scope's whole graph
    (the same keys in any order give the same places), and a graph page keeps them."""
    from core.eraser4rag.graph_view import layout_positions
    from core.eraser4rag.workspace import Workspace

    keys = [("ada", "work_for", "zephyr"), ("zephyr", "located_in", "northport"), ("ada", "play", "violin")]
    places = layout_positions(keys)
    assert set(places) == {"ada", "zephyr", "northport", "violin"}
    assert layout_positions(list(reversed(keys))) == places
    assert layout_positions(keys, max_nodes=3) == {}  # too large: the page lays it out itself

    ws = Workspace()
    ws.add_text("Ada works for Zephyr. Zephyr is located in Northport.", "notes")
    doc_id = ws.corpus.documents[0].id
    ws.triples = [
        Triple("Ada", "work_for", "Zephyr", doc_id, (0, 3)),
        Triple("Zephyr", "located_in", "Northport", doc_id, (0, 3)),
    ]
    ws._triples_changed()
    first = ws.node_positions()
    assert set(first) == {"ada", "zephyr", "northport"} and ws.node_positions() is first  # cached
    ws.triples = ws.triples[:1]
    ws._triples_changed()
    assert set(ws.node_positions()) == {"ada", "zephyr"}  # recomputed for the new graph

    corpus, triples = _sample()
    edges = {t.key: [t] for t in triples}
    nodes, graph_edges = graph_elements(edges, {}, corpus, {}, lambda n: n, lambda n: ["d1"])
    given = {nodes[0].id: (12.5, -40.0)}
    data = graph_data(nodes, graph_edges, positions=given)
    placed = [n for n in data["nodes"] if "x" in n]
    assert [(n["id"], n["x"], n["y"]) for n in placed] == [(nodes[0].id, 12.5, -40.0)]
    page = graph_page(data, "/vis.js", "/vis.css")
    assert "fixed: true" in page  # the page keeps a given place


def test_risk_view_says_which_private_triples_r_connect_counts_that_the_table_does_not() -> None:
    """Marked private: a patient's condition, which their doctor's field of work also names. The table
    (Eq. 2) sees no inference through a shared condition; r_connect counts the connection. The screen
    names the triple and says why, so 0 at risk beside r_connect 0.33 is not a contradiction."""
    from core.eraser4rag.workspace import Workspace
    from core.extract import get_extractor
    from core.settings import Settings
    from core.types import triple_key
    from ui.risk_tab import render_risk_view

    ws = Workspace()
    ws.load_sample()
    ws.extract(get_extractor("spacy", Settings()))
    condition = triple_key("Tomas Reyl", "medical_condition", "asthma")
    assert condition in ws.all_keys()
    ws.toggle_private(condition)
    summary, rows, _ = render_risk_view(ws)
    assert [row[2] for row in rows] == ["no"]
    assert ws.risks() == [] and ws.connected_after_erasure() == {condition}
    assert ws.r_connect_after_erasure() == 1.0
    assert "r_connect counts 1 private triple(s) as still connected" in summary
    assert "Tomas Reyl —medical_condition→ asthma" in html.unescape(summary)
    ws.toggle_private(triple_key("Tomas Reyl", "residence", "14 Birch Lane"))
    summary, _, _ = render_risk_view(ws)
    assert "r_connect counts 1 private triple(s)" in summary  # the address is not connected: not named
    assert "14 Birch Lane" not in html.unescape(summary).split("r_connect counts")[1].split("</p>")[0]

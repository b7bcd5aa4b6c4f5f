"""The global graph, the privacy split with both filters, and Eq. 2 inference risks."""

from __future__ import annotations

import random
import time

import networkx as nx
import pytest

from core.eraser4rag.filters import (
    FILTER_PRIVATE,
    FILTER_PUBLIC,
    FilterMove,
    PrivacyDefinition,
    define_privacy,
    path_for,
)
from core.eraser4rag.graph import (
    KnowledgeGraph,
    UnionFind,
    adjacency,
    components_of,
    connected_avoiding,
    shortest_path,
)
from core.eraser4rag.risk import InferenceRisk, has_inference_risk, inference_risks
from core.eraser4rag.split import connected_random_private_keys, random_private_keys
from core.types import Triple, TripleKey


def t(head: str, relation: str, tail: str, doc_id: str) -> Triple:
    return Triple(head, relation, tail, doc_id)


# Figure 1 of Eraser4RAG: two public facts in two documents imply the private third.
WORKS_FOR = t("John Doe", "works for", "Acme", "doc1")
LOCATED_IN = t("Acme", "located in", "TechVille", "doc2")
LIVES_IN = t("John Doe", "lives in", "TechVille", "doc3")
FIGURE_1 = [WORKS_FOR, LOCATED_IN, LIVES_IN]


def manual_definition(private: set[TripleKey], public: set[TripleKey]) -> PrivacyDefinition:
    """A split without filters, to exercise Eq. 2 on its own."""
    return PrivacyDefinition(
        private=frozenset(private),
        public=frozenset(public),
        excluded=frozenset(),
        moves=(),
        marked=frozenset(private),
    )


# ------------------------------------------------------------------------ union-find


def test_union_find_merges_and_answers_connectivity():
    uf = UnionFind()
    uf.union("a", "b")
    uf.union("c", "d")
    assert uf.connected("a", "b") and uf.connected("c", "d")
    assert not uf.connected("a", "c")
    uf.union("b", "d")
    assert uf.connected("a", "c")
    assert uf.component_size("a") == 4
    assert uf.connected("a", "a")
    assert not uf.connected("a", "zzz") and not uf.connected("zzz", "zzz")
    assert uf.find("zzz") == "zzz" and "zzz" not in uf


def test_components_of_uses_head_and_tail_undirected():
    uf = components_of([("x", "r", "y"), ("z", "r", "y")])
    assert uf.connected("x", "z")
    assert len(uf) == 3


@pytest.mark.parametrize("seed", range(8))
def test_union_find_and_bfs_agree_with_networkx(seed: int):
    rng = random.Random(seed)
    nodes = [f"n{i}" for i in range(rng.randint(5, 25))]
    keys = {(rng.choice(nodes), rng.choice(["a", "b"]), rng.choice(nodes)) for _ in range(rng.randint(0, 30))}
    reference = nx.Graph()
    reference.add_edges_from((h, tail) for h, _r, tail in keys)
    uf = components_of(keys)
    adj = adjacency(keys)
    for _ in range(60):
        a, b = rng.choice(nodes), rng.choice(nodes)
        expected = a in reference and b in reference and nx.has_path(reference, a, b)
        assert uf.connected(a, b) == expected
        path = shortest_path(adj, a, b)
        assert (path is not None) == expected
        assert connected_avoiding(adj, a, b, frozenset()) == expected
        if expected:
            assert len(path) == nx.shortest_path_length(reference, a, b)
            assert _is_walk(path, a, b)


def _is_walk(path: tuple[TripleKey, ...], start: str, end: str) -> bool:
    node = start
    for head, _relation, tail in path:
        if node == head:
            node = tail
        elif node == tail:
            node = head
        else:
            return False
    return node == end


def test_shortest_path_avoids_given_edges():
    direct = ("a", "r", "b")
    detour = [("a", "r", "c"), ("c", "r", "b")]
    adj = adjacency([direct, *detour])
    assert shortest_path(adj, "a", "b") == (direct,)
    assert shortest_path(adj, "a", "b", avoid={direct}) == tuple(detour)
    assert shortest_path(adj, "a", "b", avoid={direct, detour[0]}) is None
    assert connected_avoiding(adj, "a", "b", {direct})
    assert not connected_avoiding(adj, "a", "b", {direct, detour[1]})


# --------------------------------------------------------------------- knowledge graph


def test_knowledge_graph_indexes_provenance_labels_and_documents():
    triples = [
        t("The Acme Corp.", "located in", "TechVille", "d1"),
        t("Acme Corp", "Located In", "techville", "d2"),
        t("Acme Corp", "employs", "Jane Roe", "d2"),
    ]
    graph = KnowledgeGraph.from_triples(triples)
    key = ("acme corp", "located_in", "techville")
    assert graph.keys() == {key, ("acme corp", "employs", "jane roe")}
    assert [occ.doc_id for occ in graph.edges[key]] == ["d1", "d2"]
    assert graph.label("acme corp") == "Acme Corp"  # two of three mentions
    assert graph.label("techville") == "TechVille"  # tie: first seen wins
    assert graph.documents_mentioning("acme corp") == {"d1", "d2"}
    assert graph.documents_mentioning("jane roe") == {"d2"}
    assert graph.triples_of_doc("d2") == graph.keys()
    assert graph.doc_ids == ("d1", "d2")
    assert graph.neighbours("acme corp") == {"techville", "jane roe"}


def test_to_networkx_carries_relations_and_sizes():
    graph = KnowledgeGraph.from_triples([*FIGURE_1, t("john doe", "works for", "ACME", "doc4")])
    nx_graph = graph.to_networkx()
    assert isinstance(nx_graph, nx.MultiDiGraph)
    assert nx_graph.number_of_edges() == 3
    edge = nx_graph.edges["john doe", "acme", "works_for"]
    assert edge["triple_key"] == WORKS_FOR.key
    assert edge["doc_ids"] == ["doc1", "doc4"] and edge["count"] == 2
    assert edge["label"] == "works for"
    assert nx_graph.nodes["john doe"]["size"] == 3
    assert nx_graph.nodes["john doe"]["label"] == "John Doe"


def test_subgraph_filters():
    extra = [t("Jane Roe", "lives in", "Springfield", "doc4"), t("TechVille", "part of", "Valley", "doc4")]
    graph = KnowledgeGraph.from_triples([*FIGURE_1, *extra])
    assert graph.subgraph(doc_ids=["doc1", "doc2"]).keys() == {WORKS_FOR.key, LOCATED_IN.key}
    assert graph.subgraph(entity="  The ACME ").keys() == {WORKS_FOR.key, LOCATED_IN.key}
    with_neighbours = graph.subgraph(entity="Acme", include_neighbours=True).keys()
    assert with_neighbours == {WORKS_FOR.key, LOCATED_IN.key, LIVES_IN.key, extra[1].key}
    assert graph.subgraph(relation="Lives In").keys() == {LIVES_IN.key, extra[0].key}
    assert graph.subgraph(search="TECHVILLE").keys() == {LOCATED_IN.key, LIVES_IN.key, extra[1].key}
    assert graph.subgraph(search="lives in").keys() == {LIVES_IN.key, extra[0].key}
    assert graph.subgraph(search="spring", doc_ids=["doc3"]).keys() == set()
    assert len(graph.subgraph(limit=2)) == 2
    assert graph.subgraph().keys() == graph.keys()


def test_subgraph_keeps_most_mentioned_first_under_limit():
    graph = KnowledgeGraph.from_triples([*FIGURE_1, t("Acme", "located in", "TechVille", "doc9")])
    assert graph.subgraph(limit=1).keys() == {LOCATED_IN.key}


def test_graph_of_hundreds_of_triples_stays_fast():
    rng = random.Random(3)
    triples = [
        t(
            f"Person {rng.randrange(120)}",
            rng.choice(["knows", "works for"]),
            f"Place {rng.randrange(80)}",
            f"d{i % 40}",
        )
        for i in range(800)
    ]
    start = time.perf_counter()
    graph = KnowledgeGraph.from_triples(triples)
    view = graph.subgraph(search="person 1", limit=100)
    graph.to_networkx()
    assert time.perf_counter() - start < 1.0
    assert 0 < len(view) <= 100
    assert all("person 1" in key[0] for key in view)


# ------------------------------------------------------------------- simulated marks


def test_random_private_keys_deterministic_at_ratio_and_excluding_queries():
    keys = {(f"e{i}", "r", f"e{i + 1}") for i in range(200)}
    query = {("e0", "r", "e1"), ("e5", "r", "e6")}
    first = random_private_keys(keys, 0.25, seed=7, exclude=query)
    assert first == random_private_keys(set(sorted(keys, reverse=True)), 0.25, seed=7, exclude=query)
    assert len(first) == round(0.25 * (len(keys) - len(query)))
    assert not first & query and first <= keys
    assert first != random_private_keys(keys, 0.25, seed=8, exclude=query)
    assert random_private_keys(keys, 0.0, seed=1) == set()
    with pytest.raises(ValueError, match="ratio"):
        random_private_keys(keys, 1.5, seed=1)


def test_connected_random_private_keys_grows_one_component():
    keys = {(f"e{i}", "r", f"e{(i * 7 + 3) % 60}") for i in range(60)} | {
        (f"e{i}", "r", f"e{i + 1}") for i in range(59)
    }
    chosen = connected_random_private_keys(keys, 0.2, seed=4, exclude={("e0", "r", "e1")})
    assert len(chosen) == round(0.2 * (len(keys) - 1))
    assert ("e0", "r", "e1") not in chosen
    uf = components_of(chosen)
    roots = {uf.find(h) for h, _r, _t in chosen}
    assert len(roots) == 1
    assert chosen == connected_random_private_keys(keys, 0.2, seed=4, exclude={("e0", "r", "e1")})


# ---------------------------------------------------------------------- the filters


def test_figure_1_private_triple_inferable_from_public_leaves_private_set():
    graph = KnowledgeGraph.from_triples(FIGURE_1)
    definition = define_privacy(graph.keys(), {LIVES_IN.key})
    assert definition.private == frozenset()
    assert definition.public == {WORKS_FOR.key, LOCATED_IN.key}
    assert definition.state_of(LIVES_IN.key) == "excluded"
    (move,) = definition.moves
    assert move.filter == FILTER_PRIVATE and move.key == LIVES_IN.key
    assert move.path == (WORKS_FOR.key, LOCATED_IN.key)
    assert "public graph" in move.reason() and "(acme, located_in, techville)" in move.reason()
    assert definition.marked == {LIVES_IN.key}
    assert inference_risks(FIGURE_1, definition) == []


def test_filter_a_removes_public_triple_connected_in_private_graph_with_path():
    sister = t("Alice", "sister of", "Bob", "d1")
    works = t("Bob", "works at", "Initech", "d2")
    visits = t("Alice", "visits", "Initech", "d3")
    tea = t("Carol", "likes", "Tea", "d3")
    keys = {sister.key, works.key, visits.key, tea.key}
    definition = define_privacy(keys, {sister.key, works.key})
    assert definition.private == {sister.key, works.key}
    assert definition.public == {tea.key}
    (move,) = definition.moves
    assert move == FilterMove(visits.key, FILTER_PUBLIC, (sister.key, works.key))
    assert "private graph" in move.reason()
    assert definition.state_of(visits.key) == "excluded"
    assert definition.unprivate == {tea.key, visits.key}


def test_filter_a_counts_a_private_parallel_edge_between_the_same_pair():
    private = ("alice", "lives_with", "bob")
    public = ("bob", "knows", "alice")
    definition = define_privacy({private, public}, {private})
    assert definition.public == frozenset() and definition.private == {private}
    assert definition.moves == (FilterMove(public, FILTER_PUBLIC, (private,)),)


def test_filters_run_in_order_a_then_b_on_the_filtered_public_graph():
    # (x, p, y) is private; the public detour x–z–y is cut by filter (a) first
    # because z is connected to both in the private graph, so (x, p, y) stays private.
    keys = {("x", "p", "y"), ("y", "p", "z"), ("x", "q", "z"), ("z", "q", "y")}
    definition = define_privacy(keys, {("x", "p", "y"), ("y", "p", "z")})
    assert definition.private == {("x", "p", "y"), ("y", "p", "z")}
    assert {m.key for m in definition.moves} == {("x", "q", "z"), ("z", "q", "y")}
    assert all(m.filter == FILTER_PUBLIC for m in definition.moves)


def test_query_triples_are_never_private():
    definition = define_privacy(
        {WORKS_FOR.key, LOCATED_IN.key}, {WORKS_FOR.key, LOCATED_IN.key}, query_keys={WORKS_FOR.key}
    )
    assert definition.private == {LOCATED_IN.key}
    assert definition.query == {WORKS_FOR.key}
    assert definition.state_of(WORKS_FOR.key) != "private"


def test_define_privacy_rejects_unknown_marks_and_states():
    with pytest.raises(ValueError, match="not in the graph"):
        define_privacy({WORKS_FOR.key}, {LIVES_IN.key})
    definition = define_privacy({WORKS_FOR.key}, set())
    with pytest.raises(KeyError, match="lives_in"):
        definition.state_of(LIVES_IN.key)


def test_paths_are_computed_lazily_when_asked():
    graph = KnowledgeGraph.from_triples(FIGURE_1)
    lazy = define_privacy(graph.keys(), {LIVES_IN.key}, max_paths=0)
    eager = define_privacy(graph.keys(), {LIVES_IN.key})
    assert lazy.moves[0].path == ()
    assert path_for(lazy.moves[0], lazy) == eager.moves[0].path
    assert lazy.move_of(LIVES_IN.key) == lazy.moves[0]


# ------------------------------------------------------------------- inference risk


def test_figure_1_without_filters_is_an_inference_risk_through_other_documents():
    definition = manual_definition({LIVES_IN.key}, {WORKS_FOR.key, LOCATED_IN.key})
    risks = inference_risks(FIGURE_1, definition)
    assert risks == [InferenceRisk(LIVES_IN.key, "doc3", (WORKS_FOR.key, LOCATED_IN.key), ("doc1", "doc2"))]
    assert has_inference_risk(FIGURE_1, definition)
    assert inference_risks(KnowledgeGraph.from_triples(FIGURE_1), definition) == risks


def test_public_triples_of_the_same_document_do_not_count_unless_repeated_elsewhere():
    same_doc = t("John Doe", "works for", "Acme", "doc3")
    triples = [same_doc, LOCATED_IN, LIVES_IN]
    definition = manual_definition({LIVES_IN.key}, {WORKS_FOR.key, LOCATED_IN.key})
    assert inference_risks(triples, definition) == []
    assert not has_inference_risk(triples, definition)
    repeated = [*triples, t("john doe", "works for", "ACME", "doc7")]
    (risk,) = inference_risks(repeated, definition)
    assert risk.path_docs == ("doc7", "doc2")


def test_private_connection_in_other_documents_is_no_eq2_risk():
    # The same private fact stated in doc8 keeps h ~ t in G_pri \ g_3,pri.
    triples = [*FIGURE_1, t("John Doe", "lives in", "TechVille", "doc8")]
    definition = manual_definition({LIVES_IN.key}, {WORKS_FOR.key, LOCATED_IN.key})
    assert inference_risks(triples, definition) == []


def test_inference_risk_through_triples_excluded_by_filter_a():
    lives = t("John", "lives in", "TechVille", "doc3")
    friend = t("John", "friend of", "Mary", "doc4")
    married = t("John", "married to", "Mary", "doc5")
    mary_lives = t("Mary", "lives in", "TechVille", "doc6")
    triples = [lives, friend, married, mary_lives]
    definition = define_privacy({x.key for x in triples}, {lives.key, friend.key})
    # Both public candidates touch the private component, so filter (a) excludes them
    # and filter (b) has an empty public graph to work with.
    assert definition.private == {lives.key, friend.key}
    assert definition.excluded == {married.key, mary_lives.key}
    progress: list[tuple[int, int]] = []
    risks = inference_risks(triples, definition, progress=lambda done, total: progress.append((done, total)))
    assert risks == [
        InferenceRisk(friend.key, "doc4", (married.key,), ("doc5",)),
        InferenceRisk(lives.key, "doc3", (married.key, mary_lives.key), ("doc5", "doc6")),
    ]
    assert progress[-1] == (2, 2)

"""Cross-document inference risk: Eq. 2 of Eraser4RAG (section 4.1.2)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from core.eraser4rag.filters import PrivacyDefinition
from core.eraser4rag.graph import (
    KnowledgeGraph,
    adjacency,
    components_of,
    connected_avoiding,
    ends_of,
    inference_key,
    shortest_path,
)
from core.types import Progress, Triple, TripleKey


@dataclass(frozen=True)
class InferenceRisk:
    """A private triple of `doc_id` that other documents' non-private triples reconnect.

    `path` runs from the head to the tail through triples of G_unpri that occur in a
    document other than `doc_id`; `path_docs` names, per path step, the first such
    document (sorted ids).
    """

    key: TripleKey
    doc_id: str
    path: tuple[TripleKey, ...]
    path_docs: tuple[str, ...]


def _docs_by_key(source: Iterable[Triple] | KnowledgeGraph) -> dict[TripleKey, set[str]]:
    if isinstance(source, KnowledgeGraph):
        return {key: {t.doc_id for t in occurrences} for key, occurrences in source.edges.items()}
    docs: dict[TripleKey, set[str]] = defaultdict(set)
    for triple in source:
        docs[triple.key].add(triple.doc_id)
    return dict(docs)


def _keys_only_in_one_doc(docs_by_key: dict[TripleKey, set[str]]) -> dict[str, set[TripleKey]]:
    """Per document, the keys that vanish from the graph together with that document."""
    only: dict[str, set[TripleKey]] = defaultdict(set)
    for key, docs in docs_by_key.items():
        if len(docs) == 1:
            only[next(iter(docs))].add(key)
    return only


def _bridges(keys: Iterable[TripleKey], aliases: dict[str, str]) -> set[TripleKey]:
    """Keys whose removal alone disconnects their head from their tail (parallel keys never do)."""
    pairs: dict[frozenset[str], list[TripleKey]] = defaultdict(list)
    for key in keys:
        pairs[frozenset(ends_of(key, aliases))].append(key)
    simple = nx.Graph()
    simple.add_edges_from(tuple(pair) for pair, parallel in pairs.items() if len(pair) == 2)
    found: set[TripleKey] = set()
    for u, v in nx.bridges(simple):
        parallel = pairs[frozenset((u, v))]
        if len(parallel) == 1:
            found.add(parallel[0])
    return found


def _same_key(key: TripleKey) -> TripleKey:
    return key


def _iter_risks(
    source: Sequence[Triple] | KnowledgeGraph,
    definition: PrivacyDefinition,
    progress: Progress | None = None,
    through_categories: bool = False,
) -> Iterable[InferenceRisk]:
    original_docs = _docs_by_key(source)
    # Paths run over inference keys (category values are their head's own node); risks and
    # paths are reported with the original keys.
    view = _same_key if through_categories else inference_key
    viewed = {key: view(key) for key in original_docs}
    original_of = {seen: key for key, seen in viewed.items()}
    docs_by_key = {viewed[key]: docs for key, docs in original_docs.items()}
    private = {viewed[k] for k in original_docs if k in definition.private}
    unprivate = set(docs_by_key) - private
    aliases = definition.alias_map  # name variants of one person are one node
    unprivate_components = components_of(unprivate, aliases)
    candidates = sorted(k for k in private if unprivate_components.connected(*ends_of(k, aliases)))
    if not candidates:
        if progress:
            progress(0, 0)
        return
    only_in = _keys_only_in_one_doc(docs_by_key)
    private_bridges = _bridges(private, aliases)
    private_adj = adjacency(private, aliases)
    unprivate_adj = adjacency(unprivate, aliases)
    for done, key in enumerate(candidates, start=1):
        head, tail = ends_of(key, aliases)
        for doc_id in sorted(docs_by_key[key]):
            dropped = only_in.get(doc_id, frozenset())
            # A bridge that vanishes with d_i disconnects the pair privately: no BFS needed.
            privately_cut = key in private_bridges and key in dropped
            if not privately_cut and connected_avoiding(private_adj, head, tail, dropped):
                continue
            path = shortest_path(unprivate_adj, head, tail, dropped)
            if path is not None:
                path_docs = tuple(min(docs_by_key[k] - {doc_id}) for k in path)
                yield InferenceRisk(original_of[key], doc_id, tuple(original_of[k] for k in path), path_docs)
        if progress:
            progress(done, len(candidates))


def inference_risks(
    triples: Sequence[Triple] | KnowledgeGraph,
    definition: PrivacyDefinition,
    progress: Progress | None = None,
    through_categories: bool = False,
) -> list[InferenceRisk]:
    """Eq. 2 of Eraser4RAG for every document d_i and private triple (h, r, t) of g_i,pri.

    A risk holds when h and t are NOT connected in G_pri without g_i,pri and ARE
    connected in G_unpri without g_i,unpri. Following the paper's gloss ("the
    unprivate knowledge graph of other documents"), "without g_i" keeps a key that
    also occurs in another document; only keys whose every occurrence is in d_i are
    dropped. G_unpri is every key of `triples` that is not private (public,
    excluded, or outside the definition). No path passes through a category value
    (an occupation, a nationality, a degree: `core.eraser4rag.graph.inference_key`), on either
    side; `through_categories=True` lets them, as the previous release did (for
    comparisons). Pairs not connected in the whole G_unpri
    are rejected by union-find; the rest get a bidirectional BFS per document
    (skipped on the private side when the triple is a bridge of G_pri that vanishes
    with d_i). `triples` may be the occurrences or a `KnowledgeGraph` built from them.
    """
    return list(_iter_risks(triples, definition, progress, through_categories))


def has_inference_risk(triples: Sequence[Triple] | KnowledgeGraph, definition: PrivacyDefinition) -> bool:
    """Whether the document set belongs to {D}_infer (stops at the first risk)."""
    return next(iter(_iter_risks(triples, definition)), None) is not None

"""Grade one rewritten retrieval set with the paper's metrics (Eraser4RAG section 4.1.2).

Triples are re-extracted from every rewrite with the *evaluating* extractor (a setting of
its own, so an eraser is not graded only by the tool that guided it). Per document:
r_pri, r_pub, the relation-agnostic leak check and the latency; over the set: r_connect on
the graph of the rewritten documents; the same on D_special (Eq. 1) and a flag for whether
the set is in {D}_infer (Eq. 2). The result is a JSON-ready dict, stored with the run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from core.erasers.base import EraseRequest, Rewrite
from core.graph import adjacency, shortest_path
from core.metrics import d_special, is_inference_risk_set, mean_defined, r_connect
from core.serialize import triple_to_dict
from core.types import Triple, TripleKey


def evaluate_rewrites(request: EraseRequest, rewrites: Sequence[Rewrite], extractor: Any) -> dict[str, Any]:
    """{"overall": {...}, "d_special": {...}, "per_doc": {doc_id: {...}}, "triples": [...]}.

    `extractor` has `extract(doc_id, text) -> list[Triple]`; `triples` are the re-extracted
    triples of the rewrites (for the graph of the rewritten set). Rates with an empty
    denominator are None, as in `core.metrics`.
    """
    rewritten = reextract(rewrites, extractor)
    rewritten_keys = {doc_id: {t.key for t in triples} for doc_id, triples in rewritten.items()}
    per_doc = {r.doc_id: _doc_metrics(request, r, rewritten_keys.get(r.doc_id, set())) for r in rewrites}
    originals = {doc.id: request.triples_of(doc.id) for doc in request.documents}
    special = d_special(originals, request.definition)
    set_private = {t.key for t in request.triples} & request.definition.private
    graph_keys = set().union(*rewritten_keys.values()) if rewritten_keys else set()
    return {
        "overall": _summary(per_doc.values(), set_private, graph_keys),
        "d_special": _summary([m for d, m in per_doc.items() if d in special], set_private, graph_keys),
        "d_special_docs": sorted(special),
        "in_d_infer": is_inference_risk_set(list(request.triples), request.definition),
        "per_doc": per_doc,
        "triples": [triple_to_dict(t) for triples in rewritten.values() for t in triples],
    }


def reextract(rewrites: Iterable[Rewrite], extractor: Any) -> dict[str, list[Triple]]:
    """Triples of each rewrite by document id (an empty rewrite has none)."""
    return {r.doc_id: list(extractor.extract(r.doc_id, r.text)) if r.text.strip() else [] for r in rewrites}


def _doc_metrics(request: EraseRequest, rewrite: Rewrite, rewritten: set[TripleKey]) -> dict[str, Any]:
    private = set(request.private_keys_of(rewrite.doc_id))
    public = set(request.public_keys_of(rewrite.doc_id))
    private_triples = [t for t in request.triples_of(rewrite.doc_id) if t.key in private]
    leaked = leaked_keys(private_triples, rewrite.text)
    return {
        "private": len(private),
        "public": len(public),
        "private_kept": len(private & rewritten),
        "public_kept": len(public & rewritten),
        "r_pri": len(private & rewritten) / len(private) if private else None,
        "r_pub": len(public & rewritten) / len(public) if public else None,
        "leaked": len(leaked),
        "leak_check": len(leaked) / len(private) if private else None,
        "surviving": [list(k) for k in sorted(private & rewritten)],
        "seconds": rewrite.seconds,
    }


def _summary(
    per_doc: Iterable[Mapping[str, Any]], set_private: set[TripleKey], graph_keys: set[TripleKey]
) -> dict[str, Any]:
    rows = list(per_doc)
    private = sum(m["private"] for m in rows)
    return {
        "documents": len(rows),
        "r_pri": mean_defined(m["r_pri"] for m in rows),
        "r_pub": mean_defined(m["r_pub"] for m in rows),
        "r_connect": r_connect(set_private, graph_keys),
        "leak_check": sum(m["leaked"] for m in rows) / private if private else None,
        "seconds_per_doc": sum(m["seconds"] for m in rows) / len(rows) if rows else None,
    }


def leaked_keys(private_triples: Iterable[Triple], text: str) -> set[TripleKey]:
    """Relation-agnostic leak check: a private triple leaks when its tail and its head (or the
    head's last word, a surname) still occur in the text, as whole words, ignoring case."""
    leaked: set[TripleKey] = set()
    for triple in private_triples:
        head_forms = {triple.head, triple.head.split()[-1]} if triple.head.split() else {triple.head}
        if _occurs(triple.tail, text) and any(_occurs(form, text) for form in head_forms):
            leaked.add(triple.key)
    return leaked


def _occurs(phrase: str, text: str) -> bool:
    phrase = phrase.strip()
    if not phrase:
        return False
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(part) for part in phrase.split()) + r"(?!\w)"
    return re.search(pattern, text, re.IGNORECASE) is not None


def surviving_connections(
    private_keys: Iterable[TripleKey], graph_keys: Iterable[TripleKey]
) -> dict[TripleKey, tuple[TripleKey, ...]]:
    """For each private triple whose head and tail stay connected in the rewritten graph (what
    r_connect counts), one shortest connecting path; a surviving private edge is its own path."""
    keys = set(graph_keys)
    adj = adjacency(keys)
    found: dict[TripleKey, tuple[TripleKey, ...]] = {}
    for key in sorted(set(private_keys)):
        if key in keys:
            found[key] = (key,)
            continue
        path = shortest_path(adj, key[0], key[2])
        if path:
            found[key] = path
    return found

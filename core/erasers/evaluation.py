"""Grade rewrites as Eraser4RAG does (section 4.1), plus a relation-agnostic leak check.

Per document: r_pri and r_pub from triples re-extracted from the rewrite (by the
*evaluating* extractor, a setting separate from the one that defined the triples).
Per retrieval set: r_connect over the graph G' of all its rewritten documents. Every
figure is also reported on D_special (Eq. 1) and on the sets in {D}_infer (Eq. 2).
The leak check counts a private triple of a document as leaked when the rewrite still
names its tail and its head (or the head's surname), whatever the relation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from core.erasers.base import EraseRequest, Rewrite
from core.erasers.mentions import mentions_entity, surname
from core.extract.base import Extractor
from core.graph import components_of
from core.metrics import d_special, is_inference_risk_set, mean_defined, retention_by_doc
from core.types import Triple, TripleKey


@dataclass(frozen=True)
class DocEvaluation:
    doc_id: str
    private_before: int
    private_after: int
    public_before: int
    public_after: int
    leaked: tuple[TripleKey, ...]  # private keys of the doc whose tail and head are still named
    special: bool  # in D_special (Eq. 1)
    empty: bool  # the passage had no text (carried through, counted)
    seconds: float = 0.0

    @property
    def r_pri(self) -> float | None:
        return self.private_after / self.private_before if self.private_before else None

    @property
    def r_pub(self) -> float | None:
        return self.public_after / self.public_before if self.public_before else None


@dataclass(frozen=True)
class SetEvaluation:
    docs: tuple[DocEvaluation, ...]
    private_total: int  # #G_pri
    connected: tuple[TripleKey, ...]  # private keys whose head and tail are connected in G'
    special_private: tuple[TripleKey, ...]  # private keys occurring in a D_special document
    infer: bool  # the set is in {D}_infer
    rewritten_triples: tuple[Triple, ...] = field(default=(), repr=False)

    @property
    def r_connect(self) -> float | None:
        return len(self.connected) / self.private_total if self.private_total else None

    @property
    def r_connect_special(self) -> float | None:
        if not self.special_private:
            return None
        connected = set(self.connected)
        return sum(1 for k in self.special_private if k in connected) / len(self.special_private)


def leaked_keys(text: str, private_keys: Iterable[TripleKey]) -> tuple[TripleKey, ...]:
    """Private keys whose tail and head (or the head's surname) still occur in `text`."""
    leaked = []
    for key in private_keys:
        head, _relation, tail = key
        if not mentions_entity(text, tail):
            continue
        short = surname(head)
        if mentions_entity(text, head) or (short and mentions_entity(text, short)):
            leaked.append(key)
    return tuple(sorted(leaked))


def evaluate_rewrites(
    request: EraseRequest,
    rewrites: Sequence[Rewrite],
    extractor: Extractor,
    rewritten_triples: Sequence[Triple] | None = None,
) -> SetEvaluation:
    """The paper's metrics for one retrieval set's rewrites (re-extracted unless given)."""
    by_id = {r.doc_id: r for r in rewrites}
    if rewritten_triples is None:
        items = [(r.doc_id, r.text) for r in rewrites if r.text.strip()]
        rewritten_triples = extractor.extract_many(items) if items else []
    original_by_doc = _keys_by_doc(request.triples)
    rewritten_by_doc = _keys_by_doc(rewritten_triples)
    definition = request.definition
    retention = retention_by_doc(
        {d.id: original_by_doc.get(d.id, set()) for d in request.documents}, rewritten_by_doc, definition
    )
    special = d_special(original_by_doc, definition)
    docs = []
    for document in request.documents:
        counts = retention[document.id]
        rewrite = by_id.get(document.id)
        text = rewrite.text if rewrite is not None else document.text
        private_keys = original_by_doc.get(document.id, set()) & definition.private
        docs.append(
            DocEvaluation(
                doc_id=document.id,
                private_before=counts.private_before,
                private_after=counts.private_after,
                public_before=counts.public_before,
                public_after=counts.public_after,
                leaked=leaked_keys(text, private_keys),
                special=document.id in special,
                empty=not document.text.strip(),
                seconds=rewrite.seconds if rewrite is not None else 0.0,
            )
        )
    rewritten_keys = {t.key for t in rewritten_triples}
    components = components_of(rewritten_keys)
    connected = tuple(sorted(k for k in definition.private if components.connected(k[0], k[2])))
    special_private = tuple(
        sorted({k for doc_id in special for k in original_by_doc.get(doc_id, set()) & definition.private})
    )
    return SetEvaluation(
        docs=tuple(docs),
        private_total=len(definition.private),
        connected=connected,
        special_private=special_private,
        infer=is_inference_risk_set(list(request.triples), definition),
        rewritten_triples=tuple(rewritten_triples),
    )


def _keys_by_doc(triples: Iterable[Triple]) -> dict[str, set[TripleKey]]:
    grouped: dict[str, set[TripleKey]] = {}
    for triple in triples:
        grouped.setdefault(triple.doc_id, set()).add(triple.key)
    return grouped


def _leak_ratio(docs: Iterable[DocEvaluation]) -> float | None:
    total = leaked = 0
    for doc in docs:
        total += doc.private_before
        leaked += len(doc.leaked)
    return leaked / total if total else None


def summarize(evaluations: Sequence[SetEvaluation]) -> dict[str, object]:
    """Top-level figures: all documents, D_special and {D}_infer.

    r_pri/r_pub: mean over documents where defined; r_connect: mean over sets (for
    D_special, over the private triples of D_special documents); leak_check: leaked
    private (doc, triple) pairs over all such pairs.
    """
    all_docs = [d for e in evaluations for d in e.docs]
    infer_sets = [e for e in evaluations if e.infer]
    infer_docs = [d for e in infer_sets for d in e.docs]
    special_docs = [d for d in all_docs if d.special]

    def block(docs: list[DocEvaluation], connect: list[float | None]) -> dict[str, object]:
        return {
            "documents": len(docs),
            "r_pri": mean_defined(d.r_pri for d in docs),
            "r_pub": mean_defined(d.r_pub for d in docs),
            "r_connect": mean_defined(connect),
            "leak_check": _leak_ratio(docs),
        }

    summary = block(all_docs, [e.r_connect for e in evaluations])
    summary["sets"] = len(evaluations)
    summary["empty_passages"] = sum(1 for d in all_docs if d.empty)
    summary["D_special"] = block(special_docs, [e.r_connect_special for e in evaluations])
    summary["D_infer"] = block(infer_docs, [e.r_connect for e in infer_sets])
    summary["D_infer"]["sets"] = len(infer_sets)  # type: ignore[index]
    return summary

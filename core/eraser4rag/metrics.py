"""Eraser4RAG metrics: retention rates, the connection ratio, D_special and the RL reward.

A rate whose denominator is empty (a document with no private triples for r_pri,
no public triples for r_pub, an empty G_pri for r_connect) is undefined and
returned as `None`; `mean_defined` and `retention_by_doc` skip such documents, as
the paper evaluates r_pri/r_pub only on D_special where both sets are non-empty.
Every argument that takes triples accepts `Triple` objects or `TripleKey` tuples.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from core.eraser4rag.filters import PrivacyDefinition
from core.eraser4rag.graph import components_of, ends_of
from core.eraser4rag.risk import has_inference_risk
from core.types import Triple, TripleKey


def _keys(items: Iterable[Triple | TripleKey]) -> set[TripleKey]:
    return {item.key if isinstance(item, Triple) else item for item in items}


def retention_rate(before: int, after: int) -> float | None:
    """#after / #before, THE formula of r_pri (private triples) and r_pub (public triples): the share
    of a document's triples of one kind still in its rewrite; None when it had none (undefined)."""
    return after / before if before else None


def connected_rate(connected: int, private: int) -> float | None:
    """#connected / #private, THE formula of r_connect: the share of private triples whose head and
    tail are still connected; None when there is no private triple (undefined)."""
    return connected / private if private else None


def _retention(
    original: Iterable[Triple | TripleKey], rewritten: Iterable[Triple | TripleKey]
) -> float | None:
    before = _keys(original)
    return retention_rate(len(before), len(before & _keys(rewritten)))


def r_pri(
    original_private_keys_in_doc: Iterable[Triple | TripleKey],
    rewritten_keys: Iterable[Triple | TripleKey],
) -> float | None:
    """#g'_i,pri / #g_i,pri: share of the document's private triples still in the rewrite.

    g'_i,pri = g'_i ∩ g_i,pri (section 3.1.1). None when the document had no private triple.
    """
    return _retention(original_private_keys_in_doc, rewritten_keys)


def r_pub(
    original_public_keys_in_doc: Iterable[Triple | TripleKey],
    rewritten_keys: Iterable[Triple | TripleKey],
) -> float | None:
    """#g'_i,pub / #g_i,pub: share of the document's public triples still in the rewrite.

    None when the document had no public triple.
    """
    return _retention(original_public_keys_in_doc, rewritten_keys)


def r_connect(
    private_keys: Iterable[Triple | TripleKey],
    graph_keys: Iterable[Triple | TripleKey],
    aliases: Mapping[str, str] | None = None,
) -> float | None:
    """Share of private triples whose head and tail are connected in the graph of `graph_keys`.

    Section 4.1.2: `graph_keys` is G' of the rewritten documents (or G_unpri, the
    risk left after a perfect erasure of every private triple). Connectivity is
    undirected, by union-find; name variants of one person (`aliases`, `core.eraser4rag.names`) are one
    node. None when there is no private triple.
    """
    private = _keys(private_keys)
    if not private:
        return None
    return connected_rate(len(connected_private(private, graph_keys, aliases)), len(private))


def connected_private(
    private_keys: Iterable[Triple | TripleKey],
    graph_keys: Iterable[Triple | TripleKey],
    aliases: Mapping[str, str] | None = None,
) -> set[TripleKey]:
    """The private triples `r_connect` counts: head and tail connected in the graph of `graph_keys`."""
    components = components_of(_keys(graph_keys), aliases)
    return {key for key in _keys(private_keys) if components.connected(*ends_of(key, aliases))}


def d_special(
    triples_by_doc: Mapping[str, Iterable[Triple | TripleKey]],
    definition: PrivacyDefinition,
) -> set[str]:
    """Eq. 1: documents holding a public and a private triple with the same tail entity.

    Private and public keys are disjoint, so two such triples always differ in head
    or relation, as the paper requires.
    """
    special: set[str] = set()
    for doc_id, items in triples_by_doc.items():
        keys = _keys(items)
        private_tails = {tail for _h, _r, tail in keys & definition.private}
        public_tails = {tail for _h, _r, tail in keys & definition.public}
        if private_tails & public_tails:
            special.add(doc_id)
    return special


def is_inference_risk_set(triples: Sequence[Triple], definition: PrivacyDefinition) -> bool:
    """Whether the document set is in {D}_infer (Eq. 2); see `core.eraser4rag.graph.inference_risks`."""
    return has_inference_risk(triples, definition)


def reward(r_pub_value: float, r_pri_value: float, p: float) -> float:
    """R = r_pub · exp(-p · r_pri) (section 3.2); rates must lie in [0, 1] and p ≥ 0."""
    for name, value in (("r_pub", r_pub_value), ("r_pri", r_pri_value)):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} must be between 0 and 1, got {value}")
    if p < 0:
        raise ValueError(f"penalty p must be non-negative, got {p}")
    return r_pub_value * math.exp(-p * r_pri_value)


def mean_defined(values: Iterable[float | None]) -> float | None:
    """Mean of the defined values (None entries skipped); None when none is defined."""
    defined = [value for value in values if value is not None]
    return sum(defined) / len(defined) if defined else None


@dataclass(frozen=True)
class DocRetention:
    doc_id: str
    private_before: int
    private_after: int
    public_before: int
    public_after: int

    @property
    def r_pri(self) -> float | None:
        return retention_rate(self.private_before, self.private_after)

    @property
    def r_pub(self) -> float | None:
        return retention_rate(self.public_before, self.public_after)


def retention_by_doc(
    original_by_doc: Mapping[str, Iterable[Triple | TripleKey]],
    rewritten_by_doc: Mapping[str, Iterable[Triple | TripleKey]],
    definition: PrivacyDefinition,
) -> dict[str, DocRetention]:
    """Per-document counts behind r_pri and r_pub; a document missing from the rewrite kept nothing."""
    result: dict[str, DocRetention] = {}
    for doc_id, items in original_by_doc.items():
        original = _keys(items)
        rewritten = _keys(rewritten_by_doc.get(doc_id, ()))
        private = original & definition.private
        public = original & definition.public
        result[doc_id] = DocRetention(
            doc_id=doc_id,
            private_before=len(private),
            private_after=len(private & rewritten),
            public_before=len(public),
            public_after=len(public & rewritten),
        )
    return result

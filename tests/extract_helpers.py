"""What the spaCy rule tests read from an extraction: triple keys and the nodes they name."""

from __future__ import annotations

from core.extract.spacy_rules import SpacyRuleExtractor
from core.types import Triple


def keys(extractor: SpacyRuleExtractor, text: str, title: str = "") -> set[tuple[str, str, str]]:
    return {t.key for t in extractor.extract("doc", text, title=title)}


def nodes(found: set[tuple[str, str, str]]) -> set[str]:
    return {node for head, _, tail in found for node in (head, tail)}


def facts(triples: list[Triple]) -> set[tuple[str, str, str]]:
    """(head, relation, tail) of each triple."""
    return {(t.head, t.relation, t.tail) for t in triples}

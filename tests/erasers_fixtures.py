"""Shared fixtures for eraser tests: the sample corpus, its spaCy triples and a privacy definition."""

from __future__ import annotations

from functools import lru_cache

from core.documents import load_sample_corpus
from core.erasers.base import EraseRequest
from core.extract import extract_corpus, get_extractor
from core.filters import define_privacy
from core.settings import Settings
from core.types import Triple, TripleKey

# Planted private facts of the sample corpus (see core.documents.load_sample_corpus).
MARKED: tuple[TripleKey, ...] = (
    ("mara voss", "live_in", "harrow vale"),
    ("tomas reyl", "suffer_from", "asthma"),
    ("tomas reyl", "live_in", "eastmere"),
)


@lru_cache(maxsize=1)
def sample_triples() -> tuple[Triple, ...]:
    return tuple(extract_corpus(load_sample_corpus(), get_extractor("spacy", Settings())))


def sample_request(doc_ids: tuple[str, ...] | None = None) -> EraseRequest:
    """One request over the whole sample corpus (or some of its documents), MARKED private."""
    corpus = load_sample_corpus()
    documents = tuple(d for d in corpus.documents if doc_ids is None or d.id in doc_ids)
    ids = {d.id for d in documents}
    triples = tuple(t for t in sample_triples() if t.doc_id in ids)
    keys = {t.key for t in triples}
    definition = define_privacy(keys, [k for k in MARKED if k in keys])
    return EraseRequest(documents=documents, triples=triples, definition=definition)

"""Shared fixtures for eraser tests: the sample corpus, its spaCy triples and a privacy definition."""

from __future__ import annotations

from functools import lru_cache

from core.documents import load_sample_corpus
from core.eraser4rag.erasers.base import EraseRequest
from core.eraser4rag.filters import define_privacy
from core.eraser4rag.split import connected_random_private_keys
from core.extract import extract_corpus, get_extractor
from core.settings import Settings
from core.types import Triple, TripleKey

# Planted private facts of the sample corpus (see core.documents.load_sample_corpus), as
# (head, tail) pairs: the relation name is the extractor's business (its vocabulary may change).
MARKED_PAIRS: tuple[tuple[str, str], ...] = (
    ("mara voss", "harrow vale"),
    ("tomas reyl", "asthma"),
    ("tomas reyl", "eastmere"),
)


def key_between(keys: set[TripleKey], head: str, tail: str) -> TripleKey:
    """The one extracted key from `head` to `tail` (the test fails clearly when there is none)."""
    found = sorted(k for k in keys if k[0] == head and k[2] == tail)
    assert found, f"the extractor found no triple from {head!r} to {tail!r}"
    return found[0]


@lru_cache(maxsize=1)
def sample_triples() -> tuple[Triple, ...]:
    return tuple(extract_corpus(load_sample_corpus(), get_extractor("spacy", Settings())))


def sample_request(doc_ids: tuple[str, ...] | None = None, split_seed: int | None = None) -> EraseRequest:
    """One request over the sample corpus (or some of its documents).

    Private: the planted MARKED facts, or with `split_seed` the paper's connected 25 % split.
    """
    corpus = load_sample_corpus()
    documents = tuple(d for d in corpus.documents if doc_ids is None or d.id in doc_ids)
    ids = {d.id for d in documents}
    triples = tuple(t for t in sample_triples() if t.doc_id in ids)
    keys = {t.key for t in triples}
    if split_seed is None:
        marked = {k for k in keys if (k[0], k[2]) in MARKED_PAIRS}
    else:
        marked = connected_random_private_keys(keys, 0.25, split_seed)
    definition = define_privacy(keys, marked)
    return EraseRequest(documents=documents, triples=triples, definition=definition)


# a real PopQA dev sentence the repair and restating tests share
SEITZ = (
    "Ludovico Seitz, or Ludwig Seitz (11 June 1844, Rome - 11 September 1908, Albano Laziale) was an Italian "
    "painter of German ancestry, who served as Director of the Vatican Galleries."
)


def erase_phrases(nlp, sentence: str, words: list[str], public: list[str] = ()) -> tuple[str, bool]:
    """`sentence` closed under the grammatical rules after removing the tokens of each phrase in `words`;
    `public` are tokens that name public tails. True: the main predicate went."""
    from core.eraser4rag.erasers.closure import close_deletions
    from core.eraser4rag.erasers.rendering import render
    from core.eraser4rag.erasers.repair import segments

    doc = nlp(sentence)
    removed, keep = set(), set()
    for phrase, target in [(w, removed) for w in words] + [(p, keep) for p in public]:
        start = sentence.index(phrase)
        target.update(t.i for t in doc if start <= t.idx < start + len(phrase))
    segment = segments(doc)[0]
    closed, lost = close_deletions(segment, removed, keep)
    return render(segment, closed), lost

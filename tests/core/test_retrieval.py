"""Embedding retrieval with the real all-MiniLM-L6-v2."""

from __future__ import annotations

import pytest

from core.retrieval import Retriever
from core.types import Document

DOCS = [
    Document("d1", "", "The bakery sells sourdough bread, croissants and cinnamon rolls every morning."),
    Document("d2", "", "Type 2 diabetes is managed with diet, exercise and metformin; check HbA1c often."),
    Document("d3", "", "The football club won the league after a late goal in the final match."),
]


@pytest.fixture(scope="module")
def retriever() -> Retriever:
    return Retriever(DOCS)


def test_relevant_document_ranks_first(retriever: Retriever) -> None:
    ranked = retriever.top_k("How do I control high blood sugar?", k=3)
    assert ranked[0][0].id == "d2"
    scores = [score for _, score in ranked]
    assert scores == sorted(scores, reverse=True)
    assert -1.0 <= scores[-1] <= scores[0] <= 1.0
    assert retriever.top_k("where can I buy fresh bread?", k=1)[0][0].id == "d1"


def test_corpus_embedded_once(retriever: Retriever) -> None:
    retriever.top_k("sports results", k=1)
    matrix = retriever._document_matrix()
    retriever.top_k("pastry", k=2)
    assert retriever._document_matrix() is matrix
    assert matrix.shape == (3, 384)


def test_k_larger_than_corpus_and_bad_input(retriever: Retriever) -> None:
    assert len(retriever.top_k("anything", k=10)) == 3
    with pytest.raises(ValueError, match="k must be"):
        retriever.top_k("x", k=0)
    with pytest.raises(ValueError, match="empty"):
        retriever.top_k("  ")
    assert Retriever([]).top_k("anything") == []


def test_retriever_for_caches_one_retriever_per_corpus_and_embedder() -> None:
    from core import retrieval
    from core.retrieval import retriever_for

    first = retriever_for(DOCS, "")
    assert retriever_for(list(DOCS), "") is first
    assert retriever_for(DOCS, "other-embedder") is not first
    assert retriever_for(DOCS, "other-embedder")._embedder_name == "other-embedder"
    changed = [Document("d1", "", "changed"), *DOCS[1:]]
    assert retriever_for(changed, "") is not first
    for index in range(retrieval.MAX_CACHED_RETRIEVERS):
        retriever_for([Document(f"x{index}", "", "text")], "")
    assert retriever_for(DOCS, "") is not first  # least recently used ones are dropped

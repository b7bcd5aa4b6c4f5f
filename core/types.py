"""The shared nouns of the studio: documents, queries, corpora and triples.

Every tab, metric and store uses these definitions; `triple_key` is the one
normalisation rule by which triples are compared anywhere in the project.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

TripleKey = tuple[str, str, str]
Span = tuple[int, int]
# progress(done, total): how far a long step is, in the step's own unit
Progress = Callable[[int, int], None]

_PUNCT_EDGE = re.compile(r"^[\W_]+|[\W_]+$", re.UNICODE)
_INNER_SPACE = re.compile(r"\s+")
_POSSESSIVE = re.compile(r"['’]s\b")
_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
_LEADING_ARTICLE = re.compile(r"^(the|a|an)\s+")


def normalize_entity(text: str) -> str:
    """Case-fold, unify unicode and whitespace, drop edge punctuation and a leading article.

    "The  Acme Corp." and "acme corp" give the same entity.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("’", "'")
    text = _INNER_SPACE.sub(" ", text).strip()
    text = _PUNCT_EDGE.sub("", text)
    text = _LEADING_ARTICLE.sub("", text)
    return text.strip()


def normalize_relation(text: str) -> str:
    """snake_case, case-folded relation name ("Located In" -> "located_in").

    Lemmatisation is done by the extractors (they know the parse); this rule only
    makes the surface form canonical so that every backend's output compares equal.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _POSSESSIVE.sub("", text)
    text = _NON_WORD.sub("_", text)
    return text.strip("_")


def triple_key(head: str, relation: str, tail: str) -> TripleKey:
    """The one comparison key for a triple, used by the split, filters, metrics and repair."""
    return (normalize_entity(head), normalize_relation(relation), normalize_entity(tail))


@dataclass(frozen=True)
class Document:
    id: str
    title: str
    text: str
    source: str = ""


@dataclass(frozen=True)
class Query:
    """A retriever query; its triples are never private (Eraser4RAG, footnote 1)."""

    id: str
    text: str
    answers: tuple[str, ...] = ()
    doc_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Triple:
    """A knowledge triple with provenance.

    `span` is the character range in the document text (or query text when
    `doc_id` names a query) of the sentence or clause that expresses it. `category` names the
    kind of personal data the triple holds ("phone", "health", ...; `core.extract.spacy_rules.personal`),
    "" for an ordinary fact.
    """

    head: str
    relation: str
    tail: str
    doc_id: str
    span: Span = (0, 0)
    confidence: float = 1.0
    backend: str = ""
    category: str = ""

    @cached_property
    def key(self) -> TripleKey:
        """`triple_key` of the triple, computed on first use and kept (the fields never change).

        The cached value lives in the instance `__dict__`; it is no dataclass field, so it takes
        no part in equality, hashing or `repr`, and pickling leaves it out.
        """
        return triple_key(self.head, self.relation, self.tail)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("key", None)  # derived: recomputed on first use after unpickling
        return state

    def __copy__(self) -> Triple:
        return self  # immutable: a copy would be indistinguishable

    def __deepcopy__(self, memo: dict[int, Any]) -> Triple:
        return self  # every field is immutable (str, int tuple, float)

    def label(self) -> str:
        return f"({self.head}, {self.relation}, {self.tail})"


def triple_to_dict(triple: Triple) -> dict[str, Any]:
    """The JSON form of a triple (every field); `core.serialize.triple_from_dict` reads it back checked."""
    return {
        "head": triple.head,
        "relation": triple.relation,
        "tail": triple.tail,
        "doc_id": triple.doc_id,
        "span": [triple.span[0], triple.span[1]],
        "confidence": triple.confidence,
        "backend": triple.backend,
        "category": triple.category,
    }


@dataclass(frozen=True)
class RetrievalSet:
    """One query and the documents retrieved for it: the unit Eraser4RAG builds one global graph for."""

    query: Query
    documents: tuple[Document, ...]

    def source_ids(self) -> frozenset[str]:
        """Ids whose triples belong to this set's graph: its documents and the query itself."""
        return frozenset({self.query.id, *(doc.id for doc in self.documents)})


@dataclass
class Corpus:
    """Documents and the queries that retrieved them, in load order."""

    documents: list[Document] = field(default_factory=list)
    queries: list[Query] = field(default_factory=list)

    def document(self, doc_id: str) -> Document:
        for doc in self.documents:
            if doc.id == doc_id:
                return doc
        raise KeyError(f"no document with id {doc_id!r}")

    def document_ids(self) -> set[str]:
        return {doc.id for doc in self.documents}

    def query_ids(self) -> set[str]:
        return {query.id for query in self.queries}

    def text_of(self, source_id: str) -> str:
        """Text of a document or query by id (triples from queries point at the query)."""
        for doc in self.documents:
            if doc.id == source_id:
                return doc.text
        for query in self.queries:
            if query.id == source_id:
                return query.text
        raise KeyError(f"no document or query with id {source_id!r}")

    def retrieval_sets(self) -> list[RetrievalSet]:
        """Each query with its retrieved documents (in the query's order; ids not loaded are skipped)."""
        by_id = {doc.id: doc for doc in self.documents}
        return [
            RetrievalSet(query, tuple(by_id[i] for i in query.doc_ids if i in by_id))
            for query in self.queries
        ]

    def merged_with(self, other: Corpus) -> Corpus:
        """A new corpus with `other` appended; ids already present are kept, not replaced."""
        doc_ids = self.document_ids()
        query_ids = self.query_ids()
        return Corpus(
            documents=self.documents + [d for d in other.documents if d.id not in doc_ids],
            queries=self.queries + [q for q in other.queries if q.id not in query_ids],
        )

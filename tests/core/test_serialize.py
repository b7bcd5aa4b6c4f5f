"""JSON forms of documents, queries, triples, privacy definitions and bundles."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from core.documents import InputError
from core.eraser4rag.filters import FILTER_PRIVATE, FILTER_PUBLIC, PrivacyDefinition, define_privacy
from core.serialize import (
    BUNDLE_FORMAT,
    BundleError,
    corpus_from_dict,
    corpus_to_dict,
    export_bundle,
    import_bundle,
    privacy_definition_from_dict,
    privacy_definition_to_dict,
    triple_from_dict,
    triple_to_dict,
)
from core.types import Corpus, Document, Query, Triple

# (sentence, head, relation, tail) per document; spans are found in the text, not typed in.
_DOCS = {
    "d1": (
        "Alice works at Acme. Acme is located in Berlin. Alice lives in Berlin.",
        [
            ("Alice works at Acme.", "Alice", "works at", "Acme"),
            ("Acme is located in Berlin.", "Acme", "located in", "Berlin"),
            ("Alice lives in Berlin.", "Alice", "lives in", "Berlin"),
        ],
    ),
    "d2": (
        "Bob knows Carol. Carol knows Dave. Bob manages Dave — über-secret ✓.",
        [
            ("Bob knows Carol.", "Bob", "knows", "Carol"),
            ("Carol knows Dave.", "Carol", "knows", "Dave"),
            ("Bob manages Dave", "Bob", "manages", "Dave"),
        ],
    ),
}
_QUERY = ("q1", "Where did Alice travel?", ("Paris",), ("d1",))


def sample_corpus_and_triples() -> tuple[Corpus, list[Triple]]:
    """Two documents, one query, and triples whose spans point at their sentences."""
    documents = [
        Document(id=doc_id, title=f"Title {doc_id}", text=text, source=f"{doc_id}.txt")
        for doc_id, (text, _) in _DOCS.items()
    ]
    query_id, query_text, answers, doc_ids = _QUERY
    corpus = Corpus(documents=documents, queries=[Query(query_id, query_text, answers, doc_ids)])
    triples = []
    for doc_id, (text, facts) in _DOCS.items():
        for n, (sentence, head, relation, tail) in enumerate(facts):
            start = text.index(sentence)
            triples.append(
                Triple(
                    head,
                    relation,
                    tail,
                    doc_id,
                    (start, start + len(sentence)),
                    confidence=0.1 * (n + 1),
                    backend="spacy",
                )
            )
    triples.append(Triple("Alice", "travel to", "Paris", query_id, (0, len(query_text)), 1.0, "llm"))
    return corpus, triples


def sample_definition(triples: list[Triple]) -> PrivacyDefinition:
    """Marks (works_at, located_in, manages): filter (a) and filter (b) each move one triple, with paths."""
    marked = [t.key for t in triples if t.relation in {"works at", "located in", "manages"}]
    query_keys = [t.key for t in triples if t.doc_id == "q1"]
    return define_privacy([t.key for t in triples], marked, query_keys)


def sample_bundle() -> dict[str, Any]:
    corpus, triples = sample_corpus_and_triples()
    definition = sample_definition(triples)
    empty = define_privacy([t.key for t in triples], [])
    return export_bundle("demo", corpus, triples, {"manual": definition, "none": empty}, {"note": "ünïcode"})


def test_sample_definition_exercises_both_filters_with_paths() -> None:
    _, triples = sample_corpus_and_triples()
    definition = sample_definition(triples)
    assert {move.filter for move in definition.moves} == {FILTER_PUBLIC, FILTER_PRIVATE}
    assert all(move.path for move in definition.moves)
    assert definition.query


def test_corpus_and_triples_round_trip_exactly() -> None:
    corpus, triples = sample_corpus_and_triples()
    assert corpus_from_dict(json.loads(json.dumps(corpus_to_dict(corpus)))) == corpus
    for triple in triples:
        data = json.loads(json.dumps(triple_to_dict(triple)))
        assert data["span"] == list(triple.span)
        assert triple_from_dict(data) == triple


def test_definition_round_trip_keeps_moves_paths_and_query() -> None:
    _, triples = sample_corpus_and_triples()
    definition = sample_definition(triples)
    restored = privacy_definition_from_dict(json.loads(json.dumps(privacy_definition_to_dict(definition))))
    assert restored == definition
    assert restored.moves == definition.moves  # order and paths, not just set equality


def test_definition_output_is_sorted_and_stable() -> None:
    _, triples = sample_corpus_and_triples()
    definition = sample_definition(triples)
    shuffled = PrivacyDefinition(
        private=frozenset(reversed(sorted(definition.private))),
        public=frozenset(reversed(sorted(definition.public))),
        excluded=definition.excluded,
        moves=definition.moves,
        marked=definition.marked,
        query=definition.query,
    )
    first = json.dumps(privacy_definition_to_dict(definition))
    assert json.dumps(privacy_definition_to_dict(shuffled)) == first
    public = privacy_definition_to_dict(definition)["public"]
    assert public == sorted(public) and all(len(key) == 3 for key in public)


def test_bundle_round_trip_through_json_text() -> None:
    corpus, triples = sample_corpus_and_triples()
    definition = sample_definition(triples)
    data = export_bundle("demo", corpus, triples, {"manual": definition}, {"ratio": 0.25, "seed": 3})
    assert data["format"] == BUNDLE_FORMAT
    bundle = import_bundle(json.loads(json.dumps(data, ensure_ascii=False)))
    assert bundle.name == "demo"
    assert bundle.corpus == corpus
    assert bundle.triples == triples
    assert bundle.definitions == {"manual": definition}
    assert bundle.meta == {"ratio": 0.25, "seed": 3}
    assert export_bundle(bundle.name, bundle.corpus, bundle.triples, bundle.definitions, bundle.meta) == data


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        target = data
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return mutate


def _delete(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        target = data
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]

    return mutate


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (_set(("format",), "something/2"), "format"),
        (_delete(("name",)), "name"),
        (_set(("corpus", "documents"), {}), "corpus.documents"),
        (_delete(("corpus", "documents", 1, "text")), "corpus.documents[1].text"),
        (_set(("corpus", "documents", 1, "id"), "d1"), "corpus.documents[1].id"),
        (_set(("corpus", "queries", 0, "answers"), ["ok", 7]), "corpus.queries[0].answers[1]"),
        (_set(("triples", 4, "span"), [9, 3]), "triples[4].span"),
        (_set(("triples", 4, "span"), [0, 10_000]), "triples[4].span"),
        (_set(("triples", 2, "span"), "0-5"), "triples[2].span"),
        (_set(("triples", 1, "confidence"), "high"), "triples[1].confidence"),
        (_set(("triples", 3, "doc_id"), "missing"), "triples[3].doc_id"),
        (_set(("definitions", "manual", "private", 0), ["a", "b"]), "definitions.manual.private[0]"),
        (_set(("definitions", "manual", "moves", 0, "path", 0), "x"), "definitions.manual.moves[0].path[0]"),
        (_set(("meta",), []), "meta"),
    ],
)
def test_invalid_bundle_names_the_field(mutate: Callable[[dict[str, Any]], None], field: str) -> None:
    data = copy.deepcopy(sample_bundle())
    mutate(data)
    with pytest.raises(BundleError) as caught:
        import_bundle(data)
    assert caught.value.field == field
    assert field in str(caught.value)
    assert isinstance(caught.value, InputError)


def test_non_object_bundle_is_refused() -> None:
    with pytest.raises(BundleError, match="expected an object, got array"):
        import_bundle([sample_bundle()])


def test_a_triples_category_round_trips_and_old_files_read_as_uncategorised() -> None:
    triple = Triple("Anna Berg", "phone", "555 0100", "d1", (0, 20), 0.8, "spacy", "contact")
    data = json.loads(json.dumps(triple_to_dict(triple)))
    assert data["category"] == "contact"
    assert triple_from_dict(data) == triple
    del data["category"]  # a bundle saved before triples had categories
    assert triple_from_dict(data).category == ""

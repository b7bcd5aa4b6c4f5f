"""core/extract/__init__.py: the extractor registry, extract_corpus, lemmatize_relation."""

from __future__ import annotations

import pytest

from core.extract import available_extractors, extract_corpus, get_extractor, lemmatize_relation
from core.extract.spacy_rules import SpacyRuleExtractor
from core.settings import Settings
from core.types import Corpus, Document, Query, triple_key
from tests.extract_helpers import keys


def test_extract_corpus_covers_documents_and_queries(extractor):
    corpus = Corpus(
        documents=[Document("d1", "Mara", "Mara Voss works for Lindqvist Robotics.")],
        queries=[Query("q1", "Does Priya Okafor treat Tomas Reyl?")],
    )
    triples = extract_corpus(corpus, extractor)
    assert {(t.doc_id, t.key) for t in triples} == {
        ("d1", triple_key("Mara Voss", "employer", "Lindqvist Robotics")),
        ("q1", triple_key("Priya Okafor", "treat", "Tomas Reyl")),
    }


def test_lemmatize_relation_follows_the_same_convention(extractor):
    assert lemmatize_relation("lived in") == "live_in"
    assert lemmatize_relation("works_for") == "work_for"
    assert lemmatize_relation("is located in") == "located_in"
    assert lemmatize_relation("was founded by") == "founded_by"
    assert lemmatize_relation("is the CEO of") == "ceo_of"
    assert lemmatize_relation("isMarriedTo") == "married_to"
    assert lemmatize_relation("does not live in") == "not_live_in"
    assert lemmatize_relation("place of birth") == "place_of_birth"
    assert lemmatize_relation("studied at") == "study_at"
    assert lemmatize_relation("treats") == "treat"
    assert lemmatize_relation("employs") == "employ"
    assert lemmatize_relation("located in") == "located_in"
    assert lemmatize_relation("specializes in") == "specialize_in"
    # The spaCy backend names the same facts identically.
    found = keys(
        extractor, "Mara Voss lived in Harwick. Acme is located in Berlin. Acme was founded by John Doe."
    )
    assert {r for _, r, _ in found} == {"residence", "located_in", "founded_by"}


def test_registry_names_and_unknown_name():
    assert available_extractors() == ["spacy", "llm", "relik"]
    assert isinstance(get_extractor("spacy", Settings()), SpacyRuleExtractor)
    with pytest.raises(ValueError, match="spacy, llm, relik"):
        get_extractor("rebel", Settings())

"""spaCy dependency rules on the real en_core_web_sm pipeline, hand-checked sentences."""

from __future__ import annotations

import re

import pytest

from core.documents import load_sample_corpus
from core.extract import available_extractors, extract_corpus, get_extractor, lemmatize_relation
from core.extract.spacy_rules import SpacyRuleExtractor
from core.graph import components_of
from core.settings import Settings
from core.types import Corpus, Document, Query, triple_key
from tests.extract_helpers import keys


@pytest.fixture(scope="module")
def extractor() -> SpacyRuleExtractor:
    return SpacyRuleExtractor()


def test_subject_verb_object_and_prepositional_object(extractor):
    found = keys(
        extractor, "Henrik Lindqvist founded Lindqvist Robotics in 2009. John Doe lives in TechVille."
    )
    assert triple_key("Henrik Lindqvist", "found", "Lindqvist Robotics") in found
    assert triple_key("Henrik Lindqvist", "found_in", "2009") in found
    assert triple_key("John Doe", "residence", "TechVille") in found


def test_passive_keeps_the_participle(extractor):
    found = keys(extractor, "St Olave Hospital is located in Harwick. Acme Corp was founded by John Doe.")
    assert triple_key("St Olave Hospital", "located_in", "Harwick") in found
    assert triple_key("Acme Corp", "founded_by", "John Doe") in found


def test_copula_with_a_noun_or_adjective_and_preposition(extractor):
    found = keys(extractor, "John Doe is the CEO of Acme Corp. Tomas Reyl is married to Elin Voss.")
    assert triple_key("John Doe", "ceo_of", "Acme Corp") in found
    assert triple_key("Tomas Reyl", "spouse", "Elin Voss") in found


def test_apposition_and_possessive(extractor):
    found = keys(
        extractor,
        "Mara Voss, a nurse at St Olave Hospital, lives in Harwick. Mara's sister Ida works for Acme.",
    )
    assert triple_key("Mara Voss", "occupation", "nurse") in found
    assert triple_key("Mara Voss", "employer", "St Olave Hospital") in found
    assert triple_key("Mara Voss", "residence", "Harwick") in found
    # "Mara" merges into the earlier full name; the apposition "Ida" stands in for "sister".
    assert triple_key("Mara Voss", "sibling", "Ida") in found
    assert triple_key("Ida", "employer", "Acme") in found


def test_participle_modifier_relative_clause_and_conjunctions(extractor):
    found = keys(
        extractor,
        "Acme, a company based in Berlin, employs Mara and Ida. "
        "Jonas Brandt, who lives in Eastmere, manages Saint Alder Clinic.",
    )
    assert triple_key("Acme", "located_in", "Berlin") in found
    assert {triple_key("Acme", "employ", "Mara"), triple_key("Acme", "employ", "Ida")} <= found
    assert triple_key("Jonas Brandt", "residence", "Eastmere") in found
    assert triple_key("Jonas Brandt", "manage", "Saint Alder Clinic") in found


def test_heads_and_tails_are_whole_phrases_without_determiners(extractor):
    triples = extractor.extract(
        "doc", "Harrow Vale lies on the Tamsin River. Mara Voss designs the warehouse robots."
    )
    labels = {(t.head, t.relation, t.tail) for t in triples}
    assert ("Harrow Vale", "lie_on", "Tamsin River") in labels
    assert ("Mara Voss", "design", "warehouse robots") in labels


def test_partial_names_and_an_unambiguous_pronoun_merge_into_the_full_name(extractor):
    text = (
        "Mara Voss lives in Harwick. Voss moved to Berlin and works for Siemens. She does not live in Paris."
    )
    triples = extractor.extract("doc", text)
    found = {t.key for t in triples}
    assert triple_key("Mara Voss", "move_to", "Berlin") in found
    assert triple_key("Mara Voss", "employer", "Siemens") in found  # subject shared by the conjoined verb
    assert triple_key("Mara Voss", "not_live_in", "Paris") in found
    heads = {t.head for t in triples}
    assert heads == {"Mara Voss"}
    pronoun_triple = next(t for t in triples if t.relation == "not_live_in")
    entity_triple = next(t for t in triples if t.relation == "residence")
    assert pronoun_triple.confidence < entity_triple.confidence


def test_ambiguous_pronoun_is_not_merged(extractor):
    triples = extractor.extract("doc", "Mara Voss met Ida Brandt in Paris. She moved to Rome.")
    assert triple_key("Mara Voss", "meet", "Ida Brandt") in {t.key for t in triples}
    assert not [t for t in triples if t.tail == "Rome"]  # "She" could be either woman: no triple
    assert not [t for t in triples if t.head.lower() in {"she", "her"}]


def test_ambiguous_partial_name_stays_partial(extractor):
    found = keys(extractor, "Mara Voss met Elin Voss. Voss moved to Rome.")
    assert not any(head in {"mara voss", "elin voss"} and tail == "rome" for head, _, tail in found)


def test_span_is_the_sentence_that_states_the_triple(extractor):
    text = (
        "Mara Voss works for Lindqvist Robotics.\n"
        "Lindqvist Robotics is located in Harrow Vale. "
        "Lindqvist Robotics builds warehouse robots. It employs robotics engineers."
    )
    triples = extractor.extract("doc-7", text)
    located = next(t for t in triples if t.relation == "located_in")
    assert text[located.span[0] : located.span[1]] == "Lindqvist Robotics is located in Harrow Vale."
    works = next(t for t in triples if t.relation == "employer")
    assert text[works.span[0] : works.span[1]] == "Mara Voss works for Lindqvist Robotics."
    employs = next(t for t in triples if t.relation == "employ")
    assert employs.head == "Lindqvist Robotics"  # "It" -> the only organisation of the previous sentence
    assert text[employs.span[0] : employs.span[1]] == "It employs robotics engineers."
    for triple in triples:
        assert triple.doc_id == "doc-7" and triple.backend == "spacy"
        assert re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", triple.relation)
        assert triple.tail in text[triple.span[0] : triple.span[1]]


def test_confidence_is_lower_without_named_entities(extractor):
    triples = extractor.extract(
        "doc", "Mara Voss works for Lindqvist Robotics. The city library lends rare books to local schools."
    )
    by_relation = {t.relation: t.confidence for t in triples}
    assert by_relation["employer"] == 1.0
    assert by_relation["lend_to"] < by_relation["employer"]


def test_extract_many_matches_extract_and_reports_progress(extractor):
    items = [
        ("a", "Mara Voss works for Lindqvist Robotics."),
        ("b", ""),
        ("c", "Eastmere lies on the Tamsin River."),
    ]
    calls: list[tuple[int, int]] = []
    many = extractor.extract_many(items, progress=lambda done, total: calls.append((done, total)))
    one_by_one = [t for doc_id, text in items for t in extractor.extract(doc_id, text)]
    assert many == one_by_one
    assert calls == [(1, 3), (2, 3), (3, 3)]


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


def test_sample_corpus_yields_the_planted_person_org_place_chain(extractor):
    corpus = load_sample_corpus()
    triples = extract_corpus(corpus, extractor)
    found = {t.key for t in triples}
    works = triple_key("Mara Voss", "employer", "Lindqvist Robotics")
    located = triple_key("Lindqvist Robotics", "located_in", "Harrow Vale")
    lives = triple_key("Mara Voss", "residence", "Harrow Vale")
    assert {works, located, lives} <= found
    docs_of = {key: {t.doc_id for t in triples if t.key == key} for key in (works, located, lives)}
    # Figure 1: the private fact is stated in one document and inferable from two others.
    assert docs_of[lives].isdisjoint(docs_of[works] | docs_of[located])
    # Without the private triple, the public ones still connect the person to the place.
    public = components_of(t.key for t in triples if t.key != lives)
    assert public.connected("mara voss", "harrow vale")
    query_ids = corpus.query_ids()
    assert any(t.doc_id in query_ids for t in triples)

"""`SpacyRuleExtractor` (spacy_rules/extractor.py): extract_many, the sample corpus, title abbreviations.

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.documents import load_sample_corpus
from core.eraser4rag.graph import components_of
from core.extract import extract_corpus
from core.types import triple_key
from tests.extract_helpers import keys, nodes


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


def test_a_title_abbreviation_does_not_end_the_sentence(extractor):
    found = keys(
        extractor,
        "Dundas was the son of the Hon. Charles Dundas, Member of Parliament for Malton, younger son "
        "of Thomas Dundas, 1st Baron Dundas. His mother was Lady Caroline, daughter of Aubrey "
        "Beauclerk, 5th Duke of St Albans.",
        title="Frederick Dundas",
    )
    assert triple_key("Frederick Dundas", "son_of", "Charles Dundas") in found
    assert triple_key("Charles Dundas", "son_of", "Thomas Dundas") in found
    assert triple_key("Frederick Dundas", "mother", "Lady Caroline") in found  # "His" of the subject
    assert not any("hon" in node.split() for node in nodes(found))

"""One chunk's rules (spacy_rules/chunk_rules.py): entity cuts at the title name, spans, confidence.

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

import re

from core.types import triple_key
from tests.extract_helpers import keys


def test_the_title_persons_surname_after_a_place_is_no_place(extractor):
    found = keys(
        extractor,
        "Born in Montreal, McKay studied the piano with Lubka Kolessa in his native city as a boy.",
        title="John McKay (pianist)",
    )
    assert triple_key("John McKay", "place_of_birth", "Montreal") in found
    assert not any(relation == "located_in" for _, relation, _ in found)


def test_the_title_persons_name_after_a_comma_is_cut_from_a_place(extractor):
    found = keys(
        extractor,
        "Born in Mo i Rana, Lahlum grew up in Rødøy, a small community that he did not find enjoyable.",
        title="Hans Olav Lahlum",
    )
    assert triple_key("Hans Olav Lahlum", "place_of_birth", "Mo i Rana") in found
    assert not any("lahlum" in tail or head.startswith("mo i rana") for head, _, tail in found)


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

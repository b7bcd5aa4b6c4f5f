"""Chunks (spacy_rules/chunking.py): list entries and long documents.

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.extract.spacy_rules import split_into_chunks
from core.types import triple_key
from tests.extract_helpers import keys


def test_list_entries_each_get_their_own_facts(extractor):
    found = keys(
        extractor,
        "Bernard Corser, (1882–1967) Australian politician ; Edward Corser, (1852–1928) "
        "Australian politician ; "
        "Frederick Corser, (1849–1924) American architect ; Rodger Corser, (born 1973) Australian actor",
    )
    assert {
        triple_key("Frederick Corser", "date_of_birth", "1849"),
        triple_key("Frederick Corser", "date_of_death", "1924"),
        triple_key("Frederick Corser", "country_of_citizenship", "American"),
        triple_key("Frederick Corser", "occupation", "architect"),
        triple_key("Rodger Corser", "date_of_birth", "1973"),
        triple_key("Rodger Corser", "occupation", "actor"),
    } <= found
    assert triple_key("Edward Corser", "occupation", "architect") not in found


def test_long_documents_are_chunked_with_exact_spans_and_progress(extractor):
    paragraph = (
        "Marco Amenta (Palermo, 11 August 1970) is an Italian director, producer, and photojournalist. "
        "Tim McKay graduated from Humboldt State University.\n"
    )
    text = paragraph * 400  # ~60 KB
    assert len(split_into_chunks(text)) > 1
    calls: list[tuple[int, int]] = []
    triples = extractor.extract_many(
        [("long", text)], progress=lambda done, total: calls.append((done, total))
    )
    assert len(calls) > 1 and calls[-1][0] == calls[-1][1]
    assert [done for done, _ in calls] == list(range(1, len(calls) + 1))
    for triple in triples:
        assert triple.tail in text[triple.span[0] : triple.span[1]]
    per_paragraph = {t.key for t in triples}
    assert triple_key("Marco Amenta", "place_of_birth", "Palermo") in per_paragraph
    assert triple_key("Tim McKay", "educated_at", "Humboldt State University") in per_paragraph

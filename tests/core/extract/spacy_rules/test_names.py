"""Names (spacy_rules/names.py): birth names, titles before a name, relatives.

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.extract.vocabulary import title_relation
from core.types import triple_key
from tests.extract_helpers import keys


def test_a_relative_named_after_was_with_descriptive_words(extractor):
    found = keys(
        extractor,
        "Christopher Rawson is an American writer. His biological father was noted stage and film actor "
        "Richard Hart.",
        title="Christopher Rawson",
    )
    assert triple_key("Christopher Rawson", "father", "Richard Hart") in found
    assert triple_key("Richard Hart", "occupation", "actor") in found


def test_a_sentence_describing_a_relative_does_not_name_an_unnamed_one(extractor):
    found = keys(extractor, "Mara Voss is a nurse. Her mother was a teacher in Berlin.", title="Mara Voss")
    assert not any(relation == "mother" for _, relation, _ in found)


def test_titles_before_names_give_positions_and_ranks(extractor):
    found = keys(
        extractor,
        "James M. Geraghty was an Irish American politician. In 1933, he was appointed to the Washington "
        "State Supreme Court by Governor Clarence D. Martin.",
        title="James M. Geraghty",
    )
    assert triple_key("Clarence D. Martin", "position_held", "Governor") in found
    found = keys(
        extractor,
        "Władysław Raginis (June 27, 1908 – September 10, 1939) was a Polish military commander. Wizna is "
        "referred to as the Polish Thermopylae and Captain Raginis as a modern Leonidas.",
        title="Władysław Raginis",
    )
    assert triple_key("Władysław Raginis", "military_rank", "Captain") in found
    assert title_relation("sir") is None and title_relation("father") is None  # honorific, kin


def test_a_birth_name_after_nee_stands_for_the_person(extractor):
    found = keys(
        extractor,
        'Sarah Hutchings "née" Reneer (born September 27, 1984) is an American composer of contemporary '
        "opera, art song, and choral works.",
        title="Sarah Hutchings",
    )
    person = "Sarah Hutchings"
    assert {
        triple_key(person, "birth_name", "Reneer"),
        triple_key(person, "date_of_birth", "September 27, 1984"),
        triple_key(person, "occupation", "composer"),
    } <= found
    assert not any(head == "reneer" for head, _, _ in found)


def test_a_multiword_rank_before_a_name(extractor):
    found = keys(
        extractor,
        "He served in the military operation Komando Siaga, led by Air Force Vice Admiral Omar Dhani, during "
        "the confrontation.",
        title="Usman Haji Muhammad Ali",
    )
    assert any(head == "omar dhani" and tail.endswith("vice admiral") for head, _, tail in found)


def test_an_unnamed_relative_gets_no_triple_and_a_party_is_no_employer(extractor):
    mrie = keys(
        extractor, "Her father is a high official in the Syrian Air Force Intelligence.", title="Loubna Mrie"
    )
    assert not any(relation == "father" for _, relation, _ in mrie)  # the father is not named
    eidsmo = keys(
        extractor,
        "Arne Eidsmo (4 April 1941 – 16 October 2011) was a Norwegian politician for the Conservative Party.",
        title="Arne Eidsmo",
    )
    assert triple_key("Arne Eidsmo", "member_of_political_party", "Conservative Party") in eidsmo
    assert not any(relation == "employer" for _, relation, _ in eidsmo)

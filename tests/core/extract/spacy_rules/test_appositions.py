"""Appositions and possessives (spacy_rules/appositions.py).

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.types import triple_key
from tests.extract_helpers import keys, nodes


def test_a_pronoun_possessed_noun_is_the_owners_unless_known_for(extractor):
    found = keys(
        extractor,
        "Wheatley was commissioned as a 2nd Lieutenant into the Royal Field Artillery during the First "
        "World War, receiving his basic training at Biscot Camp in Luton.",
        title="Dennis Wheatley",
    )
    assert "basic training" not in nodes(found)
    found = keys(
        extractor, "Rinaldo Carnielo (1853 - 1910) was an Italian sculptor known for his macabre sensibility."
    )
    assert triple_key("Rinaldo Carnielo", "known_for", "macabre sensibility") in found


def test_a_place_is_nobodys_son_and_his_debut_is_no_node(extractor):
    found = keys(
        extractor,
        "Masekela was born in Los Angeles, the son of the South African jazz musician Hugh Masekela.",
        title="Selema Masekela",
    )
    assert triple_key("Selema Masekela", "place_of_birth", "Los Angeles") in found
    assert not any(head == "los angeles" for head, _, _ in found)
    found = keys(
        extractor,
        "Christopher McKay is an American filmmaker. He made his feature directorial debut with "
        '"The Lego Batman Movie" (2017).',
        title="Chris McKay",
    )
    assert not any("debut" in node for node in nodes(found))


def test_the_son_of_x_after_a_birthplace_is_the_subjects(extractor):
    found = keys(
        extractor,
        "Masekela was born in Los Angeles, the son of the South African jazz musician Hugh Masekela.",
        title="Selema Masekela",
    )
    assert triple_key("Selema Masekela", "son_of", "Hugh Masekela") in found
    assert triple_key("Hugh Masekela", "occupation", "jazz musician") in found
    assert not any(head == "los angeles" for head, _, _ in found)


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


def test_a_kinship_noun_with_a_named_apposition_describes_the_name(extractor):
    found = keys(
        extractor,
        "Kate Mulvany's father, Danny, was a Vietnam Veteran. Her mother, Glenys, is a schoolteacher.",
        title="Kate Mulvany",
    )
    assert triple_key("Kate Mulvany", "mother", "Glenys") in found
    assert triple_key("Glenys", "occupation", "schoolteacher") in found
    assert triple_key("Danny", "be", "Vietnam Veteran") in found
    assert triple_key("Kate Mulvany", "mother", "schoolteacher") not in found


def test_a_possessed_work_is_by_its_owner(extractor):
    found = keys(
        extractor,
        "In 2014, he debuted in Sanjeev Sivan's Malayalam movie, Endless Summer.",
        title="Adil Ibrahim",
    )
    assert triple_key("Endless Summer", "movie_by", "Sanjeev Sivan") in found
    assert triple_key("Sanjeev Sivan", "movie", "Endless Summer") not in found


def test_possession(extractor):
    found = keys(
        extractor,
        "Valgerður had ten siblings and she was the youngest of them all.",
        title="Valgerður Hafstað",
    )
    assert triple_key("Valgerður Hafstað", "have", "ten siblings") in found

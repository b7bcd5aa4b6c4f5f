"""Round-5 rules (issue 6), each on real sentences of the PopQA dev passages (Wikipedia,
CC BY-SA; see tests/data/EXTRACTION_GOLD.md): named degrees and a degree's field apart from
it (core/extract/degrees.py), and two place refinements the tagger's labels or a list check hid."""

from __future__ import annotations

import pytest

from core.extract.spacy_rules import SpacyRuleExtractor
from core.types import triple_key
from tests.extract_helpers import keys


@pytest.fixture(scope="module")
def extractor() -> SpacyRuleExtractor:
    return SpacyRuleExtractor()


def test_a_named_degree_is_the_degree_and_its_field_the_major(extractor):
    found = keys(
        extractor,
        "Matthew Stuart Dominick was born on December 7, 1981 in Wheat Ridge, Colorado. "
        "In 2005, he received a Bachelor of Science in electrical engineering at the University of San "
        "Diego with minors in physics and mathematics.",
        title="Matthew Dominick",
    )
    person = "Matthew Stuart Dominick"
    assert {
        triple_key(person, "academic_degree", "Bachelor of Science"),
        triple_key(person, "academic_major", "electrical engineering"),
        triple_key(person, "educated_at", "University of San Diego"),
    } <= found
    assert triple_key(person, "receive", "Bachelor") not in found


def test_a_lower_case_named_degree_before_the_word_degree(extractor):
    found = keys(
        extractor,
        "Peter William Mullin was born in South Pasadena, California. He graduated with a bachelor of arts "
        "degree in Economics from the University of California.",
        title="Peter W. Mullin",
    )
    person = "Peter William Mullin"
    assert {
        triple_key(person, "academic_degree", "bachelor of arts"),
        triple_key(person, "academic_major", "Economics"),
        triple_key(person, "educated_at", "University of California"),
    } <= found


def test_coordinated_named_degrees_each_count(extractor):
    found = keys(
        extractor,
        "He obtained a Master of Arts in English and a Bachelor of Laws in 1899.",
        title="Muhammad Ali",
    )
    assert {
        triple_key("Muhammad Ali", "academic_degree", "Master of Arts"),
        triple_key("Muhammad Ali", "academic_degree", "Bachelor of Laws"),
    } <= found


def test_a_degree_with_a_kind_is_named_without_its_field_and_without_the_owner(extractor):
    found = keys(
        extractor,
        "Bruce Hardy McLain earned a bachelor's degree in economics and public policy from Duke University, "
        "followed by an MBA in finance and marketing from UCLA.",
        title="Bruce Hardy McLain",
    )
    person = "Bruce Hardy McLain"
    assert {
        triple_key(person, "academic_degree", "bachelor's degree"),
        triple_key(person, "academic_degree", "MBA"),
        triple_key(person, "academic_major", "public policy"),
        triple_key(person, "academic_major", "marketing"),
    } <= found
    found = keys(
        extractor,
        "He studied at the University at Buffalo from 1948–1953, where he got his bachelor's degree "
        "in history.",
        title="Allan D'Arcangelo",
    )
    assert triple_key("Allan D'Arcangelo", "academic_degree", "bachelor's degree") in found


def test_a_vocational_award_and_a_bare_degree_keep_their_field(extractor):
    found = keys(
        extractor,
        "Sakala further attended college at Evelyn Hone College from 1999 to 2001 where he studied Diploma "
        "in Journalism and Public Relations.",
        title="Henry Joe Sakala",
    )
    assert (
        triple_key("Henry Joe Sakala", "academic_degree", "Diploma in Journalism and Public Relations")
        in found
    )
    found = keys(extractor, "Mara Voss received a degree in physics in 1990.", title="Mara Voss")
    assert triple_key("Mara Voss", "academic_degree", "degree in physics") in found


def test_where_a_degree_in_a_field_came_from_is_still_the_school(extractor):
    found = keys(
        extractor,
        "Giora Bernstein was born in Vienna in 1933. "
        "In 1955, he went to the United States, where he studied violin with Edouard Dethier at the "
        "Juilliard School, and later received a Master of Fine Arts in composition from Brandeis University.",
        title="Giora Bernstein",
    )
    person = "Giora Bernstein"
    assert {
        triple_key(person, "academic_degree", "Master of Fine Arts"),
        triple_key(person, "academic_major", "composition"),
        triple_key(person, "educated_at", "Brandeis University"),
    } <= found


def test_master_of_a_non_faculty_is_no_degree(extractor):
    found = keys(extractor, "Mara Voss was appointed Master of the Horse in 1901.", title="Mara Voss")
    assert not any(relation == "academic_degree" for _, relation, _ in found)


def test_a_place_then_its_region_then_a_preposition_is_no_list(extractor):
    found = keys(
        extractor,
        "Matthew Stuart Dominick was born on December 7, 1981 in Wheat Ridge, Colorado to Donald and Rhonda "
        "Dominick.",
        title="Matthew Dominick",
    )
    assert triple_key("Wheat Ridge", "located_in", "Colorado") in found
    found = keys(
        extractor,
        "Mara Voss lived in Norwich, London and Cambridge.",
        title="Mara Voss",
    )
    assert triple_key("Norwich", "located_in", "London") not in found  # a list of places


def test_a_region_the_tagger_calls_an_organisation_refines_its_place(extractor):
    found = keys(
        extractor,
        "Usman Haji Muhammad Ali was born in Jatisobo, Banyumas, on 18 March 1943.",
        title="Usman Haji Muhammad Ali",
    )
    assert triple_key("Jatisobo", "located_in", "Banyumas") in found
    found = keys(
        extractor,
        "Sakala attended school in Kitwe, Rokana Primary School.",
        title="Henry Joe Sakala",
    )
    assert not any(relation == "located_in" for _, relation, _ in found)  # a school is no region


def test_a_named_degree_before_the_word_degree_is_named_alone(extractor):
    found = keys(
        extractor,
        "Barnes was born in Cleveland, Ohio. He earned a Master of Science degree in business management "
        "from Weatherhead School of Management at Case Western Reserve University.",
        title="John E. Barnes Jr.",
    )
    person = "John E. Barnes Jr."
    assert {
        triple_key(person, "academic_degree", "Master of Science"),
        triple_key(person, "academic_major", "business management"),
    } <= found


def test_a_degree_the_tagger_calls_a_name_still_says_where_it_came_from(extractor):
    found = keys(
        extractor,
        "Steinunn Þóra has a BA in Anthropology and an MA in Disability Studies, both from the University "
        "of Iceland.",
        title="Steinunn Þóra Árnadóttir",
    )
    person = "Steinunn Þóra Árnadóttir"
    assert {
        triple_key(person, "academic_degree", "BA"),
        triple_key(person, "academic_degree", "MA"),
        triple_key(person, "educated_at", "University of Iceland"),
    } <= found
    found = keys(extractor, "Mara Voss holds a PhD from John Smith.", title="Mara Voss")
    assert triple_key("Mara Voss", "educated_at", "John Smith") not in found  # a person is no school


def test_the_words_of_a_degree_running_into_a_noun_are_no_degree(extractor):
    found = keys(extractor, "Mara Voss is a master of science fiction.", title="Mara Voss")
    assert not any(relation == "academic_degree" for _, relation, _ in found)

"""Places (spacy_rules/places.py): refinements, institution parts, lists of places.

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.types import triple_key
from tests.extract_helpers import keys, nodes


def test_a_second_in_place_right_after_the_first_locates_it(extractor):
    found = keys(
        extractor,
        "On 1 June 1930, Valgerður was born in Vík in the South Constituency.",
        title="Valgerður Hafstað",
    )
    assert triple_key("Valgerður Hafstað", "place_of_birth", "Vík") in found
    assert triple_key("Vík", "located_in", "South Constituency") in found
    assert triple_key("Valgerður Hafstað", "place_of_birth", "South Constituency") not in found


def test_a_university_and_its_units_are_parts(extractor):
    found = keys(
        extractor,
        "Michael James Hutt (born 11 October 1957) is Professor of Nepali and Himalayan Studies at the "
        "School of Oriental and African Studies (SOAS), University of London.",
        title="Michael Hutt",
    )
    assert triple_key("School of Oriental and African Studies", "part_of", "University of London") in found
    found = keys(
        extractor,
        "Ole Humlum (born 21 July 1949) is a Danish professor emeritus of physical geography at the "
        "University of Oslo, Department of Geosciences.",
        title="Ole Humlum",
    )
    assert triple_key("Department of Geosciences", "part_of", "University of Oslo") in found
    assert triple_key("Ole Humlum", "employer", "University of Oslo") in found


def test_honours_after_a_name_are_no_places(extractor):
    found = keys(
        extractor,
        "Major General James Dundas, V.C., C.B. was a British Army officer.",
        title="James Dundas",
    )
    assert not any(relation == "located_in" for _, relation, _ in found)


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


def test_places_refine_each_other_outwards(extractor):
    aati = keys(
        extractor,
        "Adil Abdel Aati was born in the city of Atbara in River Nile State, in the Republic of Sudan "
        "on 04/02/1966.",
        title="Adil Abdel Aati",
    )
    assert {
        triple_key("Adil Abdel Aati", "place_of_birth", "Atbara"),
        triple_key("Atbara", "located_in", "River Nile State"),
        triple_key("River Nile State", "located_in", "Republic of Sudan"),
    } <= aati
    assert not any(r == "place_of_birth" and t != "atbara" for _, r, t in aati)
    laake = keys(
        extractor,
        "Laake resided at the farm Stalsberg in Skedsmo from 1908 to his death. Laake testified "
        "against Vidkun Quisling at the latter's post-war trial.",
        title="Kristian Laake",
    )
    assert triple_key("Stalsberg", "located_in", "Skedsmo") in laake
    assert triple_key("Kristian Laake", "testify_against", "Vidkun Quisling") in laake
    assert "post-war trial" not in nodes(laake)  # "the latter's trial" points back


def test_a_comma_chain_of_places_is_one_birthplace(extractor):
    found = keys(
        extractor,
        "V. J. James was born in Changanassery, Kottayam, Kerala, India.",
        title="V. J. James",
    )
    births = {tail for _, relation, tail in found if relation == "place_of_birth"}
    assert births == {"changanassery"}


def test_places_in_a_list_do_not_locate_each_other(extractor):
    found = keys(
        extractor,
        "He visited Venice, Rome, Magliano Capo di Sabina, and Aquila during the years 1585 to 1591 as well.",
        title="Rinaldo del Mel",
    )
    assert not any(relation == "located_in" for _, relation, _ in found)
    bath = keys(
        extractor,
        "In 1978 he set up his own architecture practice in Bath, Somerset, with fellow architect "
        "Peter Clegg.",
        title="Richard Feilden",
    )
    assert triple_key("Bath", "located_in", "Somerset") in bath

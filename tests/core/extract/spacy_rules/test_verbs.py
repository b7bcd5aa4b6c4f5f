"""Relations by verb (spacy_rules/verbs.py): objects, prepositions, passives, copulas, negation.

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.extract.vocabulary import canonical_relation
from core.types import triple_key
from tests.extract_helpers import keys, nodes


def test_a_title_of_an_organisation_is_no_bare_position(extractor):
    found = keys(
        extractor,
        "George Ernest Barnett (February 19, 1873 – June 17, 1938) was an American economist. In 1932, "
        "he served as president of the American Economic Association.",
        title="George E. Barnett",
    )
    assert triple_key("George Ernest Barnett", "president_of", "American Economic Association") in found
    assert triple_key("George Ernest Barnett", "position_held", "president") not in found


def test_between_two_years_is_a_start_and_an_end(extractor):
    found = keys(
        extractor,
        "Alan Wheatley (19 April 1907 – 30 August 1991) was an English actor. He was a well known stage "
        "actor in the 1930s, 1940s and 1950s, appeared in forty films between 1931 and 1965.",
        title="Alan Wheatley",
    )
    assert triple_key("Alan Wheatley", "appear_from", "1931") in found
    assert triple_key("Alan Wheatley", "appear_until", "1965") in found
    assert not any(" and " in tail for _, _, tail in found if tail[:1].isdigit())


def test_died_aged_gives_the_place_of_death(extractor):
    found = keys(
        extractor,
        "Ellis received his professional training from his father. In poor health, he then worked in the "
        "band of the Queen's Theatre, Liverpool, for a change of air. His health, however, did not "
        "improve, and he died aged 35, at St. Thomas's Hospital, 20 October 1878.",
        title="Edwin Ellis (musician)",
    )
    assert triple_key("Edwin Ellis", "place_of_death", "St. Thomas's Hospital") in found
    assert triple_key("Queen's Theatre", "located_in", "Liverpool") in found
    assert not {"change", "hospital", "theatre", "professional training"} & nodes(found)


def test_what_someone_wanted_to_be_is_no_fact(extractor):
    found = keys(
        extractor,
        "Rose Combe, born Marie-Rosalie Bugne (14 September 1883 – 24 September 1932), was a French "
        "railway worker and writer. She wanted to be a teacher but instead worked for the railway "
        "between Ambert and Thiers as a level crossing operator.",
        title="Rose Combe",
    )
    assert triple_key("Rose Combe", "occupation", "writer") in found
    assert triple_key("Rose Combe", "occupation", "teacher") not in found


def test_born_and_raised_share_the_place_and_a_named_district_is_the_place(extractor):
    found = keys(
        extractor,
        "Espinal was born and raised in the Santa Rita district of Yoro.",
        title="Herlyn Espinal",
    )
    person = "Herlyn Espinal"
    assert {
        triple_key(person, "place_of_birth", "Santa Rita"),
        triple_key(person, "raised_in", "Santa Rita"),
        triple_key("Santa Rita", "located_in", "Yoro"),
    } <= found
    assert triple_key(person, "place_of_birth", "Yoro") not in found  # the district's region, not the place


def test_a_verb_with_an_object_of_its_own_borrows_no_place(extractor):
    found = keys(extractor, "Mara Voss wrote a novel and lived in Berlin.", title="Mara Voss")
    assert triple_key("Mara Voss", "residence", "Berlin") in found
    assert not any(relation.startswith("write_in") for _, relation, _ in found)


def test_joining_or_being_admitted_to_a_school_is_educated_at():
    assert canonical_relation("join", "org", "the Ecole Polytechnique") == "educated_at"
    assert canonical_relation("admitted_to", "org", "the School of Mines") == "educated_at"
    assert canonical_relation("join", "org", "Square Enix") == "join"  # a company is no school


def test_competing_in_a_named_sport_is_the_sport():
    assert canonical_relation("compete_in", "common", "alpine skiing") == "sport"
    assert canonical_relation("compete_in", "org", "1998 Winter Paralympics") == "compete_in"


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


def test_condition_and_cause_of_death(extractor):
    eike = keys(
        extractor,
        "Eike suffered from a heart attack after a match against Stavanger on 27 "
        "September 2009, but he made his "
        "comeback in the 2011 Tippeligaen.",
        title="Sten Ove Eike",
    )
    assert triple_key("Sten Ove Eike", "medical_condition", "heart attack") in eike
    wallach = keys(extractor, "Wallach died of lung cancer in New York City.", title="John Wallach")
    assert triple_key("John Wallach", "cause_of_death", "lung cancer") in wallach
    assert triple_key("John Wallach", "place_of_death", "New York City") in wallach


def test_negated_statements_give_no_positive_triple(extractor):
    finlay = keys(extractor, "A Liberal, he did not run in the 1908 elections.", title="John Finlay")
    assert not any(r == "run_in" for _, r, _ in finlay)
    denegri = keys(
        extractor,
        "Denegri never married and was very reserved regarding his private life.",
        title="Marco Aurelio Denegri",
    )
    assert not any(r in {"spouse", "marry"} for _, r, _ in denegri)

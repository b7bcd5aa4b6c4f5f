"""Coordinated nouns and shared modifiers (spacy_rules/coordination.py, tree.py).

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.types import triple_key
from tests.extract_helpers import keys, nodes


def test_hyphenated_titles_are_read_whole_and_a_coordination_shares_its_of(extractor):
    found = keys(
        extractor,
        "Corser was a co-founder and president of the Maryborough Chamber of Commerce, a long-serving "
        "member and nine-year chairman of the Burrum Divisional Board.",
        title="Edward Corser",
    )
    assert triple_key("Edward Corser", "co_founder_of", "Maryborough Chamber of Commerce") in found
    assert triple_key("Edward Corser", "president_of", "Maryborough Chamber of Commerce") in found
    assert not any(tail in {"co", "vice"} for _, _, tail in found)


def test_an_of_is_shared_forward_only(extractor):
    found = keys(
        extractor,
        "Rex Barnett (born October 22, 1938) is an American politician and former member of the "
        "Missouri State Highway Patrol.",
        title="Rex Barnett",
    )
    assert triple_key("Rex Barnett", "member_of", "Missouri State Highway Patrol") in found
    assert triple_key("Rex Barnett", "occupation", "politician") in found
    assert not any(relation == "politician_of" for _, relation, _ in found)


def test_a_domain_noun_shares_the_person_noun_after_it(extractor):
    found = keys(
        extractor,
        "David Rintoul (born David Wilson; 29 November 1948) is a Scottish stage and television actor.",
        title="David Rintoul",
    )
    assert triple_key("David Rintoul", "occupation", "stage actor") in found
    assert triple_key("David Rintoul", "occupation", "television actor") in found
    found = keys(
        extractor,
        "Edwin Ellis (Ed) Tozer (born 1943) is a British retired management and IT consultant and SF author.",
        title="Edwin E. Tozer",
    )
    occupations = {tail for _, relation, tail in found if relation == "occupation"}
    assert {"management consultant", "it consultant"} <= occupations
    assert "management" not in occupations


def test_a_first_conjunct_hung_as_a_modifier_is_a_description_of_its_own(extractor):
    found = keys(
        extractor,
        "Olav Eikeland (born 10 October 1955) is a Norwegian philosopher and working life researcher.",
        title="Olav Eikeland",
    )
    occupations = {tail for _, relation, tail in found if relation == "occupation"}
    assert occupations == {"philosopher", "working life researcher"}
    assert triple_key("Olav Eikeland", "country_of_citizenship", "Norwegian") in found


def test_a_conjunct_that_names_no_person_is_no_occupation(extractor):
    found = keys(
        extractor,
        "Søren Krarup is a Danish pastor. He is a noted critic of Cultural Radicalism (Danish cultural "
        "relativist movement), Marxism and official Danish social policy, immigration and refugee policy.",
        title="Søren Krarup",
    )
    occupations = {tail for _, relation, tail in found if relation == "occupation"}
    assert {"pastor", "critic"} <= occupations
    assert not occupations & {"social policy", "immigration", "refugee policy"}
    assert not any(relation.endswith("policy_of") for _, relation, _ in found)


def test_a_film_television_and_theatre_actor_stays_a_person(extractor):
    found = keys(
        extractor,
        "Richard Rankin (born Richard Harris on 4 January 1983) is a Scottish film, television and theatre "
        "actor.",
        title="Richard Rankin",
    )
    assert triple_key("Richard Rankin", "country_of_citizenship", "Scottish") in found
    assert not any(relation in {"instance_of", "country_of_origin"} for _, relation, _ in found)


def test_a_conjunct_inside_a_name_joins_only_a_second_name_of_its_kind(extractor):
    found = keys(
        extractor,
        "John Norman McKay is a Canadian politician. As of April, 2019, he serves as Chair of the Standing "
        "Committee on Public Safety and National Security.",
        title="John McKay (politician)",
    )
    assert any(head == "john norman mckay" and "committee" in tail for head, _, tail in found)
    assert not any(tail == "national security" for _, _, tail in found)


def test_a_description_written_as_a_list_gives_each_occupation(extractor):
    found = keys(
        extractor,
        "Gertrude Lawrence (4 July 1898 – 6 September 1952) was an English actress, singer, dancer and "
        "musical comedy performer known for her stage appearances in the West End of London and on "
        "Broadway in New York.",
        title="Gertrude Lawrence",
    )
    occupations = {tail for _, relation, tail in found if relation == "occupation"}
    assert occupations == {"actress", "singer", "dancer", "musical comedy performer"}
    assert "stage appearances" not in nodes(found)  # her own appearances: no node of their own

"""Descriptions split into facts (spacy_rules/descriptions.py): occupations, citizenship, parties,
employers, works.

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.extract.works import describe_work
from core.types import triple_key
from tests.extract_helpers import keys, nodes


def test_x_born_is_a_birthplace_not_part_of_the_occupation(extractor):
    found = keys(
        extractor,
        "Kevin Horlock (born 1 November 1972) is an English-born Northern Irish former footballer.",
        title="Kevin Horlock",
    )
    assert triple_key("Kevin Horlock", "place_of_birth", "English") in found
    assert not any("born" in tail for _, relation, tail in found if relation == "occupation")


def test_a_nationality_that_names_a_sport_is_no_citizenship(extractor):
    found = keys(
        extractor,
        "George David Challis (9 February 1891 – 15 July 1916) was an Australian rules footballer who "
        "played for Carlton in the Victorian Football League (VFL) during the early 1910s.",
        title="George Challis (Australian rules footballer)",
    )
    assert triple_key("George David Challis", "occupation", "Australian rules footballer") in found
    assert not any(relation == "country_of_citizenship" for _, relation, _ in found)


def test_a_works_description_gives_year_genre_country_and_kind(extractor):
    found = keys(
        extractor,
        "The Cold Deck is a 1917 American silent Western film directed by and starring William S. Hart.",
        title="The Cold Deck (film)",
    )
    work = "The Cold Deck"
    assert {
        triple_key(work, "publication_date", "1917"),
        triple_key(work, "genre", "Western"),
        triple_key(work, "country_of_origin", "American"),
        triple_key(work, "instance_of", "silent film"),
    } <= found
    assert not any(relation in {"occupation", "country_of_citizenship"} for _, relation, _ in found)


def test_a_works_title_names_it_whole_and_multiword_genres_stay_one(extractor):
    found = keys(
        extractor,
        "Orion's Belt is a 1985 Norwegian thriller film directed by Ola Solum, starring Helge Jordal.",
        title="Orion's Belt (film)",
    )
    assert triple_key("Orion's Belt", "genre", "thriller") in found
    assert "belt" not in nodes(found)
    found = keys(
        extractor,
        "Virgin River is an American romantic drama streaming television series, produced by Reel World "
        "Management.",
        title="Virgin River (TV series)",
    )
    assert triple_key("Virgin River", "genre", "romantic drama") in found
    assert (
        triple_key("Virgin River", "instance_of", "television series") in found
    )  # "streaming": a participle


def test_a_fronted_description_describes_the_subject_after_it(extractor):
    found = keys(
        extractor,
        "Kazuyoshi Akaba is a Japanese politician. A member of the Komeito Party, he was elected to the "
        "House of Representatives for the first time in 1993.",
        title="Kazuyoshi Akaba",
    )
    assert triple_key("Kazuyoshi Akaba", "member_of_political_party", "Komeito Party") in found
    found = keys(
        extractor,
        "James M. Geraghty was an Irish American politician. An attorney by trade, he served as "
        "Spokane's city attorney from 1905 to 1907.",
        title="James M. Geraghty",
    )
    assert triple_key("James M. Geraghty", "occupation", "attorney") in found
    assert "trade" not in nodes(found)


def test_an_adverb_and_the_adjective_it_grades_are_no_part_of_an_occupation(extractor):
    found = keys(
        extractor,
        "A tactically versatile right-footed defender, Diakité is usually deployed as a centreback.",
        title="Modibo Diakité",
    )
    assert triple_key("Modibo Diakité", "occupation", "right-footed defender") in found


def test_a_sport_noun_before_a_position_is_no_occupation_and_a_player_plays_for_a_team(extractor):
    found = keys(
        extractor,
        "John McDaniel (born September 23, 1951 in Birmingham, Alabama) is a former American football wide "
        "receiver in the National Football League for the Cincinnati Bengals and the Washington Redskins.",
        title="John McDaniel",
    )
    person = "John McDaniel"
    assert triple_key(person, "occupation", "american football") not in found
    assert {
        triple_key(person, "member_of_sports_team", "Cincinnati Bengals"),
        triple_key(person, "member_of_sports_team", "Washington Redskins"),
    } <= found


def test_a_works_kind_leaves_out_praise_and_keeps_its_hyphens(extractor):
    found = keys(
        extractor,
        'His album "Romanza" is one of the best-selling albums of all time, while "Sacred Arias" is the '
        "biggest selling classical album by any solo artist in history.",
        title="Andrea Bocelli",
    )
    assert triple_key("Sacred Arias", "instance_of", "album") in found
    assert triple_key("Sacred Arias", "genre", "classical") in found
    described = describe_work(["a", "computer", "-", "animated", "comedy", "film"], 5, [True] + [False] * 5)
    assert described.genres == ((1, 5),)  # "computer-animated comedy", one genre


def test_a_hyphenated_first_word_stays_in_the_occupation(extractor):
    found = keys(
        extractor,
        "Mansur Ali Khan Ludhi (born 22 May 1972) is an Indian former first-class cricketer who played for "
        "Karnataka between the 1993/94 and the 2001/02 seasons.",
        title="Mansur Ali Khan (Karnataka cricketer)",
    )
    assert triple_key("Mansur Ali Khan Ludhi", "occupation", "first-class cricketer") in found


def test_staff_of_an_organisation_and_an_organisations_team(extractor):
    found = keys(
        extractor,
        "In 2001 Harris joined the staff of the Canadian Football League's BC Lions as a defensive "
        "assistant. He moved to the staff of the fledgling Ottawa Renegades in 2005, coaching there "
        "for a single season.",
        title="Richard Harris (American football)",
    )
    assert triple_key("BC Lions", "part_of", "Canadian Football League") in found
    assert triple_key("Richard Harris", "move_to_staff_of", "Ottawa Renegades") in found
    assert "single season" not in nodes(found)  # a duration, no date


def test_an_organisation_before_an_occupation_is_the_employer(extractor):
    found = keys(
        extractor,
        "Giora Weiss-Tzahor (27 October 1941 – 16 July 2012) was an Israeli military and Mossad officer.",
        title="Giora Tzahor",
    )
    assert triple_key("Giora Weiss-Tzahor", "employer", "Mossad") in found
    assert triple_key("Giora Weiss-Tzahor", "occupation", "officer") in found


def test_one_person_is_no_plural_description_and_a_nationality_is_no_object(extractor):
    found = keys(
        extractor,
        "Władysław Raginis (June 27, 1908 – September 10, 1939) was a Polish military commander during "
        "the Polish Defensive War of 1939 of a small force holding the Polish fortified defense positions "
        "against a vastly larger invasion during the Battle of Wizna.",
        title="Władysław Raginis",
    )
    occupations = {tail for _, relation, tail in found if relation == "occupation"}
    assert occupations == {"military commander"}
    assert not any(tail == "polish" and relation != "country_of_citizenship" for _, relation, tail in found)

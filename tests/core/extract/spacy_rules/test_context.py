"""The document context (spacy_rules/context.py): the title person and fuller names.

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.extract.spacy_rules import title_person
from core.types import triple_key
from tests.extract_helpers import keys


def test_a_title_naming_a_work_or_a_thing_is_no_person():
    assert title_person("The Cold Deck (film)", "The Cold Deck is a film.") is None
    assert title_person("Perfume (Japanese band)", "Perfume is a band.") is None
    assert title_person("Jim Brown (catcher)", "Brown was a catcher.") == "Jim Brown"


def test_a_title_with_accented_capitals_is_a_persons_name(extractor):
    assert (
        title_person("Antonio Álvarez Alonso", "Antonio Álvarez Alonso was a pianist.")
        == "Antonio Álvarez Alonso"
    )
    found = keys(
        extractor,
        "Antonio Álvarez Alonso (11 March 1867 - 22 June 1903) was a Spanish pianist and composer.",
        title="Antonio Álvarez Alonso",
    )
    assert triple_key("Antonio Álvarez Alonso", "occupation", "pianist") in found


def test_the_title_persons_own_name_is_not_a_relatives_longer_name(extractor):
    found = keys(
        extractor,
        "He was born in Ullensaker as a son of farmers Kristian Gulbrandsen Laake (1835–1875) and Karen "
        "Pedersen Taugland (1839–1903). His older brother Knut M. Laake, a cavalry officer, became a "
        "politician and activist, and Kristian Laake joined the Liberal Party as well.",
        title="Kristian Laake",
    )
    assert triple_key("Kristian Laake", "member_of_political_party", "Liberal Party") in found
    assert triple_key("Kristian Gulbrandsen Laake", "member_of_political_party", "Liberal Party") not in found


def test_a_passage_opening_with_he_is_about_its_title_person(extractor):
    found = keys(
        extractor,
        "He was born in Oslo, and grew up in Gamlebyen. He studied law, was a research assistant at the "
        "Norwegian Institute for Social Research from 1936 to 1940 and graduated from the University of Oslo "
        "with the cand.jur. degree in 1941.",
        title="Erik Sture Larre",
    )
    person = "Erik Sture Larre"
    assert {
        triple_key(person, "place_of_birth", "Oslo"),
        triple_key(person, "employer", "Norwegian Institute for Social Research"),
        triple_key(person, "educated_at", "University of Oslo"),
    } <= found
    assert (
        title_person("Perfume (Japanese band)", "He was born in Oslo.") is None
    )  # a thing's title stays one


def test_a_title_ending_in_an_organisation_word_is_no_persons_name() -> None:
    """The sample corpus's "Harrow Vale News" page said "Harrow Vale lies on the Tamsin River": the town
    became the newspaper, as if the title were a person the text named by part of the name."""
    from core.extract.spacy_rules import title_person

    text = "Harrow Vale lies on the Tamsin River. Mayor Ida Brandt opened a new library in Harrow Vale."
    assert title_person("Harrow Vale News", text) is None
    assert title_person("Eastmere University", "Eastmere University was founded in 1901.") is None
    assert title_person("Edwin Ellis (musician)", "Ellis played the cornet.") == "Edwin Ellis"
    assert title_person("Arthur Hall", "Hall played for Leeds.") == "Arthur Hall"


def test_the_newspaper_page_keeps_the_town_as_the_town(extractor) -> None:
    text = "Harrow Vale lies on the Tamsin River. Mayor Ida Brandt opened a new library in Harrow Vale."
    keys = {(t.head, t.relation, t.tail) for t in extractor.extract("news", text, title="Harrow Vale News")}
    assert ("Harrow Vale", "lie_on", "Tamsin River") in keys
    assert not [key for key in keys if "Harrow Vale News" in key]

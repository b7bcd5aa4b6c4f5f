"""Entity fixes before the rules (spacy_rules/retokenize.py): nicknames, possessive and joined names,
coordinated institutions.

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.types import triple_key
from tests.extract_helpers import keys, nodes


def test_a_quoted_nickname_stays_inside_the_name(extractor):
    found = keys(
        extractor,
        'Carl Rudolph "Fritz" Poock (February 20, 1877 – January 2, 1945) was an American artist '
        "born in Germany.",
        title="Fritz Poock",
    )
    person = 'Carl Rudolph "Fritz" Poock'
    assert {
        triple_key(person, "date_of_birth", "February 20, 1877"),
        triple_key(person, "occupation", "artist"),
        triple_key(person, "place_of_birth", "Germany"),
    } <= found
    assert all(head == triple_key(person, "x", "y")[0] for head, _, _ in found)  # no 'fritz" poock'


def test_a_nickname_does_not_take_the_honorifics_before_it(extractor):
    found = keys(
        extractor,
        "Espina came from a musically-inclined family who is also the prominent political family in "
        'Biliran, with her father, Congressman Dr. Rogelio "Roger" J. Espina, Representative of the '
        'Lone District of Biliran, described as a "good piano player and singer."',
        title="Gretchen Espina",
    )
    father = 'Rogelio "Roger" J. Espina'
    assert triple_key("Gretchen Espina", "father", father) in found
    assert not any("congressman" in node for node, _, _ in found)  # no part of a name
    assert triple_key(father, "position_held", "Congressman") in found  # a title before the name


def test_a_possessive_name_is_one_name(extractor):
    found = keys(
        extractor,
        "Corser was born at Maryborough in 1882 to Edward Corser and Mary Jane (née Stewart). He was "
        "educated at Maryborough Christian Brothers' School, Riverview College, Sydney, and returned to "
        "Queensland to study at Queensland Agricultural College, Gatton.",
        title="Bernard Corser",
    )
    assert triple_key("Bernard Corser", "educated_at", "Maryborough Christian Brothers' School") in found
    assert triple_key("Bernard Corser", "educated_at", "Riverview College") in found
    assert triple_key("Riverview College", "located_in", "Sydney") in found


def test_coordinated_institutions_split_and_an_objects_apposition_keeps_its_place(extractor):
    found = keys(
        extractor,
        "Thomke was a mechanic. Between 1961 and 1967, he studied natural sciences, mainly chemistry at "
        "the University of Bern and University of Lausanne.",
        title="Ernst Thomke",
    )
    person = "Ernst Thomke"
    assert {
        triple_key(person, "educated_at", "University of Bern"),
        triple_key(person, "educated_at", "University of Lausanne"),
    } <= found
    assert "university of bern and university of lausanne" not in nodes(found)


def test_a_name_joined_by_y_or_de_is_one_name(extractor):
    found = keys(
        extractor,
        "Domingo de Eyzaguirre y Arechavala (July 17, 1775 – April 22, 1854) was a Chilean politician and "
        "philanthropist.",
        title="Domingo Eyzaguirre",
    )
    person = "Domingo de Eyzaguirre y Arechavala"
    assert {
        triple_key(person, "date_of_birth", "July 17, 1775"),
        triple_key(person, "occupation", "politician"),
    } <= found

"""Academic degrees, majors and fields of work (spacy_rules/degrees_and_fields.py, core/extract/degrees.py).

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.extract.vocabulary import canonical_relation
from core.types import triple_key
from tests.extract_helpers import keys, nodes


def test_degrees_keep_their_field_and_names_run_through_of_adjective_and(extractor):
    found = keys(
        extractor,
        "Sakala attended Rokana Primary School in Kitwe from 1986 to 1992. "
        "He further attended college at Evelyn Hone College of Applied Arts and Commerce from 1999 to "
        "2001 where he studied Diploma in Journalism and Public Relations and also obtained a "
        "Certificate in Video Production and Editing.",
        title="Henry Joe Sakala",
    )
    degrees = {tail for _, relation, tail in found if relation == "academic_degree"}
    assert {
        "diploma in journalism and public relations",
        "certificate in video production and editing",
    } <= degrees
    found = keys(
        extractor,
        "Michael James Hutt (born 11 October 1957) is Professor of Nepali and Himalayan Studies at the "
        "School of Oriental and African Studies (SOAS), University of London.",
        title="Michael Hutt (academic and translator)",
    )
    assert "school of oriental and african studies" in nodes(found)
    assert not {"school of oriental", "nepali"} & nodes(found)


def test_fields_of_work_from_study_work_focus_and_publishing(extractor):
    found = keys(
        extractor,
        "Ole Humlum (born 21 July 1949) is a Danish professor emeritus of physical geography. His academic "
        "focus includes glacial and periglacial geomorphology and climatology.",
        title="Ole Humlum",
    )
    person = "Ole Humlum"
    assert {
        triple_key(person, "field_of_work", "glacial geomorphology"),
        triple_key(person, "field_of_work", "periglacial geomorphology"),
        triple_key(person, "field_of_work", "climatology"),
    } <= found
    found = keys(
        extractor,
        "Michael James Hutt (born 11 October 1957) is a British academic. He is engaged in the study of "
        "modern and contemporary Nepali literature. He has also published on Nepali politics.",
        title="Michael Hutt",
    )
    assert any(rel == "field_of_work" and tail == "nepali literature" for _, rel, tail in found)
    assert any(rel == "field_of_work" and tail == "nepali politics" for _, rel, tail in found)
    assert not any(rel == "publish_on" for _, rel, _ in found)  # stated once, as the field
    found = keys(
        extractor,
        "Edwin Ellis (Ed) Tozer (born 1943) is a British retired management and IT consultant and SF author, "
        "particularly known for his early work on business information systems in the 1970s and 1980s.",
        title="Edwin E. Tozer",
    )
    assert any(rel == "field_of_work" and tail == "business information systems" for _, rel, tail in found)


def test_an_academic_degrees_field_is_the_major_a_diplomas_is_not(extractor):
    found = keys(
        extractor,
        "Espina was born in Manila, Philippines. From 1976 to 1980, he studied at the Far Eastern University "
        "with a bachelor's degree on zoology.",
        title="Rogelio Espina",
    )
    assert triple_key("Rogelio Espina", "academic_major", "zoology") in found
    found = keys(
        extractor,
        "McColl was educated at Methodist College Belfast. McColl is a geography graduate of the University "
        "of Edinburgh.",
        title="Peter McColl",
    )
    assert triple_key("Peter McColl", "academic_major", "geography") in found
    found = keys(
        extractor,
        "Sakala attended Evelyn Hone College from 1999 to 2001 where he studied Diploma in Journalism and "
        "Public Relations.",
        title="Henry Joe Sakala",
    )
    assert not any(relation == "academic_major" for _, relation, _ in found)
    assert canonical_relation("hold_from", "org", "Harvard University") == "educated_at"


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


def test_degrees_keep_their_kind_and_their_field_apart_and_a_bare_degree_is_no_node(extractor):
    found = keys(
        extractor,
        "James Klutse Avedzi was born on 14 July 1964. He attended University of Liverpool and graduated "
        "with a master's degree in Finance and Accounting in 2016.",
        title="James Klutse Avedzi",
    )
    person = "James Klutse Avedzi"
    # round 5: the degree is named without its field, which is the academic_major, per conjunct
    assert {
        triple_key(person, "academic_degree", "master's degree"),
        triple_key(person, "academic_major", "Finance"),
        triple_key(person, "academic_major", "Accounting"),
    } <= found
    assert not any(tail == "finance and accounting" for _, _, tail in found)
    combes = keys(
        extractor,
        "By degree on 16 August 1860, Combes achieved the rank of Commander in France's Legion of "
        "Honour awards system.",
        title="Charles Combes",
    )
    assert "degree" not in nodes(combes)


def test_a_degree_keeps_its_field_but_not_its_year_and_numbers_are_no_predicates(extractor):
    mckay = keys(
        extractor,
        "He received a Bachelor of Arts degree in 1946 from the University of Toronto, a Master of Arts "
        "degree in 1947 from Yale University.",
        title="Alexander Gordon McKay",
    )
    assert not any("in 194" in tail for _, _, tail in mckay)
    harron = keys(extractor, 'Mary Harron\'s adaptation of "American Psycho" was released in 2000.')
    assert "adaptation" not in {head for head, _, _ in harron}  # Harron's, not a named thing
    bautista = keys(extractor, 'Jay Ann "Jayann" Bautista is 21 from Pampanga.')
    assert not any(ch.isdigit() for _, relation, _ in bautista for ch in relation)


def test_an_abbreviated_degree_is_a_degree_whatever_the_tagger_says(extractor):
    found = keys(
        extractor,
        "Gonner attended Merchant Taylors' School in London, before matriculating at Lincoln College, "
        "Oxford in 1880, graduating B.A. in 1884.",
        title="Edward Gonner",
    )
    assert triple_key("Edward Gonner", "academic_degree", "B.A") in found  # the tagger: "B.A." is a place

"""Round-4 rules (issue 6: recall on unseen passages), each on real sentences of the PopQA dev
passages (Wikipedia, CC BY-SA; see tests/data/EXTRACTION_GOLD.md). Each rule reaches a class of
facts that no earlier rule stated; docs/EXTRACTION.md lists the classes."""

from __future__ import annotations

import pytest

from core.extract.lifespans import parse_parenthetical
from core.extract.spacy_rules import SpacyRuleExtractor, title_person
from core.extract.vocabulary import canonical_relation, title_relation
from core.extract.works import describe_work
from core.types import triple_key
from tests.extract_helpers import keys, nodes


@pytest.fixture(scope="module")
def extractor() -> SpacyRuleExtractor:
    return SpacyRuleExtractor()


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


def test_joining_or_being_admitted_to_a_school_is_educated_at():
    assert canonical_relation("join", "org", "the Ecole Polytechnique") == "educated_at"
    assert canonical_relation("admitted_to", "org", "the School of Mines") == "educated_at"
    assert canonical_relation("join", "org", "Square Enix") == "join"  # a company is no school


def test_the_son_of_x_after_a_birthplace_is_the_subjects(extractor):
    found = keys(
        extractor,
        "Masekela was born in Los Angeles, the son of the South African jazz musician Hugh Masekela.",
        title="Selema Masekela",
    )
    assert triple_key("Selema Masekela", "son_of", "Hugh Masekela") in found
    assert triple_key("Hugh Masekela", "occupation", "jazz musician") in found
    assert not any(head == "los angeles" for head, _, _ in found)


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


def test_competing_in_a_named_sport_is_the_sport():
    assert canonical_relation("compete_in", "common", "alpine skiing") == "sport"
    assert canonical_relation("compete_in", "org", "1998 Winter Paralympics") == "compete_in"


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


def test_describe_work_splits_the_words():
    words = ["a", "1959", "American", "romantic", "comedy", "-", "drama", "film"]
    skipped = [True, False, True, False, False, False, False, False]
    described = describe_work(words, 7, skipped)
    assert described.year == 1
    assert [words[s:e] for s, e in described.genres] == [["romantic", "comedy", "-", "drama"]]
    assert described.kind == (7,)


def test_a_title_naming_a_work_or_a_thing_is_no_person():
    assert title_person("The Cold Deck (film)", "The Cold Deck is a film.") is None
    assert title_person("Perfume (Japanese band)", "Perfume is a band.") is None
    assert title_person("Jim Brown (catcher)", "Brown was a catcher.") == "Jim Brown"


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


def test_a_native_name_before_the_lifespan_is_passed_over(extractor):
    found = keys(
        extractor,
        "Georg Wilhelm Timm, also known as Vasily Fyodorovich Timm (Russian: Василий Фёдорович Тимм; 21 June "
        "1820, in Riga – 19 April 1895, in Berlin) was a Baltic-German painter, lithographer and ceramic "
        "designer.",
        title="Georg Wilhelm Timm",
    )
    person = "Georg Wilhelm Timm"  # the lifespan is the first name's, not the "also known as" one's
    assert {
        triple_key(person, "date_of_birth", "21 June 1820"),
        triple_key(person, "place_of_birth", "Riga"),
        triple_key(person, "date_of_death", "19 April 1895"),
        triple_key(person, "place_of_death", "Berlin"),
    } <= found
    assert any(relation == "native_name" for _, relation, _ in found)


def test_parse_parenthetical_skips_statements_without_a_date():
    text = "Russian: Иван Петров; born 5 May 1950"
    facts = parse_parenthetical(text)
    assert [(prop, value) for prop, value, _, _ in facts] == [("date_of_birth", "5 May 1950")]
    assert all(text[start:end] == value for _, value, start, end in facts)
    assert parse_parenthetical("born David Wilson; 29 November 1948")[0][0] == "place_of_birth"  # unchanged


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


def test_what_is_a_film_is_no_person_and_its_it_is_the_film(extractor):
    found = keys(
        extractor,
        "Five Branded Women is a 1960 Italian-American film directed by Martin Ritt (his only war film) and "
        "produced by Dino De Laurentiis. It features an international cast including Silvana Mangano, "
        "Barbara Bel Geddes, Jeanne Moreau and Vera Miles.",
        title="Five Branded Women",
    )
    work = "Five Branded Women"
    assert {
        triple_key(work, "country_of_origin", "Italian-American"),
        triple_key(work, "publication_date", "1960"),
        triple_key(work, "director", "Martin Ritt"),
        triple_key(work, "producer", "Dino De Laurentiis"),
    } <= found
    assert not any(head == "dino de laurentiis" for head, _, _ in found)  # "It" is the film
    assert not any(relation == "country_of_citizenship" for _, relation, _ in found)


def test_the_title_persons_surname_after_a_place_is_no_place(extractor):
    found = keys(
        extractor,
        "Born in Montreal, McKay studied the piano with Lubka Kolessa in his native city as a boy.",
        title="John McKay (pianist)",
    )
    assert triple_key("John McKay", "place_of_birth", "Montreal") in found
    assert not any(relation == "located_in" for _, relation, _ in found)


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


def test_honours_after_a_name_are_no_places(extractor):
    found = keys(
        extractor,
        "Major General James Dundas, V.C., C.B. was a British Army officer.",
        title="James Dundas",
    )
    assert not any(relation == "located_in" for _, relation, _ in found)


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


def test_a_gerund_after_before_or_after_takes_the_clauses_subject(extractor):
    found = keys(
        extractor,
        "Gonner was born on 5 March 1862 in Mayfair, London. He attended Merchant Taylors' School in London, "
        "before matriculating at Lincoln College, Oxford in 1880, graduating B.A. in 1884.",
        title="Edward Gonner",
    )
    assert triple_key("Edward Gonner", "educated_at", "Lincoln College") in found
    assert canonical_relation("complete_at", "org", "Imperial College London") == "educated_at"


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


def test_the_title_persons_name_after_a_comma_is_cut_from_a_place(extractor):
    found = keys(
        extractor,
        "Born in Mo i Rana, Lahlum grew up in Rødøy, a small community that he did not find enjoyable.",
        title="Hans Olav Lahlum",
    )
    assert triple_key("Hans Olav Lahlum", "place_of_birth", "Mo i Rana") in found
    assert not any("lahlum" in tail or head.startswith("mo i rana") for head, _, tail in found)


def test_a_hyphenated_first_word_stays_in_the_occupation(extractor):
    found = keys(
        extractor,
        "Mansur Ali Khan Ludhi (born 22 May 1972) is an Indian former first-class cricketer who played for "
        "Karnataka between the 1993/94 and the 2001/02 seasons.",
        title="Mansur Ali Khan (Karnataka cricketer)",
    )
    assert triple_key("Mansur Ali Khan Ludhi", "occupation", "first-class cricketer") in found


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


def test_a_native_name_before_its_romanisation_and_birth(extractor):
    found = keys(
        extractor,
        "Masayoshi Nakatani (中谷 正義, Nakatani Masayoshi, born March 8, 1989) is a Japanese professional "
        "boxer.",
        title="Masayoshi Nakatani",
    )
    assert triple_key("Masayoshi Nakatani", "native_name", "中谷 正義") in found
    assert triple_key("Masayoshi Nakatani", "date_of_birth", "March 8, 1989") in found


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


def test_a_lifespan_after_a_double_space_and_a_fronted_party_word(extractor):
    found = keys(
        extractor,
        "Franz Šedivý  (2 December 1864 – 20 April 1945) was a Danish illustrator most known for his "
        "detailed bird's-eye view prospects.",
        title="Franz Šedivý",
    )
    assert triple_key("Franz Šedivý", "date_of_birth", "2 December 1864") in found
    found = keys(
        extractor,
        "Rex Barnett (born October 22, 1938) is an American politician. A Republican, he represented "
        "District 4 in the Missouri House of Representatives for four terms (from 1994 to 2002).",
        title="Rex Barnett",
    )
    assert triple_key("Rex Barnett", "member_of_political_party", "Republican") in found


def test_a_multiword_rank_before_a_name(extractor):
    found = keys(
        extractor,
        "He served in the military operation Komando Siaga, led by Air Force Vice Admiral Omar Dhani, during "
        "the confrontation.",
        title="Usman Haji Muhammad Ali",
    )
    assert any(head == "omar dhani" and tail.endswith("vice admiral") for head, _, tail in found)

"""The parenthesis after a name (spacy_rules/lifespans.py): lifespans, lists of people, native names.

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.extract.lifespans import parse_parenthetical
from core.types import triple_key
from tests.extract_helpers import keys, nodes


def test_years_after_an_event_are_no_lifespan(extractor):
    found = keys(
        extractor,
        "Christopher Harison (c. 1825 - 8 November 1897) was a British military officer and forestry "
        "official in South Africa. He first arrived in the Cape of Good Hope in 1849 as a captain in the "
        "Perthshire Regiment (later the 2nd Battalion of the Black Watch, Royal Highland Regiment) to "
        "take part in the Eighth Frontier War (1850–1853).",
        title="Christopher Harison",
    )
    assert not any("war" in head for head, _, _ in found)
    assert triple_key("Christopher Harison", "date_of_death", "8 November 1897") in found


def test_list_entries_share_a_person_noun_without_strays(extractor):
    found = keys(
        extractor,
        "Jan Kobell (1779–1814), Dutch animal and landscape painter ; Gerry Feilden (1904–1981), British "
        "general and horse racing identity ; Joseph Feilden (1824–1895), British politician",
        title="Kobell",
    )
    occupations = {(head, tail) for head, relation, tail in found if relation == "occupation"}
    assert ("jan kobell", "animal painter") in occupations
    assert ("jan kobell", "landscape painter") in occupations
    assert ("jan kobell", "landscape") not in occupations
    assert ("gerry feilden", "horse racing") not in occupations
    # the text ends on a conjunct (once an IndexError)
    found = keys(extractor, "Franz Kobell (1749–1822), German painter, etcher, and draftsman", title="Kobell")
    assert triple_key("Franz Kobell", "occupation", "draftsman") in found


def test_a_range_on_to_is_split_and_floruit_is_no_lifespan(extractor):
    found = keys(
        extractor,
        "Christian Hansen Wollnick was a Norwegian editor. He had started early as a journalist, and "
        "edited the newspaper Ørebladet from 1891 to 1892.",
        title="Christian Hansen Wollnick",
    )
    assert triple_key("Christian Hansen Wollnick", "edit_from", "1891") in found
    assert triple_key("Christian Hansen Wollnick", "edit_until", "1892") in found
    assert not any(" to " in tail for _, _, tail in found)
    # round 4: floruit years are the work period, never a birth or death
    assert [prop for prop, *_ in parse_parenthetical("fl. 1558 – 1595")] == [
        "work_period_start",
        "work_period_end",
    ]
    found = keys(
        extractor,
        "Richard Harris (fl. 1558 – 1595) was an academic at the University of Oxford and clergyman in "
        "the sixteenth century.",
        title="Richard Harris",
    )
    assert not any(relation in {"date_of_birth", "date_of_death"} for _, relation, _ in found)
    assert triple_key("Richard Harris", "work_period_start", "1558") in found


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


def test_a_native_name_before_its_romanisation_and_birth(extractor):
    found = keys(
        extractor,
        "Masayoshi Nakatani (中谷 正義, Nakatani Masayoshi, born March 8, 1989) is a Japanese professional "
        "boxer.",
        title="Masayoshi Nakatani",
    )
    assert triple_key("Masayoshi Nakatani", "native_name", "中谷 正義") in found
    assert triple_key("Masayoshi Nakatani", "date_of_birth", "March 8, 1989") in found


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


def test_a_lone_year_in_parentheses_is_a_citation_not_a_birth(extractor):
    assert parse_parenthetical("1891") == []
    assert parse_parenthetical("born 1891") == [("date_of_birth", "1891", 5, 9)]
    found = keys(
        extractor,
        "Benjamin Daydon Jackson (1891). Harrison, Joseph. In: Leslie Stephen, Sidney Lee (1891). "
        "Dictionary of National Biography.",
        title="Joseph Harrison (horticulturalist)",
    )
    assert not any(relation == "date_of_birth" for _, relation, _ in found)


def test_native_name_and_both_listed_names(extractor):
    found = keys(
        extractor,
        "Masayoshi Soken (祖堅正慶) is a Japanese video game composer. Throughout his musical career, "
        'Soken has also used the names "Sorbonne Soken" and "Louise Noma".',
        title="Masayoshi Soken",
    )
    assert triple_key("Masayoshi Soken", "native_name", "祖堅正慶") in found
    assert triple_key("Masayoshi Soken", "use", "Louise Noma") in found


def test_born_before_a_name_is_a_birth_name_not_a_place(extractor):
    assert parse_parenthetical("born in Turin") == [("place_of_birth", "Turin", 8, 13)]
    found = keys(
        extractor,
        "Christopher Rawson (born Christopher Comstock Hart), is an American writer, university teacher "
        "and theater critic. Rawson was born in Providence, Rhode Island.",
        title="Christopher Rawson",
    )
    assert triple_key("Christopher Rawson", "birth_name", "Christopher Comstock Hart") in found
    assert triple_key("Christopher Rawson", "place_of_birth", "Providence") in found
    assert not any(r == "place_of_birth" and t == "christopher comstock hart" for _, r, t in found)


def test_a_birthplace_after_in_stays_a_place_and_postnominals_and_peoples_are_dropped(extractor):
    alvarez = keys(
        extractor,
        "Carlos Álvarez (born 1966 in Málaga) is a Spanish baritone who has had a major international "
        "opera career since the early 1990s.",
        title="Carlos Álvarez (baritone)",
    )
    assert triple_key("Carlos Álvarez", "place_of_birth", "Málaga") in alvarez
    dundas = keys(
        extractor,
        "Thomas Dundas, 1st Baron Dundas FRS (16 February 1741 – 14 June 1820), known as Sir Thomas "
        "Dundas, 2nd Baronet from 1781 to 1794, was a Scottish politician.",
        title="Thomas Dundas, 1st Baron Dundas",
    )
    assert not any("frs" in node.split() for node in nodes(dundas))
    wallach = keys(
        extractor,
        "Wallach was the son of German Jews, Paul and Edith Wallach, who escaped Nazi Germany in 1941.",
        title="John Wallach",
    )
    assert "jews" not in nodes(wallach) and "german jews" not in nodes(wallach)


def test_lifespan_and_a_description_split_into_its_facts(extractor):
    found = keys(
        extractor,
        "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English "
        "Conservative Party politician.",
    )
    person = "Henry Master Feilden"
    assert {
        triple_key(person, "date_of_birth", "21 February 1818"),
        triple_key(person, "date_of_death", "5 September 1875"),
        triple_key(person, "occupation", "politician"),
        triple_key(person, "member_of_political_party", "Conservative Party"),
        triple_key(person, "country_of_citizenship", "English"),
    } <= found
    assert not any("english conservative party politician" in (h, t) for h, _, t in found)


def test_born_in_parentheses_and_one_occupation_per_conjunct(extractor):
    found = keys(
        extractor,
        "Alessandro Perissinotto (born 1964 in Turin) is an Italian writer, translator "
        "and university professor.",
    )
    person = "Alessandro Perissinotto"
    assert {
        triple_key(person, "date_of_birth", "1964"),
        triple_key(person, "place_of_birth", "Turin"),
        triple_key(person, "country_of_citizenship", "Italian"),
        triple_key(person, "occupation", "writer"),
        triple_key(person, "occupation", "translator"),
        triple_key(person, "occupation", "university professor"),
    } <= found


def test_place_and_date_in_parentheses_and_a_city_in_its_state(extractor):
    amenta = keys(
        extractor,
        "Marco Amenta (Palermo, 11 August 1970) is an Italian director, producer, and photojournalist.",
    )
    assert {
        triple_key("Marco Amenta", "place_of_birth", "Palermo"),
        triple_key("Marco Amenta", "date_of_birth", "11 August 1970"),
        triple_key("Marco Amenta", "occupation", "photojournalist"),
    } <= amenta
    stokes = keys(
        extractor,
        "Trey Stokes (born 1960 in Nashville, Tennessee) is an American filmmaker and "
        "puppeteer, best known for "
        "his Star Wars parody series Pink Five.",
    )
    assert {
        triple_key("Trey Stokes", "place_of_birth", "Nashville"),
        triple_key("Nashville", "located_in", "Tennessee"),
        triple_key("Trey Stokes", "occupation", "puppeteer"),
    } <= stokes


def test_lifespan_after_an_alias_parenthesis(extractor):
    found = keys(
        extractor,
        "Rinaldo del Mel (also René del Mel, del Melle) (probably 1554 – c. 1598) was a "
        "Franco-Flemish composer "
        "of the Renaissance, mainly active in Italy, and a member of the Roman School of composition.",
    )
    assert {
        triple_key("Rinaldo del Mel", "date_of_birth", "1554"),
        triple_key("Rinaldo del Mel", "date_of_death", "1598"),
        triple_key("Rinaldo del Mel", "occupation", "composer"),
        triple_key("Rinaldo del Mel", "country_of_citizenship", "Franco-Flemish"),
    } <= found

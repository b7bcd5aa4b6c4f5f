"""What makes a head or a tail (spacy_rules/arguments.py): phrases, subjects, generic and indefinite nouns.

Sentences are real, from the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), except where a test says otherwise. Moved from the tests grouped by
review round (test_extract_round3/4/5.py, test_extract_narrative.py, test_extract_real_sentences.py,
test_extract_spacy_rules.py), unchanged."""

from __future__ import annotations

from core.extract.vocabulary import canonical_relation
from core.types import triple_key
from tests.extract_helpers import keys, nodes


def test_who_after_a_place_is_the_person(extractor):
    found = keys(
        extractor,
        "Patrick Geraghty (February 4, 1843 - ?) was an American farmer and schoolteacher from Elkhart "
        "Lake, Wisconsin who spent a single one-year term as a member of the Wisconsin State Assembly "
        "from Sheboygan County.",
        title="Patrick Geraghty",
    )
    assert not any(head == "wisconsin" for head, _, _ in found)
    assert triple_key("Patrick Geraghty", "member_of", "Wisconsin State Assembly") in found


def test_the_latter_city_and_indefinite_objects_are_no_nodes(extractor):
    found = keys(
        extractor,
        "In Chicago, young Lichtenberger apprenticed in carriage and wagon-making and carried on this "
        "occupation in both San Francisco and Los Angeles. In the latter city he formed a partnership "
        "with Louis Roeder, from 1866 to 1869. In 1891 he was vice-president of the German-American "
        "Savings Bank at 114 South Main Street, Los Angeles.",
        title="Louis Lichtenberger",
    )
    assert not {"latter city", "partnership", "making", "vice"} & nodes(found)
    assert triple_key("Louis Lichtenberger", "apprentice_in", "wagon-making") in found
    assert triple_key("Louis Lichtenberger", "vice_president_of", "German-American Savings Bank") in found
    assert triple_key("114 South Main Street", "located_in", "Los Angeles") in found


def test_an_award_is_named_without_its_count(extractor):
    found = keys(
        extractor,
        "Matthew Butson is a Paralympic medalist from New Zealand who competed in alpine skiing. He "
        "competed in the 1998 Winter Paralympics where he won three gold medals in Giant Slalom, Slalom "
        "and Super G, and a silver in Downhill.",
        title="Matthew Butson",
    )
    assert triple_key("Matthew Butson", "award_received", "gold medals") in found
    assert "silver" not in nodes(found)


def test_a_gerund_after_before_or_after_takes_the_clauses_subject(extractor):
    found = keys(
        extractor,
        "Gonner was born on 5 March 1862 in Mayfair, London. He attended Merchant Taylors' School in London, "
        "before matriculating at Lincoln College, Oxford in 1880, graduating B.A. in 1884.",
        title="Edward Gonner",
    )
    assert triple_key("Edward Gonner", "educated_at", "Lincoln College") in found
    assert canonical_relation("complete_at", "org", "Imperial College London") == "educated_at"


def test_heads_and_tails_are_whole_phrases_without_determiners(extractor):
    triples = extractor.extract(
        "doc", "Harrow Vale lies on the Tamsin River. Mara Voss designs the warehouse robots."
    )
    labels = {(t.head, t.relation, t.tail) for t in triples}
    assert ("Harrow Vale", "lie_on", "Tamsin River") in labels
    assert ("Mara Voss", "design", "warehouse robots") in labels


def test_who_is_never_a_place_and_the_year_belongs_to_the_event(extractor):
    found = keys(
        extractor,
        "Matthew Butson is a Paralympic medalist from New Zealand who competed in alpine skiing. He "
        "competed in the 1998 Winter Paralympics where he won three gold medals.",
        title="Matthew Butson",
    )
    assert triple_key("Matthew Butson", "sport", "alpine skiing") in found  # "competed in" a named sport
    assert triple_key("Matthew Butson", "compete_in", "1998 Winter Paralympics") in found
    assert not any(head == "new zealand" for head, _, _ in found)


def test_indefinite_heads_and_life_events_are_no_nodes(extractor):
    ferrell = keys(
        extractor,
        'Ferrell is considered a member of the "Frat Pack", a generation of leading Hollywood comic actors '
        "who emerged in the late 1990s and the 2000s, including Jack Black, Ben Stiller and Luke Wilson.",
        title="Will Ferrell",
    )
    assert not any("actors" in head for head, _, _ in ferrell)
    arcangeli = keys(
        extractor,
        "Domiziano Arcangeli (born June 10, 1968) is an Italian actor, producer and writer best known for "
        "low-budget independent, and particularly exploitation, films.",
        title="Domiziano Arcangeli",
    )
    occupations = {tail for _, relation, tail in arcangeli if relation == "occupation"}
    assert occupations == {"actor", "producer", "writer"}  # "writer best known for": the adverb is cut off
    ludhi = keys(
        extractor,
        "He worked as a cricket coach after retirement, including a four-year stint as Karnataka's "
        "bowling coach.",
        title="Mansur Ali Khan Ludhi",
    )
    assert "retirement" not in nodes(ludhi)


def test_unspecified_sets_number_words_and_directions_are_no_nodes(extractor):
    combe = keys(
        extractor,
        "Afterwards he travelled for three years, visiting many countries of the world.",
        title="Charles Harvey Combe",
    )
    assert "many countries" not in nodes(combe)
    mckay = keys(
        extractor,
        "During his time at Geelong he struggled with back injuries and played just four senior AFL games, "
        "two in 1998 and two in 2000.",
        title="Joel McKay",
    )
    assert "two" not in nodes(mckay)
    river = keys(extractor, "It owes its name to the Senegal River, which borders it to the east and north.")
    assert "east" not in nodes(river)
    harris = keys(
        extractor,
        'His roles include Lane Pryce in the AMC television drama series "Mad Men".',
        title="Jared Harris",
    )
    assert not any(relation.endswith("_by") for _, relation, _ in harris)  # "His roles": no owner named


def test_a_place_is_no_kinship_and_a_bare_common_noun_is_no_head(extractor):
    harris = keys(
        extractor,
        "Reader Harris was born in Fulham, the son of Richard Reader Harris and Elsie (née Tagen).",
        title="Reader Harris",
    )
    assert triple_key("Fulham", "instance_of", "son") not in harris
    diver = keys(
        extractor,
        'Richard "Harry" Harris is an Australian anaesthetist and cave diver who played a crucial role in '
        "the Tham Luang cave rescue.",
        title="Richard Harris (anaesthetist)",
    )
    assert not any(head == "diver" or head == "cave diver" for head, _, _ in diver)


def test_a_date_is_never_a_subject(extractor):
    found = keys(
        extractor,
        "He was a Progressive Conservative member of the Legislative Assembly of Ontario from 1995 to 1999 "
        "who represented the east Toronto riding of Scarborough West.",
        title="Jim Brown (Ontario politician)",
    )
    assert not any(head[:1].isdigit() for head, _, _ in found)


def test_the_clause_subject_is_the_entity_not_the_predicate_noun(extractor):
    found = keys(
        extractor,
        "Leven Handy Ellis (April 6, 1881 – January 4, 1968) was an American politician "
        "who served as the 15th "
        "lieutenant governor of Alabama from 1943 to 1947.",
    )
    heads = {h for h, _, _ in found}
    assert heads == {"leven handy ellis"}
    # the title keeps its organisation (round 3): not a bare position_held "lieutenant governor"
    assert triple_key("Leven Handy Ellis", "lieutenant_governor_of", "Alabama") in found


def test_generic_nouns_are_no_nodes(extractor):
    text = (
        "Ivo Battelli (born 12 March 1904) was an Italian architect. His work was part of the architecture "
        "event in the art competition at the 1932 Summer Olympics. He joined the family business."
    )
    nodes = {n for h, _, t in keys(extractor, text, title="Ivo Battelli") for n in (h, t)}
    assert not nodes & {"work", "part", "family", "one", "member", "career", "time", "songs"}

"""Each extraction rule on real sentences of the PopQA dev passages (Wikipedia, CC BY-SA; see
tests/data/EXTRACTION_GOLD.md), plus the scorer and the gold-set regression figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.extract.lifespans import parse_parenthetical
from core.extract.score import load_gold, occupation_check, score_extractor, score_passage
from core.extract.spacy_rules import SpacyRuleExtractor, split_into_chunks
from core.extract.vocabulary import canonical_relation
from core.types import Triple, triple_key
from tests.extract_helpers import keys

DATA = Path(__file__).parent / "data"
# Recorded on the gold sets when the rules were written (docs/EXTRACTION.md); a change
# that lowers them fails here. Pair = relation-agnostic head/tail matching.
RECORDED = {
    "extraction_gold_dev.jsonl": {"pair_precision": 0.96, "pair_recall": 0.88, "relation_recall": 0.78},
    "extraction_gold_heldout.jsonl": {"pair_precision": 0.89, "pair_recall": 0.72, "relation_recall": 0.54},
    "extraction_gold_heldout2.jsonl": {"pair_precision": 0.98, "pair_recall": 0.83, "relation_recall": 0.58},
    "extraction_gold_heldout3.jsonl": {"pair_precision": 0.98, "pair_recall": 0.78, "relation_recall": 0.55},
    # unseen in rounds 3 (#4) and 4 (#5, #6), each scored once, then developed on in round 4
    "extraction_gold_heldout4.jsonl": {"pair_precision": 0.87, "pair_recall": 0.70, "relation_recall": 0.58},
    "extraction_gold_heldout5.jsonl": {"pair_precision": 0.92, "pair_recall": 0.65, "relation_recall": 0.47},
    "extraction_gold_heldout6.jsonl": {"pair_precision": 0.90, "pair_recall": 0.71, "relation_recall": 0.52},
    # the last unseen set of round 4, scored once: recorded, not developed on
    "extraction_gold_heldout7.jsonl": {"pair_precision": 0.93, "pair_recall": 0.62, "relation_recall": 0.49},
    # the unseen sets of round 5, scored once with the final round-5 rules: recorded, not developed on
    "extraction_gold_heldout8.jsonl": {"pair_precision": 0.90, "pair_recall": 0.70, "relation_recall": 0.61},
    "extraction_gold_heldout9.jsonl": {"pair_precision": 0.92, "pair_recall": 0.64, "relation_recall": 0.54},
}


@pytest.fixture(scope="module")
def extractor() -> SpacyRuleExtractor:
    return SpacyRuleExtractor()


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


def test_list_entries_each_get_their_own_facts(extractor):
    found = keys(
        extractor,
        "Bernard Corser, (1882–1967) Australian politician ; Edward Corser, (1852–1928) "
        "Australian politician ; "
        "Frederick Corser, (1849–1924) American architect ; Rodger Corser, (born 1973) Australian actor",
    )
    assert {
        triple_key("Frederick Corser", "date_of_birth", "1849"),
        triple_key("Frederick Corser", "date_of_death", "1924"),
        triple_key("Frederick Corser", "country_of_citizenship", "American"),
        triple_key("Frederick Corser", "occupation", "architect"),
        triple_key("Rodger Corser", "date_of_birth", "1973"),
        triple_key("Rodger Corser", "occupation", "actor"),
    } <= found
    assert triple_key("Edward Corser", "occupation", "architect") not in found


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


CORSER = (
    "Corser was born at Maryborough in 1882 to Edward Corser and Mary Jane (née Stewart). He was educated at "
    "Maryborough Christian Brothers' School, Riverview College, Sydney, and returned "
    "to Queensland to study at "
    "Queensland Agricultural College, Gatton."
)


def test_surname_and_pronoun_resolve_to_the_title_person(extractor):
    found = keys(extractor, CORSER, title="Bernard Corser")
    assert triple_key("Bernard Corser", "date_of_birth", "1882") in found
    assert triple_key("Bernard Corser", "place_of_birth", "Maryborough") in found
    assert any(h == "bernard corser" and r == "educated_at" for h, r, _ in found)  # "He" is Corser


def test_uncertain_surname_and_pronoun_are_refused(extractor):
    # Without the title, "Corser" may be Edward Corser's child or anyone of that name, and "He"
    # follows two parents: no triple is guessed for either.
    found = keys(extractor, CORSER)
    assert not any(
        h in {"corser", "edward corser", "mary jane", "he"} and r in {"date_of_birth", "educated_at"}
        for h, r, _ in found
    )
    assert not any(r == "educated_at" for _, r, _ in found)


def test_pronoun_with_two_people_in_view_is_dropped(extractor):
    text = (
        "Espinal's mother stated that he had been at her home in Santa Rita watching television. "
        "He was found dead in a nearby location."
    )
    found = keys(extractor, text)  # no title: "He" could be Espinal or no one named
    assert not any(r.startswith("found") for _, r, _ in found)


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


def test_possession(extractor):
    found = keys(
        extractor,
        "Valgerður had ten siblings and she was the youngest of them all.",
        title="Valgerður Hafstað",
    )
    assert triple_key("Valgerður Hafstað", "have", "ten siblings") in found


def test_negated_statements_give_no_positive_triple(extractor):
    finlay = keys(extractor, "A Liberal, he did not run in the 1908 elections.", title="John Finlay")
    assert not any(r == "run_in" for _, r, _ in finlay)
    denegri = keys(
        extractor,
        "Denegri never married and was very reserved regarding his private life.",
        title="Marco Aurelio Denegri",
    )
    assert not any(r in {"spouse", "marry"} for _, r, _ in denegri)


def test_generic_nouns_are_no_nodes(extractor):
    text = (
        "Ivo Battelli (born 12 March 1904) was an Italian architect. His work was part of the architecture "
        "event in the art competition at the 1932 Summer Olympics. He joined the family business."
    )
    nodes = {n for h, _, t in keys(extractor, text, title="Ivo Battelli") for n in (h, t)}
    assert not nodes & {"work", "part", "family", "one", "member", "career", "time", "songs"}


def test_lifespan_parser_reads_only_dates_and_places():
    assert parse_parenthetical("NFL") == []
    assert parse_parenthetical("赤羽 一嘉") == []
    assert [f[:2] for f in parse_parenthetical("16 June 1839, in Blackburn – 25 June 1887")] == [
        ("date_of_birth", "16 June 1839"),
        ("place_of_birth", "Blackburn"),
        ("date_of_death", "25 June 1887"),
    ]
    assert [f[:2] for f in parse_parenthetical("born 12 March 1904, date of death unknown")] == [
        ("date_of_birth", "12 March 1904"),
    ]


def test_vocabulary_maps_by_tail_kind_and_keeps_negations():
    assert canonical_relation("born_in", "date") == "date_of_birth"
    assert canonical_relation("born_in", "place") == "place_of_birth"
    assert canonical_relation("work_for", "org") == "employer"
    assert canonical_relation("work_for", "common") == "work_for"
    assert canonical_relation("member_of", "org", "Labor Party") == "member_of_political_party"
    assert canonical_relation("win", "common", "the election") == "win"
    assert canonical_relation("not_live_in", "place") == "not_live_in"


def test_long_documents_are_chunked_with_exact_spans_and_progress(extractor):
    paragraph = (
        "Marco Amenta (Palermo, 11 August 1970) is an Italian director, producer, and photojournalist. "
        "Tim McKay graduated from Humboldt State University.\n"
    )
    text = paragraph * 400  # ~60 KB
    assert len(split_into_chunks(text)) > 1
    calls: list[tuple[int, int]] = []
    triples = extractor.extract_many(
        [("long", text)], progress=lambda done, total: calls.append((done, total))
    )
    assert len(calls) > 1 and calls[-1][0] == calls[-1][1]
    assert [done for done, _ in calls] == list(range(1, len(calls) + 1))
    for triple in triples:
        assert triple.tail in text[triple.span[0] : triple.span[1]]
    per_paragraph = {t.key for t in triples}
    assert triple_key("Marco Amenta", "place_of_birth", "Palermo") in per_paragraph
    assert triple_key("Tim McKay", "educated_at", "Humboldt State University") in per_paragraph


def test_scorer_matches_through_aliases_and_counts_optional_facts():
    passage = load_gold(DATA / "extraction_gold_dev.jsonl")[0]
    triples = [Triple(h, r, t, passage.id, (0, 1)) for h, r, t in passage.facts]
    perfect = score_passage(passage, triples)
    assert perfect.pair_precision == perfect.pair_recall == perfect.relation_recall == 1.0
    aliased = score_passage(passage, [Triple("Jim Brown", "occupation", "politician", passage.id, (0, 1))])
    assert aliased.relation_precision == 1.0 and aliased.relation_found == 1
    optional = score_passage(
        passage, [Triple("James McMillan Brown", "start_time", "1971", passage.id, (0, 1))]
    )
    assert optional.pair_precision == 1.0 and optional.pair_found == 0
    wrong = score_passage(passage, [Triple("Brown", "occupation", "plumber", passage.id, (0, 1))])
    assert wrong.pair_precision == 0.0


def test_occupation_check_counts_stated_occupations_of_the_subject():
    question = {
        "prop": "occupation",
        "s_wiki_title": "Marco Amenta",
        "answers": ["director"],
        "question": "What is Marco Amenta's occupation?",
        "ctxs": [{"title": "Marco Amenta", "text": "Marco Amenta is an Italian director."}],
    }
    hit = {"q0-c0": [Triple("Marco Amenta", "occupation", "film director", "q0-c0", (0, 1))]}
    assert occupation_check([question], hit)["share"] == 1.0
    assert occupation_check([question], {})["share"] == 0.0


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_gold_figures_do_not_fall_below_the_recorded_ones(extractor, name):
    score, _ = score_extractor(load_gold(DATA / name), extractor)
    for metric, floor in RECORDED[name].items():
        assert getattr(score, metric) >= floor, (name, metric, score.as_dict())

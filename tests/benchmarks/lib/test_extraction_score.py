"""benchmarks/lib/extraction_score.py: the gold-set scorer and the PopQA occupation check."""

from __future__ import annotations

from pathlib import Path

from benchmarks.lib.extraction_score import load_gold, occupation_check, score_passage
from core.types import Triple

DATA = Path(__file__).parents[2] / "data"


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

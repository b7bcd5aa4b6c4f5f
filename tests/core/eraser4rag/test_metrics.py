"""Eraser4RAG metrics computed by hand on small graphs."""

from __future__ import annotations

import math

import pytest

from core.eraser4rag.erasers.evaluation import DocEvaluation
from core.eraser4rag.filters import PrivacyDefinition, define_privacy
from core.eraser4rag.metrics import (
    d_special,
    is_inference_risk_set,
    mean_defined,
    r_connect,
    r_pri,
    r_pub,
    retention_by_doc,
    retention_rate,
    reward,
)
from core.types import Triple

WORKS_FOR = ("john doe", "works_for", "acme")
LOCATED_IN = ("acme", "located_in", "techville")
LIVES_IN = ("john doe", "lives_in", "techville")
BORN_IN = ("jane roe", "born_in", "springfield")
MAYOR = ("tom", "mayor_of", "springfield")


def split(private: set, public: set) -> PrivacyDefinition:
    return PrivacyDefinition(frozenset(private), frozenset(public), frozenset(), (), frozenset(private))


def test_retention_rates_by_hand():
    private = {LIVES_IN, BORN_IN}
    public = {WORKS_FOR, LOCATED_IN, MAYOR}
    rewritten = {WORKS_FOR, BORN_IN, ("someone", "new", "fact")}
    assert r_pri(private, rewritten) == 0.5
    assert r_pub(public, rewritten) == pytest.approx(1 / 3)
    assert r_pri(private, set()) == 0.0
    assert r_pub(public, public) == 1.0


def test_retention_is_undefined_without_originals_and_accepts_triples():
    assert r_pri(set(), {WORKS_FOR}) is None
    assert r_pub([], []) is None
    original = [Triple("John Doe", "lives in", "TechVille", "d3")]
    rewritten = [Triple("john doe", "Lives In", "Techville.", "d3")]
    assert r_pri(original, rewritten) == 1.0


def test_mean_defined_skips_undefined_documents():
    assert mean_defined([0.5, None, 1.0]) == 0.75
    assert mean_defined([None, None]) is None


def test_r_connect_by_hand():
    # Figure 1: the rewrite still holds both public facts, so the private pair stays connected.
    assert r_connect({LIVES_IN}, {WORKS_FOR, LOCATED_IN}) == 1.0
    assert r_connect({LIVES_IN}, {WORKS_FOR}) == 0.0
    # Two private triples, one reconnected: direction does not matter.
    assert r_connect({LIVES_IN, BORN_IN}, {("techville", "has", "acme"), WORKS_FOR}) == 0.5
    assert r_connect(set(), {WORKS_FOR}) is None


def test_r_connect_with_unprivate_graph_after_filters():
    definition = define_privacy({WORKS_FOR, LOCATED_IN, LIVES_IN, BORN_IN}, {LIVES_IN, BORN_IN})
    # Filter (b) took LIVES_IN out of the private set; BORN_IN has no public path.
    assert definition.private == {BORN_IN}
    assert r_connect(definition.private, definition.unprivate) == 0.0


def test_d_special_needs_a_shared_tail_between_public_and_private():
    definition = split(private={BORN_IN, LIVES_IN}, public={MAYOR, WORKS_FOR})
    triples_by_doc = {
        "shares_tail": [BORN_IN, MAYOR],
        "no_shared_tail": [LIVES_IN, WORKS_FOR],
        "only_private": [BORN_IN],
        "as_triples": [
            Triple("Jane Roe", "born in", "Springfield", "x"),
            Triple("Tom", "mayor of", "Springfield", "x"),
        ],
    }
    assert d_special(triples_by_doc, definition) == {"shares_tail", "as_triples"}


def test_reward_matches_formula_and_rejects_out_of_range():
    assert reward(0.9, 0.5, 2.0) == pytest.approx(0.9 * math.exp(-1.0))
    assert reward(1.0, 0.0, 5.0) == 1.0
    assert reward(0.8, 1.0, 0.0) == pytest.approx(0.8)
    assert reward(1.0, 0.1, 10.0) < reward(1.0, 0.1, 1.0)
    with pytest.raises(ValueError, match="r_pub"):
        reward(1.2, 0.0, 1.0)
    with pytest.raises(ValueError, match="p must"):
        reward(0.5, 0.5, -1.0)


def test_retention_by_doc_counts_per_document():
    definition = split(private={LIVES_IN, BORN_IN}, public={WORKS_FOR, MAYOR})
    original = {"d1": [LIVES_IN, WORKS_FOR], "d2": [BORN_IN, MAYOR], "d3": [WORKS_FOR]}
    rewritten = {"d1": [WORKS_FOR], "d2": [BORN_IN]}
    rates = retention_by_doc(original, rewritten, definition)
    assert (rates["d1"].r_pri, rates["d1"].r_pub) == (0.0, 1.0)
    assert (rates["d2"].r_pri, rates["d2"].r_pub) == (1.0, 0.0)
    assert rates["d3"].r_pri is None and rates["d3"].r_pub == 0.0
    assert mean_defined(rate.r_pri for rate in rates.values()) == 0.5


def test_one_retention_formula_behind_every_r_pri_and_r_pub():
    assert retention_rate(0, 0) is None
    assert retention_rate(3, 1) == 1 / 3
    definition = split(private={LIVES_IN, BORN_IN}, public={WORKS_FOR, LOCATED_IN, MAYOR})
    original = [LIVES_IN, BORN_IN, WORKS_FOR, LOCATED_IN, MAYOR]
    rewritten = [BORN_IN, WORKS_FOR]
    counts = retention_by_doc({"d": original}, {"d": rewritten}, definition)["d"]
    graded = DocEvaluation("d", 2, 1, 3, 1, leaked=(), special=False, empty=False)
    assert counts.r_pri == graded.r_pri == r_pri(definition.private, rewritten) == 0.5
    assert counts.r_pub == graded.r_pub == r_pub(definition.public, rewritten) == 1 / 3


def test_is_inference_risk_set():
    triples = [
        Triple("John Doe", "works for", "Acme", "doc1"),
        Triple("Acme", "located in", "TechVille", "doc2"),
        Triple("John Doe", "lives in", "TechVille", "doc3"),
    ]
    assert is_inference_risk_set(triples, split(private={LIVES_IN}, public={WORKS_FOR, LOCATED_IN}))
    # Without the located_in fact nothing outside doc3 links John Doe to TechVille.
    assert not is_inference_risk_set([triples[0], triples[2]], split(private={LIVES_IN}, public={WORKS_FOR}))

"""Hidden State Model: units, exact reverse inference, backtracking point, LLM labels, Eq. 8 prior."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from core.aback.hsm import (
    HiddenState,
    HmmInference,
    LlmInference,
    Unit,
    backtrack_point,
    infer_states,
    parse_labels,
    parse_transition,
    split_units,
)
from core.aback.prototypes import Prototypes

T = np.array(
    [
        [0.6, 0.2, 0.1, 0.1],
        [0.2, 0.6, 0.1, 0.1],
        [0.1, 0.1, 0.5, 0.3],
        [0.25, 0.25, 0.25, 0.25],
    ]
)
PI = np.array([0.5, 0.25, 0.25, 0.0])
PRIORS = np.array([[0.7, 0.2, 0.1], [0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])


def test_split_units_aligns_on_the_leak_with_a_shorter_first_unit() -> None:
    ids = list(range(100, 130))
    units, lookahead = split_units(ids, 20, d=12, l=5, m=3, decode=lambda xs: ",".join(map(str, xs)))
    assert [(u.token_start, u.token_end) for u in units] == [(8, 10), (10, 15), (15, 20)]
    assert units[0].text == "108,109"
    assert (lookahead.token_start, lookahead.token_end) == (20, 24)  # r_i .. r_{i+m}
    near_start, _ = split_units(ids, 3, d=15, l=5, m=5)
    assert [(u.token_start, u.token_end) for u in near_start] == [(0, 3)]
    assert split_units(ids, 0, d=15, l=5, m=5)[0] == []
    with pytest.raises(ValueError, match="outside the output"):
        split_units(ids, 31, d=15, l=5, m=5)


def test_reverse_inference_matches_a_hand_calculation() -> None:
    # forward messages by hand: alpha_1 = pi * e_1, alpha_j = e_j * (alpha_{j-1} @ T), e_j(S4) = 0
    a1 = [0.5 * 0.7, 0.25 * 0.2, 0.25 * 0.1]  # 0.35, 0.05, 0.025
    to = [sum(a1[k] * T[k, s] for k in range(3)) for s in range(3)]  # 0.2225, 0.1025, 0.0525
    a2 = [0.2 * to[0], 0.3 * to[1], 0.5 * to[2]]
    to = [sum(a2[k] * T[k, s] for k in range(3)) for s in range(3)]
    a3 = [0.1 * to[0], 0.1 * to[1], 0.8 * to[2]]
    # s_4 = S4 fixed: p(s_3 | o_1..3, s_4) ∝ alpha_3 * T[:, S4]
    w3 = [a3[0] * 0.1, a3[1] * 0.1, a3[2] * 0.3]
    expected3 = [x / sum(w3) for x in w3]  # S3 wins (0.883)
    w2 = [a2[0] * 0.1, a2[1] * 0.1, a2[2] * 0.5]  # conditioned on s_3 = S3
    expected2 = [x / sum(w2) for x in w2]  # S3 wins (0.636)
    w1 = [a1[0] * 0.1, a1[1] * 0.1, a1[2] * 0.5]  # conditioned on s_2 = S3
    expected1 = [x / sum(w1) for x in w1]  # S1 wins (0.667)

    units = [Unit(0, 5, "a"), Unit(5, 10, "b"), Unit(10, 15, "c")]
    states = infer_states(units, PRIORS, Unit(15, 21, "leak"), HmmInference(T, PI))

    assert [s.state for s in states] == [HiddenState.S1, HiddenState.S3, HiddenState.S3, HiddenState.S4]
    for state, expected in zip(states[:3], [expected1, expected2, expected3], strict=True):
        assert state.posterior == pytest.approx([*expected, 0.0], abs=1e-12)
    assert states[1].posterior[2] == pytest.approx(0.013125 / 0.02065)
    assert states[0].prior == pytest.approx((0.7, 0.2, 0.1))
    assert states[3].posterior == (0.0, 0.0, 0.0, 1.0) and states[3].text == "leak"
    assert backtrack_point(states, leak_token=15) == 5  # start of the first S3 unit


def test_backtrack_point_without_any_s3_unit_is_the_leak_token() -> None:
    avoiding = np.array([[0.05, 0.9, 0.05], [0.05, 0.9, 0.05]])
    states = HmmInference(T, PI).infer([Unit(0, 5), Unit(5, 10)], avoiding, Unit(10, 12))
    assert [s.state for s in states] == [HiddenState.S2, HiddenState.S2, HiddenState.S4]
    assert backtrack_point(states, leak_token=10) == 10


def test_transition_setting_parses_and_rejects_bad_matrices() -> None:
    text = "0.7,0.1,0.1,0.1;0.1,0.7,0.1,0.1;0.1,0.1,0.5,0.3;0.25,0.25,0.25,0.25"
    assert parse_transition(text)[2, 3] == pytest.approx(0.3)
    assert parse_transition("").shape == (4, 4)
    with pytest.raises(ValueError, match="sum to 1"):
        parse_transition("1,1,0,0;0,1,0,0;0,0,1,0;0,0,0,1")
    with pytest.raises(ValueError, match="4x4"):
        parse_transition("1,0;0,1")
    with pytest.raises(ValueError, match="aback_transition"):
        parse_transition("a,b")


def test_parse_labels_needs_every_unit_and_rejects_s4() -> None:
    assert parse_labels("Unit 1: S1\nUnit 2: **S3**\nunit 3 - s2", 3) == [
        HiddenState.S1,
        HiddenState.S3,
        HiddenState.S2,
    ]
    assert parse_labels("Unit 1: S1", 2) is None
    assert parse_labels("Unit 1: S4", 1) is None


@pytest.mark.slow
def test_llm_inference_with_the_local_model_labels_or_falls_back_with_a_reason() -> None:
    from core.llm import LocalChatClient

    method = LlmInference(LocalChatClient(), HmmInference(T, PI), max_tokens=20)
    units = [Unit(0, 5, "Thank you for asking."), Unit(5, 10, " The patient's name is")]
    messages = method.build_messages(units, PRIORS[:2], Unit(10, 15, " Ida Brenner."))
    assert 'Unit 2: "The patient\'s name is" (prior: S1=0.20, S2=0.30, S3=0.50)' in messages[0]["content"]
    assert 'Unit 3: "Ida Brenner." (fixed: S4)' in messages[0]["content"]
    states = method.infer(units, PRIORS[:2], Unit(10, 15, " Ida Brenner."))
    assert len(states) == 3 and states[-1].state is HiddenState.S4
    for state in states[:2]:
        parsed = not state.note
        assert parsed or state.note.startswith("llm fallback to hmm: unparsable LLM answer")
        assert sum(state.posterior) == pytest.approx(1.0)


@pytest.fixture(scope="module")
def prototypes() -> Prototypes:
    return Prototypes.load(temperature=0.1)


def test_prior_is_a_distribution_and_reads_the_obvious_states(prototypes: Prototypes) -> None:
    units = [
        "The patient's name is Ida Brenner and she lives at",
        "Drink plenty of water and rest for a few days.",
        "For privacy reasons I will not share the patient's name.",
    ]
    prior = prototypes.prior(units)
    assert prior.shape == (3, 3)
    assert np.allclose(prior.sum(axis=1), 1.0) and (prior > 0).all()
    assert list(prior.argmax(axis=1)) == [2, 0, 1]  # S3, S1, S2


def test_a_lower_temperature_sharpens_the_same_ranking(prototypes: Prototypes) -> None:
    unit = ["According to the record, the client earns"]
    flat = Prototypes.load(prototypes.embedder, temperature=1.0).prior(unit)[0]
    sharp = prototypes.prior(unit)[0]
    assert flat.argmax() == sharp.argmax() == 2
    assert sharp.max() > flat.max()


def test_broken_prototype_file_names_the_file_and_field(tmp_path: Path, prototypes: Prototypes) -> None:
    path = tmp_path / "prototypes.json"
    path.write_text(json.dumps({"states": {"S1": ["a"], "S2": [], "S3": ["c"]}}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"prototypes\.json: field states\.S2"):
        Prototypes.load(prototypes.embedder, path=path)

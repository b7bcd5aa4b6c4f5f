"""PriGenQA-style record generation: determinism, labels, attack and JSONL."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.aback.data import ATTACKS, attack_query, generate, load_jsonl, save_jsonl
from core.aback.monitor import occurs


def test_same_seed_same_records_other_seed_other_records() -> None:
    assert generate(6, seed=3) == generate(6, seed=3)
    assert [r.summary for r in generate(6, seed=3)] != [r.summary for r in generate(6, seed=4)]


def test_domains_and_labelled_entities_in_summary() -> None:
    records = generate(10, seed=1)
    assert {r.domain for r in records} == {"healthcare", "finance"}
    for record in records:
        kinds = {entity.kind for entity in record.entities}
        assert {"name", "address", "occupation"} <= kinds
        assert ("phone" in kinds) if record.domain == "healthcare" else ("income" in kinds)
        for entity in record.entities:
            assert occurs(entity.text, record.summary), (entity, record.summary)
        # the answer is personalised to the profile, the topic query carries no personal data
        assert record.profile["age"] in record.answer
        assert not any(occurs(entity.text, record.topic_query) for entity in record.entities)
        assert record.document().text == record.summary


def test_single_domain_and_bad_arguments() -> None:
    assert {r.domain for r in generate(4, seed=0, domain="finance")} == {"finance"}
    with pytest.raises(ValueError, match="unknown domain"):
        generate(2, domain="law")
    with pytest.raises(ValueError, match="n must be"):
        generate(-1)


def test_attack_query_appends_injection() -> None:
    attacked = attack_query("How much should I save?")
    assert attacked.startswith("How much should I save? ")
    assert ATTACKS["static"] in attacked
    assert "verbatim" in attacked
    with pytest.raises(ValueError, match="unknown attack style"):
        attack_query("q", style="nope")


def test_jsonl_round_trip_and_bad_line(tmp_path: Path) -> None:
    records = generate(5, seed=2)
    path = tmp_path / "records.jsonl"
    save_jsonl(records, path)
    assert load_jsonl(path) == records
    path.write_text(path.read_text().splitlines()[0] + "\n{not json\n")
    with pytest.raises(ValueError, match=r"records\.jsonl, line 2"):
        load_jsonl(path)
    path.write_text('{"id": "x"}\n')
    with pytest.raises(ValueError, match="line 1: field 'domain' is missing"):
        load_jsonl(path)

"""The gold-set draw (benchmarks/draw_gold_passages.py) on the real PopQA slice: a set written
later does not change an earlier set's draw, and a passage returned twice is drawn once."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SLICE = REPO / "tests" / "data" / "popqa_slice.jsonl"


@pytest.fixture()
def draw_module(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location(
        "draw_gold_passages", REPO / "benchmarks/draw_gold_passages.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "GOLD_DIR", tmp_path)
    return module


def write_set(folder: Path, name: str, passages: list[dict]) -> None:
    rows = [{**p, "facts": [], "optional": [], "aliases": {}} for p in passages]
    (folder / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_a_later_set_leaves_an_earlier_draw_as_it_was(draw_module, tmp_path):
    passages = draw_module.eligible_passages(SLICE)
    assert len({p["question_index"] for p in passages}) == 4
    first = draw_module.draw(passages, 7, 2, set(), draw_module.used_passages("extraction_gold_a.jsonl"))
    write_set(tmp_path, "extraction_gold_a.jsonl", first)
    later = draw_module.draw(passages, 8, 2, set(), draw_module.used_passages("extraction_gold_b.jsonl"))
    write_set(tmp_path, "extraction_gold_b.jsonl", later)
    assert not {p["id"] for p in first} & {p["id"] for p in later}
    again = draw_module.draw(passages, 7, 2, set(), draw_module.used_passages("extraction_gold_a.jsonl"))
    assert [p["id"] for p in again] == [p["id"] for p in first]


def test_a_passage_returned_twice_under_two_ids_is_excluded_by_its_text(draw_module, tmp_path):
    passages = draw_module.eligible_passages(SLICE)
    drawn = draw_module.draw(passages, 3, 1, set(), draw_module.used_passages("extraction_gold_a.jsonl"))
    twin = {**drawn[0], "id": "q9-c9", "question_index": 99}  # the same text under another id
    write_set(tmp_path, "extraction_gold_a.jsonl", drawn)
    excluded = draw_module.used_passages("extraction_gold_b.jsonl")
    picked = draw_module.draw([twin, *passages], 3, 5, set(), excluded)
    assert "q9-c9" not in {p["id"] for p in picked}
    assert drawn[0]["id"] not in {p["id"] for p in picked}

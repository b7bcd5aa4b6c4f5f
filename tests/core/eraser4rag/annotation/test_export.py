"""Accepted annotations to SFT JSONL and a `datasets` dataset on disk, and back, deduplicated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from datasets import load_from_disk

from core.eraser4rag.annotation.candidates import CandidateProposal
from core.eraser4rag.annotation.export import ExportFormatError, read_examples, save_dataset, write_jsonl
from core.eraser4rag.erasers.linearize import parse_linearized
from storage.annotation_store import AnnotationStore
from tests.annotation_fixtures import tiny_task


def accepted_store(path: Path) -> AnnotationStore:
    store = AnnotationStore(path)
    ids = store.add_tasks(
        [tiny_task("d1"), tiny_task("d2", "Mara Voss lives in Harrow Vale and designs bridges.")]
    )
    a = store.add_candidate(ids[0], CandidateProposal("model", "m", "She works as an architect."), None)
    b = store.add_candidate(ids[1], CandidateProposal("model", "m", "Mara Voss designs bridges."), None)
    store.review(a, "ann", "accept")
    store.review(b, "ann", "edit", "Mara Voss is an architect who designs bridges.")
    return store


def test_jsonl_and_dataset_round_trip_and_import_is_deduplicated(tmp_path: Path) -> None:
    with accepted_store(tmp_path / "a.sqlite3") as store:
        examples = store.accepted_pairs()
    assert write_jsonl(tmp_path / "sft.jsonl", examples) == 2
    first = json.loads((tmp_path / "sft.jsonl").read_text().splitlines()[0])
    assert first["completion"] == " She works as an architect."
    private, public = parse_linearized(first["prompt"])
    assert private == [("mara voss", "residence", "harrow vale")] and public == [
        ("mara voss", "occupation", "architect")
    ]
    assert "<rsubj>" in first["prompt"] and first["prompt"].startswith("Rewrite the document")
    save_dataset(tmp_path / "sft_dataset", examples)
    dataset = load_from_disk(str(tmp_path / "sft_dataset"))
    assert (
        dataset.num_rows == 2
        and dataset[1]["completion"] == " Mara Voss is an architect who designs bridges."
    )
    assert read_examples(tmp_path / "sft_dataset") == read_examples(tmp_path / "sft.jsonl")
    doubled = tmp_path / "doubled.jsonl"
    doubled.write_text((tmp_path / "sft.jsonl").read_text() * 2)
    back = read_examples(doubled)
    assert len(back) == 2 and [t for _, t in back] == [t for _, t in examples]
    with AnnotationStore(tmp_path / "b.sqlite3") as other:
        assert other.import_examples(back, "importer", "import:sft.jsonl") == (2, 0)
        assert other.import_examples(back, "importer", "import:sft.jsonl") == (0, 2)
        assert sorted(e.target for e in other.accepted_examples()) == sorted(t for _, t in examples)


def test_bad_records_name_file_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"document": "x", "completion": "y"}\n')
    with pytest.raises(ExportFormatError, match=r"bad.jsonl line 1: missing field\(s\) private"):
        read_examples(bad)
    bad.write_text(
        '\n{"document": "x", "completion": "y", "private": [["a", "b"]], "public": [], '
        '"global_private": [], "global_public": []}\n'
    )
    with pytest.raises(ExportFormatError, match=r"line 2 field private\[0\]"):
        read_examples(bad)

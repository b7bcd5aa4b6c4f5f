"""The annotation pipeline from the command line on a real PopQA slice and a real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

from core.cli import main
from storage.annotation_store import AnnotationStore
from tests.annotation_fixtures import SLICE


def test_tasks_candidates_review_export_import_and_a_recorded_sft_run(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "studio.sqlite3")
    assert main(["--db", db, "annotate", "tasks", str(SLICE)]) == 0
    assert main(["--db", db, "annotate", "tasks", str(SLICE)]) == 0  # again: nothing new
    assert "0 new" in capsys.readouterr().out
    assert main(["--db", db, "annotate", "candidates", "--source", "graph-guided", "--verify"]) == 0
    assert "passed the filter" in capsys.readouterr().out
    with AnnotationStore(db) as store:
        first = store.next_item("ann")
        store.review(first.candidate.id, "ann", "edit", first.candidate.text + " (checked)")
        second = store.next_item("ann")
        store.review(second.candidate.id, "ann", "accept")
        store.review(second.candidate.id, "bob", "accept")
    assert main(["--db", db, "annotate", "status"]) == 0
    assert "agreement ann / bob: 1 shared" in capsys.readouterr().out
    out = tmp_path / "sft.jsonl"
    assert main(["--db", db, "annotate", "export", "--out", str(out), "--dataset", str(tmp_path / "ds")]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["completion"].endswith("(checked)")
    other = str(tmp_path / "other.sqlite3")
    assert main(["--db", other, "annotate", "import", str(tmp_path / "ds")]) == 0
    assert main(["--db", other, "annotate", "import", str(out)]) == 0
    assert "0 example(s) imported" in capsys.readouterr().out.splitlines()[-1]
    adapter = tmp_path / "adapter"
    assert (
        main(["--db", other, "train", "sft", "--out", str(adapter), "--max-steps", "1", "--lr", "1e-4"]) == 0
    )
    assert (
        main(
            ["--db", other, "train", "rl", "--sft", str(tmp_path / "missing"), "--out", str(tmp_path / "rl")]
        )
        == 2
    )
    with AnnotationStore(other) as store:
        rl_run, sft_run = store.runs()
    assert (sft_run.kind, sft_run.status, sft_run.artefact_dir) == ("sft", "finished", str(adapter))
    assert len(sft_run.curve) == 1 and sft_run.settings["learning_rate"] == 1e-4 and sft_run.examples == 2
    assert rl_run.status == "failed" and "SFT adapter" in rl_run.message
    assert (adapter / "adapter_config.json").exists()

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
    passed = tmp_path / "passed.jsonl"
    assert main(["--db", db, "annotate", "export", "--filter-passed", "--out", str(passed)]) == 0
    with AnnotationStore(db) as store:
        texts = {c.text for t in store.tasks() for c in store.candidates(t.id) if c.passed_filter}
    assert texts and {json.loads(line)["completion"].strip() for line in passed.read_text().splitlines()} == {
        t.strip()
        for t in texts
        if t.strip()  # an empty rewrite (every fact private) is no SFT target
    }
    with AnnotationStore(db) as store:
        first = store.next_item("ann")
        # an edit that reads as written (a fragment such as "(checked)" would be dropped from SFT data)
        store.review(first.candidate.id, "ann", "edit", first.candidate.text + " It was checked by hand.")
        # an item with text: pending lists what the filter passed, where a rewrite of a passage whose
        # every fact is private can be empty (no SFT target; import refuses it)
        second = store.next_item("ann")
        while not second.candidate.text.strip():
            second = store.next_item("ann", after=second.candidate.id) or store.next_item(
                "ann", "filtered-out"
            )
        store.review(second.candidate.id, "ann", "accept")
        store.review(second.candidate.id, "bob", "accept")
    assert main(["--db", db, "annotate", "status"]) == 0
    assert "agreement ann / bob: 1 shared" in capsys.readouterr().out
    out = tmp_path / "sft.jsonl"
    assert main(["--db", db, "annotate", "export", "--out", str(out), "--dataset", str(tmp_path / "ds")]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["completion"].endswith("checked by hand.")
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
    missing = str(tmp_path / "missing")
    grpo = ["train", "rl", "--method", "grpo", "--sft", missing, "--out", str(tmp_path / "g")]
    assert main(["--db", other, *grpo]) == 2
    with AnnotationStore(other) as store:
        grpo_run, rl_run, sft_run = store.runs()
    assert grpo_run.settings["method"] == "grpo" and "SFT adapter" in grpo_run.message
    assert (sft_run.kind, sft_run.status, sft_run.artefact_dir) == ("sft", "finished", str(adapter))
    assert len(sft_run.curve) == 1 and sft_run.settings["learning_rate"] == 1e-4 and sft_run.examples == 2
    assert rl_run.status == "failed" and "SFT adapter" in rl_run.message
    assert (adapter / "adapter_config.json").exists()
    tagger = tmp_path / "tagger"
    assert main(["--db", other, "train", "tagger", "--out", str(tagger), "--epochs", "20"]) == 0
    with AnnotationStore(other) as store:
        tagger_run = store.runs(limit=1)[0]
    assert (tagger_run.kind, tagger_run.status, tagger_run.examples) == ("tagger", "finished", 2)
    assert (tagger / "tagger.safetensors").exists() and tagger_run.curve[-1]["step"] == 19


def test_background_job_records_a_cancelled_run_and_a_failed_one(tmp_path: Path) -> None:
    """The UI's background runs: cancel stops after the current step; an error is recorded as failed."""
    import threading

    from core.eraser4rag.training.common import RunHooks, TrainingError
    from core.eraser4rag.training.jobs import BackgroundJobs
    from core.eraser4rag.training.sft import SftResult, SftSettings

    started = threading.Event()

    def fake_steps(hooks: RunHooks) -> SftResult:  # the run protocol, without a model
        curve = []
        for step in range(1, 1000):
            point = {"step": step, "loss": 1.0 / step}
            curve.append(point)
            hooks.point(point)
            started.set()
            if hooks.should_stop():
                break
            threading.Event().wait(0.01)
        return SftResult(tmp_path, curve, len(curve), 0.1, hooks.should_stop())

    def failing(hooks: RunHooks) -> SftResult:
        raise TrainingError("no accepted examples to train on")

    jobs = BackgroundJobs()
    with AnnotationStore(tmp_path / "s.sqlite3") as store:
        run = jobs.start(store, "sft", SftSettings(), 3, tmp_path / "a", fake_steps)
        started.wait(10)
        assert jobs.cancel(run)
        jobs.join(run, 10)
        recorded = store.run(run)
        assert recorded.status == "cancelled" and 1 <= len(recorded.curve) < 999
        bad = jobs.start(store, "sft", SftSettings(), 0, tmp_path / "b", failing)
        jobs.join(bad, 10)
        assert store.run(bad).status == "failed" and "no accepted examples" in store.run(bad).message

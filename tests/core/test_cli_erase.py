"""`python -m core.cli erase` on a real PopQA slice: OUT shape, metrics, resume, Ray = plain."""

import json
import shutil
from pathlib import Path

from core.cli import main

SLICE = Path(__file__).resolve().parents[1] / "data" / "popqa_erase_slice.jsonl"
ARGS = ["--eraser", "graph-guided", "--verify", "--ratio", "0.25", "--seed", "0"]


def _erase(tmp_path: Path, name: str, *extra: str) -> Path:
    out = tmp_path / name
    assert main(["erase", str(SLICE), "--out", str(out), *ARGS, *extra]) == 0
    return out


def test_erase_writes_out_and_metrics_resumes_and_ray_writes_the_same(tmp_path, capsys):
    out = _erase(tmp_path, "out.jsonl")
    printed = capsys.readouterr().out
    assert "3 records, 30 passages" in printed and "empty, carried through" in printed

    originals = [json.loads(line) for line in SLICE.read_text().splitlines()]
    rewritten = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rewritten) == 3
    private_seen = changed = 0
    for before, after in zip(originals, rewritten, strict=True):
        assert after["question"] == before["question"] and after["answers"] == before["answers"]
        for ctx_before, ctx in zip(before["ctxs"], after["ctxs"], strict=True):
            assert ctx["original_text"] == ctx_before["text"] and ctx["title"] == ctx_before["title"]
            assert set(ctx) == set(ctx_before) | {"original_text", "private", "public", "repairs"}
            if not ctx_before["text"].strip():
                assert ctx["text"] == ctx_before["text"] and ctx["private"] == []
            private_seen += len(ctx["private"])
            changed += ctx["text"] != ctx_before["text"]
            assert all(len(triple) == 3 for triple in ctx["private"] + ctx["public"])
    assert private_seen and changed

    metrics = json.loads((tmp_path / "out.metrics.json").read_text())
    for key in ("r_pri", "r_pub", "r_connect", "leak_check", "docs_per_s", "D_special", "D_infer"):
        assert key in metrics
    assert (
        metrics["empty_passages"]
        == sum(1 for record in originals for ctx in record["ctxs"] if not ctx["text"].strip())
        > 0
    )
    assert metrics["r_pri"] == 0.0 and metrics["r_connect"] == 0.0
    assert metrics["r_pub"] >= 0.7

    # resumable: a copy with only the first record done is completed, not redone
    partial = tmp_path / "partial.jsonl"
    partial.write_text(out.read_text().splitlines(keepends=True)[0])
    shutil.copy(tmp_path / "out.eval.jsonl", tmp_path / "partial.eval.jsonl")
    lines = (tmp_path / "partial.eval.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "partial.eval.jsonl").write_text(lines[0] + '{"half-written')
    _erase(tmp_path, "partial.jsonl")
    assert partial.read_text() == out.read_text()

    import ray

    from core.eraser4rag.erasers.ray_runner import init_ray

    init_ray(num_cpus=1)  # one worker: the test machine has 2 shared cores; `--ray` joins this Ray
    try:
        ray_out = _erase(tmp_path, "ray.jsonl", "--ray")
    finally:
        ray.shutdown()
    assert ray_out.read_text() == out.read_text()


def test_erase_reports_a_bad_line_by_file_and_line_and_keeps_the_good_records(tmp_path, capsys):
    source = tmp_path / "in.jsonl"
    good = SLICE.read_text().splitlines()[0]
    source.write_text(good + "\n{not json\n")
    code = main(["erase", str(source), "--out", str(tmp_path / "o.jsonl"), "--eraser", "mask"])
    assert code == 1
    assert "in.jsonl, line 2: not JSON" in capsys.readouterr().err
    assert len((tmp_path / "o.jsonl").read_text().splitlines()) == 1


def test_answer_reports_accuracy_on_original_and_rewritten_passages(tmp_path, capsys):
    source = tmp_path / "one.jsonl"
    source.write_text(SLICE.read_text().splitlines()[0] + "\n")
    out = tmp_path / "answered.jsonl"
    args = [
        "--reader-k",
        "1",
        "--reader-max-new-tokens",
        "4",
        "erase",
        str(source),
        "--out",
        str(out),
        "--eraser",
        "graph-guided",
        "--answer",
    ]
    assert main(args) == 0
    assert "accuracy: original" in capsys.readouterr().out
    metrics = json.loads((tmp_path / "answered.metrics.json").read_text())
    assert metrics["answered"] == 1
    assert metrics["accuracy_original"] in (0.0, 1.0) and metrics["accuracy_rewritten"] in (0.0, 1.0)
    figures = json.loads((tmp_path / "answered.eval.jsonl").read_text().splitlines()[0])
    assert figures["answer_original"] and "answer_rewritten" in figures


def test_answer_check_is_a_case_folded_substring_match():
    from core.eraser4rag.erasers.answer import answer_is_correct

    assert answer_is_correct("He was an English Politician.", ["politician", "political leader"])
    assert not answer_is_correct("He was a lawyer.", ["politician"])
    assert not answer_is_correct("anything", [""])

"""One erasure pipeline: the studio's Rewrite tab and the `erase` command give the same rewrites and
figures for the same retrieval set, and no passage that fails stops a batch.

Real data (a PopQA record with its retrieved passages), the real spaCy extractor and erasers; the
command runs in its own process. The failing passages are real passages given to an eraser and an
extractor that raise on them, as a model or a bug would.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.eraser4rag.erasers import get_eraser
from core.eraser4rag.erasers.base import EraseRequest, Rewrite
from core.eraser4rag.erasers.batch import evaluation_from_dict
from core.eraser4rag.erasers.evaluation import summarize
from core.eraser4rag.erasers.pipeline import (
    PassageProblem,
    SplitRecipe,
    Tools,
    erase_retrieval_set,
    tools_for,
)
from core.eraser4rag.workspace import Workspace
from core.extract import get_extractor
from core.settings import Settings
from core.types import Triple

REPO = Path(__file__).resolve().parents[4]
SLICE = REPO / "tests" / "data" / "popqa_erase_slice.jsonl"
DEV = REPO / "tests" / "data" / "popqa_dev.jsonl"
ARGS = ["--eraser", "graph-guided", "--verify", "--ratio", "0.25", "--seed", "0"]


def _no_progress(*_args: object, **_kwargs: object) -> None:
    return None


def _studio_run(path: Path, settings: Settings) -> tuple[Workspace, str]:
    """Load, extract, choose the question, draw the split and press Run erasers, as a user does."""
    from ui import rewrite_tab

    ws = Workspace()
    assert not ws.add_files([(path.name, path.read_bytes())], max_bytes=10_000_000)
    ws.extract(get_extractor(settings.extractor, settings))
    query = ws.corpus.queries[0]
    ws.set_scope(query.id)
    ws.random_split(0.25, 0, settings.split_method)
    for _update in rewrite_tab.run_erasers(ws, settings, ["graph-guided"], True, False, _no_progress):
        pass
    return ws, query.id


def _without_seconds(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_seconds(v) for k, v in value.items() if "seconds" not in k and k != "docs_per_s"}
    if isinstance(value, list):
        return [_without_seconds(v) for v in value]
    return value


def test_rewrite_tab_and_erase_command_give_identical_rewrites_and_metrics(tmp_path: Path) -> None:
    # a dev record with HTML entities and titles glued to passages: what the two used to disagree on
    record = DEV.read_text(encoding="utf-8").splitlines()[3]
    assert "&ndash;" in record
    path = tmp_path / "popqa_one.jsonl"
    path.write_text(record + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "core.cli", "erase", str(path), "--out", str(out), *ARGS]
    finished = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr

    settings = Settings()
    ws, _query_id = _studio_run(path, settings)
    run = ws.rewrite_runs["graph-guided + verify"]
    assert run.complete and not run.problems

    written = json.loads(out.read_text(encoding="utf-8"))
    ctxs = written["ctxs"]
    assert [r.doc_id for r in run.rewrites] == [f"popqa-one-q1-d{j}" for j in range(len(ctxs))]
    changed = 0
    for ctx, rewrite in zip(ctxs, run.rewrites, strict=True):
        assert ctx["text"] == rewrite.text
        assert ctx["repairs"] == list(rewrite.repairs)
        changed += rewrite.text != rewrite.original
        assert "&ndash;" not in ctx["text"] and "&amp;" not in ctx["text"]
    assert changed, "the split makes something private in this record"
    studio_private = sorted(
        [t.head, t.relation, t.tail]
        for t in {t.key: t for t in ws.scoped_triples() if t.key in ws.definition.private}.values()
        if t.doc_id != _query_id
    )
    cli_private = sorted({tuple(p) for ctx in ctxs for p in ctx["private"]})
    assert sorted({tuple(p) for p in studio_private}) == cli_private

    figures = json.loads((tmp_path / "out.eval.jsonl").read_text(encoding="utf-8"))
    assert figures["problems"] == []
    evaluation = evaluation_from_dict(figures["evaluation"])
    assert _without_seconds(summarize([evaluation])) == _without_seconds(run.metrics["overall"])
    assert [list(k) for k in evaluation.connected] == run.metrics["connected"]
    assert evaluation.infer == run.metrics["in_d_infer"]
    per_doc = {
        d.doc_id: {"private": d.private_before, "public": d.public_before, "r_pri": d.r_pri, "r_pub": d.r_pub}
        for d in evaluation.docs
    }
    studio_per_doc = {
        doc_id: {k: m[k] for k in ("private", "public", "r_pri", "r_pub")}
        for doc_id, m in run.metrics["per_doc"].items()
    }
    assert per_doc == studio_per_doc
    metrics = json.loads((tmp_path / "out.metrics.json").read_text(encoding="utf-8"))
    for name in ("r_pri", "r_pub", "r_connect", "leak_check"):
        assert metrics[name] == run.metrics["overall"][name]
    assert metrics["passage_problems"] == []


# ------------------------------------------------------------------ no passage stops a batch


class FailsOn:
    """A real eraser or extractor that raises on passages containing `marker`."""

    def __init__(self, inner: object, marker: str) -> None:
        self.inner = inner
        self.marker = marker
        self.name = getattr(inner, "name", "wrapped")
        self.trained = getattr(inner, "trained", True)

    def erase(self, request: EraseRequest, progress: object = None) -> Iterator[Rewrite]:
        for document in request.documents:
            if self.marker in document.text:
                raise RuntimeError(f"model output unreadable for {document.id}")
            yield from self.inner.erase(  # type: ignore[attr-defined]
                EraseRequest(
                    (document,), tuple(request.triples_of(document.id)), request.definition, request.query
                )
            )

    def extract_many(self, items, progress=None, titles=None) -> list[Triple]:
        for _doc_id, text in items:
            if self.marker in text:
                raise IndexError("string index out of range")
        return self.inner.extract_many(items, progress=progress, titles=titles)  # type: ignore[attr-defined]

    def extract(self, doc_id: str, text: str) -> list[Triple]:
        return self.extract_many([(doc_id, text)])


@pytest.fixture(scope="module")
def popqa_set():
    from core.eraser4rag.erasers.batch import record_set

    line = SLICE.read_text(encoding="utf-8").splitlines()[0]
    return record_set(json.loads(line), SLICE.name, 1)


def test_a_passage_that_fails_to_extract_or_erase_is_reported_and_the_set_goes_on(popqa_set) -> None:
    settings = Settings()
    real = tools_for(settings)
    documents = [d for d in popqa_set.documents if d.text.strip()]
    bad_extract, bad_erase = documents[1], documents[0]
    extractor = FailsOn(real.extractor, bad_extract.text[:40])
    tools = Tools(extractor, real.evaluator, real.parse)  # type: ignore[arg-type]
    eraser = FailsOn(get_eraser("graph-guided", settings), bad_erase.text[:40])
    result = erase_retrieval_set(popqa_set, SplitRecipe(0.5, 0), eraser, tools, verify=True)  # type: ignore[arg-type]

    by_stage = {p.stage: p for p in result.problems}
    assert set(by_stage) == {"extract", "erase"}
    assert by_stage["extract"].doc_id == bad_extract.id and "IndexError" in by_stage["extract"].reason
    assert by_stage["erase"].doc_id == bad_erase.id and "unreadable" in by_stage["erase"].reason
    assert [r.doc_id for r in result.rewrites] == [d.id for d in popqa_set.documents]
    rewrites = {r.doc_id: r for r in result.rewrites}
    assert rewrites[bad_extract.id].text == bad_extract.text  # carried through unchanged
    # the eraser's failure is reported; verify-and-repair still removed what the passage leaked
    assert rewrites[bad_erase.id].original == bad_erase.text and rewrites[bad_erase.id].repairs
    assert any(r.text != r.original for r in result.rewrites), "the other passages were erased"
    assert result.evaluation is not None
    graded = {d.doc_id for d in result.evaluation.docs}
    assert bad_extract.id not in graded and bad_erase.id in graded
    assert isinstance(result.problems[0], PassageProblem)


def test_batch_reports_a_failing_passage_in_out_metrics_and_summary_and_finishes(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    from core.cli import main
    from core.eraser4rag.erasers import batch

    lines = SLICE.read_text(encoding="utf-8").splitlines()
    source = tmp_path / "two.jsonl"
    source.write_text(lines[0] + "\n" + lines[2] + "\n", encoding="utf-8")
    first = json.loads(lines[0])
    texts = [ctx["text"] for ctx in first["ctxs"]]

    def unique(text: str) -> bool:  # a passage whose opening no other passage of the record holds
        return bool(text.strip()) and sum(text.strip()[:40] in other for other in texts) == 1

    bad = next(ctx for ctx in first["ctxs"] if unique(ctx["text"]))
    marker = bad["text"].strip()[:40]
    real_eraser_for = batch.eraser_for
    monkeypatch.setattr(
        batch, "eraser_for", lambda name, settings: FailsOn(real_eraser_for(name, settings), marker)
    )
    out = tmp_path / "out.jsonl"
    assert main(["erase", str(source), "--out", str(out), "--eraser", "graph-guided"]) == 0
    printed = capsys.readouterr().out

    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 2, "the second record was erased after the failing passage"
    position = first["ctxs"].index(bad)
    ctx = records[0]["ctxs"][position]
    assert ctx["problems"] == [{"stage": "erase", "reason": ctx["problems"][0]["reason"]}]
    assert "unreadable" in ctx["problems"][0]["reason"]
    assert ctx["text"].strip() == bad["text"].strip()
    metrics = json.loads((tmp_path / "out.metrics.json").read_text(encoding="utf-8"))
    [problem] = metrics["passage_problems"]
    assert problem["where"] == "two.jsonl, line 1" and problem["question"] == first["question"]
    assert problem["passage_id"] == str(bad["id"]) and problem["ctx"] == position
    assert problem["stage"] == "erase" and "unreadable" in problem["reason"]
    assert metrics["sets"] == 2
    assert "1 passage problem(s)" in printed
    assert f"two.jsonl, line 1 ({first['question']!r}), ctxs[{position}] (passage {bad['id']})" in printed


def test_an_endpoint_failing_on_every_passage_to_change_stops_the_batch_resumably() -> None:
    """A passage-level failure is reported; an endpoint down for the whole record is no passage's fault."""
    from core.eraser4rag.erasers.batch import _stop_when_the_eraser_is_down
    from core.eraser4rag.erasers.pipeline import SetResult, build_request
    from core.llm import ChatError
    from core.types import Document, Query, RetrievalSet

    documents = (
        Document("d0", "Mara Voss", "Mara Voss lives in Harrow Vale."),
        Document("d1", "Harrow Vale", "Harrow Vale is a town."),
    )
    retrieval_set = RetrievalSet(Query("q", "Where does Mara Voss live?", (), ("d0", "d1")), documents)
    triples = [
        Triple("Mara Voss", "residence", "Harrow Vale", "d0", (0, 30)),
        Triple("Harrow Vale", "instance_of", "town", "d1", (0, 22)),
    ]
    request = build_request(retrieval_set, triples, {triples[0].key})
    assert request.private_keys_of("d0") and not request.private_keys_of("d1")

    def result(error: Exception) -> SetResult:
        problem = PassageProblem("d0", "erase", str(error), error)
        return SetResult(retrieval_set, request, (), None, (problem,))

    with pytest.raises(ChatError, match="connection refused"):
        _stop_when_the_eraser_is_down(result(ChatError("connection refused")))
    _stop_when_the_eraser_is_down(result(RuntimeError("unreadable output")))  # one passage's problem

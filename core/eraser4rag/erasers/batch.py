"""Batch erasure of retrieval files: one record = one retrieval set = one global graph.

`erase_file(IN, OUT, options)` reads retriever records (`{"question", "answers",
"ctxs": [{"title", "text", ...}]}`) and runs each through the erasure pipeline
(`core.eraser4rag.erasers.pipeline`, the same steps as the studio's Rewrite tab): the record is cleaned
as the studio's loader cleans it, the triples of its passages and question are extracted
(titles passed), the paper's connected random private split (ratio, seed) is drawn and
filtered, the eraser runs (and verify-and-repair), the rewrites are graded with the
evaluating extractor and, when asked, the question is answered from the original and the
rewritten passages. OUT keeps each record as it was except each ctx's `text` (the rewrite of
the cleaned text) and four added fields: `original_text`, `private`, `public`, `repairs`.

No passage stops the batch: a passage that cannot be extracted, erased, verified or graded
is carried through unchanged and reported (record line, question, passage id, stage,
reason) in its ctx's `problems`, in the figures and in the metrics (`passage_problems`). A
passage that the eraser did partly by a fallback (eraser4rag's rejected edit script) is
reported the same way, stage "fallback", and counted in `passages_with_fallback`.
Only an eraser that fails on every passage of a record with a model or endpoint error stops
the run, which the same command then resumes.

Resumable: OUT and its sidecar `<OUT stem>.eval.jsonl` (per-record figures) grow one
line per record; a rerun skips the records both already hold. `<OUT stem>.metrics.json`
is rewritten at the end from every record's figures. Passages with empty text are
carried through unchanged and counted. Records that are not retriever records are skipped
and named by file and line.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.documents import InputError, retriever_record
from core.eraser4rag.erasers import Eraser, EraseRequest, EraserError, Rewrite, get_eraser
from core.eraser4rag.erasers.answer import answer_is_correct, answer_question
from core.eraser4rag.erasers.evaluation import DocEvaluation, SetEvaluation, summarize
from core.eraser4rag.erasers.pipeline import (
    ERASE,
    FALLBACK,
    PassageProblem,
    SetResult,
    SplitRecipe,
    erase_retrieval_set,
    extract_set,
    tools_for,
)
from core.eraser4rag.erasers.pipeline import build_request as pipeline_request
from core.eraser4rag.erasers.pipeline import eval_extractor_name as pipeline_eval_name
from core.extract import Extractor
from core.llm import ChatError
from core.model_loading import ModelUnavailable
from core.settings import Settings
from core.types import RetrievalSet, Triple, TripleKey

# errors of a model or endpoint rather than of a passage
SERVICE_ERRORS = (ChatError, ModelUnavailable)


class BatchInputError(ValueError):
    """A record of the input file cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class EraseOptions:
    eraser: str = "graph-guided"
    verify: bool = False
    ratio: float = 0.25
    seed: int = 0
    eval_extractor: str = ""  # "" = the defining extractor (settings.extractor)
    answer: bool = False
    settings: Settings = field(default_factory=Settings)

    def recipe(self) -> SplitRecipe:
        return SplitRecipe(self.ratio, self.seed, self.settings.split_method)


def sidecar_paths(out: Path) -> tuple[Path, Path]:
    """(per-record figures, metrics) beside OUT: `x.jsonl` -> `x.eval.jsonl`, `x.metrics.json`."""
    stem = out.name[: -len(".jsonl")] if out.name.endswith(".jsonl") else out.name
    return out.with_name(stem + ".eval.jsonl"), out.with_name(stem + ".metrics.json")


# ---------------------------------------------------------------- one record


def record_set(record: Any, file: str, line: int) -> RetrievalSet:
    """The record as the studio loads line `line` of `file` (cleaned, same ids); BatchInputError if bad."""
    try:
        return retriever_record(record, file, line)
    except InputError as exc:
        raise BatchInputError(str(exc)) from None


def build_request(
    record: dict[str, Any],
    where: str,
    extractor: Extractor,
    ratio: float,
    seed: int,
    method: str = "connected",
) -> EraseRequest:
    """The record's global graph, its random split (connected by default) and the filtered definition.

    `where` ("file, line N" or "file line N") names the record in errors and gives its ids."""
    file, line = _place(where)
    retrieval_set = record_set(record, file, line)
    triples, _problems = extract_set(retrieval_set, extractor)
    return pipeline_request(retrieval_set, triples, SplitRecipe(ratio, seed, method))


def _place(where: str) -> tuple[str, int]:
    file, _, line = where.replace(", line ", " line ").rpartition(" line ")
    return (file, int(line)) if file and line.isdigit() else (where, 1)


@lru_cache(maxsize=4)
def eraser_for(name: str, settings: Settings) -> Eraser:
    """Erasers built once per process (also inside each Ray worker)."""
    return get_eraser(name, settings)


def eval_extractor_name(options: EraseOptions) -> str:
    return pipeline_eval_name(options.settings, options.eval_extractor)


def process_record(record: dict[str, Any], file: str, line: int, options: EraseOptions) -> dict[str, Any]:
    """OUT's record and the figures of one record (JSON-ready). A passage that cannot be extracted,
    erased, verified or graded is carried through and listed in `problems`; the record goes on."""
    started = time.perf_counter()
    where = f"{file}, line {line}"
    retrieval_set = record_set(record, file, line)
    eraser = eraser_for(options.eraser, options.settings)
    tools = tools_for(options.settings, options.eval_extractor)
    result = erase_retrieval_set(retrieval_set, options.recipe(), eraser, tools, options.verify)
    _stop_when_the_eraser_is_down(result)
    erase_seconds = time.perf_counter() - started
    problems = [problem_dict(p, retrieval_set, record, where, line) for p in result.problems]
    figures: dict[str, Any] = {
        "where": where,
        "evaluation": evaluation_to_dict(result.evaluation) if result.evaluation is not None else None,
        "seconds": erase_seconds,
        "documents": len(retrieval_set.documents),
        "problems": problems,
    }
    if options.answer and retrieval_set.query.answers:
        figures.update(_accuracy(retrieval_set, list(result.rewrites), options.settings))
    return {"record": output_record(record, result, problems), "figures": figures}


def _stop_when_the_eraser_is_down(result: SetResult) -> None:
    """A model that cannot load or an endpoint that fails on every passage to change is no passage's
    fault: the batch stops there (resumable) instead of carrying every passage through unchanged."""
    request = result.request
    needing = {d.id for d in request.documents if d.text.strip() and request.private_keys_of(d.id)}
    failed = {p.doc_id: p.error for p in result.problems if p.stage == ERASE}
    if needing and needing <= set(failed) and all(isinstance(failed[i], SERVICE_ERRORS) for i in needing):
        raise failed[min(needing)]  # type: ignore[misc]


def problem_dict(
    problem: PassageProblem, retrieval_set: RetrievalSet, record: dict[str, Any], where: str, line: int
) -> dict[str, Any]:
    """A problem as OUT, the figures and the metrics report it: which record, question and passage."""
    query = retrieval_set.query
    position = next((j for j, d in enumerate(retrieval_set.documents) if d.id == problem.doc_id), None)
    ctx = record["ctxs"][position] if position is not None else {}
    passage = str(ctx["id"]) if isinstance(ctx, dict) and isinstance(ctx.get("id"), (str, int)) else None
    return {
        "where": where,
        "line": line,
        "question_id": query.id,
        "question": query.text,
        "doc_id": problem.doc_id,
        "ctx": position,
        "passage_id": passage,
        "title": retrieval_set.documents[position].title if position is not None else "",
        "stage": problem.stage,
        "reason": problem.reason,
    }


def _accuracy(retrieval_set: RetrievalSet, rewrites: list[Rewrite], settings: Settings) -> dict[str, Any]:
    query = retrieval_set.query
    titles = [d.title for d in retrieval_set.documents]
    original = answer_question(query.text, titles, [d.text for d in retrieval_set.documents], settings)
    rewritten = answer_question(query.text, titles, [r.text for r in rewrites], settings)
    return {
        "answer_original": original,
        "answer_rewritten": rewritten,
        "correct_original": answer_is_correct(original, query.answers),
        "correct_rewritten": answer_is_correct(rewritten, query.answers),
    }


def output_record(
    record: dict[str, Any], result: SetResult, problems: list[dict[str, Any]]
) -> dict[str, Any]:
    """The record as it came, each ctx's text replaced by its rewrite (as the studio cleaned and
    rewrote it) with the original, its private and public triples, repairs and problems beside it."""
    out = copy.deepcopy(record)
    request = result.request
    by_doc: dict[str, dict[TripleKey, Triple]] = {}
    for triple in request.triples:
        by_doc.setdefault(triple.doc_id, {}).setdefault(triple.key, triple)
    for ctx, rewrite in zip(out["ctxs"], result.rewrites, strict=True):
        occurrences = by_doc.get(rewrite.doc_id, {})
        ctx["original_text"] = ctx.get("text") or ""
        ctx["text"] = rewrite.text  # of the text as the studio cleans it (entities decoded, title apart)
        ctx["private"] = _surface(occurrences, request.definition.private)
        ctx["public"] = _surface(occurrences, request.definition.public)
        ctx["repairs"] = list(rewrite.repairs)
        mine = [_short(p) for p in problems if p["doc_id"] == rewrite.doc_id]
        if mine:
            ctx["problems"] = mine
    question_problems = [_short(p) for p in problems if p["ctx"] is None]
    if question_problems:
        out["problems"] = question_problems
    return out


def _short(problem: dict[str, Any]) -> dict[str, str]:
    return {"stage": problem["stage"], "reason": problem["reason"]}


def _surface(occurrences: dict[TripleKey, Triple], keys: frozenset[TripleKey]) -> list[list[str]]:
    return [[t.head, t.relation, t.tail] for key, t in sorted(occurrences.items()) if key in keys]


def evaluation_to_dict(evaluation: SetEvaluation) -> dict[str, Any]:
    data = asdict(evaluation)
    data.pop("rewritten_triples")
    return data


def evaluation_from_dict(data: dict[str, Any]) -> SetEvaluation:
    docs = tuple(
        DocEvaluation(**{**doc, "leaked": tuple(tuple(k) for k in doc["leaked"])}) for doc in data["docs"]
    )
    return SetEvaluation(
        docs=docs,
        private_total=data["private_total"],
        connected=tuple(tuple(k) for k in data["connected"]),  # type: ignore[misc]
        special_private=tuple(tuple(k) for k in data["special_private"]),  # type: ignore[misc]
        infer=data["infer"],
    )


# ---------------------------------------------------------------- the file


def read_records(path: Path) -> Iterator[tuple[int, dict[str, Any] | BatchInputError]]:
    """(line number, record or the error naming file and line) of every non-blank line."""
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                yield number, BatchInputError(f"{path.name}, line {number}: not JSON ({exc.msg})")
                continue
            if not isinstance(record, dict):
                yield number, BatchInputError(f"{path.name}, line {number}: a record must be a JSON object")
                continue
            yield number, record


def _done_count(out: Path, figures_path: Path) -> int:
    """Records already complete in both files; a half-written tail is cut off."""
    if not out.exists() or not figures_path.exists():
        for path in (out, figures_path):
            path.unlink(missing_ok=True)
        return 0
    out_lines = out.read_text(encoding="utf-8").splitlines()
    fig_lines = figures_path.read_text(encoding="utf-8").splitlines()
    done = min(len(out_lines), len(fig_lines))
    out.write_text("".join(line + "\n" for line in out_lines[:done]), encoding="utf-8")
    figures_path.write_text("".join(line + "\n" for line in fig_lines[:done]), encoding="utf-8")
    return done


Item = tuple[dict[str, Any], str, int]  # (record, file name, line)
Runner = Callable[[list[Item], EraseOptions], Iterator[dict[str, Any]]]


def run_plain(items: list[Item], options: EraseOptions) -> Iterator[dict[str, Any]]:
    for record, file, line in items:
        yield process_record(record, file, line, options)


def good_records(in_path: Path) -> tuple[list[Item], list[str]]:
    """The retriever records of IN and the errors of the lines that are not (skipped)."""
    items: list[Item] = []
    errors: list[str] = []
    for number, record in read_records(in_path):
        if isinstance(record, BatchInputError):
            errors.append(str(record))
            continue
        try:
            record_set(record, in_path.name, number)
        except BatchInputError as exc:
            errors.append(str(exc))
            continue
        items.append((record, in_path.name, number))
    return items, errors


def erase_file(
    in_path: Path,
    out_path: Path,
    options: EraseOptions,
    runner: Runner = run_plain,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """Erase every record of IN into OUT; returns the metrics and the input errors (skipped records)."""
    figures_path, metrics_path = sidecar_paths(out_path)
    records, errors = good_records(in_path)
    done = _done_count(out_path, figures_path)
    todo = records[done:]
    started = time.perf_counter()
    processed_docs = 0
    with out_path.open("a", encoding="utf-8") as out, figures_path.open("a", encoding="utf-8") as figs:
        try:
            for count, result in enumerate(runner(todo, options), start=1):
                out.write(json.dumps(result["record"], ensure_ascii=False) + "\n")
                figs.write(json.dumps(result["figures"], ensure_ascii=False) + "\n")
                out.flush()
                figs.flush()
                processed_docs += result["figures"]["documents"]
                if progress is not None:
                    progress(done + count, len(records))
        except (EraserError, ChatError, ModelUnavailable, BatchInputError) as exc:
            # records finished so far stay in OUT; the same command resumes after the failing one
            errors.append(f"stopped: {exc}; the records before it are saved: run the same command to resume")
    wall = time.perf_counter() - started
    metrics = metrics_from_figures(figures_path, processed_docs, wall, options)
    metrics["input_errors"] = errors
    metrics_path.write_text(json.dumps(metrics, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return metrics, errors


def metrics_from_figures(
    figures_path: Path, processed_docs: int, wall_seconds: float, options: EraseOptions
) -> dict[str, Any]:
    lines = figures_path.read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    evaluations = [evaluation_from_dict(row["evaluation"]) for row in rows if row.get("evaluation")]
    metrics: dict[str, Any] = summarize(evaluations)
    problems = [problem for row in rows for problem in row.get("problems", [])]
    metrics["passage_problems"] = problems
    metrics["passages_with_problems"] = len({(p["where"], p["doc_id"]) for p in problems})
    fell_back = {(p["where"], p["doc_id"]) for p in problems if p["stage"] == FALLBACK}
    metrics["passages_with_fallback"] = len(fell_back)  # eraser4rag: a rejected edit script
    metrics["records_not_graded"] = sum(1 for row in rows if not row.get("evaluation"))
    if processed_docs and wall_seconds > 0:
        metrics["docs_per_s"] = processed_docs / wall_seconds
    else:  # everything was resumed: the per-record processing times recorded then
        seconds = sum(row["seconds"] for row in rows)
        metrics["docs_per_s"] = sum(row["documents"] for row in rows) / seconds if seconds else None
    answered = [row for row in rows if "correct_original" in row]
    if options.answer:
        metrics["answered"] = len(answered)
        metrics["accuracy_original"] = _mean(row["correct_original"] for row in answered)
        metrics["accuracy_rewritten"] = _mean(row["correct_rewritten"] for row in answered)
    metrics["eraser"] = options.eraser
    metrics["verify"] = options.verify
    metrics["ratio"] = options.ratio
    metrics["seed"] = options.seed
    metrics["split_method"] = options.settings.split_method
    metrics["extractor"] = options.settings.extractor
    metrics["eval_extractor"] = eval_extractor_name(options)
    return metrics


def _mean(values: Any) -> float | None:
    values = [float(v) for v in values]
    return sum(values) / len(values) if values else None

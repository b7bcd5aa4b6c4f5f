"""Batch erasure of retrieval files: one record = one retrieval set = one global graph.

`erase_file(IN, OUT, options)` reads retriever records (`{"question", "answers",
"ctxs": [{"title", "text", ...}]}`), and for each record independently: extracts the
triples of its passages and question, draws the paper's connected random private split
(ratio, seed), filters it, runs the eraser (and verify-and-repair), grades the rewrites
with the evaluating extractor and, when asked, answers the question from the original
and the rewritten passages. OUT keeps each record as it was except each ctx's `text`
(the rewrite) and four added fields: `original_text`, `private`, `public`, `repairs`.

Resumable: OUT and its sidecar `<OUT stem>.eval.jsonl` (per-record figures) grow one
line per record; a rerun skips the records both already hold. `<OUT stem>.metrics.json`
is rewritten at the end from every record's figures. Passages with empty text are
carried through unchanged and counted.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.erasers import Eraser, EraseRequest, EraserError, Rewrite, get_eraser
from core.erasers.answer import answer_is_correct, answer_question
from core.erasers.evaluation import DocEvaluation, SetEvaluation, evaluate_rewrites, summarize
from core.erasers.graph_guided import ParseCache
from core.erasers.verify import verify_and_repair
from core.extract import Extractor, get_extractor
from core.filters import define_privacy
from core.llm import ChatError
from core.models import ModelUnavailable
from core.settings import Settings
from core.split import connected_random_private_keys, random_private_keys
from core.types import Document, Query, Triple, TripleKey


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


def sidecar_paths(out: Path) -> tuple[Path, Path]:
    """(per-record figures, metrics) beside OUT: `x.jsonl` -> `x.eval.jsonl`, `x.metrics.json`."""
    stem = out.name[: -len(".jsonl")] if out.name.endswith(".jsonl") else out.name
    return out.with_name(stem + ".eval.jsonl"), out.with_name(stem + ".metrics.json")


# ---------------------------------------------------------------- one record


def record_documents(record: dict[str, Any], where: str) -> tuple[Query, tuple[Document, ...]]:
    question = record.get("question")
    ctxs = record.get("ctxs")
    if not isinstance(question, str) or not isinstance(ctxs, list):
        raise BatchInputError(f"{where}: a record needs 'question' (text) and 'ctxs' (a list)")
    documents = []
    for number, ctx in enumerate(ctxs):
        if not isinstance(ctx, dict) or not isinstance(ctx.get("text", ""), str):
            raise BatchInputError(f"{where}, ctxs[{number}]: a passage needs a 'text' string")
        documents.append(Document(f"ctx{number}", str(ctx.get("title", "")), ctx.get("text") or ""))
    answers = record.get("answers") or []
    if isinstance(answers, str):
        answers = [answers]
    query = Query("question", question, tuple(str(a) for a in answers), tuple(d.id for d in documents))
    return query, tuple(documents)


def build_request(
    record: dict[str, Any],
    where: str,
    extractor: Extractor,
    ratio: float,
    seed: int,
    method: str = "connected",
) -> EraseRequest:
    """The record's global graph, its random split (connected by default) and the filtered definition."""
    query, documents = record_documents(record, where)
    items = [(d.id, d.text) for d in documents if d.text.strip()]
    triples = extractor.extract_many(items) if items else []
    query_triples = extractor.extract(query.id, query.text) if query.text.strip() else []
    query_keys = {t.key for t in query_triples}
    keys = {t.key for t in triples} | query_keys
    sample = random_private_keys if method == "uniform" else connected_random_private_keys
    marked = sample(keys, ratio, seed, exclude=query_keys)
    definition = define_privacy(keys, marked, query_keys, max_paths=0)
    return EraseRequest(documents=documents, triples=tuple(triples), definition=definition, query=query)


@dataclass(frozen=True)
class Workers:
    extractor: Extractor
    evaluator: Extractor
    eraser: Eraser
    parse: ParseCache


def eval_extractor_name(options: EraseOptions) -> str:
    return options.eval_extractor or options.settings.eval_extractor or options.settings.extractor


@lru_cache(maxsize=4)
def workers_for(options: EraseOptions) -> Workers:
    """Models and erasers built once per process (also inside each Ray worker)."""
    settings = options.settings
    extractor = get_extractor(settings.extractor, settings)
    eval_name = eval_extractor_name(options)
    evaluator = extractor if eval_name == settings.extractor else get_extractor(eval_name, settings)
    eraser = get_eraser(options.eraser, settings)
    parse = getattr(eraser, "parse", None) or ParseCache(settings.spacy_model)
    return Workers(extractor, evaluator, eraser, parse)


def erase_request(
    request: EraseRequest, workers: Workers, verify: bool
) -> tuple[list[Rewrite], list[Triple] | None]:
    """Rewrites of every document (empty passages carried through), verified when asked."""
    texts = tuple(d for d in request.documents if d.text.strip())
    produced = {r.doc_id: r for r in workers.eraser.erase(replace(request, documents=texts))}
    rewrites = [produced.get(d.id) or _unchanged(d, workers.eraser.name) for d in request.documents]
    if not verify:
        return rewrites, None
    repaired, triples = verify_and_repair(request, rewrites, workers.extractor, workers.parse)
    return repaired, triples


def _unchanged(document: Document, eraser: str) -> Rewrite:
    return Rewrite(document.id, eraser, document.text, document.text, (), (), (), 0.0)


def process_record(record: dict[str, Any], where: str, options: EraseOptions) -> dict[str, Any]:
    """OUT's record and the figures of one record (JSON-ready)."""
    started = time.perf_counter()
    workers = workers_for(options)
    method = options.settings.split_method
    request = build_request(record, where, workers.extractor, options.ratio, options.seed, method)
    rewrites, verified_triples = erase_request(request, workers, options.verify)
    erase_seconds = time.perf_counter() - started
    reuse = verified_triples if workers.evaluator is workers.extractor else None
    evaluation = evaluate_rewrites(request, rewrites, workers.evaluator, reuse)
    figures: dict[str, Any] = {
        "where": where,
        "evaluation": evaluation_to_dict(evaluation),
        "seconds": erase_seconds,
        "documents": len(request.documents),
    }
    if options.answer and request.query is not None and request.query.answers:
        figures.update(_accuracy(request, rewrites, options.settings))
    return {"record": output_record(record, request, rewrites), "figures": figures}


def _accuracy(request: EraseRequest, rewrites: list[Rewrite], settings: Settings) -> dict[str, Any]:
    assert request.query is not None
    titles = [d.title for d in request.documents]
    original = answer_question(request.query.text, titles, [d.text for d in request.documents], settings)
    rewritten = answer_question(request.query.text, titles, [r.text for r in rewrites], settings)
    return {
        "answer_original": original,
        "answer_rewritten": rewritten,
        "correct_original": answer_is_correct(original, request.query.answers),
        "correct_rewritten": answer_is_correct(rewritten, request.query.answers),
    }


def output_record(record: dict[str, Any], request: EraseRequest, rewrites: list[Rewrite]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    by_doc: dict[str, dict[TripleKey, Triple]] = {}
    for triple in request.triples:
        by_doc.setdefault(triple.doc_id, {}).setdefault(triple.key, triple)
    for ctx, rewrite in zip(out["ctxs"], rewrites, strict=True):
        occurrences = by_doc.get(rewrite.doc_id, {})
        ctx["original_text"] = ctx.get("text") or ""
        ctx["text"] = rewrite.text
        ctx["private"] = _surface(occurrences, request.definition.private)
        ctx["public"] = _surface(occurrences, request.definition.public)
        ctx["repairs"] = list(rewrite.repairs)
    return out


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


Runner = Callable[[list[tuple[dict[str, Any], str]], EraseOptions], Iterator[dict[str, Any]]]


def run_plain(items: list[tuple[dict[str, Any], str]], options: EraseOptions) -> Iterator[dict[str, Any]]:
    for record, where in items:
        yield process_record(record, where, options)


def erase_file(
    in_path: Path,
    out_path: Path,
    options: EraseOptions,
    runner: Runner = run_plain,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """Erase every record of IN into OUT; returns the metrics and the input errors (skipped records)."""
    figures_path, metrics_path = sidecar_paths(out_path)
    entries = list(read_records(in_path))
    errors = [str(e) for _n, e in entries if isinstance(e, BatchInputError)]
    records = [(r, f"{in_path.name}, line {n}") for n, r in entries if not isinstance(r, BatchInputError)]
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
    evaluations = [evaluation_from_dict(row["evaluation"]) for row in rows]
    metrics: dict[str, Any] = summarize(evaluations)
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

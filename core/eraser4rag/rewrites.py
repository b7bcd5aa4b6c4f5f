"""Rewrite runs: what one eraser made of one retrieval set, kept with the definition it came from.

A `RewriteRun` holds one eraser's rewrites of the documents in scope, the per-document
problems met on the way (an endpoint that failed, an empty rewrite), the metrics computed
once when the run finished, and the fingerprint of the privacy definition and document
texts it was computed from. A run is *stale* when that fingerprint no longer matches the
workspace: the definition or a document changed since. Stale runs are kept and shown as
stale; nothing re-runs an eraser except an explicit request (`run_eraser`).

`run_eraser` streams: it yields the run after each rewritten document, so a caller can show
progress and keep what is done when a later document fails.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from core.eraser4rag.erasers import RULE_ERASERS
from core.eraser4rag.erasers.base import Eraser, EraseRequest, Rewrite
from core.eraser4rag.erasers.evaluation import SetEvaluation, summarize
from core.eraser4rag.erasers.pipeline import VERIFY, Evaluate, PassageProblem, Verify, finish, rewrite_each
from core.eraser4rag.filters import PrivacyDefinition
from core.eraser4rag.graph import adjacency, shortest_path
from core.types import Document, Progress, Query, TripleKey, triple_to_dict

# Verify-and-repair and grading come as hooks (`Verify`, `Evaluate`; the pipeline's `Tools` gives
# the studio's), so this module builds no extractor or model.

NO_DEFINITION = "no-definition"


@dataclass(frozen=True)
class DocProblem:
    """Something that went wrong for one document; `message` names it and says what to do."""

    doc_id: str
    message: str


@dataclass(frozen=True)
class RewriteRun:
    eraser: str
    verify: bool
    trained: bool
    fingerprint: str  # of the definition and document texts the run was computed from
    doc_ids: tuple[str, ...]  # the documents asked for, in order
    rewrites: tuple[Rewrite, ...] = ()
    problems: tuple[DocProblem, ...] = ()
    # {"overall": {...}, "per_doc": {doc_id: {...}}}: computed once, when the run completed
    metrics: dict[str, Any] = field(default_factory=dict)
    # downstream utility, computed only when asked: {"original": x, "rewritten": y, "records": n, ...}
    accuracy: dict[str, Any] = field(default_factory=dict)
    created_at: str = ""
    definition_name: str = "default"

    @property
    def label(self) -> str:
        return run_label(self.eraser, self.verify)

    def rewrite_of(self, doc_id: str) -> Rewrite | None:
        for rewrite in self.rewrites:
            if rewrite.doc_id == doc_id:
                return rewrite
        return None

    def missing(self) -> tuple[str, ...]:
        """Documents asked for that have no rewrite yet (the run stopped before them)."""
        done = {r.doc_id for r in self.rewrites}
        return tuple(d for d in self.doc_ids if d not in done)

    @property
    def complete(self) -> bool:
        return not self.missing()

    def seconds(self) -> float:
        return sum(r.seconds for r in self.rewrites)


def run_label(eraser: str, verify: bool) -> str:
    """The name a run is kept and shown under: the eraser, plus "+ verify" when repaired."""
    return f"{eraser} + verify" if verify else eraser


def fingerprint(
    definition: PrivacyDefinition | None, scope_keys: Iterable[TripleKey], documents: Iterable[Document]
) -> str:
    """A short digest of the part of the definition that touches `scope_keys`, and of the texts.

    Restricting to the scope means a mark in another retrieval set leaves this set's runs fresh.
    """
    if definition is None:
        return NO_DEFINITION
    scope = set(scope_keys)
    digest = hashlib.sha256()
    for name, keys in (
        ("private", definition.private),
        ("public", definition.public),
        ("excluded", definition.excluded),
    ):
        digest.update(name.encode())
        for key in sorted(keys & scope):
            digest.update("\x1f".join(key).encode() + b"\x1e")
    for doc in sorted(documents, key=lambda d: d.id):
        digest.update(b"\x1d" + doc.id.encode() + b"\x1f" + doc.text.encode())
    return digest.hexdigest()[:20]


def utc_timestamp() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def describe(doc: Document) -> str:
    """How messages name a document: its title and id."""
    return f"{doc.title!r} [{doc.id}]" if doc.title and doc.title != doc.id else f"[{doc.id}]"


def check_request(request: EraseRequest) -> None:
    """Refuse a request no eraser can do anything useful with, naming what to change."""
    if not request.documents:
        raise ValueError("no documents to rewrite: load documents in the Documents tab first")
    if not request.definition.private:
        names = ", ".join(describe(d) for d in request.documents[:3])
        more = f" and {len(request.documents) - 3} more" if len(request.documents) > 3 else ""
        raise ValueError(
            f"the privacy definition has no private triple in these documents ({names}{more}): "
            "mark triples private in the Knowledge graph tab, then run the eraser again"
        )


def start_run(
    eraser: Eraser,
    request: EraseRequest,
    verify: bool,
    fingerprint_value: str,
    previous: RewriteRun | None = None,
    definition_name: str = "default",
) -> RewriteRun:
    """A run to fill: the fresh part of `previous` when it has the same fingerprint, else empty."""
    doc_ids = tuple(d.id for d in request.documents)
    if previous is not None and previous.fingerprint == fingerprint_value:
        kept = tuple(r for r in previous.rewrites if r.doc_id in doc_ids)
        kept_ids = {r.doc_id for r in kept}
        # a kept rewrite keeps its problem (an empty rewrite); the failure that stopped the run goes
        problems = tuple(p for p in previous.problems if p.doc_id in kept_ids)
        return replace(
            previous, doc_ids=doc_ids, rewrites=kept, problems=problems, metrics={}, trained=eraser.trained
        )
    return RewriteRun(
        eraser=eraser.name,
        verify=verify,
        trained=eraser.trained,
        fingerprint=fingerprint_value,
        doc_ids=doc_ids,
        created_at=utc_timestamp(),
        definition_name=definition_name,
    )


def run_eraser(
    eraser: Eraser,
    request: EraseRequest,
    run: RewriteRun,
    verify: Verify | None = None,
    evaluate: Evaluate | None = None,
    progress: Progress | None = None,
) -> Iterator[RewriteRun]:
    """Rewrite the documents `run` still misses; yield the run after each document.

    The steps are the erasure pipeline's (`core.eraser4rag.erasers.pipeline`: `rewrite_each`, then `finish`).
    A failure (an endpoint that stops answering, a model error) ends the run with a problem
    naming the document it stopped at; every rewrite made before it is kept, and running
    again continues from there. Verify-and-repair and the metrics follow once every document
    has its rewrite; a document either of them fails on is listed as a problem and left out of
    that step only.
    """
    by_id = {doc.id: doc for doc in request.documents}
    todo = tuple(by_id[d] for d in run.missing())
    total = len(run.doc_ids)
    done = total - len(todo)
    if todo:
        rewrites = list(run.rewrites)
        problems = list(run.problems)
        for item in rewrite_each(eraser, replace(request, documents=todo)):
            if isinstance(item, PassageProblem):
                stopped_at = by_id[item.doc_id]
                problems.append(DocProblem(stopped_at.id, _failure_message(eraser.name, stopped_at, item)))
                yield replace(run, rewrites=_in_order(rewrites, run.doc_ids), problems=tuple(problems))
                return
            rewrites.append(item)
            problem = _empty_rewrite_problem(eraser.name, by_id.get(item.doc_id), item)
            if problem is not None:
                problems.append(problem)
            problems += _fallback_problems(eraser.name, by_id.get(item.doc_id), item)
            done += 1
            if progress is not None:
                progress(done, total)
            run = replace(run, rewrites=_in_order(rewrites, run.doc_ids), problems=tuple(problems))
            yield run
    if not run.complete:
        return
    finished = finish(request, list(run.rewrites), verify if run.verify else None, evaluate)
    step_problems = tuple(
        DocProblem(p.doc_id, _step_message(by_id.get(p.doc_id), p)) for p in finished.problems
    )
    run = replace(
        run, rewrites=_in_order(finished.rewrites, run.doc_ids), problems=run.problems + step_problems
    )
    if finished.evaluation is not None:
        run = replace(run, metrics=metrics_dict(finished.evaluation))
    yield run


def metrics_dict(evaluation: SetEvaluation) -> dict[str, Any]:
    """The JSON form a run keeps: the paper's figures (all, D_special, D_infer), one row per document,
    and the triples re-extracted from the rewrites (for the graph of the rewritten set)."""
    summary = summarize([evaluation])
    docs = evaluation.docs
    summary["seconds_per_doc"] = sum(d.seconds for d in docs) / len(docs) if docs else None
    return {
        "overall": summary,
        "in_d_infer": evaluation.infer,
        "connected": [list(k) for k in evaluation.connected],
        "per_doc": {
            d.doc_id: {
                "private": d.private_before,
                "public": d.public_before,
                "r_pri": d.r_pri,
                "r_pub": d.r_pub,
                "leaked": len(d.leaked),
                "leak_check": len(d.leaked) / d.private_before if d.private_before else None,
                "special": d.special,
                "seconds": d.seconds,
            }
            for d in docs
        },
        "triples": [triple_to_dict(t) for t in evaluation.rewritten_triples],
    }


def surviving_connections(
    private_keys: Iterable[TripleKey], graph_keys: Iterable[TripleKey]
) -> dict[TripleKey, tuple[TripleKey, ...]]:
    """For each private triple whose head and tail stay connected in the rewritten graph (what
    r_connect counts), one shortest connecting path; a surviving private edge is its own path."""
    keys = set(graph_keys)
    adj = adjacency(keys)
    found: dict[TripleKey, tuple[TripleKey, ...]] = {}
    for key in sorted(set(private_keys)):
        if key in keys:
            found[key] = (key,)
            continue
        path = shortest_path(adj, key[0], key[2])
        if path:
            found[key] = path
    return found


def _in_order(rewrites: list[Rewrite], doc_ids: tuple[str, ...]) -> tuple[Rewrite, ...]:
    position = {doc_id: i for i, doc_id in enumerate(doc_ids)}
    latest: dict[str, Rewrite] = {r.doc_id: r for r in rewrites}
    return tuple(sorted(latest.values(), key=lambda r: position.get(r.doc_id, len(position))))


def _empty_rewrite_problem(eraser: str, doc: Document | None, rewrite: Rewrite) -> DocProblem | None:
    if rewrite.text.strip() or not rewrite.original.strip():
        return None
    name = describe(doc) if doc is not None else f"[{rewrite.doc_id}]"
    if eraser in RULE_ERASERS:
        return DocProblem(
            rewrite.doc_id,
            f"{eraser} removed every sentence of {name}: each stated a private fact, so the document "
            "would vanish from retrieval. Unmark some of its triples to keep part of it.",
        )
    return DocProblem(
        rewrite.doc_id,
        f"{eraser} returned an empty rewrite for {name}: the document would vanish from retrieval. "
        "Check the model or endpoint, or use graph-guided for this document.",
    )


def _fallback_problems(eraser: str, doc: Document | None, rewrite: Rewrite) -> list[DocProblem]:
    name = describe(doc) if doc is not None else f"[{rewrite.doc_id}]"
    return [
        DocProblem(rewrite.doc_id, f"{eraser} fell back for {name}: {reason}") for reason in rewrite.fallbacks
    ]


def _failure_message(eraser: str, doc: Document, problem: PassageProblem) -> str:
    reason = str(problem.error) if problem.error is not None and str(problem.error) else problem.reason
    return (
        f"{eraser} stopped at {describe(doc)}: {reason}. The rewrites made before it are kept; "
        "fix the cause (endpoint, model, settings) and press Run again to continue from this document."
    )


def _step_message(doc: Document | None, problem: PassageProblem) -> str:
    name = describe(doc) if doc is not None else f"[{problem.doc_id}]"
    step = "verify-and-repair" if problem.stage == VERIFY else "grading"
    return f"{step} failed for {name} and left it out: {problem.reason}"


# Downstream utility: answer(question, titles, texts) -> the reader's output.
Answer = Callable[[str, Sequence[str], Sequence[str]], str]
Correct = Callable[[str, Sequence[str]], bool]


def downstream_accuracy(
    queries: Iterable[Query],
    documents: Mapping[str, Document],
    run: RewriteRun,
    answer: Answer,
    is_correct: Correct,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Accuracy on the original and on the rewritten documents (the paper's Table 3), over the
    queries that carry gold answers and retrieved documents this run rewrote.

    A reader failure ends the measurement at that query: the queries answered before it are kept
    and the result says where it stopped (`stopped`), so running again can be decided knowingly.
    """
    chosen = [q for q in queries if q.answers and any(run.rewrite_of(d) for d in q.doc_ids)]
    if not chosen:
        raise ValueError(
            "no query carries gold answers for these documents: load retriever records with an "
            "'answers' field (question, answers, ctxs) in the Documents tab"
        )
    rows: list[dict[str, Any]] = []
    stopped = ""
    for done, query in enumerate(chosen, start=1):
        ids = [d for d in query.doc_ids if d in documents]
        titles = [documents[d].title for d in ids]
        rewritten = [(run.rewrite_of(d) or _unchanged(documents[d])).text for d in ids]
        try:
            original_output = answer(query.text, titles, [documents[d].text for d in ids])
            rewritten_output = answer(query.text, titles, rewritten)
        except (RuntimeError, ValueError, OSError) as exc:
            stopped = (
                f"the reader failed at query {query.text!r} [{query.id}]: {exc}. {len(rows)} of "
                f"{len(chosen)} queries were answered and are kept; fix the endpoint or model, then "
                "measure again."
            )
            break
        rows.append(
            {
                "query_id": query.id,
                "original": original_output,
                "rewritten": rewritten_output,
                "correct_original": is_correct(original_output, query.answers),
                "correct_rewritten": is_correct(rewritten_output, query.answers),
            }
        )
        if progress is not None:
            progress(done, len(chosen))
    answered = len(rows)
    return {
        "records": answered,
        "asked": len(chosen),
        "original": sum(r["correct_original"] for r in rows) / answered if answered else None,
        "rewritten": sum(r["correct_rewritten"] for r in rows) / answered if answered else None,
        "answers": rows,
        "stopped": stopped,
    }


def _unchanged(document: Document) -> Rewrite:
    return Rewrite(document.id, "", document.text, document.text, (), (), (), 0.0)

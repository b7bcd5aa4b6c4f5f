"""The annotation pipeline end to end, over any store with the `CandidateSink` methods
(`storage.annotation_store.AnnotationStore` in the studio): build tasks from retrieval
records, propose candidates from a model or an eraser, score them, store each at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from core.eraser4rag.annotation.candidates import (
    CandidateProposal,
    CandidateResult,
    CandidateSource,
    EraserSource,
    ModelSource,
    generate_candidates,
)
from core.eraser4rag.annotation.scoring import Scores, score_text
from core.eraser4rag.annotation.tasks import AnnotationTask, tasks_from_request, window_tasks
from core.eraser4rag.erasers import get_eraser
from core.eraser4rag.erasers.base import Rewrite
from core.eraser4rag.erasers.batch import BatchInputError, build_request, read_records
from core.eraser4rag.erasers.pipeline import tools_for
from core.eraser4rag.workspace import definition_name
from core.extract.base import Extractor
from core.llm import get_chat_client
from core.settings import Settings
from core.types import Progress


class CandidateSink(Protocol):
    def add_candidate(self, task_id: int, proposal: CandidateProposal, scores: Scores | None) -> int: ...


@dataclass
class CandidateRunReport:
    stored: int = 0
    passed: int = 0
    failed: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tokens_estimated: bool = False


def tasks_from_retrieval_file(
    path: Path,
    extractor: Extractor,
    ratio: float,
    seed: int,
    progress: Progress | None = None,
    window_sentences: int = 0,
) -> list[AnnotationTask]:
    """Tasks of every record of a retrieval JSONL file (each record its own graph and split):
    one per document holding a private triple, or with `window_sentences` > 0 one per window of
    that many sentences that mentions a private triple (`tasks.window_tasks`)."""
    records = [(n, r) for n, r in read_records(path)]
    bad = [str(r) for _, r in records if isinstance(r, BatchInputError)]
    if bad:
        raise ValueError(f"{path.name}: {len(bad)} bad record(s): " + "; ".join(bad[:5]))
    tasks: list[AnnotationTask] = []
    definition = f"random {ratio:.0%} seed {seed}"
    for done, (number, record) in enumerate(records, start=1):
        request = build_request(record, f"{path.name} line {number}", extractor, ratio, seed)  # type: ignore[arg-type]
        for task in tasks_from_request(request, batch=path.name, definition=definition):
            tasks.extend(window_tasks(task, window_sentences) if window_sentences > 0 else [task])
        if progress is not None:
            progress(done, len(records))
    return tasks


def tasks_from_workspace(workspace: Any, batch: str, window_sentences: int = 0) -> list[AnnotationTask]:
    """Tasks from a studio workspace's own marks: every scope (whole corpus or question) with
    private triples gives one task per document holding one (or per window, as above); the
    workspace's scope is left as it was."""
    tasks: list[AnnotationTask] = []
    in_view = workspace.scope
    scopes = [in_view, *[name or None for name in workspace.scope_marks if (name or None) != in_view]]
    try:
        for scope in scopes:
            workspace.set_scope(scope)
            if workspace.definition is None:
                continue
            request = workspace.rewrite_request()
            for task in tasks_from_request(request, batch=batch, definition=definition_name(scope)):
                tasks.extend(window_tasks(task, window_sentences) if window_sentences > 0 else [task])
    finally:
        workspace.set_scope(in_view)
    return tasks


def make_source(name: str, settings: Settings, verify: bool = False) -> CandidateSource:
    """ "model" (the configured chat endpoint, else the local model) or an eraser name."""
    if name == "model":
        return ModelSource(get_chat_client(settings), max_tokens=settings.rewriter_max_new_tokens)

    eraser = get_eraser(name, settings)
    return EraserSource(eraser, verifier(settings) if verify else None)


def verifier(settings: Settings) -> Callable[[AnnotationTask, str], tuple[str, tuple[str, ...]]]:
    """Verify-and-repair on one task's rewrite (re-extract, remove what still states a private triple)."""
    verify_and_repair = tools_for(settings).verify_with()  # the erasure pipeline's verify step

    def verify(task: AnnotationTask, text: str) -> tuple[str, tuple[str, ...]]:
        request = task.erase_request()
        rewrite = Rewrite(task.doc_id, "candidate", task.text, text, (), task.private, task.public, 0.0)
        repaired, _triples = verify_and_repair(request, [rewrite])
        return repaired[0].text, tuple(repaired[0].repairs)

    return verify


def run_candidates(
    sink: CandidateSink,
    tasks: Sequence[AnnotationTask],
    source: CandidateSource,
    evaluator: Extractor,
    settings: Settings,
    progress: Progress | None = None,
    cancelled: threading.Event | None = None,
) -> CandidateRunReport:
    """Propose, score and store a candidate per task; each lands in the store as soon as it is scored."""
    if any(task.id is None for task in tasks):
        raise ValueError("store the tasks first (their ids are missing)")
    report = CandidateRunReport()
    results: Iterable[CandidateResult] = generate_candidates(
        tasks,
        source,
        concurrency=settings.annotate_concurrency,
        retries=settings.annotate_retries,
        backoff_s=settings.annotate_backoff_s,
        progress=progress,
        cancelled=cancelled,
    )
    for result in results:
        if result.proposal is None:
            report.failed.append(result.error)
            continue
        scores = score_text(
            result.task,
            result.proposal.text,
            evaluator,
            settings.annotate_max_r_pri,
            settings.annotate_min_r_pub,
        )
        sink.add_candidate(result.task.id, result.proposal, scores)  # type: ignore[arg-type]
        report.stored += 1
        report.passed += int(scores.passed)
        report.prompt_tokens += result.proposal.prompt_tokens
        report.completion_tokens += result.proposal.completion_tokens
        report.tokens_estimated |= result.proposal.tokens_estimated
    return report

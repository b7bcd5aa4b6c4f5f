"""Candidate rewrites for annotation tasks: from a chat model (the paper's GPT-4o step,
through any OpenAI-compatible endpoint or the local model) or from any eraser of the studio
(so annotation works offline).

`generate_candidates` runs a source over tasks with bounded concurrency, retries failed
requests with exponential backoff, reports progress and yields each result as it lands,
so the caller can store it at once (a stopped run keeps everything already stored). Token
counts come from the endpoint's `usage` (estimated when it reports none). The API key
stays inside the chat client: no proposal, note or message carries it.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Protocol

from core.eraser4rag.annotation.tasks import AnnotationTask
from core.eraser4rag.erasers.base import Eraser, EraserError
from core.eraser4rag.erasers.prompted import clean_reply, format_triples, prompt_template
from core.llm import ChatClient, ChatError
from core.types import Progress

DEFAULT_PROMPT = "annotate_rewrite.txt"


@dataclass(frozen=True)
class CandidateProposal:
    source_kind: str  # model | eraser | person | import
    source: str  # e.g. "openai:gpt-4o", "eraser:graph-guided", an annotator's name
    text: str
    prompt: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tokens_estimated: bool = False
    seconds: float = 0.0
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class CandidateResult:
    task: AnnotationTask
    proposal: CandidateProposal | None
    error: str = ""  # set when every attempt failed
    attempts: int = 1


class CandidateSource(Protocol):
    source: str
    concurrency_safe: bool

    def propose(self, task: AnnotationTask) -> CandidateProposal: ...


def annotation_prompt(task: AnnotationTask, prompt_name: str = DEFAULT_PROMPT) -> str:
    """The Figure-4-style prompt: the document with its own g_i,pri and g_i,pub."""
    return prompt_template(prompt_name).format(
        private=format_triples(task.private), public=format_triples(task.public), document=task.text
    )


class ModelSource:
    """A chat model proposes the rewrite (one request per task)."""

    concurrency_safe = True

    def __init__(self, client: ChatClient, prompt_name: str = DEFAULT_PROMPT, max_tokens: int = 512) -> None:
        self.client = client
        self.prompt_name = prompt_name
        self.max_tokens = max_tokens
        self.source = client.name  # "openai:<model>" or "local:<model>": never the URL or key

    def propose(self, task: AnnotationTask) -> CandidateProposal:
        started = time.perf_counter()
        budget = min(self.max_tokens, len(task.text) // 3 + 32)
        messages = [{"role": "user", "content": annotation_prompt(task, self.prompt_name)}]
        reply = self.client.chat_with_usage(messages, max_tokens=budget, temperature=0.0)
        text = clean_reply(reply.text)
        notes = () if text else ("the model returned an empty rewrite",)
        return CandidateProposal(
            source_kind="model",
            source=self.source,
            text=text,
            prompt=self.prompt_name,
            prompt_tokens=reply.prompt_tokens,
            completion_tokens=reply.completion_tokens,
            tokens_estimated=reply.estimated,
            seconds=time.perf_counter() - started,
            notes=notes,
        )


class EraserSource:
    """An eraser of the studio proposes the rewrite (offline), optionally verified and repaired."""

    concurrency_safe = False  # spaCy pipelines and local models are used one call at a time

    def __init__(
        self,
        eraser: Eraser,
        verify: Callable[[AnnotationTask, str], tuple[str, tuple[str, ...]]] | None = None,
    ):
        self.eraser = eraser
        self.verify = verify
        self.source = f"eraser:{eraser.name}" + ("+verify" if verify is not None else "")

    def propose(self, task: AnnotationTask) -> CandidateProposal:
        started = time.perf_counter()
        rewrite = next(iter(self.eraser.erase(task.erase_request())))
        text, notes = rewrite.text, tuple(rewrite.notes)
        if self.verify is not None:
            text, repairs = self.verify(task, text)
            notes += repairs
        return CandidateProposal(
            source_kind="eraser",
            source=self.source,
            text=text,
            seconds=time.perf_counter() - started,
            notes=notes,
        )


def generate_candidates(
    tasks: Sequence[AnnotationTask],
    source: CandidateSource,
    concurrency: int = 4,
    retries: int = 3,
    backoff_s: float = 1.0,
    progress: Progress | None = None,
    cancelled: threading.Event | None = None,
) -> Iterator[CandidateResult]:
    """Each task's proposal (or its error after `retries` retries), in completion order."""
    workers = max(1, concurrency if source.concurrency_safe else 1)
    total = len(tasks)
    done = 0
    pending = list(tasks)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        running: dict[Future[CandidateResult], AnnotationTask] = {}
        while pending or running:
            while pending and len(running) < workers and not (cancelled and cancelled.is_set()):
                task = pending.pop(0)
                running[pool.submit(_with_retries, source, task, retries, backoff_s, cancelled)] = task
            if not running:
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                running.pop(future)
                done += 1
                if progress is not None:
                    progress(done, total)
                yield future.result()


def _with_retries(
    source: CandidateSource,
    task: AnnotationTask,
    retries: int,
    backoff_s: float,
    cancelled: threading.Event | None,
) -> CandidateResult:
    error = ""
    for attempt in range(1, retries + 2):
        try:
            return CandidateResult(task, source.propose(task), attempts=attempt)
        except (ChatError, EraserError) as exc:
            error = f"document {task.doc_id!r}: {exc}"
        if attempt <= retries and not (cancelled and cancelled.is_set()):
            # exponential backoff with jitter, so parallel workers do not retry in lock step
            time.sleep(backoff_s * 2 ** (attempt - 1) * (0.5 + random.random()))
    return CandidateResult(task, None, error=error, attempts=retries + 1)

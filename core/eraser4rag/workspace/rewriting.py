"""The rewrite runs of a workspace: each eraser's run over the scope's documents, kept with the
definition it came from (`definition_name`), fresh, stale or incomplete, and its downstream accuracy.

`Rewriting` is mixed into `core.eraser4rag.workspace.Workspace`: it reads the workspace's corpus, scope,
definition and triples and keeps the runs in `all_rewrite_runs`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from core.eraser4rag.erasers.base import Eraser, EraseRequest
from core.eraser4rag.erasers.pipeline import Tools
from core.eraser4rag.rewrites import (
    Answer,
    Correct,
    Evaluate,
    RewriteRun,
    Verify,
    check_request,
    downstream_accuracy,
    fingerprint,
    run_eraser,
    run_label,
    start_run,
)
from core.eraser4rag.workspace.scopes import definition_name
from core.eraser4rag.workspace.states import FRESH, INCOMPLETE, STALE
from core.types import Document, Progress


class Rewriting:
    """Rewrite runs of the current scope (a mixin of `Workspace`)."""

    all_rewrite_runs: dict[str, dict[str, RewriteRun]]
    scope: str | None
    definition: Any
    corpus: Any

    def rewritescope_name(self) -> str:
        """The name of the definition the current scope's rewrites are kept with (`definition_name`)."""
        return definition_name(self.scope)

    @property
    def rewrite_runs(self) -> dict[str, RewriteRun]:
        """The current scope's runs by label (the stored dict: changes to it are kept)."""
        return self.all_rewrite_runs.setdefault(self.rewritescope_name(), {})

    def rewrite_documents(self) -> list[Document]:
        """The documents an eraser run rewrites: the scope's retrieved passages (one question's
        retrieval set, as in the paper), or every loaded document for the whole corpus."""
        retrieval_set = self.retrieval_set()
        return list(self.corpus.documents if retrieval_set is None else retrieval_set.documents)

    def rewrite_request(self, documents: Sequence[Document] | None = None) -> EraseRequest:
        """The erasers' input: the documents, their triple occurrences and the current definition."""
        if self.definition is None:
            raise ValueError(
                "nothing is private yet: mark triples private in the Knowledge graph tab, then run an eraser"
            )
        documents = tuple(self.rewrite_documents() if documents is None else documents)
        ids = {doc.id for doc in documents}
        triples = tuple(t for t in self.scoped_triples() if t.doc_id in ids)
        retrieval_set = self.retrieval_set()
        query = retrieval_set.query if retrieval_set is not None else None
        return EraseRequest(documents=documents, triples=triples, definition=self.definition, query=query)

    def rewrite_fingerprint(self, doc_ids: Sequence[str] | None = None) -> str:
        """Digest of the definition (restricted to these documents' triples) and of their texts."""
        wanted = tuple(d.id for d in self.rewrite_documents()) if doc_ids is None else tuple(doc_ids)
        cache: dict[tuple[str, ...], str] = self._cached("fingerprints", dict, definition_bound=True)
        if wanted not in cache:
            by_id = {doc.id: doc for doc in self.corpus.documents}
            documents = [by_id[d] for d in wanted if d in by_id]
            if len(documents) < len(wanted):
                cache[wanted] = "documents-missing"
            else:
                ids = set(wanted)
                keys = {t.key for t in self.scoped_triples() if t.doc_id in ids}
                cache[wanted] = fingerprint(self.definition, keys, documents)
        return cache[wanted]

    def rewrite_state(self, label: str) -> str:
        """fresh | stale | incomplete for the run kept under `label`."""
        run = self.rewrite_runs[label]
        if run.fingerprint != self.rewrite_fingerprint(run.doc_ids):
            return STALE
        return FRESH if run.complete else INCOMPLETE

    def run_erasers(
        self,
        erasers: Sequence[Eraser],
        verify: bool = False,
        recompute: bool = False,
        verifier: Verify | None = None,
        evaluate: Evaluate | None = None,
        progress: Progress | None = None,
        tools: Tools | None = None,
    ) -> Iterator[RewriteRun]:
        """Run each eraser over the current documents and keep its run; yields after every document.

        The steps are the erasure pipeline's (`core.eraser4rag.erasers.pipeline`); `tools` (the
        pipeline's models, `tools_for(settings)`) verify and grade unless `verifier` / `evaluate` are
        given.

        A fresh, complete run is kept as it is unless `recompute`; an incomplete one continues from
        the document it stopped at; a stale one starts over. Whatever an eraser finished stays in
        `rewrite_runs` even when a later document fails (the run then lists the problem).
        """
        if not erasers:
            raise ValueError("choose at least one eraser")
        if tools is not None:
            evaluate = evaluate or tools.evaluate
        request = self.rewrite_request()
        check_request(request)
        current = self.rewrite_fingerprint()
        total = len(erasers) * len(request.documents)
        for index, eraser in enumerate(erasers):
            label = run_label(eraser.name, verify)
            previous = self.rewrite_runs.get(label)
            up_to_date = previous is not None and previous.fingerprint == current and previous.complete
            if previous is not None and up_to_date and not recompute:
                yield previous
                continue
            started = start_run(
                eraser, request, verify, current, None if recompute else previous, self.rewritescope_name()
            )
            offset = index * len(request.documents)

            def report(done: int, _total: int, offset: int = offset) -> None:
                if progress is not None:
                    progress(offset + done, total)

            verify_hook = verifier or (tools.verify_with(eraser) if tools is not None else None)
            for run in run_eraser(eraser, request, started, verify_hook, evaluate, report):
                self.rewrite_runs[label] = run
                yield run

    def measure_accuracy(
        self, label: str, answer: Answer, is_correct: Correct, progress: Progress | None = None
    ) -> RewriteRun:
        """Answer the queries with gold answers from the original and the rewritten documents of the
        run `label` and keep the accuracy with the run (computed only when asked; kept on failure)."""
        if label not in self.rewrite_runs:
            raise KeyError(f"no rewrites named {label!r}: run an eraser first")
        documents = {doc.id: doc for doc in self.corpus.documents}
        run = self.rewrite_runs[label]
        result = downstream_accuracy(self.corpus.queries, documents, run, answer, is_correct, progress)
        run = replace(run, accuracy=result)
        self.rewrite_runs[label] = run
        return run

    def forget_rewrites(self, labels: Iterable[str] | None = None) -> int:
        """Drop the runs under `labels` (all when None); returns how many were dropped."""
        runs = self.rewrite_runs
        chosen = list(runs) if labels is None else [label for label in labels if label in runs]
        for label in chosen:
            del self.rewrite_runs[label]
        return len(chosen)

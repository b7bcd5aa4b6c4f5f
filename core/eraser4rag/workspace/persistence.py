"""Saving and loading a workspace: corpus, triples, every scope's definition and the rewrite runs in
one transaction of the store; a save that finds a newer version of the same documents and triples
merges both sides' marks and retries (`Persistence._save_merging`).

`Persistence` is mixed into `core.eraser4rag.workspace.Workspace`."""

from __future__ import annotations

import random
import time
from typing import Any

from core.eraser4rag.rewrites import RewriteRun
from core.eraser4rag.workspace.scopes import is_scope_definition, scope_name, scope_of, undo_from_meta
from core.saving import LoadedWorkspace, SaveConflict, WorkspaceSave, content_digest
from core.types import Corpus, Triple, TripleKey

MERGE_BACKOFF_S = 0.02
MAX_MERGE_ATTEMPTS = 20  # a save merging into a newer version retries at most this often
EXTRACTED_IDS_META = "extracted_ids"  # corpus meta key: sources already extracted (some yield no triple)
SCOPE_META = "scope"  # corpus meta key: the query id the workspace was scoped to ("" = whole corpus)
UNDO_META = "undo"  # corpus meta key: every scope's undo steps (`undo_to_meta`)


class Persistence:
    """Save and load through a `storage.repository.Repository` (a mixin of `Workspace`)."""

    corpus: Corpus
    triples: list[Triple]
    extracted_ids: set[str]
    marked_private: set[TripleKey]
    name: str
    scope: str | None
    scope_marks: dict[str, set[TripleKey]]
    all_rewrite_runs: dict[str, dict[str, RewriteRun]]
    saved_version: int | None
    base_marks: dict[str, frozenset[TripleKey]]

    def save(self, repo: Any, name: str, overwrite: bool = False) -> None:
        """Store corpus, triples, every scope's definition and the rewrite runs under `name`, in one
        transaction of the store: a crash at any moment leaves the old workspace or the new one.

        Saving again under the name it was loaded or saved as needs no choice; its version is
        checked, and if someone saved it meanwhile their marks and ours are merged when the documents
        and triples are the same on both sides (else `SaveConflict`). Any other existing name needs
        `overwrite` (else `OverwriteRefused`, and nothing changes).
        """
        name = name.strip()
        if not name:
            raise ValueError("give the workspace a name to save it under")
        expected = self.saved_version if name == self.name else None
        self._save_merging(repo, name, expected, overwrite, with_content=True)
        self.name = name

    def save_definitions(self, repo: Any, settings: dict[str, Any] | None = None) -> int:
        """Store only the scopes' definitions of the workspace saved as `self.name` (not the corpus
        again), in one transaction; saved scope definitions no longer marked are deleted."""
        if not self.name:
            raise ValueError("save the workspace under a name first")
        overwrite = self.saved_version is None
        self._save_merging(repo, self.name, self.saved_version, overwrite, False, settings or {})
        return len(self.scope_definitions())

    def _save_merging(
        self,
        repo: Any,
        name: str,
        expected: int | None,
        overwrite: bool,
        with_content: bool,
        settings: dict[str, Any] | None = None,
    ) -> None:
        """Save; on a version conflict whose documents and triples are ours, merge marks and retry."""
        for attempt in range(MAX_MERGE_ATTEMPTS + 1):
            state = self._save_state(with_content, settings or {})
            try:
                self.saved_version = repo.save_workspace(
                    name, state, expected_version=expected, overwrite=overwrite
                )
                self.base_marks = self._all_marks()
                return
            except SaveConflict as conflict:
                if attempt == MAX_MERGE_ATTEMPTS or conflict.content_digest != state.content_digest:
                    raise
                self._merge_saved(repo.load_workspace(name))
                expected = conflict.current
                time.sleep(random.uniform(0.0, MERGE_BACKOFF_S * (attempt + 1)))  # writers spread out

    def _save_state(self, with_content: bool, settings: dict[str, Any]) -> WorkspaceSave:
        meta: dict[str, Any] = {EXTRACTED_IDS_META: sorted(self.extracted_ids)}
        removed: tuple[str, ...] = ()
        if self.scope is None:
            removed = (SCOPE_META,)
        else:
            meta[SCOPE_META] = self.scope
        undo_steps = self.undo_to_meta()
        if undo_steps:
            meta[UNDO_META] = undo_steps
        else:
            removed += (UNDO_META,)
        return WorkspaceSave(
            corpus=self.corpus if with_content else None,
            triples=self.triples if with_content else [],
            content_digest=content_digest(self.corpus, self.triples),
            extractor=",".join(sorted({t.backend for t in self.triples if t.backend})),
            meta=meta if with_content else {},
            meta_removed=removed if with_content else (),
            definitions=self.scope_definitions(),
            owns_definition=is_scope_definition,
            definition_settings=settings,
            rewrite_runs=[run for runs in self.all_rewrite_runs.values() for run in runs.values()]
            if with_content
            else None,
        )

    def _all_marks(self) -> dict[str, frozenset[TripleKey]]:
        """Every scope's marks by scope name ("" = whole corpus), the current scope's included."""
        marks = {scope: frozenset(keys) for scope, keys in self.scope_marks.items() if keys}
        current = scope_name(self.scope)
        marks.pop(current, None)
        if self.marked_private:
            marks[current] = frozenset(self.marked_private)
        return marks

    def _merge_saved(self, saved: LoadedWorkspace) -> None:
        """Fold a newer save of the same documents and triples into this one: per scope, their
        marks plus what we marked since our base, minus what we unmarked since; their rewrite runs
        stay unless we have a run under the same label."""
        theirs = {
            scope_of(n): frozenset(d.marked) for n, d in saved.definitions.items() if is_scope_definition(n)
        }
        ours = self._all_marks()
        base = self.base_marks
        merged: dict[str, set[TripleKey]] = {}
        for scope in set(theirs) | set(ours) | set(base):
            added = ours.get(scope, frozenset()) - base.get(scope, frozenset())
            removed = base.get(scope, frozenset()) - ours.get(scope, frozenset())
            keys = (set(theirs.get(scope, frozenset())) - removed) | added
            if keys:
                merged[scope] = keys
        for run in saved.rewrite_runs:
            self.all_rewrite_runs.setdefault(run.definition_name, {}).setdefault(run.label, run)
        self.base_marks = theirs
        current = scope_name(self.scope)
        self.marked_private = merged.pop(current, set()) & self.all_keys()
        self.scope_marks = merged
        self._refresh_definition()

    def load(self, repo: Any, name: str) -> None:
        saved = repo.load_workspace(name)
        corpus, triples, meta = saved.corpus, saved.triples, saved.meta
        saved_ids = meta.get(EXTRACTED_IDS_META)
        definitions = {n: d for n, d in saved.definitions.items() if is_scope_definition(n)}
        self._set_corpus(corpus)
        self.triples = list(triples)
        # Saved before extracted_ids were stored: every source with a triple was extracted.
        self.extracted_ids = {t.doc_id for t in triples}
        if isinstance(saved_ids, list):
            self.extracted_ids |= {i for i in saved_ids if isinstance(i, str)}
        query_ids = corpus.query_ids()
        self.scope_marks = {
            scope_of(n): set(d.marked) for n, d in definitions.items() if scope_of(n) in query_ids | {""}
        }
        saved_scope = meta.get(SCOPE_META)
        self.scope = saved_scope if isinstance(saved_scope, str) and saved_scope in query_ids else None
        self.marked_private = self.scope_marks.pop(scope_name(self.scope), set())
        self.held_back = {}
        self.scope_histories = undo_from_meta(meta.get(UNDO_META), query_ids | {""})
        self.mark_history = self.scope_histories.pop(scope_name(self.scope), [])
        self._triples_changed()
        self.all_rewrite_runs = {}
        for run in saved.rewrite_runs:
            self.all_rewrite_runs.setdefault(run.definition_name, {})[run.label] = run
        self.name = name
        self.saved_version = saved.version
        self.base_marks = self._all_marks()

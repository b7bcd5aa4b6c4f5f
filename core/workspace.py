"""One user's session: documents, triples, private marks and the privacy definition.

Every UI action is one method here, so the web tabs, scripts and tests share one
behaviour.

Scope (Eraser4RAG's setting): the graph, key sets, marks and definition belong to the current
scope, either one retrieval set (`set_scope(query_id)`: the question and its retrieved passages,
one global graph per question as in the paper) or the whole corpus (`set_scope(None)`). `triples`
always holds every extracted triple; `scoped_triples()` those of the scope. Marks of the other
scopes wait in `scope_marks` and come back when their scope does; `save` stores one definition per
scope that has marks ("default" for the whole corpus, "default@<query id>" for a question).

The workspace holds data only (no models), so it deep-copies cheaply and can
live in a per-session `gr.State`. Derived views (the knowledge graph, key sets, statuses,
risks, source titles) are cached; each is dropped when what it depends on changes
(`_triples_changed`, `_set_definition`, `_set_corpus`) and none is copied or pickled.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core.documents import (
    BadRecords,
    InputError,
    check_size,
    corpus_from_text,
    load_many,
    load_sample_corpus,
)
from core.erasers.base import Eraser, EraseRequest
from core.erasers.pipeline import SPLIT_METHODS, SplitRecipe, Tools, private_marks
from core.extract import extract_corpus
from core.filters import FILTER_PRIVATE, FilterMove, PrivacyDefinition, define_privacy, with_path
from core.graph import KnowledgeGraph, matches_search
from core.graph_view import layout_positions
from core.metrics import connected_private, r_connect
from core.names import name_aliases
from core.rewrites import (
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
from core.risk import InferenceRisk, inference_risks
from core.saving import LoadedWorkspace, SaveConflict, WorkspaceSave, content_digest
from core.types import (
    Corpus,
    Document,
    Query,
    RetrievalSet,
    Triple,
    TripleKey,
    normalize_entity,
    normalize_relation,
)

Progress = Callable[[int, int], None]

DEFAULT_DEFINITION_NAME = "default"
MERGE_BACKOFF_S = 0.02
MAX_MERGE_ATTEMPTS = 20  # a save merging into a newer version retries at most this often
EXTRACTED_IDS_META = "extracted_ids"  # corpus meta key: sources already extracted (some yield no triple)
SCOPE_META = "scope"  # corpus meta key: the query id the workspace was scoped to ("" = whole corpus)
UNDO_META = "undo"  # corpus meta key: every scope's undo steps (`undo_to_meta`)
WHOLE_CORPUS = ""  # scope name of the whole corpus in `scope_marks`

# Status of a triple in the privacy definition (codes used by data and styles).
PRIVATE = "private"
PUBLIC = "public"
EXCLUDED = "excluded"  # public candidate removed because it connects private entities
INFERABLE = "inferable"  # marked private, but derivable from public triples, so not kept private
QUERY = "query"  # from a query: never private

# State of a rewrite run against the current workspace.
FRESH = "fresh"  # computed from the current definition and texts, every document rewritten
STALE = "stale"  # the definition or a document changed since: shown, never silently recomputed
INCOMPLETE = "incomplete"  # stopped before its last document (an error); running again continues
# The one vocabulary users read for those states: messages, tables, legends and docs.
STATUS_LABELS = {
    PRIVATE: "private",
    PUBLIC: "public",
    QUERY: "query",
    INFERABLE: "excluded: inferable from public",
    EXCLUDED: "excluded: connects private facts",
}
STATUS_EXPLANATIONS = {
    PRIVATE: "marked private and kept private by the filters",
    PUBLIC: "stays in the documents",
    QUERY: "from a query: never private",
    INFERABLE: "marked private, but public triples already connect its entities, so erasing it "
    "alone protects nothing (filter b)",
    EXCLUDED: "not marked, but it connects entities of private triples, so it is taken out of the "
    "public set (filter a)",
}
UNDO_DEPTH = 20  # mark changes that can be undone
EXTRACT_BATCHES = 20  # an extraction keeps its work batch by batch (a Cancel loses one batch at most)


def status_label(status: str) -> str:
    """The label users read for a status code."""
    return STATUS_LABELS.get(status, status)


def status_counts_text(counts: dict[str, int]) -> str:
    """ "3 private, 10 public, 1 excluded: inferable from public" (states with no triple left out,
    private and public always shown)."""
    order = (PRIVATE, PUBLIC, INFERABLE, EXCLUDED, QUERY)
    parts = [
        f"{counts.get(status, 0)} {STATUS_LABELS[status]}"
        for status in order
        if status in (PRIVATE, PUBLIC) or counts.get(status, 0)
    ]
    return ", ".join(parts)


@dataclass
class Workspace:
    corpus: Corpus = field(default_factory=Corpus)
    triples: list[Triple] = field(default_factory=list)
    extracted_ids: set[str] = field(default_factory=set)
    marked_private: set[TripleKey] = field(default_factory=set)
    definition: PrivacyDefinition | None = None
    name: str = ""
    scope: str | None = None  # query id of the retrieval set in view; None = the whole corpus
    scope_marks: dict[str, set[TripleKey]] = field(default_factory=dict)  # marks of other scopes
    held_back: dict[str, Corpus] = field(default_factory=dict)  # good records of refused files
    # Rewrite runs by definition name (one per scope), then by label ("graph-guided", "mask + verify"):
    # each kept with the definition it came from. `rewrite_runs` is the current scope's.
    all_rewrite_runs: dict[str, dict[str, RewriteRun]] = field(default_factory=dict)
    # Earlier states of `marked_private`, newest last (at most UNDO_DEPTH).
    mark_history: list[frozenset[TripleKey]] = field(default_factory=list, compare=False)
    # The stored version this copy was loaded or last saved as (None: never), and every scope's
    # marks at that moment: a save checks the version, a merge applies our changes since then.
    saved_version: int | None = field(default=None, compare=False)
    base_marks: dict[str, frozenset[TripleKey]] = field(default_factory=dict, compare=False)
    # The undo steps of the scopes not in view, by scope name; they come back with their scope.
    scope_histories: dict[str, list[frozenset[TripleKey]]] = field(default_factory=dict, compare=False)
    _graph: KnowledgeGraph | None = field(default=None, repr=False, compare=False)
    # Other derived views by name ("all_keys", "query_keys", "statuses", "risks", "titles").
    _derived: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    # -- copying: the caches are derived, never copied ---------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_graph"] = None
        state["_derived"] = {}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state.setdefault("saved_version", None)  # a copy pickled by an older release
        state.setdefault("base_marks", {})
        self.__dict__.update(state)

    # -- derived views -----------------------------------------------------------------------

    @property
    def graph(self) -> KnowledgeGraph:
        """The global graph of the scope: one retrieval set's, or the whole corpus's."""
        if self._graph is None:
            self._graph = KnowledgeGraph.from_triples(self.scoped_triples())
        return self._graph

    def scoped_triples(self) -> list[Triple]:
        """The triples of the current scope (all triples for the whole corpus; never copied)."""
        if self.scope is None:
            return self.triples

        retrieval_set = self._retrieval_sets()[self.scope]

        def compute() -> list[Triple]:
            by_source = self._triples_by_source()
            ids = [*(doc.id for doc in retrieval_set.documents), retrieval_set.query.id]
            return [t for source_id in ids for t in by_source.get(source_id, ())]

        return self._cached("scoped_triples", compute)

    def _triples_by_source(self) -> dict[str, list[Triple]]:
        """Triples grouped by document or query id, so a scope costs its own size, not the corpus's."""

        def compute() -> dict[str, list[Triple]]:
            groups: dict[str, list[Triple]] = {}
            for triple in self.triples:
                groups.setdefault(triple.doc_id, []).append(triple)
            return groups

        return self._cached("triples_by_source", compute)

    def retrieval_set(self) -> RetrievalSet | None:
        """The question and passages of the scope, or None for the whole corpus."""
        if self.scope is None:
            return None
        return self._retrieval_sets()[self.scope]

    def _retrieval_sets(self) -> dict[str, RetrievalSet]:
        return self._cached("retrieval_sets", lambda: {s.query.id: s for s in self.corpus.retrieval_sets()})

    def _source_ids_of(self, scope: str | None) -> frozenset[str] | None:
        return None if scope is None else self._retrieval_sets()[scope].source_ids()

    def _cached(self, name: str, compute: Callable[[], Any], definition_bound: bool = False) -> Any:
        """The cached view `name`, computed on first use. A `definition_bound` view is also
        recomputed when `self.definition` is no longer the object it was computed for."""
        derived = self._derived
        if name in derived:
            value, source = derived[name]
            if not definition_bound or source is self.definition:
                return value
        value = compute()
        derived[name] = (value, self.definition if definition_bound else None)
        return value

    def _forget(self, *names: str) -> None:
        for name in names:
            self._derived.pop(name, None)

    def all_keys(self) -> frozenset[TripleKey]:
        return self._cached("all_keys", lambda: frozenset(t.key for t in self.scoped_triples()))

    def node_positions(self) -> dict[str, tuple[float, float]]:
        """Where the scope's entities are drawn (`graph_view.layout_positions` of all its triples, {}
        for a graph too large): its graph, its risk graph and its rewrites' graphs share them."""
        return self._cached("node_positions", lambda: layout_positions(self.all_keys()))

    def name_aliases(self) -> dict[str, str]:
        """Name variants of one person in the scope (`core.names`): one node for split, filters and risk."""
        return self._cached("name_aliases", lambda: name_aliases(self.scoped_triples()))

    def key_categories(self) -> dict[TripleKey, str]:
        """The kind of personal data each categorised triple of the scope holds (`Triple.category`:
        contact, health, ...); an ordinary fact has none and is absent."""

        def compute() -> dict[TripleKey, str]:
            categories: dict[TripleKey, str] = {}
            for triple in self.scoped_triples():
                if triple.category:
                    categories.setdefault(triple.key, triple.category)
            return categories

        return self._cached("key_categories", compute)

    def category_counts(self) -> dict[str, int]:
        """How many distinct triples of the scope each category holds, largest first."""
        counts = Counter(self.key_categories().values())
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    def query_keys(self) -> frozenset[TripleKey]:
        def compute() -> frozenset[TripleKey]:
            query_ids = self.corpus.query_ids()
            return frozenset(t.key for t in self.scoped_triples() if t.doc_id in query_ids)

        return self._cached("query_keys", compute)

    def private_keys(self) -> set[TripleKey]:
        return set(self.definition.private) if self.definition else set()

    def status_of(self, key: TripleKey) -> str:
        """private | public | excluded | inferable | query, after the filters."""
        return self._status(key, self.query_keys())

    def _status(self, key: TripleKey, query_keys: frozenset[TripleKey]) -> str:
        if key in query_keys:
            return QUERY
        definition = self.definition
        if definition is None:
            return PUBLIC
        if key in definition.private:
            return PRIVATE
        if key in definition.excluded:
            move = definition.move_of(key)
            return INFERABLE if move is not None and move.filter == FILTER_PRIVATE else EXCLUDED
        return PUBLIC  # public, or not part of the definition

    def move_of(self, key: TripleKey) -> FilterMove | None:
        """Why a filter took `key` out of its set (with the connecting path), or None."""
        if self.definition is None:
            return None
        move = self.definition.move_of(key)
        return with_path(move, self.definition) if move is not None else None

    def moves(self, limit: int | None = None) -> list[FilterMove]:
        """The filter moves of the definition, with paths, at most `limit`."""
        if self.definition is None:
            return []
        shown = self.definition.moves[:limit] if limit is not None else self.definition.moves
        return [with_path(move, self.definition) for move in shown]

    def inferable_moves(self) -> list[FilterMove]:
        """Triples marked private that filter (b) took out: public triples already connect their
        entities, so erasing them alone protects nothing. Each comes with that public path."""
        if self.definition is None:
            return []
        moves = [move for move in self.definition.moves if move.filter == FILTER_PRIVATE]
        return [with_path(move, self.definition) for move in moves]

    def statuses(self) -> dict[TripleKey, str]:
        """Status of every key (a fresh dict: callers may change it)."""
        return dict(self._statuses())

    def _statuses(self) -> dict[TripleKey, str]:
        def compute() -> dict[TripleKey, str]:
            query_keys = self.query_keys()
            return {key: self._status(key, query_keys) for key in self.all_keys()}

        return self._cached("statuses", compute, definition_bound=True)

    def pending_sources(self) -> Corpus:
        """Documents and queries not extracted yet."""
        return Corpus(
            documents=[d for d in self.corpus.documents if d.id not in self.extracted_ids],
            queries=[q for q in self.corpus.queries if q.id not in self.extracted_ids],
        )

    def source_title(self, source_id: str) -> str:
        """Title of a document (its id when untitled), "query: <text>" for a query, else the id;
        a title that several sources share is followed by the id: "Ada Brook [doc-3]"."""
        return self._titles().get(source_id, source_id)

    def source_titles(self) -> dict[str, str]:
        """`source_title` of every document and query, documents first (a fresh dict)."""
        return dict(self._titles())

    def _titles(self) -> dict[str, str]:
        def compute() -> dict[str, str]:
            titles: dict[str, str] = {}
            for doc in self.corpus.documents:
                titles.setdefault(doc.id, doc.title or doc.id)
            for query in self.corpus.queries:
                titles.setdefault(query.id, f"query: {query.text}")
            uses: dict[str, int] = {}
            for title in titles.values():
                uses[title] = uses.get(title, 0) + 1
            return {i: f"{t} [{i}]" if uses[t] > 1 and t != i else t for i, t in titles.items()}

        return self._cached("titles", compute)

    def _set_corpus(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self._forget("titles", "query_keys", "statuses", "retrieval_sets", "scoped_triples", "fingerprints")

    def _set_definition(self, definition: PrivacyDefinition | None) -> None:
        self.definition = definition
        self._forget("statuses", "risks", "fingerprints")

    def _triples_changed(self) -> None:
        self._forget("triples_by_source")
        self._scope_changed()

    def _scope_changed(self) -> None:
        """Drop the views of the scope (its graph, keys, statuses, risks) and refilter its marks."""
        self._graph = None
        self._forget(
            "scoped_triples",
            "all_keys",
            "key_categories",
            "node_positions",
            "name_aliases",
            "query_keys",
            "statuses",
            "risks",
        )
        known = self.all_keys()
        self.marked_private &= known
        self._refresh_definition()

    def _refresh_definition(self) -> None:
        self._set_definition(
            define_privacy(
                self.all_keys(), self.marked_private, self.query_keys(), aliases=self.name_aliases()
            )
            if self.marked_private
            else None
        )

    # -- documents ---------------------------------------------------------------------------

    def add_files(
        self, items: Iterable[tuple[str, bytes]], max_bytes: int, skip_bad: bool = False
    ) -> list[InputError]:
        """Load uploads; what loads is kept, each problem comes back as an InputError.

        The good records of a file refused for bad records (`BadRecords`) wait in `held_back`
        until `load_held_back` (the user asked for them) or the next upload; with `skip_bad`
        they load at once.
        """
        loaded, errors = load_many(items, max_bytes, skip_bad=skip_bad)
        self._merge(loaded)
        self.held_back = {
            e.file: e.good for e in errors if isinstance(e, BadRecords) and e.good_records and not skip_bad
        }
        return errors

    def add_paths(self, paths: Iterable[str | Path], max_bytes: int) -> list[InputError]:
        """`add_files` for files on disk: a file over `max_bytes` is refused from its size alone,
        never read; the others load (a bad file costs the batch nothing)."""
        items: list[tuple[str, bytes]] = []
        refused: list[InputError] = []
        for path in map(Path, paths):
            try:
                check_size(path.name, path.stat().st_size, max_bytes)
                items.append((path.name, path.read_bytes()))
            except InputError as exc:
                refused.append(exc)
            except OSError as exc:
                refused.append(InputError(path.name, message=f"cannot be read: {exc.strerror}"))
        return refused + self.add_files(items, max_bytes)

    def held_back_records(self) -> int:
        """How many good records of refused files wait for `load_held_back`."""
        return sum(
            len(c.queries) + len(c.documents) - sum(len(q.doc_ids) for q in c.queries)
            for c in self.held_back.values()
        )

    def load_held_back(self) -> int:
        """Load the good records of the files last refused for bad records; returns #new sources."""
        if not self.held_back:
            raise ValueError("no file is waiting: upload a file first")
        added = 0
        for corpus in self.held_back.values():
            added += self._merge(corpus)
        self.held_back = {}
        return added

    def add_text(self, text: str, title: str = "") -> Document:
        loaded = corpus_from_text(text, title)
        self._merge(loaded)
        return loaded.documents[0]

    def load_sample(self) -> int:
        return self._merge(load_sample_corpus())

    def _merge(self, loaded: Corpus) -> int:
        before = len(self.corpus.documents) + len(self.corpus.queries)
        self._set_corpus(self.corpus.merged_with(loaded))
        return len(self.corpus.documents) + len(self.corpus.queries) - before

    def clear(self) -> None:
        """Forget everything (documents, triples, marks)."""
        self._set_corpus(Corpus())
        self.triples = []
        self.extracted_ids = set()
        self.marked_private = set()
        self.mark_history = []
        self.scope_histories = {}
        self.scope = None
        self.scope_marks = {}
        self.held_back = {}
        self._triples_changed()
        self.all_rewrite_runs = {}
        self.name = ""
        self.saved_version = None
        self.base_marks = {}

    # -- extraction --------------------------------------------------------------------------

    def extract(self, extractor: Any, progress: Progress | None = None) -> int:
        """Extract triples from documents and queries not extracted yet; returns #new triples.

        Sources are extracted in up to EXTRACT_BATCHES batches, each kept as soon as it is done: an
        exception (a Cancel raised from `progress`) loses only the batch in progress. `progress`
        counts sources, (done, total), whatever unit the extractor counts in."""
        pending = self.pending_sources()
        if not pending.documents and not pending.queries:
            return 0
        batches = source_batches(pending, EXTRACT_BATCHES)
        total = sum(len(b.documents) + len(b.queries) for b in batches)
        added = done = 0
        for batch in batches:
            size = len(batch.documents) + len(batch.queries)
            scaled = None if progress is None else _scaled_progress(progress, done, size, total)
            new_triples = extract_corpus(batch, extractor, progress=scaled)
            self.triples = self.triples + list(new_triples)
            self.extracted_ids |= batch.document_ids() | batch.query_ids()
            self._triples_changed()
            added += len(new_triples)
            done += size
            if progress is not None:
                progress(done, total)
        return added

    # -- scope -------------------------------------------------------------------------------

    def scopes(self) -> list[tuple[str, str]]:
        """(query id, question) of every retrieval set, in load order."""
        return [(query.id, query.text) for query in self.corpus.queries]

    def set_scope(self, query_id: str | None) -> None:
        """Work on one retrieval set (a query id) or on the whole corpus (None or "").

        The current scope's marks are kept for it in `scope_marks`; the new scope's come back.
        """
        scope = query_id or None
        if scope == self.scope:
            return
        if scope is not None and scope not in self._retrieval_sets():
            raise KeyError(f"no question with id {scope!r} in this workspace")
        self._stash_marks()
        if self.mark_history:  # undo steps belong to the scope they were made in, and wait for it
            self.scope_histories[_scope_name(self.scope)] = self.mark_history
        else:
            self.scope_histories.pop(_scope_name(self.scope), None)
        self.scope = scope
        self.marked_private = self.scope_marks.pop(_scope_name(scope), set())
        self.mark_history = self.scope_histories.pop(_scope_name(scope), [])
        self._scope_changed()

    def _stash_marks(self) -> None:
        if self.marked_private:
            self.scope_marks[_scope_name(self.scope)] = set(self.marked_private)
        else:
            self.scope_marks.pop(_scope_name(self.scope), None)

    def scope_definitions(self) -> dict[str, PrivacyDefinition]:
        """The filtered definition of every scope with marks, by storage name (`definition_name`)."""
        definitions: dict[str, PrivacyDefinition] = {}
        if self.definition is not None:
            definitions[definition_name(self.scope)] = self.definition
        for name, marks in self.scope_marks.items():
            scope = name or None
            if scope is not None and scope not in self._retrieval_sets():
                continue
            ids = self._source_ids_of(scope)
            by_source = self._triples_by_source()
            triples = self.triples if ids is None else [t for i in ids for t in by_source.get(i, ())]
            keys = frozenset(t.key for t in triples)
            query_ids = self.corpus.query_ids()
            query_keys = frozenset(t.key for t in triples if t.doc_id in query_ids)
            if marks & keys:
                aliases = name_aliases(triples)
                definitions[definition_name(scope)] = define_privacy(
                    keys, marks & keys, query_keys, aliases=aliases
                )
        return definitions

    def split_each_question(
        self, ratio: float, seed: int, method: str = "connected", progress: Progress | None = None
    ) -> dict[str, PrivacyDefinition]:
        """The paper's batch setting: one graph and one simulated split per retrieval set.

        Returns each question's definition by query id; sets without triples are skipped. The
        workspace ends scoped to the whole corpus, with every question's marks kept.
        """
        sets = self.corpus.retrieval_sets()
        if not sets:
            raise ValueError("no questions: load retriever records (question + ctxs) first")
        definitions: dict[str, PrivacyDefinition] = {}
        for done, retrieval_set in enumerate(sets, start=1):
            self.set_scope(retrieval_set.query.id)
            if self.all_keys() - self.query_keys():
                self.random_split(ratio, seed, method)
                assert self.definition is not None
                definitions[retrieval_set.query.id] = self.definition
            if progress is not None:
                progress(done, len(sets))
        self.set_scope(None)
        return definitions

    # -- privacy marks -----------------------------------------------------------------------

    def _require_key(self, key: TripleKey) -> None:
        if key not in self.all_keys():
            raise KeyError(f"no triple {key!r} in this workspace")
        if key in self.query_keys():
            raise ValueError(f"triple {key!r} comes from a query; query triples are never private")

    def _remember_marks(self) -> None:
        """Keep the marks as they are now so the coming change can be undone."""
        self.mark_history.append(frozenset(self.marked_private))
        del self.mark_history[:-UNDO_DEPTH]

    def undo_to_meta(self) -> dict[str, list[list[list[str]]]]:
        """Every scope's undo steps as JSON (scope name -> steps, oldest first -> triple keys)."""
        histories = {**self.scope_histories, _scope_name(self.scope): self.mark_history}
        return {name: [_keys_json(step) for step in steps] for name, steps in histories.items() if steps}

    def undo(self) -> int:
        """Put back the marks as they were before the last change; returns how many are marked."""
        if not self.mark_history:
            raise ValueError("nothing to undo: the privacy marks have not changed")
        self.marked_private = set(self.mark_history.pop()) & self.all_keys()
        self._refresh_definition()
        return len(self.marked_private)

    def status_counts(self) -> dict[str, int]:
        """How many distinct triples are in each state (codes of STATUS_LABELS)."""
        counts: dict[str, int] = {}
        for status in self._statuses().values():
            counts[status] = counts.get(status, 0) + 1
        return counts

    def toggle_private(self, key: TripleKey) -> bool:
        """Mark or unmark one triple as private; returns whether it is marked now."""
        self._require_key(key)
        self._remember_marks()
        if key in self.marked_private:
            self.marked_private.discard(key)
            marked = False
        else:
            self.marked_private.add(key)
            marked = True
        self._refresh_definition()
        return marked

    def mark_entity_private(self, entity: str) -> int:
        """Mark every non-query triple that has `entity` as head or tail; returns how many were new."""
        wanted = normalize_entity(entity)
        if not wanted:
            raise ValueError("choose an entity to mark private")
        query_keys = self.query_keys()
        keys = {k for k in self.all_keys() if wanted in (k[0], k[2]) and k not in query_keys}
        if not keys:
            raise ValueError(f"no non-query triple mentions the entity {entity!r}")
        return self._mark_keys_private(keys)

    def _mark_keys_private(self, keys: set[TripleKey]) -> int:
        """Mark `keys` private as one undoable step; how many were new."""
        new = keys - self.marked_private
        if new:
            self._remember_marks()
        self.marked_private |= keys
        self._refresh_definition()
        return len(new)

    def mark_category_private(self, category: str) -> int:
        """Mark every non-query triple of the scope whose category is `category` (e.g. "health")
        private, as marks on their keys; returns how many were new."""
        wanted = (category or "").strip().casefold()
        if not wanted:
            raise ValueError("choose a category of personal data to mark private")
        query_keys = self.query_keys()
        keys = {k for k, c in self.key_categories().items() if c == wanted and k not in query_keys}
        if not keys:
            present = ", ".join(self.category_counts()) or "none"
            raise ValueError(
                f"no non-query triple has the category {category!r} (categories here: {present})"
            )
        return self._mark_keys_private(keys)

    def random_split(self, ratio: float, seed: int, method: str = "connected") -> int:
        """Replace the marks with a random `ratio` of the scope's triples (query triples never private).

        `method` "connected" grows a connected subset (the paper's simulation, section 3.1.1);
        "uniform" samples triples independently.
        """
        if not 0.0 < ratio <= 1.0:
            raise ValueError(f"private ratio must be in (0, 1], got {ratio}")
        if method not in SPLIT_METHODS:
            raise ValueError(f"unknown split method {method!r}: choose one of {', '.join(SPLIT_METHODS)}")
        if not self.all_keys():
            raise ValueError("no triples yet: extract triples first")
        recipe = SplitRecipe(ratio, seed, method)  # the batch's split rule (core.erasers.pipeline)
        self._remember_marks()
        self.marked_private = private_marks(self.all_keys(), self.query_keys(), recipe, self.name_aliases())
        self._refresh_definition()
        return len(self.marked_private)

    def clear_private(self) -> None:
        if self.marked_private:
            self._remember_marks()
        self.marked_private = set()
        self._set_definition(None)

    def apply_filters(self) -> PrivacyDefinition:
        """Run the Eraser4RAG filters on the marks and keep the resulting definition."""
        if not self.marked_private:
            raise ValueError("nothing is marked private: click triples, mark an entity or use a random split")
        self._refresh_definition()
        assert self.definition is not None
        return self.definition

    def private_entities(self) -> list[str]:
        """Display labels of the entities of private triples, sorted."""
        nodes = {node for key in self.private_keys() for node in (key[0], key[2])}
        return sorted({self.graph.label(node) for node in nodes}, key=str.casefold)

    # -- risk --------------------------------------------------------------------------------

    def risks(self) -> list[InferenceRisk]:
        """Cross-document inference risks of the definition (computed once per definition)."""
        if self.definition is None:
            return []
        definition = self.definition
        risks = self._cached("risks", lambda: tuple(inference_risks(self.graph, definition)), True)
        return list(risks)

    def private_occurrences(self, risks: list[InferenceRisk] | None = None) -> list[tuple[TripleKey, str]]:
        """(key, source id) of every occurrence of a private triple, once each: those at risk
        (in `risks`, by default `self.risks()`) first, then by key and source id."""
        at_risk = {(r.key, r.doc_id) for r in (self.risks() if risks is None else risks)}
        edges = self.graph.edges
        items = {(key, t.doc_id) for key in self.private_keys() for t in edges.get(key, ())}
        return sorted(items, key=lambda item: (item not in at_risk, item))

    def r_connect_before(self) -> float | None:
        """r_connect on the original documents: the share of private triples whose entities are connected
        in the full graph (1.0 whenever every private triple is still stated)."""
        private = self.private_keys()
        if not private:
            return None
        return r_connect(private, self.all_keys(), self.name_aliases())

    def r_connect_after_erasure(self) -> float | None:
        """Share of private triples whose entities stay connected once private triples are erased."""
        private = self.private_keys()
        if not private:
            return None
        return r_connect(private, self.all_keys() - private, self.name_aliases())

    def connected_after_erasure(self) -> set[TripleKey]:
        """The private triples `r_connect_after_erasure` counts as still connected."""
        private = self.private_keys()
        return connected_private(private, self.all_keys() - private, self.name_aliases())

    # -- rewrites ----------------------------------------------------------------------------

    def rewrite_scope_name(self) -> str:
        """The name of the definition the current scope's rewrites are kept with (`definition_name`)."""
        return definition_name(self.scope)

    @property
    def rewrite_runs(self) -> dict[str, RewriteRun]:
        """The current scope's runs by label (the stored dict: changes to it are kept)."""
        return self.all_rewrite_runs.setdefault(self.rewrite_scope_name(), {})

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

        The steps are the erasure pipeline's (`core.erasers.pipeline`); `tools` (the pipeline's models,
        `tools_for(settings)`) verify and grade unless `verifier` / `evaluate` are given.

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
                eraser, request, verify, current, None if recompute else previous, self.rewrite_scope_name()
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

    # -- persistence -------------------------------------------------------------------------

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
        current = _scope_name(self.scope)
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
        current = _scope_name(self.scope)
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
        self.marked_private = self.scope_marks.pop(_scope_name(self.scope), set())
        self.held_back = {}
        self.scope_histories = undo_from_meta(meta.get(UNDO_META), query_ids | {""})
        self.mark_history = self.scope_histories.pop(_scope_name(self.scope), [])
        self._triples_changed()
        self.all_rewrite_runs = {}
        for run in saved.rewrite_runs:
            self.all_rewrite_runs.setdefault(run.definition_name, {})[run.label] = run
        self.name = name
        self.saved_version = saved.version
        self.base_marks = self._all_marks()

    # -- tables ------------------------------------------------------------------------------

    def triples_table(
        self,
        doc_id: str | None = None,
        entity: str | None = None,
        relation: str | None = None,
        search: str | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """One row per triple and source that passes the filters (all given filters must match);
        a triple stated several times in one source is one row (`occurrences` counts them).

        Filters follow `KnowledgeGraph.subgraph`: entity and relation are normalised
        (`normalize_entity`, `normalize_relation`), and `search` uses `matches_search`.
        """
        statuses = self._statuses()
        wanted_entity = normalize_entity(entity) if entity else ""
        wanted_relation = normalize_relation(relation) if relation else ""
        needle = (search or "").strip().casefold()
        rows: list[dict[str, Any]] = []
        row_of: dict[tuple[TripleKey, str], dict[str, Any]] = {}
        for triple in self.scoped_triples():
            key = triple.key
            seen = row_of.get((key, triple.doc_id))
            if seen is not None:
                seen["occurrences"] += 1
                continue
            if doc_id and triple.doc_id != doc_id:
                continue
            if wanted_entity and wanted_entity not in (key[0], key[2]):
                continue
            if wanted_relation and key[1] != wanted_relation:
                continue
            if needle and not matches_search(needle, key, (triple,)):
                continue
            row = {
                "status": statuses[key],
                "head": triple.head,
                "relation": triple.relation,
                "tail": triple.tail,
                "document": self.source_title(triple.doc_id),
                "doc_id": triple.doc_id,
                "key": key,
                "category": self.key_categories().get(key, ""),
                "occurrences": 1,
            }
            row_of[(key, triple.doc_id)] = row
            rows.append(row)
            if limit is not None and len(rows) >= limit:
                break
        return rows


def source_batches(corpus: Corpus, count: int) -> list[Corpus]:
    """The documents, then the queries, of `corpus` in at most `count` batches of similar size."""
    sources: list[Any] = [*corpus.documents, *corpus.queries]
    size = max(1, -(-len(sources) // max(1, count)))
    batches = []
    for start in range(0, len(sources), size):
        part = sources[start : start + size]
        batches.append(
            Corpus(
                documents=[s for s in part if isinstance(s, Document)],
                queries=[s for s in part if isinstance(s, Query)],
            )
        )
    return batches


def _scaled_progress(progress: Progress, base: int, size: int, total: int) -> Progress:
    """A batch's progress (in the extractor's own unit) as sources of the whole extraction."""

    def report(done: int, of: int) -> None:
        progress(base + (size * done // of if of else 0), total)

    return report


def _keys_json(keys: Iterable[TripleKey]) -> list[list[str]]:
    return sorted([list(key) for key in keys])


def undo_from_meta(stored: Any, scope_names: set[str]) -> dict[str, list[frozenset[TripleKey]]]:
    """Undo steps stored by `Workspace.undo_to_meta` (scopes no longer present, or bad entries, skipped)."""
    histories: dict[str, list[frozenset[TripleKey]]] = {}
    if not isinstance(stored, dict):
        return histories
    for name, steps in stored.items():
        if name not in scope_names or not isinstance(steps, list):
            continue
        history: list[frozenset[TripleKey]] = []
        for step in steps[-UNDO_DEPTH:]:
            if isinstance(step, list):
                keys = (tuple(k) for k in step if isinstance(k, list) and len(k) == 3)
                history.append(frozenset(k for k in keys if all(isinstance(p, str) for p in k)))
        if history:
            histories[name] = history
    return histories


def _scope_name(scope: str | None) -> str:
    return scope or WHOLE_CORPUS


def definition_name(scope: str | None) -> str:
    """Storage name of a scope's definition: "default" (whole corpus) or "default@<query id>"."""
    return DEFAULT_DEFINITION_NAME if scope is None else f"{DEFAULT_DEFINITION_NAME}@{scope}"


def is_scope_definition(name: str) -> bool:
    return name == DEFAULT_DEFINITION_NAME or name.startswith(DEFAULT_DEFINITION_NAME + "@")


def scope_of(name: str) -> str:
    """The scope name ("" = whole corpus, else a query id) of a `definition_name`."""
    return name.partition("@")[2]

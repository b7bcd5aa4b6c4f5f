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

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
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
from core.eraser4rag.filters import FILTER_PRIVATE, FilterMove, PrivacyDefinition, define_privacy, with_path
from core.eraser4rag.graph import KnowledgeGraph, matches_search
from core.eraser4rag.graph_view import layout_positions
from core.eraser4rag.metrics import connected_private, r_connect
from core.eraser4rag.names import name_aliases
from core.eraser4rag.rewrites import RewriteRun
from core.eraser4rag.risk import InferenceRisk, inference_risks
from core.eraser4rag.workspace.marks import Marks
from core.eraser4rag.workspace.persistence import Persistence
from core.eraser4rag.workspace.rewriting import Rewriting
from core.eraser4rag.workspace.scopes import definition_name, scope_name
from core.eraser4rag.workspace.states import EXCLUDED, INFERABLE, PRIVATE, PUBLIC, QUERY
from core.extract import extract_corpus
from core.types import (
    Corpus,
    Document,
    Progress,
    Query,
    RetrievalSet,
    Triple,
    TripleKey,
    normalize_entity,
    normalize_relation,
)

EXTRACT_BATCHES = 20  # an extraction keeps its work batch by batch (a Cancel loses one batch at most)


@dataclass
class Workspace(Marks, Persistence, Rewriting):
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
        """Name variants of one person in the scope (`core.eraser4rag.names`): one node for split,
        filters and risk."""
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
            self.scope_histories[scope_name(self.scope)] = self.mark_history
        else:
            self.scope_histories.pop(scope_name(self.scope), None)
        self.scope = scope
        self.marked_private = self.scope_marks.pop(scope_name(scope), set())
        self.mark_history = self.scope_histories.pop(scope_name(scope), [])
        self._scope_changed()

    def _stash_marks(self) -> None:
        if self.marked_private:
            self.scope_marks[scope_name(self.scope)] = set(self.marked_private)
        else:
            self.scope_marks.pop(scope_name(self.scope), None)

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

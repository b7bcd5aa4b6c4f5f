"""One user's session: documents, triples, private marks and the privacy definition.

Every UI action is one method here, so the web tabs, scripts and tests share one
behaviour. The workspace holds data only (no models), so it deep-copies cheaply and can
live in a per-session `gr.State`. The knowledge graph is derived from the triples and
cached; it is rebuilt when the triples change and is not copied or pickled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from core.documents import InputError, corpus_from_text, load_many, load_sample_corpus
from core.extract import extract_corpus
from core.graph import (
    FILTER_PRIVATE,
    FilterMove,
    InferenceRisk,
    KnowledgeGraph,
    PrivacyDefinition,
    define_privacy,
    inference_risks,
    random_private_keys,
    with_path,
)
from core.metrics import r_connect
from core.types import Corpus, Document, Triple, TripleKey, normalize_entity

Progress = Callable[[int, int], None]

DEFAULT_DEFINITION_NAME = "default"

# Status of a triple in the privacy definition, as shown in tables and graphs.
PRIVATE = "private"
PUBLIC = "public"
EXCLUDED = "excluded"  # public candidate removed because it connects private entities
INFERABLE = "inferable"  # marked private, but derivable from public triples, so not kept private
QUERY = "query"  # from a query: never private


@dataclass
class Workspace:
    corpus: Corpus = field(default_factory=Corpus)
    triples: list[Triple] = field(default_factory=list)
    extracted_ids: set[str] = field(default_factory=set)
    marked_private: set[TripleKey] = field(default_factory=set)
    definition: PrivacyDefinition | None = None
    messages: list[str] = field(default_factory=list)
    name: str = ""
    _graph: KnowledgeGraph | None = field(default=None, repr=False, compare=False)

    # -- copying: the graph cache is derived, never copied ----------------------------------

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_graph"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # -- derived views -----------------------------------------------------------------------

    @property
    def graph(self) -> KnowledgeGraph:
        if self._graph is None:
            self._graph = KnowledgeGraph.from_triples(self.triples)
        return self._graph

    def all_keys(self) -> set[TripleKey]:
        return {t.key for t in self.triples}

    def query_keys(self) -> set[TripleKey]:
        query_ids = self.corpus.query_ids()
        return {t.key for t in self.triples if t.doc_id in query_ids}

    def private_keys(self) -> set[TripleKey]:
        return set(self.definition.private) if self.definition else set()

    def status_of(self, key: TripleKey) -> str:
        """private | public | excluded | inferable | query, after the filters."""
        return self._status(key, self.query_keys())

    def _status(self, key: TripleKey, query_keys: set[TripleKey]) -> str:
        if key in query_keys:
            return QUERY
        if self.definition is None or key not in self.definition.all_keys:
            return PUBLIC
        state = self.definition.state_of(key)
        move = self.definition.move_of(key)
        if state == EXCLUDED and move is not None and move.filter == FILTER_PRIVATE:
            return INFERABLE
        return state

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
        query_keys = self.query_keys()
        return {key: self._status(key, query_keys) for key in self.all_keys()}

    def pending_sources(self) -> Corpus:
        """Documents and queries not extracted yet."""
        return Corpus(
            documents=[d for d in self.corpus.documents if d.id not in self.extracted_ids],
            queries=[q for q in self.corpus.queries if q.id not in self.extracted_ids],
        )

    def source_title(self, source_id: str) -> str:
        for doc in self.corpus.documents:
            if doc.id == source_id:
                return doc.title or doc.id
        for query in self.corpus.queries:
            if query.id == source_id:
                return f"query: {query.text}"
        return source_id

    def _log(self, message: str) -> str:
        self.messages.append(message)
        del self.messages[:-50]
        return message

    def _triples_changed(self) -> None:
        self._graph = None
        known = self.all_keys()
        self.marked_private &= known
        self._refresh_definition()

    def _refresh_definition(self) -> None:
        self.definition = (
            define_privacy(self.all_keys(), self.marked_private, self.query_keys())
            if self.marked_private
            else None
        )

    # -- documents ---------------------------------------------------------------------------

    def add_files(self, items: Iterable[tuple[str, bytes]], max_bytes: int) -> list[InputError]:
        """Load uploads; what loads is kept, each problem comes back as an InputError."""
        loaded, errors = load_many(items, max_bytes)
        added = self._merge(loaded)
        self._log(f"added {added} document(s)/query(ies); {len(errors)} problem(s)")
        return errors

    def add_text(self, text: str, title: str = "") -> Document:
        loaded = corpus_from_text(text, title)
        self._merge(loaded)
        document = loaded.documents[0]
        self._log(f"added document {document.title or document.id!r}")
        return document

    def load_sample(self) -> int:
        added = self._merge(load_sample_corpus())
        self._log(f"loaded the sample corpus ({added} new document(s)/query(ies))")
        return added

    def _merge(self, loaded: Corpus) -> int:
        before = len(self.corpus.documents) + len(self.corpus.queries)
        self.corpus = self.corpus.merged_with(loaded)
        return len(self.corpus.documents) + len(self.corpus.queries) - before

    def clear(self) -> None:
        """Forget everything (documents, triples, marks)."""
        self.corpus = Corpus()
        self.triples = []
        self.extracted_ids = set()
        self.marked_private = set()
        self.definition = None
        self._graph = None
        self.name = ""
        self._log("cleared the workspace")

    # -- extraction --------------------------------------------------------------------------

    def extract(self, extractor: Any, progress: Progress | None = None) -> int:
        """Extract triples from documents and queries not extracted yet; returns #new triples."""
        pending = self.pending_sources()
        if not pending.documents and not pending.queries:
            self._log("nothing new to extract")
            return 0
        new_triples = extract_corpus(pending, extractor, progress=progress)
        self.triples = self.triples + list(new_triples)
        self.extracted_ids |= pending.document_ids() | pending.query_ids()
        self._triples_changed()
        name = getattr(extractor, "name", "extractor")
        self._log(
            f"{name}: {len(new_triples)} triple(s) from {len(pending.documents)} document(s) "
            f"and {len(pending.queries)} query(ies)"
        )
        return len(new_triples)

    # -- privacy marks -----------------------------------------------------------------------

    def _require_key(self, key: TripleKey) -> None:
        if key not in self.all_keys():
            raise KeyError(f"no triple {key!r} in this workspace")
        if key in self.query_keys():
            raise ValueError(f"triple {key!r} comes from a query; query triples are never private")

    def toggle_private(self, key: TripleKey) -> bool:
        """Mark or unmark one triple as private; returns whether it is marked now."""
        self._require_key(key)
        if key in self.marked_private:
            self.marked_private.discard(key)
            marked = False
        else:
            self.marked_private.add(key)
            marked = True
        self._refresh_definition()
        self._log(f"{'marked' if marked else 'unmarked'} {format_key(key)} as private")
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
        new = keys - self.marked_private
        self.marked_private |= keys
        self._refresh_definition()
        self._log(f"marked {len(new)} triple(s) of {entity!r} as private")
        return len(new)

    def random_split(self, ratio: float, seed: int) -> int:
        """Replace the marks with a random `ratio` of the triples (query triples never private)."""
        if not 0.0 < ratio <= 1.0:
            raise ValueError(f"private ratio must be in (0, 1], got {ratio}")
        if not self.triples:
            raise ValueError("no triples yet: extract triples first")
        self.marked_private = set(
            random_private_keys(self.all_keys(), ratio, seed, exclude=self.query_keys())
        )
        self._refresh_definition()
        self._log(
            f"random split: {len(self.marked_private)} triple(s) marked private (ratio {ratio}, seed {seed})"
        )
        return len(self.marked_private)

    def clear_private(self) -> None:
        self.marked_private = set()
        self.definition = None
        self._log("cleared all private marks")

    def apply_filters(self) -> PrivacyDefinition:
        """Run the Eraser4RAG filters on the marks and keep the resulting definition."""
        if not self.marked_private:
            raise ValueError("nothing is marked private: click triples, mark an entity or use a random split")
        self._refresh_definition()
        assert self.definition is not None
        self._log(
            f"filters: {len(self.definition.private)} private, {len(self.definition.public)} public, "
            f"{len(self.definition.excluded)} excluded, {len(self.definition.moves)} move(s)"
        )
        return self.definition

    def private_entities(self) -> list[str]:
        """Display labels of the entities of private triples, sorted."""
        nodes = {node for key in self.private_keys() for node in (key[0], key[2])}
        return sorted({self.graph.label(node) for node in nodes}, key=str.casefold)

    # -- risk --------------------------------------------------------------------------------

    def risks(self) -> list[InferenceRisk]:
        if self.definition is None:
            return []
        return list(inference_risks(self.triples, self.definition))

    def r_connect_after_erasure(self) -> float | None:
        """Share of private triples whose entities stay connected once private triples are erased."""
        private = self.private_keys()
        if not private:
            return None
        return r_connect(private, self.all_keys() - private)

    # -- persistence -------------------------------------------------------------------------

    def save(self, repo: Any, name: str) -> None:
        name = name.strip()
        if not name:
            raise ValueError("give the workspace a name to save it under")
        extractor = ",".join(sorted({t.backend for t in self.triples if t.backend}))
        repo.save_corpus(name, self.corpus, self.triples, extractor=extractor, overwrite=True)
        if self.definition is not None:
            repo.save_definition(name, DEFAULT_DEFINITION_NAME, self.definition, {}, overwrite=True)
        elif DEFAULT_DEFINITION_NAME in repo.list_definitions(name):
            repo.delete_definition(name, DEFAULT_DEFINITION_NAME)
        self.name = name
        self._log(f"saved workspace {name!r}")

    def load(self, repo: Any, name: str) -> None:
        corpus, triples = repo.load_corpus(name)
        definition = None
        if DEFAULT_DEFINITION_NAME in repo.list_definitions(name):
            definition = repo.load_definition(name, DEFAULT_DEFINITION_NAME)
        self.corpus = corpus
        self.triples = list(triples)
        self.extracted_ids = {t.doc_id for t in triples}
        self.marked_private = set(definition.marked) if definition is not None else set()
        self._triples_changed()
        self.name = name
        self._log(f"loaded workspace {name!r}")

    # -- tables ------------------------------------------------------------------------------

    def triples_table(
        self,
        doc_id: str | None = None,
        entity: str | None = None,
        relation: str | None = None,
        search: str | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """One row per triple that passes the filters (all given filters must match)."""
        statuses = self.statuses()
        wanted_entity = normalize_entity(entity) if entity else ""
        needle = (search or "").casefold().strip()
        rows: list[dict[str, Any]] = []
        for triple in self.triples:
            key = triple.key
            if doc_id and triple.doc_id != doc_id:
                continue
            if wanted_entity and wanted_entity not in (key[0], key[2]):
                continue
            if relation and key[1] != relation:
                continue
            if needle and needle not in f"{triple.head} {triple.relation} {triple.tail}".casefold():
                continue
            rows.append(
                {
                    "status": statuses[key],
                    "head": triple.head,
                    "relation": triple.relation,
                    "tail": triple.tail,
                    "document": self.source_title(triple.doc_id),
                    "doc_id": triple.doc_id,
                    "key": key,
                }
            )
            if limit is not None and len(rows) >= limit:
                break
        return rows


def format_key(key: TripleKey) -> str:
    return f"({key[0]}, {key[1]}, {key[2]})"

"""The studio's one door to the database: corpora, privacy definitions, bundles and review annotations.

Every public method runs in its own transaction, so a failed call leaves the database as it was.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from core.filters import PrivacyDefinition
from core.serialize import (
    BundleError,
    export_bundle,
    import_bundle,
    privacy_definition_from_dict,
    privacy_definition_to_dict,
)
from core.types import Corpus, Document, Query, Triple
from storage.db import make_engine, session_factory, upgrade_to_head
from storage.models import (
    ANNOTATION_STATUSES,
    AnnotationRow,
    CorpusRow,
    DocumentRow,
    PrivacyDefinitionRow,
    QueryRow,
    TripleRow,
    utc_now,
)

MAX_NAME_LENGTH = 200
_SECRET_KEY = re.compile(r"api[_-]?key|secret|password", re.IGNORECASE)


class StorageError(RuntimeError):
    """A refused or failed storage operation; `field` names the bad bundle field when there is one."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class CorpusSummary:
    name: str
    created_at: datetime
    extractor: str
    documents: int
    triples: int
    definitions: int


@dataclass(frozen=True)
class Annotation:
    id: int
    corpus_name: str | None
    doc_id: str
    kind: str
    prompt: str
    model: str
    output: str
    status: str
    note: str
    created_at: datetime
    metrics: dict[str, Any]


class Repository:
    """A SQLite file holding saved corpora; opening it brings its schema up to date."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self._engine = make_engine(self.path)
        upgrade_to_head(self._engine)
        self._sessions = session_factory(self._engine)

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Repository:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        try:
            with self._sessions.begin() as session:
                yield session
        except IntegrityError as exc:
            raise StorageError(f"the database refused the change: {exc.orig}") from exc

    # --- corpora --------------------------------------------------------------------------------

    def save_corpus(
        self,
        name: str,
        corpus: Corpus,
        triples: list[Triple],
        extractor: str = "",
        meta: dict[str, Any] | None = None,
        overwrite: bool = False,
    ) -> None:
        """Store a corpus and its triples under `name`.

        Overwriting replaces documents, queries, triples, extractor and meta; the corpus's saved
        privacy definitions and annotations are kept.
        """
        with self._transaction() as session:
            name = _clean_name(name, "corpus name")
            _store_corpus(session, name, corpus, triples, extractor, meta, overwrite)

    def load_corpus(self, name: str) -> tuple[Corpus, list[Triple]]:
        with self._sessions() as session:
            row = _corpus_row(session, name, load_content=True)
            return _corpus_from_row(row), [_triple_from_row(t) for t in row.triples]

    def corpus_meta(self, name: str) -> dict[str, Any]:
        """The `meta` object stored with a corpus by `save_corpus` or `import_json` (a copy)."""
        with self._sessions() as session:
            return dict(_corpus_row(session, name).meta or {})

    def list_corpora(self) -> list[CorpusSummary]:
        def count(model: type[DocumentRow | TripleRow | PrivacyDefinitionRow]) -> Any:
            return select(func.count()).where(model.corpus_id == CorpusRow.id).scalar_subquery()

        statement = select(
            CorpusRow.name,
            CorpusRow.created_at,
            CorpusRow.extractor,
            count(DocumentRow),
            count(TripleRow),
            count(PrivacyDefinitionRow),
        ).order_by(CorpusRow.name)
        with self._sessions() as session:
            return [CorpusSummary(*row) for row in session.execute(statement)]

    def delete_corpus(self, name: str) -> None:
        """Delete a corpus with its documents, triples, definitions and annotations."""
        with self._transaction() as session:
            session.delete(_corpus_row(session, name))

    # --- privacy definitions --------------------------------------------------------------------

    def save_definition(
        self,
        corpus_name: str,
        name: str,
        definition: PrivacyDefinition,
        settings: dict[str, Any] | None = None,
        overwrite: bool = True,
    ) -> None:
        """Store a privacy definition of a saved corpus; `settings` records how it was made (ratio, seed)."""
        with self._transaction() as session:
            corpus_row = _corpus_row(session, corpus_name)
            _store_definition(session, corpus_row, _clean_name(name, "definition name"), definition, settings,
                              overwrite)

    def save_definitions(
        self,
        corpus_name: str,
        definitions: dict[str, PrivacyDefinition],
        settings: dict[str, Any] | None = None,
        delete: Iterable[str] = (),
    ) -> None:
        """Store (overwrite) several definitions of a saved corpus and delete the named others, in one
        transaction; the corpus itself is not written (the fast path of a batch split)."""
        with self._transaction() as session:
            corpus_row = _corpus_row(session, corpus_name)
            for name in delete:
                session.delete(_definition_row(session, corpus_name, name))
            for name, definition in definitions.items():
                _store_definition(session, corpus_row, _clean_name(name, "definition name"), definition,
                                  settings, True)

    def load_definitions(self, corpus_name: str, names: Iterable[str]) -> dict[str, PrivacyDefinition]:
        """The named definitions of a saved corpus, read in one query."""
        wanted = set(names)
        if not wanted:
            return {}
        with self._sessions() as session:
            corpus_row = _corpus_row(session, corpus_name)
            rows = session.scalars(
                select(PrivacyDefinitionRow).where(
                    PrivacyDefinitionRow.corpus_id == corpus_row.id, PrivacyDefinitionRow.name.in_(wanted)
                )
            )
            found = {row.name: _definition_from_row(row) for row in rows}
        missing = sorted(wanted - set(found))
        if missing:
            raise StorageError(f"corpus {corpus_name!r} has no privacy definition named {missing[0]!r}")
        return found

    def load_definition(self, corpus_name: str, name: str) -> PrivacyDefinition:
        with self._sessions() as session:
            return _definition_from_row(_definition_row(session, corpus_name, name))

    def definition_settings(self, corpus_name: str, name: str) -> dict[str, Any]:
        with self._sessions() as session:
            return dict(_definition_row(session, corpus_name, name).settings)

    def list_definitions(self, corpus_name: str) -> list[str]:
        with self._sessions() as session:
            return [row.name for row in _corpus_row(session, corpus_name).definitions]

    def delete_definition(self, corpus_name: str, name: str) -> None:
        with self._transaction() as session:
            session.delete(_definition_row(session, corpus_name, name))

    # --- bundles --------------------------------------------------------------------------------

    def export_json(self, corpus_name: str) -> str:
        """The corpus, its triples and all its definitions as a `rag-privacy-studio/1` JSON bundle."""
        with self._sessions() as session:
            row = _corpus_row(session, corpus_name, load_content=True)
            bundle = export_bundle(
                row.name,
                _corpus_from_row(row),
                [_triple_from_row(t) for t in row.triples],
                {d.name: _definition_from_row(d) for d in row.definitions},
                {
                    "extractor": row.extractor,
                    "corpus_meta": row.meta,
                    "definition_settings": {d.name: d.settings for d in row.definitions},
                },
            )
        return json.dumps(bundle, ensure_ascii=False, indent=2)

    def import_json(self, text: str, name: str | None = None) -> str:
        """Store a JSON bundle as a new corpus (named `name` or the bundle's name); returns the stored name.

        All or nothing: on any error the database is unchanged.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StorageError(f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
        try:
            bundle = import_bundle(data)
            extractor, corpus_meta, settings = _stored_meta(bundle.meta, set(bundle.definitions))
        except BundleError as exc:
            raise StorageError(f"invalid bundle: {exc.message}", field=exc.field) from exc
        target = _clean_name(name if name is not None else bundle.name, "corpus name")
        with self._transaction() as session:
            row = _store_corpus(session, target, bundle.corpus, bundle.triples, extractor, corpus_meta, False)
            for def_name, definition in bundle.definitions.items():
                _store_definition(session, row, def_name, definition, settings.get(def_name), False)
        return target

    # --- review annotations ---------------------------------------------------------------------

    def add_annotation(
        self,
        kind: str,
        output: str,
        *,
        corpus_name: str | None = None,
        doc_id: str = "",
        prompt: str = "",
        model: str = "",
        metrics: dict[str, Any] | None = None,
    ) -> int:
        """Record a model output (e.g. kind "rewrite") for review; it starts as "pending". Returns its id."""
        with self._transaction() as session:
            corpus_row = _corpus_row(session, corpus_name) if corpus_name is not None else None
            row = AnnotationRow(
                corpus=corpus_row,
                doc_id=doc_id,
                kind=_clean_name(kind, "annotation kind"),
                prompt=prompt,
                model=model,
                output=output,
                metrics=_json_dict(metrics, "metrics"),
            )
            session.add(row)
            session.flush()
            return row.id

    def list_annotations(self, status: str | None = None, corpus_name: str | None = None) -> list[Annotation]:
        statement = (
            select(AnnotationRow).options(selectinload(AnnotationRow.corpus)).order_by(AnnotationRow.id)
        )
        if status is not None:
            statement = statement.where(AnnotationRow.status == _check_status(status))
        if corpus_name is not None:
            statement = statement.join(AnnotationRow.corpus).where(CorpusRow.name == corpus_name)
        with self._sessions() as session:
            return [_annotation_from_row(row) for row in session.scalars(statement)]

    def set_annotation_status(self, annotation_id: int, status: str, note: str = "") -> Annotation:
        """Set a review decision (pending, accepted or rejected) with the reviewer's note."""
        with self._transaction() as session:
            row = session.get(AnnotationRow, annotation_id)
            if row is None:
                raise StorageError(f"no annotation with id {annotation_id}")
            row.status = _check_status(status)
            row.note = note
            session.flush()
            return _annotation_from_row(row)


# --- helpers (all SQL stays in this module) -------------------------------------------------------


def _clean_name(name: str, what: str) -> str:
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        raise StorageError(f"{what} must not be empty")
    if len(name) > MAX_NAME_LENGTH:
        raise StorageError(f"{what} is longer than {MAX_NAME_LENGTH} characters")
    return name


def _check_status(status: str) -> str:
    if status not in ANNOTATION_STATUSES:
        expected = ", ".join(ANNOTATION_STATUSES)
        raise StorageError(f"unknown annotation status {status!r}; expected one of {expected}")
    return status


def _json_dict(value: dict[str, Any] | None, what: str) -> dict[str, Any]:
    """A JSON-serialisable copy of `value`; refuses anything that looks like a credential."""
    value = dict(value or {})
    try:
        text = json.dumps(value)
    except (TypeError, ValueError) as exc:
        raise StorageError(f"{what} is not JSON-serialisable: {exc}") from exc
    _refuse_secrets(value, what)
    return json.loads(text)


def _refuse_secrets(value: Any, what: str) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if _SECRET_KEY.search(str(key)):
                raise StorageError(f"{what}.{key}: credentials are never stored")
            _refuse_secrets(item, f"{what}.{key}")
    elif isinstance(value, list):
        for item in value:
            _refuse_secrets(item, what)


def _corpus_row(session: Session, name: str, load_content: bool = False) -> CorpusRow:
    name = name.strip()
    statement = select(CorpusRow).where(CorpusRow.name == name)
    if load_content:
        statement = statement.options(
            selectinload(CorpusRow.documents),
            selectinload(CorpusRow.queries),
            selectinload(CorpusRow.triples),
            selectinload(CorpusRow.definitions),
        )
    row = session.scalar(statement)
    if row is None:
        raise StorageError(f"no saved corpus named {name!r}")
    return row


def _definition_row(session: Session, corpus_name: str, name: str) -> PrivacyDefinitionRow:
    row = session.scalar(
        select(PrivacyDefinitionRow)
        .join(PrivacyDefinitionRow.corpus)
        .where(CorpusRow.name == corpus_name.strip(), PrivacyDefinitionRow.name == name.strip())
    )
    if row is None:
        _corpus_row(session, corpus_name)  # a missing corpus gets its own message
        raise StorageError(f"corpus {corpus_name!r} has no privacy definition named {name!r}")
    return row


def _store_corpus(
    session: Session,
    name: str,
    corpus: Corpus,
    triples: list[Triple],
    extractor: str,
    meta: dict[str, Any] | None,
    overwrite: bool,
) -> CorpusRow:
    row = session.scalar(select(CorpusRow).where(CorpusRow.name == name))
    if row is not None and not overwrite:
        raise StorageError(f"a corpus named {name!r} already exists; choose another name or overwrite it")
    if row is None:
        row = CorpusRow(name=name)
        session.add(row)
    else:
        row.documents.clear()
        row.queries.clear()
        row.triples.clear()
        row.updated_at = utc_now()
        session.flush()  # old rows go before new ones with the same ids arrive
    row.extractor = extractor
    row.meta = _json_dict(meta, "meta")
    row.documents = [
        DocumentRow(position=i, doc_id=doc.id, title=doc.title, text=doc.text, source=doc.source)
        for i, doc in enumerate(corpus.documents)
    ]
    row.queries = [
        QueryRow(position=i, query_id=q.id, text=q.text, answers=list(q.answers), doc_ids=list(q.doc_ids))
        for i, q in enumerate(corpus.queries)
    ]
    row.triples = [_triple_row(i, triple) for i, triple in enumerate(triples)]
    session.flush()
    return row


def _store_definition(
    session: Session,
    corpus_row: CorpusRow,
    name: str,
    definition: PrivacyDefinition,
    settings: dict[str, Any] | None,
    overwrite: bool,
) -> None:
    row = session.scalar(
        select(PrivacyDefinitionRow).where(
            PrivacyDefinitionRow.corpus_id == corpus_row.id, PrivacyDefinitionRow.name == name
        )
    )
    if row is not None and not overwrite:
        raise StorageError(f"corpus {corpus_row.name!r} already has a privacy definition named {name!r}")
    if row is None:
        row = PrivacyDefinitionRow(corpus=corpus_row, name=name)
        session.add(row)
    values = privacy_definition_to_dict(definition)
    row.private = values["private"]
    row.public = values["public"]
    row.excluded = values["excluded"]
    row.marked = values["marked"]
    row.query = values["query"]
    row.moves = values["moves"]
    row.settings = _json_dict(settings, "settings")
    session.flush()


def _stored_meta(
    meta: dict[str, Any], definition_names: set[str]
) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Extractor, corpus meta and per-definition settings from bundle meta (as `export_json` writes them)."""
    extractor = meta.get("extractor", "")
    if not isinstance(extractor, str):
        raise BundleError("meta.extractor", "expected a string")
    corpus_meta = meta.get("corpus_meta", {})
    if not isinstance(corpus_meta, dict):
        raise BundleError("meta.corpus_meta", "expected an object")
    settings = meta.get("definition_settings", {})
    if not isinstance(settings, dict):
        raise BundleError("meta.definition_settings", "expected an object")
    for def_name, value in settings.items():
        if def_name not in definition_names:
            raise BundleError(f"meta.definition_settings.{def_name}", "no definition with this name")
        if not isinstance(value, dict):
            raise BundleError(f"meta.definition_settings.{def_name}", "expected an object")
    return extractor, corpus_meta, settings


def _triple_row(position: int, triple: Triple) -> TripleRow:
    return TripleRow(
        position=position,
        head=triple.head,
        relation=triple.relation,
        tail=triple.tail,
        doc_id=triple.doc_id,
        span_start=triple.span[0],
        span_end=triple.span[1],
        confidence=triple.confidence,
        backend=triple.backend,
    )


def _triple_from_row(row: TripleRow) -> Triple:
    return Triple(
        head=row.head,
        relation=row.relation,
        tail=row.tail,
        doc_id=row.doc_id,
        span=(row.span_start, row.span_end),
        confidence=row.confidence,
        backend=row.backend,
    )


def _corpus_from_row(row: CorpusRow) -> Corpus:
    return Corpus(
        documents=[Document(id=d.doc_id, title=d.title, text=d.text, source=d.source) for d in row.documents],
        queries=[
            Query(id=q.query_id, text=q.text, answers=tuple(q.answers), doc_ids=tuple(q.doc_ids))
            for q in row.queries
        ],
    )


def _definition_from_row(row: PrivacyDefinitionRow) -> PrivacyDefinition:
    return privacy_definition_from_dict(
        {
            "private": row.private,
            "public": row.public,
            "excluded": row.excluded,
            "marked": row.marked,
            "query": row.query,
            "moves": row.moves,
        },
        f"privacy_definitions[{row.name}]",
    )


def _annotation_from_row(row: AnnotationRow) -> Annotation:
    return Annotation(
        id=row.id,
        corpus_name=row.corpus.name if row.corpus is not None else None,
        doc_id=row.doc_id,
        kind=row.kind,
        prompt=row.prompt,
        model=row.model,
        output=row.output,
        status=row.status,
        note=row.note,
        created_at=row.created_at,
        metrics=dict(row.metrics),
    )

"""Saved corpora and whole workspaces: documents, queries and triples, their meta and version, and
the JSON bundle that carries a corpus with its definitions and rewrite runs in or out."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session

from core.saving import LoadedWorkspace, WorkspaceSave, content_digest
from core.serialize import BundleError, export_bundle, import_bundle, parse_bundle_json
from core.types import Corpus, Document, Query, Triple
from storage.db import lock_key
from storage.definitions import definition_from_row, store_definition
from storage.rewrite_runs import rewrite_run_from_row, rewrite_run_row, runs_of
from storage.store import (
    ConflictError,
    NameTakenError,
    StorageError,
    Store,
    bump_version,
    clean_name,
    corpus_by_name,
    json_dict,
    saved_name,
    user_row,
)
from storage.tables import (
    LOCAL_USER,
    SAVED,
    CorpusRow,
    DocumentRow,
    PrivacyDefinitionRow,
    QueryRow,
    TripleRow,
    UserRow,
    utc_now,
)
from storage.users import visible_condition


@dataclass(frozen=True)
class CorpusSummary:
    name: str
    created_at: datetime
    extractor: str
    documents: int
    triples: int
    definitions: int
    owner: str = LOCAL_USER
    visibility: str = "private"


class CorpusStore(Store):
    """Whole workspaces (one transaction, versioned), corpora and bundles."""

    def save_workspace(
        self,
        name: str,
        state: WorkspaceSave,
        *,
        expected_version: int | None,
        overwrite: bool = False,
        owner: str = LOCAL_USER,
    ) -> int:
        """Write a whole workspace in one transaction; returns its new version.

        A new name is created. An existing one is written only if `expected_version` is its current
        version (checked inside the write transaction), or with `overwrite`; otherwise nothing is
        written and ConflictError (it moved on) or NameTakenError (no version was given) says so.
        """
        name = saved_name(name)
        with self._transaction() as session:
            _lock_name(session, name)
            row = session.scalar(select(CorpusRow).where(CorpusRow.name == name))
            if row is None:
                if state.corpus is None:
                    raise StorageError(f"no saved corpus named {name!r}")
                row = CorpusRow(
                    name=name, owner=user_row(session, owner), kind=SAVED, visibility="private", version=1
                )
                session.add(row)
                session.flush()
            elif overwrite:
                bump_version(session, row)
            elif expected_version is None:
                raise NameTakenError(name)
            else:
                _claim_version(session, row, expected_version)
            _write_workspace(session, row, state)
            session.flush()
            return int(session.scalar(select(CorpusRow.version).where(CorpusRow.id == row.id)) or 0)

    def load_workspace(self, name: str) -> LoadedWorkspace:
        """Corpus, triples, meta, every definition and rewrite run of `name`, read in one snapshot."""
        with self._snapshot() as session:
            row = corpus_by_name(session, name)
            corpus, triples = _content_of(session, row.id)
            definitions = {
                d.name: definition_from_row(d)
                for d in session.scalars(
                    select(PrivacyDefinitionRow).where(PrivacyDefinitionRow.corpus_id == row.id)
                )
            }
            rewrite_runs = runs_of(session, row.id, name)
            return LoadedWorkspace(
                corpus=corpus,
                triples=triples,
                meta=dict(row.meta or {}),
                definitions=definitions,
                rewrite_runs=rewrite_runs,
                version=row.version,
                content_digest=row.content_digest,
            )

    def workspace_version(self, name: str) -> int:
        with self._sessions() as session:
            return corpus_by_name(session, name).version

    def save_corpus(
        self,
        name: str,
        corpus: Corpus,
        triples: list[Triple],
        extractor: str = "",
        meta: dict[str, Any] | None = None,
        overwrite: bool = False,
        owner: str = LOCAL_USER,
    ) -> None:
        """Store a corpus and its triples under `name`; a new corpus is owned by `owner`.

        Overwriting replaces documents, queries, triples, extractor and meta; the corpus's saved
        privacy definitions and annotations are kept.
        """
        with self._transaction() as session:
            name = saved_name(name)
            store_corpus(session, name, corpus, triples, extractor, meta, overwrite, owner=owner)

    def load_corpus(self, name: str) -> tuple[Corpus, list[Triple]]:
        with self._sessions() as session:
            return _content_of(session, corpus_by_name(session, name).id)

    def corpus_meta(self, name: str) -> dict[str, Any]:
        """The `meta` object stored with a corpus by `save_corpus` or `import_json` (a copy)."""
        with self._sessions() as session:
            return dict(corpus_by_name(session, name).meta or {})

    def list_corpora(self, visible_to: str | None = None) -> list[CorpusSummary]:
        """Saved workspaces (autosaved sessions are not listed); `visible_to`: only those that user
        owns, that are shared with them or that are public."""

        def count(model: type[DocumentRow | TripleRow | PrivacyDefinitionRow]) -> Any:
            return select(func.count()).where(model.corpus_id == CorpusRow.id).scalar_subquery()

        statement = (
            select(
                CorpusRow.name,
                CorpusRow.created_at,
                CorpusRow.extractor,
                count(DocumentRow),
                count(TripleRow),
                count(PrivacyDefinitionRow),
                UserRow.name,
                CorpusRow.visibility,
            )
            .join(CorpusRow.owner)
            .where(CorpusRow.kind == SAVED)
            .order_by(CorpusRow.name)
        )
        if visible_to is not None:
            statement = statement.where(visible_condition(visible_to))
        with self._sessions() as session:
            return [CorpusSummary(*row) for row in session.execute(statement)]

    def delete_corpus(self, name: str) -> None:
        """Delete a corpus with its documents, triples, definitions and rewrite runs."""
        with self._transaction() as session:
            session.delete(corpus_by_name(session, name))

    def export_json(self, corpus_name: str) -> str:
        """The corpus, its triples and all its definitions as a `rag-privacy-studio/1` JSON bundle."""
        with self._sessions() as session:
            row = corpus_by_name(session, corpus_name, load_content=True)
            bundle = export_bundle(
                row.name,
                _corpus_from_row(row),
                [_triple_from_row(t) for t in row.triples],
                {d.name: definition_from_row(d) for d in row.definitions},
                {
                    "extractor": row.extractor,
                    "corpus_meta": row.meta,
                    "definition_settings": {d.name: d.settings for d in row.definitions},
                },
                [rewrite_run_from_row(run) for run in row.rewrite_runs],
            )
        return json.dumps(bundle, ensure_ascii=False, indent=2, allow_nan=False)

    def import_json(self, text: str, name: str | None = None, owner: str = LOCAL_USER) -> str:
        """Store a JSON bundle as a new corpus (named `name` or the bundle's name); returns the stored name.

        All or nothing: on any error the database is unchanged.
        """
        try:
            bundle = import_bundle(parse_bundle_json(text))
            extractor, corpus_meta, settings = _stored_meta(bundle.meta, set(bundle.definitions))
        except BundleError as exc:
            raise StorageError(f"invalid bundle: {exc.message}", field=exc.field) from exc
        target = saved_name(name if name is not None else bundle.name)
        with self._transaction() as session:
            row = store_corpus(
                session, target, bundle.corpus, bundle.triples, extractor, corpus_meta, False, owner=owner
            )
            for def_name, definition in bundle.definitions.items():
                store_definition(session, row, def_name, definition, settings.get(def_name), False)
            row.rewrite_runs = [rewrite_run_row(run) for run in bundle.rewrites]
            session.flush()
        return target


def store_corpus(
    session: Session,
    name: str,
    corpus: Corpus,
    triples: list[Triple],
    extractor: str,
    meta: dict[str, Any] | None,
    overwrite: bool,
    owner: str = LOCAL_USER,
    kind: str = SAVED,
) -> CorpusRow:
    row = session.scalar(select(CorpusRow).where(CorpusRow.name == name))
    if row is not None and not overwrite:
        raise StorageError(f"a corpus named {name!r} already exists; choose another name or overwrite it")
    if row is None:
        row = CorpusRow(name=name, owner=user_row(session, owner), kind=kind, visibility="private")
        session.add(row)
    else:
        delete_content(session, row.id)
        bump_version(session, row)
        row.updated_at = utc_now()
    row.extractor = extractor
    row.content_digest = content_digest(corpus, triples)
    row.meta = json_dict(meta, "meta")
    session.flush()
    _insert_content(session, row.id, corpus, triples)
    session.expire(row, ["documents", "queries", "triples"])  # written past the ORM's collections
    return row


def _lock_name(session: Session, name: str) -> None:
    """Two first saves of one new name queue instead of one failing on the unique name."""
    lock_key(session, "corpus:" + name)


def _claim_version(session: Session, row: CorpusRow, expected: int) -> None:
    """Move the workspace from version `expected` to the next, or raise ConflictError: one UPDATE
    with the version in its WHERE, so the check and the write are one step in either database."""
    result = session.execute(
        update(CorpusRow)
        .where(CorpusRow.id == row.id, CorpusRow.version == expected)
        .values(version=CorpusRow.version + 1, updated_at=utc_now())
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        current, digest = session.execute(
            select(CorpusRow.version, CorpusRow.content_digest).where(CorpusRow.id == row.id)
        ).one()
        raise ConflictError(row.name, expected, int(current), digest)
    session.expire(row, ["version", "updated_at"])


def _write_workspace(session: Session, row: CorpusRow, state: WorkspaceSave) -> None:
    """The body of `save_workspace` once the name is claimed: content (only if it changed), meta,
    definitions and rewrite runs."""
    if state.corpus is not None and (state.content_digest != row.content_digest or not row.content_digest):
        delete_content(session, row.id)
        _insert_content(session, row.id, state.corpus, state.triples)
        row.extractor = state.extractor
        row.content_digest = state.content_digest
        session.expire(row, ["documents", "queries", "triples"])
    meta = dict(row.meta or {})
    meta.update(state.meta)
    for key in state.meta_removed:
        meta.pop(key, None)
    row.meta = json_dict(meta, "meta")
    stored = set(
        session.scalars(select(PrivacyDefinitionRow.name).where(PrivacyDefinitionRow.corpus_id == row.id))
    )
    stale = [n for n in stored if state.owns_definition(n) and n not in state.definitions]
    if stale:
        session.execute(
            delete(PrivacyDefinitionRow)
            .where(PrivacyDefinitionRow.corpus_id == row.id, PrivacyDefinitionRow.name.in_(stale))
            .execution_options(synchronize_session=False)
        )
        session.expire(row, ["definitions"])
    for name, definition in state.definitions.items():
        store_definition(
            session, row, clean_name(name, "definition name"), definition, state.definition_settings, True
        )
    if state.rewrite_runs is not None:
        row.rewrite_runs.clear()
        session.flush()
        row.rewrite_runs = [rewrite_run_row(run) for run in state.rewrite_runs]


def delete_content(session: Session, *corpus_ids: int) -> None:
    for model in (DocumentRow, QueryRow, TripleRow):
        session.execute(
            delete(model).where(model.corpus_id.in_(corpus_ids)).execution_options(synchronize_session=False)
        )


def _insert_content(session: Session, corpus_id: int, corpus: Corpus, triples: list[Triple]) -> None:
    """Documents, queries and triples as multi-row INSERTs: ORM objects would cost ~20x more time on
    tens of thousands of triples (measured in benchmarks/bench_storage.py)."""
    documents = [
        {
            "corpus_id": corpus_id,
            "position": i,
            "doc_id": d.id,
            "title": d.title,
            "text": d.text,
            "source": d.source,
        }
        for i, d in enumerate(corpus.documents)
    ]
    queries = [
        {
            "corpus_id": corpus_id,
            "position": i,
            "query_id": q.id,
            "text": q.text,
            "answers": list(q.answers),
            "doc_ids": list(q.doc_ids),
        }
        for i, q in enumerate(corpus.queries)
    ]
    triple_rows = [
        {
            "corpus_id": corpus_id,
            "position": i,
            "head": t.head,
            "relation": t.relation,
            "tail": t.tail,
            "doc_id": t.doc_id,
            "span_start": t.span[0],
            "span_end": t.span[1],
            "confidence": t.confidence,
            "backend": t.backend,
            "category": t.category,
        }
        for i, t in enumerate(triples)
    ]
    for model, rows in ((DocumentRow, documents), (QueryRow, queries), (TripleRow, triple_rows)):
        if rows:
            session.execute(insert(model), rows)


def _content_of(session: Session, corpus_id: int) -> tuple[Corpus, list[Triple]]:
    """A saved corpus's documents, queries and triples, read as plain rows (no ORM objects)."""

    def rows(model: Any, *columns: Any) -> Any:
        return session.execute(
            select(*columns).where(model.corpus_id == corpus_id).order_by(model.position)
        ).all()

    documents = rows(DocumentRow, DocumentRow.doc_id, DocumentRow.title, DocumentRow.text, DocumentRow.source)
    queries = rows(QueryRow, QueryRow.query_id, QueryRow.text, QueryRow.answers, QueryRow.doc_ids)
    triples = rows(
        TripleRow,
        TripleRow.head,
        TripleRow.relation,
        TripleRow.tail,
        TripleRow.doc_id,
        TripleRow.span_start,
        TripleRow.span_end,
        TripleRow.confidence,
        TripleRow.backend,
        TripleRow.category,
    )
    corpus = Corpus(
        documents=[Document(id=d, title=t, text=x, source=s) for d, t, x, s in documents],
        queries=[Query(id=q, text=t, answers=tuple(a), doc_ids=tuple(ids)) for q, t, a, ids in queries],
    )
    return corpus, [_triple_from_row(row) for row in triples]


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


def _triple_from_row(row: TripleRow) -> Triple:
    return Triple(
        head=row.head,
        relation=row.relation,
        tail=row.tail,
        doc_id=row.doc_id,
        span=(row.span_start, row.span_end),
        confidence=row.confidence,
        backend=row.backend,
        category=row.category,
    )


def _corpus_from_row(row: CorpusRow) -> Corpus:
    return Corpus(
        documents=[Document(id=d.doc_id, title=d.title, text=d.text, source=d.source) for d in row.documents],
        queries=[
            Query(id=q.query_id, text=q.text, answers=tuple(q.answers), doc_ids=tuple(q.doc_ids))
            for q in row.queries
        ],
    )

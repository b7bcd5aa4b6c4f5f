"""Autosaved sessions: one browser's (or signed-in user's) workspace, stored as a never-listed
corpus of kind `session` and written only where it changed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from core.eraser4rag.filters import PrivacyDefinition
from core.serialize import privacy_definition_to_dict
from core.types import Corpus, Triple
from storage.corpora import delete_content, store_corpus
from storage.store import StorageError, Store, json_dict, session_corpus_name
from storage.tables import SESSION, CorpusRow, PrivacyDefinitionRow, utc_now


class SessionStore(Store):
    """Autosaves and their pruning; `load_corpus` reads a session back by its `session_name`."""

    def save_session(
        self,
        key: str,
        owner: str,
        *,
        corpus: Corpus | None,
        triples: list[Triple],
        extractor: str,
        meta: dict[str, Any],
        definitions: dict[str, PrivacyDefinition] | None,
    ) -> None:
        """Autosave one browser's (or user's) workspace under `key` in one transaction.

        `corpus=None`: documents and triples did not change and are not written. `definitions=None`:
        the privacy definitions did not change; otherwise they replace the session's definitions.
        A mark change thus writes the corpus row's meta and the changed definitions, never the corpus.
        """
        name = session_corpus_name(key)
        with self._transaction() as session:
            row = session.scalar(select(CorpusRow).where(CorpusRow.name == name))
            if row is not None and row.owner.name != owner:
                raise StorageError("this browser session belongs to another user; reload the page")
            if row is None or corpus is not None:
                content = corpus if corpus is not None else Corpus()
                row = store_corpus(
                    session, name, content, triples, extractor, meta, True, owner=owner, kind=SESSION
                )
            else:
                row.meta = json_dict(meta, "meta")
                row.updated_at = utc_now()
            if definitions is not None:
                _replace_session_definitions(session, row.id, definitions)

    def prune_sessions(self, older_than: timedelta) -> int:
        """Delete autosaved sessions untouched for `older_than` (browsers that never came back)."""
        cutoff = utc_now() - older_than
        with self._transaction() as session:
            ids = list(
                session.scalars(
                    select(CorpusRow.id).where(CorpusRow.kind == SESSION, CorpusRow.updated_at < cutoff)
                )
            )
            if ids:
                delete_content(session, *ids)
                session.execute(
                    delete(PrivacyDefinitionRow)
                    .where(PrivacyDefinitionRow.corpus_id.in_(ids))
                    .execution_options(synchronize_session=False)
                )
                session.execute(
                    delete(CorpusRow)
                    .where(CorpusRow.id.in_(ids))
                    .execution_options(synchronize_session=False)
                )
            return len(ids)

    def name_taken(self, name: str) -> bool:
        """Whether a saved workspace (anyone's) is named `name`."""
        with self._sessions() as session:
            return session.scalar(select(CorpusRow.id).where(CorpusRow.name == name.strip())) is not None

    def session_name(self, key: str) -> str:
        """The (never listed) corpus name the session `key` is saved under; `load_corpus` reads it."""
        return session_corpus_name(key)

    def has_session(self, key: str, owner: str) -> bool:
        with self._sessions() as session:
            row = session.scalar(select(CorpusRow).where(CorpusRow.name == session_corpus_name(key)))
            return row is not None and row.owner.name == owner


def _replace_session_definitions(
    session: Session, corpus_id: int, definitions: dict[str, PrivacyDefinition]
) -> None:
    """The session's definitions become `definitions`, by DELETE/UPDATE/INSERT without reading the old
    rows back: their JSON lists grow with the corpus and decoding them cost more than the write."""
    table = PrivacyDefinitionRow
    session.execute(
        delete(table)
        .where(table.corpus_id == corpus_id, table.name.not_in(list(definitions)))
        .execution_options(synchronize_session=False)
    )
    for name, definition in definitions.items():
        values = privacy_definition_to_dict(definition)
        columns = {
            column: values[column] for column in ("private", "public", "excluded", "marked", "query", "moves")
        }
        updated = session.execute(
            update(table)
            .where(table.corpus_id == corpus_id, table.name == name)
            .values(**columns, updated_at=utc_now())
            .execution_options(synchronize_session=False)
        )
        if updated.rowcount == 0:
            row = {"corpus_id": corpus_id, "name": name, "settings": {}, **columns}
            session.execute(insert(table), [row])

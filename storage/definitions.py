"""Privacy definitions of a saved corpus: each a named private/public split with the settings that made it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.eraser4rag.filters import PrivacyDefinition
from core.serialize import privacy_definition_from_dict, privacy_definition_to_dict
from storage.store import StorageError, Store, bump_version, clean_name, corpus_by_name, json_dict
from storage.tables import CorpusRow, PrivacyDefinitionRow


class DefinitionStore(Store):
    """Reads and writes the privacy definitions of saved corpora; every write moves the corpus's version."""

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
            corpus_row = corpus_by_name(session, corpus_name)
            bump_version(session, corpus_row)
            store_definition(
                session, corpus_row, clean_name(name, "definition name"), definition, settings, overwrite
            )

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
            corpus_row = corpus_by_name(session, corpus_name)
            bump_version(session, corpus_row)
            for name in delete:
                session.delete(_definition_row(session, corpus_name, name))
            for name, definition in definitions.items():
                store_definition(
                    session, corpus_row, clean_name(name, "definition name"), definition, settings, True
                )

    def load_definitions(self, corpus_name: str, names: Iterable[str]) -> dict[str, PrivacyDefinition]:
        """The named definitions of a saved corpus, read in one query."""
        wanted = set(names)
        if not wanted:
            return {}
        with self._sessions() as session:
            corpus_row = corpus_by_name(session, corpus_name)
            rows = session.scalars(
                select(PrivacyDefinitionRow).where(
                    PrivacyDefinitionRow.corpus_id == corpus_row.id, PrivacyDefinitionRow.name.in_(wanted)
                )
            )
            found = {row.name: definition_from_row(row) for row in rows}
        missing = sorted(wanted - set(found))
        if missing:
            raise StorageError(f"corpus {corpus_name!r} has no privacy definition named {missing[0]!r}")
        return found

    def load_definition(self, corpus_name: str, name: str) -> PrivacyDefinition:
        with self._sessions() as session:
            return definition_from_row(_definition_row(session, corpus_name, name))

    def definition_settings(self, corpus_name: str, name: str) -> dict[str, Any]:
        with self._sessions() as session:
            return dict(_definition_row(session, corpus_name, name).settings)

    def list_definitions(self, corpus_name: str) -> list[str]:
        with self._sessions() as session:
            return [row.name for row in corpus_by_name(session, corpus_name).definitions]

    def delete_definition(self, corpus_name: str, name: str) -> None:
        with self._transaction() as session:
            row = _definition_row(session, corpus_name, name)
            bump_version(session, row.corpus)
            session.delete(row)


def _definition_row(session: Session, corpus_name: str, name: str) -> PrivacyDefinitionRow:
    row = session.scalar(
        select(PrivacyDefinitionRow)
        .join(PrivacyDefinitionRow.corpus)
        .where(CorpusRow.name == corpus_name.strip(), PrivacyDefinitionRow.name == name.strip())
    )
    if row is None:
        corpus_by_name(session, corpus_name)  # a missing corpus gets its own message
        raise StorageError(f"corpus {corpus_name!r} has no privacy definition named {name!r}")
    return row


def store_definition(
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
    row.settings = json_dict(settings, "settings")
    session.flush()


def definition_from_row(row: PrivacyDefinitionRow) -> PrivacyDefinition:
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

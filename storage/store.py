"""What every part of the saved-workspace store shares: its errors, its base class, and the rows
every aggregate reaches (a corpus by name, a user by name) with the name and JSON rules they obey."""

from __future__ import annotations

import json
import re
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, configure_mappers, selectinload

import storage.annotation_tables  # noqa: F401  (every table of the shared Base, before any thread)
from core.saving import OverwriteRefused, SaveConflict
from storage.db import Database
from storage.tables import CorpusRow, UserRow, utc_now

# The migrations' env.py imports the annotation tables; when that import ran in one thread of a process
# while another thread's first query configured the mappers, the second saw AnnotationTaskRow without
# the CandidateRow it refers to and failed ("... after both dependent classes have been defined"): the
# PostgreSQL concurrent-saves test, 2 runs in about 20. All tables are registered and configured here,
# at import, in one thread.
configure_mappers()

MAX_NAME_LENGTH = 200
SESSION_PREFIX = "~session/"  # names of autosaved session corpora; refused for saved workspaces
_SECRET_KEY = re.compile(r"api[_-]?key|secret|password", re.IGNORECASE)


class StorageError(RuntimeError):
    """A refused or failed storage operation; `field` names the bad bundle field when there is one."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class ConflictError(StorageError, SaveConflict):
    """A save based on an older version of the workspace; nothing was written."""

    def __init__(self, name: str, expected: int, current: int, content_digest: str) -> None:
        SaveConflict.__init__(self, name, expected, current, content_digest)
        self.field = None


class NameTakenError(StorageError, OverwriteRefused):
    """The name is taken and the save did not ask to overwrite; nothing was written."""

    def __init__(self, name: str) -> None:
        OverwriteRefused.__init__(self, name)
        self.field = None


class Store(Database):
    """The base of every aggregate's store: `Repository` joins them into the studio's one door."""

    error = StorageError

    def _snapshot(self) -> Session:
        """A read session whose reads all see one committed state (PostgreSQL: REPEATABLE READ;
        SQLite: one read transaction of the WAL)."""
        session = self._sessions()
        if self.dialect == "postgresql":
            session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        return session


def clean_name(name: str, what: str) -> str:
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        raise StorageError(f"{what} must not be empty")
    if len(name) > MAX_NAME_LENGTH:
        raise StorageError(f"{what} is longer than {MAX_NAME_LENGTH} characters")
    return name


def saved_name(name: str) -> str:
    name = clean_name(name, "corpus name")
    if name.startswith(SESSION_PREFIX):
        raise StorageError(f"names starting with {SESSION_PREFIX!r} are reserved for autosaved sessions")
    return name


def session_corpus_name(key: str) -> str:
    return SESSION_PREFIX + key


def json_dict(value: dict[str, Any] | None, what: str) -> dict[str, Any]:
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


def corpus_by_name(session: Session, name: str, load_content: bool = False) -> CorpusRow:
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


def bump_version(session: Session, row: CorpusRow) -> None:
    session.execute(
        update(CorpusRow)
        .where(CorpusRow.id == row.id)
        .values(version=CorpusRow.version + 1, updated_at=utc_now())
        .execution_options(synchronize_session=False)
    )
    session.expire(row, ["version", "updated_at"])


def user_row(session: Session, name: str) -> UserRow:
    row = session.scalar(select(UserRow).where(UserRow.name == name))
    if row is None:
        raise StorageError(f"no user named {name!r}; add one with `python -m core.cli users add {name}`")
    return row

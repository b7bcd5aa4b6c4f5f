"""The studio's one door to the database: `Repository` joins the store of each aggregate (corpora
and workspaces, privacy definitions, rewrite runs, users and sharing, autosaved sessions), and
`ScopedRepository` is that door as one user sees it.

Every public method runs in its own transaction, so a failed call leaves the database as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlalchemy import select

from core.eraser4rag.filters import PrivacyDefinition
from core.eraser4rag.rewrites import RewriteRun
from core.saving import LoadedWorkspace, WorkspaceSave
from core.types import Corpus, Triple
from storage.corpora import CorpusStore, CorpusSummary
from storage.db import display_name, is_url
from storage.definitions import DefinitionStore
from storage.rewrite_runs import RewriteRunStore
from storage.sessions import SessionStore
from storage.store import (
    MAX_NAME_LENGTH,
    SESSION_PREFIX,
    ConflictError,
    NameTakenError,
    StorageError,
    session_corpus_name,
)
from storage.tables import CorpusRow
from storage.users import Sharing, UserStore, readable_row

__all__ = [
    "MAX_NAME_LENGTH",
    "SESSION_PREFIX",
    "ConflictError",
    "CorpusSummary",
    "NameTakenError",
    "Repository",
    "ScopedRepository",
    "Sharing",
    "StorageError",
    "session_corpus_name",
]


class Repository(CorpusStore, DefinitionStore, RewriteRunStore, UserStore, SessionStore):
    """A SQLite file (or a PostgreSQL URL) holding saved corpora; opening it brings its schema up to date.

    Writes run in write transactions (SQLite: BEGIN IMMEDIATE), so what a write reads first (a
    version, whether a name exists) is still true when it commits.
    """

    def __init__(self, path: str | Path) -> None:
        self.path: Path | str = display_name(path) if is_url(path) else Path(path).expanduser()
        super().__init__(path)

    def for_user(self, user: str) -> ScopedRepository:
        """This repository as `user` sees it: only what they own, what is shared with them or public."""
        return ScopedRepository(self, user)


class ScopedRepository:
    """A `Repository` as one user sees it; `core.eraser4rag.workspace.Workspace.save/load` accept it as a
    repo.

    Reading needs the workspace to be visible to the user (owned, shared with them, or public);
    writing needs them to own it; what they create is theirs. Invisible workspaces are reported as
    missing, so names and contents of other users' private work stay hidden.
    """

    def __init__(self, repository: Repository, user: str) -> None:
        self.repository = repository
        self.user = user

    def _readable(self, name: str) -> None:
        with self.repository._sessions() as session:
            readable_row(session, name, self.user)

    def _writable(self, name: str) -> bool:
        """Whether `name` exists (and is ours); raises when it belongs to someone else."""
        with self.repository._sessions() as session:
            row = session.scalar(select(CorpusRow).where(CorpusRow.name == name.strip()))
            if row is None:
                return False
            if row.owner.name != self.user:
                raise StorageError(
                    f"the name {name.strip()!r} is taken by another user's workspace; choose another name"
                )
            return True

    def list_corpora(self) -> list[CorpusSummary]:
        return self.repository.list_corpora(visible_to=self.user)

    def save_workspace(
        self, name: str, state: WorkspaceSave, *, expected_version: int | None, overwrite: bool = False
    ) -> int:
        self._writable(name)
        return self.repository.save_workspace(
            name, state, expected_version=expected_version, overwrite=overwrite, owner=self.user
        )

    def load_workspace(self, name: str) -> LoadedWorkspace:
        self._readable(name)
        return self.repository.load_workspace(name)

    def load_corpus(self, name: str) -> tuple[Corpus, list[Triple]]:
        self._readable(name)
        return self.repository.load_corpus(name)

    def corpus_meta(self, name: str) -> dict[str, Any]:
        self._readable(name)
        return self.repository.corpus_meta(name)

    def list_definitions(self, corpus_name: str) -> list[str]:
        self._readable(corpus_name)
        return self.repository.list_definitions(corpus_name)

    def load_definition(self, corpus_name: str, name: str) -> PrivacyDefinition:
        self._readable(corpus_name)
        return self.repository.load_definition(corpus_name, name)

    def load_definitions(self, corpus_name: str, names: Iterable[str]) -> dict[str, PrivacyDefinition]:
        self._readable(corpus_name)
        return self.repository.load_definitions(corpus_name, names)

    def save_definitions(
        self,
        corpus_name: str,
        definitions: dict[str, PrivacyDefinition],
        settings: dict[str, Any] | None = None,
        delete: Iterable[str] = (),
    ) -> None:
        if not self._writable(corpus_name):
            raise StorageError(f"no saved corpus named {corpus_name.strip()!r}")
        self.repository.save_definitions(corpus_name, definitions, settings, delete=delete)

    def export_json(self, corpus_name: str) -> str:
        self._readable(corpus_name)
        return self.repository.export_json(corpus_name)

    def save_corpus(self, name: str, corpus: Corpus, triples: list[Triple], **kwargs: Any) -> None:
        self._writable(name)
        self.repository.save_corpus(name, corpus, triples, owner=self.user, **kwargs)

    def save_definition(
        self, corpus_name: str, name: str, definition: PrivacyDefinition, *args: Any, **kwargs: Any
    ) -> None:
        if not self._writable(corpus_name):
            raise StorageError(f"no saved corpus named {corpus_name.strip()!r}")
        self.repository.save_definition(corpus_name, name, definition, *args, **kwargs)

    def delete_definition(self, corpus_name: str, name: str) -> None:
        if not self._writable(corpus_name):
            raise StorageError(f"no saved corpus named {corpus_name.strip()!r}")
        self.repository.delete_definition(corpus_name, name)

    def delete_corpus(self, name: str) -> None:
        if not self._writable(name):
            raise StorageError(f"no saved corpus named {name.strip()!r}")
        self.repository.delete_corpus(name)

    def save_rewrites(self, corpus_name: str, runs: list[RewriteRun]) -> None:
        if not self._writable(corpus_name):
            raise StorageError(f"no saved corpus named {corpus_name.strip()!r}")
        self.repository.save_rewrites(corpus_name, runs)

    def load_rewrites(self, corpus_name: str, definition_name: str | None = None) -> list[RewriteRun]:
        self._readable(corpus_name)
        return self.repository.load_rewrites(corpus_name, definition_name)

    def import_json(self, text: str, name: str | None = None) -> str:
        if name is not None:
            self._writable(name)
        return self.repository.import_json(text, name=name, owner=self.user)

    def sharing(self, corpus_name: str) -> Sharing:
        self._readable(corpus_name)
        return self.repository.sharing(corpus_name)

    def set_sharing(
        self, corpus_name: str, *, users: list[str] | None = None, public: bool | None = None
    ) -> Sharing:
        return self.repository.set_sharing(corpus_name, users=users, public=public, acting_user=self.user)

    def name_taken(self, name: str) -> bool:
        """Whether the name is used, by this user or another (a yes reveals no content)."""
        return self.repository.name_taken(name)

"""The studio's one door to the database: corpora, privacy definitions, bundles, users and sessions.

Every public method runs in its own transaction, so a failed call leaves the database as it was.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.orm import Session, selectinload

from core.filters import PrivacyDefinition
from core.rewrites import RewriteRun
from core.saving import (
    LoadedWorkspace,
    OverwriteRefused,
    SaveConflict,
    WorkspaceSave,
    content_digest,
)
from core.serialize import (
    BundleError,
    export_bundle,
    import_bundle,
    parse_bundle_json,
    privacy_definition_from_dict,
    privacy_definition_to_dict,
    rewrite_run_from_dict,
    rewrite_run_to_dict,
)
from core.types import Corpus, Document, Query, Triple
from storage.db import (
    Database,
    display_name,
    is_url,
    lock_key,
)
from storage.tables import (
    LOCAL_USER,
    SAVED,
    SESSION,
    CorpusRow,
    DocumentRow,
    PrivacyDefinitionRow,
    QueryRow,
    RewriteRow,
    RewriteRunRow,
    ShareRow,
    TripleRow,
    UserRow,
    utc_now,
)

MAX_NAME_LENGTH = 200
SESSION_PREFIX = "~session/"  # names of autosaved session corpora; refused for saved workspaces
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
    owner: str = LOCAL_USER
    visibility: str = "private"


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


class Repository(Database):
    """A SQLite file (or a PostgreSQL URL) holding saved corpora; opening it brings its schema up to date.

    Writes run in write transactions (SQLite: BEGIN IMMEDIATE), so what a write reads first (a
    version, whether a name exists) is still true when it commits.
    """

    error = StorageError

    def __init__(self, path: str | Path) -> None:
        self.path: Path | str = display_name(path) if is_url(path) else Path(path).expanduser()
        super().__init__(path)

    def _snapshot(self) -> Session:
        """A read session whose reads all see one committed state (PostgreSQL: REPEATABLE READ;
        SQLite: one read transaction of the WAL)."""
        session = self._sessions()
        if self.dialect == "postgresql":
            session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        return session

    # --- whole workspaces ---------------------------------------------------------------------

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
        name = _saved_name(name)
        with self._transaction() as session:
            _lock_name(session, name)
            row = session.scalar(select(CorpusRow).where(CorpusRow.name == name))
            if row is None:
                if state.corpus is None:
                    raise StorageError(f"no saved corpus named {name!r}")
                row = CorpusRow(
                    name=name, owner=_user_row(session, owner), kind=SAVED, visibility="private", version=1
                )
                session.add(row)
                session.flush()
            elif overwrite:
                _bump_version(session, row)
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
            row = _corpus_row(session, name)
            corpus, triples = _content_of(session, row.id)
            definitions = {
                d.name: _definition_from_row(d)
                for d in session.scalars(
                    select(PrivacyDefinitionRow).where(PrivacyDefinitionRow.corpus_id == row.id)
                )
            }
            runs = session.scalars(
                select(RewriteRunRow)
                .options(selectinload(RewriteRunRow.rewrites))
                .where(RewriteRunRow.corpus_id == row.id)
                .order_by(RewriteRunRow.id)
            )
            try:
                rewrite_runs = [_rewrite_run_from_row(run) for run in runs]
            except BundleError as exc:
                raise StorageError(f"a saved rewrite of {name!r} is damaged: {exc.message}") from exc
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
            return _corpus_row(session, name).version

    # --- corpora --------------------------------------------------------------------------------

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
            name = _saved_name(name)
            _store_corpus(session, name, corpus, triples, extractor, meta, overwrite, owner=owner)

    def load_corpus(self, name: str) -> tuple[Corpus, list[Triple]]:
        with self._sessions() as session:
            return _content_of(session, _corpus_row(session, name).id)

    def corpus_meta(self, name: str) -> dict[str, Any]:
        """The `meta` object stored with a corpus by `save_corpus` or `import_json` (a copy)."""
        with self._sessions() as session:
            return dict(_corpus_row(session, name).meta or {})

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
            statement = statement.where(_visible_to(visible_to))
        with self._sessions() as session:
            return [CorpusSummary(*row) for row in session.execute(statement)]

    def delete_corpus(self, name: str) -> None:
        """Delete a corpus with its documents, triples, definitions and rewrite runs."""
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
            _bump_version(session, corpus_row)
            _store_definition(
                session, corpus_row, _clean_name(name, "definition name"), definition, settings, overwrite
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
            corpus_row = _corpus_row(session, corpus_name)
            _bump_version(session, corpus_row)
            for name in delete:
                session.delete(_definition_row(session, corpus_name, name))
            for name, definition in definitions.items():
                _store_definition(
                    session, corpus_row, _clean_name(name, "definition name"), definition, settings, True
                )

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
            row = _definition_row(session, corpus_name, name)
            _bump_version(session, row.corpus)
            session.delete(row)

    # --- rewrite runs -------------------------------------------------------------------------

    def save_rewrites(self, corpus_name: str, runs: list[RewriteRun]) -> None:
        """Replace the saved rewrite runs of a corpus with `runs` (each names its definition).

        Runs are kept whatever the definition has become since: a stale run stays saved and is
        reported stale by whoever compares its fingerprint with the current definition.
        """
        with self._transaction() as session:
            corpus_row = _corpus_row(session, corpus_name)
            _bump_version(session, corpus_row)
            corpus_row.rewrite_runs.clear()
            session.flush()
            corpus_row.rewrite_runs = [_rewrite_run_row(run) for run in runs]
            session.flush()

    def load_rewrites(self, corpus_name: str, definition_name: str | None = None) -> list[RewriteRun]:
        """Saved rewrite runs of a corpus (of one definition when `definition_name` is given)."""
        with self._sessions() as session:
            corpus_row = _corpus_row(session, corpus_name)
            statement = (
                select(RewriteRunRow)
                .options(selectinload(RewriteRunRow.rewrites))
                .where(RewriteRunRow.corpus_id == corpus_row.id)
                .order_by(RewriteRunRow.id)
            )
            if definition_name is not None:
                statement = statement.where(RewriteRunRow.definition_name == definition_name.strip())
            try:
                return [_rewrite_run_from_row(row) for row in session.scalars(statement)]
            except BundleError as exc:
                raise StorageError(f"a saved rewrite of {corpus_name!r} is damaged: {exc.message}") from exc

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
                [_rewrite_run_from_row(run) for run in row.rewrite_runs],
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
        target = _saved_name(name if name is not None else bundle.name)
        with self._transaction() as session:
            row = _store_corpus(
                session, target, bundle.corpus, bundle.triples, extractor, corpus_meta, False, owner=owner
            )
            for def_name, definition in bundle.definitions.items():
                _store_definition(session, row, def_name, definition, settings.get(def_name), False)
            row.rewrite_runs = [_rewrite_run_row(run) for run in bundle.rewrites]
            session.flush()
        return target

    # --- users and sign-in (revision 0002_users_sessions) --------------------------------------

    def add_user(self, name: str, password: str) -> None:
        """A user who can sign in; the password is stored only as a bcrypt hash."""
        name = _user_name(name)
        digest = _hash_password(password)
        with self._transaction() as session:
            if session.scalar(select(UserRow).where(UserRow.name == name)) is not None:
                raise StorageError(f"a user named {name!r} already exists")
            session.add(UserRow(name=name, password_hash=digest))

    def set_password(self, name: str, password: str) -> None:
        digest = _hash_password(password)
        with self._transaction() as session:
            row = _user_row(session, _user_name(name))
            row.password_hash = digest

    def verify_user(self, name: str, password: str) -> bool:
        """Whether `name` signs in with `password` (the local user never does)."""
        with self._sessions() as session:
            row = session.scalar(select(UserRow).where(UserRow.name == (name or "").strip()))
            digest = row.password_hash if row is not None else ""
        return _password_matches(password, digest)

    def list_users(self) -> list[str]:
        """Users who can sign in, by name (not the built-in local user)."""
        with self._sessions() as session:
            statement = select(UserRow.name).where(UserRow.name != LOCAL_USER).order_by(UserRow.name)
            return list(session.scalars(statement))

    # --- ownership and sharing --------------------------------------------------------------------

    def for_user(self, user: str) -> ScopedRepository:
        """This repository as `user` sees it: only what they own, what is shared with them or public."""
        return ScopedRepository(self, user)

    def sharing(self, corpus_name: str) -> Sharing:
        with self._sessions() as session:
            return _sharing_of(_corpus_row(session, corpus_name))

    def set_sharing(
        self,
        corpus_name: str,
        *,
        users: list[str] | None = None,
        public: bool | None = None,
        owner: str | None = None,
        acting_user: str | None = None,
    ) -> Sharing:
        """Change who may see a saved workspace: `users` replaces the share list, `public` the
        visibility, `owner` the owner. With `acting_user`, only the owner may change it."""
        with self._transaction() as session:
            row = _corpus_row(session, corpus_name)
            if acting_user is not None and row.owner.name != acting_user:
                _readable_row(session, corpus_name, acting_user)  # not visible: "no saved workspace"
                raise StorageError(f"only its owner ({row.owner.name}) can share {corpus_name!r}")
            if owner is not None:
                row.owner = _user_row(session, _user_name(owner, allow_local=True))
            if users is not None:
                names = sorted({_user_name(u) for u in users if u.strip()} - {row.owner.name})
                row.shared_with = [_user_row(session, n) for n in names]
            if public is not None:
                row.visibility = "public" if public else "private"
            session.flush()
            return _sharing_of(row)

    # --- autosaved sessions ------------------------------------------------------------------------

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
                row = _store_corpus(
                    session, name, content, triples, extractor, meta, True, owner=owner, kind=SESSION
                )
            else:
                row.meta = _json_dict(meta, "meta")
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
                _delete_content(session, *ids)
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


def session_corpus_name(key: str) -> str:
    return SESSION_PREFIX + key


@dataclass(frozen=True)
class Sharing:
    owner: str
    public: bool
    users: tuple[str, ...]

    def describe(self) -> str:
        who = "public" if self.public else "private"
        if self.users:
            who += ", shared with " + ", ".join(self.users)
        return f"owner {self.owner}; {who}"


class ScopedRepository:
    """A `Repository` as one user sees it; `core.workspace.Workspace.save/load` accept it as a repo.

    Reading needs the workspace to be visible to the user (owned, shared with them, or public);
    writing needs them to own it; what they create is theirs. Invisible workspaces are reported as
    missing, so names and contents of other users' private work stay hidden.
    """

    def __init__(self, repository: Repository, user: str) -> None:
        self.repository = repository
        self.user = user

    def _readable(self, name: str) -> None:
        with self.repository._sessions() as session:
            _readable_row(session, name, self.user)

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


# --- helpers (all SQL stays in this module) -------------------------------------------------------


def _clean_name(name: str, what: str) -> str:
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        raise StorageError(f"{what} must not be empty")
    if len(name) > MAX_NAME_LENGTH:
        raise StorageError(f"{what} is longer than {MAX_NAME_LENGTH} characters")
    return name


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
    owner: str = LOCAL_USER,
    kind: str = SAVED,
) -> CorpusRow:
    row = session.scalar(select(CorpusRow).where(CorpusRow.name == name))
    if row is not None and not overwrite:
        raise StorageError(f"a corpus named {name!r} already exists; choose another name or overwrite it")
    if row is None:
        row = CorpusRow(name=name, owner=_user_row(session, owner), kind=kind, visibility="private")
        session.add(row)
    else:
        _delete_content(session, row.id)
        _bump_version(session, row)
        row.updated_at = utc_now()
    row.extractor = extractor
    row.content_digest = content_digest(corpus, triples)
    row.meta = _json_dict(meta, "meta")
    session.flush()
    _insert_content(session, row.id, corpus, triples)
    session.expire(row, ["documents", "queries", "triples"])  # written past the ORM's collections
    return row


def _lock_name(session: Session, name: str) -> None:
    """Two first saves of one new name queue instead of one failing on the unique name."""
    lock_key(session, "corpus:" + name)


def _bump_version(session: Session, row: CorpusRow) -> None:
    session.execute(
        update(CorpusRow)
        .where(CorpusRow.id == row.id)
        .values(version=CorpusRow.version + 1, updated_at=utc_now())
        .execution_options(synchronize_session=False)
    )
    session.expire(row, ["version", "updated_at"])


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
        _delete_content(session, row.id)
        _insert_content(session, row.id, state.corpus, state.triples)
        row.extractor = state.extractor
        row.content_digest = state.content_digest
        session.expire(row, ["documents", "queries", "triples"])
    meta = dict(row.meta or {})
    meta.update(state.meta)
    for key in state.meta_removed:
        meta.pop(key, None)
    row.meta = _json_dict(meta, "meta")
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
        _store_definition(
            session, row, _clean_name(name, "definition name"), definition, state.definition_settings, True
        )
    if state.rewrite_runs is not None:
        row.rewrite_runs.clear()
        session.flush()
        row.rewrite_runs = [_rewrite_run_row(run) for run in state.rewrite_runs]


def _delete_content(session: Session, *corpus_ids: int) -> None:
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


def _rewrite_run_row(run: RewriteRun) -> RewriteRunRow:
    values = rewrite_run_to_dict(run)
    return RewriteRunRow(
        definition_name=_clean_name(run.definition_name, "definition name"),
        label=run.label,
        eraser=run.eraser,
        verify=run.verify,
        trained=run.trained,
        fingerprint=run.fingerprint,
        created_at=run.created_at,
        doc_ids=values["doc_ids"],
        problems=values["problems"],
        metrics=_json_dict(values["metrics"], "metrics"),
        accuracy=_json_dict(values["accuracy"], "accuracy"),
        rewrites=[
            RewriteRow(
                position=i,
                doc_id=item["doc_id"],
                original=item["original"],
                text=item["text"],
                edits=item["edits"],
                removed=item["removed"],
                kept=item["kept"],
                seconds=item["seconds"],
                notes=item["notes"],
                repairs=item["repairs"],
            )
            for i, item in enumerate(values["rewrites"])
        ],
    )


def _rewrite_run_from_row(row: RewriteRunRow) -> RewriteRun:
    return rewrite_run_from_dict(
        {
            "eraser": row.eraser,
            "verify": row.verify,
            "trained": row.trained,
            "fingerprint": row.fingerprint,
            "definition": row.definition_name,
            "created_at": row.created_at,
            "doc_ids": row.doc_ids,
            "problems": row.problems,
            "metrics": row.metrics,
            "accuracy": row.accuracy,
            "rewrites": [
                {
                    "doc_id": r.doc_id,
                    "eraser": row.eraser,
                    "original": r.original,
                    "text": r.text,
                    "edits": r.edits,
                    "removed": r.removed,
                    "kept": r.kept,
                    "seconds": r.seconds,
                    "notes": r.notes,
                    "repairs": r.repairs,
                }
                for r in row.rewrites
            ],
        },
        f"rewrite_runs[{row.label}]",
    )


# --- users, visibility, sessions -----------------------------------------------------------------

BCRYPT_MAX_BYTES = 72  # bcrypt ignores (newer releases refuse) anything longer
MIN_PASSWORD_LENGTH = 8
_USER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")


def _user_name(name: str, allow_local: bool = False) -> str:
    name = (name or "").strip()
    if not _USER_NAME.match(name):
        raise StorageError(
            f"invalid user name {name!r}: use 1-64 letters, digits, '.', '_', '@' or '-', starting with a "
            "letter or digit"
        )
    if name == LOCAL_USER and not allow_local:
        raise StorageError(f"{LOCAL_USER!r} is reserved for the studio without sign-in")
    return name


def _hash_password(password: str) -> str:
    import bcrypt  # only when users are managed: keeps startup light

    encoded = (password or "").encode("utf-8")
    if len(password or "") < MIN_PASSWORD_LENGTH:
        raise StorageError(f"the password must have at least {MIN_PASSWORD_LENGTH} characters")
    if len(encoded) > BCRYPT_MAX_BYTES:
        raise StorageError(f"the password must be at most {BCRYPT_MAX_BYTES} bytes (bcrypt's limit)")
    return bcrypt.hashpw(encoded, bcrypt.gensalt()).decode("ascii")


def _password_matches(password: str, digest: str) -> bool:
    import bcrypt

    encoded = (password or "").encode("utf-8")[:BCRYPT_MAX_BYTES]
    if not digest:
        bcrypt.checkpw(encoded, _dummy_hash())  # a wrong name costs as long as a wrong password
        return False
    return bcrypt.checkpw(encoded, digest.encode("ascii"))


@functools.cache
def _dummy_hash() -> bytes:
    import bcrypt

    return bcrypt.hashpw(b"no such user", bcrypt.gensalt())


def _user_row(session: Session, name: str) -> UserRow:
    row = session.scalar(select(UserRow).where(UserRow.name == name))
    if row is None:
        raise StorageError(f"no user named {name!r}; add one with `python -m core.cli users add {name}`")
    return row


def _visible_to(user: str) -> Any:
    """SQL condition: the corpus is `user`'s, public, or shared with `user`."""
    user_id = select(UserRow.id).where(UserRow.name == user).scalar_subquery()
    shared = select(ShareRow.corpus_id).where(ShareRow.user_id == user_id)
    return or_(CorpusRow.owner_id == user_id, CorpusRow.visibility == "public", CorpusRow.id.in_(shared))


def _readable_row(session: Session, name: str, user: str) -> CorpusRow:
    row = session.scalar(
        select(CorpusRow).where(CorpusRow.name == name.strip(), CorpusRow.kind == SAVED, _visible_to(user))
    )
    if row is None:
        raise StorageError(f"no saved corpus named {name.strip()!r}")
    return row


def _sharing_of(row: CorpusRow) -> Sharing:
    return Sharing(row.owner.name, row.visibility == "public", tuple(u.name for u in row.shared_with))


def _saved_name(name: str) -> str:
    name = _clean_name(name, "corpus name")
    if name.startswith(SESSION_PREFIX):
        raise StorageError(f"names starting with {SESSION_PREFIX!r} are reserved for autosaved sessions")
    return name


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

"""Users who sign in (bcrypt hashes) and who may see a saved workspace: its owner, the users it is
shared with, or everyone when it is public."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

import bcrypt
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from storage.store import StorageError, Store, corpus_by_name, user_row
from storage.tables import LOCAL_USER, SAVED, CorpusRow, ShareRow, UserRow


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


class UserStore(Store):
    """Users, sign-in and the sharing of saved workspaces (revision 0002_users_sessions)."""

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
            row = user_row(session, _user_name(name))
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

    def sharing(self, corpus_name: str) -> Sharing:
        with self._sessions() as session:
            return _sharing_of(corpus_by_name(session, corpus_name))

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
            row = corpus_by_name(session, corpus_name)
            if acting_user is not None and row.owner.name != acting_user:
                readable_row(session, corpus_name, acting_user)  # not visible: "no saved workspace"
                raise StorageError(f"only its owner ({row.owner.name}) can share {corpus_name!r}")
            if owner is not None:
                row.owner = user_row(session, _user_name(owner, allow_local=True))
            if users is not None:
                names = sorted({_user_name(u) for u in users if u.strip()} - {row.owner.name})
                row.shared_with = [user_row(session, n) for n in names]
            if public is not None:
                row.visibility = "public" if public else "private"
            session.flush()
            return _sharing_of(row)


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
    encoded = (password or "").encode("utf-8")
    if len(password or "") < MIN_PASSWORD_LENGTH:
        raise StorageError(f"the password must have at least {MIN_PASSWORD_LENGTH} characters")
    if len(encoded) > BCRYPT_MAX_BYTES:
        raise StorageError(f"the password must be at most {BCRYPT_MAX_BYTES} bytes (bcrypt's limit)")
    return bcrypt.hashpw(encoded, bcrypt.gensalt()).decode("ascii")


def _password_matches(password: str, digest: str) -> bool:
    encoded = (password or "").encode("utf-8")[:BCRYPT_MAX_BYTES]
    if not digest:
        bcrypt.checkpw(encoded, _dummy_hash())  # a wrong name costs as long as a wrong password
        return False
    return bcrypt.checkpw(encoded, digest.encode("ascii"))


@functools.cache
def _dummy_hash() -> bytes:
    return bcrypt.hashpw(b"no such user", bcrypt.gensalt())


def visible_condition(user: str) -> Any:
    """SQL condition: the corpus is `user`'s, public, or shared with `user`."""
    user_id = select(UserRow.id).where(UserRow.name == user).scalar_subquery()
    shared = select(ShareRow.corpus_id).where(ShareRow.user_id == user_id)
    return or_(CorpusRow.owner_id == user_id, CorpusRow.visibility == "public", CorpusRow.id.in_(shared))


def readable_row(session: Session, name: str, user: str) -> CorpusRow:
    row = session.scalar(
        select(CorpusRow).where(
            CorpusRow.name == name.strip(), CorpusRow.kind == SAVED, visible_condition(user)
        )
    )
    if row is None:
        raise StorageError(f"no saved corpus named {name.strip()!r}")
    return row


def _sharing_of(row: CorpusRow) -> Sharing:
    return Sharing(row.owner.name, row.visibility == "public", tuple(u.name for u in row.shared_with))

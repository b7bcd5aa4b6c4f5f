"""ORM tables. The schema is created and changed only by the migrations in `storage/migrations/`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

# Who owns what (revision 0002_users_sessions).
LOCAL_USER = "local"  # owner of everything when the studio runs without sign-in; cannot sign in
VISIBILITIES = ("private", "public")  # private: the owner and the users it is shared with
SAVED = "saved"  # a workspace saved under a name by its owner
SESSION = "session"  # a browser's or user's autosaved workspace, never listed
CORPUS_KINDS = (SAVED, SESSION)


def utc_now() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Stored as naive UTC (SQLite has no time zones), read back as an aware UTC datetime."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be time-zone aware")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime,
        dict[str, Any]: JSON,
        list[Any]: JSON,
    }


class UserRow(Base):
    """A person who can sign in; `password_hash` is a bcrypt hash ("" for LOCAL_USER: never matches)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class ShareRow(Base):
    """A saved workspace shared with one user besides its owner."""

    __tablename__ = "shares"

    corpus_id: Mapped[int] = mapped_column(ForeignKey("corpora.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)


class CorpusRow(Base):
    __tablename__ = "corpora"
    __table_args__ = (Index("ix_corpora_owner_kind", "owner_id", "kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(default=utc_now, onupdate=utc_now)
    extractor: Mapped[str] = mapped_column(String(100), default="")
    meta: Mapped[dict[str, Any]] = mapped_column(default=dict)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    visibility: Mapped[str] = mapped_column(String(20), default="private")
    kind: Mapped[str] = mapped_column(String(20), default=SAVED)
    # Bumped by every write of the workspace (0005_versions): a save names the version it started from.
    version: Mapped[int] = mapped_column(Integer, default=1)
    content_digest: Mapped[str] = mapped_column(String(64), default="")  # of documents, queries, triples

    owner: Mapped[UserRow] = relationship()
    shared_with: Mapped[list[UserRow]] = relationship(secondary="shares", order_by="UserRow.name")

    documents: Mapped[list[DocumentRow]] = relationship(
        back_populates="corpus", cascade="all, delete-orphan", order_by="DocumentRow.position"
    )
    queries: Mapped[list[QueryRow]] = relationship(
        back_populates="corpus", cascade="all, delete-orphan", order_by="QueryRow.position"
    )
    triples: Mapped[list[TripleRow]] = relationship(
        back_populates="corpus", cascade="all, delete-orphan", order_by="TripleRow.position"
    )
    definitions: Mapped[list[PrivacyDefinitionRow]] = relationship(
        back_populates="corpus", cascade="all, delete-orphan", order_by="PrivacyDefinitionRow.name"
    )
    rewrite_runs: Mapped[list[RewriteRunRow]] = relationship(
        back_populates="corpus", cascade="all, delete-orphan", order_by="RewriteRunRow.id"
    )


class DocumentRow(Base):
    __tablename__ = "documents"
    __table_args__ = (UniqueConstraint("corpus_id", "doc_id", name="uq_documents_corpus_doc"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    corpus_id: Mapped[int] = mapped_column(ForeignKey("corpora.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    doc_id: Mapped[str] = mapped_column(String(200))
    title: Mapped[str] = mapped_column(Text, default="")
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(Text, default="")

    corpus: Mapped[CorpusRow] = relationship(back_populates="documents")


class QueryRow(Base):
    __tablename__ = "queries"
    __table_args__ = (UniqueConstraint("corpus_id", "query_id", name="uq_queries_corpus_query"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    corpus_id: Mapped[int] = mapped_column(ForeignKey("corpora.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    query_id: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    answers: Mapped[list[Any]] = mapped_column(default=list)
    doc_ids: Mapped[list[Any]] = mapped_column(default=list)

    corpus: Mapped[CorpusRow] = relationship(back_populates="queries")


class TripleRow(Base):
    __tablename__ = "triples"
    __table_args__ = (
        Index("ix_triples_corpus_position", "corpus_id", "position"),
        Index("ix_triples_corpus_doc", "corpus_id", "doc_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    corpus_id: Mapped[int] = mapped_column(ForeignKey("corpora.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    head: Mapped[str] = mapped_column(Text)
    relation: Mapped[str] = mapped_column(Text)
    tail: Mapped[str] = mapped_column(Text)
    doc_id: Mapped[str] = mapped_column(String(200))
    span_start: Mapped[int] = mapped_column(Integer)
    span_end: Mapped[int] = mapped_column(Integer)
    confidence: Mapped[float] = mapped_column(Float)
    backend: Mapped[str] = mapped_column(String(100), default="")
    category: Mapped[str] = mapped_column(String(100), default="", server_default="")

    corpus: Mapped[CorpusRow] = relationship(back_populates="triples")


class PrivacyDefinitionRow(Base):
    __tablename__ = "privacy_definitions"
    __table_args__ = (UniqueConstraint("corpus_id", "name", name="uq_privacy_definitions_corpus_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    corpus_id: Mapped[int] = mapped_column(ForeignKey("corpora.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(default=utc_now, onupdate=utc_now)
    private: Mapped[list[Any]] = mapped_column()
    public: Mapped[list[Any]] = mapped_column()
    excluded: Mapped[list[Any]] = mapped_column()
    marked: Mapped[list[Any]] = mapped_column()
    query: Mapped[list[Any]] = mapped_column()
    moves: Mapped[list[Any]] = mapped_column()
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)

    corpus: Mapped[CorpusRow] = relationship(back_populates="definitions")


class RewriteRunRow(Base):
    """One eraser's rewrites of a corpus's documents under one of its privacy definitions.

    `fingerprint` digests the definition and document texts the run was computed from; the run is
    stale when the current ones digest differently (computed in core, never stored as a flag).
    """

    __tablename__ = "rewrite_runs"
    __table_args__ = (
        UniqueConstraint(
            "corpus_id", "definition_name", "label", name="uq_rewrite_runs_corpus_definition_label"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    corpus_id: Mapped[int] = mapped_column(ForeignKey("corpora.id", ondelete="CASCADE"))
    definition_name: Mapped[str] = mapped_column(String(200))
    label: Mapped[str] = mapped_column(String(200))
    eraser: Mapped[str] = mapped_column(String(100))
    verify: Mapped[bool] = mapped_column(Boolean, default=False)
    trained: Mapped[bool] = mapped_column(Boolean, default=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[str] = mapped_column(String(40), default="")
    doc_ids: Mapped[list[Any]] = mapped_column()
    problems: Mapped[list[Any]] = mapped_column(default=list)
    metrics: Mapped[dict[str, Any]] = mapped_column(default=dict)
    accuracy: Mapped[dict[str, Any]] = mapped_column(default=dict)

    corpus: Mapped[CorpusRow] = relationship(back_populates="rewrite_runs")
    rewrites: Mapped[list[RewriteRow]] = relationship(
        back_populates="run", cascade="all, delete-orphan", order_by="RewriteRow.position"
    )


class RewriteRow(Base):
    __tablename__ = "rewrites"
    __table_args__ = (Index("ix_rewrites_run_position", "run_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("rewrite_runs.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    doc_id: Mapped[str] = mapped_column(String(200))
    original: Mapped[str] = mapped_column(Text)
    text: Mapped[str] = mapped_column(Text)
    edits: Mapped[list[Any]] = mapped_column()
    removed: Mapped[list[Any]] = mapped_column()
    kept: Mapped[list[Any]] = mapped_column()
    seconds: Mapped[float] = mapped_column(Float)
    notes: Mapped[list[Any]] = mapped_column(default=list)
    repairs: Mapped[list[Any]] = mapped_column(default=list)

    run: Mapped[RewriteRunRow] = relationship(back_populates="rewrites")

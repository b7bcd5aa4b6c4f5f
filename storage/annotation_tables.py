"""ORM tables of the annotation studio (Eraser4RAG section 3.1.1): tasks, candidate rewrites
with their automatic scores, people's reviews, annotators and training runs.

The schema is created by migration `0004_annotation`; these classes share `Base` with
`storage.tables`, so one metadata describes the whole database.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from storage.tables import Base, utc_now

SOURCE_KINDS = ("model", "eraser", "person", "import")
DECISIONS = ("accept", "edit", "reject")
RUN_KINDS = ("sft", "rl", "tagger")
RUN_STATUSES = ("running", "finished", "failed", "cancelled")


class AnnotatorRow(Base):
    __tablename__ = "annotators"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class AnnotationTaskRow(Base):
    """One document to rewrite, with g_i,pri / g_i,pub and the global G_pri / G_pub it came from."""

    __tablename__ = "annotation_tasks"
    __table_args__ = (Index("ix_annotation_tasks_batch", "batch"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)  # content hash: the same task is stored once
    batch: Mapped[str] = mapped_column(String(200), default="")  # corpus/file the task came from
    definition: Mapped[str] = mapped_column(String(200), default="")
    doc_id: Mapped[str] = mapped_column(String(200))
    title: Mapped[str] = mapped_column(Text, default="")
    text: Mapped[str] = mapped_column(Text)
    query: Mapped[str] = mapped_column(Text, default="")
    private: Mapped[list[Any]] = mapped_column()  # g_i,pri as [[h, r, t], ...]
    public: Mapped[list[Any]] = mapped_column()  # g_i,pub
    global_private: Mapped[list[Any]] = mapped_column()  # G_pri of the retrieval set
    global_public: Mapped[list[Any]] = mapped_column()  # G_pub
    occurrences: Mapped[list[Any]] = mapped_column(default=list)  # [[h, r, t, start, end], ...] in `text`
    created_at: Mapped[datetime] = mapped_column(default=utc_now)

    candidates: Mapped[list[CandidateRow]] = relationship(
        back_populates="task", cascade="all, delete-orphan", order_by="CandidateRow.id"
    )


class CandidateRow(Base):
    """A proposed rewrite of a task, its source and its automatic scores."""

    __tablename__ = "annotation_candidates"
    __table_args__ = (
        UniqueConstraint("task_id", "source", "text_hash", name="uq_candidates_task_source_text"),
        Index("ix_candidates_task", "task_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    task_id: Mapped[int] = mapped_column(ForeignKey("annotation_tasks.id", ondelete="CASCADE"))
    source_kind: Mapped[str] = mapped_column(String(20))  # one of SOURCE_KINDS
    source: Mapped[str] = mapped_column(String(300))  # "openai:gpt-4o", "eraser:graph-guided", a person
    prompt: Mapped[str] = mapped_column(String(200), default="")  # prompt file name for model sources
    text: Mapped[str] = mapped_column(Text)
    text_hash: Mapped[str] = mapped_column(String(64))
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0)
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0)
    tokens_estimated: Mapped[bool] = mapped_column(Boolean, default=False)
    seconds: Mapped[float] = mapped_column(Float, default=0.0)
    r_pri: Mapped[float | None] = mapped_column(Float, nullable=True)
    r_pub: Mapped[float | None] = mapped_column(Float, nullable=True)
    leaked: Mapped[list[Any]] = mapped_column(default=list)  # leak check: private keys still named
    scored_with: Mapped[str] = mapped_column(String(100), default="")
    passed_filter: Mapped[bool] = mapped_column(Boolean, default=False)  # r_pri = 0 and r_pub > 0.8
    notes: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)

    task: Mapped[AnnotationTaskRow] = relationship(back_populates="candidates")
    reviews: Mapped[list[ReviewRow]] = relationship(
        back_populates="candidate", cascade="all, delete-orphan", order_by="ReviewRow.id"
    )


class ReviewRow(Base):
    """One person's decision on one candidate (undo deletes the row and keeps its version in
    `ReviewUndoRow`)."""

    __tablename__ = "annotation_reviews"
    __table_args__ = (
        UniqueConstraint("candidate_id", "annotator_id", name="uq_reviews_candidate_annotator"),
        Index("ix_reviews_annotator", "annotator_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    candidate_id: Mapped[int] = mapped_column(ForeignKey("annotation_candidates.id", ondelete="CASCADE"))
    annotator_id: Mapped[int] = mapped_column(ForeignKey("annotators.id", ondelete="CASCADE"))
    decision: Mapped[str] = mapped_column(String(10))  # one of DECISIONS
    edited_text: Mapped[str] = mapped_column(Text, default="")
    seconds: Mapped[float] = mapped_column(Float, default=0.0)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    version: Mapped[int] = mapped_column(Integer, default=1)  # bumped when the annotator changes it

    candidate: Mapped[CandidateRow] = relationship(back_populates="reviews")
    annotator: Mapped[AnnotatorRow] = relationship()


class ReviewUndoRow(Base):
    """The version an undone review ended at: the next review of that candidate by that person
    continues from it, so a decision made on the state before the undo is refused."""

    __tablename__ = "annotation_review_undos"

    candidate_id: Mapped[int] = mapped_column(
        ForeignKey("annotation_candidates.id", ondelete="CASCADE"), primary_key=True
    )
    annotator_id: Mapped[int] = mapped_column(
        ForeignKey("annotators.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer)


class TrainingRunRow(Base):
    """An SFT or RL run: its settings, its curve (loss or reward per step) and its adapter folder."""

    __tablename__ = "training_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))  # one of RUN_KINDS
    status: Mapped[str] = mapped_column(String(20), default="running")
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    curve: Mapped[list[Any]] = mapped_column(default=list)  # [{"step": n, "loss"|"reward": x, ...}]
    artefact_dir: Mapped[str] = mapped_column(Text, default="")
    message: Mapped[str] = mapped_column(Text, default="")
    examples: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime] = mapped_column(default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(default=utc_now)
    finished_at: Mapped[datetime | None] = mapped_column(nullable=True)

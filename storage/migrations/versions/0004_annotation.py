"""Annotation studio: annotators, tasks, candidate rewrites with scores, reviews, training runs.

Revision ID: 0004_annotation
Revises: 0003_rewrites
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_annotation"
down_revision = "0003_rewrites"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "annotators",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "annotation_tasks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(64), nullable=False, unique=True),
        sa.Column("batch", sa.String(200), nullable=False),
        sa.Column("definition", sa.String(200), nullable=False),
        sa.Column("doc_id", sa.String(200), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("query", sa.Text(), nullable=False),
        sa.Column("private", sa.JSON(), nullable=False),
        sa.Column("public", sa.JSON(), nullable=False),
        sa.Column("global_private", sa.JSON(), nullable=False),
        sa.Column("global_public", sa.JSON(), nullable=False),
        sa.Column("occurrences", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_annotation_tasks_batch", "annotation_tasks", ["batch"])
    op.create_table(
        "annotation_candidates",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "task_id", sa.Integer(), sa.ForeignKey("annotation_tasks.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("source_kind", sa.String(20), nullable=False),
        sa.Column("source", sa.String(300), nullable=False),
        sa.Column("prompt", sa.String(200), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("text_hash", sa.String(64), nullable=False),
        sa.Column("prompt_tokens", sa.Integer(), nullable=False),
        sa.Column("completion_tokens", sa.Integer(), nullable=False),
        sa.Column("tokens_estimated", sa.Boolean(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("r_pri", sa.Float(), nullable=True),
        sa.Column("r_pub", sa.Float(), nullable=True),
        sa.Column("leaked", sa.JSON(), nullable=False),
        sa.Column("scored_with", sa.String(100), nullable=False),
        sa.Column("passed_filter", sa.Boolean(), nullable=False),
        sa.Column("notes", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("task_id", "source", "text_hash", name="uq_candidates_task_source_text"),
    )
    op.create_index("ix_candidates_task", "annotation_candidates", ["task_id"])
    op.create_table(
        "annotation_reviews",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "candidate_id",
            sa.Integer(),
            sa.ForeignKey("annotation_candidates.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "annotator_id", sa.Integer(), sa.ForeignKey("annotators.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("decision", sa.String(10), nullable=False),
        sa.Column("edited_text", sa.Text(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("candidate_id", "annotator_id", name="uq_reviews_candidate_annotator"),
    )
    op.create_index("ix_reviews_annotator", "annotation_reviews", ["annotator_id", "created_at"])
    op.create_table(
        "training_runs",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("curve", sa.JSON(), nullable=False),
        sa.Column("artefact_dir", sa.Text(), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("examples", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("training_runs")
    op.drop_index("ix_reviews_annotator", table_name="annotation_reviews")
    op.drop_table("annotation_reviews")
    op.drop_index("ix_candidates_task", table_name="annotation_candidates")
    op.drop_table("annotation_candidates")
    op.drop_index("ix_annotation_tasks_batch", table_name="annotation_tasks")
    op.drop_table("annotation_tasks")
    op.drop_table("annotators")

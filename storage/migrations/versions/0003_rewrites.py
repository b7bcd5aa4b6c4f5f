"""Rewrite runs and their rewrites, kept with the privacy definition they came from.

Revision ID: 0003_rewrites
Revises: 0002_users_sessions
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_rewrites"
down_revision = "0002_users_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rewrite_runs",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("corpus_id", sa.Integer(), sa.ForeignKey("corpora.id", ondelete="CASCADE"), nullable=False),
        sa.Column("definition_name", sa.String(200), nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("eraser", sa.String(100), nullable=False),
        sa.Column("verify", sa.Boolean(), nullable=False),
        sa.Column("trained", sa.Boolean(), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("doc_ids", sa.JSON(), nullable=False),
        sa.Column("problems", sa.JSON(), nullable=False),
        sa.Column("metrics", sa.JSON(), nullable=False),
        sa.Column("accuracy", sa.JSON(), nullable=False),
        sa.UniqueConstraint(
            "corpus_id", "definition_name", "label", name="uq_rewrite_runs_corpus_definition_label"
        ),
    )
    op.create_table(
        "rewrites",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "run_id", sa.Integer(), sa.ForeignKey("rewrite_runs.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("doc_id", sa.String(200), nullable=False),
        sa.Column("original", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("edits", sa.JSON(), nullable=False),
        sa.Column("removed", sa.JSON(), nullable=False),
        sa.Column("kept", sa.JSON(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("notes", sa.JSON(), nullable=False),
        sa.Column("repairs", sa.JSON(), nullable=False),
    )
    op.create_index("ix_rewrites_run_position", "rewrites", ["run_id", "position"])


def downgrade() -> None:
    op.drop_index("ix_rewrites_run_position", table_name="rewrites")
    op.drop_table("rewrites")
    op.drop_table("rewrite_runs")

"""Undone reviews keep their version: an undo writes the version it ended at, so a review made
before the undo (a stale tab) is refused instead of overwriting the pending item.

Revision ID: 0006_review_undos
Revises: 0005_versions
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_review_undos"
down_revision = "0005_versions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "annotation_review_undos",
        sa.Column(
            "candidate_id",
            sa.Integer(),
            sa.ForeignKey("annotation_candidates.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "annotator_id", sa.Integer(), sa.ForeignKey("annotators.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("version", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("annotation_review_undos")

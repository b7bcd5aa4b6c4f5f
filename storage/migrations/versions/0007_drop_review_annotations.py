"""Drop the `annotations` table of the first schema: review went to the annotation studio's tables
(revision 0004_annotation) and nothing wrote or read this one any more.

Revision ID: 0007_drop_review_annotations
Revises: 0006_review_undos
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_drop_review_annotations"
down_revision = "0006_review_undos"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_annotations_corpus_doc", table_name="annotations")
    op.drop_index("ix_annotations_status", table_name="annotations")
    op.drop_table("annotations")


def downgrade() -> None:
    op.create_table(
        "annotations",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("corpus_id", sa.Integer(), sa.ForeignKey("corpora.id", ondelete="CASCADE"), nullable=True),
        sa.Column("doc_id", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(50), nullable=False),
        sa.Column("prompt", sa.Text(), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("output", sa.Text(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("metrics", sa.JSON(), nullable=False),
    )
    op.create_index("ix_annotations_status", "annotations", ["status"])
    op.create_index("ix_annotations_corpus_doc", "annotations", ["corpus_id", "doc_id"])

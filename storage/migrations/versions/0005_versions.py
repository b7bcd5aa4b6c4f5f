"""Optimistic concurrency: a version on every saved workspace and review, and a digest of each
workspace's content (documents, queries, triples) so a save that changed only marks writes only those.

Revision ID: 0005_versions
Revises: 0004_annotation
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_versions"
down_revision = "0004_annotation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no table rebuild): both SQLite and PostgreSQL add a column with a default in place.
    op.add_column("corpora", sa.Column("version", sa.Integer(), nullable=False, server_default="1"))
    op.add_column("corpora", sa.Column("content_digest", sa.String(64), nullable=False, server_default=""))
    op.add_column(
        "annotation_reviews", sa.Column("version", sa.Integer(), nullable=False, server_default="1")
    )


def downgrade() -> None:
    with op.batch_alter_table("annotation_reviews") as batch:
        batch.drop_column("version")
    with op.batch_alter_table("corpora") as batch:
        batch.drop_column("content_digest")
        batch.drop_column("version")

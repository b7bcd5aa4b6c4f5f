"""A category on every triple: the kind of personal data it holds ("phone", "health", ...), "" for an
ordinary fact (issue 19).

Revision ID: 0008_triple_category
Revises: 0007_drop_review_annotations
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_triple_category"
down_revision = "0007_drop_review_annotations"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN with a default: saved workspaces keep their triples, each with category "".
    op.add_column("triples", sa.Column("category", sa.String(100), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("triples") as batch:
        batch.drop_column("category")

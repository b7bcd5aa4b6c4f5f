"""Users, ownership and sharing of saved workspaces, autosaved sessions.

Every existing corpus is kept and owned by the built-in `local` user (the owner of everything
when the studio runs without sign-in); it stays private until shared.

Revision ID: 0002_users_sessions
Revises: 0001_initial
Create Date: 2026-11-23
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0002_users_sessions"
down_revision = "0001_initial"
branch_labels = None
depends_on = None

LOCAL_USER = "local"  # storage.tables.LOCAL_USER at the time of this revision


def upgrade() -> None:
    users = op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    now = datetime.now(UTC).replace(tzinfo=None)
    op.bulk_insert(users, [{"name": LOCAL_USER, "password_hash": "", "created_at": now}])
    local_id = op.get_bind().execute(sa.text("SELECT id FROM users WHERE name = :n"), {"n": LOCAL_USER}).scalar()

    with op.batch_alter_table("corpora") as batch:
        batch.add_column(sa.Column("owner_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("visibility", sa.String(20), nullable=False, server_default="private"))
        batch.add_column(sa.Column("kind", sa.String(20), nullable=False, server_default="saved"))
    op.execute(sa.text("UPDATE corpora SET owner_id = :id").bindparams(id=local_id))
    with op.batch_alter_table("corpora") as batch:
        batch.alter_column("owner_id", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("visibility", existing_type=sa.String(20), server_default=None)
        batch.alter_column("kind", existing_type=sa.String(20), server_default=None)
        batch.create_foreign_key("fk_corpora_owner_id_users", "users", ["owner_id"], ["id"])
        batch.create_index("ix_corpora_owner_kind", ["owner_id", "kind"])

    op.create_table(
        "shares",
        sa.Column(
            "corpus_id", sa.Integer(), sa.ForeignKey("corpora.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("shares")
    op.execute(sa.text("DELETE FROM corpora WHERE kind = 'session'"))
    with op.batch_alter_table("corpora") as batch:
        batch.drop_index("ix_corpora_owner_kind")
        batch.drop_constraint("fk_corpora_owner_id_users", type_="foreignkey")
        batch.drop_column("kind")
        batch.drop_column("visibility")
        batch.drop_column("owner_id")
    op.drop_table("users")

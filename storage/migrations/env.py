"""Alembic environment: migrations run on the connection `storage.db.upgrade_to_head` passes in."""

from __future__ import annotations

from alembic import context

import storage.annotation_tables  # noqa: F401  (registers the annotation tables on Base)
from storage.tables import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through storage.db.upgrade_to_head(engine); there is no alembic.ini")

context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()

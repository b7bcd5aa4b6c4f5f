"""Initial schema: corpora, documents, queries, triples, privacy definitions, annotations.

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None


def _corpus_fk(nullable: bool = False) -> sa.Column:
    return sa.Column(
        "corpus_id", sa.Integer(), sa.ForeignKey("corpora.id", ondelete="CASCADE"), nullable=nullable
    )


def upgrade() -> None:
    op.create_table(
        "corpora",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("extractor", sa.String(100), nullable=False),
        sa.Column("meta", sa.JSON(), nullable=False),
    )
    op.create_table(
        "documents",
        sa.Column("id", sa.Integer(), primary_key=True),
        _corpus_fk(),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("doc_id", sa.String(200), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.UniqueConstraint("corpus_id", "doc_id", name="uq_documents_corpus_doc"),
    )
    op.create_table(
        "queries",
        sa.Column("id", sa.Integer(), primary_key=True),
        _corpus_fk(),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("query_id", sa.String(200), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("answers", sa.JSON(), nullable=False),
        sa.Column("doc_ids", sa.JSON(), nullable=False),
        sa.UniqueConstraint("corpus_id", "query_id", name="uq_queries_corpus_query"),
    )
    op.create_table(
        "triples",
        sa.Column("id", sa.Integer(), primary_key=True),
        _corpus_fk(),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("head", sa.Text(), nullable=False),
        sa.Column("relation", sa.Text(), nullable=False),
        sa.Column("tail", sa.Text(), nullable=False),
        sa.Column("doc_id", sa.String(200), nullable=False),
        sa.Column("span_start", sa.Integer(), nullable=False),
        sa.Column("span_end", sa.Integer(), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("backend", sa.String(100), nullable=False),
    )
    op.create_index("ix_triples_corpus_position", "triples", ["corpus_id", "position"])
    op.create_index("ix_triples_corpus_doc", "triples", ["corpus_id", "doc_id"])
    op.create_table(
        "privacy_definitions",
        sa.Column("id", sa.Integer(), primary_key=True),
        _corpus_fk(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("private", sa.JSON(), nullable=False),
        sa.Column("public", sa.JSON(), nullable=False),
        sa.Column("excluded", sa.JSON(), nullable=False),
        sa.Column("marked", sa.JSON(), nullable=False),
        sa.Column("query", sa.JSON(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.UniqueConstraint("corpus_id", "name", name="uq_privacy_definitions_corpus_name"),
    )
    op.create_table(
        "annotations",
        sa.Column("id", sa.Integer(), primary_key=True),
        _corpus_fk(nullable=True),
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


def downgrade() -> None:
    op.drop_table("annotations")
    op.drop_table("privacy_definitions")
    op.drop_table("triples")
    op.drop_table("queries")
    op.drop_table("documents")
    op.drop_table("corpora")

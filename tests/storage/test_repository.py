"""SQLite persistence through the repository, on real database files."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from core.eraser4rag.filters import define_privacy
from storage.db import current_revision, head_revision, make_engine, upgrade_to, upgrade_to_head
from storage.repository import Repository, StorageError
from storage.tables import Base
from tests.core.test_serialize import sample_corpus_and_triples, sample_definition

TABLES = {"corpora", "documents", "queries", "triples", "privacy_definitions"}


def row_counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as connection:
        return {table: connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in TABLES}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "nested" / "studio.sqlite3"


@pytest.fixture
def repo(db_path: Path) -> Iterator[Repository]:
    with Repository(db_path) as repository:
        yield repository


@pytest.fixture
def saved(repo: Repository) -> Repository:
    corpus, triples = sample_corpus_and_triples()
    repo.save_corpus("demo", corpus, triples, extractor="spacy", meta={"origin": "test"})
    repo.save_definition("demo", "manual", sample_definition(triples), settings={"ratio": 0.25, "seed": 7})
    return repo


def test_fresh_file_gets_schema_from_migrations_at_head(db_path: Path) -> None:
    Repository(db_path).close()
    with sqlite3.connect(db_path) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        version = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    assert tables >= TABLES | {"alembic_version"}
    assert version == [(head_revision(),)]
    engine = make_engine(db_path)
    upgrade_to_head(engine)  # idempotent on a database already at head
    assert current_revision(engine) == head_revision()
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []  # migrations and models agree
    engine.dispose()


def test_foreign_keys_are_enforced(repo: Repository, db_path: Path) -> None:
    engine = make_engine(db_path)
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    engine.dispose()


def test_no_column_can_hold_credentials(db_path: Path) -> None:
    Repository(db_path).close()
    with sqlite3.connect(db_path) as connection:
        columns = [col[1] for table in TABLES for col in connection.execute(f"PRAGMA table_info({table})")]
    assert columns and not [c for c in columns if any(w in c for w in ("api", "secret", "password", "token"))]


def test_corpus_round_trip_is_exact(repo: Repository) -> None:
    corpus, triples = sample_corpus_and_triples()
    repo.save_corpus("demo", corpus, triples)
    loaded_corpus, loaded_triples = repo.load_corpus("demo")
    assert loaded_corpus == corpus
    assert loaded_triples == triples
    assert [t.span for t in loaded_triples] == [t.span for t in triples]
    assert [t.confidence for t in loaded_triples] == [t.confidence for t in triples]


def test_reopening_the_file_keeps_the_data(saved: Repository, db_path: Path) -> None:
    corpus, triples = sample_corpus_and_triples()
    saved.close()
    with Repository(db_path) as reopened:
        assert reopened.load_corpus("demo") == (corpus, triples)
        assert reopened.load_definition("demo", "manual") == sample_definition(triples)


def test_definition_round_trip_with_moves_paths_and_settings(saved: Repository) -> None:
    _, triples = sample_corpus_and_triples()
    definition = sample_definition(triples)
    loaded = saved.load_definition("demo", "manual")
    assert loaded == definition
    assert loaded.moves == definition.moves and all(move.path for move in loaded.moves)
    assert saved.definition_settings("demo", "manual") == {"ratio": 0.25, "seed": 7}

    replacement = define_privacy([t.key for t in triples], [triples[0].key])
    saved.save_definition("demo", "manual", replacement)
    assert saved.load_definition("demo", "manual") == replacement
    with pytest.raises(StorageError, match="already has a privacy definition named 'manual'"):
        saved.save_definition("demo", "manual", definition, overwrite=False)
    assert saved.load_definition("demo", "manual") == replacement


def test_list_and_delete(saved: Repository, db_path: Path) -> None:
    corpus, triples = sample_corpus_and_triples()
    saved.save_corpus("another", corpus, triples[:2])
    saved.save_definition("demo", "empty", define_privacy([t.key for t in triples], []))
    summaries = {s.name: s for s in saved.list_corpora()}
    assert list(summaries) == ["another", "demo"]
    assert (summaries["demo"].documents, summaries["demo"].triples, summaries["demo"].definitions) == (
        len(corpus.documents),
        len(triples),
        2,
    )
    assert summaries["demo"].extractor == "spacy"
    assert summaries["demo"].created_at.tzinfo is not None
    assert saved.list_definitions("demo") == ["empty", "manual"]

    saved.delete_definition("demo", "empty")
    assert saved.list_definitions("demo") == ["manual"]
    saved.delete_corpus("demo")
    assert [s.name for s in saved.list_corpora()] == ["another"]
    counts = row_counts(db_path)
    assert counts["privacy_definitions"] == 0 and counts["triples"] == 2  # children went with their corpus
    with pytest.raises(StorageError, match="no saved corpus named 'demo'"):
        saved.load_corpus("demo")
    with pytest.raises(StorageError, match="no saved corpus named 'demo'"):
        saved.delete_corpus("demo")


def test_name_conflict_and_overwrite(saved: Repository) -> None:
    corpus, triples = sample_corpus_and_triples()
    smaller = type(corpus)(documents=corpus.documents[:1], queries=[])
    with pytest.raises(StorageError, match="a corpus named 'demo' already exists"):
        saved.save_corpus("demo", smaller, triples[:1])
    assert saved.load_corpus("demo") == (corpus, triples)

    saved.save_corpus("demo", smaller, triples[:1], extractor="llm", overwrite=True)
    assert saved.load_corpus("demo") == (smaller, triples[:1])
    assert saved.list_definitions("demo") == ["manual"]  # definitions survive a corpus overwrite
    with pytest.raises(StorageError, match="must not be empty"):
        saved.save_corpus("  ", corpus, triples)


def test_export_then_import_into_a_fresh_file_gives_equal_objects(saved: Repository, tmp_path: Path) -> None:
    text = saved.export_json("demo")
    with Repository(tmp_path / "other.sqlite3") as fresh:
        assert fresh.import_json(text) == "demo"
        assert fresh.load_corpus("demo") == saved.load_corpus("demo")
        assert fresh.list_definitions("demo") == saved.list_definitions("demo")
        assert fresh.load_definition("demo", "manual") == saved.load_definition("demo", "manual")
        assert fresh.definition_settings("demo", "manual") == {"ratio": 0.25, "seed": 7}
        assert fresh.list_corpora()[0].extractor == "spacy"
        assert fresh.export_json("demo") == text

        assert fresh.import_json(text, name="copy") == "copy"
        assert fresh.load_corpus("copy") == fresh.load_corpus("demo")
        with pytest.raises(StorageError, match="a corpus named 'demo' already exists"):
            fresh.import_json(text)


def test_malformed_json_names_line_and_column(saved: Repository, db_path: Path) -> None:
    good = saved.export_json("demo").splitlines()
    bad_line = 3
    good[bad_line - 1] = good[bad_line - 1].rstrip(",")  # a missing comma between two members
    before = row_counts(db_path)
    with pytest.raises(StorageError) as caught:
        saved.import_json("\n".join(good), name="broken")
    assert f"line {bad_line + 1}, column" in str(caught.value)
    assert row_counts(db_path) == before


def test_invalid_bundle_field_is_named_and_nothing_is_written(saved: Repository, db_path: Path) -> None:
    data = json.loads(saved.export_json("demo"))
    data["triples"][4]["span"] = [5, 2]
    before = row_counts(db_path)
    with pytest.raises(StorageError) as caught:
        saved.import_json(json.dumps(data), name="broken")
    assert caught.value.field == "triples[4].span"
    assert "triples[4].span" in str(caught.value)
    assert row_counts(db_path) == before
    assert [s.name for s in saved.list_corpora()] == ["demo"]


def test_failure_after_partial_writes_rolls_back(saved: Repository, db_path: Path) -> None:
    """The corpus rows are flushed before the definition's settings are refused; none may remain."""
    data = json.loads(saved.export_json("demo"))
    data["meta"]["definition_settings"]["manual"]["llm_api_key"] = "sk-should-never-be-stored"
    before = row_counts(db_path)
    with pytest.raises(StorageError, match="credentials are never stored"):
        saved.import_json(json.dumps(data), name="leaky")
    assert row_counts(db_path) == before
    with sqlite3.connect(db_path) as connection:
        dump = "\n".join(connection.iterdump())
    assert "sk-should-never-be-stored" not in dump


def test_corpus_meta_is_stored_with_the_corpus(repo: Repository) -> None:
    corpus, triples = sample_corpus_and_triples()
    repo.save_corpus("with-meta", corpus, triples, meta={"extracted_ids": ["d1"], "note": "x"})
    assert repo.corpus_meta("with-meta") == {"extracted_ids": ["d1"], "note": "x"}
    repo.save_corpus("with-meta", corpus, triples, overwrite=True)
    assert repo.corpus_meta("with-meta") == {}
    with pytest.raises(StorageError, match="no saved corpus"):
        repo.corpus_meta("missing")


def test_a_triples_category_is_stored(repo: Repository) -> None:
    corpus, triples = sample_corpus_and_triples()
    categorised = [replace(triples[0], category="health"), *triples[1:]]
    repo.save_corpus("categorised", corpus, categorised)
    assert repo.load_corpus("categorised")[1] == categorised


def test_triples_saved_before_categories_read_as_uncategorised(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    engine = make_engine(path)
    upgrade_to(engine, "0007_drop_review_annotations")
    engine.dispose()
    with sqlite3.connect(path) as connection:
        connection.execute(
            "INSERT INTO users (name, password_hash, created_at) VALUES ('own', 'x', '2026-01-01')"
        )
        connection.execute(
            "INSERT INTO corpora (name, created_at, updated_at, extractor, meta, owner_id, visibility, kind) "
            "VALUES ('c', '2026-01-01', '2026-01-01', 'spacy', '{}', 1, 'private', 'saved')"
        )
        connection.execute(
            "INSERT INTO triples (corpus_id, position, head, relation, tail, doc_id, span_start, span_end, "
            "confidence, backend) VALUES (1, 0, 'A', 'r', 'B', 'd', 0, 1, 1.0, 'spacy')"
        )
    engine = make_engine(path)
    upgrade_to_head(engine)
    engine.dispose()
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT head, category FROM triples").fetchall() == [("A", "")]

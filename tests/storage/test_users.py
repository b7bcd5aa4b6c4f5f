"""Users, ownership, sharing, autosaved sessions, migration 0002 and explained database errors,
on real SQLite files."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from core.eraser4rag.workspace import Workspace
from storage.db import DatabaseFileError, downgrade_to, head_revision, make_engine, upgrade_to
from storage.repository import Repository, StorageError, session_corpus_name
from storage.tables import LOCAL_USER
from tests.core.test_serialize import sample_corpus_and_triples, sample_definition

OLD_TABLES = ("corpora", "documents", "queries", "triples", "privacy_definitions", "annotations")
DROPPED = "annotations"  # unused since review moved to the annotation studio; 0007 drops it
PASSWORD = "correct horse"


def table_rows(path: Path, table: str, columns: list[str] | None = None) -> list[tuple]:
    with sqlite3.connect(path) as connection:
        names = columns or [c[1] for c in connection.execute(f"PRAGMA table_info({table})")]
        return connection.execute(f"SELECT {', '.join(names)} FROM {table} ORDER BY id").fetchall()


def columns_of(path: Path, table: str) -> list[str]:
    with sqlite3.connect(path) as connection:
        return [c[1] for c in connection.execute(f"PRAGMA table_info({table})")]


def build_0001_database(path: Path) -> None:
    """A database as release 0001 left it: two corpora with documents, triples, a definition, annotations."""
    engine = make_engine(path)
    upgrade_to(engine, "0001_initial")
    engine.dispose()
    now = "2026-11-22 10:00:00.000000"
    with sqlite3.connect(path) as db:
        for corpus_id, name in ((1, "medical"), (2, "demo")):
            db.execute(
                "INSERT INTO corpora VALUES (?, ?, ?, ?, 'spacy', '{\"extracted_ids\": [\"d1\"]}')",
                (corpus_id, name, now, now),
            )
            db.execute(
                "INSERT INTO documents VALUES (?, ?, 0, 'd1', 'Mara', ?, 'a.txt')",
                (corpus_id * 10, corpus_id, "Mara Voss lives in Harrow."),
            )
            db.execute(
                "INSERT INTO queries VALUES (?, ?, 0, 'q1', 'Where?', '[\"Harrow\"]', '[\"d1\"]')",
                (corpus_id * 10, corpus_id),
            )
            for n in range(3):
                db.execute(
                    "INSERT INTO triples VALUES (?, ?, ?, 'mara voss', 'live in', ?, 'd1', 0, 26, 0.9, ?)",
                    (corpus_id * 100 + n, corpus_id, n, f"harrow {n}", "spacy"),
                )
            db.execute(
                "INSERT INTO privacy_definitions VALUES (?, ?, 'default', ?, ?, "
                "'[[\"mara voss\", \"live in\", \"harrow 0\"]]', '[]', '[]', "
                "'[[\"mara voss\", \"live in\", \"harrow 0\"]]', '[]', '[]', '{}')",
                (corpus_id, corpus_id, now, now),
            )
            db.execute(
                "INSERT INTO annotations VALUES (?, ?, 'd1', 'rewrite', 'p', 'm', 'out', ?, '', ?, '{}')",
                (corpus_id, corpus_id, "pending", now),
            )


def test_0002_upgrades_a_0001_database_in_place_keeping_every_row(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    build_0001_database(path)
    before = {table: (columns_of(path, table), table_rows(path, table)) for table in OLD_TABLES}

    with Repository(path) as repo:
        listed = repo.list_corpora()
        corpus, triples = repo.load_corpus("medical")
        definition = repo.load_definition("medical", "default")

    kept = {table: found for table, found in before.items() if table != DROPPED}
    for table, (columns, rows) in kept.items():
        assert table_rows(path, table, columns) == rows, table  # every row, every value kept
    assert [(s.name, s.owner, s.visibility, s.triples) for s in listed] == [
        ("demo", LOCAL_USER, "private", 3),
        ("medical", LOCAL_USER, "private", 3),
    ]
    assert corpus.documents[0].text == "Mara Voss lives in Harrow." and len(triples) == 3
    assert ("mara voss", "live in", "harrow 0") in definition.marked
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(head_revision(),)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert not db.execute("SELECT name FROM sqlite_master WHERE name = ?", (DROPPED,)).fetchall()

    engine = make_engine(path)  # and back, for an older release: the same rows again
    downgrade_to(engine, "0001_initial")
    engine.dispose()
    for table, (columns, rows) in kept.items():
        assert columns_of(path, table) == columns and table_rows(path, table) == rows, table
    assert columns_of(path, DROPPED) == before[DROPPED][0]  # the table is back, empty


def test_not_a_database_is_explained_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_text("these are my notes, not a database\n")
    with pytest.raises(DatabaseFileError) as caught:
        Repository(path)
    message = str(caught.value)
    assert str(path) in message and "not a SQLite database" in message and "--db" in message
    assert path.read_text() == "these are my notes, not a database\n"


def test_database_from_a_newer_release_is_explained(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    Repository(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE alembic_version SET version_num = '0099_future'")
    with pytest.raises(DatabaseFileError) as caught:
        Repository(path)
    message = str(caught.value)
    assert str(path) in message and "newer release" in message and "0099_future" in message
    assert "Upgrade the studio" in message


def test_tables_without_a_migration_version_are_explained(tmp_path: Path) -> None:
    path = tmp_path / "unversioned.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE corpora (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("INSERT INTO corpora VALUES (1, 'kept')")
    with pytest.raises(DatabaseFileError) as caught:
        Repository(path)
    assert str(path) in str(caught.value) and "no migration version" in str(caught.value)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT name FROM corpora").fetchall() == [("kept",)]


def test_wal_mode_lets_a_save_proceed_while_a_reader_holds_a_transaction(tmp_path: Path) -> None:
    path = tmp_path / "wal.sqlite3"
    corpus, triples = sample_corpus_and_triples()
    with Repository(path) as repo:
        repo.save_corpus("first", corpus, triples)
        reader = sqlite3.connect(path)
        try:
            assert reader.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            reader.execute("BEGIN")
            assert reader.execute("SELECT COUNT(*) FROM triples").fetchone()[0] == len(triples)
            started = time.perf_counter()
            repo.save_corpus("second", corpus, triples)  # would wait for the reader without WAL
            assert time.perf_counter() - started < 2.0
            # The reader's snapshot is stable; it sees the save once its transaction ends.
            assert reader.execute("SELECT COUNT(*) FROM triples").fetchone()[0] == len(triples)
            reader.execute("COMMIT")
            assert reader.execute("SELECT COUNT(*) FROM triples").fetchone()[0] == 2 * len(triples)
        finally:
            reader.close()
        engine = make_engine(path)
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        engine.dispose()


def test_two_writers_wait_for_each_other_instead_of_failing(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    corpus, triples = sample_corpus_and_triples()
    Repository(path).close()
    errors: list[BaseException] = []

    def save(name: str) -> None:
        try:
            with Repository(path) as repo:
                for n in range(5):
                    repo.save_corpus(f"{name}-{n}", corpus, triples)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=save, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with Repository(path) as repo:
        assert len(repo.list_corpora()) == 10


def test_a_save_blocked_past_the_busy_timeout_is_explained_and_changes_nothing(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("storage.db.BUSY_TIMEOUT_S", 0.2)
    path = tmp_path / "locked.sqlite3"
    corpus, triples = sample_corpus_and_triples()
    with Repository(path) as repo:
        repo.save_corpus("first", corpus, triples)
        writer = sqlite3.connect(path)
        try:
            writer.execute("BEGIN IMMEDIATE")  # another process in the middle of its own save
            with pytest.raises(StorageError) as caught:
                repo.save_corpus("second", corpus, triples)
        finally:
            writer.rollback()
            writer.close()
        assert str(path) in str(caught.value) and "nothing was changed" in str(caught.value)
        assert [s.name for s in repo.list_corpora()] == ["first"]
        repo.save_corpus("second", corpus, triples)  # works once the other writer is done
        assert len(repo.list_corpora()) == 2


@pytest.fixture
def repo(tmp_path: Path):
    with Repository(tmp_path / "users.sqlite3") as repository:
        yield repository


def test_users_sign_in_with_bcrypt_hashes_only(repo: Repository) -> None:
    repo.add_user("alice", PASSWORD)
    assert repo.verify_user("alice", PASSWORD)
    assert not repo.verify_user("alice", "wrong password")
    assert not repo.verify_user("nobody", PASSWORD)
    assert not repo.verify_user(LOCAL_USER, "")  # the built-in owner can never sign in
    assert repo.list_users() == ["alice"]
    stored = table_rows(repo.path, "users", ["name", "password_hash"])
    assert all(PASSWORD not in digest for _, digest in stored)
    assert dict(stored)["alice"].startswith("$2b$")
    for bad_name, password in (("alice", PASSWORD), ("local", PASSWORD), ("a b", PASSWORD), ("bob", "short")):
        with pytest.raises(StorageError):
            repo.add_user(bad_name, password)
    repo.set_password("alice", "another password")
    assert repo.verify_user("alice", "another password") and not repo.verify_user("alice", PASSWORD)


def saved_workspace(corpus_owner_repo) -> Workspace:
    corpus, triples = sample_corpus_and_triples()
    workspace = Workspace(corpus=corpus, triples=list(triples), extracted_ids={"d1", "d2", "q1"})
    workspace.marked_private = set(sample_definition(triples).marked)
    workspace._triples_changed()
    workspace.save(corpus_owner_repo, "alice-medical")
    return workspace


def test_a_saved_workspace_is_seen_only_by_its_owner_until_shared(repo: Repository) -> None:
    for name in ("alice", "bob", "carol"):
        repo.add_user(name, PASSWORD)
    alice, bob, carol = (repo.for_user(name) for name in ("alice", "bob", "carol"))
    original = saved_workspace(alice)

    assert [s.name for s in alice.list_corpora()] == ["alice-medical"]
    assert bob.list_corpora() == [] and repo.for_user(LOCAL_USER).list_corpora() == []
    with pytest.raises(StorageError, match="no saved corpus named 'alice-medical'"):
        Workspace().load(bob, "alice-medical")
    with pytest.raises(StorageError, match="taken by another user"):
        Workspace(corpus=original.corpus).save(bob, "alice-medical")
    with pytest.raises(StorageError, match="no saved corpus"):
        bob.set_sharing("alice-medical", users=["bob"])

    sharing = alice.set_sharing("alice-medical", users=["bob"])
    assert sharing.users == ("bob",) and not sharing.public
    loaded = Workspace()
    loaded.load(bob, "alice-medical")
    assert loaded.marked_private == original.marked_private
    assert carol.list_corpora() == []
    with pytest.raises(StorageError, match="taken by another user"):
        loaded.save(bob, "alice-medical")  # shared to read, not to overwrite
    with pytest.raises(StorageError, match="only its owner"):
        bob.set_sharing("alice-medical", public=True)

    alice.set_sharing("alice-medical", public=True)
    assert [(s.name, s.owner, s.visibility) for s in carol.list_corpora()] == [
        ("alice-medical", "alice", "public")
    ]
    assert bob.name_taken("alice-medical") and not bob.name_taken("bob-notes")
    alice.set_sharing("alice-medical", users=[], public=False)
    assert bob.list_corpora() == [] and carol.list_corpora() == []
    with pytest.raises(StorageError, match="no user named 'dave'"):
        alice.set_sharing("alice-medical", users=["dave"])


def test_session_autosave_writes_marks_without_rewriting_the_corpus(repo: Repository) -> None:
    corpus, triples = sample_corpus_and_triples()
    definition = sample_definition(triples)
    repo.save_session(
        "browser-1",
        LOCAL_USER,
        corpus=corpus,
        triples=triples,
        extractor="spacy",
        meta={"extracted_ids": ["d1", "d2", "q1"], "workspace_name": ""},
        definitions={"default@q9": definition},
    )
    name = session_corpus_name("browser-1")
    document_ids = table_rows(repo.path, "documents", ["id"])

    repo.save_session(
        "browser-1",
        LOCAL_USER,
        corpus=None,
        triples=[],
        extractor="",
        meta={"extracted_ids": ["d1", "d2", "q1"], "workspace_name": "mine"},
        definitions={"default": definition},
    )
    assert table_rows(repo.path, "documents", ["id"]) == document_ids  # documents not rewritten
    assert repo.list_definitions(name) == ["default"]  # the stale one is gone
    repo.save_session(
        "browser-1",
        LOCAL_USER,
        corpus=None,
        triples=[],
        extractor="",
        meta={"extracted_ids": ["d1", "d2", "q1"], "workspace_name": "mine"},
        definitions=None,
    )
    restored = Workspace()
    restored.load(repo, name)
    assert restored.triples == triples and restored.corpus == corpus
    assert restored.marked_private == set(definition.marked)
    assert repo.corpus_meta(name)["workspace_name"] == "mine"
    assert repo.list_corpora() == []  # sessions are never listed
    assert repo.has_session("browser-1", LOCAL_USER)

    repo.add_user("alice", PASSWORD)
    assert not repo.has_session("browser-1", "alice")
    with pytest.raises(StorageError, match="belongs to another user"):
        repo.save_session(
            "browser-1", "alice", corpus=None, triples=[], extractor="", meta={}, definitions=None
        )
    with pytest.raises(StorageError, match="reserved"):
        repo.save_corpus(name, corpus, triples)

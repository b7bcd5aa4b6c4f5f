"""Autosaved sessions, sign-in plumbing, the users CLI and start-up errors, on real SQLite files."""

from __future__ import annotations

import io
import logging
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import gradio as gr
import pytest

import app as app_module
from core.cli import main as cli_main
from core.eraser4rag.workspace import Workspace
from core.settings import Settings
from core.types import Corpus, Query
from storage.repository import Repository
from tests.core.test_serialize import sample_corpus_and_triples, sample_definition
from ui.app import build_app, shared_address_notice
from ui.context import _user_errors
from ui.messages import status_html
from ui.sessions import LOCAL_USER, Autosaver, session_key, valid_browser_id

PASSWORD = "correct horse"


def document_row_ids(path: Path) -> list[int]:
    with sqlite3.connect(path) as db:
        return [row[0] for row in db.execute("SELECT id FROM documents ORDER BY id")]


def sample_workspace() -> Workspace:
    corpus, triples = sample_corpus_and_triples()
    workspace = Workspace(corpus=corpus, triples=list(triples), extracted_ids={"d1", "d2", "q1"})
    workspace._triples_changed()
    return workspace


def test_autosave_writes_only_what_changed_and_restores_it(tmp_path: Path) -> None:
    path = tmp_path / "sessions.sqlite3"
    with Repository(path) as repo:
        saver = Autosaver(repo)
        key = session_key(LOCAL_USER, valid_browser_id(None))
        ws = sample_workspace()
        assert saver.save(ws, key, LOCAL_USER)  # first save: documents and triples
        documents = document_row_ids(path)
        assert not saver.save(ws, key, LOCAL_USER)  # nothing changed: nothing written

        ws.marked_private = set(sample_definition(ws.triples).marked)
        ws._refresh_definition()
        assert saver.save(ws, key, LOCAL_USER)
        assert document_row_ids(path) == documents  # marks only: the corpus is not rewritten

        ws.add_text("Mara Voss lives in Harrow Vale.", "Mara")
        assert saver.save(ws, key, LOCAL_USER)
        assert len(document_row_ids(path)) == len(documents) + 1

        # A reload: a new server-side workspace restored from the store.
        restored = Workspace()
        assert Autosaver(repo).restore(restored, key, LOCAL_USER)
        assert restored.corpus.documents == ws.corpus.documents
        assert restored.marked_private == ws.marked_private and restored.triples == ws.triples
        assert restored.definition == ws.definition  # recomputed from the marks, as it was
        assert restored.extracted_ids == ws.extracted_ids and restored.name == ""
        assert not Autosaver(repo).restore(
            Workspace(), session_key(LOCAL_USER, valid_browser_id(None)), LOCAL_USER
        )
        assert not saver.save(ws, "", LOCAL_USER)  # API calls without a page load have no session


def test_browser_ids_are_random_and_checked() -> None:
    first, second = valid_browser_id(None), valid_browser_id("")
    assert first != second and len(first) == 32
    assert valid_browser_id(first) == first
    assert valid_browser_id("../../etc") != "../../etc"
    assert session_key("alice", first) == "user:alice"
    assert session_key(LOCAL_USER, first) == f"browser:{first}"


def test_user_errors_are_one_log_line_without_traceback(caplog: pytest.LogCaptureFixture) -> None:
    def on_save(ws: Workspace, name: str) -> tuple[Workspace, str]:
        raise ValueError(f"give the workspace a name\nnot {name!r}")

    with caplog.at_level(logging.INFO, logger="rps.ui"), pytest.raises(gr.Error) as caught:
        _user_errors(on_save)(Workspace(), "")
    assert caught.value.print_exception is False
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["user error in on_save: give the workspace a name not ''"]
    assert caplog.records[0].exc_info is None


def test_users_cli_reads_the_password_from_stdin_and_share_sets_visibility(tmp_path, monkeypatch, capsys):
    db = str(tmp_path / "cli.sqlite3")
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    assert cli_main(["--db", db, "users", "add", "alice"]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    assert cli_main(["--db", db, "users", "add", "bob"]) == 2
    assert "at least 8 characters" in capsys.readouterr().err
    assert cli_main(["--db", db, "users", "list"]) == 0
    assert capsys.readouterr().out.split() == ["alice"]
    with Repository(db) as repo:
        assert repo.verify_user("alice", PASSWORD)
        corpus, triples = sample_corpus_and_triples()
        repo.save_corpus("notes", corpus, triples)
    assert cli_main(["--db", db, "share", "notes", "--owner", "alice", "--public"]) == 0
    assert "notes: owner alice; public" in capsys.readouterr().out
    assert cli_main(["--db", db, "list"]) == 0
    assert "owner alice\tpublic" in capsys.readouterr().out


def not_a_database(path: Path) -> str:
    path.write_text("not a database")
    return f"error: {path} is not a SQLite database"


def newer_database(path: Path) -> str:
    Repository(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE alembic_version SET version_num = '0099_future'")
    return f"error: database {path} was written by a newer release"


def unversioned_database(path: Path) -> str:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE corpora (id INTEGER PRIMARY KEY)")
    return f"error: database {path} has tables (corpora) but no migration version"


@pytest.mark.parametrize("entry", ["cli", "app"])
@pytest.mark.parametrize("make_problem", [not_a_database, newer_database, unversioned_database])
def test_an_unusable_database_is_explained_at_start(tmp_path, capsys, entry, make_problem) -> None:
    path = tmp_path / "studio.sqlite3"
    expected = make_problem(path)
    if entry == "cli":
        code = cli_main(["--db", str(path), "list"])
    else:
        code = app_module.main(["--db", str(path), "--port", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(expected) and "--db" in err  # names the file and the remedy
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def _run_in_own_loop(coroutine: Any) -> Any:
    """asyncio.run in a thread of its own: playwright's sync API may hold this thread's loop."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_sign_in_checks_bcrypt_off_the_event_loop(tmp_path) -> None:
    import inspect

    from ui.app import launch_kwargs

    with Repository(tmp_path / "auth.sqlite3") as repo:
        repo.add_user("alice", PASSWORD)
        check = launch_kwargs(Settings(auth=True), repo)["auth"]
        assert inspect.iscoroutinefunction(check)  # gradio awaits it instead of blocking its loop
        assert _run_in_own_loop(check("alice", PASSWORD)) is True
        assert _run_in_own_loop(check("alice", "wrong password")) is False
        assert "auth" not in launch_kwargs(Settings(), repo)


def test_sign_in_without_users_is_refused_at_start(tmp_path, capsys) -> None:
    code = app_module.main(["--db", str(tmp_path / "empty.sqlite3"), "--auth", "true"])
    assert code == 2
    assert "has no users" in capsys.readouterr().err


def test_serving_beyond_localhost_without_sign_in_says_so(tmp_path, caplog) -> None:
    settings = Settings(db=str(tmp_path / "s.sqlite3"), host="0.0.0.0", sample_corpus=False)
    notice = shared_address_notice(settings)
    assert "Single-user mode" in notice and "0.0.0.0" in notice and "--auth" in notice
    assert shared_address_notice(replace(settings, host="127.0.0.1")) == ""
    assert shared_address_notice(replace(settings, auth=True)) == ""
    with caplog.at_level(logging.WARNING, logger="rps"):
        demo = build_app(settings)
    assert [r.getMessage() for r in caplog.records if r.name == "rps"] == [notice]
    assert "Single-user mode" in demo.studio_context.get("session_info").value
    demo.studio_context.repository.close()


def test_old_sessions_are_pruned_with_their_rows(tmp_path, capsys) -> None:
    path = tmp_path / "prune.sqlite3"
    with Repository(path) as repo:
        saver = Autosaver(repo)
        for browser in ("a" * 32, "b" * 32):
            saver.save(sample_workspace(), session_key(LOCAL_USER, browser), LOCAL_USER)
        corpus, triples = sample_corpus_and_triples()
        repo.save_corpus("kept", corpus, triples)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE corpora SET updated_at = '2020-01-01 00:00:00' WHERE name LIKE '%aaaa%'")
    assert cli_main(["--db", str(path), "sessions", "prune", "--days", "30"]) == 0
    assert "removed 1 autosaved session" in capsys.readouterr().out
    with Repository(path) as repo:
        assert repo.has_session("browser:" + "b" * 32, LOCAL_USER)
        assert not repo.has_session("browser:" + "a" * 32, LOCAL_USER)
        assert [s.name for s in repo.list_corpora()] == ["kept"]
    with sqlite3.connect(path) as db:
        corpus_ids = {row[0] for row in db.execute("SELECT id FROM corpora")}
        for table in ("documents", "queries", "triples"):
            assert {row[0] for row in db.execute(f"SELECT DISTINCT corpus_id FROM {table}")} <= corpus_ids


def test_autosave_keeps_every_question_scope_and_its_marks(tmp_path: Path) -> None:
    ws = _two_question_workspace()
    ws.set_scope("q1")
    ws.random_split(1.0, 1, method="uniform")
    ws.set_scope("q2")
    ws.random_split(0.5, 2, method="uniform")
    assert ws.marked_private and ws.scope_marks
    with Repository(tmp_path / "scopes.sqlite3") as repo:
        key = session_key(LOCAL_USER, valid_browser_id(None))
        saver = Autosaver(repo)
        assert saver.save(ws, key, LOCAL_USER)
        ws.set_scope("q1")  # only the scope changed: no corpus rewrite, one more save
        documents = document_row_ids(repo.path)
        assert saver.save(ws, key, LOCAL_USER)
        assert document_row_ids(repo.path) == documents

        restored = Workspace()
        assert Autosaver(repo).restore(restored, key, LOCAL_USER)
        assert restored.scope == "q1"
        assert restored.marked_private == ws.marked_private
        assert restored.scope_marks == ws.scope_marks
        assert restored.scope_definitions() == ws.scope_definitions()


def endpoint(demo, api_name: str):
    return next(f.fn for f in demo.fns.values() if f.api_name == api_name)


def test_tab_handlers_act_as_the_signed_in_user(tmp_path: Path) -> None:
    settings = Settings(db=str(tmp_path / "tab.sqlite3"), auth=True, sample_corpus=False)
    demo = build_app(settings)
    repo = demo.studio_context.repository
    repo.add_user("alice", PASSWORD)
    repo.add_user("bob", PASSWORD)
    alice, bob = gr.Request(username="alice"), gr.Request(username="bob")
    corpus, triples = sample_corpus_and_triples()
    repo.for_user("bob").save_corpus("field-notes", corpus, triples)  # bob's, private
    bundle = tmp_path / "field-notes.json"
    bundle.write_text(repo.export_json("field-notes"), encoding="utf-8")

    ws, message, choices, _, _row, _prompt, result = endpoint(demo, "import_json")(
        Workspace(), str(bundle), alice
    )
    assert message == status_html(
        "Imported as 'field-notes-2'.", tab="documents"
    )  # bob's name is skipped, not revealed
    assert result["message"] == "Imported as 'field-notes-2'." and result["workspace"]["documents"] > 0
    assert [value for _, value in choices.choices] == ["field-notes-2"]
    ws, message, _ = endpoint(demo, "share_workspace")(ws, "bob", False, alice)
    assert message == status_html("'field-notes-2': owner alice; private, shared with bob.", tab="documents")
    ws, message, *_ = endpoint(demo, "load_workspace")(Workspace(), "field-notes-2", bob)
    loaded = status_html("Loaded 'field-notes-2' (owner alice; private, shared with bob)", tab="documents")
    assert message.startswith(loaded.removesuffix("</span>"))
    with pytest.raises(gr.Error, match="taken by another user"):
        endpoint(demo, "save_workspace")(ws, "field-notes-2", bob)
    with pytest.raises(gr.Error, match="no saved corpus named &#x27;field-notes&#x27;"):
        endpoint(demo, "load_workspace")(Workspace(), "field-notes", alice)
    repo.close()


def test_undo_steps_follow_their_question_and_last_over_a_reload(tmp_path: Path) -> None:
    ws = _two_question_workspace()
    ws.set_scope("q1")
    ws.random_split(1.0, 1, method="uniform")
    first_marks = set(ws.marked_private)
    ws.set_scope("q2")
    assert ws.mark_history == []  # question 2 has no undo step of its own
    ws.random_split(0.5, 2, method="uniform")
    ws.set_scope("q1")
    assert len(ws.mark_history) == 1 and ws.marked_private == first_marks  # its own step is back
    with Repository(tmp_path / "undo.sqlite3") as repo:
        key = session_key(LOCAL_USER, valid_browser_id(None))
        assert Autosaver(repo).save(ws, key, LOCAL_USER)
        restored = Workspace()
        assert Autosaver(repo).restore(restored, key, LOCAL_USER)
    assert restored.mark_history == ws.mark_history
    assert {k: len(v) for k, v in restored.scope_histories.items()} == {"q2": 1}
    restored.undo()
    assert restored.marked_private == set()
    restored.set_scope("q2")
    restored.undo()
    assert restored.marked_private == set()


def _two_question_workspace() -> Workspace:
    """The sample corpus with a second question (q2 about d2), every source extracted."""
    corpus, triples = sample_corpus_and_triples()
    second = Query("q2", "Who manages Dave?", ("Bob",), ("d2",))
    ws = Workspace(
        corpus=Corpus(documents=corpus.documents, queries=[*corpus.queries, second]),
        triples=list(triples),
        extracted_ids={"d1", "d2", "q1", "q2"},
    )
    ws._triples_changed()
    return ws

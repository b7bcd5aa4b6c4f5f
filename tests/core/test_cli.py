"""The batch commands on the real spaCy model and a real SQLite file."""

import json

from core.cli import main


def test_extract_split_risk_export_import_round_trip(tmp_path, capsys):
    db = str(tmp_path / "cli.sqlite3")
    assert main(["--db", db, "extract", "--sample", "--save", "sample"]) == 0
    out = capsys.readouterr().out
    assert "14 documents, 4 queries" in out and "saved as 'sample'" in out

    assert "4 retrieval sets: one graph each" in out

    # The paper's setting: one graph and one connected split per question record.
    assert main(["--db", db, "split", "sample", "--ratio", "0.3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "4 question(s) with a definition" in out and "connected split" in out
    assert "r_connect after erasing private triples, mean over questions" in out
    assert main(["--db", db, "risk", "sample"]) == 0
    assert "4 question(s) with a definition" in capsys.readouterr().out

    # One graph over the whole corpus, uniform sampling, on request.
    args = ["split", "sample", "--ratio", "0.3", "--seed", "1", "--method", "uniform", "--whole-corpus"]
    assert main(["--db", db, *args]) == 0
    out = capsys.readouterr().out
    assert "inference risks (Eq. 2):" in out and "r_connect" in out and "uniform split" in out
    assert main(["--db", db, "risk", "sample", "--whole-corpus"]) == 0
    assert "r_connect after erasing private triples" in capsys.readouterr().out

    bundle = tmp_path / "sample.json"
    assert main(["--db", db, "export", "sample", "--out", str(bundle)]) == 0
    data = json.loads(bundle.read_text())
    assert data["format"] == "rag-privacy-studio/1"
    assert len(data["definitions"]) == 5  # whole corpus + one per question

    other_db = str(tmp_path / "other.sqlite3")
    assert main(["--db", other_db, "import", str(bundle), "--name", "copy"]) == 0
    assert main(["--db", other_db, "list"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("copy\t14 docs")


def test_bad_file_is_reported_by_name_and_line_and_good_files_still_load(tmp_path, capsys):
    good = tmp_path / "good.txt"
    good.write_text("Ada Byron works for Babbage Engines.")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "q", "ctxs": [{"title": "t", "text": "x"}]}\n{"question": \n')
    code = main(["--db", str(tmp_path / "x.sqlite3"), "extract", str(good), str(bad)])
    captured = capsys.readouterr()
    assert code == 1
    assert "bad.jsonl, line 2" in captured.err and "--skip-bad" in captured.err
    assert "1 documents, 0 queries" in captured.out
    assert main(["--db", str(tmp_path / "x.sqlite3"), "extract", "--skip-bad", str(good), str(bad)]) == 1
    captured = capsys.readouterr()
    assert "bad.jsonl, line 2" in captured.err and "loaded its 1 good record(s) of 2" in captured.err
    assert "2 documents, 1 queries" in captured.out


def test_missing_corpus_is_a_clear_error(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "x.sqlite3"), "risk", "nosuch"]) == 2
    assert "no saved corpus named 'nosuch'" in capsys.readouterr().err


def test_extract_save_refuses_an_existing_name_without_overwrite(tmp_path, capsys):
    from storage.repository import Repository

    db = str(tmp_path / "cli.sqlite3")
    assert main(["--db", db, "extract", "--sample", "--save", "notes"]) == 0
    capsys.readouterr()
    with Repository(db) as repo:
        before = (repo.workspace_version("notes"), repo.export_json("notes"))
    text = tmp_path / "one.txt"
    text.write_text("Marie Curie was born in Warsaw.", encoding="utf-8")
    assert main(["--db", db, "extract", str(text), "--save", "notes"]) == 2
    err = capsys.readouterr().err
    assert "'notes' already exists" in err and "--overwrite" in err and "nothing was saved" in err
    with Repository(db) as repo:
        assert (repo.workspace_version("notes"), repo.export_json("notes")) == before  # unchanged
    assert main(["--db", db, "extract", str(text), "--save", "notes", "--overwrite"]) == 0
    with Repository(db) as repo:
        corpus, _ = repo.load_corpus("notes")
        assert [d.title for d in corpus.documents] == ["one"]

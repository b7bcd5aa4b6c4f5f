"""Input bounds (issue 17): nesting depth, non-standard JSON numbers, upload size decided before
reading, request bodies over the limit, temporary upload files removed; nothing else of a batch lost."""

from __future__ import annotations

import json
import resource
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from core.documents import BadRecords
from core.eraser4rag.workspace import Workspace
from core.settings import Settings
from storage.repository import Repository, StorageError
from tests.core.test_serialize import sample_corpus_and_triples
from ui.app import build_app, launch_kwargs
from ui.http_limits import BodyLimit

GOOD = json.dumps([{"title": "Good", "text": "Ada Lovelace was born in London."}]).encode()


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_a_deeply_nested_file_is_refused_and_the_good_files_kept(depth: int) -> None:
    deep = ("[" * depth + "]" * depth).encode()
    ws = Workspace()
    errors = ws.add_files([("good.json", GOOD), ("deep.json", deep), ("also.txt", b"Plain text.")], 10**7)
    assert [str(e) for e in errors] == ["deep.json, line 1: JSON nested more than 100 levels deep"]
    assert sorted(d.title for d in ws.corpus.documents) == ["Good", "also"]


def test_a_deep_jsonl_line_is_one_bad_record() -> None:
    lines = [json.dumps({"title": "ok", "text": "Fine."}), "[" * 5000 + "]" * 5000, '{"text": NaN}']
    ws = Workspace()
    (error,) = ws.add_files([("m.jsonl", "\n".join(lines).encode())], 10**7, skip_bad=True)
    assert isinstance(error, BadRecords)
    messages = [str(e) for e in error.errors]
    assert messages == [
        "m.jsonl, line 2: JSON nested more than 100 levels deep",
        "m.jsonl, line 3: NaN is not a JSON number (JSON allows only finite numbers)",
    ]
    assert [d.title for d in ws.corpus.documents] == ["ok"]


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("Infinity", "Infinity is not a JSON number"),
        ("-Infinity", "-Infinity is not a JSON number"),
        ("NaN", "NaN is not a JSON number"),
        ("1e400", "number 1e400 is out of range"),
        ("1" * 5000, "integer with 5000 digits is too large"),
    ],
)
def test_bundle_import_refuses_numbers_json_does_not_allow(tmp_path: Path, value: str, reason: str) -> None:
    with Repository(tmp_path / "b.sqlite3") as repo:
        corpus, triples = sample_corpus_and_triples()
        repo.save_corpus("src", corpus, triples)
        bundle = json.loads(repo.export_json("src"))
        bundle["triples"][0]["confidence"] = "__VALUE__"
        text = json.dumps(bundle).replace('"__VALUE__"', value)
        with pytest.raises(StorageError, match=reason):
            repo.import_json(text, name="imported")
        assert not repo.name_taken("imported")


def test_a_deep_bundle_is_refused_by_name(tmp_path: Path) -> None:
    with (
        Repository(tmp_path / "b.sqlite3") as repo,
        pytest.raises(StorageError, match="nested more than 100"),
    ):
        repo.import_json('{"meta": ' + "[" * 100_000 + "]" * 100_000 + "}")


def test_an_oversized_upload_is_refused_from_its_size_without_reading_it(tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(400_000_000)  # sparse: 400 MB on paper, nothing on disk
    good = tmp_path / "good.json"
    good.write_bytes(GOOD)
    ws = Workspace()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    errors = ws.add_paths([huge, good], max_bytes=5_000_000)
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert [e.file for e in errors] == ["huge.json"] and "over the upload limit" in str(errors[0])
    assert [d.title for d in ws.corpus.documents] == ["Good"]
    assert grown_kib < 50_000  # the 400 MB were never read


def test_the_studio_removes_uploaded_temporary_files_and_sets_gradios_limit(tmp_path: Path) -> None:
    settings = Settings(db=str(tmp_path / "s.sqlite3"), sample_corpus=False, max_upload_bytes=1234)
    demo = build_app(settings)
    kwargs = launch_kwargs(settings)
    assert kwargs["max_file_size"] == 1234
    upload = tmp_path / "upload" / "notes.txt"
    upload.parent.mkdir()
    upload.write_text("Grace Hopper was born in New York.", encoding="utf-8")
    too_big = tmp_path / "upload" / "big.txt"
    too_big.write_text("x" * 5000, encoding="utf-8")
    handler = next(f.fn for f in demo.fns.values() if f.api_name == "add_files")
    ws, message, *_ = handler(Workspace(), [str(upload), str(too_big)])
    assert "Loaded 1 of 2 file(s)" in message
    assert [d.title for d in ws.corpus.documents] == ["notes"]
    assert not upload.exists() and not too_big.exists()
    demo.studio_context.repository.close()


def _echo_app(limit: int) -> TestClient:
    async def echo(request: Request) -> JSONResponse:
        return JSONResponse({"bytes": len(await request.body())})

    app = Starlette(
        routes=[Route("/api", echo, methods=["POST"])], middleware=[Middleware(BodyLimit, max_bytes=limit)]
    )
    return TestClient(app)


def test_request_bodies_over_the_limit_are_refused() -> None:
    client = _echo_app(1000)
    assert client.post("/api", content=b"x" * 1000).json() == {"bytes": 1000}
    refused = client.post("/api", content=b"x" * 1001)
    assert refused.status_code == 413 and "over the limit of 1,000" in refused.json()["error"]
    chunks = (b"x" * 400 for _ in range(10))  # no Content-Length: counted while read
    streamed = client.post("/api", content=chunks)
    assert streamed.status_code == 413
    bad = client.post("/api", content=b"x", headers={"content-length": "-1"})
    assert bad.status_code == 400 and "Content-Length" in bad.json()["error"]

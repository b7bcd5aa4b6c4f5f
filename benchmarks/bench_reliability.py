"""Issue 17's probes, reproduced: one line per item, each a measured outcome.

    python benchmarks/bench_reliability.py [--backend sqlite|postgresql|both] [--kills 13]

1 kill -9 during large saves (5,000 documents, 12,500 triples), existing and new name
2 silent overwrite (CLI extract --save, studio save/export)
3 deeply nested JSON uploaded with good files
4 several processes opening a new database at once
5 concurrent edits: 8 processes adding a mark, 80 saves creating one name, 200 first reviews
6 a 400 MB upload: memory, temporary files, Gradio's limit
7 the relik worker printing endless noise, and a silent one
8 sign-in guessing and openai_server (no key, Content-Length -1, 300 MB body)
9 bundle import of Infinity, NaN, 1e400 and a 5,000-digit integer

PostgreSQL (items 1, 4, 5) runs on a server started in a temporary directory (tests/postgres_server.py).
Writes benchmarks/results/reliability.json.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402

from core.eraser4rag.annotation.candidates import CandidateProposal  # noqa: E402
from core.eraser4rag.workspace import Workspace  # noqa: E402
from core.extract.base import ExtractionError  # noqa: E402
from core.throttle import SignInThrottle  # noqa: E402
from storage.annotation_store import AnnotationStore  # noqa: E402
from storage.db import make_engine  # noqa: E402
from storage.repository import Repository, StorageError  # noqa: E402
from tests.annotation_fixtures import tiny_task  # noqa: E402
from tests.reliability_workload import build_workspace, run_together, state_of_workspace, stored_state  # noqa: E402

DOCS = 5000  # 12,500 triples, as in the issue
RESULTS: dict[str, object] = {}


def report(item: str, line: str, **figures: object) -> None:
    print(f"{item}: {line}", flush=True)
    RESULTS[item] = {"line": line, **figures}


# --- 1 kill -9 ------------------------------------------------------------------------------------


def _start(db: str, name: str, variant: int, overwrite: bool) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "tests.reliability_workload", "save", db, name, str(variant), str(DOCS)]
    child = subprocess.Popen(
        [*command, *(["--overwrite"] if overwrite else [])],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    return child


def _kill(child: subprocess.Popen[str]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    child.wait()


def _kill_at_commit(child: subprocess.Popen[str], db: str, name: str, before: int | None) -> None:
    engine = make_engine(db)
    try:
        while child.poll() is None:
            with engine.connect() as connection:
                version = connection.execute(
                    text("SELECT version FROM corpora WHERE name = :n"), {"n": name}
                ).scalar()
            if version is not None and version != before:
                break
        _kill(child)
    finally:
        engine.dispose()


def kill_trials(db: str, new_name: bool, kills: int) -> tuple[int, int, int]:
    """(torn outcomes, kills that left the old state, kills that left the new state)."""
    states = {v: state_of_workspace(build_workspace(DOCS, v)) for v in (0, 1)}
    name = "copy" if new_name else "big"
    with Repository(db) as repo:
        started = time.monotonic()
        build_workspace(DOCS, 0).save(repo, "big", overwrite=True)
        seconds = time.monotonic() - started
    rng = random.Random(17)
    torn = old = new = 0
    for trial in range(kills):
        with Repository(db) as repo:
            if new_name and repo.name_taken(name):
                repo.delete_corpus(name)
            current = stored_state(repo, "big")
            before = repo.workspace_version(name) if repo.name_taken(name) else None
        variant = 1 if new_name or current == states[0] else 0
        child = _start(db, name, variant, overwrite=not new_name)
        if trial >= kills - 2:  # the last two: just after the commit becomes visible
            _kill_at_commit(child, db, name, before)
        else:
            time.sleep(rng.uniform(0.0, 1.3 * seconds))
            _kill(child)
        with Repository(db) as repo:
            after = stored_state(repo, name)
        previous = None if new_name else states[1 - variant]
        if after == states[variant]:
            new += 1
        elif after == previous:
            old += 1
        else:
            torn += 1
    return torn, old, new


def item_1(backend: str, db_for: Iterator[str], kills: int) -> None:
    existing = kill_trials(next(db_for), False, kills)
    fresh = kill_trials(next(db_for), True, kills)
    report(
        f"1 kill -9 during saves ({backend})",
        f"{DOCS:,} documents, 12,500 triples: {existing[0]} of {kills} kills torn under an existing name "
        f"({existing[1]} old, {existing[2]} new), {fresh[0]} of {kills} under a new name "
        f"({fresh[1]} absent, {fresh[2]} complete)",
        existing=existing,
        new_name=fresh,
    )


# --- 2 overwrite ------------------------------------------------------------------------------------


def item_2(folder: Path) -> None:
    from core.cli import main as cli

    db = str(folder / "cli.sqlite3")
    note = folder / "one.txt"
    note.write_text("Marie Curie was born in Warsaw.", encoding="utf-8")
    with contextlib.redirect_stdout(open(os.devnull, "w")), contextlib.redirect_stderr(open(os.devnull, "w")):
        cli(["--db", db, "extract", "--sample", "--save", "notes"])
        with Repository(db) as repo:
            before = repo.export_json("notes")
        code = cli(["--db", db, "extract", str(note), "--save", "notes"])
    with Repository(db) as repo:
        unchanged = repo.export_json("notes") == before
        ws = Workspace()
        ws.add_text("Grace Hopper.", "other")
        try:
            ws.save(repo, "notes")
            studio = "overwrote"
        except StorageError:
            studio = "refused"
    report(
        "2 silent overwrite",
        f"extract --save over an existing name: exit {code}, workspace unchanged: {unchanged}; "
        f"a save over another workspace without confirming: {studio}",
    )


# --- 3 deep JSON ------------------------------------------------------------------------------------


def item_3() -> None:
    good = json.dumps([{"title": "Good", "text": "Ada Lovelace was born in London."}]).encode()
    kept = []
    for depth in (1_000, 100_000):
        ws = Workspace()
        errors = ws.add_files(
            [("good.json", good), ("deep.json", ("[" * depth + "]" * depth).encode())], 10**7
        )
        kept.append((depth, len(ws.corpus.documents), str(errors[0]) if errors else ""))
    text_kept = ", ".join(f"{d:,} levels: good file kept {n}/1" for d, n, _ in kept)
    report("3 deep JSON", f"{text_kept}; refused as {kept[-1][2]!r}", kept=kept)


# --- 4 opening a new database ----------------------------------------------------------------------


def item_4(backend: str, db_for: Iterator[str], trials: int = 3, processes: int = 8) -> None:
    crashed = 0
    for _ in range(trials):
        db = next(db_for)
        results = run_together([["open", db]] * processes, str(ROOT))
        crashed += sum(1 for r in results if r != "opened")
    report(
        f"4 processes opening a new database ({backend})",
        f"{trials} trials x {processes} processes: {crashed} crashed",
        crashed=crashed,
    )


# --- 5 concurrent edits ----------------------------------------------------------------------------


def item_5(backend: str, db_for: Iterator[str]) -> None:
    db = next(db_for)
    with Repository(db) as repo:
        build_workspace(300, 0).save(repo, "shared")
    results = run_together([["mark", db, "shared", str(i)] for i in range(8)], str(ROOT))
    added = {tuple(r.removeprefix("saved ").split("|")) for r in results if r.startswith("saved ")}
    with Repository(db) as repo:
        ws = Workspace()
        ws.load(repo, "shared")
    kept = len(added & ws.marked_private)
    db = next(db_for)
    creates = " ".join(run_together([["create", db, "fresh", "10"] for _ in range(8)], str(ROOT))).split()
    raw = sum(1 for c in creates if c not in {"created", "refused"})
    db = next(db_for)
    with AnnotationStore(db) as store:
        task_id = store.add_tasks([tiny_task()])[0]
        candidate = store.add_candidate(task_id, CandidateProposal("person", "ann", "A rewrite."), None)
    reviews = run_together([["review", db, str(candidate), f"p{i}", "25"] for i in range(8)], str(ROOT))
    with AnnotationStore(db) as store:
        stored = store.counts()["reviews"]
    report(
        f"5 concurrent edits ({backend})",
        f"8 processes adding a mark each: {kept} of 8 kept; 80 saves creating one name: "
        f"{creates.count('created')} created, {creates.count('refused')} refused by name, {raw} raw errors; "
        f"200 first reviews by new annotators: {stored} stored, {sum(r.count('ok') for r in reviews)} ok",
    )


# --- 6 upload ---------------------------------------------------------------------------------------


def item_6(folder: Path) -> None:
    from core.settings import Settings
    from ui.app import build_app, launch_kwargs

    huge = folder / "upload" / "huge.json"
    huge.parent.mkdir()
    with huge.open("wb") as handle:
        handle.truncate(400_000_000)
    settings = Settings(db=str(folder / "upload.sqlite3"), sample_corpus=False)
    demo = build_app(settings)
    handler = next(f.fn for f in demo.fns.values() if f.api_name == "add_files")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    _, message, *_ = handler(Workspace(), [str(huge)])
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    demo.studio_context.repository.close()
    report(
        "6 400 MB upload",
        f"refused ({message.split('.')[0].split('>')[-1]}); memory grown {grown_mb:.0f} MB; temporary file "
        f"left: {huge.exists()}; Gradio max_file_size: {launch_kwargs(settings)['max_file_size']:,} bytes",
        grown_mb=grown_mb,
    )


# --- 7 relik worker --------------------------------------------------------------------------------


def item_7(folder: Path) -> None:
    from core.extract.relik_worker import RelikExtractor

    outcomes = []
    for name, body in (
        ("noisy", "echo 'warming up' >&2\nwhile true; do echo 'not json'; done\n"),
        ("silent", "echo 'CUDA out of memory' >&2\nsleep 60\n"),
    ):
        script = folder / name
        script.write_text("#!/bin/sh\n" + body, encoding="utf-8")
        script.chmod(0o755)
        started = time.monotonic()
        try:
            RelikExtractor(str(script), "fake", startup_timeout_s=3, request_timeout_s=3).extract(
                "d", "Text."
            )
            outcomes.append(f"{name}: no error")
        except ExtractionError as exc:
            has_tail = "warming up" in str(exc) or "CUDA out of memory" in str(exc)
            outcomes.append(
                f"{name}: stopped after {time.monotonic() - started:.1f} s, stderr in error {has_tail}"
            )
    report("7 relik worker (3 s deadline)", "; ".join(outcomes))


# --- 8 sign-in and openai_server --------------------------------------------------------------------


def item_8(folder: Path) -> None:
    from core.openai_server import serve
    from ui.app import _sign_in_checker

    logging.getLogger("rps").setLevel(logging.ERROR)  # every refused guess is logged; not here
    with Repository(folder / "auth.sqlite3") as repo:
        repo.add_user("ada", "correct horse battery")
        check = _sign_in_checker(repo, SignInThrottle())
        checked = 0
        started = time.monotonic()

        async def guess() -> None:
            nonlocal checked
            while time.monotonic() - started < 10:
                before = time.monotonic()
                await check("ada", "guess")
                checked += time.monotonic() - before > 0.05  # bcrypt ran (a throttled refusal is instant)
                await asyncio.sleep(0.01)

        asyncio.run(guess())
    server, base_url = serve(lambda messages: "hi", api_key="k3y", max_body_bytes=1_000_000, read_timeout_s=5)
    host, port = base_url.removeprefix("http://").removesuffix("/v1").split(":")

    def status(head: bytes) -> tuple[str, float]:
        started = time.monotonic()
        with socket.create_connection((host, int(port)), timeout=20) as sock:
            sock.sendall(head)
            reply = sock.recv(4096).split(b"\r\n")[0].decode()
        return reply.split(" ", 1)[1], time.monotonic() - started

    body = b'{"messages": [{"role": "user", "content": "hi"}]}'
    keyed = b"POST /v1/chat/completions HTTP/1.1\r\nAuthorization: Bearer k3y\r\n"
    no_key = status(b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
    minus = status(keyed + b"Content-Length: -1\r\n\r\n")
    big = status(keyed + b"Content-Length: 300000000\r\n\r\n")
    server.shutdown()
    server.server_close()
    report(
        "8 sign-in and openai_server",
        f"password checks against one user in 10 s of guessing: {checked} ({checked / 10:.1f}/s); "
        f"openai_server without key: {no_key[0]}; Content-Length -1: {minus[0]} in {minus[1]:.2f} s; "
        f"300 MB body: {big[0]} in {big[1]:.2f} s",
    )


# --- 9 bundle numbers --------------------------------------------------------------------------------


def item_9(folder: Path) -> None:
    from tests.core.test_serialize import sample_corpus_and_triples

    refused = []
    with Repository(folder / "bundle.sqlite3") as repo:
        corpus, triples = sample_corpus_and_triples()
        repo.save_corpus("src", corpus, triples)
        bundle = json.loads(repo.export_json("src"))
        bundle["triples"][0]["confidence"] = "__V__"
        for value in ("Infinity", "NaN", "1e400", "1" * 5000):
            try:
                repo.import_json(json.dumps(bundle).replace('"__V__"', value), name=f"n{len(refused)}")
                refused.append(f"{value[:8]}: imported")
            except StorageError as exc:
                refused.append(f"{value[:8]}: refused ({str(exc).split('refused JSON: ')[-1][:40]})")
    report("9 non-standard JSON numbers", "; ".join(refused))


# --- main ---------------------------------------------------------------------------------------------


@contextlib.contextmanager
def databases(backend: str, folder: Path) -> Iterator[Iterator[str]]:
    if backend == "sqlite":
        yield (str(folder / f"db{i}.sqlite3") for i in range(10**6))
        return
    from tests.postgres_server import fresh_database, postgresql_server

    with postgresql_server() as server, contextlib.ExitStack() as stack:
        yield (stack.enter_context(fresh_database(server, f"bench_{i}")) for i in range(10**6))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--kills", type=int, default=13)
    args = parser.parse_args()
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for backend in backends:
            with databases(backend, folder) as db_for:
                item_1(backend, db_for, args.kills)
                item_4(backend, db_for)
                item_5(backend, db_for)
        item_2(folder)
        item_3()
        item_6(folder)
        item_7(folder)
        item_8(folder)
        item_9(folder)
    out = ROOT / "benchmarks" / "results" / "reliability.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(RESULTS, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()

"""Workloads for the reliability tests and `benchmarks/bench_reliability.py`: deterministic
workspaces of any size, and a child process that saves one (so that it can be killed mid-save).

Other commands (open, mark, edit, create, review) prepare, print "ready", wait for a line on
stdin so that all children act at once, and print their outcome.

Run as a child: `python -m tests.reliability_workload save DB NAME VARIANT DOCS [--overwrite]`
prints "ready" once the workspace is built, saves it, prints "saved VERSION" and waits a few
seconds before it exits (a parent watching for the commit has time to kill it right after).
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass

from core.eraser4rag.workspace import Workspace, is_scope_definition
from core.saving import content_digest
from core.types import Corpus, Document, Triple

LINGER_S = 5.0
RELATIONS = ("born_in", "works_for", "married_to", "educated_at", "lives_in")


def build_workspace(docs: int, variant: int) -> Workspace:
    """`docs` documents with 2.5 triples each on average and about a quarter of them marked private.
    Variants differ in some triples and in the marks (variant 0 is the "old", 1 the "new" state)."""
    rng = random.Random(1000 + variant)
    documents = []
    triples: list[Triple] = []
    for i in range(docs):
        person, place = f"Person {i}", f"Place {i % 97}"
        text = f"{person} was born in {place}. {person} worked for Company {i % 53} for years. " * 3
        documents.append(Document(id=f"d{i}", title=f"Doc {i}", text=text, source="bench"))
        count = 2 + (i % 2) + (1 if variant and i % 7 == 0 else 0)
        for j in range(count):
            tail = f"Entity {rng.randrange(docs)}"
            triples.append(
                Triple(person, RELATIONS[(i + j) % len(RELATIONS)], tail, f"d{i}", (0, 20), 0.9, "bench")
            )
    ws = Workspace()
    ws.corpus = Corpus(documents=documents)
    ws.triples = triples
    ws.extracted_ids = {d.id for d in documents}
    ws._set_corpus(ws.corpus)
    ws._triples_changed()
    ws.random_split(0.25, seed=variant, method="uniform")
    return ws


@dataclass(frozen=True)
class StoredState:
    """What a reader sees of a saved workspace: enough to tell two saves apart exactly."""

    content: str
    marks: frozenset[tuple[str, frozenset[tuple[str, str, str]]]]
    extracted: int


def state_of_workspace(ws: Workspace) -> StoredState:
    marks = frozenset((name, frozenset(d.marked)) for name, d in ws.scope_definitions().items())
    return StoredState(content_digest(ws.corpus, ws.triples), marks, len(ws.extracted_ids))


def stored_state(repo: object, name: str) -> StoredState | None:
    """The state a fresh reader loads (None: no workspace of that name)."""
    if not repo.name_taken(name):  # type: ignore[attr-defined]
        return None
    saved = repo.load_workspace(name)  # type: ignore[attr-defined]
    marks = frozenset(
        (n, frozenset(d.marked)) for n, d in saved.definitions.items() if is_scope_definition(n)
    )
    extracted = saved.meta.get("extracted_ids", [])
    return StoredState(content_digest(saved.corpus, saved.triples), marks, len(extracted))


def wait_for_go() -> None:
    """Children start together: each says "ready" once prepared and waits for the parent's "go"."""
    print("ready", flush=True)
    sys.stdin.readline()


def child_open(db: str) -> str:
    """Open (and so create or upgrade) the database: the repository, then the annotation store."""
    from storage.annotation_store import AnnotationStore
    from storage.repository import Repository

    wait_for_go()
    Repository(db).close()
    AnnotationStore(db).close()
    return "opened"


def child_mark(db: str, name: str, index: int) -> str:
    """Load `name`, mark its index-th unmarked triple private, save: the merge keeps every mark."""
    from storage.repository import Repository

    repo = Repository(db)
    ws = Workspace()
    ws.load(repo, name)
    key = sorted(ws.all_keys() - ws.marked_private - ws.query_keys())[index]
    wait_for_go()
    ws.toggle_private(key)
    ws.save(repo, name)
    repo.close()
    return "saved " + "|".join(key)


def child_edit(db: str, name: str, index: int) -> str:
    """Load `name`, add a document (a content change: no merge), save; "conflict" when refused."""
    from core.saving import SaveConflict
    from storage.repository import Repository

    repo = Repository(db)
    ws = Workspace()
    ws.load(repo, name)
    ws.add_text(f"Writer {index} added this note.", f"note {index}")
    wait_for_go()
    try:
        ws.save(repo, name)
    except SaveConflict as conflict:
        return f"conflict {conflict}"
    finally:
        repo.close()
    return f"saved note {index}"


def child_create(db: str, name: str, threads: int) -> str:
    """`threads` saves of a new workspace under one new name at once: one creates it, the rest are
    refused by name (never a raw UNIQUE error)."""
    from concurrent.futures import ThreadPoolExecutor

    from core.saving import OverwriteRefused
    from storage.repository import Repository

    def save(_: int) -> str:
        with Repository(db) as repo:
            ws = build_workspace(20, 0)
            try:
                ws.save(repo, name)
            except OverwriteRefused:
                return "refused"
            return "created"

    wait_for_go()
    with ThreadPoolExecutor(threads) as pool:
        return " ".join(pool.map(save, range(threads)))


def child_review(db: str, candidate: int, prefix: str, threads: int) -> str:
    """`threads` new annotators review one candidate at once."""
    from concurrent.futures import ThreadPoolExecutor

    from storage.annotation_store import AnnotationStore

    store = AnnotationStore(db)

    def review(i: int) -> str:
        store.review(candidate, f"{prefix}-{i}", "accept", expected_version=0)
        return "ok"

    wait_for_go()
    with ThreadPoolExecutor(threads) as pool:
        results = " ".join(pool.map(review, range(threads)))
    store.close()
    return results


def main(argv: list[str]) -> int:
    command = argv[0]
    if command != "save":
        if command == "open":
            print(child_open(argv[1]), flush=True)
        elif command == "mark":
            print(child_mark(argv[1], argv[2], int(argv[3])), flush=True)
        elif command == "edit":
            print(child_edit(argv[1], argv[2], int(argv[3])), flush=True)
        elif command == "create":
            print(child_create(argv[1], argv[2], int(argv[3])), flush=True)
        elif command == "review":
            print(child_review(argv[1], int(argv[2]), argv[3], int(argv[4])), flush=True)
        return 0
    return child_save(argv)


def child_save(argv: list[str]) -> int:
    from storage.repository import Repository

    command, db, name, variant, docs = argv[:5]
    assert command == "save"
    ws = build_workspace(int(docs), int(variant))
    repo = Repository(db)
    print("ready", flush=True)
    ws.save(repo, name, overwrite="--overwrite" in argv)
    print(f"saved {ws.saved_version}", flush=True)
    repo.close()
    time.sleep(LINGER_S)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def run_together(commands: list[list[str]], cwd: str) -> list[str]:
    """Start every child, wait until all are ready, release them at once; their last output lines."""
    import subprocess

    children = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.reliability_workload", *command],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command in commands
    ]
    for child in children:
        line = child.stdout.readline().strip()  # type: ignore[union-attr]
        if line != "ready":
            raise RuntimeError(f"child failed to start: {line} {child.communicate()[1][-2000:]}")
    for child in children:
        child.stdin.write("go\n")  # type: ignore[union-attr]
        child.stdin.flush()  # type: ignore[union-attr]
    results = []
    for child in children:
        out, err = child.communicate(timeout=300)
        results.append(out.strip().splitlines()[-1] if out.strip() else f"failed: {err[-2000:]}")
    return results

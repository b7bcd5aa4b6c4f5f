"""Workloads for the reliability tests and `benchmarks/bench_reliability.py`: deterministic
workspaces of any size, and a child process that saves one (so that it can be killed mid-save).

Run as a child: `python -m tests.reliability_workload save DB NAME VARIANT DOCS [--overwrite]`
prints "ready" once the workspace is built, saves it, prints "saved VERSION" and waits a few
seconds before it exits (a parent watching for the commit has time to kill it right after).
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass

from core.saving import content_digest
from core.types import Corpus, Document, Triple
from core.workspace import Workspace, is_scope_definition

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


def main(argv: list[str]) -> int:
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

"""What an autosave costs on a large workspace, and what a restore (page reload) costs.

    python benchmarks/bench_storage.py --documents 5000 --triples 50000

Builds a workspace of D documents (~600 characters each) and N triples with a quarter of them
marked private, then times on a real SQLite file (WAL): the first autosave (documents, triples,
definition), an autosave after one mark changed (definition only), an autosave when nothing
changed (fingerprints only), a named save of the same workspace (the full rewrite a mark would
cost without the session path), and restoring the session as a reload does. Writes
benchmarks/results/storage.json.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.eraser4rag.workspace import Workspace  # noqa: E402
from core.types import Corpus, Document, Triple  # noqa: E402
from storage.repository import Repository  # noqa: E402
from ui.sessions import LOCAL_USER, Autosaver  # noqa: E402


def synthetic_workspace(documents: int, triples: int, seed: int) -> Workspace:
    rng = random.Random(seed)
    docs = [
        Document(id=f"d{i}", title=f"Record {i}", text=" ".join(f"w{rng.randrange(5000)}" for _ in range(70)))
        for i in range(documents)
    ]
    facts = [
        Triple(
            f"person {rng.randrange(triples // 3)}",
            f"relation {rng.randrange(40)}",
            f"entity {rng.randrange(triples // 2)}",
            f"d{rng.randrange(documents)}",
            (0, 40),
            0.9,
            "spacy",
        )
        for _ in range(triples)
    ]
    workspace = Workspace(corpus=Corpus(documents=docs), triples=facts, extracted_ids={d.id for d in docs})
    workspace._triples_changed()
    workspace.random_split(0.25, seed)
    return workspace


def timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--documents", type=int, default=5000)
    parser.add_argument("--triples", type=int, default=50000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    ws = synthetic_workspace(args.documents, args.triples, args.seed)
    key = "browser:" + "0" * 32
    with tempfile.TemporaryDirectory() as tmp, Repository(Path(tmp) / "bench.sqlite3") as repo:
        saver = Autosaver(repo)
        first = timed(lambda: saver.save(ws, key, LOCAL_USER))
        unmarked = next(iter(sorted(ws.marked_private)))
        ws.toggle_private(unmarked)
        marks_only = timed(lambda: saver.save(ws, key, LOCAL_USER))
        unchanged = timed(lambda: saver.save(ws, key, LOCAL_USER))
        named = timed(lambda: ws.save(repo, "named copy"))
        restored = Workspace()
        restore = timed(lambda: Autosaver(repo).restore(restored, key, LOCAL_USER))
        assert restored.marked_private == ws.marked_private and len(restored.triples) == len(ws.triples)
        size_mib = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 2**20
    result = {
        "documents": args.documents,
        "triples": args.triples,
        "marked": len(ws.marked_private),
        "first_autosave_s": first,
        "marks_only_autosave_s": marks_only,
        "unchanged_autosave_s": unchanged,
        "named_full_save_s": named,
        "restore_s": restore,
        "full_over_marks_only": named / marks_only,
        "db_mib": size_mib,
    }
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "storage.json").write_text(json.dumps(result, indent=2))
    print(f"{args.documents} documents, {args.triples} triples, {len(ws.marked_private)} marked")
    print(f"  first autosave (everything)   {first:7.2f} s")
    print(f"  autosave after one mark       {marks_only:7.3f} s")
    print(f"  autosave, nothing changed     {unchanged:7.3f} s")
    ratio = named / marks_only
    print(f"  named save (full rewrite)     {named:7.2f} s  ({ratio:.0f}x a marks-only autosave)")
    print(f"  restore on reload             {restore:7.2f} s")


if __name__ == "__main__":
    main()

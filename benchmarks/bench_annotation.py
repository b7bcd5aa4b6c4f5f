"""Review speed at scale: one decision saved and the next item fetched, with N tasks in the store.

    .venv/bin/python benchmarks/bench_annotation.py [--tasks 10000] [--decisions 200]

Fills a fresh SQLite file (WAL) with N tasks and one candidate each, then times
`review()` + `next_item()` (what the review tab does on a key press) for the first
`--decisions` items, and the same at 100 tasks for the ratio. Writes
benchmarks/results/annotation.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from core.eraser4rag.annotation.candidates import CandidateProposal  # noqa: E402
from core.eraser4rag.annotation.scoring import Scores  # noqa: E402
from core.eraser4rag.annotation.tasks import AnnotationTask  # noqa: E402
from storage.annotation_store import AnnotationStore  # noqa: E402

TEXT = "Mara Voss lives in Harrow Vale and works as an architect at Lindqvist Robotics since 2019. " * 4


def fill(store: AnnotationStore, n: int) -> None:
    private = (("mara voss", "residence", "harrow vale"),)
    public = (("mara voss", "occupation", "architect"),)
    tasks = [
        AnnotationTask(f"d{i}", f"{TEXT}({i})", private, public, private, public, (), batch="bench")
        for i in range(n)
    ]
    ids = store.add_tasks(tasks)
    for i, task_id in enumerate(ids):
        scores = Scores(0.0, 1.0, (), "spacy", i % 3 != 0)
        proposal = CandidateProposal("eraser", "eraser:graph-guided", f"Rewrite {i}.")
        store.add_candidate(task_id, proposal, scores)


def time_decisions(store: AnnotationStore, decisions: int) -> list[float]:
    seconds = []
    item = store.next_item("bench")
    for _ in range(decisions):
        started = time.perf_counter()
        store.review(item.candidate.id, "bench", "accept", seconds=1.0)
        item = store.next_item("bench")
        seconds.append(time.perf_counter() - started)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=10_000)
    parser.add_argument("--decisions", type=int, default=200)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for n in (100, args.tasks):
            with AnnotationStore(Path(folder) / f"bench{n}.sqlite3") as store:
                started = time.perf_counter()
                fill(store, n)
                fill_s = time.perf_counter() - started
                times = time_decisions(store, min(args.decisions, n - 1))
            results[n] = {
                "fill_s": round(fill_s, 2),
                "median_ms": round(statistics.median(times) * 1000, 2),
                "p95_ms": round(sorted(times)[int(0.95 * len(times))] * 1000, 2),
                "max_ms": round(max(times) * 1000, 2),
            }
            print(n, results[n])
    ratio = results[args.tasks]["median_ms"] / results[100]["median_ms"]
    print(f"median decision+next at {args.tasks} tasks / at 100 tasks: {ratio:.2f}")
    out = REPO / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "annotation.json").write_text(json.dumps({"results": results, "ratio": ratio}, indent=2))


if __name__ == "__main__":
    main()

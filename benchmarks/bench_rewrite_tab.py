"""Rewrite runs in the studio: run cost, view cost after every click, and SQLite round trip.

    PYTHONPATH=. python benchmarks/bench_rewrite_tab.py RETRIEVAL.jsonl [--sets 5] [--erasers a,b]

Loads the retriever records, extracts with spaCy, and for each of the first `--sets` questions
scopes the workspace to that retrieval set, makes the paper's 25 % connected split (seed 0),
and runs the erasers (graph-guided also with verify-and-repair) as the Rewrite tab does.
Reports per-document rewrite time, the time to re-render every rewrite view (what each click
anywhere in the studio costs, since views never recompute a run), and the time to save and load
all runs in a real SQLite file. Timings are on this machine; compare ratios within one run.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import tempfile
import time
from pathlib import Path

from core.eraser4rag.erasers import get_eraser
from core.eraser4rag.erasers.pipeline import tools_for
from core.eraser4rag.workspace import Workspace
from core.extract import get_extractor
from core.settings import Settings
from storage.repository import Repository
from ui import rewrite_tab


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path)
    parser.add_argument("--sets", type=int, default=5)
    parser.add_argument("--erasers", default="graph-guided,mask")
    args = parser.parse_args()
    settings = Settings()
    ws = Workspace()
    errors = ws.add_files([(args.path.name, args.path.read_bytes())], 50_000_000, skip_bad=True)
    for error in errors:
        print(f"skipped: {error}", file=sys.stderr)
    ws.extract(get_extractor("spacy", settings))
    tools = tools_for(settings)
    names = [n.strip() for n in args.erasers.split(",") if n.strip()]
    per_doc: dict[str, list[float]] = {}
    view_seconds: list[float] = []
    documents = 0
    for query in ws.corpus.queries[: args.sets]:
        ws.set_scope(query.id)
        ws.random_split(0.25, 0)
        if not ws.private_keys():
            continue
        documents += len(ws.rewrite_documents())
        for name, verify in [(n, False) for n in names] + [("graph-guided", True)]:
            started = time.perf_counter()
            list(ws.run_erasers([get_eraser(name, settings)], verify, False, tools=tools))
            seconds = time.perf_counter() - started
            per_doc.setdefault(f"{name}{' + verify' if verify else ''}", []).append(
                seconds / len(ws.rewrite_documents())
            )
        snapshot = copy.deepcopy(ws)  # as a gradio State is copied
        started = time.perf_counter()
        rewrite_tab.render_runs(snapshot)
        rewrite_tab.render_metrics(snapshot)
        rewrite_tab.render_scatter(snapshot)
        rewrite_tab.render_selection(snapshot, None, None)
        view_seconds.append(time.perf_counter() - started)
    with tempfile.TemporaryDirectory() as folder, Repository(Path(folder) / "bench.sqlite3") as repo:
        started = time.perf_counter()
        ws.save(repo, "bench")
        saved = time.perf_counter() - started
        started = time.perf_counter()
        loaded = Workspace()
        loaded.load(repo, "bench")
        load_seconds = time.perf_counter() - started
        all_runs = [run for runs in loaded.all_rewrite_runs.values() for run in runs.values()]
        runs = len(all_runs)
        started = time.perf_counter()
        repo.save_rewrites("bench", all_runs)
        runs_saved = time.perf_counter() - started
        started = time.perf_counter()
        repo.load_rewrites("bench")
        runs_loaded = time.perf_counter() - started
    print(f"{len(view_seconds)} retrieval set(s), {documents} document(s)")
    for label, values in per_doc.items():
        print(
            f"  {label:24s} {statistics.mean(values) * 1000:8.1f} ms per document",
            "(re-extraction for the metrics included)",
        )
    print(
        f"  re-render of every rewrite view: median {statistics.median(view_seconds) * 1000:.0f} ms per click"
    )
    print(f"  save workspace with {runs} run(s): {saved:.2f} s; load: {load_seconds:.2f} s")
    print(f"  the runs alone: save {runs_saved:.2f} s, load {runs_loaded:.2f} s")


if __name__ == "__main__":
    main()

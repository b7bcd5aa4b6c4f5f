"""`split` on a saved corpus of real retrieval sets: one connected split per question, definitions only.

    python benchmarks/bench_split.py [--data path/to/popqa_dev.jsonl] [--questions 100]

Loads the retriever JSONL (default: the 4-question PopQA slice in tests/data; copies it under
other file names until `--questions` questions are loaded), extracts triples with the spaCy
backend once, saves the corpus in a fresh SQLite file, then times `python -m core.cli split NAME`
in this process (best of `--repeat`), and, for comparison, re-saving the whole corpus as `split`
did before it stored definitions only. Writes JSON to benchmarks/results/split.json.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.cli import main as cli_main  # noqa: E402
from core.eraser4rag.workspace import Workspace  # noqa: E402
from core.extract import get_extractor  # noqa: E402
from core.settings import Settings  # noqa: E402
from storage.repository import Repository  # noqa: E402


def build_workspace(data: Path, questions: int) -> Workspace:
    raw = data.read_bytes()
    per_file = sum(1 for line in raw.splitlines() if line.strip())
    copies = -(-questions // per_file)
    workspace = Workspace()
    errors = workspace.add_files([(f"retrieval-{i}.jsonl", raw) for i in range(copies)], len(raw) + 1)
    if errors:
        raise SystemExit(f"error: {errors[0]}")
    keep = {q.id for q in workspace.corpus.queries[:questions]}
    documents = {d for q in workspace.corpus.queries if q.id in keep for d in q.doc_ids}
    workspace.corpus.queries = [q for q in workspace.corpus.queries if q.id in keep]
    workspace.corpus.documents = [d for d in workspace.corpus.documents if d.id in documents]
    return workspace


def timed_split(db: Path, name: str) -> float:
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = cli_main(["--db", str(db), "split", name])
    seconds = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"split failed with exit code {code}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=ROOT / "tests" / "data" / "popqa_slice.jsonl",
        help="retriever-format JSONL (default: the PopQA slice of the tests)",
    )
    parser.add_argument("--questions", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    workspace = build_workspace(args.data, args.questions)
    start = time.perf_counter()
    workspace.extract(get_extractor("spacy", Settings()))
    extract_s = time.perf_counter() - start
    folder = Path(tempfile.mkdtemp(prefix="rps-bench-split-"))
    db = folder / "bench.sqlite3"
    repo = Repository(db)
    workspace.save(repo, "bench")

    split_runs = [timed_split(db, "bench") for _ in range(args.repeat)]
    loaded = Workspace()
    loaded.load(repo, "bench")
    resave_runs = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        repo.save_corpus("bench", loaded.corpus, loaded.triples, overwrite=True)
        resave_runs.append(time.perf_counter() - start)
    corpus = workspace.corpus
    result = {
        "machine": platform.platform(),
        "questions": len(corpus.queries),
        "documents": len(corpus.documents),
        "empty_documents": sum(1 for d in corpus.documents if not d.text.strip()),
        "triples": len(workspace.triples),
        "definitions_stored": len(loaded.scope_definitions()),
        "extract_seconds": extract_s,
        "split_seconds_best": min(split_runs),
        "split_seconds_runs": split_runs,
        "resave_corpus_seconds_best": min(resave_runs),
    }
    print(
        f"{result['questions']} questions, {result['documents']:,} passages "
        f"({result['empty_documents']} empty), {result['triples']:,} triples "
        f"(extracted in {extract_s:.0f} s)"
    )
    print(
        f"split (one connected split + filters per question, {result['definitions_stored']} definitions "
        f"stored): best {min(split_runs):.2f} s of {', '.join(f'{s:.2f}' for s in split_runs)}"
    )
    print(f"re-saving the whole corpus (what split also did before): best {min(resave_runs):.2f} s")
    out = ROOT / "benchmarks" / "results" / "split.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

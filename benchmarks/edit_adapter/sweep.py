"""Issue 16 sweep: train edit-script adapters beside the CPU recipe and grade them on held-back
questions. Training and generation can run on a lent GPU machine (no spaCy there): the
held-back requests are built here, pickled, and the rewrites graded here.

    python benchmarks/edit_adapter/sweep.py requests popqa_dev.jsonl WORK/requests.pkl.gz  # here
    python benchmarks/edit_adapter/sweep.py train NAME WORK/edit_train.jsonl               # GPU
    python benchmarks/edit_adapter/sweep.py eval NAME WORK/requests.pkl.gz                 # GPU
    python benchmarks/edit_adapter/sweep.py grade WORK/requests.pkl.gz A.jsonl ... --cpu graph-guided+verify

Variants (NAME): a240 = the CPU recipe of benchmarks/build_adapter.sh (top 8 layers, lr 5e-4,
240 steps, batch 1); c1ep = the same for one full epoch; b3ep = every layer + marker rows,
lr 2e-4, 3 epochs. Env: WORK (adapters), OUT (results), DEVICE (cuda), T0 (start, s),
TRAIN_S / EVAL_S (deadlines after T0), PASSAGES (rewritten passages per question).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import pickle
import random
import sys
import tarfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO), str(REPO / "benchmarks")]

VARIANTS: dict[str, tuple[int, float, int, float]] = {  # name: (top_layers, lr, max_steps, epochs)
    "a240": (8, 5e-4, 240, 1.0),
    "c1ep": (8, 5e-4, -1, 1.0),
    "b3ep": (0, 2e-4, -1, 3.0),
}
WORK = Path(os.environ.get("WORK", "/tmp/sweep_work"))
OUT = Path(os.environ.get("OUT", "/tmp/sweep_out"))
T0 = float(os.environ.get("T0", time.time()))


def log(*parts: Any) -> None:
    print(f"[{time.time() - T0:6.1f}s]", *parts, flush=True)


def build_requests(path: Path, out: Path, skip: int = 40, records: int = 10) -> None:
    from core.eraser4rag.erasers.batch import build_request
    from core.extract import get_extractor
    from core.settings import from_env

    settings = from_env()
    extractor = get_extractor(settings.extractor, settings)
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    requests = [
        build_request(json.loads(line), f"{path.name} line {n}", extractor, 0.25, 0)
        for n, line in enumerate(lines[skip : skip + records], start=skip + 1)
    ]
    out.write_bytes(gzip.compress(pickle.dumps(requests)))


def train(name: str, data: Path) -> None:
    from core.eraser4rag.annotation.export import read_examples
    from core.eraser4rag.training.common import RunHooks
    from core.eraser4rag.training.edit_adapter import with_copy_share
    from core.eraser4rag.training.sft import SftSettings, train_sft
    from core.settings import Settings

    top, lr, steps, epochs = VARIANTS[name]
    examples, _dropped = with_copy_share(read_examples(data), 0.05)
    random.Random(0).shuffle(examples)
    settings = SftSettings(
        epochs=epochs,
        learning_rate=lr,
        max_steps=steps,
        max_input_tokens=Settings().rewriter_edit_input_tokens,
        max_target_tokens=96,
        target_modules=("q_proj", "k_proj", "v_proj", "o_proj"),
        output_form="edits",
        top_layers=top,
        seed=0,
    )
    stop = threading.Event()
    timer = threading.Timer(max(10.0, float(os.environ.get("TRAIN_S", 260)) - (time.time() - T0)), stop.set)
    timer.daemon = True
    timer.start()
    result = train_sft(examples, WORK / name, settings, RunHooks(cancelled=stop))
    log(
        name,
        "trained",
        result.steps,
        "steps in",
        round(result.seconds),
        "s",
        "(cut)" if result.cancelled else "",
    )
    with tarfile.open(OUT / f"{name}.tgz", "w:gz") as tar:
        tar.add(WORK / name, arcname=name)


def evaluate(name: str, requests_file: Path) -> None:
    """eraser4rag (edit form) with the adapter on the first PASSAGES private passages of each
    held-back question; one JSON line per rewritten passage, written as it is done."""
    from core.eraser4rag.erasers.eraser4rag import Eraser4RAGEraser, load_rewriter
    from core.settings import from_env

    if not (WORK / name).exists() and (REPO / f"{name}.tgz").exists():
        with tarfile.open(REPO / f"{name}.tgz") as tar:
            tar.extractall(WORK, filter="data")
    settings = replace(from_env(), rewriter_adapter=str(WORK / name), rewriter_output="edits")
    rewriter = load_rewriter(settings.rewriter_model, settings.rewriter_adapter, settings.cache_dir)
    rewriter.model.to(os.environ.get("DEVICE", "cuda"))
    eraser = Eraser4RAGEraser(settings, rewriter)
    deadline = float(os.environ.get("EVAL_S", 500))
    with (OUT / f"{name}.rewrites.jsonl").open("w", encoding="utf-8") as out:
        for request in pickle.loads(gzip.decompress(requests_file.read_bytes())):
            for document in _private_passages(request):
                if time.time() - T0 > deadline:
                    log(name, "eval deadline reached")
                    return
                started = time.perf_counter()
                (rewrite,) = eraser.erase(replace(request, documents=(document,)))
                row = {"doc_id": rewrite.doc_id, "text": rewrite.text, "notes": list(rewrite.notes)}
                out.write(json.dumps({**row, "seconds": time.perf_counter() - started}) + "\n")
                out.flush()
    log(name, "eval done")


def _private_passages(request: Any) -> list[Any]:
    limit = int(os.environ.get("PASSAGES", 8))
    return [d for d in request.documents if d.text.strip() and request.private_keys_of(d.id)][:limit]


def grade(requests_file: Path, files: list[Path], cpu_erasers: list[str]) -> list[dict[str, Any]]:
    """bench_adapter's scores of each rewrites file on the passages every file reached, beside
    CPU erasers run on the same passages."""
    from bench_adapter import _unchanged, format_row, markdown_table, run

    from core.eraser4rag.erasers.base import Rewrite
    from core.eraser4rag.erasers.evaluation import evaluate_rewrites, summarize
    from core.extract import get_extractor
    from core.settings import from_env

    requests = pickle.loads(gzip.decompress(requests_file.read_bytes()))
    settings = from_env()
    extractor = get_extractor(settings.extractor, settings)
    produced = {f.name.split(".")[0]: _rows_by_id(f) for f in files}
    common = set.intersection(*(set(rows) for rows in produced.values()))
    targets = [[d.id for d in r.documents if d.id in common] for r in requests]
    table = []
    for name, rows in produced.items():
        evaluations, seconds = [], 0.0
        for request, ids in zip(requests, targets, strict=True):
            rewrites = []
            for d in request.documents:
                if d.id not in ids:
                    rewrites.append(_unchanged(d))
                    continue
                seconds += rows[d.id]["seconds"]
                notes = tuple(rows[d.id]["notes"])
                rewrites.append(Rewrite(d.id, "eraser4rag", d.text, rows[d.id]["text"], (), (), notes, 0.0))
            evaluation = evaluate_rewrites(request, rewrites, extractor)
            evaluations.append(replace(evaluation, docs=tuple(x for x in evaluation.docs if x.doc_id in ids)))
        summary = summarize(evaluations)
        table.append(
            {
                "eraser": f"eraser4rag@{name}",
                "trained": True,
                "passages": len(common),
                "summary": summary,
                "seconds_per_passage": seconds / len(common),
            }
        )
        print(format_row(table[-1]), flush=True)
    for spec in cpu_erasers:
        table.append(run(spec, requests, targets, extractor, settings, False))
        print(format_row(table[-1]), flush=True)
    print(markdown_table(table))
    return table


def _rows_by_id(path: Path) -> dict[str, dict[str, Any]]:
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return {row["doc_id"]: row for row in rows}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", choices=("requests", "train", "eval", "grade"))
    parser.add_argument("args", nargs="+")
    parser.add_argument("--cpu", default="", help="grade: CPU erasers to run on the same passages")
    parser.add_argument("--results", type=Path, help="grade: write the rows here")
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    OUT.mkdir(parents=True, exist_ok=True)
    if args.mode == "requests":
        build_requests(Path(args.args[0]), Path(args.args[1]))
    elif args.mode == "train":
        train(args.args[0], Path(args.args[1]))
    elif args.mode == "eval":
        evaluate(args.args[0], Path(args.args[1]))
    else:
        rows = grade(
            Path(args.args[0]), [Path(a) for a in args.args[1:]], [s for s in args.cpu.split(",") if s]
        )
        if args.results:
            args.results.write_text(json.dumps({"rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

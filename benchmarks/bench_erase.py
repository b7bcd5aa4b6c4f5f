"""Eraser4RAG Tables 1-3 in one table: every eraser on real PopQA retrieval sets.

    .venv/bin/python benchmarks/bench_erase.py PATH/popqa_dev.jsonl [--records 50]
        [--model-records 1] [--answer-records 0] [--erasers graph-guided,mask,...]

Per record (one question and its retrieved passages = one global graph): spaCy triples,
the paper's connected random 25 % private split (seed 0), both filters. Each eraser
rewrites the passages; rewrites are graded by re-extraction (r_pri, r_pub per passage;
r_connect over the rewritten set) on all passages, on D_special (Eq. 1) and on the sets
in {D}_infer (Eq. 2), plus the relation-agnostic leak check. Rule-based erasers run on
`--records`; model erasers (chat model / rewriter, the embedded SmolLM2 on CPU unless
an endpoint is configured) on the first `--model-records`. `--answer-records` answers
the first records' questions from original and rewritten passages (accuracy = a gold
answer string in the reply). Seconds per passage are the eraser's own time (graph-guided
also reports its time beyond the spaCy parse). Writes benchmarks/results/erase.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("RPS_CACHE_DIR", str(REPO / ".cache" / "models"))

from tqdm import tqdm  # noqa: E402

from core.eraser4rag.erasers import ERASER_NAMES, EraseRequest, get_eraser  # noqa: E402
from core.eraser4rag.erasers.answer import answer_is_correct, answer_question  # noqa: E402
from core.eraser4rag.erasers.batch import build_request  # noqa: E402
from core.eraser4rag.erasers.evaluation import evaluate_rewrites, summarize  # noqa: E402
from core.eraser4rag.erasers.graph_guided import ParseCache  # noqa: E402
from core.eraser4rag.erasers.pipeline import PassageProblem, Tools, finish, rewrite_each  # noqa: E402
from core.extract import get_extractor  # noqa: E402
from core.settings import from_env  # noqa: E402

RESULTS = REPO / "benchmarks" / "results" / "erase.json"
RULE_BASED = {"graph-guided", "mask"}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path, help="retrieval records (question, answers, ctxs)")
    parser.add_argument("--records", type=int, default=50)
    parser.add_argument("--model-records", type=int, default=1)
    parser.add_argument("--model-passages", type=int, default=10, help="passages per model-subset record")
    parser.add_argument("--subset-only", action="store_true", help="only the side-by-side rows on the subset")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--answer-records", type=int, default=0)
    parser.add_argument("--erasers", default=",".join(ERASER_NAMES))
    parser.add_argument("--ratio", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rewrite-tokens", type=int, default=160, help="token budget of model rewrites")
    args = parser.parse_args()

    settings = replace(
        from_env(), rewriter_max_new_tokens=args.rewrite_tokens, reader_k=3, reader_max_new_tokens=12
    )
    extractor = get_extractor(settings.extractor, settings)
    lines = [line for line in args.path.read_text(encoding="utf-8").splitlines() if line.strip()]
    lines = lines[: max(args.records, args.model_records)]
    started = time.perf_counter()
    full = [] if args.subset_only else lines[: args.records]
    requests = [
        build_request(json.loads(line), f"{args.path.name}, line {n}", extractor, args.ratio, args.seed)
        for n, line in enumerate(tqdm(full, desc="graphs and splits"), start=1)
    ]
    setup_seconds = time.perf_counter() - started
    answers = _original_answers(requests[: args.answer_records], settings)
    subset = [
        build_request(
            _first_passages(json.loads(line), args.model_passages),
            f"line {n}",
            extractor,
            args.ratio,
            args.seed,
        )
        for n, line in enumerate(lines[: args.model_records], start=1)
    ]
    names = args.erasers.split(",")
    rows: list[dict[str, Any]] = []
    report = {
        "data": args.path.name,
        "records": len(requests),
        "passages": sum(len(r.documents) for r in requests),
        "model_subset": f"first {args.model_records} record(s), first {args.model_passages} passages each",
        "ratio": args.ratio,
        "seed": args.seed,
        "extractor": settings.extractor,
        "setup_seconds": setup_seconds,
        "accuracy_original": _mean(answers.values()) if answers else None,
        "answered_records": len(answers),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "rows": rows,
    }

    def add(row: dict[str, Any]) -> None:  # rewritten after every row: a late failure keeps the rest
        rows.append(row)
        print(format_row(row), flush=True)
        args.results.parent.mkdir(parents=True, exist_ok=True)
        args.results.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")

    for name in names:
        if name not in RULE_BASED or args.subset_only:
            continue
        for verify in (False, True):
            add(run_eraser(name, verify, requests, extractor, settings, answers))
    if any(name not in RULE_BASED for name in names):  # every eraser on the small subset, side by side
        for name in names:
            for verify in (False, True) if name in RULE_BASED else (False,):
                add(run_eraser(name, verify, subset, extractor, settings, {}, label="subset"))
    print(markdown_table(report))


def _first_passages(record: dict[str, Any], count: int) -> dict[str, Any]:
    return {**record, "ctxs": record.get("ctxs", [])[:count]}


def _original_answers(requests: list[EraseRequest], settings: Any) -> dict[int, bool]:
    correct = {}
    for index, request in enumerate(tqdm(requests, desc="answers from the original passages")):
        assert request.query is not None
        titles = [d.title for d in request.documents]
        reply = answer_question(request.query.text, titles, [d.text for d in request.documents], settings)
        correct[index] = answer_is_correct(reply, request.query.answers)
    return correct


def run_eraser(
    name: str,
    verify: bool,
    requests: list[EraseRequest],
    extractor: Any,
    settings: Any,
    answers: dict[int, bool],
    label: str = "",
) -> dict[str, Any]:
    eraser = get_eraser(name, settings)
    parse = getattr(eraser, "parse", None) or ParseCache(settings.spacy_model)
    tools = Tools(extractor, extractor, parse)
    evaluations, correct = [], []
    erase_seconds = parse_seconds = 0.0
    passages = 0
    label = name + (" + verify" if verify else "") + (f" [{label}]" if label else "")
    for index, request in enumerate(tqdm(requests, desc=label)):
        parse_before = parse.seconds
        started = time.perf_counter()
        produced = [r for r in rewrite_each(eraser, request) if not isinstance(r, PassageProblem)]
        done = finish(request, produced, tools.verify_with(eraser) if verify else None, None)
        rewrites, triples = done.rewrites, done.triples
        erase_seconds += time.perf_counter() - started
        parse_seconds += parse.seconds - parse_before
        passages += len(request.documents)
        evaluations.append(evaluate_rewrites(request, rewrites, extractor, triples))
        if index in answers:
            assert request.query is not None
            titles = [d.title for d in request.documents]
            reply = answer_question(request.query.text, titles, [r.text for r in rewrites], settings)
            correct.append(answer_is_correct(reply, request.query.answers))
    summary = summarize(evaluations)
    return {
        "eraser": label,
        "trained": getattr(eraser, "trained", True),
        "records": len(requests),
        "passages": passages,
        "summary": summary,
        "accuracy_rewritten": _mean(correct) if correct else None,
        "accuracy_original_same_records": _mean(answers[i] for i in range(len(requests)) if i in answers)
        if correct
        else None,
        "seconds_per_passage": erase_seconds / passages if passages else None,
        "ms_per_passage_beyond_parse": (
            1000 * (erase_seconds - parse_seconds) / passages if passages else None
        ),
    }


def _mean(values: Any) -> float | None:
    values = [float(v) for v in values]
    return sum(values) / len(values) if values else None


def _fmt(value: Any, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def format_row(row: dict[str, Any]) -> str:
    s = row["summary"]
    return (
        f"{row['eraser']:<24} records {row['records']:>3}  "
        f"r_pri {_fmt(s['r_pri'])}  r_pub {_fmt(s['r_pub'])}  "
        f"r_connect {_fmt(s['r_connect'])}  leak {_fmt(s['leak_check'])}  "
        f"s/passage {_fmt(row['seconds_per_passage'], 4)}"
    )


def markdown_table(report: dict[str, Any]) -> str:
    head = (
        "| eraser | records | r_pri ↓ all | r_pub ↑ all | r_pri ↓ D_special | r_pub ↑ D_special | "
        "r_connect ↓ all | r_connect ↓ D_special | r_connect ↓ D_infer | leak check ↓ | accuracy ↑ | "
        "s/passage |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|"
    )
    lines = [head]
    for row in report["rows"]:
        s = row["summary"]
        name = row["eraser"] + ("" if row["trained"] else " (untrained)")
        lines.append(
            f"| {name} | {row['records']} | {_fmt(s['r_pri'])} | {_fmt(s['r_pub'])} | "
            f"{_fmt(s['D_special']['r_pri'])} | {_fmt(s['D_special']['r_pub'])} | {_fmt(s['r_connect'])} | "
            f"{_fmt(s['D_special']['r_connect'])} | {_fmt(s['D_infer']['r_connect'])} | "
            f"{_fmt(s['leak_check'])} | "
            f"{_fmt(row['accuracy_rewritten'])} | {_fmt(row['seconds_per_passage'], 4)} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()

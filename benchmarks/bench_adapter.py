"""The shipped eraser4rag adapter against the untrained rewriter and the other erasers, on
retrieval sets the training never saw.

    .venv/bin/python benchmarks/bench_adapter.py popqa_dev.jsonl --skip 40 --records 5 \\
        [--passages 6] [--erasers eraser4rag@shipped,eraser4rag@none,graph-guided+verify,llm-each,llm-all]
        [--results benchmarks/results/adapter.json]
    .venv/bin/python benchmarks/bench_adapter.py --table RESULTS.json [RESULTS.json ...]

`--skip 40` leaves out the records the shipped adapter was trained on (the first 40 questions of
popqa_dev.jsonl). Per record: its global graph over all its passages, the paper's connected
random 25 % private split (seed 0) and both filters, as in training. Only the passages holding a
private triple are rewritten (the first `--passages` of them per record); every other passage is
carried through unchanged by every eraser alike. r_pri, r_pub and the leak check are over the
rewritten passages (the last column gives r_pri and r_pub over every passage of each set as
well, the unchanged ones included); r_connect is over each whole set (rewritten passages plus the unchanged
rest). An eraser is `NAME` or `NAME+verify`; `eraser4rag@ADAPTER` picks the adapter
(`shipped`, `none` for the untrained base model, or a folder). eraser4rag runs with the
settings' window inference (`--rewriter-windows`, `--rewriter-only-private-windows`, RPS_* env),
recorded in the results. Model erasers run the embedded SmolLM2-135M-Instruct on CPU. Results
are rewritten after every eraser, so a late stop keeps what finished.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from tqdm import tqdm  # noqa: E402

from core.eraser4rag.erasers import get_eraser  # noqa: E402
from core.eraser4rag.erasers.base import EraseRequest, Rewrite  # noqa: E402
from core.eraser4rag.erasers.batch import build_request  # noqa: E402
from core.eraser4rag.erasers.evaluation import evaluate_rewrites, summarize  # noqa: E402
from core.eraser4rag.erasers.graph_guided import ParseCache  # noqa: E402
from core.eraser4rag.erasers.verify import verify_and_repair  # noqa: E402
from core.extract import get_extractor  # noqa: E402
from core.settings import Settings, from_env  # noqa: E402

RESULTS = REPO / "benchmarks" / "results" / "adapter.json"
DEFAULT_ERASERS = "eraser4rag@shipped,eraser4rag@none,graph-guided+verify,llm-each,llm-all"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path, nargs="?", help="retrieval records (question, answers, ctxs)")
    parser.add_argument(
        "--skip", type=int, default=40, help="leading records to leave out (the training split)"
    )
    parser.add_argument("--records", type=int, default=5)
    parser.add_argument("--passages", type=int, default=6, help="rewritten passages per record, at most")
    parser.add_argument("--erasers", default=DEFAULT_ERASERS)
    parser.add_argument("--rewrite-tokens", type=int, default=160, help="token budget of one model rewrite")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument(
        "--keep-texts", action="store_true", help="store each rewritten passage and its notes"
    )
    parser.add_argument("--table", type=Path, nargs="+", help="print the markdown table of result files")
    args = parser.parse_args()
    if args.table:
        print(markdown_table([row for path in args.table for row in json.loads(path.read_text())["rows"]]))
        return
    if args.path is None:
        parser.error("give the retrieval JSONL file (or --table)")
    settings = replace(from_env(), rewriter_max_new_tokens=args.rewrite_tokens)
    extractor = get_extractor(settings.extractor, settings)
    lines = [line for line in args.path.read_text(encoding="utf-8").splitlines() if line.strip()]
    chosen = lines[args.skip : args.skip + args.records]
    requests = [
        build_request(json.loads(line), f"{args.path.name} line {args.skip + n}", extractor, 0.25, 0)
        for n, line in enumerate(chosen, start=1)
    ]
    targets = [private_passages(request, args.passages) for request in requests]
    report: dict[str, Any] = {
        "data": args.path.name,
        "records": f"lines {args.skip + 1}-{args.skip + len(chosen)} (not in the training split)",
        "rewritten_passages": sum(len(t) for t in targets),
        "passages_in_sets": sum(len(r.documents) for r in requests),
        "rewriter": {
            "windows": settings.rewriter_windows,
            "only_private_windows": settings.rewriter_only_private_windows,
            "window_sentences": settings.rewriter_window_sentences,
            "max_input_tokens": settings.rewriter_max_input_tokens,
            "max_new_tokens": settings.rewriter_max_new_tokens,
        },
        "rows": [],
    }
    print(f"{report['records']}: {report['rewritten_passages']} passages with private triples rewritten")
    for spec in args.erasers.split(","):
        report["rows"].append(run(spec.strip(), requests, targets, extractor, settings, args.keep_texts))
        print(format_row(report["rows"][-1]), flush=True)
        args.results.parent.mkdir(parents=True, exist_ok=True)
        args.results.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(markdown_table(report["rows"]))


def private_passages(request: EraseRequest, limit: int) -> list[str]:
    """Ids of the first `limit` non-empty passages holding a private triple."""
    ids = [d.id for d in request.documents if d.text.strip() and request.private_keys_of(d.id)]
    return ids[:limit]


def eraser_settings(spec: str, settings: Settings) -> tuple[str, bool, Settings]:
    """(eraser name, verify, settings) of `NAME[+verify]` or `eraser4rag@ADAPTER`."""
    name, _, adapter = spec.partition("@")
    verify = name.endswith("+verify")
    name = name.removesuffix("+verify")
    if adapter:
        settings = replace(settings, rewriter_adapter=adapter)
    return name, verify, settings


def run(
    spec: str,
    requests: list[EraseRequest],
    targets: list[list[str]],
    extractor: Any,
    settings: Settings,
    keep_texts: bool = False,
) -> dict[str, Any]:
    name, verify, settings = eraser_settings(spec, settings)
    eraser = get_eraser(name, settings)
    parse = getattr(eraser, "parse", None) or ParseCache(settings.spacy_model)
    evaluations = []
    whole_sets = []  # every passage of each set: the ones no eraser touches count too
    texts: list[dict[str, Any]] = []
    seconds = 0.0
    for request, ids in tqdm(list(zip(requests, targets, strict=True)), desc=spec):
        chosen = tuple(d for d in request.documents if d.id in ids)
        started = time.perf_counter()
        produced = {r.doc_id: r for r in eraser.erase(replace(request, documents=chosen))}
        rewrites = [produced.get(d.id) or _unchanged(d) for d in request.documents]
        if verify:
            rewrites, _ = verify_and_repair(request, rewrites, extractor, parse)
        seconds += time.perf_counter() - started
        texts += [
            {"doc_id": r.doc_id, "original": r.original, "text": r.text, "notes": list(r.notes)}
            for r in rewrites
            if keep_texts and r.doc_id in ids
        ]
        evaluation = evaluate_rewrites(request, rewrites, extractor)
        whole_sets.append(evaluation)
        evaluations.append(replace(evaluation, docs=tuple(d for d in evaluation.docs if d.doc_id in ids)))
    passages = sum(len(ids) for ids in targets)
    return {
        "eraser": spec,
        "trained": getattr(eraser, "trained", True),
        "adapter": getattr(eraser, "adapter", ""),
        "passages": passages,
        "summary": summarize(evaluations),
        "all_passages": {k: summarize(whole_sets)[k] for k in ("documents", "r_pri", "r_pub")},
        "seconds_per_passage": seconds / passages if passages else None,
        **({"rewrites": texts} if keep_texts else {}),
    }


def _unchanged(document: Any) -> Rewrite:
    return Rewrite(document.id, "unchanged", document.text, document.text, (), (), (), 0.0)


def _fmt(value: Any, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def format_row(row: dict[str, Any]) -> str:
    s = row["summary"]
    return (
        f"{row['eraser']:<28} r_pri {_fmt(s['r_pri'])}  r_pub {_fmt(s['r_pub'])}  "
        f"strict {_fmt(s.get('strict_leak'))}  partial {_fmt(s.get('partial_leak'))}  "
        f"broken {_fmt(s.get('broken_share'))}  public kept {_fmt(s.get('public_kept_strings'))}  "
        f"chars kept {_fmt(s.get('characters_kept'))}  s/passage {_fmt(row['seconds_per_passage'], 2)}"
        + _all_passages(row)
    )


def _all_passages(row: dict[str, Any]) -> str:
    every = row.get("all_passages")
    return f"  all passages: r_pri {_fmt(every['r_pri'])} r_pub {_fmt(every['r_pub'])}" if every else ""


def _whole(row: dict[str, Any]) -> str:
    every = row.get("all_passages")
    return f"{_fmt(every['r_pri'])} / {_fmt(every['r_pub'])}" if every else "–"


def markdown_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| eraser | passages | r_pri ↓ | r_pub ↑ | strict leak ↓ | partial leak ↓ | broken ↓ | public kept ↑ "
        "| chars kept | r_connect ↓ | s/passage | r_pri / r_pub, all passages |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        s = row["summary"]
        name = row["eraser"] + ("" if row["trained"] else " (untrained)")
        lines.append(
            f"| {name} | {row['passages']} | {_fmt(s['r_pri'])} | {_fmt(s['r_pub'])} | "
            f"{_fmt(s.get('strict_leak'))} | {_fmt(s.get('partial_leak'))} | {_fmt(s.get('broken_share'))} | "
            f"{_fmt(s.get('public_kept_strings'))} | {_fmt(s.get('characters_kept'))} | "
            f"{_fmt(s['r_connect'])} | {_fmt(row['seconds_per_passage'], 2)} | "
            f"{_whole(row)} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()

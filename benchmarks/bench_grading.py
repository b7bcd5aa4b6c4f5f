"""Grading independent of the eraser: old figures against the new ones, on the same erasure run.

    .venv/bin/python -m core.cli erase popqa_dev.jsonl --out OUT.jsonl --eraser graph-guided --verify \
        --ratio 0.25 --seed 0
    .venv/bin/python benchmarks/bench_grading.py popqa_dev.jsonl --out OUT.jsonl [--records 50]
        [--titled] [--lm-fluency] [--second-extractor llm]

Old grading: the figures the `erase` command wrote (`OUT.metrics.json`). New grading: each
record's request is rebuilt exactly as the command built it (`batch.build_request`, same
extractor, split and seed), its rewrites are read from OUT and graded again by
`evaluate_rewrites` with re-extraction under the titles the original extraction used (the
documents' titles, as `build_request` extracts them), name variants joined for r_connect, and the string
grading (strict and partial leaks, public facts kept, characters kept). `--titled` instead
extracts the originals with their titles, erases and verifies with titles, and grades with
titles (what the studio does). `--lm-fluency` adds the SmolLM2 NLL differences of changed
sentences (capped by `--lm-fluency-max-sentences`). Writes benchmarks/results/grading.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
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

from core.eraser4rag.erasers import EraseRequest, Rewrite, get_eraser  # noqa: E402
from core.eraser4rag.erasers.batch import build_request, record_set, sidecar_paths  # noqa: E402
from core.eraser4rag.erasers.evaluation import (  # noqa: E402
    DocEvaluation,
    evaluate_rewrites,
    fluency_distribution,
    grading_options,
    summarize,
)
from core.eraser4rag.erasers.graph_guided import ParseCache  # noqa: E402
from core.eraser4rag.erasers.lm_fluency import LmFluency, changed_sentence_pairs  # noqa: E402
from core.eraser4rag.erasers.verify import verify_and_repair  # noqa: E402
from core.eraser4rag.filters import define_privacy  # noqa: E402
from core.eraser4rag.names import name_aliases  # noqa: E402
from core.eraser4rag.split import connected_random_private_keys  # noqa: E402
from core.extract import get_extractor  # noqa: E402
from core.settings import from_env  # noqa: E402
from core.types import RetrievalSet  # noqa: E402

RESULTS = REPO / "benchmarks" / "results" / "grading.json"
FIGURES = ("r_pri", "r_pub", "r_connect", "leak_check", "strict_leak", "partial_leak")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path, help="retrieval records (question, answers, ctxs)")
    parser.add_argument("--out", type=Path, help="OUT.jsonl of `python -m core.cli erase` on PATH")
    parser.add_argument("--records", type=int, default=50)
    parser.add_argument("--first", type=int, default=1, help="first record (1-based)")
    parser.add_argument("--titled", action="store_true", help="extract, erase, verify and grade with titles")
    parser.add_argument("--ratio", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lm-fluency", action="store_true")
    parser.add_argument("--lm-fluency-max-sentences", type=int, default=400)
    parser.add_argument("--second-extractor", default="")
    parser.add_argument(
        "--fluency-only",
        action="store_true",
        help="only the LM fluency of OUT's changed sentences (no extraction)",
    )
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args()

    base = from_env()
    settings = replace(
        base,
        lm_fluency=args.lm_fluency or base.lm_fluency,
        lm_fluency_max_sentences=args.lm_fluency_max_sentences,
        second_extractor=args.second_extractor or base.second_extractor,
    )
    extractor = get_extractor(settings.extractor, settings)
    options = grading_options(settings)
    second, fluency = options["second_extractor"], options["fluency"]
    if args.fluency_only:
        assert args.out and fluency, "--fluency-only needs --out and --lm-fluency"
        report = fluency_of_out(args.out, args.first, args.records, fluency)
        args.results.parent.mkdir(parents=True, exist_ok=True)
        args.results.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(json.dumps({k: v for k, v in report.items() if k != "worst"}, indent=2))
        return
    lines = [line for line in args.path.read_text(encoding="utf-8").splitlines() if line.strip()]
    chosen = list(enumerate(lines, start=1))[args.first - 1 : args.first - 1 + args.records]
    outs = _out_records(args.out, args.first, len(chosen)) if args.out and not args.titled else None
    evaluations = []
    started = time.perf_counter()
    for index, (number, line) in enumerate(tqdm(chosen, desc="grading")):
        record = json.loads(line)
        where = f"{args.path.name}, line {number}"
        if args.titled:
            retrieval_set = record_set(record, args.path.name, number)
            request, rewrites, titles = _titled_run(retrieval_set, extractor, args.ratio, args.seed, settings)
        else:
            assert outs is not None, "--out is needed unless --titled"
            request = build_request(record, where, extractor, args.ratio, args.seed)
            # titles None: graded under the documents' titles, as the erase command extracted them
            rewrites, titles = _rewrites_from_out(request, outs[index]), None
        evaluations.append(
            evaluate_rewrites(
                request, rewrites, extractor, None, titles=titles, second_extractor=second, fluency=fluency
            )
        )
    summary = summarize(evaluations)
    report: dict[str, Any] = {
        "data": args.path.name,
        "records": f"{args.first}-{args.first + len(chosen) - 1}",
        "mode": "titled run" if args.titled else f"regraded {args.out.name if args.out else ''}",
        "seconds": time.perf_counter() - started,
        "new": summary,
    }
    if outs is not None and args.out is not None:
        old_path = sidecar_paths(args.out)[1]
        if old_path.exists() and args.first == 1 and len(chosen) == len(_out_records(args.out, 1, 10**9)):
            report["old"] = json.loads(old_path.read_text(encoding="utf-8"))
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(table(report))


def fluency_of_out(out: Path, first: int, count: int, fluency: LmFluency) -> dict[str, Any]:
    """NLL differences of OUT's changed sentences (a seeded sample up to the cap) and the ten worst."""
    pairs = [
        pair
        for record in _out_records(out, first, count)
        for ctx in record["ctxs"]
        for pair in changed_sentence_pairs(ctx.get("original_text") or "", ctx["text"])
    ]
    random.Random(0).shuffle(pairs)  # the capped subset spans every record, not the first ones
    started = time.perf_counter()
    deltas = fluency(pairs)
    scored = [(d, p) for d, p in zip(deltas, pairs, strict=True) if d == d]  # NaN: past the cap
    doc = DocEvaluation("all", 0, 0, 0, 0, (), False, False, fluency_nll_delta=tuple(d for d, _p in scored))
    worst = sorted(scored, key=lambda item: -item[0])[:10]
    return {
        "out": out.name,
        "records": f"{first}-{first + count - 1}",
        "changed_sentences": len(pairs),
        "seconds": time.perf_counter() - started,
        "lm_fluency": fluency_distribution([doc]),
        "share_worse_by_0.5": sum(1 for d, _p in scored if d > 0.5) / len(scored) if scored else None,
        "worst": [{"delta": d, "original": o, "rewrite": r} for d, (o, r) in worst],
    }


def _out_records(out: Path, first: int, count: int) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows[first - 1 : first - 1 + count]


def _rewrites_from_out(request: EraseRequest, out_record: dict[str, Any]) -> list[Rewrite]:
    rewrites = []
    for document, ctx in zip(request.documents, out_record["ctxs"], strict=True):
        rewrites.append(Rewrite(document.id, "from OUT", document.text, ctx["text"], (), (), (), 0.0))
    return rewrites


def _titled_run(
    retrieval_set: RetrievalSet, extractor: Any, ratio: float, seed: int, settings: Any
) -> tuple[EraseRequest, list[Rewrite], dict[str, str]]:
    """build_request with titles, name variants joined in the split and filters; erase; verify with titles."""
    query, documents = retrieval_set.query, retrieval_set.documents
    titles = {d.id: d.title for d in documents if d.title}
    items = [(d.id, d.text) for d in documents if d.text.strip()]
    triples = extractor.extract_many(items, titles=titles) if items else []
    query_keys = {t.key for t in extractor.extract(query.id, query.text)} if query.text.strip() else set()
    keys = {t.key for t in triples} | query_keys
    aliases = name_aliases(triples)
    marked = connected_random_private_keys(keys, ratio, seed, exclude=query_keys, aliases=aliases)
    definition = define_privacy(keys, marked, query_keys, max_paths=0, aliases=aliases)
    request = EraseRequest(documents=documents, triples=tuple(triples), definition=definition, query=query)
    eraser = _eraser(settings)
    texts = tuple(d for d in documents if d.text.strip())
    produced = {r.doc_id: r for r in eraser.erase(replace(request, documents=texts))}
    rewrites = [
        produced.get(d.id) or Rewrite(d.id, eraser.name, d.text, d.text, (), (), (), 0.0) for d in documents
    ]
    parse = getattr(eraser, "parse", None) or ParseCache(settings.spacy_model)
    repaired, _triples = verify_and_repair(request, rewrites, extractor, parse, titles=titles)
    return request, repaired, titles


_ERASERS: dict[str, Any] = {}


def _eraser(settings: Any) -> Any:
    if "graph-guided" not in _ERASERS:
        _ERASERS["graph-guided"] = get_eraser("graph-guided", settings)
    return _ERASERS["graph-guided"]


def _fmt(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def table(report: dict[str, Any]) -> str:
    new, old = report["new"], report.get("old", {})
    rows = ["| figure | old grading | new grading |", "|---|---|---|"]
    for name in (*FIGURES, "public_kept_strings", "characters_kept"):
        rows.append(f"| {name} | {_fmt(old.get(name))} | {_fmt(new.get(name))} |")
    strings = new["strings"]
    rows.append(f"| private_visible (string coverage) | – | {_fmt(strings['private_visible'])} |")
    rows.append(f"| characters_kept (changed passages) | – | {_fmt(strings['characters_kept_changed'])} |")
    rows.append(f"| changed passages | – | {strings['changed_passages']} |")
    if "second" in new:
        rows.append(
            f"| second extractor r_pri / r_pub | – | {_fmt(new['second']['r_pri'])} / "
            f"{_fmt(new['second']['r_pub'])} |"
        )
    if "lm_fluency" in new:
        lm = new["lm_fluency"]
        rows.append(
            f"| LM NLL delta mean / median / p90 ({lm['sentences']} sentences) | – | "
            f"{_fmt(lm['mean'])} / {_fmt(lm['median'])} / {_fmt(lm['p90'])} |"
        )
    return f"{report['mode']}, records {report['records']}\n" + "\n".join(rows)


if __name__ == "__main__":
    main()

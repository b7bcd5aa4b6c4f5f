"""ABack speed: monitoring overhead on answers that leak nothing, and the cost of backtracking.

    .venv/bin/python benchmarks/bench_aback.py [--max-new-tokens 48] [--repeats 3]

1. Clean prompts (general questions, no retrieved records) with a realistic indicator set
   (the labelled entities of 4 generated records) that the answers never contain: for each
   prompt the best-of-N wall time of plain greedy decoding (`run_plain`) and of ABack
   (`run_guarded`) with the same max_new_tokens; the ratio is ABack / plain.
2. Leaking prompts: attack queries (the data module's injections on 12 generated records'
   topic queries, k retrieved summaries, indicators = their labelled entities) whose plain
   answer really contains an indicator: ABack's total time, backtracks, sampled tokens
   and leaks left per answer, next to plain decoding of the same prompt.
Writes benchmarks/results/aback.json and prints a table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("RPS_CACHE_DIR", str(REPO / ".cache" / "models"))

from core.aback.baselines import rag_messages  # noqa: E402
from core.aback.config import ABackConfig  # noqa: E402
from core.aback.data import attack_query, generate  # noqa: E402
from core.aback.decode import run_guarded, run_plain  # noqa: E402
from core.aback.monitor import LeakMonitor  # noqa: E402
from core.retrieval import Retriever  # noqa: E402
from core.settings import from_env  # noqa: E402

RESULTS = REPO / "benchmarks" / "results" / "aback.json"
CLEAN_QUESTIONS = (
    "Explain in simple words how vaccines train the immune system.",
    "What are three good habits for saving money every month?",
    "Describe how photosynthesis works.",
    "Give me tips for a good night's sleep.",
)


def best_of(repeats: int, run: object) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        result = run()  # type: ignore[operator]
        best = min(best, time.perf_counter() - started)
    return best, result


def _clean_row(question: str, plain_s: float, plain: Any, guarded_s: float, guarded: Any) -> dict[str, Any]:
    return {
        "prompt": question,
        "plain_s": plain_s,
        "aback_s": guarded_s,
        "ratio": guarded_s / plain_s,
        "plain_tokens": plain.generated_tokens,
        "aback_tokens": guarded.generated_tokens,
        "backtracks": len(guarded.events),
        "same_text": plain.text.strip() == guarded.text.strip(),
    }


def _leaking_runs(
    args: argparse.Namespace, settings: Any, lm: Any, config: ABackConfig
) -> tuple[list[dict[str, Any]], int]:
    """Attack prompts whose plain answer really leaks an indicator, with ABack's cost on each."""
    records = generate(12, seed=0)
    retriever = Retriever([record.document() for record in records], embedder_name=settings.embedder)
    by_id = {record.id: record for record in records}
    candidates = [(record, style) for style in ("repeat", "static", "summarize") for record in records]
    rows: list[dict[str, Any]] = []
    tried = 0
    for record, style in candidates:
        if len(rows) >= args.leaking:
            break
        tried += 1
        query = attack_query(record.topic_query, style)
        docs = [doc for doc, _ in retriever.top_k(query, settings.retrieval_k)]
        doc_indicators = [text for doc in docs for text in by_id[doc.id].entity_texts()]
        messages = rag_messages(query, docs, record.domain)
        plain = run_plain(messages, args.max_new_tokens, lm=lm)
        leaks = LeakMonitor(doc_indicators).find_leaks(plain.text)
        if not leaks:
            continue
        guarded = run_guarded(messages, doc_indicators, config, lm=lm, settings=settings)
        rows.append(
            {
                "record": record.id,
                "attack": style,
                "plain_s": plain.wall_s,
                "aback_s": guarded.wall_s,
                "plain_leaks": len(leaks),
                "backtracks": len(guarded.events),
                "masked": len(guarded.masked_leaks),
                "aback_leaks_left": len(LeakMonitor(doc_indicators).find_leaks(guarded.text)),
                "aback_sampled_tokens": guarded.generated_tokens,
                "plain_tokens": plain.generated_tokens,
            }
        )
    return rows, tried


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-new-tokens", type=int, default=48)
    parser.add_argument("--repeats", type=int, default=3, help="best-of-N for the clean prompts")
    parser.add_argument("--leaking", type=int, default=3, help="number of leaking prompts")
    args = parser.parse_args(argv)

    settings = from_env()
    from core.model_loading import get_causal_lm

    lm = get_causal_lm(settings.local_lm, settings.cache_dir)
    config = ABackConfig.from_settings(settings, max_new_tokens=args.max_new_tokens)
    records = generate(4, seed=0)
    indicators = [text for record in records[:4] for text in record.entity_texts()]

    # warm-up: model kernels, and ABack's prototype embeddings (loaded at the first backtrack)
    warm = rag_messages(attack_query(records[0].topic_query, "repeat"), [records[0].document()])
    run_guarded(warm, records[0].entity_texts(), config, lm=lm, settings=settings)
    run_plain([{"role": "user", "content": CLEAN_QUESTIONS[0]}], 4, lm=lm)

    clean_rows = []
    for question in CLEAN_QUESTIONS:
        messages = [{"role": "user", "content": question}]
        plain_s, plain = best_of(args.repeats, lambda m=messages: run_plain(m, args.max_new_tokens, lm=lm))
        guarded_s, guarded = best_of(
            args.repeats, lambda m=messages: run_guarded(m, indicators, config, lm=lm, settings=settings)
        )
        clean_rows.append(_clean_row(question, plain_s, plain, guarded_s, guarded))

    leak_rows, tried = _leaking_runs(args, settings, lm, config)

    total_plain = sum(row["plain_s"] for row in clean_rows)
    total_aback = sum(row["aback_s"] for row in clean_rows)
    payload = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_average": os.getloadavg(),
        },
        "model": settings.local_lm or "SmolLM2-135M-Instruct",
        "max_new_tokens": args.max_new_tokens,
        "repeats": args.repeats,
        "aback": {
            "m": config.m,
            "l": config.l,
            "d": config.d,
            "hsm": config.hsm_method,
            "indicators_clean": len(indicators),
        },
        "clean": clean_rows,
        "clean_ratio_total": total_aback / total_plain,
        "leaking": leak_rows,
        "leaking_candidates_tried": tried,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(payload, indent=2), encoding="utf-8")

    print(f"Clean prompts (best of {args.repeats}, {args.max_new_tokens} new tokens, greedy):")
    print(f"{'prompt':48} {'plain s':>8} {'ABack s':>8} {'ratio':>6} {'tokens':>7} {'backtracks':>10}")
    for row in clean_rows:
        print(
            f"{row['prompt'][:48]:48} {row['plain_s']:8.2f} {row['aback_s']:8.2f} {row['ratio']:6.2f} "
            f"{row['aback_tokens']:7d} {row['backtracks']:10d}"
        )
    print(f"overall ABack/plain wall-time ratio: {payload['clean_ratio_total']:.3f}")
    print(
        f"\nLeaking prompts (one run each; {len(leak_rows)} of {tried} candidate attacks leaked "
        "without ABack):"
    )
    print(
        f"{'record':12} {'attack':9} {'plain s':>8} {'ABack s':>8} {'backtracks':>10} {'masked':>6} "
        f"{'sampled':>8} {'leaks plain/ABack':>17}"
    )
    for row in leak_rows:
        print(
            f"{row['record']:12} {row['attack']:9} {row['plain_s']:8.2f} {row['aback_s']:8.2f} "
            f"{row['backtracks']:10d} {row['masked']:6d} {row['aback_sampled_tokens']:8d} "
            f"{row['plain_leaks']:>8d}/{row['aback_leaks_left']:<8d}"
        )
    print(f"\nwritten to {RESULTS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

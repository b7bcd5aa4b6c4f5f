"""Issue 15's figures: does the erased text read, and is what was private gone? Graded apart from the eraser.

    .venv/bin/python benchmarks/bench_erase_readability.py PATH/popqa_dev.jsonl
        [--erasers graph-guided+verify,mask] [--records 50] [--held-back-from 41]
        [--sample 50 [--sample-seed 0]]

Each eraser runs through the `erase` CLI (the one pipeline the studio and batch share) on
the first `--records` retrieval sets (25 % connected private split, seed 0). From what it
wrote, per eraser, over all sets and over the held-back sets (`--held-back-from`, never
used while the rules were written):

- broken: share of changed passages with a broken construction the rewrite added
  (`core.eraser4rag.erasers.fluency`, parse-based);
- characters kept: characters of all rewrites over characters of all originals;
- answer in top 5: share of questions whose gold answer string is in the first five
  passages, before and after erasure, over the questions whose answer is no private tail
  (the paper's Table 3 rule);
- the leak and public-fact figures of the CLI's metrics JSON (strict and partial leak,
  public kept, r_pri, r_pub, r_connect), when the grading there reports them;
- seconds per question (wall time of the CLI run over the number of sets).

`--sample N` writes N changed passages drawn at random (`--sample-seed`, 0 by default) to
benchmarks/results/readability_sample.md, before and after, for a person to read.
Writes benchmarks/results/readability.json (readability-TAG.json with `--tag TAG`).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import time
import unicodedata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from core.eraser4rag.erasers.fluency import broken_in_rewrite  # noqa: E402
from core.model_loading import get_spacy  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"


def run_eraser(
    path: Path, name: str, records: int, workdir: Path
) -> tuple[list[dict[str, Any]], dict, float]:
    """(OUT records, metrics JSON, wall seconds) of one `erase` CLI run over the first `records` sets."""
    eraser, _, verify = name.partition("+")
    subset = workdir / f"in-{records}.jsonl"
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()][:records]
    subset.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = workdir / f"{name}.jsonl"
    for stale in workdir.glob(f"{name}.*"):
        stale.unlink()
    command = [sys.executable, "-m", "core.cli", "erase", str(subset), "--out", str(out), "--eraser", eraser]
    command += ["--ratio", "0.25", "--seed", "0"] + (["--verify"] if verify else [])
    started = time.perf_counter()
    subprocess.run(command, cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    metrics = json.loads(out.with_name(f"{name}.metrics.json").read_text(encoding="utf-8"))
    return rows, metrics, wall


def normalise(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in folded if not unicodedata.combining(c))


def answer_in_top(
    ctxs: list[dict[str, Any]], answers: list[str], field: str, k: int = 5, whole_words: bool = False
) -> bool:
    """A gold answer string in one of the first k passages; `whole_words`: not inside a longer word
    (PopQA's short aliases, "pol" for "politician", are otherwise found inside "Poland")."""
    texts = [normalise(ctx.get(field) or "") for ctx in ctxs[:k]]
    golds = [normalise(a) for a in answers if a.strip()]
    if whole_words:
        return any(re.search(rf"(?<!\w){re.escape(g)}(?!\w)", text) for g in golds for text in texts)
    return any(g in text for g in golds for text in texts)


def answer_is_private(record: dict[str, Any]) -> bool:
    tails = {normalise(t) for ctx in record["ctxs"] for _h, _r, t in ctx.get("private", [])}
    return any(normalise(a) in tails for a in record.get("answers", []))


def figures(rows: list[dict[str, Any]], parse: Any) -> dict[str, Any]:
    passages = [ctx for row in rows for ctx in row["ctxs"]]
    changed = [ctx for ctx in passages if ctx["text"] != ctx["original_text"]]
    broken = [ctx for ctx in changed if broken_in_rewrite(ctx["original_text"], ctx["text"], parse)]
    original_chars = sum(len(ctx["original_text"]) for ctx in passages)
    kept_chars = sum(len(ctx["text"]) for ctx in passages)
    eligible = [row for row in rows if row.get("answers") and not answer_is_private(row)]
    before = sum(answer_in_top(row["ctxs"], row["answers"], "original_text") for row in eligible)
    after = sum(answer_in_top(row["ctxs"], row["answers"], "text") for row in eligible)
    words_before = sum(
        answer_in_top(row["ctxs"], row["answers"], "original_text", whole_words=True) for row in eligible
    )
    words_after = sum(
        answer_in_top(row["ctxs"], row["answers"], "text", whole_words=True) for row in eligible
    )
    return {
        "sets": len(rows),
        "passages": len(passages),
        "changed": len(changed),
        "broken": len(broken),
        "broken_share": len(broken) / len(changed) if changed else None,
        "characters_kept": kept_chars / original_chars if original_chars else None,
        "answer_questions": len(eligible),
        "answer_top5_before": before / len(eligible) if eligible else None,
        "answer_top5_after": after / len(eligible) if eligible else None,
        "answer_top5_whole_words_before": words_before / len(eligible) if eligible else None,
        "answer_top5_whole_words_after": words_after / len(eligible) if eligible else None,
    }


GRADING_KEYS = ("r_pri", "r_pub", "r_connect", "leak_check", "strict_leak", "partial_leak", "public_kept")


def grading(metrics: dict[str, Any]) -> dict[str, Any]:
    found = {key: metrics[key] for key in GRADING_KEYS if key in metrics}
    for key, value in metrics.items():  # a second grading method's block, as the CLI reports it
        if isinstance(value, dict) and any(k in value for k in ("strict_leak", "public_kept")):
            found[key] = {k: v for k, v in value.items() if not isinstance(v, (dict, list))}
    return found


def write_sample(rows: list[dict[str, Any]], count: int, parse: Any, path: Path, seed: int = 0) -> None:
    changed = [
        (row["question"], ctx) for row in rows for ctx in row["ctxs"] if ctx["text"] != ctx["original_text"]
    ]
    drawn = random.Random(seed).sample(changed, min(count, len(changed)))
    lines = [f"# Changed passages drawn at random (seed {seed}), before and after\n"]
    for number, (question, ctx) in enumerate(drawn, start=1):
        flags = [b.kind for b in broken_in_rewrite(ctx["original_text"], ctx["text"], parse)]
        lines += [
            f"## {number}. {ctx.get('title', '')} (question: {question})",
            f"private: {ctx.get('private', [])}",
            f"checker: {flags or 'no broken construction'}",
            "",
            "before:",
            "",
            "> " + ctx["original_text"].strip().replace("\n", "\n> "),
            "",
            "after:",
            "",
            "> " + (ctx["text"].strip().replace("\n", "\n> ") or "(empty)"),
            "",
        ]
    path.write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path)
    parser.add_argument("--erasers", default="graph-guided+verify")
    parser.add_argument("--records", type=int, default=50)
    parser.add_argument("--held-back-from", type=int, default=41, help="first held-back set (1-based)")
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--sample-seed", type=int, default=0)
    parser.add_argument("--tag", default="", help="write readability-TAG.json (other erasers, fewer sets)")
    args = parser.parse_args()
    RESULTS.mkdir(parents=True, exist_ok=True)
    workdir = RESULTS / "readability"
    workdir.mkdir(exist_ok=True)
    parse = get_spacy()
    report: dict[str, Any] = {}
    for name in args.erasers.split(","):
        rows, metrics, wall = run_eraser(args.path, name, args.records, workdir)
        held = rows[args.held_back_from - 1 :]
        report[name] = {
            "all": figures(rows, parse),
            "held_back": figures(held, parse) if held else None,
            "grading": grading(metrics),
            "seconds_per_set": wall / max(len(rows), 1),
        }
        print(name, json.dumps(report[name], indent=1))
        if args.sample and name == args.erasers.split(",")[0]:
            write_sample(rows, args.sample, parse, RESULTS / "readability_sample.md", args.sample_seed)
    name = f"readability-{args.tag}.json" if args.tag else "readability.json"
    (RESULTS / name).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

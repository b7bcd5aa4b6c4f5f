"""The erasure on personal records instead of Wikipedia: texts of the labelled PII set as retrieval sets.

    .venv/bin/python benchmarks/bench_erase_records.py PATH/pii_dev.json [--part dev|held-out]
        [--sets 4] [--per-set 25] [--seed 5]

Draws `--sets` x `--per-set` texts (seed `--seed`) from one part of `benchmarks.lib.pii_eval.split_records`
(the held-out part is for a figure measured once), writes them as retrieval sets (one global graph per
set, untitled passages, as a studio user's pasted records are), runs the `erase` CLI on them
(graph-guided + verify, 25 % connected private split, seed 0: the one pipeline the studio uses), and
writes every changed passage before and after to benchmarks/results/erase_records.md for reading, with
the CLI's summary (string-graded strict and partial leaks: a record's own fields count, its node being
the passage itself).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.lib.pii_eval import parse_pii_records, split_records  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path, help="presidio-research style JSON (full_text, spans)")
    parser.add_argument("--part", choices=("dev", "held-out"), default="dev")
    parser.add_argument("--sets", type=int, default=4)
    parser.add_argument("--per-set", type=int, default=25)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    dev, held_out = split_records(
        parse_pii_records(json.loads(args.path.read_text(encoding="utf-8")), str(args.path))
    )
    texts = [record.full_text for record in (dev if args.part == "dev" else held_out)]
    random.Random(args.seed).shuffle(texts)
    RESULTS.mkdir(parents=True, exist_ok=True)
    sets_path = RESULTS / "erase_records_input.jsonl"
    out_path = RESULTS / "erase_records_output.jsonl"
    with sets_path.open("w", encoding="utf-8") as sets:
        for number in range(args.sets):
            chosen = texts[number * args.per_set : (number + 1) * args.per_set]
            ctxs = [
                {"id": f"pii-{number}-{i}", "title": "", "text": t, "score": 1.0}
                for i, t in enumerate(chosen)
            ]
            sets.write(json.dumps({"question": "Who is this about?", "answers": [], "ctxs": ctxs}) + "\n")
    for stale in (out_path, out_path.with_suffix(".eval.jsonl"), out_path.with_suffix(".metrics.json")):
        stale.unlink(missing_ok=True)  # the CLI resumes a run whose output exists: start afresh
    command = [
        sys.executable,
        "-m",
        "core.cli",
        "erase",
        str(sets_path),
        "--eraser",
        "graph-guided",
        "--verify",
    ]
    command += ["--ratio", "0.25", "--seed", "0", "--out", str(out_path)]
    summary = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True).stdout
    print(summary)
    _write_changes(sets_path, out_path, summary, RESULTS / "erase_records.md")


def _passage(passage_id: str, text: str) -> dict[str, object]:
    return {"id": passage_id, "title": "", "text": text, "score": 1.0}


def _write_changes(sets_path: Path, out_path: Path, summary: str, report: Path) -> None:
    lines = ["# Erasure on personal records (labelled PII set)", "", "```", summary.strip(), "```", ""]
    before_sets = [json.loads(line) for line in sets_path.read_text(encoding="utf-8").splitlines()]
    after_sets = [json.loads(line) for line in out_path.read_text(encoding="utf-8").splitlines()]
    for before, after in zip(before_sets, after_sets, strict=True):
        for old, new in zip(before["ctxs"], after["ctxs"], strict=True):
            if old["text"] != new["text"]:
                lines += [f"## {old['id']}", "", "before:", "", *_quoted(old["text"]), "", "after:", ""]
                lines += [*_quoted(new["text"] or "(empty)"), ""]
    report.write_text("\n".join(lines), encoding="utf-8")
    print(f"changed passages, before and after: {report}")


def _quoted(text: str) -> list[str]:
    return [f"> {line}" for line in text.split("\n")]


if __name__ == "__main__":
    main()

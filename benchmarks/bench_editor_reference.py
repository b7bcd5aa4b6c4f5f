"""How far an editor who rewrites by hand gets on the same passages: a reference for issue 15's figures.

    .venv/bin/python benchmarks/bench_editor_reference.py ERASE_OUTPUT.jsonl
        [--reference benchmarks/reads/editor_reference_s17.json]

The reference file holds changed passages of a graph-guided + verify run on dev questions 1-40, each
with its private and public triples and a rewrite written by a careful editor (a helper agent briefed
as a privacy copy-editor, shown only the passage and its triples; brief below). This script grades the
editor's rewrites and the eraser's rewrites of the same passages (from ERASE_OUTPUT, an `erase` CLI
output over the same sets and split, matched by question id and passage position) with the issue's string
grading (`core.eraser4rag.erasers.evaluation.grade_strings`): strict and partial leaks, public facts
kept, characters kept, broken constructions. It also projects the characters-kept figure over all
passages of ERASE_OUTPUT as if every changed passage kept what the editor kept on the sample.

The editor's brief: every private fact gone (the tail not said of its head anywhere, not even in part);
everything not private kept word for word where possible; no summary, nothing added, no meaning changed;
fluent published English (no stubs, no pronoun referring to nobody); a vaguer phrase only where it
reveals nothing of the private fact; the empty string when nothing publishable remains.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from core.documents import clean_passage_text  # noqa: E402
from core.eraser4rag.erasers.evaluation import grade_strings  # noqa: E402
from core.eraser4rag.erasers.leaks import characters_kept  # noqa: E402
from core.types import Document  # noqa: E402

FIELDS = ("characters", "characters_kept", "strict", "partial", "private", "public", "public_kept", "broken")


def rewrites_by_passage(path: Path) -> dict[tuple[str, int], str]:
    """(question id, passage position) -> rewrite (some passages carry no id of their own)."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for index, ctx in enumerate(record["ctxs"]):
            found[(str(record.get("id")), index)] = ctx["text"]
    return found


def grade(item: dict[str, Any], rewrite: str) -> dict[str, int]:
    document = Document(str(item["passage_id"]), item["title"], item["original"])
    private = [tuple(t) for t in item["private"]]
    public = [tuple(t) for t in item["public"]]
    figures = grade_strings(document, rewrite, private, public)
    return {
        "characters": figures["characters"],
        "characters_kept": figures["characters_kept"],
        "strict": len(figures["strict_leaked"]),
        "partial": len(figures["partial_leaked"]),
        "private": figures["private_visible"],
        "public": figures["public_visible"],
        "public_kept": figures["public_kept_strings"],
        "broken": int(bool(figures["broken"])),
    }


def totals(rows: list[dict[str, int]]) -> dict[str, float]:
    summed = {f: sum(r[f] for r in rows) for f in FIELDS}
    return {
        **summed,
        "characters_kept_share": summed["characters_kept"] / max(1, summed["characters"]),
        "public_kept_share": summed["public_kept"] / max(1, summed["public"]),
        "empty": sum(1 for r in rows if r["characters_kept"] == 0),
    }


def projected_over_all_passages(path: Path, changed_share_kept: float) -> tuple[float, float]:
    """Characters kept over every passage of the run, as it is and with the changed passages at the
    editor's share."""
    total = kept = changed = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        for ctx in json.loads(line)["ctxs"]:
            original = clean_passage_text(ctx.get("original_text", ctx["text"]))
            total += len(original)
            kept += characters_kept(original, ctx["text"])
            if original.strip() != ctx["text"].strip():
                changed += len(original)
    return kept / total, (total - changed + changed_share_kept * changed) / total


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("erase_output", type=Path)
    parser.add_argument("--reference", type=Path, default=REPO / "benchmarks/reads/editor_reference_s17.json")
    args = parser.parse_args()
    items = json.loads(args.reference.read_text(encoding="utf-8"))["items"]
    ours = rewrites_by_passage(args.erase_output)
    missing = [i for i in items if (str(i["question_id"]), i["passage_index"]) not in ours]
    if missing:
        print(f"{args.erase_output}: {len(missing)} reference passage(s) not in this run", file=sys.stderr)
        return 2
    editor = totals([grade(i, i["reference"]) for i in items])
    eraser = totals([grade(i, ours[(str(i["question_id"]), i["passage_index"])]) for i in items])
    print(f"{len(items)} passages | characters kept | public kept | strict | partial | broken | empty")
    for name, t in (("editor", editor), ("eraser", eraser)):
        print(
            f"{name:>6} | {t['characters_kept_share']:.3f} | {t['public_kept_share']:.3f} "
            f"({t['public_kept']}/{t['public']}) | {t['strict']}/{t['private']} | {t['partial']} | "
            f"{t['broken']} | {t['empty']}"
        )
    as_is, projected = projected_over_all_passages(args.erase_output, editor["characters_kept_share"])
    at_editors = f"changed ones at the editor's share {projected:.3f}"
    print(f"characters kept, all passages: eraser {as_is:.3f}; {at_editors}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

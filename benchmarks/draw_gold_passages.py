"""Draw passages for a new hand-written extraction gold set (reproducible, seeded).

Usage:
    python benchmarks/draw_gold_passages.py PATH/popqa_dev.jsonl --seed 20261123 \
        --for extraction_gold_heldout4.jsonl [--count 10] [--skip ID ...] > skeleton.jsonl

Eligible: a retrieved passage whose decoded text (HTML entities decoded, surrounding
whitespace and a leading "Title" paragraph removed) has 80-520 characters, whose id (or
`q<question>-c<rank>` when the retriever gave none) is in no `tests/data/extraction_gold_*.jsonl`
other than the set being drawn (`--for`, so that the draw reproduces once that set exists).
The eligible passages are shuffled with the seed and taken in that order, at most one per
question, until `count` passages from different questions are drawn. `--skip ID` passes over a
drawn passage that states no fact (the draw then takes the next one).

Writes one skeleton gold line per passage (`facts`, `optional` and `aliases` empty): the facts
are written by hand afterwards. Reads only the retrieval file and the existing gold sets.
"""

from __future__ import annotations

import argparse
import html
import json
import random
import sys
from pathlib import Path

GOLD_DIR = Path(__file__).resolve().parent.parent / "tests" / "data"
MIN_CHARS, MAX_CHARS = 80, 520


def decoded_text(title: str, raw: str) -> str:
    text = html.unescape(raw).strip()
    prefix = f"{title}\n\n"
    if title and text.startswith(prefix):  # passages without an id carry their title as a first paragraph
        text = text[len(prefix) :].strip()
    return text


def used_ids(drawn_set: str) -> set[str]:
    ids = set()
    for path in sorted(GOLD_DIR.glob("extraction_gold_*.jsonl")):
        if path.name == drawn_set:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                ids.add(str(json.loads(line)["id"]))
    return ids


def eligible_passages(retrieval_file: Path, excluded: set[str]) -> list[dict]:
    passages = []
    lines = retrieval_file.read_text(encoding="utf-8").splitlines()
    for question_index, line in enumerate(lines):
        for rank, ctx in enumerate(json.loads(line)["ctxs"]):
            passage_id = str(ctx.get("id") or f"q{question_index}-c{rank}")
            text = decoded_text(ctx.get("title", ""), ctx.get("text") or "")
            if passage_id in excluded or not MIN_CHARS <= len(text) <= MAX_CHARS:
                continue
            title = ctx.get("title", "")
            passages.append(
                {"id": passage_id, "question_index": question_index, "title": title, "text": text}
            )
    return passages


def draw(passages: list[dict], seed: int, count: int, skip: set[str]) -> list[dict]:
    order = list(passages)
    random.Random(seed).shuffle(order)
    drawn, questions = [], set()
    for passage in order:
        if passage["id"] in skip or passage["question_index"] in questions:
            continue
        drawn.append(passage)
        questions.add(passage["question_index"])
        if len(drawn) == count:
            break
    return drawn


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("retrieval_file", type=Path)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--for", dest="drawn_set", required=True, help="file name of the gold set drawn")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--skip", nargs="*", default=[], help="drawn passage ids that state no fact")
    args = parser.parse_args()
    passages = eligible_passages(args.retrieval_file, used_ids(args.drawn_set))
    for passage in draw(passages, args.seed, args.count, set(args.skip)):
        skeleton = {**passage, "facts": [], "optional": [], "aliases": {}}
        sys.stdout.write(json.dumps(skeleton, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

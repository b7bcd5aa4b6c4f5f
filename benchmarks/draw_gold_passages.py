"""Draw passages for a new hand-written extraction gold set (reproducible, seeded).

Usage:
    python benchmarks/draw_gold_passages.py PATH/popqa_dev.jsonl --seed 20261123 \
        --for extraction_gold_heldout10.jsonl [--count 14] [--skip ID ...] > skeleton.jsonl

Eligible: a retrieved passage whose decoded text (HTML entities decoded, surrounding
whitespace and a leading "Title" paragraph removed) has 80-520 characters. All eligible
passages are shuffled with the seed and taken in that order, at most one per question, until
`count` passages from different questions are drawn; a passage of another gold set (by id, or
`q<question>-c<rank>` when the retriever gave none, or by its text: the retriever returns some
passages twice) is passed over, and so is `--skip ID`, a drawn passage that states no fact.
Sets written later therefore do not change an earlier set's draw.

Held-out #4-#9 were drawn with an earlier order (excluded ids dropped before the shuffle, no
text check), which depends on which sets existed then; `--legacy-order --excluding SET ...`
reproduces each (the commands are in tests/data/EXTRACTION_GOLD.md).

Writes one skeleton gold line per passage (`facts`, `optional` and `aliases` empty): the facts
are written by hand afterwards. Reads only the retrieval file and the existing gold sets.
"""

from __future__ import annotations

import argparse
import html
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

GOLD_DIR = Path(__file__).resolve().parent.parent / "tests" / "data"
MIN_CHARS, MAX_CHARS = 80, 520


def decoded_text(title: str, raw: str) -> str:
    text = html.unescape(raw).strip()
    prefix = f"{title}\n\n"
    if title and text.startswith(prefix):  # passages without an id carry their title as a first paragraph
        text = text[len(prefix) :].strip()
    return text


def used_passages(drawn_set: str, only: Sequence[str] | None = None) -> tuple[set[str], set[str]]:
    """The ids and the texts of the other gold sets' passages (`only`: just these sets). The
    retriever returns some passages twice under different ids, so an id alone is not enough."""
    ids, texts = set(), set()
    for path in sorted(GOLD_DIR.glob("extraction_gold_*.jsonl")):
        if path.name == drawn_set or (only is not None and path.name not in only):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                ids.add(str(row["id"]))
                texts.add(_comparable(row["text"]))
    return ids, texts


def _comparable(text: str) -> str:
    return " ".join(text.split()).casefold()


def eligible_passages(retrieval_file: Path) -> list[dict]:
    """Every retrieved passage of the right length, in file order."""
    passages = []
    lines = retrieval_file.read_text(encoding="utf-8").splitlines()
    for question_index, line in enumerate(lines):
        for rank, ctx in enumerate(json.loads(line)["ctxs"]):
            text = decoded_text(ctx.get("title", ""), ctx.get("text") or "")
            if MIN_CHARS <= len(text) <= MAX_CHARS:
                passage_id = str(ctx.get("id") or f"q{question_index}-c{rank}")
                title = ctx.get("title", "")
                passages.append(
                    {"id": passage_id, "question_index": question_index, "title": title, "text": text}
                )
    return passages


def draw(
    passages: list[dict],
    seed: int,
    count: int,
    skip: set[str],
    excluded: tuple[set[str], set[str]],
    legacy_order: bool = False,
) -> list[dict]:
    """Shuffle all eligible passages with the seed, then take them in order, passing over the
    excluded ones, so that gold sets written later do not change an earlier set's draw.
    `legacy_order` (held-out #4-#9) dropped the excluded ids before shuffling instead."""
    excluded_ids, excluded_texts = excluded
    order = [p for p in passages if p["id"] not in excluded_ids] if legacy_order else list(passages)
    random.Random(seed).shuffle(order)
    drawn, questions, drawn_texts = [], set(), set()
    for passage in order:
        if passage["id"] in skip or passage["question_index"] in questions:
            continue
        text = _comparable(passage["text"])
        if passage["id"] in excluded_ids or (not legacy_order and text in excluded_texts | drawn_texts):
            continue  # (a passage returned twice, under two ids, is drawn at most once)
        drawn.append(passage)
        drawn_texts.add(text)
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
    parser.add_argument(
        "--excluding",
        nargs="*",
        default=None,
        help="gold set file names whose passages are excluded (default: every other set)",
    )
    parser.add_argument(
        "--legacy-order",
        action="store_true",
        help="the order held-out #4-#9 were drawn in (excluded ids dropped before the shuffle)",
    )
    args = parser.parse_args()
    if args.excluding is not None:
        unknown = [name for name in args.excluding if not (GOLD_DIR / name).is_file()]
        if unknown or not args.excluding:
            parser.error(
                f"--excluding: no gold set named {', '.join(unknown) or '(none given)'} in {GOLD_DIR}"
            )
    excluded = used_passages(args.drawn_set, args.excluding)
    passages = eligible_passages(args.retrieval_file)
    for passage in draw(passages, args.seed, args.count, set(args.skip), excluded, args.legacy_order):
        skeleton = {**passage, "facts": [], "optional": [], "aliases": {}}
        sys.stdout.write(json.dumps(skeleton, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

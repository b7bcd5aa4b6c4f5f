"""Personal records in the knowledge graph: how much of their labelled personal data the extractor
turns into triples, and how fast (issue 19).

Usage: python benchmarks/bench_personal_records.py PII.json [--records 300] [--seed 0]
       [--gold tests/data/personal_gold.jsonl] [--out benchmarks/results/personal_records.json]

PII.json is a presidio-research-style list (`[{"full_text", "spans": [...], "template_id"}]`, e.g. the
project's `pii_dev.json`). Records are cut into the development and held-out parts of
`benchmarks.lib.pii_eval.split_records` (by template) and `--records` are drawn from each with `--seed`.
Per part it reports: the share of labelled spans that are the head or tail of some triple of their
record (overall and per type), the share of records with no triple, and seconds per record.

A span is *in* a triple when at least half of its words are words of the head or the tail (case and
punctuation ignored): an address labelled in pieces is covered by one multi-line address node.

With `--gold`, a hand-annotated set (`tests/data/personal_gold.jsonl`, see tests/data/README.md) is
graded: fact recall (a gold (owner, relation, value) fact is found when one triple's value and owner
match it fuzzily and its relation is one of the fact's accepted relations), owner correctness (of
the triples whose value matches a gold fact's value, the share whose head matches that fact's
owner), per gold part.

To compare with the extractor before the personal-data rules, run this script with PYTHONPATH set
to an older checkout (the script imports only `core`).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run as `python benchmarks/...` from anywhere

from benchmarks.lib.pii_eval import PiiRecord, load_pii_records, split_records  # noqa: E402
from core.extract import get_extractor  # noqa: E402
from core.settings import from_env  # noqa: E402
from core.types import Triple  # noqa: E402

_WORDS = re.compile(r"\w+", re.UNICODE)


def words(text: str) -> list[str]:
    return [word.casefold() for word in _WORDS.findall(text)]


def covers(node: str, value: str) -> bool:
    """At least half of `value`'s words are words of `node`."""
    value_words = words(value)
    if not value_words:
        return False
    node_words = set(words(node))
    return sum(word in node_words for word in value_words) * 2 >= len(value_words)


def same_entity(a: str, b: str) -> bool:
    """Fuzzy equality of two node texts: either covers the other by half of its words."""
    return covers(a, b) or covers(b, a)


def draw(records: Sequence[PiiRecord], count: int, seed: int) -> list[PiiRecord]:
    usable = [record for record in records if record.spans]
    return random.Random(seed).sample(usable, min(count, len(usable)))


def extract(texts: Sequence[str], titles: Sequence[str] | None = None) -> tuple[list[list[Triple]], float]:
    """Triples per text and the seconds extraction took (the model is loaded before timing)."""
    extractor = get_extractor("spacy", from_env())
    extractor.extract("warm-up", "Anna Smith lives in Paris. Her phone is 555-0100.")
    items = [(f"record-{index}", text) for index, text in enumerate(texts)]
    title_map = {f"record-{index}": title for index, title in enumerate(titles or []) if title}
    start = time.perf_counter()
    triples = extractor.extract_many(items, titles=title_map)
    seconds = time.perf_counter() - start
    by_doc: dict[str, list[Triple]] = {doc_id: [] for doc_id, _ in items}
    for triple in triples:
        by_doc[triple.doc_id].append(triple)
    return [by_doc[doc_id] for doc_id, _ in items], seconds


def span_coverage(records: Sequence[PiiRecord], triples: Sequence[list[Triple]]) -> dict[str, Any]:
    gold: Counter[str] = Counter()
    found: Counter[str] = Counter()
    for record, record_triples in zip(records, triples, strict=True):
        nodes = [node for t in record_triples for node in (t.head, t.tail)]
        for span in record.spans:
            value = record.full_text[span.start : span.end]
            gold[span.type] += 1
            found[span.type] += any(covers(node, value) for node in nodes)
    total = sum(gold.values())
    return {
        "spans": total,
        "share_in_triple": round(sum(found.values()) / total, 3) if total else None,
        "per_type": {
            kind: {"spans": gold[kind], "share_in_triple": round(found[kind] / gold[kind], 3)}
            for kind in sorted(gold, key=lambda k: -gold[k])
        },
        "records_without_triple": round(sum(not t for t in triples) / len(triples), 3) if triples else None,
    }


def measure_part(name: str, records: Sequence[PiiRecord]) -> dict[str, Any]:
    triples, seconds = extract([record.full_text for record in records])
    result = span_coverage(records, triples)
    result.update(part=name, records=len(records), seconds_per_record=round(seconds / len(records), 5))
    return result


# ---------------------------------------------------------------- gold


def load_gold(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not valid JSON ({exc.msg})") from None
    return rows


def relation_matches(relation: str, accepted: Sequence[str]) -> bool:
    names = {name.casefold() for name in accepted}
    return "*" in names or relation.casefold() in names


def fact_found(fact: dict[str, Any], triples: Sequence[Triple]) -> bool:
    """Owner "*" asks only that the value be a node of some triple (a person merely mentioned)."""
    if fact["owner"] == "*":
        return any(same_entity(t.head, fact["value"]) or same_entity(t.tail, fact["value"]) for t in triples)
    return any(
        same_entity(t.tail, fact["value"])
        and same_entity(t.head, fact["owner"])
        and relation_matches(t.relation, fact["relations"])
        for t in triples
    )


def grade_record(row: dict[str, Any], triples: Sequence[Triple]) -> Counter[str]:
    """Counts for one gold record: facts found, triples with a gold value, those with its owner."""
    counts: Counter[str] = Counter()
    owned = [fact for fact in row["facts"] if fact["owner"] != "*"]
    for fact in row["facts"]:
        counts["facts"] += 1
        counts["found"] += fact_found(fact, triples)
    for triple in triples:
        facts = [fact for fact in owned if same_entity(triple.tail, fact["value"])]
        if facts and not any(same_entity(triple.head, fact["value"]) for fact in facts):
            counts["valued"] += 1
            counts["owner_ok"] += any(same_entity(triple.head, fact["owner"]) for fact in facts)
    return counts


def grade_gold(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for part in sorted({row["part"] for row in rows}):
        part_rows = [row for row in rows if row["part"] == part]
        triples, seconds = extract(
            [row["text"] for row in part_rows], [row.get("title", "") for row in part_rows]
        )
        totals: Counter[str] = Counter()
        for row, record_triples in zip(part_rows, triples, strict=True):
            totals.update(grade_record(row, record_triples))
        report[part] = {
            "records": len(part_rows),
            "facts": totals["facts"],
            "fact_recall": round(totals["found"] / totals["facts"], 3) if totals["facts"] else None,
            "owner_correct": round(totals["owner_ok"] / totals["valued"], 3) if totals["valued"] else None,
            "records_without_triple": round(sum(not t for t in triples) / len(triples), 3),
            "seconds_per_record": round(seconds / len(part_rows), 5),
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="presidio-research-style JSON list (e.g. pii_dev.json)")
    parser.add_argument("--records", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--gold", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/personal_records.json"))
    args = parser.parse_args(argv)
    dev, held = split_records(load_pii_records(args.data))
    report: dict[str, Any] = {
        "data": args.data.name,
        "seed": args.seed,
        "parts": [
            measure_part("dev", draw(dev, args.records, args.seed)),
            measure_part("held_out", draw(held, args.records, args.seed)),
        ],
    }
    if args.gold is not None:
        report["gold"] = grade_gold(load_gold(args.gold))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

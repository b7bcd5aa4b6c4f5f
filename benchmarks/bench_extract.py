"""Triple-extraction throughput: documents per second on synthetic ~100-word documents, and
time against document length (one long document against a short one, in the same run).

Usage: python benchmarks/bench_extract.py [--docs 250] [--extractor spacy] [--seed 0]
       python benchmarks/bench_extract.py --rules OLD_spacy_rules.py [--rounds 3]
       python benchmarks/bench_extract.py --long [--short-kb 50] [--long-kb 5000]
`--rules` times another copy of spacy_rules.py (e.g. `git show REV:core/extract/spacy_rules.py`)
on the same documents, alternating with the current rules, and reports the speed ratio.
Writes benchmarks/results/extract.json (or extract_long.json).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from faker import Faker

from core.extract import get_extractor
from core.settings import from_env

REPO = Path(__file__).resolve().parents[1]

SENTENCES = (
    "{person} works for {company}.",
    "{company} is located in {city}.",
    "{person} lives in {city} with {relative}.",
    "{relative} was born in {city} in {year}.",
    "{person} founded {company} in {year}.",
    "{company} acquired {company2} last spring.",
    "{person} studied economics at the University of {city}.",
    "{relative} is the sister of {person}.",
    "The headquarters of {company2} are in {city2}.",
    "{person} met {relative} at a conference in {city2}.",
    "{company2} hired {relative} as a data analyst.",
    "{person} donated money to the {city} Museum.",
)


def synthetic_document(fake: Faker, rng: random.Random, target_words: int = 100) -> str:
    fields = {
        "person": fake.name(),
        "relative": fake.name(),
        "company": fake.company(),
        "company2": fake.company(),
        "city": fake.city(),
        "city2": fake.city(),
        "year": str(rng.randint(1950, 2020)),
    }
    sentences: list[str] = []
    while sum(len(s.split()) for s in sentences) < target_words:
        sentences.append(rng.choice(SENTENCES).format(**fields))
    return " ".join(sentences)


def long_document(fake: Faker, rng: random.Random, chars: int) -> str:
    """Paragraphs of ~100-word synthetic documents until `chars` characters."""
    paragraphs, size = [], 0
    while size < chars:
        paragraph = synthetic_document(fake, rng)
        paragraphs.append(paragraph)
        size += len(paragraph) + 2
    return "\n\n".join(paragraphs)[:chars]


def bench_length(args: argparse.Namespace, fake: Faker, rng: random.Random) -> None:
    """Seconds per KB of a long document against a short one: 1.0 means linear in the length."""
    extractor = get_extractor(args.extractor, from_env())
    extractor.extract_many([("warm", synthetic_document(fake, rng))])
    result: dict[str, float | int | str] = {"extractor": args.extractor}
    for name, kb in (("short", args.short_kb), ("long", args.long_kb)):
        text = long_document(fake, rng, kb * 1000)
        chunks: list[int] = []
        started = time.perf_counter()
        triples = extractor.extract_many(
            [(name, text)], progress=lambda _done, total, seen=chunks: seen.append(total)
        )
        elapsed = time.perf_counter() - started
        result |= {
            f"{name}_kb": kb,
            f"{name}_s": round(elapsed, 2),
            f"{name}_triples": len(triples),
            f"{name}_progress_calls": len(chunks),
        }
        print(f"{name}: {kb} KB in {elapsed:.2f} s ({kb / elapsed:.1f} KB/s, {len(chunks)} progress calls)")
    ratio = (result["long_s"] / args.long_kb) / (result["short_s"] / args.short_kb)
    result["seconds_per_kb_ratio_long_vs_short"] = round(ratio, 2)
    print(f"seconds per KB, long / short: {ratio:.2f} (1.0 = linear)")
    out = REPO / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "extract_long.json").write_text(json.dumps(result, indent=2))


def best_docs_per_s(extractors: dict[str, object], items: list, rounds: int) -> dict[str, float]:
    """Best-of-`rounds` documents/s per extractor, alternating them so load changes hit both."""
    best = dict.fromkeys(extractors, 0.0)
    for _ in range(rounds):
        for name, extractor in extractors.items():
            started = time.perf_counter()
            extractor.extract_many(items)
            best[name] = max(best[name], len(items) / (time.perf_counter() - started))
    return best


def compare_rules(args: argparse.Namespace, items: list) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_extraction_quality import rules_extractor

    extractors = {
        "current": get_extractor(args.extractor, from_env()),
        "compared": rules_extractor(args.rules),
    }
    for extractor in extractors.values():
        extractor.extract_many(items[:5])  # loads the model outside the timed part
    best = best_docs_per_s(extractors, items, args.rounds)
    result = {
        "documents": len(items),
        "rounds": args.rounds,
        "compared_rules": args.rules,
        **{f"{name}_docs_per_s": round(value, 1) for name, value in best.items()},
        "ratio_current_vs_compared": round(best["current"] / best["compared"], 2),
    }
    out = REPO / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "extract_compare.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--docs", type=int, default=250)
    parser.add_argument("--extractor", default="spacy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--long", action="store_true", help="time one long document against a short one")
    parser.add_argument("--short-kb", type=int, default=50)
    parser.add_argument("--long-kb", type=int, default=5000)
    parser.add_argument("--rules", help="compare with another spacy_rules.py, alternating, in this run")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    fake, rng = Faker("en_US"), random.Random(args.seed)
    Faker.seed(args.seed)
    if args.long:
        bench_length(args, fake, rng)
        return
    items = [(f"doc{i}", synthetic_document(fake, rng)) for i in range(args.docs)]
    words = sum(len(text.split()) for _, text in items)
    if args.rules:
        compare_rules(args, items)
        return
    extractor = get_extractor(args.extractor, from_env())
    extractor.extract_many(items[:5])  # loads the model outside the timed part
    started = time.perf_counter()
    triples = extractor.extract_many(items)
    elapsed = time.perf_counter() - started
    result = {
        "extractor": args.extractor,
        "documents": args.docs,
        "words": words,
        "seconds": elapsed,
        "docs_per_s": args.docs / elapsed,
        "triples": len(triples),
    }
    out = REPO / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "extract.json").write_text(json.dumps(result, indent=2))
    print(
        f"{args.extractor}: {args.docs} docs ({words / args.docs:.0f} words each) in {elapsed:.2f} s"
        f" = {result['docs_per_s']:.1f} docs/s, {len(triples)} triples"
    )


if __name__ == "__main__":
    main()

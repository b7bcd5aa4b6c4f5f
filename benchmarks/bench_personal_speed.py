"""Issue 19's speed figure: the spaCy extractor with its personal-data rules against the same
extractor with them replaced by a pass-through, one process, rounds alternating (a noisy machine
moves both sides of a round alike; the ratio per round is the figure).

Usage: python benchmarks/bench_personal_speed.py PII.json [--part dev|held_out] [--records 300]
       [--rounds 5] [--seed 0]

The records are drawn as `bench_personal_records.py` draws them (same seed, same parts).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run as `python benchmarks/...` from anywhere

import core.extract.spacy_rules.extractor as spacy_extractor  # noqa: E402
from benchmarks.bench_personal_records import draw  # noqa: E402
from benchmarks.lib.pii_eval import load_pii_records, split_records  # noqa: E402
from core.extract import get_extractor  # noqa: E402
from core.settings import from_env  # noqa: E402


class PassThrough:
    """Stands in for `PersonalData`: reads nothing, adds nothing."""

    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def read_parse(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def triples(self, triples: list[Any]) -> list[Any]:
        return triples


def timed(extractor: Any, items: list[tuple[str, str]], personal: type) -> float:
    spacy_extractor.PersonalData = personal
    start = time.perf_counter()
    extractor.extract_many(items)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", type=Path)
    parser.add_argument("--part", choices=("dev", "held_out"), default="dev")
    parser.add_argument("--records", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    dev, held = split_records(load_pii_records(args.data))
    records = draw(dev if args.part == "dev" else held, args.records, args.seed)
    items = [(f"record-{index}", record.full_text) for index, record in enumerate(records)]
    extractor = get_extractor("spacy", from_env())
    personal = spacy_extractor.PersonalData
    timed(extractor, items, personal)  # warm both paths
    timed(extractor, items, PassThrough)
    ratios = []
    try:
        for number in range(1, args.rounds + 1):
            with_rules, without = timed(extractor, items, personal), timed(extractor, items, PassThrough)
            ratios.append(with_rules / without)
            print(f"round {number}: with the rules {with_rules:.2f} s, without {without:.2f} s", end="")
            print(f", ratio {ratios[-1]:.2f}")
    finally:
        spacy_extractor.PersonalData = personal
    print(f"ratio median {statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f})")


if __name__ == "__main__":
    main()

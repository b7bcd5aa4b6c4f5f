"""Loading a JSONL upload is linear in its number of records.

    python benchmarks/bench_loading.py --small 25000 --large 250000

Writes two JSONL files of short `{"title", "text"}` records (the large one 10x the small), loads
each with `core.documents.load_bytes` (best of `--repeat`), and prints the time per record and the
ratio large/small within this one run: linear loading gives a ratio near 10 (quadratic: 100).
Also loads a file of retriever records with one bad line in 1,000 (skip_bad) to show the error path
costs nothing extra. Writes JSON to benchmarks/results/loading.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.documents import load_bytes  # noqa: E402


def short_records(count: int) -> bytes:
    lines = (
        json.dumps({"title": f"Note {i}", "text": f"Person {i} works for Company {i % 97}."})
        for i in range(count)
    )
    return ("\n".join(lines) + "\n").encode()


def retriever_records(count: int, bad_every: int) -> bytes:
    lines = []
    for i in range(count):
        if i % bad_every == bad_every - 1:
            lines.append('{"question": "broken" "ctxs": []}')
            continue
        ctxs = [{"title": f"T{i}-{j}", "text": f"Person {i} lives in Town {j}."} for j in range(5)]
        lines.append(json.dumps({"question": f"Where does Person {i} live?", "answers": [], "ctxs": ctxs}))
    return ("\n".join(lines) + "\n").encode()


def best_load(data: bytes, repeat: int, skip_bad: bool = False) -> tuple[float, int]:
    best, loaded = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        corpus = load_bytes("bench.jsonl", data, max_bytes=len(data) + 1, skip_bad=skip_bad)
        best = min(best, time.perf_counter() - start)
        loaded = len(corpus.documents)
    return best, loaded


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--small", type=int, default=25_000)
    parser.add_argument("--large", type=int, default=250_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    small_data, large_data = short_records(args.small), short_records(args.large)
    small_s, _ = best_load(small_data, args.repeat)
    large_s, _ = best_load(large_data, args.repeat)
    mixed = retriever_records(args.small // 5, bad_every=1000)
    mixed_s, mixed_docs = best_load(mixed, args.repeat, skip_bad=True)
    result = {
        "machine": platform.platform(),
        "small": {"records": args.small, "bytes": len(small_data), "seconds": small_s},
        "large": {"records": args.large, "bytes": len(large_data), "seconds": large_s},
        "ratio_records": args.large / args.small,
        "ratio_seconds": large_s / small_s,
        "retriever_with_bad_lines": {"records": args.small // 5, "seconds": mixed_s, "documents": mixed_docs},
    }
    print(
        f"{args.small:>9,} records ({len(small_data) / 1e6:.1f} MB): {small_s:.3f} s "
        f"({small_s / args.small * 1e6:.1f} µs/record)"
    )
    print(
        f"{args.large:>9,} records ({len(large_data) / 1e6:.1f} MB): {large_s:.3f} s "
        f"({large_s / args.large * 1e6:.1f} µs/record)"
    )
    print(
        f"time ratio {result['ratio_seconds']:.1f} for {result['ratio_records']:.0f}x the records "
        "(linear: ~10, quadratic: ~100)"
    )
    print(
        f"{args.small // 5:,} retriever records, 1 bad line in 1,000, skip_bad: {mixed_s:.3f} s, "
        f"{mixed_docs:,} passages loaded"
    )
    out = ROOT / "benchmarks" / "results" / "loading.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

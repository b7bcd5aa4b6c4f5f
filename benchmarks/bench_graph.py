"""Time the graph work of the studio on a synthetic corpus.

    python benchmarks/bench_graph.py --triples 50000 --entities 20000 --documents 5000 --seed 0

Builds N triples over M entities across D documents (each document talks about a
neighbourhood of entities plus a few popular hubs, and some facts repeat across
documents), then times, best of `--repeat`: building the KnowledgeGraph, the random
split, define_privacy (both filters), r_connect and inference_risks. Prints a
table and writes JSON to benchmarks/results/graph.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.eraser4rag.filters import define_privacy  # noqa: E402
from core.eraser4rag.graph import KnowledgeGraph  # noqa: E402
from core.eraser4rag.metrics import r_connect  # noqa: E402
from core.eraser4rag.risk import inference_risks  # noqa: E402
from core.eraser4rag.split import random_private_keys  # noqa: E402
from core.types import Triple  # noqa: E402

T = TypeVar("T")
RELATIONS = [f"relation {i}" for i in range(60)]
NEIGHBOURHOOD = 40
HUBS = 200
HUB_SHARE = 0.08
REPEAT_SHARE = 0.05
QUERY_SHARE = 0.01
SPLIT_LIMIT_S = 2.0


def synthetic_triples(n_triples: int, n_entities: int, n_documents: int, seed: int) -> list[Triple]:
    rng = random.Random(seed)

    def entity(centre: int) -> str:
        if rng.random() < HUB_SHARE:
            index = min(int(rng.paretovariate(1.2)) - 1, HUBS - 1)
        else:
            index = (centre + rng.randint(-NEIGHBOURHOOD, NEIGHBOURHOOD)) % n_entities
        return f"Entity {index}"

    triples: list[Triple] = []
    for number in range(n_triples):
        doc_number = number * n_documents // n_triples
        doc_id = f"doc{doc_number}"
        if triples and rng.random() < REPEAT_SHARE:
            earlier = rng.choice(triples)
            triples.append(Triple(earlier.head, earlier.relation, earlier.tail, doc_id))
            continue
        centre = doc_number * n_entities // n_documents
        head, tail = entity(centre), entity(centre)
        while tail == head:
            tail = entity(centre)
        triples.append(Triple(head, rng.choice(RELATIONS), tail, doc_id))
    return triples


def best_of(repeat: int, work: Callable[[], T]) -> tuple[float, T]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result  # type: ignore[return-value]


def run(args: argparse.Namespace) -> dict:
    triples = synthetic_triples(args.triples, args.entities, args.documents, args.seed)
    build_s, graph = best_of(args.repeat, lambda: KnowledgeGraph.from_triples(triples))
    keys = graph.keys()
    query_keys = set(random.Random(args.seed + 1).sample(sorted(keys), round(QUERY_SHARE * len(keys))))
    split_s, marked = best_of(
        args.repeat, lambda: random_private_keys(keys, args.ratio, args.seed, exclude=query_keys)
    )
    define_s, definition = best_of(args.repeat, lambda: define_privacy(keys, marked, query_keys))
    connect_s, connect = best_of(args.repeat, lambda: r_connect(definition.private, definition.unprivate))
    risk_s, risks = best_of(args.repeat, lambda: inference_risks(graph, definition))
    split_filters_connect_s = split_s + define_s + connect_s
    return {
        "params": {
            name: str(value) if isinstance(value, Path) else value for name, value in vars(args).items()
        },
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "sizes": {
            "occurrences": len(triples),
            "keys": len(keys),
            "entities": len(graph.nodes()),
            "documents": len(graph.doc_ids),
            "marked": len(marked),
            "private": len(definition.private),
            "public": len(definition.public),
            "excluded": len(definition.excluded),
            "moves_filter_a": sum(1 for m in definition.moves if m.filter == "public_connected_in_private"),
            "moves_filter_b": sum(1 for m in definition.moves if m.filter == "private_inferable_from_public"),
            "inference_risks": len(risks),
        },
        "r_connect_unprivate": connect,
        "seconds": {
            "build_graph": build_s,
            "random_split": split_s,
            "define_privacy": define_s,
            "r_connect": connect_s,
            "split_filters_connect": split_filters_connect_s,
            "inference_risks": risk_s,
        },
        "split_filters_connect_under_limit": split_filters_connect_s < SPLIT_LIMIT_S,
    }


def print_table(result: dict) -> None:
    print(" ".join(f"{name}={value}" for name, value in result["sizes"].items()))
    print(f"{'step':<24}{'best seconds':>14}")
    for step, seconds in result["seconds"].items():
        print(f"{step:<24}{seconds:>14.3f}")
    verdict = "OK" if result["split_filters_connect_under_limit"] else "TOO SLOW"
    print(f"split + filters + r_connect < {SPLIT_LIMIT_S} s: {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--triples", type=int, default=50_000)
    parser.add_argument("--entities", type=int, default=20_000)
    parser.add_argument("--documents", type=int, default=5_000)
    parser.add_argument("--ratio", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--output", type=Path, default=ROOT / "benchmarks" / "results" / "graph.json")
    args = parser.parse_args(argv)
    if min(args.triples, args.entities, args.documents, args.repeat) < 1:
        parser.error("--triples, --entities, --documents and --repeat must be positive")
    result = run(args)
    print_table(result)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.output}")
    return 0 if result["split_filters_connect_under_limit"] else 1


if __name__ == "__main__":
    raise SystemExit(main())

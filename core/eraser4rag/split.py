"""Simulated privacy definitions: which triples a person would mark private.

Eraser4RAG (section 3.1.1) simulates users by sampling a share of the global graph's
triples; the paper's own choice is a connected subset (section 1).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping

from core.eraser4rag.graph import ends_of
from core.types import TripleKey


def _check_ratio(ratio: float) -> None:
    if not 0.0 <= ratio <= 1.0:
        raise ValueError(f"private ratio must be between 0 and 1, got {ratio}")


def random_private_keys(
    keys: Iterable[TripleKey],
    ratio: float,
    seed: int,
    exclude: Iterable[TripleKey] = (),
) -> set[TripleKey]:
    """The paper's simulation: a uniform sample of `round(ratio * #eligible)` keys.

    Eligible keys are `keys` minus `exclude` (query triples are never private).
    The result depends only on the key set, the ratio and the seed.
    """
    _check_ratio(ratio)
    eligible = sorted(set(keys) - set(exclude))
    count = round(ratio * len(eligible))
    return set(random.Random(seed).sample(eligible, count))


def connected_random_private_keys(
    keys: Iterable[TripleKey],
    ratio: float,
    seed: int,
    exclude: Iterable[TripleKey] = (),
    aliases: Mapping[str, str] | None = None,
) -> set[TripleKey]:
    """A sample of the same size grown edge by edge through shared entities.

    Eraser4RAG (section 1) selects "a connected subset of this global graph": starting
    from a random eligible edge, each step adds a random eligible edge touching an
    entity already chosen; when that component is used up, growth restarts from a
    fresh random edge. Deterministic for a seed. With `aliases` (`core.eraser4rag.names`), name variants
    of one person are one entity.
    """
    _check_ratio(ratio)
    eligible = sorted(set(keys) - set(exclude))
    count = round(ratio * len(eligible))
    rng = random.Random(seed)
    by_node: dict[str, list[TripleKey]] = defaultdict(list)
    ends = {key: ends_of(key, aliases) for key in eligible}
    for key in eligible:
        head, tail = ends[key]
        by_node[head].append(key)
        if tail != head:
            by_node[tail].append(key)
    order = eligible[:]
    rng.shuffle(order)
    chosen: set[TripleKey] = set()
    frontier: list[TripleKey] = []
    restarts = iter(order)
    while len(chosen) < count:
        if not frontier:
            start = next(key for key in restarts if key not in chosen)
            frontier.append(start)
        key = frontier.pop(rng.randrange(len(frontier)))
        if key in chosen:
            continue
        chosen.add(key)
        for node in ends[key]:
            frontier.extend(k for k in by_node[node] if k not in chosen)
    return chosen

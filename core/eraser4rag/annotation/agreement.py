"""Agreement between two annotators in overlap mode: Cohen's kappa (scikit-learn).

Decisions are compared as the training set sees them: "accept" and "edit" both put the
item in the SFT set, "reject" keeps it out. Kappa is undefined (None) with fewer than two
shared items or when both people gave one and the same label to everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

POSITIVE = frozenset({"accept", "edit"})


@dataclass(frozen=True)
class Agreement:
    items: int
    observed: float | None  # share of shared items with the same label
    kappa: float | None


def label(decision: str) -> str:
    return "keep" if decision in POSITIVE else "reject"


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> Agreement:
    if not pairs:
        return Agreement(0, None, None)
    first = [label(a) for a, _ in pairs]
    second = [label(b) for _, b in pairs]
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / len(pairs)
    if len(pairs) < 2 or len(set(first) | set(second)) < 2:
        return Agreement(len(pairs), observed, None)
    # scikit-learn (~4 s) loads only when agreement is computed
    from sklearn.metrics import cohen_kappa_score

    return Agreement(len(pairs), observed, float(cohen_kappa_score(first, second)))

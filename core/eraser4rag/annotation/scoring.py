"""Automatic scores of a candidate rewrite and the paper's filter (section 3.1.1).

Triples are re-extracted from the candidate (g'_i); r_pri = #(g'_i ∩ g_i,pri) / #g_i,pri,
r_pub = #(g'_i ∩ g_i,pub) / #g_i,pub. A candidate passes the filter when r_pri ≤
`max_r_pri` (paper: 0) and r_pub > `min_r_pub` (paper: 0.8); a task without public triples
has nothing to keep, so its r_pub is undefined and does not fail the filter. The leak check
(a private triple whose tail and head are still named, whatever the relation) is shown
beside the scores but does not decide the filter, as in the paper. A candidate with a broken
construction (`core.eraser4rag.erasers.fluency`: "X was.", "(born)") fails the filter whatever its rates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from core.eraser4rag.annotation.tasks import AnnotationTask
from core.eraser4rag.erasers.evaluation import leaked_keys
from core.eraser4rag.erasers.fluency import broken_in_rewrite
from core.eraser4rag.metrics import r_pri as r_pri_of
from core.eraser4rag.metrics import r_pub as r_pub_of
from core.eraser4rag.metrics import reward
from core.extract.base import Extractor
from core.types import TripleKey


@dataclass(frozen=True)
class Scores:
    r_pri: float | None
    r_pub: float | None
    leaked: tuple[TripleKey, ...]
    scored_with: str
    passed: bool
    broken: tuple[str, ...] = ()  # broken constructions the candidate added (core.eraser4rag.erasers.fluency)


def passes_filter(r_pri: float | None, r_pub: float | None, max_r_pri: float, min_r_pub: float) -> bool:
    private_ok = r_pri is None or r_pri <= max_r_pri
    public_ok = r_pub is None or r_pub > min_r_pub
    return private_ok and public_ok


def score_text(
    task: AnnotationTask,
    text: str,
    extractor: Extractor,
    max_r_pri: float = 0.0,
    min_r_pub: float = 0.8,
) -> Scores:
    keys = {t.key for t in extractor.extract(task.doc_id, text)} if text.strip() else set()
    return scores_from_keys(task, text, keys, getattr(extractor, "name", "extractor"), max_r_pri, min_r_pub)


def scores_from_keys(
    task: AnnotationTask,
    text: str,
    rewritten_keys: set[TripleKey],
    scored_with: str,
    max_r_pri: float = 0.0,
    min_r_pub: float = 0.8,
) -> Scores:
    r_pri = r_pri_of(task.private, rewritten_keys)
    r_pub = r_pub_of(task.public, rewritten_keys)
    broken = tuple(b.kind for b in broken_in_rewrite(task.text, text))
    return Scores(
        r_pri=r_pri,
        r_pub=r_pub,
        leaked=leaked_keys(text, task.private),
        scored_with=scored_with,
        passed=passes_filter(r_pri, r_pub, max_r_pri, min_r_pub) and not broken,
        broken=broken,
    )


def score_many(
    tasks: Sequence[AnnotationTask],
    texts: Sequence[str],
    extractor: Extractor,
    max_r_pri: float = 0.0,
    min_r_pub: float = 0.8,
) -> list[Scores]:
    """Scores of `texts[i]` as a rewrite of `tasks[i]`, re-extracted in one batch."""
    items = [(str(i), text) for i, text in enumerate(texts) if text.strip()]
    by_item: dict[str, set[TripleKey]] = {str(i): set() for i in range(len(texts))}
    for triple in extractor.extract_many(items) if items else []:
        by_item[triple.doc_id].add(triple.key)
    name = getattr(extractor, "name", "extractor")
    return [
        scores_from_keys(task, text, by_item[str(i)], name, max_r_pri, min_r_pub)
        for i, (task, text) in enumerate(zip(tasks, texts, strict=True))
    ]


def penalty_at(
    iteration: int, start: float = 20.0, step: float = 5.0, every: int = 350, cap: float = 40.0
) -> float:
    """The paper's schedule for p: 20, rising by 5 every 350 iterations, up to 40."""
    return min(cap, start + step * (max(0, iteration) // max(1, every)))


def rl_reward(scores: Scores, p: float) -> float:
    """R = r_pub · exp(-p · r_pri) (section 3.2); an undefined rate counts as its best value."""
    r_pub = 1.0 if scores.r_pub is None else scores.r_pub
    r_pri = 0.0 if scores.r_pri is None else scores.r_pri
    value = reward(r_pub, r_pri, p)
    return 0.0 if math.isnan(value) else value

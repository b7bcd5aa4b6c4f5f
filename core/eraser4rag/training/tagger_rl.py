"""RL for the deletion tagger: group-relative policy gradient with the paper's reward.

The policy is the tagger head: each word of a window is deleted with the head's probability
(independent Bernoulli draws; the model's features are fixed, so they are computed once).
For a window, `SAMPLES` masks are drawn; each is applied with the graph-guided grammar
(`repair.repair_removals`) and scored with the independent string grading
(`evaluation.grade_strings`):

    R = r_pub * exp(-p * r_pri) * fluency

r_pri is the share of the window's private facts still readable, partial leaks counted as
leaks; r_pub the share of its public facts (head and tail) still named; fluency is 0 when the
fluency checker flags the rewrite, else 1; p is the paper's starting penalty (20). Only
windows that state at least one public fact are used (with none, r_pub is 1 whatever the
rewrite keeps, and an empty rewrite scores best). The advantage is the reward minus its
group's mean, over the group's standard deviation (GRPO); a group whose samples all score
the same teaches nothing, and the share of groups with a spread is logged per iteration.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core.eraser4rag.erasers.deletion_tags import (
    deletion_spans,
    guard_spans,
    in_private_sentences,
    window_tails,
    with_whole_names,
)
from core.eraser4rag.erasers.evaluation import grade_strings
from core.eraser4rag.erasers.repair import repair_removals
from core.types import Document

PENALTY = 20.0
SAMPLES = 4
GROUPS = 8


@dataclass(frozen=True)
class RlPoint:
    iteration: int
    mean_reward: float
    groups_with_spread: float


@dataclass(frozen=True)
class WindowGrade:
    """The independent string grading of one rewritten window."""

    leaked: int  # private facts still readable, strict or partial
    private_visible: int
    public_kept: int
    public_visible: int
    broken: bool

    def reward(self) -> float:
        """R = r_pub * exp(-p * r_pri) * fluency."""
        if self.broken:
            return 0.0
        r_pri = self.leaked / max(1, self.private_visible)
        return self.public_kept / max(1, self.public_visible) * math.exp(-PENALTY * r_pri)


def grade_mask(
    row: dict[str, Any], mask: Sequence[bool], parse: Callable[[str], Any], guard: bool = False
) -> WindowGrade:
    """Delete the masked words of `row`'s window (with `guard`, also the private tail mentions
    the mask keeps), repair, and grade."""
    text = row["document"]
    doc = parse(text)
    tagged = deletion_spans(text, [1.0 if m else 0.0 for m in mask], 0.5)
    spans = with_whole_names(doc, [span for span, _p in tagged])
    if guard:
        tails = private_tails_of(row)
        inside = in_private_sentences(doc, spans, tails)
        spans = [span for span, keep in zip(spans, inside, strict=True) if keep]
        spans += guard_spans(text, spans, tails)
    removals = [(span, "", "sampled", ()) for span in spans]
    rewrite, _edits = repair_removals(text, doc, removals, (), parse, row.get("title", ""))
    grade = grade_strings(
        Document(row["doc_id"], row.get("title", ""), text),
        rewrite,
        [tuple(k) for k in row["private"]],
        [tuple(k) for k in row["public"]],
    )
    return WindowGrade(
        len(grade["strict_leaked"]) + len(grade["partial_leaked"]),
        int(grade["private_visible"]),
        int(grade["public_kept_strings"]),
        int(grade["public_visible"]),
        bool(grade["broken"]),
    )


def private_tails_of(row: dict[str, Any]) -> list[str]:
    own = [tuple(k) for k in row["private"]]
    return window_tails(row["document"], own, [tuple(k) for k in row["global_private"]])


def reward(row: dict[str, Any], mask: Sequence[bool], parse: Callable[[str], Any]) -> float:
    """R of one sampled mask over the words of `row`'s window."""
    return grade_mask(row, mask, parse).reward()


def states_public(row: dict[str, Any]) -> bool:
    """Whether the window names at least one public fact of its passage (head and tail)."""
    text = row["document"]
    grade = grade_strings(
        Document(row["doc_id"], row.get("title", ""), text), text, (), [tuple(k) for k in row["public"]]
    )
    return int(grade["public_visible"]) > 0


def reinforce(
    weight: Any,
    bias: float,
    rows: Sequence[dict[str, Any]],
    features: Sequence[Any],
    parse: Callable[[str], Any],
    iterations: int,
    learning_rate: float = 0.003,
    on_point: Callable[[RlPoint], None] = lambda _point: None,
) -> tuple[Any, float, list[RlPoint]]:
    """The head after `iterations` of group-relative policy gradient; its curve."""
    import torch

    usable = [n for n, row in enumerate(rows) if states_public(row)]
    if not usable:  # R = r_pub * ...: a window without a public fact gives every mask the same reward
        return weight, bias, []
    stacked = torch.cat([features[n] for n in usable])
    mean, std = stacked.mean(0), stacked.std(0).clamp_min(1e-6)
    w = (weight * std).clone().requires_grad_(True)  # the same head on standardised features
    b = torch.tensor([bias + float((weight * mean).sum())], requires_grad=True)
    optimiser = torch.optim.Adam([w, b], lr=learning_rate)
    generator = torch.Generator().manual_seed(0)
    order = random.Random(0)
    curve: list[RlPoint] = []
    for iteration in range(1, iterations + 1):
        chosen = order.sample(usable, min(GROUPS, len(usable)))
        losses, rewards, spread = [], [], 0
        for n in chosen:
            x = (features[n] - mean) / std
            p = torch.sigmoid(x @ w + b).clamp(1e-4, 1 - 1e-4)
            masks = torch.bernoulli(p.detach().expand(SAMPLES, -1), generator=generator)
            scores = torch.tensor([reward(rows[n], m.bool().tolist(), parse) for m in masks])
            rewards += scores.tolist()
            if float(scores.std()) > 1e-6:
                spread += 1
                advantage = (scores - scores.mean()) / scores.std()
                log_prob = (masks * p.log() + (1 - masks) * (1 - p).log()).sum(dim=1)
                losses.append(-(advantage * log_prob).mean() / max(1, masks.shape[1]))
        if losses:
            optimiser.zero_grad()
            torch.stack(losses).mean().backward()
            optimiser.step()
        point = RlPoint(iteration, round(sum(rewards) / len(rewards), 4), round(spread / len(chosen), 3))
        curve.append(point)
        on_point(point)
    raw = (w / std).detach()
    return raw, float(b.detach()[0] - (raw * mean).sum()), curve


THRESHOLDS = (0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
GUARD_ONLY = 1.01  # no word reaches it: the guard alone, reported beside the model's thresholds
LEAK_BUDGET = 0.05  # the erasure issue's strict-leak target


def leak_bounded_threshold(
    rows: Sequence[dict[str, Any]], probabilities: Sequence[Any], parse: Callable[[str], Any]
) -> tuple[float, dict[str, dict[str, float]]]:
    """The highest threshold (the most text kept) whose windows leak at most `LEAK_BUDGET` of
    their private facts by the model's tags alone (no guard), and for each threshold tried:
    r_pri, public kept, broken share and mean reward, without and with the guard (and for the
    guard alone, no word tagged)."""
    table: dict[str, dict[str, float]] = {}
    for threshold in (*THRESHOLDS, GUARD_ONLY):
        name = "guard only" if threshold == GUARD_ONLY else f"{threshold:g}"
        table[name] = {}
        for guard in (False, True):
            masks = [[float(x) >= threshold for x in p] for p in probabilities]
            grades = [grade_mask(r, m, parse, guard) for r, m in zip(rows, masks, strict=True)]
            table[name].update(_summary(grades, " + guard" if guard else ""))
    within = [t for t in THRESHOLDS if table[f"{t:g}"]["r_pri"] <= LEAK_BUDGET]
    return (max(within) if within else min(THRESHOLDS)), table


def _summary(grades: Sequence[WindowGrade], suffix: str) -> dict[str, float]:
    def share(part: int, whole: int) -> float:
        return round(part / max(1, whole), 4)

    return {
        f"r_pri{suffix}": share(sum(g.leaked for g in grades), sum(g.private_visible for g in grades)),
        f"public_kept{suffix}": share(
            sum(g.public_kept for g in grades), sum(g.public_visible for g in grades)
        ),
        f"broken{suffix}": share(sum(g.broken for g in grades), len(grades)),
        f"reward{suffix}": round(sum(g.reward() for g in grades) / max(1, len(grades)), 4),
    }

"""Extraction quality on real PopQA passages: gold-set precision/recall, the occupation
check, and what the graph looks like (largest component, hub nodes, inference risks).

Usage: python benchmarks/bench_extraction_quality.py [--extractor spacy] [--rules FILE.py]
       [--popqa benchmarks/data/popqa_dev.jsonl] [--questions 50]
`--rules` loads another copy of spacy_rules.py (e.g. the previous release's, from
`git show REV:core/extract/spacy_rules.py > old.py`) to compare before/after in one run.
Writes benchmarks/results/extraction_quality.json.
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import inspect
import json
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run as `python benchmarks/...` from anywhere

from benchmarks.lib.extraction_score import load_gold, occupation_check, score_extractor  # noqa: E402
from core.eraser4rag.filters import define_privacy  # noqa: E402
from core.eraser4rag.graph import components_of, entity_components, inference_key  # noqa: E402
from core.eraser4rag.risk import inference_risks  # noqa: E402
from core.eraser4rag.split import connected_random_private_keys  # noqa: E402
from core.extract import get_extractor  # noqa: E402
from core.settings import from_env  # noqa: E402

GOLD = {
    "dev (tuned on)": REPO / "tests/data/extraction_gold_dev.jsonl",
    "held-out (not tuned on)": REPO / "tests/data/extraction_gold_heldout.jsonl",
    "held-out #2 (written before round 2, then analysed)": REPO / "tests/data/extraction_gold_heldout2.jsonl",
    "held-out #3 (unseen in round 2, analysed in round 3)": REPO
    / "tests/data/extraction_gold_heldout3.jsonl",
    "held-out #4 (unseen in round 3, analysed in round 4)": REPO
    / "tests/data/extraction_gold_heldout4.jsonl",
    "held-out #5 (unseen at first in round 4, then analysed)": REPO
    / "tests/data/extraction_gold_heldout5.jsonl",
    "held-out #6 (unseen at first in round 4, then analysed)": REPO
    / "tests/data/extraction_gold_heldout6.jsonl",
    "held-out #7 (unseen, scored once at the end of round 4)": REPO
    / "tests/data/extraction_gold_heldout7.jsonl",
    "held-out #8 (unseen, scored once at the end of round 5)": REPO
    / "tests/data/extraction_gold_heldout8.jsonl",
    "held-out #9 (unseen, scored once at the end of round 5)": REPO
    / "tests/data/extraction_gold_heldout9.jsonl",
}


def load_popqa(path: Path, limit: int) -> list[dict]:
    """Questions with their passages: HTML entities decoded, a fused leading title removed."""
    questions = []
    for line in path.read_text(encoding="utf-8").splitlines()[:limit]:
        row = json.loads(line)
        for ctx in row["ctxs"]:
            text = html.unescape(ctx.get("text") or "")
            title = html.unescape(ctx.get("title") or "")
            if title and text.startswith(title + "\n"):
                text = text[len(title) :]
            ctx["text"], ctx["title"] = text.strip(), title
        questions.append(row)
    return questions


def rules_extractor(path: str):
    spec = importlib.util.spec_from_file_location("compared_rules", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["compared_rules"] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    extractor = module.SpacyRuleExtractor()
    takes_titles = "titles" in inspect.signature(extractor.extract_many).parameters
    return extractor if takes_titles else _WithoutTitles(extractor)


class _WithoutTitles:
    """An older extractor whose extract_many takes no titles."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def extract_many(self, items, progress=None, titles=None):
        return self.inner.extract_many(items, progress=progress)


def extract_popqa(extractor, questions: list[dict]) -> tuple[dict[str, list], float, int]:
    items, titles = [], {}
    for q, row in enumerate(questions):
        for c, ctx in enumerate(row["ctxs"]):
            if ctx["text"]:
                items.append((f"q{q}-c{c}", ctx["text"]))
                titles[f"q{q}-c{c}"] = ctx["title"]
    started = time.perf_counter()
    triples = extractor.extract_many(items, titles=titles)
    seconds = time.perf_counter() - started
    by_doc: dict[str, list] = defaultdict(list)
    for triple in triples:
        by_doc[triple.doc_id].append(triple)
    return by_doc, seconds, len(items)


def largest_share(keys, through_categories: bool = True) -> float:
    uf = components_of(keys) if through_categories else entity_components(keys)
    sizes = Counter(uf.find(node) for node in list(uf._parent))
    return max(sizes.values()) / len(uf) if len(uf) else 0.0


def _hubs(by_doc: dict[str, list], key_view) -> tuple[set[str], dict[str, set[str]]]:
    node_questions: dict[str, set[str]] = defaultdict(set)
    for triples in by_doc.values():
        for t in triples:
            head, _, tail = key_view(t.key)
            q = t.doc_id.split("-")[0]
            node_questions[head].add(q)
            node_questions[tail].add(q)
    return {node for node, qs in node_questions.items() if len(qs) >= 5}, node_questions


def graph_figures(by_doc: dict[str, list], questions: int, through_categories: bool, seed: int = 0) -> dict:
    """Largest component (all questions in one graph, and per question), hubs and risks.

    `through_categories=True` is the previous rule (paths and components pass through
    shared category values such as "politician"); False is `core.eraser4rag.graph.inference_key`'s.
    """
    key_view = (lambda key: key) if through_categories else inference_key
    all_keys = {t.key for triples in by_doc.values() for t in triples}
    hubs, node_questions = _hubs(by_doc, key_view)
    per_question_share, risks, hub_risks = [], 0, 0
    for q in range(questions):
        triples = [t for doc, ts in by_doc.items() if doc.startswith(f"q{q}-") for t in ts]
        keys = {t.key for t in triples}
        if not keys:
            continue
        per_question_share.append(largest_share(keys, through_categories))
        private = connected_random_private_keys(keys, 0.25, seed)
        definition = define_privacy(keys, private)
        for risk in inference_risks(triples, definition, through_categories=through_categories):
            risks += 1
            path_nodes = {node for key in risk.path for node in (key[0], key[2])}
            hub_risks += bool(path_nodes & hubs)
    top_hubs = sorted(hubs, key=lambda n: -len(node_questions[n]))[:12]
    return {
        "nodes": len({n for k in all_keys for n in (k[0], k[2])}),
        "largest_component_share_all_questions": round(largest_share(all_keys, through_categories), 3),
        "largest_component_share_per_question_mean": round(
            sum(per_question_share) / max(len(per_question_share), 1), 3
        ),
        "hub_nodes_in_5plus_questions": len(hubs),
        "top_hubs": [f"{n} ({len(node_questions[n])})" for n in top_hubs],
        "inference_risks_connected_split_25pct": risks,
        "risks_through_a_hub": hub_risks,
    }


def run(extractor, questions: list[dict]) -> dict:
    result: dict = {}
    for name, path in GOLD.items():
        score, _ = score_extractor(load_gold(path), extractor)
        result[name] = score.as_dict()
    by_doc, seconds, count = extract_popqa(extractor, questions)
    result["passages_per_s"] = round(count / seconds, 1)
    result["occupation_check"] = occupation_check(questions, by_doc)
    result["occupation_check_any_relation"] = occupation_check(questions, by_doc, relation=None)
    for key in ("occupation_check", "occupation_check_any_relation"):
        result[key].pop("missed") if key.endswith("relation") else None
    result["graph, paths through category values (previous rule)"] = graph_figures(
        by_doc, len(questions), through_categories=True
    )
    result["graph, category values are their head's own node"] = graph_figures(
        by_doc, len(questions), through_categories=False
    )
    return result


def compare_speed(current, compared, questions: list[dict], rounds: int = 2) -> dict:
    """Best-of-`rounds` passages/s of both extractors on the same passages, alternating."""
    best = {"current": 0.0, "compared": 0.0}
    for _ in range(rounds):
        for name, extractor in (("current", current), ("compared", compared)):
            _, seconds, count = extract_popqa(extractor, questions)
            best[name] = max(best[name], count / seconds)
    return {
        "passages": count,
        **{f"{name}_passages_per_s": round(value, 1) for name, value in best.items()},
        "ratio_current_vs_compared": round(best["current"] / best["compared"], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--extractor", default="spacy")
    parser.add_argument("--rules", help="compare with another spacy_rules.py in the same run")
    parser.add_argument("--popqa", default=str(REPO / "benchmarks/data/popqa_dev.jsonl"))
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--speed-questions", type=int, default=20, help="questions timed with --rules")
    args = parser.parse_args()
    random.seed(0)
    questions = load_popqa(Path(args.popqa), args.questions)
    results = {args.extractor: run(get_extractor(args.extractor, from_env()), questions)}
    if args.rules:
        compared = rules_extractor(args.rules)
        results[f"rules from {args.rules}"] = run(compared, questions)
        results["speed on PopQA passages, alternating"] = compare_speed(
            get_extractor(args.extractor, from_env()), compared, questions[: args.speed_questions]
        )
    out = REPO / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "extraction_quality.json").write_text(json.dumps(results, indent=2, ensure_ascii=False))
    print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()

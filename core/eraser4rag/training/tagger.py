"""Train the deletion tagger of `eraser4rag` (`rewriter_output = tags`) from `edit_data`'s JSONL.

    python -m core.eraser4rag.training.tagger WORK/edit_train.jsonl [REVIEWS.jsonl] --out WORK/tagger \\
        [--heldback WORK/edit_heldback.jsonl] [--summary WORK/data_summary.json]

Each example is a private window and its graph-guided + verify target (`applied`), kept by
`edit_data` only when the target reads and leaks nothing; accepted reviews exported by `annotate
export` (SFT JSONL, the reviewed text as the completion) can be given beside it. A word of the
window is labelled "delete" when the word diff from window to target does not keep it. The embedded model (the
eight markers added, no LoRA) reads the tags prompt (`linearize.rewriter_input(form="tags")`:
triples first, window last) once; a logistic-regression head over each word's features
(`deletion_tags.word_features`) is fitted with class weights, full batch, seed 0. The
threshold is the highest (the most text kept) whose rewrites leak at most 5 % of the private
facts (`tagger_rl.leak_bounded_threshold`, strict and partial leaks, independent string
grading) on the last tenth of the training windows (a validation part, by order of
question). Writes `tagger.safetensors` and `training.json`
(settings, loss curve, data summary, validation and held-back word scores). With
`--rl-iterations`, RL (`tagger_rl.reinforce`) continues from the fitted head; its head replaces
the fitted one only when its mean reward (with the guard) on the validation windows is higher.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from core.eraser4rag.erasers.deletion_tags import TaggerHead, save_head, word_features, word_flags, words_of
from core.eraser4rag.erasers.eraser4rag import load_rewriter
from core.eraser4rag.erasers.graph_guided import ParseCache
from core.eraser4rag.erasers.linearize import fitted_input
from core.eraser4rag.training.common import token_counter
from core.eraser4rag.training.tagger_rl import (
    GROUPS,
    PENALTY,
    SAMPLES,
    RlPoint,
    leak_bounded_threshold,
    reinforce,
)
from core.settings import Settings, default_cache_dir

LAYERS = (-1, 15)
EPOCHS = 400
BATCH = 8


def deletion_labels(window: str, target: str) -> list[float]:
    """1.0 for each word of `window` the word diff to `target` does not keep."""
    before = [window[s:e] for s, e in words_of(window)]
    after = target.split()
    labels = [1.0] * len(before)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            labels[i1:i2] = [0.0] * (i2 - i1)
    return labels


def read_windows(*paths: Path) -> list[dict[str, Any]]:
    """The examples of each file, in order: `edit_data`'s windows (the target text in "applied") or
    an `annotate export` of accepted reviews (the target text is the "completion")."""
    rows = [
        json.loads(line)
        for path in paths
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    for row in rows:
        row.setdefault("applied", row.get("completion", "").strip())
    return [r for r in rows if words_of(r["document"])]


def featurise(rows: Sequence[dict[str, Any]], rewriter: Any, budget: int) -> tuple[list[Any], list[Any]]:
    """Per window: (its words' features, their deletion labels)."""
    import torch

    count = token_counter(rewriter.tokenizer)
    features, labels = [], []
    for first in range(0, len(rows), BATCH):
        batch = rows[first : first + BATCH]
        prompts, windows, flags = [], [], []
        for row in batch:
            private = [tuple(k) for k in row["global_private"]]
            public = [tuple(k) for k in row["global_public"]]
            prompt, _selection = fitted_input(row["document"], private, public, count, budget, "tags")
            prompts.append(prompt)
            windows.append(row["document"])
            flags.append(word_flags(row["document"], words_of(row["document"]), private, public))
            labels.append(torch.tensor(deletion_labels(row["document"], row["applied"])))
        features += word_features(rewriter.tokenizer, rewriter.model, prompts, windows, LAYERS, flags)
        print(f"features: {min(first + BATCH, len(rows))} of {len(rows)} windows", flush=True)
    return features, labels


def cached(folder: Path | None, name: str, compute: Callable[[], Any]) -> Any:
    """`compute()`, kept in `folder`/name.pt when a folder is given (the features of a data file)."""
    import torch

    if folder is None:
        return compute()
    path = folder / f"{name}.pt"
    if path.exists():
        return torch.load(path)
    folder.mkdir(parents=True, exist_ok=True)
    value = compute()
    torch.save(value, path)
    return value


def stacked(pairs: tuple[list[Any], list[Any]]) -> tuple[Any, Any]:
    import torch

    return torch.cat(pairs[0]), torch.cat(pairs[1])


def fit_head(features: Any, labels: Any, epochs: int = EPOCHS) -> tuple[Any, float, list[float]]:
    """Logistic regression on standardised features (class-weighted, Adam, L2); the weight and
    bias are mapped back to raw features. Returns (weight, bias, loss per 20 epochs)."""
    import torch

    torch.manual_seed(0)
    mean, std = features.mean(0), features.std(0).clamp_min(1e-6)
    x = (features - mean) / std
    weight = torch.zeros(x.shape[1], requires_grad=True)
    bias = torch.zeros(1, requires_grad=True)
    positive = labels.mean().clamp(1e-3, 1 - 1e-3)
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=(1 - positive) / positive)
    optimiser = torch.optim.Adam([weight, bias], lr=0.01, weight_decay=1e-3)
    curve = []
    for epoch in range(epochs):
        optimiser.zero_grad()
        loss = loss_fn(x @ weight + bias, labels)
        loss.backward()
        optimiser.step()
        if epoch % 20 == 0 or epoch == epochs - 1:
            curve.append(round(float(loss.detach()), 4))
    raw = (weight / std).detach()
    return raw, float((bias - (weight * mean / std).sum()).detach()), curve


def _reward_threshold(
    weight: Any, bias: float, rows: Sequence[dict[str, Any]], features: Sequence[Any], parse: Any
) -> tuple[float, dict[str, float]]:
    head = TaggerHead(weight, bias, LAYERS, 0.5)
    return leak_bounded_threshold(rows, [head.probabilities(x) for x in features], parse)


def word_scores(probabilities: Any, labels: Any, threshold: float) -> dict[str, float]:
    predicted = probabilities >= threshold
    truth = labels >= 0.5
    tp = float((predicted & truth).sum())
    precision = tp / max(1.0, float(predicted.sum()))
    recall = tp / max(1.0, float(truth.sum()))
    f1 = 2 * precision * recall / max(1e-9, precision + recall)
    return {"precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "data", type=Path, nargs="+", help="edit_data JSONL and/or accepted reviews (annotate export)"
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--heldback", type=Path, help="windows never trained on, scored only")
    parser.add_argument("--summary", type=Path, help="edit_data's data summary, copied into the card")
    parser.add_argument("--rl-iterations", type=int, default=0, help="RL after the fit (tagger_rl)")
    parser.add_argument("--rl-lr", type=float, default=0.003, help="RL: Adam's learning rate")
    parser.add_argument("--features-cache", type=Path, help="folder to keep the model's features in (reruns)")
    args = parser.parse_args()
    import torch

    torch.manual_seed(0)
    started = time.perf_counter()
    settings = Settings()
    rewriter = load_rewriter(settings.rewriter_model, "", settings.cache_dir or str(default_cache_dir()))
    budget = settings.rewriter_edit_input_tokens
    rows = read_windows(*args.data)
    cut = int(len(rows) * 0.9)
    train = cached(args.features_cache, "train", lambda: featurise(rows[:cut], rewriter, budget))
    valid = cached(args.features_cache, "valid", lambda: featurise(rows[cut:], rewriter, budget))
    train_x, train_y = stacked(train)
    valid_x, valid_y = stacked(valid)
    weight, bias, curve = fit_head(train_x, train_y)
    parse = ParseCache(settings.spacy_model)
    threshold, by_threshold = _reward_threshold(weight, bias, rows[cut:], valid[0], parse)
    rl_curve: list[RlPoint] = []
    rl_kept = False
    sft_reward = by_threshold[f"{threshold:g}"]["reward + guard"]
    rl_reward = None
    if args.rl_iterations:
        # the sampling policy's boundary is the chosen threshold: p >= threshold <=> logit >= 0
        shifted = bias - math.log(threshold / (1 - threshold))
        rl_weight, rl_bias, rl_curve = reinforce(
            weight,
            shifted,
            rows[:cut],
            train[0],
            parse,
            args.rl_iterations,
            args.rl_lr,
            lambda p: print(p, flush=True),
        )
        rl_threshold, rl_table = _reward_threshold(rl_weight, rl_bias, rows[cut:], valid[0], parse)
        rl_reward = rl_table[f"{rl_threshold:g}"]["reward + guard"]
        if rl_reward > sft_reward:  # kept only when it measures better on the validation windows
            weight, bias, threshold, by_threshold, rl_kept = rl_weight, rl_bias, rl_threshold, rl_table, True
    head = TaggerHead(weight, bias, LAYERS, threshold)
    scores = {
        "train": word_scores(head.probabilities(train_x), train_y, threshold),
        "validation": word_scores(head.probabilities(valid_x), valid_y, threshold),
    }
    if args.heldback:
        held = cached(
            args.features_cache, "held", lambda: featurise(read_windows(args.heldback), rewriter, budget)
        )
        held_x, held_y = stacked(held)
        scores["heldback"] = word_scores(head.probabilities(held_x), held_y, threshold)
    save_head(head, args.out)
    card = {
        "kind": "deletion-tagger",
        "settings": {
            "output_form": "tags",
            "layers": list(LAYERS),
            "threshold": threshold,
            "max_input_tokens": budget,
            "base_model": "embedded SmolLM2-135M-Instruct (eight markers added, no LoRA)",
            "epochs": EPOCHS,
            "seed": 0,
        },
        "curve": curve,
        "rl": {
            "iterations": len(rl_curve),
            "reward": f"r_pub * exp(-{PENALTY:g} * r_pri) * fluency, {SAMPLES} samples x {GROUPS} windows",
            "learning_rate": args.rl_lr,
            "mean_reward": [p.mean_reward for p in rl_curve],
            "groups_with_spread": [p.groups_with_spread for p in rl_curve],
            "validation_reward_with_guard": {"sft": sft_reward, "after_rl": rl_reward},
            "kept": rl_kept,
        },
        "data": {
            "windows_train": cut,
            "windows_validation": len(rows) - cut,
            "words_train": int(train_y.numel()),
            "deleted_share_train": round(float(train_y.mean()), 3),
            **({"edit_data": json.loads(args.summary.read_text(encoding="utf-8"))} if args.summary else {}),
        },
        "word_scores": scores,
        "validation_by_threshold": by_threshold,
        "seconds": round(time.perf_counter() - started, 1),
    }
    (args.out / "training.json").write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(card, indent=2))


if __name__ == "__main__":
    main()

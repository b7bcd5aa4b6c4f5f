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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.eraser4rag.annotation.export import sft_record, trainable
from core.eraser4rag.erasers.deletion_tags import (
    SYNTAX,
    TAGGER_FILE,
    TaggerHead,
    save_head,
    word_features,
    word_signals,
    words_of,
)
from core.eraser4rag.erasers.eraser4rag import load_rewriter
from core.eraser4rag.erasers.graph_guided import ParseCache
from core.eraser4rag.erasers.linearize import fitted_input
from core.eraser4rag.training.common import RunHooks, TrainingError, token_counter
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


def featurise(
    rows: Sequence[dict[str, Any]],
    rewriter: Any,
    budget: int,
    hooks: RunHooks | None = None,
    parse: Callable[[str], Any] | None = None,
) -> tuple[list[Any], list[Any]]:
    """Per window: (its words' features, their deletion labels); with `parse`, the words' syntactic
    signals too (`tag_syntax`). Raises `_Cancelled` when `hooks` says stop."""
    import torch

    count = token_counter(rewriter.tokenizer)
    features, labels = [], []
    for first in range(0, len(rows), BATCH):
        if hooks is not None and hooks.should_stop():
            raise _Cancelled  # partial features must not reach the cache
        batch = rows[first : first + BATCH]
        prompts, windows, flags = [], [], []
        for row in batch:
            private = [tuple(k) for k in row["global_private"]]
            public = [tuple(k) for k in row["global_public"]]
            prompt, _selection = fitted_input(row["document"], private, public, count, budget, "tags")
            prompts.append(prompt)
            windows.append(row["document"])
            own = [tuple(k) for k in row.get("private", ())]
            doc = parse(row["document"]) if parse is not None else None
            flags.append(word_signals(row["document"], own, private, public, doc))
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


@dataclass(frozen=True)
class TaggerSettings:
    """What `train_tagger` needs besides its windows (TRL-style: the config beside the trainer)."""

    model: str = ""  # "" = the settings' rewriter model (the embedded SmolLM2-135M-Instruct)
    cache_dir: str = ""
    epochs: int = EPOCHS
    rl_iterations: int = 0
    rl_lr: float = 0.003
    syntax: bool = True  # the words' syntactic signals beside the hidden states and flags
    features_cache: str = ""  # a folder keeping the model's features between reruns
    heldback: str = ""  # windows never trained on, only scored
    summary: str = ""  # edit_data's data summary, copied into the card


class _Cancelled(Exception):
    """The run's cancel event was set while the model read the windows."""


@dataclass(frozen=True)
class TaggerResult:
    out: Path
    curve: list[dict[str, Any]]  # {"step", "loss"} while fitting, then {"step", "reward"} of RL
    seconds: float
    cancelled: bool
    saved: bool


def train_tagger(
    rows: Sequence[dict[str, Any]], out: Path, config: TaggerSettings, hooks: RunHooks | None = None
) -> TaggerResult:
    """Fit the deletion tagger on `rows` (windows with "document", "applied", "global_private",
    "global_public"): the first 90 % train, the rest choose the threshold and judge RL. Writes
    `tagger.safetensors` and `training.json` to `out` unless cancelled before the head exists."""
    import torch

    hooks = hooks or RunHooks()
    if len(rows) < 2:
        raise TrainingError(f"the tagger needs at least 2 windows to train and validate on, got {len(rows)}")
    torch.manual_seed(0)
    started = time.perf_counter()
    settings = Settings()
    cache = config.cache_dir or settings.cache_dir or str(default_cache_dir())
    rewriter = load_rewriter(config.model or settings.rewriter_model, "", cache)
    budget = settings.rewriter_edit_input_tokens
    cut = max(1, min(len(rows) - 1, int(len(rows) * 0.9)))
    features_cache = Path(config.features_cache) if config.features_cache else None
    curve: list[dict[str, Any]] = []
    parse = ParseCache(settings.spacy_model)
    syntax = parse if config.syntax else None

    signals = SYNTAX if config.syntax else "flags"  # in the cache's names: a rerun never mixes the two

    def _featurise(part: Sequence[dict[str, Any]]) -> tuple[list[Any], list[Any]]:
        return featurise(part, rewriter, budget, hooks, syntax)

    try:
        train = cached(features_cache, f"train-{signals}", lambda: _featurise(rows[:cut]))
        valid = cached(features_cache, f"valid-{signals}", lambda: _featurise(rows[cut:]))
    except _Cancelled:
        return TaggerResult(out, curve, time.perf_counter() - started, True, False)
    train_x, train_y = stacked(train)
    valid_x, valid_y = stacked(valid)
    weight, bias, losses = fit_head(train_x, train_y, config.epochs)
    for number, loss in enumerate(losses):
        curve.append({"step": min(number * 20, config.epochs - 1), "loss": loss})
        hooks.point(curve[-1])
    threshold, by_threshold = _reward_threshold(weight, bias, rows[cut:], valid[0], parse)
    sft_reward = by_threshold[f"{threshold:g}"]["reward + guard"]
    rl = _reinforced(
        weight, bias, threshold, sft_reward, rows, cut, (train[0], valid[0]), parse, config, hooks, curve
    )
    if rl.kept:
        weight, bias, threshold, by_threshold = rl.weight, rl.bias, rl.threshold, rl.table
    head = TaggerHead(weight, bias, LAYERS, threshold, config.syntax)
    scores = {
        "train": word_scores(head.probabilities(train_x), train_y, threshold),
        "validation": word_scores(head.probabilities(valid_x), valid_y, threshold),
    }
    if config.heldback:
        held_rows = read_windows(Path(config.heldback))
        held = cached(
            features_cache, f"held-{signals}", lambda: featurise(held_rows, rewriter, budget, None, syntax)
        )
        held_x, held_y = stacked(held)
        scores["heldback"] = word_scores(head.probabilities(held_x), held_y, threshold)
    data = {
        "windows_train": cut,
        "windows_validation": len(rows) - cut,
        "words_train": int(train_y.numel()),
        "deleted_share_train": round(float(train_y.mean()), 3),
    }
    if config.summary:
        data["edit_data"] = json.loads(Path(config.summary).read_text(encoding="utf-8"))
    card = {
        "kind": "deletion-tagger",
        "settings": _card_settings(config, threshold, budget),
        "curve": losses,
        "rl": rl.card(config),
        "data": data,
        "word_scores": scores,
        "validation_by_threshold": by_threshold,
        "seconds": round(time.perf_counter() - started, 1),
    }
    _save_together(head, card, out)
    return TaggerResult(out, curve, time.perf_counter() - started, hooks.should_stop(), True)


def _save_together(head: TaggerHead, card: dict[str, Any], out: Path) -> None:
    """The head and its card, each written beside its place and then moved in: a failed run never
    leaves new weights with an old card (another threshold, other signals)."""
    staging = out / ".staging"
    staging.mkdir(parents=True, exist_ok=True)
    save_head(head, staging)
    (staging / "training.json").write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    for name in (TAGGER_FILE, "training.json"):
        (staging / name).replace(out / name)
    staging.rmdir()


def _card_settings(config: TaggerSettings, threshold: float, budget: int) -> dict[str, Any]:
    base = config.model or "embedded SmolLM2-135M-Instruct"
    return {
        "output_form": "tags",
        "layers": list(LAYERS),
        "threshold": threshold,
        "max_input_tokens": budget,
        "base_model": f"{base} (eight markers added, no LoRA)",
        "epochs": config.epochs,
        "signals": SYNTAX if config.syntax else "flags",
        "seed": 0,
    }


@dataclass
class _RlOutcome:
    weight: Any = None
    bias: float = 0.0
    threshold: float = 0.0
    table: dict[str, Any] | None = None
    points: list[RlPoint] | None = None
    sft_reward: float | None = None
    reward: float | None = None
    kept: bool = False

    def card(self, config: TaggerSettings) -> dict[str, Any]:
        points = self.points or []
        return {
            "iterations": len(points),
            "reward": f"r_pub * exp(-{PENALTY:g} * r_pri) * fluency, {SAMPLES} samples x {GROUPS} windows",
            "learning_rate": config.rl_lr,
            "mean_reward": [p.mean_reward for p in points],
            "groups_with_spread": [p.groups_with_spread for p in points],
            "validation_reward_with_guard": {"sft": self.sft_reward, "after_rl": self.reward},
            "kept": self.kept,
        }


def _reinforced(
    weight: Any,
    bias: float,
    threshold: float,
    sft_reward: float,
    rows: Sequence[dict[str, Any]],
    cut: int,
    features: tuple[Sequence[Any], Sequence[Any]],
    parse: Any,
    config: TaggerSettings,
    hooks: RunHooks,
    curve: list[dict[str, Any]],
) -> _RlOutcome:
    """RL from the fitted head (`tagger_rl.reinforce`); its head is kept only when its reward with
    the guard on the validation windows beats the fitted head's."""
    outcome = _RlOutcome(sft_reward=sft_reward)
    if not config.rl_iterations or hooks.should_stop():
        return outcome

    def on_point(point: RlPoint) -> None:
        curve.append({"step": point.iteration, "reward": point.mean_reward})
        hooks.point(curve[-1])

    # the sampling policy's boundary is the chosen threshold: p >= threshold <=> logit >= 0
    shifted = bias - math.log(threshold / (1 - threshold))
    train_features, valid_features = features
    rl_weight, rl_bias, outcome.points = reinforce(
        weight, shifted, rows[:cut], train_features, parse, config.rl_iterations, config.rl_lr, on_point
    )
    rl_threshold, rl_table = _reward_threshold(rl_weight, rl_bias, rows[cut:], valid_features, parse)
    outcome.reward = rl_table[f"{rl_threshold:g}"]["reward + guard"]
    if outcome.reward > outcome.sft_reward:
        outcome.weight, outcome.bias, outcome.threshold, outcome.table = (
            rl_weight,
            rl_bias,
            rl_threshold,
            rl_table,
        )
        outcome.kept = True
    return outcome


def windows_from_examples(examples: Sequence[tuple[Any, str]]) -> list[dict[str, Any]]:
    """Accepted reviews (task, reviewed text) as tagger windows, as `annotate export` writes them:
    each once, and none whose target the fluency checker flags."""
    rows = [sft_record(task, target) for task, target in trainable(examples)]
    for row in rows:
        row["applied"] = row["completion"].strip()
    return [r for r in rows if words_of(r["document"])]


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
    config = TaggerSettings(
        rl_iterations=args.rl_iterations,
        rl_lr=args.rl_lr,
        features_cache=str(args.features_cache or ""),
        heldback=str(args.heldback or ""),
        summary=str(args.summary or ""),
    )
    result = train_tagger(read_windows(*args.data), args.out, config, RunHooks(on_point=print))
    print((result.out / "training.json").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()

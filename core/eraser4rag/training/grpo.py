"""GRPO: the second RL method for the Eraser4RAG rewriter, with TRL's `GRPOTrainer`.

Same reward as the PPO loop (`core.eraser4rag.training.ppo`): R = r_pub · exp(-p · r_pri) from triples
re-extracted from each sampled rewrite, p from 20 rising by 5 every 350 steps up to 40
(read from the trainer's step). GRPOTrainer takes reward *functions*, and needs no value
model: the advantage is each sample's reward normalised within its group of
`num_generations` samples of the same input. There are no per-token returns, so the
paper's γ = 0.99 has nothing to discount here. One step = one input, its group, one update.

Which KL it measures: TRL 1.16 computes the KL term (`beta`) of a peft model against a
frozen copy of the adapter it was given ("ref") or, for a fresh adapter, with the adapters
switched off. Handing it the SFT adapter itself is not possible here: its marker rows
(`trainable_token_indices`) wrap the tied `lm_head`, which GRPOTrainer's fused LM head
refuses (it multiplies by `lm_head.weight` directly, so it would also skip those rows). So the
SFT adapter (LoRA and marker rows) is merged into the weights first and GRPO trains a fresh
LoRA on top: "adapters off" is then exactly the SFT model, and `beta` weighs
KL(policy || SFT model), as the paper asks.

The adapter written is one ordinary peft folder that `eraser4rag` loads: the SFT and GRPO
LoRA updates of each layer are concatenated along the rank (B_sft·A_sft + B_grpo·A_grpo =
[B_sft B_grpo]·[A_sft; A_grpo], exact, rank doubled at the same scaling) and the SFT marker
rows are kept as they were (GRPO does not train them). Causal models only: TRL's GRPO
generates with decoder-only models; seq2seq rewriters use `--method ppo`.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.eraser4rag.annotation.scoring import rl_reward, score_many
from core.eraser4rag.annotation.tasks import AnnotationTask
from core.eraser4rag.training.common import (
    RlRunSettings,
    RunHooks,
    TrainingError,
    curve_callback,
    load_for_training,
    model_input,
    write_run_card,
)
from core.eraser4rag.training.ppo import PpoResult
from core.eraser4rag.training.sft import bf16_available
from core.extract.base import Extractor

ADAPTER_WEIGHTS = "adapter_model.safetensors"


@dataclass(frozen=True)
class GrpoSettings(RlRunSettings):
    method: str = "grpo"  # recorded with the run (runs of both RL methods are kind "rl")
    num_generations: int = 4
    beta: float = 0.05  # weight of KL(policy || SFT model), see the module docstring


def train_grpo(
    tasks: Sequence[AnnotationTask],
    out: Path,
    settings: GrpoSettings,
    evaluator: Extractor,
    hooks: RunHooks | None = None,
) -> PpoResult:
    if not tasks:
        raise TrainingError("no tasks to train on: GRPO needs documents with private triples")
    sft = Path(settings.sft_adapter)
    if not settings.sft_adapter or not (sft / "adapter_config.json").exists():
        raise TrainingError(f"{settings.sft_adapter!r} is not an SFT adapter folder: run `train sft` first")
    hooks = hooks or RunHooks()
    tokenizer, merged, lora = _sft_merged(settings)
    reward = Eraser4RagReward(tasks, evaluator, settings)
    curve: list[dict[str, Any]] = []
    scratch = out.parent / f".{out.name}.grpo"
    started = time.perf_counter()
    trainer = _trainer(
        merged, tokenizer, lora, tasks, reward, settings, scratch, _callback(curve, reward, hooks)
    )
    trainer.train()
    trainer.model.save_pretrained(str(scratch / "lora"), save_embedding_layers=False)
    write_combined_adapter(sft, scratch / "lora", out)
    write_run_card(out, "rl", settings, curve, len(tasks))
    shutil.rmtree(scratch, ignore_errors=True)
    return PpoResult(
        out, curve, trainer.state.global_step, time.perf_counter() - started, hooks.should_stop()
    )


def _sft_merged(settings: GrpoSettings) -> tuple[Any, Any, Any]:
    """(tokenizer, base model with the SFT adapter merged in, a fresh LoRA config like the SFT one)."""
    # peft (~10 s) loads only when an adapter is trained or applied
    from peft import LoraConfig, PeftModel, TaskType

    tokenizer, base, seq2seq = load_for_training(settings.model, settings.cache_dir)
    if seq2seq:
        raise TrainingError("GRPO (TRL's GRPOTrainer) trains causal models only: use `--method ppo`")
    sft_config = json.loads((Path(settings.sft_adapter) / "adapter_config.json").read_text(encoding="utf-8"))
    merged = PeftModel.from_pretrained(base, settings.sft_adapter).merge_and_unload()
    lora = LoraConfig(
        task_type=TaskType.CAUSAL_LM,
        r=int(sft_config["r"]),
        lora_alpha=int(sft_config["lora_alpha"]),
        lora_dropout=0.0,  # the KL and the importance ratio compare log-probabilities of the same tokens
        target_modules=sorted(sft_config["target_modules"]),
    )
    return tokenizer, merged, lora


class Eraser4RagReward:
    """GRPO reward function: R = r_pub · exp(-p · r_pri) of each completion, p by the trainer's step.

    Completions of one call are scored in one extraction batch; the last call's mean rates are
    kept for the run's curve."""

    __name__ = "eraser4rag_reward"  # TRL names the logged reward column after it

    def __init__(self, tasks: Sequence[AnnotationTask], evaluator: Extractor, settings: GrpoSettings) -> None:
        self.tasks = list(tasks)
        self.evaluator = evaluator
        self.settings = settings
        self.last: dict[str, Any] = {}

    def penalty(self, step: int) -> float:
        s = self.settings
        return s.penalty(step)

    def __call__(
        self, prompts: list[str], completions: list[str], task_index: list[int], **kwargs: Any
    ) -> list[float]:
        state = kwargs.get("trainer_state")
        p = self.penalty(int(state.global_step) if state is not None else 0)
        tasks = [self.tasks[int(i)] for i in task_index]
        texts = [_text(c) for c in completions]
        scores = score_many(tasks, texts, self.evaluator)
        rewards = [rl_reward(s, p) for s in scores]
        self.last = {
            "reward": sum(rewards) / len(rewards),
            "r_pri": _mean([s.r_pri for s in scores]),
            "r_pub": _mean([s.r_pub for s in scores]),
            "p": p,
        }
        return rewards


def _text(completion: Any) -> str:
    """A plain-text completion, or the content of a conversational one."""
    if isinstance(completion, str):
        return completion.strip()
    return " ".join(str(m.get("content", "")) for m in completion).strip()


def _trainer(
    model: Any,
    tokenizer: Any,
    lora: Any,
    tasks: Sequence[AnnotationTask],
    reward: Eraser4RagReward,
    settings: GrpoSettings,
    scratch: Path,
    callback: Any,
) -> Any:
    # datasets (~2 s) loads only when a dataset is written or trained on
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    records = [
        {"prompt": model_input(task, tokenizer, settings.max_input_tokens), "task_index": i}
        for i, task in enumerate(tasks)
    ]
    config = GRPOConfig(
        output_dir=str(scratch),
        max_steps=settings.iterations,
        learning_rate=settings.learning_rate,
        per_device_train_batch_size=settings.num_generations,  # one input's whole group per step
        gradient_accumulation_steps=1,
        num_generations=settings.num_generations,
        max_completion_length=settings.max_new_tokens,
        temperature=settings.temperature,
        beta=settings.beta,
        epsilon=settings.clip,
        loss_type="grpo",
        disable_dropout=True,
        gradient_checkpointing=False,  # a 135M model fits; recomputing activations only costs CPU time
        logging_steps=1,
        save_strategy="no",
        report_to=[],
        seed=settings.seed,
        disable_tqdm=True,
        bf16=bf16_available(),
    )
    return GRPOTrainer(
        model=model,
        reward_funcs=[reward],
        args=config,
        train_dataset=Dataset.from_list(records),
        processing_class=tokenizer,
        peft_config=lora,
        callbacks=[callback],
    )


def _callback(curve: list[dict[str, Any]], reward: Eraser4RagReward, hooks: RunHooks) -> Any:
    def reward_point(state: Any, logs: dict[str, Any]) -> dict[str, Any] | None:
        if "loss" not in logs:
            return None
        kl = float(logs["kl"]) if "kl" in logs else None
        return {"step": state.global_step, **reward.last, "kl": kl, "loss": float(logs["loss"])}

    return curve_callback(curve, hooks, reward_point)


def write_combined_adapter(sft: Path, grpo_lora: Path, out: Path) -> None:
    """One adapter folder: SFT + GRPO LoRA concatenated along the rank, the SFT marker rows, tokenizer."""
    # safetensors.torch brings torch: loads only when an adapter is merged
    from safetensors.torch import load_file, save_file

    sft_weights = load_file(str(sft / ADAPTER_WEIGHTS))
    grpo_weights = load_file(str(grpo_lora / ADAPTER_WEIGHTS))
    sft_lora = {k for k in sft_weights if ".lora_" in k}
    if sft_lora != set(grpo_weights):
        raise TrainingError(
            "the GRPO LoRA does not cover the same layers as the SFT adapter; nothing written"
        )
    combined = dict(sft_weights)
    for key in sft_lora:
        dim = 0 if ".lora_A." in key else 1  # A: (r, in) stacks rows; B: (out, r) stacks columns
        combined[key] = _cat(sft_weights[key], grpo_weights[key], dim)
    out.mkdir(parents=True, exist_ok=True)
    for item in sft.iterdir():
        if item.is_file() and item.name not in (ADAPTER_WEIGHTS, "training.json"):
            shutil.copy2(item, out / item.name)
    save_file(combined, str(out / ADAPTER_WEIGHTS), metadata={"format": "pt"})
    config = json.loads((sft / "adapter_config.json").read_text(encoding="utf-8"))
    config["r"] = 2 * int(config["r"])  # same scaling alpha / r as each part
    config["lora_alpha"] = 2 * int(config["lora_alpha"])
    (out / "adapter_config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")


def _cat(first: Any, second: Any, dim: int) -> Any:
    # torch (~5 s) loads only when a model runs
    import torch

    return torch.cat([first, second.to(first.dtype)], dim=dim).contiguous()


def _mean(values: Sequence[float | None]) -> float | None:
    defined = [v for v in values if v is not None]
    return sum(defined) / len(defined) if defined else None

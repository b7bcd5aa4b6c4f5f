"""Reinforcement learning of the Eraser4RAG rewriter (section 3.2) after SFT.

Reward: R = r_pub · exp(-p · r_pri), with r_pri and r_pub from triples re-extracted from each
sampled rewrite by the evaluating extractor; p starts at 20 and rises by 5 every 350
iterations up to 40. Discount γ = 0.99, learning rate 1e-5, and a per-token KL penalty to
the SFT model.

Why a compact PPO loop and not TRL's `PPOTrainer`: TRL's PPOTrainer takes only a reward
*model* (an `nn.Module` scoring token ids), while this reward is a function of re-extracted
triples (spaCy or an LLM extractor) that no module can express; it also trains a value
model, a second copy of the network this CPU cannot afford. TRL's `GRPOTrainer` takes reward
functions and is the second method (`core/eraser4rag/training/grpo.py`, which says which KL it measures);
it has no per-token returns, so the paper's γ has no place there. This loop is built from peft parts: the
policy is the SFT adapter itself, trainable ("default"), and a frozen second copy of the same
adapter ("reference") gives the KL term. Advantages: the terminal reward, normalised within
the group of samples of the same input (a baseline without a value network), plus the
per-token KL penalty, discounted by γ; the update is PPO's clipped ratio objective.
"""

from __future__ import annotations

import random
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
    load_for_training,
    model_input,
    save_adapter,
    write_run_card,
)
from core.extract.base import Extractor


@dataclass(frozen=True)
class PpoSettings(RlRunSettings):
    group_size: int = 4
    gamma: float = 0.99  # paper: 0.99
    kl_coef: float = 0.05  # weight of the per-token KL penalty to the SFT model
    ppo_epochs: int = 2


@dataclass(frozen=True)
class PpoResult:
    adapter_dir: Path
    curve: list[dict[str, Any]]
    iterations: int
    seconds: float
    cancelled: bool


def train_ppo(
    tasks: Sequence[AnnotationTask],
    out: Path,
    settings: PpoSettings,
    evaluator: Extractor,
    hooks: RunHooks | None = None,
) -> PpoResult:
    # torch (~5 s) loads only when a model runs
    import torch

    if not tasks:
        raise TrainingError("no tasks to train on: RL needs documents with private triples")
    if not settings.sft_adapter or not (Path(settings.sft_adapter) / "adapter_config.json").exists():
        raise TrainingError(f"{settings.sft_adapter!r} is not an SFT adapter folder: run `train sft` first")
    hooks = hooks or RunHooks()
    random.seed(settings.seed)
    torch.manual_seed(settings.seed)
    policy = Policy(settings)
    optimizer = torch.optim.AdamW(policy.trainable_parameters(), lr=settings.learning_rate)
    curve: list[dict[str, Any]] = []
    started = time.perf_counter()
    order = list(range(len(tasks)))
    done = 0
    for iteration in range(settings.iterations):
        if hooks.should_stop():
            break
        if iteration % len(order) == 0:
            random.shuffle(order)
        task = tasks[order[iteration % len(order)]]
        p = settings.penalty(iteration)
        point = _iteration(policy, optimizer, task, p, evaluator, settings)
        point["step"] = iteration + 1
        curve.append(point)
        hooks.point(point)
        done = iteration + 1
    save_adapter(policy.model, policy.tokenizer, out)
    write_run_card(out, "rl", settings, curve, len(tasks))
    return PpoResult(out, curve, done, time.perf_counter() - started, hooks.should_stop())


class Policy:
    def __init__(self, settings: PpoSettings) -> None:
        # peft (~10 s) loads only when an adapter is trained or applied
        from peft import PeftModel

        tokenizer, base, seq2seq = load_for_training(settings.model, settings.cache_dir)
        self.tokenizer, self.seq2seq, self.settings = tokenizer, seq2seq, settings
        self.model = PeftModel.from_pretrained(
            base, settings.sft_adapter, adapter_name="default", is_trainable=True
        )
        self.model.load_adapter(settings.sft_adapter, adapter_name="reference", is_trainable=False)
        self.model.set_adapter("default")

    def trainable_parameters(self) -> list[Any]:
        return [p for name, p in self.model.named_parameters() if ".default" in name and p.requires_grad]

    def sample(self, prompt: str, document: str) -> tuple[Any, Any, list[str]]:
        """(prompt ids, completion ids padded, decoded texts) of `group_size` samples."""
        # torch (~5 s) loads only when a model runs
        import torch

        tokenizer, settings = self.tokenizer, self.settings
        inputs = tokenizer(prompt, return_tensors="pt")
        budget = min(settings.max_new_tokens, int(len(tokenizer(document)["input_ids"]) * 1.5) + 16)
        self.model.eval()
        with torch.no_grad():
            output = self.model.generate(
                **inputs,
                do_sample=True,
                temperature=settings.temperature,
                max_new_tokens=budget,
                num_return_sequences=settings.group_size,
                pad_token_id=tokenizer.pad_token_id,
            )
        completion = output if self.seq2seq else output[:, inputs["input_ids"].shape[1] :]
        if self.seq2seq:
            completion = completion[:, 1:]  # the decoder start token is no action
        texts = [tokenizer.decode(row, skip_special_tokens=True).strip() for row in completion]
        return inputs["input_ids"], completion, texts

    def mask(self, completion: Any) -> Any:
        """1 on the generated tokens up to and including the first end token."""
        # torch (~5 s) loads only when a model runs
        import torch

        eos = self.tokenizer.eos_token_id
        is_end = completion == eos
        ended_before = torch.cumsum(is_end.int(), dim=1) - is_end.int()
        return (ended_before == 0).float()

    def log_probs(self, prompt_ids: Any, completion: Any, adapter: str = "default") -> Any:
        # torch (~5 s) loads only when a model runs
        import torch

        if adapter != "default":
            self.model.set_adapter(adapter)
        try:
            group = completion.shape[0]
            prompts = prompt_ids.expand(group, -1)
            if self.seq2seq:
                logits = self.model(input_ids=prompts, labels=completion).logits
                targets = completion
            else:
                ids = torch.cat([prompts, completion], dim=1)
                logits = self.model(input_ids=ids).logits[:, prompts.shape[1] - 1 : -1]
                targets = completion
            return torch.log_softmax(logits.float(), dim=-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        finally:
            if adapter != "default":
                self.model.set_adapter("default")  # also makes the policy's parameters trainable again


def _iteration(
    policy: Policy,
    optimizer: Any,
    task: AnnotationTask,
    p: float,
    evaluator: Extractor,
    settings: PpoSettings,
) -> dict[str, Any]:
    # torch (~5 s) loads only when a model runs
    import torch

    prompt = model_input(task, policy.tokenizer, settings.max_input_tokens)
    prompt_ids, completion, texts = policy.sample(prompt, task.text)
    scores = score_many([task] * len(texts), texts, evaluator)
    rewards = torch.tensor([rl_reward(s, p) for s in scores])
    loss, kl = ppo_update(policy, optimizer, prompt_ids, completion, rewards, settings)
    defined = [s for s in scores if s.r_pri is not None]
    return {
        "reward": float(rewards.mean()),
        "r_pri": sum(s.r_pri for s in defined) / len(defined) if defined else None,  # type: ignore[misc]
        "r_pub": _mean([s.r_pub for s in scores]),
        "kl": kl,
        "p": p,
        "loss": loss,
    }


def ppo_update(
    policy: Policy, optimizer: Any, prompt_ids: Any, completion: Any, rewards: Any, settings: PpoSettings
) -> tuple[float, float]:
    """One PPO update on a group of sampled completions of one input; returns (loss, mean KL)."""
    # torch (~5 s) loads only when a model runs
    import torch

    mask = policy.mask(completion)
    with torch.no_grad():
        old = policy.log_probs(prompt_ids, completion)
        reference = policy.log_probs(prompt_ids, completion, adapter="reference")
    advantages, kl = _advantages(rewards, old, reference, mask, settings)
    policy.model.train()
    loss = torch.zeros(())
    for _ in range(settings.ppo_epochs):
        new = policy.log_probs(prompt_ids, completion)
        ratio = torch.exp(new - old)
        clipped = torch.clamp(ratio, 1 - settings.clip, 1 + settings.clip)
        objective = torch.minimum(ratio * advantages, clipped * advantages)
        loss = -(objective * mask).sum() / mask.sum().clamp(min=1)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(policy.trainable_parameters(), 1.0)
        optimizer.step()
    policy.model.eval()
    return float(loss.detach()), float(kl)


def _advantages(rewards: Any, old: Any, reference: Any, mask: Any, settings: PpoSettings) -> tuple[Any, Any]:
    """Per-token rewards (KL penalty everywhere, the group-normalised R at the last token), discounted."""
    # torch (~5 s) loads only when a model runs
    import torch

    centred = (rewards - rewards.mean()) / (rewards.std(unbiased=False) + 1e-6)
    kl_per_token = (old - reference) * mask
    token_rewards = -settings.kl_coef * kl_per_token
    last = (mask.sum(dim=1) - 1).clamp(min=0).long()
    token_rewards[torch.arange(len(last)), last] += centred
    returns = torch.zeros_like(token_rewards)
    running = torch.zeros(token_rewards.shape[0])
    for t in range(token_rewards.shape[1] - 1, -1, -1):
        running = token_rewards[:, t] + settings.gamma * running * mask[:, t]
        returns[:, t] = running
    return returns * mask, kl_per_token.sum() / mask.sum().clamp(min=1)


def _mean(values: Sequence[float | None]) -> float | None:
    defined = [v for v in values if v is not None]
    return sum(defined) / len(defined) if defined else None

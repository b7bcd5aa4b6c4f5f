"""Supervised fine-tuning of the Eraser4RAG rewriter on reviewed rewrites (section 3.1.2).

Causal LMs train with TRL's `SFTTrainer` on prompt-completion examples (loss on the
completion only) and a peft LoRA adapter. TRL's SFTTrainer is built for decoder-only
models, so sequence-to-sequence models (Flan-T5) train with transformers'
`Seq2SeqTrainer` on the same examples and the same LoRA config. Defaults are the paper's:
AdamW, learning rate 5e-5, 3 epochs. The adapter folder holds the LoRA weights, the eight
special-token embedding rows (`trainable_token_indices`), the tokenizer and `training.json`.
Runs on CPU here and on a GPU when one is there (the Trainer uses accelerate).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from core.eraser4rag.annotation.export import Example
from core.eraser4rag.training.common import (
    RunHooks,
    TrainingError,
    curve_callback,
    load_for_training,
    lora_config,
    model_input,
    save_adapter,
    write_run_card,
)


@dataclass(frozen=True)
class SftSettings:
    model: str = ""  # local folder or hub id ("" = embedded SmolLM2-135M-Instruct)
    epochs: float = 3.0  # paper: 3
    learning_rate: float = 5e-5  # paper: 5e-5 with AdamW
    batch_size: int = 1
    max_steps: int = -1  # > 0 stops early (short runs, tests)
    max_input_tokens: int = 768  # document + linearised triples, chosen as eraser4rag chooses them
    max_target_tokens: int = 384
    lora_r: int = 8
    lora_alpha: int = 16
    lora_dropout: float = 0.05
    target_modules: tuple[str, ...] = field(default_factory=tuple)  # () = q/v projections
    seed: int = 0
    cache_dir: str = ""
    # > 1 weighs the loss on the target tokens where the rewrite departs from the input (the first
    # token after a cut, inserted tokens) this many times more than copied tokens (causal models)
    change_weight: float = 1.0
    # "rewrite": the target is the whole rewritten text (the paper); "edits": an edit script
    # (`core.eraser4rag.erasers.edit_script`), cued by its own prompt ending and written without a
    # leading space
    output_form: str = "rewrite"
    # > 0: LoRA in the top this-many layers only and the marker rows left as loaded, so the
    # backward pass stops there (several times cheaper per step on a CPU); 0: every layer + markers
    top_layers: int = 0


@dataclass(frozen=True)
class SftResult:
    adapter_dir: Path
    curve: list[dict[str, Any]]
    steps: int
    seconds: float
    cancelled: bool


def train_sft(
    examples: Sequence[Example], out: Path, settings: SftSettings, hooks: RunHooks | None = None
) -> SftResult:
    """Train a LoRA adapter on (task, target) examples and save it to `out`."""
    if not examples:
        raise TrainingError("no accepted examples to train on: review candidates first (or import a file)")
    hooks = hooks or RunHooks()
    tokenizer, model, seq2seq = load_for_training(settings.model, settings.cache_dir)
    lead = "" if settings.output_form == "edits" else " "
    records = [
        {
            "prompt": model_input(task, tokenizer, settings.max_input_tokens, settings.output_form),
            "completion": lead + target.strip() + ("" if seq2seq else tokenizer.eos_token),
        }
        for task, target in examples
    ]
    curve: list[dict[str, Any]] = []
    callback = _curve_callback(curve, hooks)
    scratch = out.parent / f".{out.name}.checkpoints"
    started = time.perf_counter()
    trainer = (_seq2seq_trainer if seq2seq else _causal_trainer)(
        model, tokenizer, records, settings, scratch, callback
    )
    trainer.train()
    out.mkdir(parents=True, exist_ok=True)
    save_adapter(trainer.model, tokenizer, out)
    write_run_card(out, "sft", settings, curve, len(records))
    shutil.rmtree(scratch, ignore_errors=True)
    return SftResult(
        out, curve, trainer.state.global_step, time.perf_counter() - started, hooks.should_stop()
    )


def _common_args(settings: SftSettings, scratch: Path) -> dict[str, Any]:
    return {
        "output_dir": str(scratch),
        "num_train_epochs": settings.epochs,
        "max_steps": settings.max_steps,
        "learning_rate": settings.learning_rate,
        "optim": "adamw_torch",
        "per_device_train_batch_size": settings.batch_size,
        "logging_steps": 1,
        "save_strategy": "no",
        "report_to": [],
        "seed": settings.seed,
        "disable_tqdm": True,
        "bf16": bf16_available(),  # TRL defaults to bf16, which a CPU refuses
    }


def bf16_available() -> bool:
    # torch (~5 s) loads only when a model runs
    import torch

    return bool(torch.cuda.is_available() and torch.cuda.is_bf16_supported())


def _causal_trainer(
    model: Any,
    tokenizer: Any,
    records: list[dict[str, str]],
    settings: SftSettings,
    scratch: Path,
    callback: Any,
) -> Any:
    # datasets (~2 s) loads only when a dataset is written or trained on
    from datasets import Dataset
    from trl import SFTConfig

    config = SFTConfig(
        **_common_args(settings, scratch),
        max_length=settings.max_input_tokens + settings.max_target_tokens,
        completion_only_loss=True,
        packing=False,
    )
    count = int(model.config.num_hidden_layers)
    layers = range(max(0, count - settings.top_layers), count) if settings.top_layers > 0 else ()
    peft = lora_config(
        False,
        tokenizer,
        settings.lora_r,
        settings.lora_alpha,
        settings.lora_dropout,
        settings.target_modules,
        tuple(layers),
    )
    return _trainer_class(settings.change_weight)(
        model=model,
        args=config,
        train_dataset=Dataset.from_list(records),
        processing_class=tokenizer,
        peft_config=peft,
        callbacks=[callback],
    )


def _trainer_class(change_weight: float = 1.0) -> Any:
    # transformers (~2 s) loads only when a model runs
    from transformers import Trainer
    from trl import SFTTrainer

    class TokenRowsSFTTrainer(SFTTrainer):
        """SFTTrainer with the model's own loss (labels: -100 on the prompt, so completion only).

        TRL 1.16's default loss multiplies hidden states by `lm_head.weight` directly (a fused
        LM head). With tied embeddings, peft's `trainable_token_indices` wraps `lm_head` too,
        and that shortcut would both fail (the wrapper has no `.bias`) and skip the trained
        marker rows. The model's forward goes through the wrapper.
        """

        def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):  # type: ignore[override]
            if change_weight == 1.0 or "labels" not in inputs:
                return Trainer.compute_loss(self, model, inputs, return_outputs, num_items_in_batch)
            return weighted_loss(model, inputs, change_weight, return_outputs)

    return TokenRowsSFTTrainer


def weighted_loss(model: Any, inputs: dict[str, Any], change_weight: float, return_outputs: bool) -> Any:
    """Next-token loss with the target's decision tokens (`change_positions`) weighed up.

    Copying dominates the plain loss (rewrites keep ~3/4 of their input), so a low loss is
    reached by copying; the tokens where the rewrite skips or adds text carry the lesson."""
    # torch (~5 s) loads only when a model runs
    import torch

    labels = inputs["labels"]
    weights = torch.ones_like(labels, dtype=torch.float32)
    for row in range(labels.shape[0]):
        completion = (labels[row] != -100).nonzero().flatten().tolist()
        attended = inputs.get("attention_mask", torch.ones_like(labels))[row]
        prompt = ((labels[row] == -100) & (attended == 1)).nonzero().flatten().tolist()
        ids = inputs["input_ids"][row].tolist()
        for position in change_positions([ids[i] for i in prompt], [ids[i] for i in completion]):
            weights[row, completion[position]] = change_weight
    model_inputs = {k: v for k, v in inputs.items() if k not in ("labels", "completion_mask")}
    outputs = model(**model_inputs)
    logits = outputs.logits[:, :-1, :].float()
    targets = labels[:, 1:]
    losses = torch.nn.functional.cross_entropy(
        logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), ignore_index=-100, reduction="none"
    ).view_as(targets)
    mask = (targets != -100).float() * weights[:, 1:]
    loss = (losses * mask).sum() / mask.sum().clamp(min=1.0)
    return (loss, outputs) if return_outputs else loss


def change_positions(prompt: list[int], completion: list[int]) -> list[int]:
    """Completion positions where the rewrite departs from the input: tokens matched nowhere in
    the prompt (inserted) and the first token of a copied run that resumes after skipped input."""
    matcher = SequenceMatcher(None, prompt, completion, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    copied: set[int] = set()
    changes: list[int] = []
    previous_end: int | None = None
    for block in blocks:
        copied.update(range(block.b, block.b + block.size))
        if previous_end is not None and block.a > previous_end:
            changes.append(block.b)
        previous_end = block.a + block.size
    changes += [j for j in range(len(completion)) if j not in copied]
    return sorted(set(changes))


def _seq2seq_trainer(
    model: Any,
    tokenizer: Any,
    records: list[dict[str, str]],
    settings: SftSettings,
    scratch: Path,
    callback: Any,
) -> Any:
    # datasets (~2 s) loads only when a dataset is written or trained on
    from datasets import Dataset
    from peft import get_peft_model
    from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments

    peft_model = get_peft_model(
        model,
        lora_config(
            True,
            tokenizer,
            settings.lora_r,
            settings.lora_alpha,
            settings.lora_dropout,
            settings.target_modules,
        ),
    )

    def encode(record: dict[str, str]) -> dict[str, Any]:
        encoded = tokenizer(record["prompt"], truncation=True, max_length=settings.max_input_tokens)
        encoded["labels"] = tokenizer(
            text_target=record["completion"].strip(), truncation=True, max_length=settings.max_target_tokens
        )["input_ids"]
        return encoded

    dataset = Dataset.from_list(records).map(encode, remove_columns=["prompt", "completion"])
    return Seq2SeqTrainer(
        model=peft_model,
        args=Seq2SeqTrainingArguments(**_common_args(settings, scratch)),
        train_dataset=dataset,
        data_collator=DataCollatorForSeq2Seq(tokenizer, model=peft_model),
        processing_class=tokenizer,
        callbacks=[callback],
    )


def _curve_callback(curve: list[dict[str, Any]], hooks: RunHooks) -> Any:
    def loss_point(state: Any, logs: dict[str, Any]) -> dict[str, Any] | None:
        if "loss" not in logs:
            return None
        return {"step": state.global_step, "loss": float(logs["loss"]), "epoch": float(state.epoch or 0)}

    return curve_callback(curve, hooks, loss_point)

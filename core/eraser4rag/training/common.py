"""What SFT and RL share: loading the rewriter to train, building its inputs exactly as the
`eraser4rag` eraser does, the LoRA config with the special triple tokens, and run reporting."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from core.eraser4rag.annotation.scoring import penalty_at
from core.eraser4rag.annotation.tasks import AnnotationTask
from core.eraser4rag.erasers.linearize import (
    SPECIAL_TOKENS,
    add_special_tokens,
    fitted_input,
)
from core.model_loading import resolve_local_lm
from core.settings import default_cache_dir

Point = dict[str, Any]
OnPoint = Callable[[Point], None]


class TrainingError(RuntimeError):
    """A training run could not start or finish; the message says why and what to do."""


@dataclass
class RunHooks:
    """How a run reports its curve and learns that it should stop (UI cancel button, Ctrl-C)."""

    on_point: OnPoint | None = None
    cancelled: threading.Event | None = None

    def point(self, point: Point) -> None:
        if self.on_point is not None:
            self.on_point(point)

    def should_stop(self) -> bool:
        return self.cancelled is not None and self.cancelled.is_set()


def load_for_training(model_name: str, cache_dir: str) -> tuple[Any, Any, bool]:
    """(tokenizer, model, seq2seq) with the eight triple markers added (embeddings grown)."""
    # transformers (~2 s) loads only when a model runs
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer

    source = resolve_local_lm(model_name, cache_dir or str(default_cache_dir()))
    try:
        config = AutoConfig.from_pretrained(source)
        seq2seq = bool(getattr(config, "is_encoder_decoder", False))
        tokenizer = AutoTokenizer.from_pretrained(source)
        model = (AutoModelForSeq2SeqLM if seq2seq else AutoModelForCausalLM).from_pretrained(source)
    except OSError as exc:
        raise TrainingError(
            f"model {source!r} could not be loaded ({exc}); give a local folder or hub id"
        ) from exc
    add_special_tokens(tokenizer, model)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer, model, seq2seq


def special_token_ids(tokenizer: Any) -> list[int]:
    return [tokenizer.convert_tokens_to_ids(token) for token in SPECIAL_TOKENS]


def lora_config(
    seq2seq: bool,
    tokenizer: Any,
    r: int,
    alpha: int,
    dropout: float,
    target_modules: Sequence[str],
    layers: Sequence[int] = (),
) -> Any:
    """LoRA on the attention projections plus the eight marker rows of the embedding matrix
    (`trainable_token_indices`): only those rows are trained and saved, so the adapter stays
    a few MB instead of carrying the whole embedding matrix."""
    # peft (~10 s) loads only when an adapter is trained or applied
    from peft import LoraConfig, TaskType

    targets = list(target_modules) or (["q", "v"] if seq2seq else ["q_proj", "v_proj"])
    if layers:  # LoRA in these (top) layers only, no marker rows: the backward pass stops there
        return LoraConfig(
            task_type=TaskType.SEQ_2_SEQ_LM if seq2seq else TaskType.CAUSAL_LM,
            r=r,
            lora_alpha=alpha,
            lora_dropout=dropout,
            target_modules=targets,
            layers_to_transform=list(layers),
        )
    return LoraConfig(
        task_type=TaskType.SEQ_2_SEQ_LM if seq2seq else TaskType.CAUSAL_LM,
        r=r,
        lora_alpha=alpha,
        lora_dropout=dropout,
        target_modules=targets,
        trainable_token_indices=special_token_ids(tokenizer),
    )


def model_input(task: AnnotationTask, tokenizer: Any, max_input_tokens: int, form: str = "rewrite") -> str:
    """The rewriter's input for a task (a document or one window of it), with the global triples
    chosen by the same function `eraser4rag` uses (`fitted_input`)."""

    prompt, _selection = fitted_input(
        task.text.strip(),
        task.global_private,
        task.global_public,
        token_counter(tokenizer),
        max_input_tokens,
        form,
    )
    return prompt


def token_counter(tokenizer: Any) -> Callable[[str], int]:
    """Tokens of a text without the tokenizer's own special tokens (what the prompt budget counts)."""
    return lambda text: len(tokenizer(text, add_special_tokens=False)["input_ids"])


def write_run_card(folder: Path, kind: str, settings: Any, curve: list[Point], examples: int) -> None:
    """`training.json` beside the adapter: what was trained, how, and its curve."""
    card = {"kind": kind, "settings": asdict(settings), "examples": examples, "curve": curve}
    (folder / "training.json").write_text(json.dumps(card, indent=2, default=str), encoding="utf-8")


def adapter_size_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.glob("adapter_model.*"))


def save_adapter(model: Any, tokenizer: Any, out: Path, adapter_name: str = "default") -> None:
    """LoRA weights and the marker rows only: the grown embedding matrix is left out (peft would
    otherwise save all of it, ~230 MB for SmolLM2); `eraser4rag` grows it again when loading."""
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out), save_embedding_layers=False, selected_adapters=[adapter_name])
    tokenizer.save_pretrained(str(out))


def curve_callback(
    curve: list[Point], hooks: RunHooks, point_of: Callable[[Any, dict[str, Any]], Point | None]
) -> Any:
    """A transformers TrainerCallback that appends `point_of(state, logs)` to `curve` at each
    log (None skips the log) and ends training when the run's hooks say stop."""
    # transformers (~2 s) loads only when a model runs
    from transformers import TrainerCallback

    class CurveCallback(TrainerCallback):
        def on_log(
            self, args: Any, state: Any, control: Any, logs: dict[str, Any] | None = None, **_: Any
        ) -> None:
            point = point_of(state, logs) if logs else None
            if point is not None:
                curve.append(point)
                hooks.point(point)

        def on_step_end(self, args: Any, state: Any, control: Any, **_: Any) -> None:
            if hooks.should_stop():
                control.should_training_stop = True

    return CurveCallback()


@dataclass(frozen=True)
class RlRunSettings:
    """What both RL trainers (PPO in `ppo.py`, GRPO in `grpo.py`) share: the start, the paper's
    optimiser setting and reward penalty schedule, sampling and budgets. Each trainer's settings
    add their own fields to these."""

    sft_adapter: str = ""  # the SFT adapter folder the policy starts from (required)
    model: str = ""  # base model of that adapter ("" = embedded SmolLM2-135M-Instruct)
    iterations: int = 700  # one iteration = one input, a group of samples, one update
    learning_rate: float = 1e-5  # paper: 1e-5
    clip: float = 0.2  # the ratio clip (PPO's and GRPO's epsilon)
    p_start: float = 20.0  # paper: p = 20, +5 every 350 iterations, up to 40
    p_step: float = 5.0
    p_every: int = 350
    p_cap: float = 40.0
    temperature: float = 1.0
    max_new_tokens: int = 256
    max_input_tokens: int = 768
    seed: int = 0
    cache_dir: str = ""

    def penalty(self, iteration: int) -> float:
        """The reward's privacy penalty p at `iteration` (the paper's schedule)."""
        return penalty_at(iteration, self.p_start, self.p_step, self.p_every, self.p_cap)

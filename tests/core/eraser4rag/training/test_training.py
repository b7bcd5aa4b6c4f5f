"""Short SFT and RL runs on the real embedded SmolLM2 (CPU): loss falls, the update favours the
higher-reward rewrite, adapters stay small and the `eraser4rag` eraser loads them."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from core.eraser4rag.annotation.scoring import penalty_at
from core.eraser4rag.erasers.eraser4rag import Eraser4RAGEraser
from core.eraser4rag.training.common import RunHooks, TrainingError, adapter_size_bytes, model_input
from core.eraser4rag.training.ppo import Policy, PpoSettings, ppo_update, train_ppo
from core.eraser4rag.training.sft import SftSettings, train_sft
from core.extract import get_extractor
from core.settings import Settings
from tests.annotation_fixtures import tiny_task

TARGET = "Mara Voss works as an architect."


@pytest.fixture(scope="module")
def sft_adapter(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    out = tmp_path_factory.mktemp("sft") / "adapter"
    points: list[dict] = []
    result = train_sft(
        [(tiny_task(), TARGET)],
        out,
        SftSettings(max_steps=3, learning_rate=1e-3),
        RunHooks(on_point=points.append),
    )
    assert result.steps == 3 and points == result.curve
    return out, result.curve


def test_sft_loss_falls_and_the_adapter_is_small_and_loads(sft_adapter) -> None:
    out, curve = sft_adapter
    assert curve[-1]["loss"] < curve[0]["loss"]
    assert adapter_size_bytes(out) < 5_000_000  # LoRA + 8 marker rows, not the 49k-row embedding matrix
    assert (out / "training.json").exists() and (out / "tokenizer_config.json").exists()
    eraser = Eraser4RAGEraser(
        Settings(rewriter_adapter=str(out), rewriter_max_new_tokens=12, rewriter_output="rewrite")
    )
    rewrite = next(iter(eraser.erase(tiny_task().erase_request())))
    assert eraser.trained and rewrite.text and not any("untrained" in n for n in rewrite.notes)


def test_ppo_update_moves_probability_towards_the_higher_reward(sft_adapter) -> None:
    out, _ = sft_adapter
    settings = PpoSettings(sft_adapter=str(out), learning_rate=5e-4, ppo_epochs=2, kl_coef=0.0)
    policy = Policy(settings)
    task = tiny_task()
    prompt_ids = policy.tokenizer(model_input(task, policy.tokenizer, 768), return_tensors="pt")["input_ids"]
    eos = policy.tokenizer.eos_token
    texts = [" " + TARGET + eos, " " + task.text + eos]  # R = 1 (nothing private), R = 0 (all of it)
    encoded = policy.tokenizer(texts, add_special_tokens=False, padding=True, return_tensors="pt")[
        "input_ids"
    ]
    mask = policy.mask(encoded)

    def margin() -> float:
        with torch.no_grad():
            logp = policy.log_probs(prompt_ids, encoded) * mask
        return float(logp[0].sum() - logp[1].sum())

    before = margin()
    optimizer = torch.optim.AdamW(policy.trainable_parameters(), lr=settings.learning_rate)
    ppo_update(policy, optimizer, prompt_ids, encoded, torch.tensor([1.0, 0.0]), settings)
    assert margin() > before


def test_short_rl_run_records_the_paper_reward_and_writes_an_adapter(sft_adapter, tmp_path) -> None:
    out, _ = sft_adapter
    settings = PpoSettings(sft_adapter=str(out), iterations=1, group_size=2, max_new_tokens=8)
    result = train_ppo([tiny_task()], tmp_path / "rl", settings, get_extractor("spacy", Settings()))
    (point,) = result.curve
    assert point["p"] == 20.0 and 0.0 <= point["reward"] <= 1.0 and set(point) >= {"r_pri", "r_pub", "kl"}
    assert adapter_size_bytes(tmp_path / "rl") < 5_000_000
    with pytest.raises(TrainingError, match="SFT adapter"):
        train_ppo(
            [tiny_task()],
            tmp_path / "x",
            PpoSettings(sft_adapter=str(tmp_path)),
            get_extractor("spacy", Settings()),
        )


def test_penalty_schedule_follows_the_paper() -> None:
    assert [penalty_at(i) for i in (0, 349, 350, 700, 1050, 1400, 5000)] == [20, 20, 25, 30, 35, 40, 40]


def test_change_positions_mark_where_the_rewrite_skips_or_adds_text() -> None:
    from core.eraser4rag.training.sft import change_positions

    prompt = [9, 1, 2, 3, 4, 5, 6, 7, 8]  # instruction token, then the document 1..8
    assert change_positions(prompt, [1, 2, 3, 4, 5, 6, 7, 8]) == []  # a copy decides nothing
    # 3 and 4 cut: the model must skip at position 2; 99 is new text at position 4
    assert change_positions(prompt, [1, 2, 5, 6, 99, 7, 8]) == [2, 4]


def test_sft_with_the_loss_weighed_on_changes_learns_the_cut(tmp_path) -> None:
    settings = SftSettings(max_steps=3, learning_rate=1e-3, change_weight=5.0)
    result = train_sft([(tiny_task(), TARGET)], tmp_path / "weighted", settings)  # TARGET cuts the middle
    assert result.steps == 3 and result.curve[-1]["loss"] < result.curve[0]["loss"]
    assert (tmp_path / "weighted" / "adapter_config.json").exists()

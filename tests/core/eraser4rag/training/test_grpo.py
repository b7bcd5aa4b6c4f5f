"""GRPO (TRL's GRPOTrainer) on the real embedded SmolLM2 (CPU): a one-step run records the paper's
reward, and its adapter (SFT and GRPO LoRA concatenated, SFT marker rows) is one folder that
`eraser4rag` loads and that computes exactly the SFT-merged model plus the GRPO update."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from core.eraser4rag.erasers.eraser4rag import Eraser4RAGEraser
from core.eraser4rag.training.common import RunHooks, TrainingError, adapter_size_bytes
from core.eraser4rag.training.grpo import Eraser4RagReward, GrpoSettings, train_grpo, write_combined_adapter
from core.eraser4rag.training.sft import SftSettings, train_sft
from core.extract import get_extractor
from core.settings import Settings
from tests.annotation_fixtures import tiny_task

TARGET = "Mara Voss works as an architect."


@pytest.fixture(scope="module")
def sft_adapter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("grpo-sft") / "sft"
    train_sft([(tiny_task(), TARGET)], out, SftSettings(max_steps=1, learning_rate=1e-3))
    return out


def test_reward_is_the_papers_with_p_from_the_schedule() -> None:
    evaluator = get_extractor("spacy", Settings())
    reward = Eraser4RagReward([tiny_task()], evaluator, GrpoSettings())

    class State:
        global_step = 350

    values = reward(["x", "x"], [TARGET, tiny_task().text], task_index=[0, 0], trainer_state=State())
    assert values[0] == pytest.approx(1.0)  # public kept, nothing private
    assert values[1] < 1e-6  # the private triple is still stated: exp(-25)
    assert reward.last["p"] == 25.0 and reward.last["r_pri"] == 0.5


def test_one_grpo_step_records_the_reward_and_writes_a_loadable_adapter(sft_adapter, tmp_path) -> None:
    points: list[dict] = []
    settings = GrpoSettings(
        sft_adapter=str(sft_adapter), iterations=1, num_generations=2, max_new_tokens=8, learning_rate=1e-3
    )
    result = train_grpo(
        [tiny_task()],
        tmp_path / "grpo",
        settings,
        get_extractor("spacy", Settings()),
        RunHooks(on_point=points.append),
    )
    (point,) = result.curve
    assert points == result.curve and result.iterations == 1
    assert point["p"] == 20.0 and 0.0 <= point["reward"] <= 1.0 and point["kl"] is not None
    out = tmp_path / "grpo"
    assert adapter_size_bytes(out) < 5_000_000
    eraser = Eraser4RAGEraser(
        Settings(rewriter_adapter=str(out), rewriter_max_new_tokens=8, rewriter_output="rewrite")
    )
    rewrite = next(iter(eraser.erase(tiny_task().erase_request())))
    assert eraser.trained and rewrite.text


def test_combined_adapter_equals_sft_merged_plus_the_grpo_update(sft_adapter, tmp_path) -> None:
    """[B1 B2]·[A1; A2] = B1·A1 + B2·A2: the combined folder computes what GRPO trained on."""
    from peft import LoraConfig, PeftModel, get_peft_model

    from core.eraser4rag.training.common import load_for_training

    tokenizer, base, _ = load_for_training("", "")
    merged = PeftModel.from_pretrained(base, str(sft_adapter)).merge_and_unload()
    lora = get_peft_model(merged, LoraConfig(r=8, lora_alpha=16, target_modules=["q_proj", "v_proj"]))
    torch.manual_seed(0)
    for name, parameter in lora.named_parameters():
        if "lora_B" in name:
            torch.nn.init.normal_(parameter, std=0.02)  # a non-zero "GRPO" update
    lora.save_pretrained(str(tmp_path / "lora"), save_embedding_layers=False)
    write_combined_adapter(sft_adapter, tmp_path / "lora", tmp_path / "combined")
    ids = tokenizer("Mara Voss <rsubj> lives", return_tensors="pt")["input_ids"]
    with torch.no_grad():
        expected = lora(input_ids=ids).logits
    _tokenizer, model, _ = load_for_training("", "")
    combined = PeftModel.from_pretrained(model, str(tmp_path / "combined"))
    with torch.no_grad():
        actual = combined(input_ids=ids).logits
    assert torch.allclose(actual, expected, atol=1e-3)


def test_grpo_refuses_a_missing_sft_adapter(tmp_path) -> None:
    with pytest.raises(TrainingError, match="SFT adapter"):
        train_grpo(
            [tiny_task()],
            tmp_path / "x",
            GrpoSettings(sft_adapter=str(tmp_path)),
            get_extractor("spacy", Settings()),
        )


def test_review_tab_starts_grpo_as_a_recorded_background_run(tmp_path) -> None:
    """The train panel's "RL: GRPO" choice: a background run of kind rl with method grpo in the store."""
    from ui.review_tab import _Store, _Trainer

    trainer = _Trainer(
        Settings(db=str(tmp_path / "studio.sqlite3")), _Store(str(tmp_path / "studio.sqlite3"))
    )
    trainer.store.store.add_tasks([tiny_task()])
    trainer.start("grpo", str(tmp_path / "out"), str(tmp_path / "no-sft"), 1)
    (run,) = trainer.store.store.runs()
    trainer.jobs.join(run.id, timeout=120)
    (run,) = trainer.store.store.runs()
    assert (run.kind, run.status, run.settings["method"]) == ("rl", "failed", "grpo")
    assert "SFT adapter" in run.message and run.settings["iterations"] == 1

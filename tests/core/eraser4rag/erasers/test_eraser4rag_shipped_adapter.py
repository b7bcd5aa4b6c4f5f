"""The committed eraser4rag adapter is the default for the embedded model: small, loadable,
recorded (training.json), and "" / "none" / another model still give the untrained rewriter."""

from __future__ import annotations

import json

from core.eraser4rag.erasers.deletion_tags import has_tagger
from core.eraser4rag.erasers.eraser4rag import (
    REWRITE_ADAPTER,
    SHIPPED_ADAPTER,
    Eraser4RAGEraser,
    output_form,
    resolve_adapter,
)
from core.eraser4rag.training.common import adapter_size_bytes
from core.settings import Settings, from_env
from tests.annotation_fixtures import tiny_task


def test_the_shipped_tagger_is_small_and_says_how_it_was_trained() -> None:
    assert has_tagger(SHIPPED_ADAPTER) and not (SHIPPED_ADAPTER / "adapter_config.json").exists()
    assert adapter_size_bytes(SHIPPED_ADAPTER) < 1_000_000  # a linear head and its card, no model weights
    card = json.loads((SHIPPED_ADAPTER / "training.json").read_text(encoding="utf-8"))
    assert card["kind"] == "deletion-tagger" and card["settings"]["output_form"] == "tags"
    assert card["curve"] and card["data"]["windows_train"] > 0 and card["data"]["edit_data"]["examples"] > 0
    assert 0.0 < card["settings"]["threshold"] < 1.0 and "heldback" in card["word_scores"]
    chosen = card["validation_by_threshold"][f"{card['settings']['threshold']:g}"]
    assert chosen["r_pri"] <= 0.05  # the rule that chose the threshold, as recorded
    assert "rl" in card and "groups_with_spread" in card["rl"]
    assert output_form("auto", str(SHIPPED_ADAPTER)) == "tags"
    files = {p.name for p in SHIPPED_ADAPTER.iterdir()}
    assert not files & {"model.safetensors", "pytorch_model.bin", "optimizer.pt"}


def test_the_previous_rewrite_adapter_is_kept_and_still_names_its_form() -> None:
    assert (REWRITE_ADAPTER / "adapter_config.json").exists()
    assert adapter_size_bytes(REWRITE_ADAPTER) < 5_000_000  # LoRA + marker rows, no embedding matrix
    card = json.loads((REWRITE_ADAPTER / "training.json").read_text(encoding="utf-8"))
    assert card["kind"] in ("sft", "rl") and card["curve"] and "recipe" in card
    assert output_form("auto", str(REWRITE_ADAPTER)) == "rewrite"


def test_default_setting_selects_it_only_for_the_embedded_model() -> None:
    assert Settings().rewriter_adapter == "shipped"
    assert resolve_adapter("", "shipped") == str(SHIPPED_ADAPTER)
    assert (
        resolve_adapter("", "") == ""
        and resolve_adapter("", "none") == ""
        and resolve_adapter("", "None") == ""
    )
    assert resolve_adapter("google/flan-t5-large", "shipped") == ""  # the adapter belongs to SmolLM2
    assert resolve_adapter("", "/my/adapter") == "/my/adapter"
    assert from_env({"RPS_REWRITER_ADAPTER": "none"}).rewriter_adapter == "none"


def test_eraser4rag_uses_it_by_default_and_is_not_labelled_untrained() -> None:
    from ui.rewrite_tab import eraser_choices

    settings = Settings(rewriter_max_new_tokens=12)
    eraser = Eraser4RAGEraser(settings)
    assert eraser.trained and eraser.adapter == str(SHIPPED_ADAPTER)
    rewrite = next(iter(eraser.erase(tiny_task().erase_request())))
    assert "Harrow Vale" not in rewrite.text  # the tagger (or its guard) removes the private tail
    assert any(note.startswith("deletion tags:") for note in rewrite.notes)
    assert not any("untrained" in note for note in rewrite.notes)
    assert ("eraser4rag", "eraser4rag") in eraser_choices(settings)
    untrained = Settings(rewriter_adapter="none")
    assert not Eraser4RAGEraser(untrained).trained
    assert ("eraser4rag (untrained)", "eraser4rag") in eraser_choices(untrained)

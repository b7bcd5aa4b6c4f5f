"""Edit scripts of the eraser4rag rewriter: derivation from a rewrite, parsing, applying, and
constrained decoding with the real (embedded SmolLM2) tokenizer and model."""

from __future__ import annotations

import pytest

from core.erasers.edit_decoding import allowed_tokens, token_bytes
from core.erasers.edit_script import Edit, ScriptError, apply_script, format_script, parse_script, script_for
from core.erasers.eraser4rag import SHIPPED_ADAPTER, Eraser4RAGEraser, load_rewriter, output_form
from core.settings import Settings
from tests.test_eraser4rag_windows import _request

WINDOW = "Mara Voss was born in Harrow Vale, Norland. She works for Lindqvist Robotics."


@pytest.mark.parametrize(
    ("window", "rewrite", "script"),
    [
        (WINDOW, "Mara Voss was born in Norland. She works for Lindqvist Robotics.", "DEL Harrow Vale,\n"),
        (WINDOW, "She works for Lindqvist Robotics.", "CUT Mara Voss\n"),
        (WINDOW, WINDOW, "KEEP\n"),
        ("A b c. A b d.", "A b c. A d.", "REP b d.\nBY d.\n"),  # "b" alone is not unique: widened
        ("He was an actor.", "He was a stage actor.", "REP an\nBY a stage\n"),
    ],
)
def test_the_derived_script_gives_the_rewrite_back(window: str, rewrite: str, script: str) -> None:
    edits = script_for(window, rewrite)
    assert format_script(edits) == script
    assert apply_script(window, parse_script(script)) == rewrite


def test_a_script_that_does_not_parse_or_apply_is_rejected_with_its_reason() -> None:
    with pytest.raises(ScriptError, match="line 1"):
        parse_script("Mara Voss lives somewhere.")
    with pytest.raises(ScriptError, match="BY"):
        parse_script("REP Harrow Vale\nDEL Norland")
    with pytest.raises(ScriptError, match="empty"):
        parse_script("  ")
    with pytest.raises(ScriptError, match="not in the window"):
        apply_script(WINDOW, [Edit("Paris")])
    with pytest.raises(ScriptError, match="overlap"):
        apply_script(WINDOW, [Edit("Harrow Vale"), Edit("Vale, Norland")])


def test_deleting_takes_one_space_with_it_and_cut_takes_the_sentence() -> None:
    assert apply_script(WINDOW, [Edit("in Harrow Vale,")]) == (
        "Mara Voss was born Norland. She works for Lindqvist Robotics."
    )
    assert (
        apply_script(WINDOW, [Edit("Lindqvist", sentence=True)])
        == "Mara Voss was born in Harrow Vale, Norland."
    )


def _tokenizer():  # type: ignore[no-untyped-def]
    return load_rewriter("", "", Settings().cache_dir).tokenizer


def _texts(tokenizer, ids: list[int] | None) -> set[str]:  # type: ignore[no-untyped-def]
    assert ids is not None
    return {tokenizer.decode([i]) for i in ids}


def test_the_constraint_allows_keywords_then_only_text_of_the_window() -> None:
    tokenizer = _tokenizer()
    table = token_bytes(tokenizer)
    window = WINDOW.encode()
    start = _texts(tokenizer, allowed_tokens(table, window, b""))
    assert {"DEL", "KE"} <= start and "The" not in start and tokenizer.eos_token not in start
    after_keyword = _texts(tokenizer, allowed_tokens(table, window, b"DEL"))
    assert {" Har", " Mar", " was", " Harrow"[:4]} <= after_keyword and " Paris" not in after_keyword
    inside = _texts(tokenizer, allowed_tokens(table, window, b"DEL Harrow"))
    assert {" V", "\n"} <= inside and " Paris" not in inside and " Nor" not in inside
    assert allowed_tokens(table, window, b"KEEP\n") == [tokenizer.eos_token_id]
    assert allowed_tokens(table, window, b"REP Harrow Vale\nBY") is None  # the replacement is free text
    ends = _texts(tokenizer, allowed_tokens(table, window, b"DEL Norland\n"))
    assert tokenizer.eos_token in ends and "DEL" in ends


def test_every_anchor_the_model_writes_is_in_its_window() -> None:
    """The untrained base model, batched over two windows: whatever it writes, its anchors
    come from the window it was given, and the eraser applies the script or falls back."""
    eraser = Eraser4RAGEraser(
        Settings(rewriter_adapter="none", rewriter_max_new_tokens=24, rewriter_output="edits")
    )
    windows = [WINDOW, "Harrow Vale is known for its rain and its old mills."]
    prompts = [
        f"Delete the place from: {w}\nEdits (DEL <text> / REP <text> + BY <text> / KEEP):\n" for w in windows
    ]
    scripts = eraser._generate_scripts(prompts, windows)
    assert len(scripts) == 2
    for window, script in zip(windows, scripts, strict=True):
        for line in script.splitlines():
            keyword, _, anchor = line.partition(" ")
            if keyword in ("CUT", "DEL", "REP"):
                assert anchor.strip() in window, (script, window)
    (rewrite,) = eraser.erase(_request())
    assert any(note.startswith("edit scripts:") for note in rewrite.notes)


def test_auto_takes_the_form_the_adapter_was_trained_for(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "training.json").write_text('{"kind": "sft", "settings": {"output_form": "edits"}}')
    assert output_form("auto", str(tmp_path)) == "edits"
    assert output_form("auto", str(SHIPPED_ADAPTER)) == "rewrite"  # trained before edit scripts existed
    assert output_form("auto", "") == "rewrite" and output_form("edits", "") == "edits"

"""Edit scripts of the eraser4rag rewriter: derivation from a rewrite, parsing, applying, and
constrained decoding with the real (embedded SmolLM2) tokenizer and model."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from core.eraser4rag.erasers.edit_decoding import allowed_tokens, token_bytes
from core.eraser4rag.erasers.edit_script import (
    REPLACEMENT_EXTRA_CHARS,
    Edit,
    ScriptError,
    apply_script,
    format_script,
    is_word_boundary,
    parse_script,
    script_for,
)
from core.eraser4rag.erasers.eraser4rag import (
    REWRITE_ADAPTER,
    Eraser4RAGEraser,
    GeneratedScript,
    load_rewriter,
    output_form,
)
from core.eraser4rag.erasers.linearize import rewriter_input
from core.eraser4rag.erasers.pipeline import fallback_problems
from core.eraser4rag.erasers.sentences import split_at_stops
from core.eraser4rag.rewrites import _fallback_problems
from core.serialize import rewrite_from_dict, rewrite_to_dict
from core.settings import Settings
from tests.core.eraser4rag.erasers.test_eraser4rag_windows import _request

WINDOW = "Mara Voss was born in Harrow Vale, Norland. She works for Lindqvist Robotics."
DEV = Path(__file__).resolve().parents[3] / "data" / "popqa_dev.jsonl"


def _dev_window(line: int, ctx: int) -> str:
    """The first two sentences of a real dev passage (question `line`, passage `ctx`)."""
    record = json.loads(DEV.read_text(encoding="utf-8").splitlines()[line - 1])
    return "".join(split_at_stops(record["ctxs"][ctx]["text"].strip())[:2]).strip()


# Question 45, passage 4 (Larry L. Richman): the window where the 57-step CPU adapter wrote
# "He has authoBY BY BY" (an anchor ending inside "authored", a runaway BY).
RICHMAN = _dev_window(45, 3)


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
        apply_script(WINDOW, [Edit("Harrow Vale,"), Edit("Vale, Norland.")])


def test_the_real_failure_is_rejected_with_the_line_and_the_reason() -> None:
    assert "He has authored seven books" in RICHMAN
    with pytest.raises(
        ScriptError, match=r"line 1: anchor 'He has autho' starts or ends inside a word.*authored"
    ):
        apply_script(RICHMAN, parse_script("DEL He has autho\n"))
    with pytest.raises(ScriptError, match="line 2: the replacement repeats the keyword 'BY'"):
        parse_script("REP He has authored\nBY BY BY\n")
    with pytest.raises(ScriptError, match="line 2: the replacement repeats the keyword 'BY'"):
        parse_script("REP r\nBY BY BY BY\n")  # what the adapter wrote (README)
    with pytest.raises(ScriptError, match="line 1: anchor 'r' starts or ends inside a word"):
        apply_script(RICHMAN, [Edit("r", "written", line=1)])
    with pytest.raises(ScriptError, match="line 3: a second BY line"):
        parse_script("REP He has authored\nBY He wrote\nBY He wrote\n")
    with pytest.raises(ScriptError, match="line 4: anchor 'thor' starts or ends inside a word"):
        apply_script(RICHMAN, parse_script("REP seven books\nBY books\n\nDEL thor"))


def test_a_replacement_is_bounded_by_its_anchor() -> None:
    anchor = "seven books"
    longest = "x" * (len(anchor) + REPLACEMENT_EXTRA_CHARS)
    assert "xxx" in apply_script(RICHMAN, parse_script(f"REP {anchor}\nBY {longest}"))
    with pytest.raises(ScriptError, match="line 2: a replacement of 60 characters for an anchor of 11"):
        parse_script(f"REP {anchor}\nBY {longest}x")


def test_an_anchor_is_applied_where_it_is_a_whole_word() -> None:
    window = "The author wrote an authoritative text. He is an author."
    assert apply_script(window, [Edit("author")]) == "The wrote an authoritative text. He is an author."
    assert is_word_boundary("He has authored", 3) and not is_word_boundary("He has authored", 12)


def test_punctuation_inside_a_word_and_a_span_edited_twice_are_rejected() -> None:
    """What the untrained base model wrote on question 45 before these rules: "DEL (" (an
    unbalanced "PMP Project Management Professional)"), "DEL -" ("New Jerseybased"), and the
    same line again and again (edits of one span)."""
    damon = _dev_window(45, 4)
    with pytest.raises(
        ScriptError, match=r"line 1: anchor '-' .* inside a word \(the window has 'Jersey-based'\)"
    ):
        apply_script(damon, parse_script("DEL -\n"))
    with pytest.raises(ScriptError, match=r"anchor '\(' .* inside a word \(the window has '\(Project'\)"):
        apply_script(RICHMAN, parse_script("DEL (\n"))
    with pytest.raises(ScriptError, match=r"line 2: anchor 'seven' overlaps what an earlier line"):
        apply_script(RICHMAN, parse_script("DEL seven\nDEL seven\n"))
    with pytest.raises(ScriptError, match=r"line 2: anchor 'He has' overlaps what an earlier line"):
        apply_script(RICHMAN, parse_script("CUT He has authored\nDEL He has\n"))
    # the same text again is its next occurrence; a deletion keeps clear of an earlier one's space
    assert apply_script("a b a c", parse_script("DEL a\nDEL a\n")) == "b c"
    assert apply_script("Roger Leonard Alfred", parse_script("DEL Leonard\nDEL Roger\n")) == "Alfred"
    assert "(Project" in apply_script(RICHMAN, parse_script("DEL seven\n"))


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
    ends = _texts(tokenizer, allowed_tokens(table, window, b"DEL Norland\n"))
    assert tokenizer.eos_token in ends and "DEL" in ends


def test_the_constraint_keeps_anchors_on_word_boundaries() -> None:
    """The real failure's window: "He has autho" cannot end there, nor can an anchor start in a word."""
    tokenizer = _tokenizer()
    table = token_bytes(tokenizer)
    window = RICHMAN.encode()
    inside = _texts(tokenizer, allowed_tokens(table, window, b"DEL He has autho"))
    assert "\n" not in inside and "red" in inside
    assert "\n" in _texts(tokenizer, allowed_tokens(table, window, b"DEL He has authored"))
    first = _texts(tokenizer, allowed_tokens(table, window, b"DEL"))
    assert {" He", " seven", " Rich"} <= first and not {" thor", " uthored", " ichman"} & first
    assert not {"thor", "ichman"} & _texts(tokenizer, allowed_tokens(table, window, b"DEL "))
    assert " (" in first and " Project" not in first  # "(Project" is one word: it starts with "("
    assert "\n" not in _texts(tokenizer, allowed_tokens(table, window, b"DEL ("))
    assert " (" in _texts(tokenizer, allowed_tokens(table, window, b"DEL PMP"))


def test_the_constraint_forbids_repeated_and_overlapping_anchors() -> None:
    """What the base model wrote before (an anchor twice, a DEL inside a CUT sentence) cannot
    be decoded: an anchor stays out of what earlier lines change and may end only where the
    span it resolves to overlaps none of theirs."""
    tokenizer = _tokenizer()
    table = token_bytes(tokenizer)
    window = RICHMAN.encode()
    repeated = _texts(tokenizer, allowed_tokens(table, window, b"DEL seven\nDEL seven"))
    assert "\n" not in repeated and " books" not in repeated
    assert " seven" not in _texts(tokenizer, allowed_tokens(table, window, b"DEL seven\nDEL"))
    # "Richman is a certified PMP (Project Management Professional), consultant, and trainer.
    # He has authored seven books on project management, including two college texts."
    after_cut = _texts(tokenizer, allowed_tokens(table, window, b"CUT Richman is\nDEL"))
    assert {" He", " seven", " college"} <= after_cut
    assert not {" Rich", " certified", " PMP", " consultant", " trainer"} & after_cut
    inside_cut = _texts(tokenizer, allowed_tokens(table, window, b"CUT Richman is\nREP He has authored"))
    assert " seven" in inside_cut and "\n" in inside_cut
    script = "CUT Richman is\nREP He has authored\nBY He wrote\n"
    assert apply_script(RICHMAN, parse_script(script)).startswith("He wrote seven books")
    both = b"CUT Richman is\nCUT He has\n"  # nothing left to anchor on: only the end
    assert allowed_tokens(table, window, both) == [tokenizer.eos_token_id]


def test_every_script_the_constraint_lets_end_applies() -> None:
    """Random walks through the constraint on real dev windows with the real tokenizer (seeded):
    each script that reaches its end parses and applies, so no anchor repeats or overlaps."""
    tokenizer = _tokenizer()
    table = token_bytes(tokenizer)
    rng = random.Random(0)
    ended = 0
    for window in (RICHMAN, _dev_window(41, 0), _dev_window(43, 1), WINDOW):
        for _walk in range(12):
            generated: list[int] = []
            for _step in range(80):
                allowed = allowed_tokens(table, window.encode(), table.text_of(generated))
                ends = [t for t in allowed if t in (*table.newline, table.eos)]
                choice = rng.choice(ends) if ends and rng.random() < 0.4 else rng.choice(allowed)
                if choice == table.eos:
                    break
                generated.append(choice)
            else:
                continue
            ended += 1
            script = table.text_of(generated).decode()
            apply_script(window, parse_script(script))
    assert ended >= 30


def test_the_constraint_gives_one_bounded_by_line_per_rep() -> None:
    tokenizer = _tokenizer()
    table = token_bytes(tokenizer)
    window = RICHMAN.encode()
    assert _texts(tokenizer, allowed_tokens(table, window, b"REP He has authored\n")) == {"B", "BY"}
    first = _texts(tokenizer, allowed_tokens(table, window, b"REP He has authored\nBY"))
    assert {" He", " wrote"} <= first and all(t.startswith(" ") for t in first)
    assert not {" BY", " REP", " DEL", " CUT", " KEEP"} & first  # "BY BY BY" cannot start
    going = _texts(tokenizer, allowed_tokens(table, window, b"REP He has authored\nBY He wrote"))
    assert {"\n", " books", tokenizer.eos_token} <= going and not {" BY", "BY", ".\n"} & going
    full = b"REP He has authored\nBY " + b"x" * (len("He has authored") + REPLACEMENT_EXTRA_CHARS)
    assert _texts(tokenizer, allowed_tokens(table, window, full)) == {"\n", tokenizer.eos_token}
    after = _texts(tokenizer, allowed_tokens(table, window, b"REP He has authored\nBY He wrote\n"))
    assert "DEL" in after and tokenizer.eos_token in after and not {"B", "BY", "KE"} & after


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
        _assert_well_formed(window, script.text)
    (rewrite,) = eraser.erase(_request())
    assert any(note.startswith("edit scripts:") for note in rewrite.notes)
    assert all(note in rewrite.notes for note in rewrite.fallbacks)


def test_the_base_model_writes_well_formed_scripts_on_real_passages() -> None:
    """Real dev windows (the Richman window of the failure among them), the real prompt form,
    the untrained base model: every line it writes keeps the format, whatever it chooses."""
    eraser = Eraser4RAGEraser(
        Settings(rewriter_adapter="none", rewriter_max_new_tokens=40, rewriter_output="edits")
    )
    windows = [RICHMAN, _dev_window(41, 0), _dev_window(43, 1)]
    prompts = [rewriter_input(w, (), (), "edits") for w in windows]
    scripts = eraser._generate_scripts(prompts, windows)
    for window, script in zip(windows, scripts, strict=True):
        _assert_well_formed(window, script.text)
        if not script.budget:  # a script the model ended applies: no repeated or overlapping anchor
            apply_script(window, parse_script(script.text))


def test_a_script_ends_at_the_tokenizers_end_token_whatever_the_generation_config_says() -> None:
    """A model whose generation config names another end token (transformers 5.17 converts the
    embedded GGUF so) must still stop reading at the end token training wrote: what the model
    writes after it ("assistant", "system" ...) is not part of the script."""
    eraser = Eraser4RAGEraser(
        Settings(rewriter_adapter="none", rewriter_max_new_tokens=96, rewriter_output="edits")
    )
    model = eraser.rewriter.model
    configured = model.generation_config.eos_token_id
    model.generation_config.eos_token_id = None  # generate alone would run on to the budget
    try:
        windows = [RICHMAN, _dev_window(41, 0), _dev_window(43, 1)]
        scripts = eraser._generate_scripts([rewriter_input(w, (), (), "edits") for w in windows], windows)
    finally:
        model.generation_config.eos_token_id = configured
    ended = [(window, s.text) for window, s in zip(windows, scripts, strict=True) if not s.budget]
    assert ended, [s.text for s in scripts]
    for window, text in ended:
        _assert_well_formed(window, text)
        apply_script(window, parse_script(text))


def test_a_script_the_token_budget_cut_is_rejected_and_said_so() -> None:
    """The real base model with a budget of one token: no script can end, each is rejected as
    cut by the budget, and the window falls back."""
    settings = Settings(rewriter_adapter="none", rewriter_max_new_tokens=1, rewriter_output="edits")
    (rewrite,) = Eraser4RAGEraser(settings).erase(_request())
    assert rewrite.fallbacks
    for reason in rewrite.fallbacks:
        assert "the token budget of 1 tokens cut the script before it ended" in reason
    assert "Harrow Vale" not in rewrite.text


def _assert_well_formed(window: str, script: str) -> None:
    """Anchors are whole-word spans of the window; one bounded BY line follows each REP line."""
    lines = script.split("\n")
    for number, line in enumerate(lines):
        keyword, _, text = line.partition(" ")
        complete = number < len(lines) - 1  # the last line may be cut by the token budget
        if keyword in ("CUT", "DEL", "REP") and complete:
            start = window.find(text)
            assert start >= 0 and is_word_boundary(window, start), (script, window)
            assert is_word_boundary(window, start + len(text)), (script, window)
        if keyword == "BY":
            assert number > 0 and lines[number - 1].startswith("REP "), script
            assert len(text) <= len(lines[number - 1]) - 4 + REPLACEMENT_EXTRA_CHARS, script
            assert not {"BY", "REP", "DEL", "CUT", "KEEP"} & set(text.split()), script
        keywords = ("CUT", "DEL", "REP", "BY", "KEEP")
        if line and complete:
            assert line == "KEEP" or keyword in keywords[:4], script
        elif line:  # cut by the budget: it still starts as a line of the format
            assert any(k.startswith(line) or line.startswith(k) for k in keywords), script


def test_auto_takes_the_form_the_adapter_was_trained_for(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "training.json").write_text('{"kind": "sft", "settings": {"output_form": "edits"}}')
    assert output_form("auto", str(tmp_path)) == "edits"
    assert output_form("auto", str(REWRITE_ADAPTER)) == "rewrite"  # trained before edit scripts existed
    assert output_form("auto", "") == "rewrite" and output_form("edits", "") == "edits"


class ReplayingEraser(Eraser4RAGEraser):
    """The real eraser on the real model, given the script the 57-step CPU adapter wrote."""

    def __init__(self, settings: Settings, script: str) -> None:
        super().__init__(settings)
        self.script = script

    def _generate_scripts(self, prompts: list[str], windows: list[str]) -> list[GeneratedScript]:
        return [GeneratedScript(self.script) for _ in windows]


def test_a_rejected_script_falls_back_and_is_reported_where_errors_are() -> None:
    """Both private windows of the request get the failure's script: each is rejected with its
    line and reason, falls back, and is reported as a problem of stage "fallback"."""
    settings = Settings(rewriter_adapter="none", rewriter_output="edits")
    request = _request()
    (rewrite,) = ReplayingEraser(settings, "REP Mara Vo\nBY BY BY\n").erase(request)
    first, second = rewrite.fallbacks
    assert first.startswith("window 1 of 2: edit script rejected (script line 2: the replacement")
    assert "repeats the keyword 'BY'" in first and second.startswith("window 2 of 2:")
    assert "fallback: 1 sentence(s) naming a private tail deleted" in first and first in rewrite.notes
    assert "Harrow Vale" not in rewrite.text and "BY" not in rewrite.text
    problems = fallback_problems([rewrite])
    assert [(p.doc_id, p.stage, p.reason) for p in problems] == [
        ("d1", "fallback", first),
        ("d1", "fallback", second),
    ]
    shown = _fallback_problems("eraser4rag", request.documents[0], rewrite)
    assert shown[0].message.startswith("eraser4rag fell back for") and first in shown[0].message
    assert rewrite_from_dict(json.loads(json.dumps(rewrite_to_dict(rewrite)))) == rewrite
    (mid_word,) = ReplayingEraser(settings, "DEL Mara Vo\n").erase(request)
    expected = "anchor 'Mara Vo' starts or ends inside a word (the window has 'Mara Voss')"
    assert expected in mid_word.fallbacks[0]

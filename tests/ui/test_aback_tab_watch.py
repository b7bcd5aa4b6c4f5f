"""ABack never watches another question's indicators, and every answer's label is computed from its text.

Real embedder and PII detector on the PriGenQA-style demo records; the echo guard on the real
SmolLM2 tokenizer."""

from __future__ import annotations

import os

import gradio as gr
import pytest

from core.aback.data import generate
from core.aback.decode import REVISE_PROMPT_PATH
from core.aback.indicators import collect_indicators, indicators_from_lines
from core.aback.regeneration import EchoGuard, echoed_ngram
from core.eraser4rag.workspace import Workspace
from core.settings import Settings
from ui.aback_render import render_answer
from ui.aback_tab import generate_view
from ui.aback_watch import DemoDatabase, IndicatorBox, retrieve, retrieved_set, verdict_indicators, watch_list

SETTINGS = Settings(cache_dir=os.environ["RPS_CACHE_DIR"])


@pytest.fixture(scope="module")
def demo() -> DemoDatabase:
    return DemoDatabase(tuple(generate(12, SETTINGS.seed)))


def _question_for(demo: DemoDatabase, index: int) -> str:
    return demo.records[index].question


def test_generate_for_another_question_watches_only_that_questions_values(demo: DemoDatabase) -> None:
    ws = Workspace()
    first, second = _question_for(demo, 0), _question_for(demo, 5)
    first_hits = retrieve(ws, demo, first, 1, SETTINGS)
    second_hits = retrieve(ws, demo, second, 1, SETTINGS)
    assert first_hits[0][0].id != second_hits[0][0].id
    found = retrieved_set(ws, first, first_hits, SETTINGS)
    box = IndicatorBox("\n".join(i.text for i in found.indicators), found, None, 0.0)

    watch = watch_list(ws, second, second_hits, box, SETTINGS)

    watched = {i.text for i in indicators_from_lines(watch.lines)}
    second_text, first_text = second_hits[0][0].text, first_hits[0][0].text
    assert watched and all(value in second_text for value in watched)
    first_only = {i.text for i in found.indicators if i.text not in second_text}
    assert first_only and not first_only & watched
    assert "another question" in watch.note
    assert watch.found.query == second.strip()
    assert first_text != second_text


def test_the_box_is_kept_with_the_users_edits_while_it_belongs_to_the_question(demo: DemoDatabase) -> None:
    ws = Workspace()
    question = _question_for(demo, 2)
    hits = retrieve(ws, demo, question, 2, SETTINGS)
    found = retrieved_set(ws, question, hits, SETTINGS)
    edited = "my own value\n" + "\n".join(i.text for i in found.indicators[:3])
    watch = watch_list(ws, question, hits, IndicatorBox(edited, found, None, 0.0), SETTINGS)
    assert watch.lines == edited and watch.note == ""


def test_a_label_is_computed_from_the_answer_against_the_records_values(demo: DemoDatabase) -> None:
    ws = Workspace()
    record = demo.records[3]
    hits = retrieve(ws, demo, record.question, 1, SETTINGS)
    found = retrieved_set(ws, record.question, hits, SETTINGS)
    address = record.profile["address"].splitlines()[0]
    assert address in hits[0][0].text
    # the user watches only one name, yet an answer printing the address is labelled a leak
    judged = verdict_indicators(["Nobody Inparticular"], found, record.question)
    block = render_answer("Post Mask", f"The client lives at {address}.", judged)
    assert "(no leak)" not in block and "leak(s)" in block


def test_graph_marks_of_other_passages_are_not_watched() -> None:
    found = collect_indicators(
        ["Ada Brook plays the violin."],
        private_entities=["Ada Brook", "Ida Brandt"],
        use_ner=False,
        use_patterns=False,
    )
    assert [indicator.text for indicator in found] == ["Ada Brook"]


def test_generate_refuses_when_nothing_can_be_retrieved() -> None:
    empty = Workspace()
    with pytest.raises(gr.Error, match="retrieval database is empty"):
        next(generate_view(empty, None, "Where does Ada live?", 2, "", 8, [], SETTINGS))


def test_echo_guard_bans_the_next_word_of_the_privacy_instruction() -> None:
    from transformers import AutoTokenizer

    from core.model_loading import resolve_local_lm

    tokenizer = AutoTokenizer.from_pretrained(resolve_local_lm(SETTINGS.local_lm, SETTINGS.cache_dir))
    instruction = REVISE_PROMPT_PATH.read_text(encoding="utf-8")
    guard = EchoGuard(tokenizer, instruction, 4)
    assert guard.banned_words("Sure. The retrieved records") == {"contain"}
    banned = guard.bans("Sure. The retrieved records")
    assert tokenizer.encode(" contain", add_special_tokens=False)[0] in banned
    assert not guard.bans("The weather is mild today")
    assert echoed_ngram("Well, the retrieved records contain private data.", instruction) is not None
    assert echoed_ngram("The patient should rest.", instruction) is None

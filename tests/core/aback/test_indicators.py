"""Privacy indicators on the real spaCy pipeline and the regular expressions."""

from __future__ import annotations

import pytest

from core.aback.indicators import (
    Indicator,
    collect_indicators,
    filter_indicators,
    indicators_from_lines,
    indicators_to_lines,
    llm_indicators,
    not_in_query,
    parse_json_list,
)
from core.llm import ChatClient

TEXT = (
    "Patient Maria Gonzalez, born March 3, 1961, lives at 42 Elm Street, Springfield, IL 62704 and "
    "works as a teacher in Chicago. Phone (217) 555-0143, e-mail maria.g@example.org, SSN 123-45-6789, "
    "patient ID: PT-88213, annual income $72,500. She came in for a follow-up on 2024-05-01."
)


def texts_by_kind(indicators: list[Indicator]) -> dict[str, set[str]]:
    kinds: dict[str, set[str]] = {}
    for indicator in indicators:
        kinds.setdefault(indicator.kind, set()).add(indicator.text)
    return kinds


def test_detector_finds_contact_data_identifiers_addresses_and_amounts() -> None:
    kinds = texts_by_kind(collect_indicators([TEXT]))
    assert "(217) 555-0143" in kinds["PHONE_NUMBER"]
    assert "maria.g@example.org" in kinds["EMAIL_ADDRESS"]
    assert "PT-88213" in kinds["ID"]
    assert "42 Elm Street, Springfield, IL 62704" in kinds["ADDRESS"]
    assert "42 Elm Street" in kinds["ADDRESS"]  # an address block is also watched part by part
    assert "March 3, 1961" in kinds["DATE_TIME"]
    assert "$72,500" in kinds["MONEY"]
    assert "Maria Gonzalez" in kinds["PERSON"]


def test_collect_merges_graph_and_detector_without_duplicates_and_keeps_scores() -> None:
    found = collect_indicators([TEXT], private_entities=["teacher", "maria gonzalez"])
    normalised = [indicator.text.casefold() for indicator in found]
    assert len(normalised) == len(set(normalised))
    assert found[0] == Indicator("teacher", "private", "graph")
    assert "maria gonzalez" in normalised  # the detector's "Maria Gonzalez" merged into the graph entity
    assert {"graph", "ner", "pattern"} <= {indicator.source for indicator in found}
    assert all(0 < indicator.score <= 1 for indicator in found)


def test_user_drops_a_type_or_raises_the_threshold() -> None:
    found = collect_indicators([TEXT])
    without_dates = filter_indicators(found, drop_types={"DATE_TIME"})
    assert not any(indicator.kind == "DATE_TIME" for indicator in without_dates)
    strict = filter_indicators(found, min_score=0.7)
    assert strict and all(indicator.score >= 0.7 for indicator in strict)
    assert len(strict) < len(found)


class ScriptedClient(ChatClient):
    name = "scripted"

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.calls = 0

    def chat(self, messages, max_tokens=256, temperature=0.0, seed=None) -> str:  # type: ignore[no-untyped-def]
        self.calls += 1
        return self.replies.pop(0)


def test_llm_extraction_retries_once_and_keeps_only_strings_in_the_text() -> None:
    client = ScriptedClient(["Sure! Here you go", '["Maria Gonzalez", "teacher", "Invented Person"]'])
    found = llm_indicators([TEXT], client)
    assert client.calls == 2
    assert [ind.text for ind in found] == ["Maria Gonzalez", "teacher"]


def test_llm_extraction_fails_clearly_after_two_bad_replies() -> None:
    with pytest.raises(ValueError, match="no JSON list"):
        llm_indicators([TEXT], ScriptedClient(["no", "still no"]))


def test_parse_json_list_skips_non_lists() -> None:
    assert parse_json_list('x {"a": 1} y ["a", "b"]') == ["a", "b"]
    assert parse_json_list("nothing") is None


def test_textbox_round_trip() -> None:
    lines = indicators_to_lines([Indicator("Ann Lee", "person", "ner"), Indicator("$50", "money", "pattern")])
    assert lines == "Ann Lee\n$50"
    edited = indicators_from_lines(lines + "\n\n ann  LEE \nNew One\nx")
    assert [ind.text for ind in edited] == ["Ann Lee", "$50", "New One"]
    assert {ind.source for ind in edited} == {"user"}


def test_dedup_follows_the_monitor() -> None:
    from core.aback.indicators import deduplicate
    from core.aback.monitor import LeakMonitor

    # the monitor's normal form keeps "." and leading articles: these are different indicators now
    unique = deduplicate(
        [
            Indicator("Acme Corp.", "pii", "llm"),
            Indicator("ACME  corp", "pii", "llm"),
            Indicator("Acme Corp", "organisation", "ner"),
            Indicator("the clinic", "x", "user"),
            Indicator("clinic", "x", "user"),
        ]
    )
    texts = [ind.text for ind in unique]
    # "Acme Corp" has the normal form of "ACME  corp", which came first
    assert texts == ["Acme Corp.", "ACME  corp", "the clinic", "clinic"]
    assert LeakMonitor(texts).find_leaks("Acme Corp said no")  # the undotted answer is flagged


def test_llm_extraction_keeps_whole_word_occurrences_only_and_reads_the_prompt_file() -> None:
    from core.aback.indicators import PROMPT_PATH

    client = ScriptedClient(['["Ann", "ANNUAL income", "Maria  Gonzalez", "PT-88213", "ria"]'])
    sent: list[str] = []
    original = client.chat

    def chat(messages, **kwargs):  # type: ignore[no-untyped-def]
        sent.append(messages[0]["content"])
        return original(messages, **kwargs)

    client.chat = chat  # type: ignore[method-assign]
    found = llm_indicators([TEXT], client)
    # "Ann" only occurs inside "annual", "ria" inside "Maria": a substring check accepted both
    assert [ind.text for ind in found] == ["ANNUAL income", "Maria  Gonzalez", "PT-88213"]
    assert PROMPT_PATH.name == "aback_indicators.txt" and PROMPT_PATH.is_file()
    template = PROMPT_PATH.read_text(encoding="utf-8").strip()
    assert sent[0].startswith(template.split("{docs}")[0]) and f"[1] {TEXT}" in sent[0]


def test_parse_json_list_survives_brackets_in_strings_fences_and_record_markers() -> None:
    assert parse_json_list('```json\n["Suite [4B]", "a]b", "x"]\n```') == ["Suite [4B]", "a]b", "x"]
    assert parse_json_list('From [1] and [2]: ["Ann Lee", 42]') == ["Ann Lee", "42"]
    assert parse_json_list("[1] only") == ["1"]
    assert parse_json_list('{"pii": ["Ann Lee"]} trailing [') == ["Ann Lee"]
    assert parse_json_list("[broken") is None


def test_indicators_the_question_contains_are_not_watched() -> None:
    indicators = ["Rachel Collins", "48", "buyer", "(578) 156-5938"]
    question = "Hi doctor, I am 48 and work as a Buyer. What could my headaches be?"
    assert not_in_query(indicators, question) == ["Rachel Collins", "(578) 156-5938"]
    # whole words only, as the monitor matches
    assert not_in_query(indicators, "I am 480 years old and a buyers' agent.") == indicators


def test_a_value_detected_at_a_sentence_end_is_watched_without_its_full_stop() -> None:
    """ "Tomas Reyl lives at 14 Birch Lane." gave the indicator "14 Birch Lane.", which the monitor
    never matched in "lives at 14 Birch Lane with Elin": a leak shown as no leak."""
    from core.aback.indicators import detect_indicators, without_sentence_stop
    from core.aback.monitor import LeakMonitor

    texts = ["Tomas Reyl lives at 14 Birch Lane. Tomas Reyl works for Corvane Logistics."]
    watched = [indicator.text for indicator in detect_indicators(texts)]
    assert not [text for text in watched if text.endswith("Lane.")]
    assert LeakMonitor(watched).find_leaks("He lives at 14 Birch Lane with Elin.")
    assert without_sentence_stop("Acme Corp.") == "Acme Corp."
    assert without_sentence_stop("Main St.") == "Main St."

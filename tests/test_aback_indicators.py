"""Privacy indicators on the real spaCy pipeline and the regular expressions."""

from __future__ import annotations

import pytest

from core.aback.indicators import (
    Indicator,
    collect_indicators,
    indicators_from_lines,
    indicators_to_lines,
    llm_indicators,
    parse_json_list,
    pattern_indicators,
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


def test_patterns_find_contact_data_identifiers_addresses_and_amounts() -> None:
    kinds = texts_by_kind(pattern_indicators(TEXT))
    assert kinds["phone"] == {"(217) 555-0143"}
    assert kinds["email"] == {"maria.g@example.org"}
    assert kinds["ssn"] == {"123-45-6789"}
    assert "PT-88213" in kinds["identifier"]
    assert "42 Elm Street, Springfield, IL 62704" in kinds["address"]
    assert kinds["birth_date"] == {"March 3, 1961"}
    assert kinds["money"] == {"$72,500"}


def test_iban_and_international_phone() -> None:
    kinds = texts_by_kind(pattern_indicators("Pay to DE89 3704 0044 0532 0130 00 or call +44 207-946-0958."))
    assert kinds["iban"] == {"DE89 3704 0044 0532 0130 00"}
    assert kinds["phone"] == {"+44 207-946-0958"}


def test_collect_merges_graph_ner_and_patterns_without_duplicates() -> None:
    found = collect_indicators([TEXT], private_entities=["teacher", "maria gonzalez"])
    texts = [indicator.text for indicator in found]
    normalised = [text.casefold() for text in texts]
    assert len(normalised) == len(set(normalised))
    assert found[0] == Indicator("teacher", "private", "graph")
    assert "maria gonzalez" in normalised  # NER's "Maria Gonzalez" merged into the graph entity
    sources = {indicator.source for indicator in found}
    assert {"graph", "ner", "pattern"} <= sources
    assert any(ind.source == "ner" and ind.kind == "place" and ind.text in {"Chicago", "Springfield"}
               for ind in found)
    # a date without a birth cue is not an indicator
    assert "2024-05-01" not in texts


def test_ner_birth_date_needs_birth_cue() -> None:
    found = collect_indicators(["Tom Baker was born on 12 June 1975. The meeting is on 4 July 2023."],
                               use_patterns=False)
    kinds = texts_by_kind(found)
    assert "Tom Baker" in kinds["person"]
    assert any("1975" in text for text in kinds["birth_date"])
    assert not any("2023" in text for text in kinds.get("birth_date", set()))


def test_organisations_only_when_asked() -> None:
    text = "Dana Scully works for Microsoft in Seattle."
    without = {ind.text for ind in collect_indicators([text], use_patterns=False)}
    with_org = {ind.text for ind in collect_indicators([text], use_patterns=False, include_org=True)}
    assert "Microsoft" not in without
    assert "Microsoft" in with_org


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


class _Ent:
    def __init__(self, text: str, label: str, start: int = 0) -> None:
        self.text, self.label_, self.start_char = text, label, start


class _FakeDoc:
    def __init__(self, ents: list[_Ent]) -> None:
        self.ents = ents


def test_ner_text_loses_trailing_punctuation_and_dedup_follows_the_monitor() -> None:
    from core.aback.indicators import deduplicate, ner_indicators
    from core.aback.monitor import LeakMonitor

    def nlp(_text: str) -> _FakeDoc:
        return _FakeDoc([_Ent("Acme Corp.", "ORG"), _Ent("Ann Lee;", "PERSON")])

    found = ner_indicators("…", nlp, include_org=True)
    assert [ind.text for ind in found] == ["Acme Corp", "Ann Lee"]
    # the monitor's normal form keeps "." and leading articles: these are different indicators now
    unique = deduplicate([Indicator("Acme Corp.", "pii", "llm"), Indicator("ACME  corp", "pii", "llm"),
                          Indicator("Acme Corp", "organisation", "ner"), Indicator("the clinic", "x", "user"),
                          Indicator("clinic", "x", "user")])
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

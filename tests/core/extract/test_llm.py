"""LLM extraction over real HTTP: the project's OpenAI-compatible server with scripted replies."""

from __future__ import annotations

import json

import pytest

from core.extract import ExtractionError, extract_corpus, get_extractor
from core.extract.llm import LLMExtractor, parse_triples_reply
from core.llm import OpenAICompatibleClient
from core.openai_server import serve
from core.settings import Settings
from core.types import Corpus, Document, triple_key

TEXT = "Mara Voss works for Lindqvist Robotics. Lindqvist Robotics is located in Harrow Vale."
GOOD = [
    {"head": "Mara Voss", "relation": "works for", "tail": "Lindqvist Robotics",
     "sentence": "Mara Voss works for Lindqvist Robotics."},
    {"head": "Lindqvist Robotics", "relation": "is_located_in", "tail": "Harrow Vale",
     "sentence": "lindqvist robotics is  located in Harrow Vale."},
]  # fmt: skip


class Script:
    """Replies in turn; records every conversation the server received."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.conversations: list[list[dict[str, str]]] = []

    def __call__(self, messages: list[dict[str, str]]) -> str:
        self.conversations.append(messages)
        return self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]


@pytest.fixture
def endpoint():
    servers = []

    def start(script: Script) -> LLMExtractor:
        server, base_url = serve(script)
        servers.append(server)
        return LLMExtractor(OpenAICompatibleClient(base_url, "scripted"), retries=2)

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_good_reply_in_a_code_fence_becomes_triples_with_spans(endpoint):
    script = Script("Here you go:\n```json\n" + json.dumps(GOOD) + "\n```\nHope this helps.")
    triples = endpoint(script).extract("doc-1", TEXT)
    assert [t.key for t in triples] == [
        triple_key("Mara Voss", "employer", "Lindqvist Robotics"),
        triple_key("Lindqvist Robotics", "located_in", "Harrow Vale"),
    ]
    assert [TEXT[t.span[0] : t.span[1]] for t in triples] == [
        "Mara Voss works for Lindqvist Robotics.",
        "Lindqvist Robotics is located in Harrow Vale.",  # found despite case and spacing
    ]
    assert {(t.doc_id, t.backend) for t in triples} == {("doc-1", "llm")}
    prompt = script.conversations[0][0]["content"]
    assert TEXT in prompt and "JSON array" in prompt


def test_malformed_reply_is_corrected_and_retried(endpoint):
    script = Script('Sure! [{"head": "Mara Voss", "relation": works for}]', json.dumps(GOOD[:1]))
    triples = endpoint(script).extract("doc-2", TEXT)
    assert [t.key for t in triples] == [triple_key("Mara Voss", "employer", "Lindqvist Robotics")]
    assert len(script.conversations) == 2
    retry = script.conversations[1]
    assert retry[1] == {
        "role": "assistant",
        "content": 'Sure! [{"head": "Mara Voss", "relation": works for}]',
    }
    assert "invalid JSON" in retry[2]["content"] and retry[2]["role"] == "user"


def test_always_malformed_raises_naming_the_document_and_reply(endpoint):
    script = Script("I cannot find any facts in this text, sorry.")
    with pytest.raises(ExtractionError) as info:
        endpoint(script).extract("report-9", TEXT)
    message = str(info.value)
    assert "'report-9'" in message and "3 attempts" in message
    assert "no JSON array" in message and "I cannot find any facts" in message
    assert len(script.conversations) == 3


def test_unknown_sentence_falls_back_to_the_sentence_naming_the_head(endpoint):
    reply = [
        {"head": "Lindqvist Robotics", "relation": "located in", "tail": "Harrow Vale", "sentence": "made up"}
    ]
    (triple,) = endpoint(Script(json.dumps(reply))).extract("doc-3", TEXT)
    assert TEXT[triple.span[0] : triple.span[1]] == "Mara Voss works for Lindqvist Robotics."
    assert triple.confidence < 0.9


def test_endpoint_failure_names_the_document():
    def broken(_messages):
        raise RuntimeError("out of memory")

    server, base_url = serve(broken)
    try:
        with pytest.raises(ExtractionError, match=r"'doc-4'.*500.*out of memory"):
            LLMExtractor(OpenAICompatibleClient(base_url, "scripted")).extract("doc-4", TEXT)
    finally:
        server.shutdown()
        server.server_close()


def test_llm_extractor_without_an_endpoint_says_which_setting_to_give():
    with pytest.raises(ValueError, match="RPS_LLM_BASE_URL"):
        get_extractor("llm", Settings())


def test_registry_builds_the_llm_extractor_from_settings():
    def respond(messages):
        text = messages[0]["content"].rsplit("Text:", 1)[1]
        return json.dumps(GOOD) if "Mara" in text else "[]"

    server, base_url = serve(respond)
    try:
        extractor = get_extractor("llm", Settings(llm_base_url=base_url, llm_model="scripted"))
        corpus = Corpus(documents=[Document("a", "A", TEXT), Document("b", "B", "Nothing here.")])
        triples = extract_corpus(corpus, extractor)
    finally:
        server.shutdown()
        server.server_close()
    assert [(t.doc_id, t.relation) for t in triples] == [("a", "employer"), ("a", "located_in")]


def test_parse_rejects_items_without_string_fields():
    with pytest.raises(ValueError, match="item 1 lacks the string field"):
        parse_triples_reply('[{"head": "a", "relation": "b", "tail": "c"}, {"head": "a", "tail": 3}]')
    assert parse_triples_reply("[]") == []

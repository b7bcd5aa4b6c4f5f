"""Triples from a chat model asked for JSON (any `ChatClient`: an endpoint or the local LM).

The prompt lives in `assets/prompts/extract_triples.txt`. The reply is parsed robustly
(code fences and prose around the array are ignored); a malformed reply is answered with
a correcting message and retried, then the document is named in an `ExtractionError`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from core.extract.base import ExtractionError, Extractor, vocabulary_relation
from core.llm import ChatClient, ChatError, Message
from core.types import Triple

PROMPT_PATH = Path(__file__).resolve().parents[2] / "assets" / "prompts" / "extract_triples.txt"
REQUIRED_FIELDS = ("head", "relation", "tail")
CONFIDENCE_SENTENCE_FOUND = 0.9
CONFIDENCE_SENTENCE_GUESSED = 0.6
REPLY_PREVIEW_CHARS = 200

_FENCE = re.compile(r"```[a-zA-Z]*")
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)")


class _BadReply(ValueError):
    """The reply is not a JSON array of triple objects; the message says what is wrong."""


class LLMExtractor(Extractor):
    name = "llm"

    def __init__(
        self,
        client: ChatClient,
        retries: int = 2,
        max_tokens: int = 1024,
        prompt_path: Path = PROMPT_PATH,
        lemmatize: bool = True,
    ) -> None:
        self.client = client
        self.retries = retries
        self.max_tokens = max_tokens
        self.prompt_template = prompt_path.read_text(encoding="utf-8")
        self.lemmatize = lemmatize

    def extract(self, doc_id: str, text: str) -> list[Triple]:
        if not text.strip():
            return []
        messages: list[Message] = [{"role": "user", "content": self.prompt_template.replace("{text}", text)}]
        reply, problem = "", ""
        for _attempt in range(self.retries + 1):
            reply = self._ask(doc_id, messages)
            try:
                items = parse_triples_reply(reply)
            except _BadReply as exc:
                problem = str(exc)
                messages = [*messages, {"role": "assistant", "content": reply}, _correction(problem)]
                continue
            return [self._to_triple(doc_id, text, item) for item in items if _has_arguments(item)]
        raise ExtractionError(
            f"document {doc_id!r}: {self.client.name} gave no valid JSON triples after "
            f"{self.retries + 1} attempts ({problem}); the last reply starts: {reply[:REPLY_PREVIEW_CHARS]!r}"
        )

    def _ask(self, doc_id: str, messages: list[Message]) -> str:
        try:
            return self.client.chat(messages, max_tokens=self.max_tokens, temperature=0.0)
        except ChatError as exc:
            raise ExtractionError(f"document {doc_id!r}: {exc}") from exc

    def _to_triple(self, doc_id: str, text: str, item: dict[str, str]) -> Triple:
        sentence_span = find_sentence(text, item.get("sentence", ""))
        span = sentence_span or sentence_containing(text, item["head"]) or (0, len(text))
        relation = vocabulary_relation(item["relation"], item["tail"], lemmatize=self.lemmatize)
        return Triple(
            head=item["head"].strip(),
            relation=relation,
            tail=item["tail"].strip(),
            doc_id=doc_id,
            span=span,
            confidence=CONFIDENCE_SENTENCE_FOUND if sentence_span else CONFIDENCE_SENTENCE_GUESSED,
            backend="llm",
        )


def _correction(problem: str) -> Message:
    return {
        "role": "user",
        "content": (
            f"That reply could not be used: {problem}. Answer again with ONLY a JSON array of objects "
            'with the string fields "head", "relation", "tail" and "sentence", and nothing else.'
        ),
    }


def _has_arguments(item: dict[str, str]) -> bool:
    return all(item[name].strip() for name in REQUIRED_FIELDS)


def parse_triples_reply(reply: str) -> list[dict[str, str]]:
    """The triple objects of a model reply; raises _BadReply saying what is wrong."""
    cleaned = _FENCE.sub("", reply).strip()
    start, end = cleaned.find("["), cleaned.rfind("]")
    if start < 0 or end < start:
        raise _BadReply("no JSON array found")
    try:
        data: Any = json.loads(cleaned[start : end + 1])
    except json.JSONDecodeError as exc:
        raise _BadReply(f"invalid JSON: {exc.msg} at character {exc.pos}") from None
    if not isinstance(data, list):
        raise _BadReply("the JSON is not an array")
    for index, item in enumerate(data):
        if not isinstance(item, dict):
            raise _BadReply(f"item {index} is not an object")
        missing = [name for name in REQUIRED_FIELDS if not isinstance(item.get(name), str)]
        if missing:
            raise _BadReply(f"item {index} lacks the string field(s) {', '.join(missing)}")
    return [{k: v for k, v in item.items() if isinstance(v, str)} for item in data]


def find_sentence(text: str, sentence: str) -> tuple[int, int] | None:
    """Where a quoted sentence occurs in the text (exact, else ignoring case and spacing)."""
    sentence = sentence.strip()
    if not sentence:
        return None
    start = text.find(sentence)
    if start >= 0:
        return start, start + len(sentence)
    pattern = r"\s+".join(re.escape(word) for word in sentence.split())
    match = re.search(pattern, text, flags=re.IGNORECASE)
    return (match.start(), match.end()) if match else None


def sentence_containing(text: str, phrase: str) -> tuple[int, int] | None:
    """The span of the first sentence of `text` that mentions `phrase` (case-insensitive)."""
    needle = phrase.strip().casefold()
    if not needle:
        return None
    for match in _SENTENCE.finditer(text):
        if needle in match.group().casefold():
            start = match.start() + len(match.group()) - len(match.group().lstrip())
            return start, match.end()
    return None

"""Downstream utility (Eraser4RAG Table 3): answer a question from retrieved passages.

The reader is the configured chat client (an OpenAI-compatible endpoint, else the local
model); it sees the first `reader_k` passages with their titles. An answer is correct
when a gold answer string occurs in it (case-folded, whitespace-normalised), as in the
paper's PopQA evaluation.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from core.llm import ChatClient, get_chat_client
from core.settings import Settings
from core.types import normalize_entity

PROMPT_PATH = Path(__file__).resolve().parents[3] / "assets" / "prompts" / "answer_question.txt"


@lru_cache(maxsize=1)
def answer_prompt() -> str:
    return PROMPT_PATH.read_text(encoding="utf-8")


@lru_cache(maxsize=4)
def _reader(settings: Settings) -> ChatClient:
    return get_chat_client(settings)


def answer_question(question: str, titles: Sequence[str], texts: Sequence[str], settings: Settings) -> str:
    passages = [
        f"[{number}] {title}: {text.strip()}" if title else f"[{number}] {text.strip()}"
        for number, (title, text) in enumerate(zip(titles, texts, strict=True), start=1)
        if text.strip()
    ][: settings.reader_k]
    prompt = answer_prompt().format(passages="\n".join(passages) or "(no passage)", question=question)
    return _reader(settings).chat(
        [{"role": "user", "content": prompt}], max_tokens=settings.reader_max_new_tokens, temperature=0.0
    )


def answer_is_correct(output: str, answers: Sequence[str]) -> bool:
    """A gold answer string occurs in the output (case-folded, whitespace-normalised substring)."""
    said = normalize_entity(output)
    return any(gold and gold in said for gold in (normalize_entity(a) for a in answers))

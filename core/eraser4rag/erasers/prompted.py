"""Shared machinery of the prompted erasers (llm-each, llm-all, abstraction).

Each sends one chat request per document through the configured chat client (an
OpenAI-compatible endpoint, else the local model), cleans the reply and diffs it against
the original. A failing endpoint stops the run with a message naming the document;
rewrites already yielded are kept by the caller. An empty reply becomes an empty rewrite
with a note saying what to do.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path

from core.eraser4rag.erasers.base import (
    NO_PRIVATE_NOTE,
    EraseRequest,
    EraserError,
    Rewrite,
    edits_between,
    rewrite_each,
)
from core.llm import ChatClient, ChatError
from core.types import Document, Progress, TripleKey

PROMPTS = Path(__file__).resolve().parents[3] / "assets" / "prompts"
_PREAMBLE = re.compile(r"^\s*(here is|here's|sure|rewritten document)[^\n]*:\s*\n", re.IGNORECASE)
_FENCE = re.compile(r"^\s*```[a-z]*\n|\n```\s*$")

PromptFor = Callable[[Document, EraseRequest], tuple[str, tuple[str, ...]]]


@lru_cache(maxsize=8)
def prompt_template(name: str) -> str:
    return (PROMPTS / name).read_text(encoding="utf-8")


def format_triples(keys: list[TripleKey] | tuple[TripleKey, ...]) -> str:
    return "\n".join(f"- ({h} | {r} | {t})" for h, r, t in keys) or "(none)"


def clean_reply(reply: str) -> str:
    text = _FENCE.sub("", reply.strip())
    text = _PREAMBLE.sub("", text)
    return text.strip().strip('"').strip()


class PromptedEraser:
    """One chat request per document; subclasses say what the prompt holds."""

    name = "prompted"
    trained = True

    def __init__(self, client: ChatClient, max_new_tokens: int = 256) -> None:
        self.client = client
        self.max_new_tokens = max_new_tokens

    def prompt_for(self, document: Document, request: EraseRequest) -> tuple[str, tuple[str, ...]]:
        """(prompt, notes) for one document."""
        raise NotImplementedError

    def erase(self, request: EraseRequest, progress: Progress | None = None) -> Iterator[Rewrite]:
        return rewrite_each(request, self.rewrite_document, progress)

    def rewrite_document(self, document: Document, request: EraseRequest) -> Rewrite:
        started = time.perf_counter()
        removed = request.private_keys_of(document.id)
        kept = request.public_keys_of(document.id)
        if not self.needs_rewrite(document, request):
            note = NO_PRIVATE_NOTE if not request.definition.private else "no private triple in this document"
            text = document.text
            return Rewrite(document.id, self.name, text, text, (), removed, kept, 0.0, (note,))
        prompt, notes = self.prompt_for(document, request)
        needed = len(document.text) // 3 + 32  # about one token per 3-4 characters, with room
        budget = min(self.max_new_tokens, needed)
        if needed > self.max_new_tokens:
            notes += (f"the rewrite may be cut at {budget} tokens (--rewriter-max-new-tokens)",)
        messages = [{"role": "user", "content": prompt}]
        try:
            reply = self.client.chat(messages, max_tokens=budget, temperature=0.0)
        except ChatError as exc:
            raise EraserError(
                f"document {document.id!r}: {exc}. Rewrites finished before it are kept; "
                "check the endpoint and run again"
            ) from exc
        text = clean_reply(reply)
        if not text:
            notes += (
                "the model returned an empty rewrite: the document is left empty; try another model "
                "or run verify-and-repair on graph-guided instead",
            )
        return Rewrite(
            doc_id=document.id,
            eraser=self.name,
            original=document.text,
            text=text,
            edits=edits_between(document.text, text),
            removed=removed,
            kept=kept,
            seconds=time.perf_counter() - started,
            notes=notes,
        )

    def needs_rewrite(self, document: Document, request: EraseRequest) -> bool:
        return bool(request.private_keys_of(document.id))

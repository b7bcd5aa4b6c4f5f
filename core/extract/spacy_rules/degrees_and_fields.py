"""Academic majors ("a bachelor's degree in zoology") and fields of work ("a researcher in
physics"); the degree's own name is read by `core.extract.degrees`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from core.extract.degrees import (
    degree_field,
    is_degree_token,
    is_vocational,
)
from core.extract.spacy_rules.context import Argument, Candidate
from core.extract.spacy_rules.tree import (
    children,
    degree_bounds_end,
    lemma_of,
    modified_start,
    prepositional_objects,
)
from core.extract.vocabulary import (
    FIELD_NOUNS,
    FIELD_VERBS,
    GENERIC_NOUNS,
)


class DegreeAndFieldRules:
    """The degrees and fields rules of `ChunkRules` (a mixin: the state is `ChunkRules`'s)."""

    def _academic_major_candidates(self) -> Iterator[Candidate]:
        """ "a bachelor's degree on zoology", "an MA in Economics", "a geography graduate of X": the
        field studied, beside the degree (which keeps its field in its own name)."""
        for token in self.doc:
            fields = self._degree_fields(token)
            if not fields:
                continue
            verb = token
            for _ in range(3):
                if verb.pos_ in {"VERB", "AUX"} or verb.head.i == verb.i:
                    break
                verb = verb.head
            if verb.pos_ not in {"VERB", "AUX"}:
                continue
            for subject_token in self._subjects(verb):
                subject = self._argument(subject_token)
                if subject is None or subject.kind != "person":
                    continue
                for field_token in fields:
                    text = self.doc[modified_start(field_token) : field_token.i + 1].text
                    major = Argument(text, False, kind="common", token=field_token.i)
                    yield Candidate(subject, [], major, "academic_major")

    def _degree_fields(self, token: Any) -> list[Any]:
        lower = token.lower_
        if lower == "graduate" and token.pos_ == "NOUN":  # "a geography graduate of the University"
            return [
                c for c in token.lefts if c.dep_ == "compound" and c.pos_ == "NOUN" and c.i == token.i - 1
            ]
        if not is_degree_token(token):
            return []
        if is_vocational(token):
            return []  # "a Diploma in Journalism", "a Certificate in Video Production": no academic major
        end = degree_bounds_end(token)
        prep = degree_field(token, end, also_on=True)
        if prep is None:
            return []
        objects = [c for c in prep.children if c.dep_ == "pobj"]
        return [t for obj in objects for t in (obj, *obj.conjuncts) if t.pos_ in {"NOUN", "PROPN"}]

    def _field_of_work_candidates(self) -> Iterator[Candidate]:
        """ "known for his work on business information systems", "engaged in the study of Nepali
        literature", "has published on Nepali politics", "Perilli's main fields of research include X"."""
        for token in self.doc:
            if token.i in self.in_parentheses:
                continue
            if (
                self._names_fields(token)
                and token.dep_ == "nsubj"
                and lemma_of(token.head) in {"include", "be"}
            ):
                owner = next((c for c in token.children if c.dep_ == "poss"), None)
                subject = self._argument(owner) if owner is not None else None
                for field_noun in children(token.head, {"dobj", "attr"}, self):
                    yield from self._field_facts(subject, field_noun)
                continue
            verb, fields = self._fields_after(token)
            if verb is None or verb.pos_ not in {"VERB", "AUX"}:
                continue
            for subject_token in self._subjects(verb):
                subject = self._argument(subject_token)
                for field_noun in fields:
                    yield from self._field_facts(subject, field_noun)

    def _fields_after(self, token: Any) -> tuple[Any | None, list[Any]]:
        """The verb whose subject works in the fields, and the fields: "(known for) his work on X",
        "(engaged in) the study of X", "published on X"."""
        lemma = token.lemma_.lower()
        if token.pos_ == "NOUN" and lemma in FIELD_NOUNS and token.dep_ == "pobj":
            preps = {"on", "of", "in", "about"}
            return token.head.head, [o for p, o in prepositional_objects(token, self) if p.lower_ in preps]
        if token.pos_ == "VERB" and lemma in FIELD_VERBS:
            return token, [o for p, o in prepositional_objects(token, self) if p.lower_ in {"on", "about"}]
        return None, []

    @staticmethod
    def _names_fields(token: Any) -> bool:
        """ "his academic focus", "Perilli's main fields of research", "her research interests"."""
        lemma = token.lemma_.lower()
        return token.pos_ == "NOUN" and (lemma in FIELD_NOUNS or lemma in {"field", "interest", "area"})

    def _field_facts(self, subject: Argument | None, noun: Any) -> Iterator[Candidate]:
        if subject is None or subject.kind != "person" or noun.pos_ != "NOUN" or self._is_entity_token(noun):
            return
        for text in self._field_names(noun):
            yield Candidate(subject, [], Argument(text, False, kind="common", token=noun.i), "field_of_work")

    def _field_names(self, noun: Any) -> list[str]:
        """ "glacial and periglacial geomorphology" -> glacial geomorphology, periglacial geomorphology."""
        if noun.lemma_.lower() in GENERIC_NOUNS:
            return []  # "related topics", "the intersection of ..."
        modifiers = [
            c for c in noun.lefts if c.dep_ in {"amod", "compound", "nmod"} and c.right_edge.i < noun.i
        ]
        if not modifiers:
            return [noun.text]
        first = modifiers[0]
        shared = self.doc[first.right_edge.i + 1 : noun.i + 1].text
        coordinated = [first, *(c for c in first.conjuncts if c.i > first.i)]
        if len(coordinated) > 1 and all(c.pos_ in {"ADJ", "NOUN", "PROPN"} for c in coordinated):
            if " " in shared:  # "modern and contemporary Nepali literature": the pair qualifies the field
                return [shared]
            return [f"{c.text} {shared}" for c in coordinated]
        return [self.doc[first.left_edge.i : noun.i + 1].text]

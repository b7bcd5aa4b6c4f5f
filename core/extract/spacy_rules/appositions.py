"""Appositions ("X, an Australian footballer") and possessives ("X's father, Danny")."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from core.extract.spacy_rules.context import Candidate
from core.extract.spacy_rules.tree import children
from core.extract.spacy_rules.words import NAMING_DEPS, ORGANISATION_LABELS, ORGANISATION_WORDS, PLACE_LABELS
from core.extract.vocabulary import (
    GENERIC_NOUNS,
    KIN_NOUNS,
    RELATIONAL_NOUNS,
    is_person_noun,
)


class AppositionRules:
    """The appositions rules of `ChunkRules` (a mixin: the state is `ChunkRules`'s)."""

    def _apposition_triples(self, appos: Any) -> Iterator[Candidate]:
        """ "Mara Voss, a nurse at St Olave Hospital," -> occupation nurse, employer St Olave Hospital."""
        head = appos.head
        if self._label(head) == "NORP":
            return  # "a minority Sri Lankan Tamil, Roman Catholic parish priest": a people has no occupation
        if self._is_entity_token(appos) and self._is_title_noun(head, appos):
            named = self._argument(appos)
            if named is not None:
                yield from self._describe(replace(named, kind="person"), head, follow=False)
            return
        if not self._is_entity_token(head) or self._is_entity_token(appos) or appos.pos_ != "NOUN":
            return
        if head.i in self.in_parentheses or (appos.dep_ == "appos" and head.dep_ == "poss"):
            return
        if appos.lemma_.lower() in KIN_NOUNS and self._label(head) in PLACE_LABELS:
            # "born in Los Angeles, the son of X": the son is the clause's subject, not the city
            yield from self._kin_of_clause_subject(head, appos)
            return
        subject = self._argument(head)
        if subject is None:
            return
        yield from self._describe(subject, appos)

    def _kin_of_clause_subject(self, place: Any, kin: Any) -> Iterator[Candidate]:
        verb = place.head
        while verb.pos_ not in {"VERB", "AUX"} and verb.head.i != verb.i:
            verb = verb.head
        subjects = self._subjects(verb) if verb.pos_ in {"VERB", "AUX"} else []
        if len(subjects) != 1:
            return
        subject = self._argument(subjects[0])
        if subject is not None and subject.kind == "person":
            yield from self._describe(subject, kin)

    def _called(self, noun: Any) -> Any | None:
        """ "a senior policeman named Pierre Combes Mathieu" -> the name's token."""
        for acl in noun.children:
            if acl.dep_ == "acl" and acl.lower_ in {"named", "called"}:
                names = [c for c in acl.children if c.dep_ in NAMING_DEPS and self._is_entity_token(c)]
                if names:
                    return names[0]
        return None

    def _is_part_of(self, owner: Any, possessed: Any) -> bool:
        """Two organisations, unless one name ("St. Theresa's Higher Secondary School")."""
        if self._label(owner) not in ORGANISATION_LABELS or self._label(possessed) not in ORGANISATION_LABELS:
            return False
        start, end = self._phrase_bounds(possessed)
        return not any(t.lower_ in ORGANISATION_WORDS for t in self.doc[start:end])

    def _is_title_noun(self, noun: Any, name: Any) -> bool:
        """ "the painter Ventura Salimbeni", "a policeman named X": a person's occupation before the name."""
        if noun.pos_ != "NOUN" or self._is_entity_token(noun) or noun.lemma_.lower() in RELATIONAL_NOUNS:
            return False
        if noun.lemma_.lower() in GENERIC_NOUNS or self._label(name) != "PERSON":
            return False
        if not is_person_noun(noun.lower_):
            return False  # "his local club St Paul's": a club is no occupation
        between = self.doc[noun.i + 1 : self._phrase_bounds(name)[0]]
        return all(t.lower_ in {"named", "called"} for t in between)

    def _possessive_triples(self, owner: Any) -> Iterator[Candidate]:
        """Possessive: "Mara's sister Ida" -> (Mara, sibling, Ida); "her father, Danny" -> father."""
        noun = owner.head
        if noun.pos_ != "NOUN":
            if self._is_part_of(owner, noun):
                yield Candidate(noun, [], owner, relation="part_of")  # "the Football League's BC Lions"
            return
        for named in children(noun, {"appos"}, self):
            if not self._is_entity_token(named):
                continue
            if noun.lemma_.lower() in RELATIONAL_NOUNS:
                yield Candidate(owner, [noun.lower_], named)
            elif owner.pos_ == "PROPN":  # "Sanjeev Sivan's Malayalam movie, Endless Summer": by its owner
                yield Candidate(named, [noun.lower_, "by"], owner)

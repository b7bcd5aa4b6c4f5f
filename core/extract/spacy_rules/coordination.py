"""Coordinated description nouns: which nouns of "an actor, singer and songwriter" are listed
heads, and which head a modifier is shared with.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from core.extract.spacy_rules.tree import prepositional_objects
from core.extract.spacy_rules.words import LIST_POS
from core.extract.vocabulary import (
    is_person_noun,
)


class CoordinationRules:
    """The coordination rules of `ChunkRules` (a mixin: the state is `ChunkRules`'s)."""

    def _shared_head(self, noun: Any, nouns: Sequence[Any]) -> Any | None:
        """The person noun that `noun` shares in "a management and IT consultant", "an Israeli
        military and Mossad officer", "a stage and television actor": `noun` names no person,
        a conjunction follows it, and the next description noun has modifiers of its own."""
        if is_person_noun(noun.lower_):
            return None
        following = [other for other in nouns if other.i > noun.i]
        if not following or not is_person_noun(following[0].lower_):
            return None
        between = list(self.doc[noun.i + 1 : following[0].i])
        joints = 0
        while joints < len(between) and (between[joints].pos_ == "CCONJ" or between[joints].text == ","):
            joints += 1
        modifiers = between[joints:]
        if not joints or not modifiers or between[joints - 1].pos_ != "CCONJ":
            return None
        return following[0] if all(t.pos_ in {"NOUN", "PROPN", "ADJ"} for t in modifiers) else None

    def _is_party(self, token: Any) -> bool:
        """ "a politician for the Conservative Party": a party, no employer."""
        start, end = self._phrase_bounds(token)
        return bool(re.search(r"\bpart(y|ies)\b", self.doc[start:end].text, re.I))

    def _of_a_person(self, noun: Any) -> bool:
        """ "follower of Domenico Beccafumi", "stepfather of Francesco Vanni": a relation, no occupation."""
        preps = prepositional_objects(noun, self)
        return any(prep.lower_ == "of" and self._is_person_token(pobj) for prep, pobj in preps)

    def _description_nouns(self, noun: Any) -> list[Any]:
        listed = self._listed_heads(noun)
        return listed if len(listed) > 1 else self._conjunct_nouns(noun)

    def _listed_heads(self, noun: Any) -> list[Any]:
        """The head nouns of a description written as a list, read off the words, not the parse.

        "an English actress, singer, dancer and musical comedy performer known for ...": the
        small parser hangs "singer" under "performer" and "comedy" beside "dancer"; the words
        from the description's first word up to the first verb, preposition or pronoun, cut at
        commas and conjunctions, give one segment per description, whose last word is its noun.
        Each head's segment start is kept in `segment_starts` (its occupation's first word).
        """
        sentence = self.sentences[self.sentence_of[noun.i]]
        start = max(noun.left_edge.i, sentence.start)
        end = start
        while end < sentence.end and end not in self.in_parentheses:
            token = self.doc[end]
            if token.text != "," and token.pos_ not in LIST_POS and token.tag_ != "HYPH":
                break
            end += 1
        if end <= noun.i:
            return []
        heads: list[Any] = []
        starts: dict[int, int] = {}
        segment: list[Any] = []
        for token in [*self.doc[start:end], None]:
            if token is not None and token.text != "," and token.pos_ != "CCONJ":
                segment.append(token)
                continue
            while segment and segment[-1].pos_ in {"ADV", "DET"}:
                segment.pop()  # "writer best known for": the adverb belongs to what follows
            last = segment[-1] if segment else None
            if last is not None and last.pos_ == "NOUN" and not self._is_entity_token(last):
                heads.append(last)
                starts[last.i] = segment[0].i
            segment = []
        if noun not in heads or len(heads) < 2:
            return []
        for head, first in starts.items():
            self.segment_starts.setdefault(head, first)
        return heads

    def _conjunct_nouns(self, noun: Any) -> list[Any]:
        found: list[Any] = []
        stack = [noun]
        while stack:
            token = stack.pop()
            lower_case_name = token.pos_ == "PROPN" and token.text.islower() and token.i not in self.entity_of
            if token in found or (token.pos_ != "NOUN" and not lower_case_name):
                continue  # "saxophonist and clarinettist": the tagger calls the second a name
            if token.pos_ == "NOUN" and self._is_entity_token(token):
                continue
            found.append(token)
            stack.extend(token.conjuncts)
            stack.extend(c for c in token.children if c.dep_ == "appos")
            # "a Norwegian philosopher and working life researcher": the parser hangs the first
            # conjunct on the last noun as a modifier; its "and" shows it is a description of its own
            stack.extend(
                c
                for c in token.lefts
                if c.dep_ in {"nmod", "compound"} and any(g.dep_ == "cc" for g in c.children)
            )
        indices = {t.i for t in found}
        return sorted((t for t in found if t.i + 1 not in indices), key=lambda t: t.i)

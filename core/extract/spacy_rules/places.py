"""Places: "City, Region" gives `located_in`, apposed places, institution parts ("School of X,
University of Y") and the place of a verb's prepositional object.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from core.extract.spacy_rules.context import Argument, Candidate
from core.extract.spacy_rules.tree import kind_of_label, name_particle, prepositional_objects
from core.extract.spacy_rules.words import INITIALS, PLACE_LABELS, PLACE_NOUNS, UNIT_WORDS


class PlaceRules:
    """The places rules of `ChunkRules` (a mixin: the state is `ChunkRules`'s)."""

    def _located_in_candidates(self) -> Iterator[Candidate]:
        """ "Trinidad, California", "Queen's Theatre, Liverpool" -> located_in (not inside lists)."""
        ents = list(self.doc.ents)
        for index, (inner, outer) in enumerate(pairwise(ents)):
            if not self._is_place_refinement(inner, outer):
                continue
            before = ents[index - 1] if index else None
            after = ents[index + 2] if index + 2 < len(ents) else None
            if (
                before is not None
                and self._is_place_refinement(before, inner)
                and before.label_ in PLACE_LABELS
            ):
                continue
            if (
                after is not None
                and after.start - outer.end <= 2
                and after.label_ in PLACE_LABELS
                and (self.doc[outer.end].text in {",", "and", "or"})
            ):
                continue  # a list: "Norwich, London and Cambridge"
            if self._ends_a_list(outer.end):
                continue  # "Venice, Rome, Magliano Capo di Sabina, and Aquila"
            yield Candidate(
                self._entity_argument(inner), [], self._entity_argument(outer), relation="located_in"
            )
        yield from self._apposed_place_candidates()

    def _apposed_place_candidates(self) -> Iterator[Candidate]:
        """ "born in Jatisobo, Banyumas, on 18 March 1943": the parser apposes the region to the
        place, whatever label the tagger gave the region (here ORG)."""
        for outer in self.doc:
            place = outer.head
            if not (
                outer.dep_ == "appos"
                and outer.pos_ == "PROPN"
                and place.dep_ == "pobj"
                and place.head.lower_ in {"in", "near", "at"}
            ):
                continue
            place_ent, outer_ent = self.entity_of.get(place.i), self.entity_of.get(outer.i)
            if place_ent is None or outer_ent is None or place_ent.label_ not in {"GPE", "LOC"}:
                continue
            if outer_ent.label_ != "ORG" or not self._follows_as_refinement(place_ent, outer_ent):
                continue  # GPE and LOC regions are the named pairs' (above)
            if set(self._name_words(outer_ent)) & UNIT_WORDS or self._ends_a_list(outer_ent.end):
                continue  # "in Kitwe, Rokana Primary School": no region
            yield Candidate(
                self._entity_argument(place_ent), [], self._entity_argument(outer_ent), relation="located_in"
            )

    def _institution_part_candidates(self) -> Iterator[Candidate]:
        """ "the School of Oriental and African Studies (SOAS), University of London" -> part_of;
        "the University of Oslo, Department of Geosciences" -> the department is part of it."""
        ents = [e for e in self.doc.ents if e.label_ in {"ORG", "FAC"}]
        for inner, outer in pairwise(ents):
            between = self.doc[inner.end : outer.start]
            if self._has_abbreviation(between):
                between = self.doc[self._closing_paren(inner.end) + 1 : outer.start]
            if [t.text for t in between] != [","] or inner.end - 1 in self.in_parentheses:
                continue
            inner_words, outer_words = self._name_words(inner), self._name_words(outer)
            if outer_words[:1] == ["university"] and set(inner_words) & UNIT_WORDS:
                yield Candidate(self._entity_argument(inner), [], self._entity_argument(outer), "part_of")
            elif inner_words[:1] == ["university"] and outer_words[:1] and outer_words[0] in UNIT_WORDS:
                yield Candidate(self._entity_argument(outer), [], self._entity_argument(inner), "part_of")

    def _has_abbreviation(self, between: Any) -> bool:
        return len(between) >= 3 and between[0].text == "(" and self._closing_paren(between[0].i) is not None

    def _name_words(self, ent: Any) -> list[str]:
        start, end = self._entity_bounds(ent)
        return [t.lower_ for t in self.doc[start:end]]

    def _ends_a_list(self, start: int) -> bool:
        """Names and commas from `start` on reach an "and"/"or" before another name: a list."""
        for index in range(start, min(len(self.doc), start + 30)):
            token = self.doc[index]
            if token.lower_ in {"and", "or"}:
                following = self.doc[index + 1] if index + 1 < len(self.doc) else None
                return following is not None and following.pos_ == "PROPN"
            if token.text != "," and token.pos_ not in {"PROPN", "DET", "X"} and not name_particle(token):
                return False  # "Wheat Ridge, Colorado to Donald and Rhonda": "to" ends the places
        return False

    def _is_place_refinement(self, inner: Any, outer: Any) -> bool:
        return (
            inner.label_ in PLACE_LABELS | {"ORG"}
            and outer.label_ in {"GPE", "LOC"}
            and self._follows_as_refinement(inner, outer)
        )

    def _follows_as_refinement(self, inner: Any, outer: Any) -> bool:
        """ "Trinidad, California": the outer name right after the inner one and a comma."""
        return (
            outer.start == inner.end + 1
            and self.doc[inner.end].text == ","
            and inner.end not in self.in_parentheses
            and not self._names_the_title_person(outer.text)  # "Born in Montreal, McKay studied ..."
            and not INITIALS.fullmatch(outer.text)  # "Dundas, V.C., C.B.": honours after a name
        )

    def _names_the_title_person(self, text: str) -> bool:
        title = self.context.title_person
        return bool(title) and set(text.split()) <= set(title.split())

    def _entity_argument(self, ent: Any) -> Argument:
        start, end = self._entity_bounds(ent)
        kind = kind_of_label(ent.label_)
        return Argument(self.doc[start:end].text, True, kind=kind, token=ent.start)

    def _location_triples(self, token: Any) -> Iterator[Candidate]:
        """ "the farm Stalsberg in Skedsmo", "Rokana Primary School in Kitwe": located_in, outwards."""
        current = token
        for _ in range(4):
            if not self._is_place_like(self._nominal(current)):
                return
            inner = self._place_in(current)
            if inner is None:
                return
            yield Candidate(current, [], inner, relation="located_in")
            current = inner

    def _place_in(self, token: Any) -> Any | None:
        tokens = {token, self._nominal(token)}
        return next(
            (
                pobj
                for owner in tokens
                for prep, pobj in prepositional_objects(owner, self)
                if self._is_place(pobj)
                and (
                    prep.lower_ == "in"
                    or (
                        prep.lower_ == "of"
                        and owner.pos_ == "NOUN"
                        and self._named_compound(owner) is not None
                    )
                )
            ),
            None,
        )

    def _innermost_place(self, token: Any) -> Any:
        current = token
        for _ in range(4):
            inner = self._place_in(current)
            if inner is None:
                break
            current = inner
        return current

    def _refines(self, prep: Any, pobj: Any, last_place: Any) -> bool:
        """A second "in <place>" of a verb, after a comma or right after the first place
        ("born in Vík in the South Constituency"), locates the first place."""
        if not self._is_place(pobj) or prep.i == 0:
            return False
        return self.doc[prep.i - 1].text == "," or prep.i == self._phrase_bounds(last_place)[1]

    def _is_place(self, token: Any) -> bool:
        return self._label(token) in {"GPE", "LOC"}

    def _is_place_like(self, token: Any) -> bool:
        """A named place or organisation, or a name after a place noun ("the farm Stalsberg")."""
        if self._label(token) in PLACE_LABELS | {"ORG"}:
            return True
        return self._is_entity_token(token) and any(
            c.dep_ == "compound" and c.lemma_.lower() in PLACE_NOUNS for c in token.children
        )

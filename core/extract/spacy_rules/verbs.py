"""Relations by verb: subject-verb-object and subject-verb-preposition-object (active and
passive), positions held, and copulas ("X was the mayor of Y").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from core.extract.base import relation_word
from core.extract.degrees import (
    degree_field,
    is_degree_token,
)
from core.extract.spacy_rules.context import Candidate
from core.extract.spacy_rules.tree import (
    children,
    degree_bounds_end,
    hyphen_prefix,
    is_age_clause,
    joined_hyphen,
    lemma_of,
    prepositional_objects,
)
from core.extract.spacy_rules.words import (
    LINKING_VERBS,
    PERSON_RELATIVES,
    TITLE_OBJECT_LABELS,
    UNREALISED_VERBS,
    VALUE_LABELS,
)
from core.extract.vocabulary import (
    FIELD_VERBS,
    GENERIC_NOUNS,
    KIN_NOUNS,
    RELATIONAL_NOUNS,
    is_person_noun,
)


class VerbRules:
    """The verbs rules of `ChunkRules` (a mixin: the state is `ChunkRules`'s)."""

    def _verb_triples(self, verb: Any) -> Iterator[Candidate]:
        if is_age_clause(verb):
            return  # "died aged 35, at St. Thomas's Hospital": the place is the death's
        if verb.dep_ == "xcomp" and lemma_of(verb.head) in UNREALISED_VERBS:
            return  # "She wanted to be a teacher", "hoped to join X": no fact
        subjects = self._subjects(verb)
        if not subjects:
            # "Projects include an HIV Training Clinic in Mzuzu": where a thing is needs no subject
            for obj in self._objects(verb):
                yield from self._location_triples(obj)
            return
        negated = any(c.dep_ == "neg" for c in verb.children)
        negation = ["not"] if negated else []
        complements = [
            c
            for c in verb.children
            if c.dep_ in {"attr", "acomp"} and not joined_hyphen(c) and not hyphen_prefix(c)
        ]  # "was vice-president of": "vice" and "-" are no complements of their own
        complements = [c for c in complements if not self._modifies_next_complement(c, complements)]
        if complements:
            linking = [] if verb.lemma_.lower() in LINKING_VERBS else [relation_word(verb)]
            for subject in subjects:
                for complement in complements:
                    yield from self._copula_triples(subject, negation + linking, complement, negated)
            return
        words = [*negation, relation_word(verb)] + [c.lower_ for c in verb.children if c.dep_ == "prt"]
        for subject in subjects:
            for obj in self._objects(verb):
                named_kin = obj.lemma_.lower() in KIN_NOUNS and self._nominal(obj) is not obj
                if lemma_of(verb) == "have" and named_kin:
                    yield Candidate(subject, [obj.lower_], obj)  # "She has a sister, Tegan" -> sibling
                    continue
                yield Candidate(subject, words, obj)
                yield from self._object_modifier_triples(subject, words, obj)
                yield from self._location_triples(obj)
            last_place = None
            age_clauses = [c for c in verb.children if is_age_clause(c)]
            prepositions = [*prepositional_objects(verb, self)] or self._shared_prepositions(verb)
            prepositions += [found for clause in age_clauses for found in prepositional_objects(clause, self)]
            degree_fields = {
                field.i
                for obj in self._objects(verb)
                if is_degree_token(obj) and (field := degree_field(obj, degree_bounds_end(obj))) is not None
            }
            for prep, pobj in prepositions:
                if prep.i in degree_fields:
                    # "studied Diploma in Journalism": the degree's field, said with the degree; but
                    # "a Master of Fine Arts in composition from Brandeis University": where from
                    yield from self._field_origin_candidates(subject, words, pobj)
                    continue
                held = self._positions_held(pobj) if prep.lower_ == "as" and not negated else []
                if held and self._is_person_token(subject):
                    # "served as the president and CEO of the National Council of La Raza"
                    for noun, of_prep, organisation in held:
                        title = self._occupation_argument(noun).text.lower()  # "lieutenant governor"
                        yield Candidate(subject, [title, of_prep.lower_], organisation)
                    continue
                if last_place is not None and prep.lower_ == "in" and self._refines(prep, pobj, last_place):
                    # "born in the city of Atbara in River Nile State, in the Republic of Sudan"
                    yield Candidate(last_place, [], pobj, relation="located_in")
                    last_place = self._innermost_place(pobj)
                    continue
                if pobj.pos_ == "NOUN" and not self._is_entity_token(pobj) and self._nominal(pobj) is pobj:
                    # "died of lung cancer in New York City": the place belongs to the verb
                    for inner_prep, inner_obj in prepositional_objects(pobj, self):
                        if not self._is_entity_token(inner_obj):
                            continue
                        if is_degree_token(pobj) and inner_prep.lower_ in {"in", "of"}:
                            continue  # "graduated with a master's degree in Finance": the degree's field
                        if inner_prep.lower_ != "of":
                            yield Candidate(subject, [*words, inner_prep.lower_], inner_obj)
                        elif pobj.lemma_.lower() not in GENERIC_NOUNS | RELATIONAL_NOUNS:
                            # "moved to the staff of the Ottawa Renegades" -> move_to_staff_of
                            yield Candidate(subject, [*words, prep.lower_, pobj.lower_, "of"], inner_obj)
                else:
                    yield from self._location_triples(pobj)
                    if prep.lower_ == "in" and self._is_place(self._nominal(pobj)):
                        last_place = self._innermost_place(pobj)
                if not negated and prep.lower_ == "as" and lemma_of(verb) in {"work", "serve", "act"}:
                    relation = "position_held" if lemma_of(verb) == "serve" else "occupation"
                    if self._is_person_token(subject) and pobj.pos_ == "NOUN":
                        yield Candidate(subject, [], self._occupation_argument(pobj), relation=relation)
                        for inner_prep, inner_obj in prepositional_objects(pobj, self):
                            yield Candidate(subject, [*words, inner_prep.lower_], inner_obj)
                        continue
                if lemma_of(verb) in FIELD_VERBS and prep.lower_ in {"on", "about"} and pobj.pos_ == "NOUN":
                    continue  # "published on Nepali politics": a field of work, stated by its own rule
                yield Candidate(subject, [*words, prep.lower_], pobj)

    def _modifies_next_complement(self, complement: Any, complements: list[Any]) -> bool:
        """ "is a former American football wide receiver": the parser makes "football" a second
        complement; a non-person noun right before the next complement's words modifies it."""
        return not is_person_noun(complement.lower_) and any(
            other.left_edge.i == complement.i + 1 for other in complements if other.i > complement.i
        )

    def _shared_prepositions(self, verb: Any) -> list[tuple[Any, Any]]:
        """ "was born and raised in X", "lived and worked in Y": the next verb's place is this one's too."""
        if children(verb, {"dobj"}, self):
            return []
        following = [c for c in verb.children if c.dep_ == "conj" and c.pos_ == "VERB" and c.i == verb.i + 2]
        if not following or self.doc[verb.i + 1].lower_ != "and":
            return []
        return [(prep, pobj) for prep, pobj in prepositional_objects(following[0], self)]

    def _positions_held(self, noun: Any) -> list[tuple[Any, Any, Any]]:
        """(title noun, preposition, organisation) of "as the president and CEO of X", "as
        a member of X", "as U.S. Ambassador to Y".

        The parser hangs a coordination's shared "of X" on its first noun ("president and CEO
        of X", "co-founder and president of X"), so a later noun borrows it from an earlier one;
        never backwards ("a politician and former member of X": no politician of X)."""
        if noun.pos_ not in {"NOUN", "PROPN"} or self._label(noun) is not None:
            return []
        own = self._title_objects(noun)
        if own:
            return [(noun, prep, pobj) for prep, pobj in own]
        if not is_person_noun(noun.lower_):
            return []  # "a critic of Cultural Radicalism, Marxism and official social policy": no policy_of
        earlier = [t for t in noun.conjuncts if t.i < noun.i]
        shared = [found for member in earlier for found in self._title_objects(member)]
        return [(noun, prep, pobj) for prep, pobj in shared]

    @staticmethod
    def _indefinite_coordination(noun: Any) -> bool:
        """ "a retired minister of ...", "a co-founder and president of ...": the first conjunct's article."""
        first = noun
        while first.dep_ == "conj" and first.head.i != first.i:
            first = first.head
        return any(c.dep_ == "det" and c.lower_ in {"a", "an"} for c in first.children)

    def _title_objects(self, noun: Any) -> list[tuple[Any, Any]]:
        """ "president of <org>", "ambassador to <country>" (not "elected as a member to")."""
        return [
            (prep, pobj)
            for prep, pobj in prepositional_objects(noun, self)
            if self._label(pobj) in TITLE_OBJECT_LABELS
            and (prep.lower_ == "of" or (prep.lower_ == "to" and lemma_of(noun) not in RELATIONAL_NOUNS))
        ]

    def _objects(self, verb: Any) -> list[Any]:
        """Direct objects, with the conjuncts of a named apposition ('the names "A" and "B"')."""
        objects = children(verb, {"dobj"}, self)
        for obj in list(objects):
            named = self._nominal(obj)
            if named is not obj:
                objects.extend(c for c in named.conjuncts if self._is_entity_token(c))
        return objects

    def _copula_triples(
        self, subject: Any, words: list[str], complement: Any, negated: bool
    ) -> Iterator[Candidate]:
        """ "X is an Italian writer and translator" -> descriptions; "X is the CEO of Y" -> ceo_of."""
        if complement.dep_ == "attr" and complement.pos_ == "NOUN" and not self._is_entity_token(complement):
            if negated:
                return
            owner = next(iter(children(subject, {"poss"}, self)), None)
            if owner is not None and subject.pos_ == "NOUN" and self._nominal(subject) is subject:
                if self._is_entity_token(self._nominal(complement)):  # "His father was a policeman named X"
                    yield Candidate(owner, [*words, subject.lower_], complement)
                return  # "Her father is a high official": the father is not named
            subject_argument = self._argument(subject)
            if subject_argument is not None and subject.lower_ in PERSON_RELATIVES:
                subject_argument = replace(subject_argument, kind="person")  # "who" is a person
            if subject_argument is not None:
                yield from self._describe(subject_argument, complement)
            return
        noun_words = [*words, complement.lower_]
        preps = list(prepositional_objects(complement, self))
        for prep, pobj in preps:
            yield Candidate(subject, [*noun_words, prep.lower_], pobj)
        if preps or complement.dep_ != "attr":
            return
        owner = next(iter(children(subject, {"poss"}, self)), None)
        if owner is not None and subject.pos_ == "NOUN" and self._nominal(subject) is subject:
            yield Candidate(owner, [*words, subject.lower_], complement)
        else:
            yield Candidate(subject, words or ["be"], complement)

    def _field_origin_candidates(
        self, subject: Any, words: list[str], field_noun: Any
    ) -> Iterator[Candidate]:
        for inner_prep, inner_obj in prepositional_objects(field_noun, self):
            if inner_prep.lower_ in {"from", "at"} and self._names_a_school(inner_obj):
                yield Candidate(subject, [*words, inner_prep.lower_], inner_obj, "educated_at")

    def _names_a_school(self, token: Any) -> bool:
        """Where a degree came from: a named organisation or place, not a person or a date."""
        return self._is_entity_token(token) and self._label(token) not in VALUE_LABELS | {"PERSON"}

    def _object_modifier_triples(self, subject: Any, words: list[str], obj: Any) -> Iterator[Candidate]:
        """A common-noun object's prepositional entity ("chairs the board of Y" -> chair_board_of)."""
        if self._is_entity_token(obj) and not is_degree_token(obj):
            return  # (the tagger names "PhD" or "MBA" an organisation; a degree is no name)
        # "studied natural sciences, mainly chemistry at the University of Bern": the apposition's place
        refinements = [c for c in obj.children if c.dep_ == "appos" and c.pos_ == "NOUN"]
        for noun in [obj, *refinements]:
            if self._is_entity_token(noun) and not is_degree_token(noun):
                continue
            for prep, pobj in prepositional_objects(noun, self):
                if is_degree_token(noun) and prep.lower_ in {"in", "of"}:
                    # the degree's field is its own fact; where it came from is the school's
                    yield from self._field_origin_candidates(subject, words, pobj)
                    continue
                if self._is_entity_token(pobj):
                    of_noun = [noun.lower_] if prep.lower_ == "of" else []
                    # "has a BA from the University of Iceland": a degree from a school
                    from_school = prep.lower_ in {"from", "at"} and self._names_a_school(pobj)
                    school = "educated_at" if is_degree_token(noun) and from_school else None
                    yield Candidate(subject, [*words, *of_noun, prep.lower_], pobj, school)

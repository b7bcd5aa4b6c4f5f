"""Subjects and arguments: which tokens make a head or a tail, their text, kind and bounds."""

from __future__ import annotations

import re
from typing import Any

from core.extract.degrees import (
    is_degree_token,
)
from core.extract.spacy_rules.context import Argument
from core.extract.spacy_rules.tree import (
    children,
    degree_bounds,
    kind_of_label,
    known_for,
    noun_phrase_bounds,
    prepositional_objects,
)
from core.extract.spacy_rules.words import (
    BARE_CLASS_NOUNS,
    CONTROL_DEPS,
    DESCRIPTION_DEPS,
    EVENT_WORDS,
    LEADING_WORDS,
    MODIFIED_NOUN_DEPS,
    NAMED_LABELS,
    ORGANISATION_WORDS,
    PERSON_PRONOUNS,
    PERSON_RELATIVES,
    PLACE_LABELS,
    PLACE_NOUNS,
    POSTNOMINAL,
    RELATIVE_PRONOUNS,
    SUBJECT_DEPS,
    THING_LABELS,
    THING_PRONOUNS,
    TIME_PREPOSITIONS,
    VALUE_LABELS,
)
from core.extract.vocabulary import (
    GENERIC_NOUNS,
    RELATIONAL_NOUNS,
)


class ArgumentRules:
    """The arguments rules of `ChunkRules` (a mixin: the state is `ChunkRules`'s)."""

    def _subjects(self, verb: Any) -> list[Any]:
        direct = children(verb, SUBJECT_DEPS, self)
        if direct:
            named = [s for s in direct if s.pos_ in {"PRON", "PROPN"} or self._is_entity_token(s)]
            # "A quick, strong player, he is known for ...": the fronted noun describes "he"
            return [self._described_entity(s) for s in (named or direct)]
        misattached = [c for c in verb.lefts if c.dep_ == "compound" and c.pos_ == "PROPN"]
        if misattached and verb.pos_ == "VERB":
            # The small parser sometimes hangs a name before its verb as "compound" ("Ada Brook works").
            return [misattached[-1]]
        head = verb.head
        if verb.dep_ in CONTROL_DEPS and head is not verb and head.pos_ in {"VERB", "AUX"}:
            return self._subjects(head)
        if verb.dep_ == "advcl" and verb.tag_ in {"VBN", "VBG"} and head is not verb:
            return self._subjects(head)  # "Born in Sicily, Agostino was raised ..."
        if verb.dep_ == "pcomp" and verb.tag_ == "VBG" and head.lower_ in TIME_PREPOSITIONS:
            # "before matriculating at X", "after graduating from X, he ...": the clause's subject
            clause = head.head
            return self._subjects(clause) if clause.pos_ in {"VERB", "AUX"} and clause is not head else []
        if verb.dep_ in MODIFIED_NOUN_DEPS:
            if verb.dep_ == "acl" and self._label(head) in THING_LABELS:
                return []  # "Victoria College, Toronto earning a degree": not Toronto's degree
            return [self._described_entity(head)]
        return []

    def _described_entity(self, token: Any) -> Any:
        """The entity a predicate noun describes: "X is a chemist working at Y" -> X, not "chemist"."""
        seen = 0
        while token.pos_ == "NOUN" and not self._is_entity_token(token) and token.dep_ in DESCRIPTION_DEPS:
            seen += 1
            if seen > 8:
                break
            if token.dep_ == "attr":
                subjects = children(token.head, SUBJECT_DEPS, self)
                if not subjects:
                    break
                token = subjects[0]
            else:
                token = token.head
        return token

    @staticmethod
    def _is_indefinite(token: Any) -> bool:
        """ "a ship", "some members", "comic actors", "cave diver", "Harron's adaptation": nothing named."""
        determiners = {c.lower_ for c in token.children if c.dep_ in {"det", "poss"}}
        if any(c.dep_ == "poss" for c in token.children):
            return True  # "Mary Harron's adaptation ... was released": its owner's, not a thing named
        return bool(determiners & {"a", "an", "some", "any", "many", "several"}) or not determiners

    def _is_degree(self, argument: Argument) -> bool:
        token = self.doc[argument.token] if argument.token is not None else None
        if token is None or argument.kind in {"person", "date"}:
            return False  # the tagger calls "PhD" a work of art and "B.A." a place
        return is_degree_token(token)

    def _as_argument(self, node: Any) -> Argument | None:
        if isinstance(node, Argument):
            return node
        if node.i in self.in_parentheses:
            return None
        return self._argument(node)

    def _argument(self, token: Any) -> Argument | None:
        token = self._nominal(token)
        if token.i in self.maiden_name_of:
            token = self.doc[self.maiden_name_of[token.i]]  # the birth name stands for the person
        lower = token.lower_
        if token.pos_ == "PRON" or lower in PERSON_PRONOUNS | THING_PRONOUNS:
            resolved = self._resolve_pronoun(token)
            if resolved is None:
                return None
            name, label = resolved
            return Argument(name, True, from_pronoun=True, kind=kind_of_label(label), token=token.i)
        titled = self._title_thing_at(token)
        if titled is not None:  # "Orion's Belt", "Europe '51": the title, whatever the tagger cut
            return Argument(titled, True, kind="org", token=token.i)
        start, end = self._phrase_bounds(token)
        text = self.doc[start:end].text.strip()
        if not text or not text[:1].isalnum():
            return None  # "<ref name=...>" left in the text
        label = self._label(token)
        if text.lower() in GENERIC_NOUNS:
            return None  # "One of his professors was ...", whatever the tagger made of "One"
        if label == "NORP" and (token.pos_ == "ADJ" or token.tag_ == "NNPS"):
            return None  # "holding the Polish positions", "son of German Jews": a people is no thing
        if label in {"CARDINAL", "ORDINAL"} and not any(ch.isdigit() for ch in text):
            return None  # "played just four games, two in 1998": a number word is no thing
        if label in {"DATE", "TIME"} and not any(ch.isdigit() for ch in text):
            return None  # "a single season", "the following year": a duration or a reference, no date
        words = text.split()
        if all(w[:1].isupper() for w in words):  # a partial name, whatever the tagger made of it
            full = self.context.fuller_name(words, self.offset + self.doc[start].idx, label)
            if full is not None:
                kind = kind_of_label(self.context.labels.get(full, "PERSON"))
                return Argument(full, True, kind=kind, token=token.i)
            if len(words) == 1 and words[0] in self.context.surnames:
                return None  # a bare surname whose person is not certain
        if label is not None or token.pos_ == "PROPN":
            kind = kind_of_label(label) if label not in {None, "NORP"} else None
            if self.context.labels.get(text) == "PERSON" or self.context.is_title_person(text):
                kind = "person"  # the tagger's ORG for "Ivo Perilli" loses to the title or a lifespan
            kind = kind or kind_of_label(self.context.labels.get(text)) or "name"
            return Argument(text, True, kind=kind, token=token.i)
        if not self._is_specific_noun(token, start, end):
            return None
        return Argument(text, False, kind="common", token=token.i)

    def _title_thing_at(self, token: Any) -> str | None:
        """The passage's title (a work, a band, a place: no person) when `token` is part of it."""
        if not self.title_spans or token.pos_ != "PROPN" or self.context.title_person:
            return None
        if not self.context.title_qualifies_a_thing and self._label(token) in {"PERSON", None}:
            return None  # a title that may be a person's name ("Europe '51" is a place's word: a thing)
        name = self.context.title_name
        return next((name for start, end in self.title_spans if start <= token.idx < end), None)

    def _is_specific_noun(self, token: Any, start: int, end: int) -> bool:
        """A common noun worth a graph node: not generic, not a bare plural, not a number word."""
        lemma = token.lemma_.lower()
        if token.pos_ not in {"NOUN", "PROPN", "NUM", "X"}:
            return (
                False  # an adjective alone ("best known for low-budget independent, ... films") is no thing
            )
        if lemma in GENERIC_NOUNS or token.lower_ in GENERIC_NOUNS:
            return False
        if lemma in BARE_CLASS_NOUNS and end - start == 1:
            return False  # "a degree", "by degree": which one is not said
        if token.pos_ == "NUM" and not any(ch.isdigit() for ch in token.text):
            return False
        text = self.doc[start:end].text
        if len(text) < 3 or not text[:1].isalnum():
            return False  # "re" of a split "re-election"
        determiners = {c.lower_ for c in token.children if c.dep_ in {"det", "amod"}}
        if determiners & {"many", "several", "various", "numerous", "few", "some", "other"}:
            return False  # "visiting many countries": which ones is not said
        if determiners & {"this", "that", "these", "those"}:
            return False  # "that city" points back to a name; it is not one
        if end - start == 1 and "the" in determiners and token.tag_ == "NN":
            return False  # "the company", "the clinic": a reference back, not a thing of its own
        owners = [c for c in token.children if c.dep_ == "poss"]
        owners += [
            t for t in self.doc[start:end] if t.tag_ == "PRP$" and t.i != token.i
        ]  # "his feature debut"
        if owners and lemma in RELATIONAL_NOUNS:
            return False  # "his father" without a name
        if any(o.lower_ in {"latter", "former"} for o in owners):
            return False  # "the latter's post-war trial": a reference back
        if any(c.dep_ == "amod" and c.lower_ == "latter" for c in token.children):
            return False  # "In the latter city he formed ...": a reference back
        # "his career", "her stage appearances", "his professional training", "his re-election
        # bid": the owner's, no thing of its own; but "known for his macabre sensibility"
        if (
            any(o.pos_ == "PRON" for o in owners)
            and not is_degree_token(token)
            and (end - start == 1 or token.tag_ == "NNS" or not known_for(token))
        ):
            return False
        if "the" in determiners and all(t.pos_ == "NUM" for t in self.doc[start:end] if t.i != token.i):
            return False  # "the two countries": a reference back
        return not (end - start == 1 and token.tag_ == "NNS")

    def _nominal(self, token: Any) -> Any:
        """The token an argument stands for: a relative pronoun's noun, an apposition's entity."""
        if token.lower_ in RELATIVE_PRONOUNS and token.head.dep_ == "relcl":
            antecedent = token.head.head
            if token.lower_ in PERSON_RELATIVES:
                antecedent = self._person_antecedent(antecedent)
            token = self._described_entity(antecedent)
        if token.pos_ == "NOUN":
            named = [c for c in token.children if c.dep_ == "appos" and self._is_entity_token(c)]
            if named:
                return named[0]
            called = self._called(token)
            if called is not None:
                return called
            if token.lemma_.lower() in PLACE_NOUNS:  # "the city of Atbara" -> Atbara
                named_place = self._named_compound(token)
                if named_place is not None:  # "the Santa Rita district of Yoro" -> Santa Rita
                    return named_place
                for prep, pobj in prepositional_objects(token, self):
                    if prep.lower_ == "of" and self._label(pobj) in PLACE_LABELS:
                        return pobj
            if token.dep_ == "appos" and self._is_entity_token(token.head):
                return token.head
        return token

    def _named_compound(self, noun: Any) -> Any | None:
        """The name right before a place noun: "Santa Rita" of "the Santa Rita district"."""
        for child in noun.children:
            if child.dep_ == "compound" and child.i == noun.i - 1 and self._label(child) in PLACE_LABELS:
                return child
        return None

    def _person_antecedent(self, antecedent: Any) -> Any:
        """ "who" is never a place: "a medalist from New Zealand who competed", "a farmer from
        Elkhart Lake, Wisconsin who spent": up through the place's apposition or conjunct and its
        preposition to the noun it describes."""
        token = antecedent
        for _ in range(6):
            if self._label(token) not in THING_LABELS - {"ORG"}:
                return token
            if token.dep_ in {"appos", "conj", "compound"} and token.head is not token:
                token = token.head
            elif token.dep_ == "pobj" and token.head.head.pos_ in {"NOUN", "PROPN"}:
                token = token.head.head
            else:
                break
        return antecedent

    def _is_plain_noun(self, token: Any) -> bool:
        return token.pos_ == "NOUN" and token.i not in self.entity_of and token.lower_ not in GENERIC_NOUNS

    def _label(self, token: Any) -> str | None:
        ent = self.entity_of.get(token.i)
        return ent.label_ if ent is not None else None

    def _is_entity_token(self, token: Any) -> bool:
        ent = self.entity_of.get(token.i)
        if ent is not None:
            return ent.label_ in NAMED_LABELS or ent.label_ in VALUE_LABELS
        return token.pos_ == "PROPN"

    def _may_be_person(self, token: Any) -> bool:
        """A name that a birth/death parenthesis would make a person (not an organisation or place)."""
        label = self._label(token)
        if token.lower_ in EVENT_WORDS | ORGANISATION_WORDS:
            return False  # "the Eighth Frontier War (1850–1853)": an event's years, no birth
        if label == "ORG" and token.pos_ == "PROPN":
            ent = self.entity_of[token.i]
            return len(ent) > 1 and not any(w.lower_ in ORGANISATION_WORDS for w in ent)
        return (label in {None, "PERSON", "NORP"} and token.pos_ == "PROPN") or self._is_person_token(token)

    def _is_person_token(self, token: Any) -> bool:
        argument_token = self._nominal(token)
        if argument_token.lower_ in PERSON_PRONOUNS:
            return True
        label = self._label(argument_token)
        if label == "PERSON":
            return True
        if argument_token.pos_ != "PROPN" and label is None:
            return False
        start, end = self._phrase_bounds(argument_token)
        words = self.doc[start:end].text.split()
        if (
            self.context.title_person
            and words
            and frozenset(words) <= frozenset(self.context.title_person.split())
        ):
            return True
        full = self.context.fuller_name(words, self.offset + self.doc[start].idx) if words else None
        return full is not None and self.context.labels.get(full) == "PERSON"

    def _phrase_bounds(self, token: Any) -> tuple[int, int]:
        """Token range of the entity containing the token, else of its noun phrase."""
        if is_degree_token(token):  # "a Certificate in Video Production", whatever its label
            return self._strip_bounds(*degree_bounds(token))
        ent = self.entity_of.get(token.i)
        if ent is not None:
            return self._entity_bounds(ent)
        return self._strip_bounds(*noun_phrase_bounds(token))

    def _entity_bounds(self, ent: Any) -> tuple[int, int]:
        """An entity's tokens, with the year of an event and the number of an address."""
        start = ent.start
        before = self.doc[start - 1] if start else None
        if (
            ent.label_ in NAMED_LABELS - {"PERSON", "NORP", "GPE", "LOC"}
            and before is not None
            and re.fullmatch(r"\d{4}", before.text)
            and before.head.i in range(ent.start, ent.end)
        ):
            start -= 1  # "the 1998 Winter Paralympics": the year is part of the name
        elif (
            ent.label_ == "FAC"
            and before is not None
            and before.like_num
            and before.dep_ == "nummod"
            and before.head.i in range(ent.start, ent.end)
        ):
            start -= 1  # "114 South Main Street": the house number is part of the address
        return self._strip_bounds(start, ent.end)

    def _strip_bounds(self, start: int, end: int) -> tuple[int, int]:
        """Without leading determiners ("the") and adverbs ("often"), or a trailing possessive ("'s")."""
        while start < end and (
            self.doc[start].pos_ in {"DET", "ADV"} or self.doc[start].lower_ in LEADING_WORDS
        ):
            start += 1
        while end > start and (self.doc[end - 1].tag_ == "POS" or self.doc[end - 1].is_punct):
            end -= 1
        while (
            end - start > 1
            and POSTNOMINAL.match(self.doc[end - 1].text)
            and self.doc[start].ent_type_ == "PERSON"
        ):
            end -= 1  # "Baron Dundas FRS", "Henry Dundas, PC": letters after a name are no part of it
        return start, end

"""Descriptions split into facts ("an English Conservative Party politician" -> occupation,
country_of_citizenship, member_of_political_party), works described ("a 1998 film"), and
fronted descriptions ("A member of the Komeito Party, he ...").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import pairwise
from typing import Any

from core.extract.spacy_rules.context import Argument, Candidate
from core.extract.spacy_rules.tree import (
    hyphenated_start,
    joined_by_hyphen,
    joined_hyphen,
    names_a_field,
    prepositional_objects,
)
from core.extract.spacy_rules.words import BARE_CLASS_NOUNS, MODIFIER_DEPS, PARTY_MEMBER_WORDS, SUBJECT_DEPS
from core.extract.vocabulary import (
    DEMONYMS,
    GENERIC_NOUNS,
    KIN_NOUNS,
    NON_OCCUPATION_ADJECTIVES,
    RELATIONAL_NOUNS,
    is_athlete_noun,
    is_demonym,
    is_person_noun,
)
from core.extract.works import describe_work, is_genre_word, is_work_noun


class DescriptionRules:
    """The descriptions rules of `ChunkRules` (a mixin: the state is `ChunkRules`'s)."""

    def _fronted_description_candidates(self) -> Iterator[Candidate]:
        """ "A member of the Komeito Party, he was elected ...", "An attorney by trade, he served ..."."""
        for sentence in self.sentences:
            first = sentence[0]
            if first.lower_ not in {"a", "an"}:
                continue
            comma = next((t for t in sentence if t.text == ","), None)
            if comma is None or comma.i + 1 >= sentence.end:
                continue
            subject_token = self.doc[comma.i + 1]
            if subject_token.dep_ not in SUBJECT_DEPS or subject_token.pos_ not in {"PRON", "PROPN"}:
                continue
            described = [t for t in self.doc[first.i : comma.i] if t.pos_ == "NOUN" and t.head.i >= comma.i]
            subject = self._argument(subject_token)
            if subject is None or subject.kind != "person":
                continue
            if len(described) == 1:
                yield from self._describe(subject, described[0], follow=False)
            elif comma.i == first.i + 2 and self.doc[first.i + 1].lower_ in PARTY_MEMBER_WORDS:
                party = self.doc[first.i + 1]  # "A Republican, he represented ..."
                argument = Argument(party.text, True, kind="org", token=party.i)
                yield Candidate(subject, [], argument, "member_of_political_party")

    def _describe(
        self, subject: Argument, noun: Any, follow: bool = True, siblings: Sequence[Any] = ()
    ) -> Iterator[Candidate]:
        """A description noun and its conjuncts split into facts about `subject`."""
        person = subject.kind == "person"
        done_entities: set[int] = set()
        described_nouns = self._description_nouns(noun) if follow else [noun]
        person_noun_listed = any(is_person_noun(n.lower_) for n in described_nouns)
        for described in described_nouns:
            if described.i in self.in_parentheses and noun.i not in self.in_parentheses:
                continue  # "a critic of Cultural Radicalism (Danish cultural relativist movement)"
            if person and described.tag_ == "NNS":
                continue  # one person is no "fortified defense positions": the parser joined another phrase
            segment_start = self.segment_starts.get(described.i, described.i)
            modifiers = [*described.lefts, *self.doc[segment_start : described.i]]
            lemma = described.lemma_.lower()
            # "X is a 1960 film": what is a film is no person; "a film, television and theatre
            # actor" is one, whose description lists a person noun
            work = is_work_noun(lemma) and (
                not person or (described.dep_ == "attr" and not person_noun_listed)
            )
            if work and person:
                subject, person = self._as_work(subject), False
            for token in dict.fromkeys(modifiers):
                for fact in self._modifier_facts(subject, token, person, done_entities):
                    yield (
                        replace(fact, relation="country_of_origin")
                        if work and fact.relation == "country"
                        else fact
                    )
            if work:
                yield from self._work_facts(subject, described, min([described.i, *(t.i for t in modifiers)]))
            value = self._occupation_argument(described)
            shared = self._shared_head(described, siblings or described_nouns) if person else None
            if shared is not None:  # "management and IT consultant" -> management consultant
                value = replace(value, text=f"{value.text} {shared.text}")
            generic = lemma in GENERIC_NOUNS | BARE_CLASS_NOUNS and " " not in value.text
            held = self._positions_held(described)
            # "was vice-president of the German-American Savings Bank": a title of the bank, no
            # occupation; "a retired minister of the Church of Scotland" stays one
            titled = any(prep.lower_ == "of" for _, prep, _ in held) and not self._indefinite_coordination(
                described
            )
            occupational = lemma not in RELATIONAL_NOUNS and not generic and not titled
            if described.i != noun.i and shared is None and not is_person_noun(described.lower_):
                occupational = False  # "a critic of X, Marxism and social policy": the parser's conjunct
            if person and occupational and not self._of_a_person(described):
                yield Candidate(subject, [], value, relation="occupation")
            elif subject.kind in {"org", "place"} and not generic and lemma not in KIN_NOUNS and not work:
                yield Candidate(subject, [], value, relation="instance_of")
            # a title keeps its words ("vice-president of", "assistant editor of"); "younger son of" is son_of
            hyphenated = self.doc[hyphenated_start(self.doc, described.i) : described.i + 1].text.lower()
            title = hyphenated if lemma in RELATIONAL_NOUNS else value.text.lower()
            own = list(prepositional_objects(described, self))
            for prep, pobj in own:
                yield from self._location_triples(pobj)  # "a player for the Yokohama B-Corsairs in Japan"
                if person and prep.lower_ in {"at", "for", "with"} and self._label(pobj) in {"ORG", "FAC"}:
                    relation = "member_of_political_party" if self._is_party(pobj) else "employer"
                    if is_athlete_noun(lemma) and prep.lower_ in {"for", "with"}:
                        relation = "member_of_sports_team"  # "a wide receiver for the Cincinnati Bengals"
                    yield Candidate(subject, [], pobj, relation=relation)
                else:
                    is_title = any(pobj.i == held_object.i for _, _, held_object in held)
                    yield Candidate(subject, [title if is_title else described.lower_, prep.lower_], pobj)
            if person and not own:  # "a co-founder and president of the Chamber": the "of" is shared
                for _, prep, pobj in held:
                    yield Candidate(subject, [title, prep.lower_], pobj)

    def _as_work(self, subject: Argument) -> Argument:
        if self.context.is_title_person(subject.text):
            self.context.title_person = None  # the title names this work; "he" is no longer its subject
        self.context.labels[subject.text] = "WORK_OF_ART"
        return replace(subject, kind="org")

    def _work_facts(self, work: Argument, noun: Any, start: int) -> Iterator[Candidate]:
        """ "a 1917 American silent Western film" -> publication_date, genre, instance_of."""
        tokens = list(self.doc[start : noun.i + 1])
        skipped = [self._outside_work_kind(t) for t in tokens]
        described = describe_work([t.text for t in tokens], len(tokens) - 1, skipped)
        if described.year is not None:
            year = tokens[described.year]
            yield Candidate(
                work, [], Argument(year.text, True, kind="date", token=year.i), "publication_date"
            )
        for genre_start, genre_end in described.genres:
            text = self.doc[start + genre_start : start + genre_end].text
            yield Candidate(
                work, [], Argument(text, False, kind="common", token=start + genre_start), "genre"
            )
        if described.year is None:
            for prep, pobj in prepositional_objects(noun, self):
                if prep.lower_ in {"from", "of"} and self._label(pobj) == "DATE" and pobj.text.isdigit():
                    yield Candidate(
                        work, [], Argument(pobj.text, True, kind="date", token=pobj.i), "publication_date"
                    )
        if described.kind and (len(described.kind) > 1 or noun.i == tokens[described.kind[-1]].i):
            text = tokens[described.kind[0]].text
            for previous, index in pairwise(described.kind):  # "black-and-white film" keeps its hyphens
                between = [t.text for t in tokens[previous + 1 : index]]
                hyphenated = "-" in between and set(between) <= {"-", "and"}
                text += ("".join(between) if hyphenated else " ") + tokens[index].text
            yield Candidate(work, [], Argument(text, False, kind="common", token=noun.i), "instance_of")

    def _outside_work_kind(self, token: Any) -> bool:
        """Articles, nationalities, names and praise words are no part of a work's kind."""
        ent = self.entity_of.get(token.i)
        if ent is not None and ent.label_ not in {"DATE", "CARDINAL"}:
            return True
        return (
            (token.pos_ in {"DET", "PRON", "ADV", "PUNCT"} and token.text != "-")
            or token.lower_ in DEMONYMS
            or token.lower_ in NON_OCCUPATION_ADJECTIVES
            or token.pos_ == "PROPN"
            or token.tag_ in {"JJS", "RBS", "JJR"}  # "the biggest selling album": praise, no kind
            or any(c.tag_ in {"JJS", "RBS"} for c in token.children)  # "best-selling"
            or (token.pos_ == "VERB" and not is_genre_word(token.text))  # "selling", "upcoming"
        )

    def _modifier_facts(
        self, subject: Argument, token: Any, person: bool, done_entities: set[int]
    ) -> Iterator[Candidate]:
        """Demonyms and party names among a description's modifiers; "English-born" a birthplace."""
        if token.dep_ not in MODIFIER_DEPS:
            return
        if token.lower_ == "born" and person and token.i >= 2 and joined_hyphen(self.doc[token.i - 1]):
            place = self.doc[token.i - 2]
            if place.text[:1].isupper():
                yield Candidate(
                    subject,
                    [],
                    Argument(place.text, True, kind="place", token=place.i),
                    relation="place_of_birth",
                )
            return
        if names_a_field(token):
            return  # "an Australian rules footballer", "an American football player": a sport, no nationality
        ent = self.entity_of.get(token.i)
        if ent is not None:
            if ent.start in done_entities:
                return
            done_entities.add(ent.start)
        relation = "country_of_citizenship" if person else "country"
        if (ent is not None and ent.label_ in {"NORP", "LANGUAGE", "GPE"} and ent.label_ != "GPE") or (
            ent is None and token.lower_ in DEMONYMS
        ):
            start = ent.start if ent is not None else token.i
            if start >= 2 and self.doc[start - 1].text == "-" and self.doc[start - 2].text[:1].isupper():
                start -= 2  # "Franco-Flemish"
            end = ent.end if ent is not None else token.i + 1
            text = self.doc[start:end].text
            if is_demonym(text):
                yield Candidate(
                    subject, [], Argument(text, True, kind="place", token=token.i), relation=relation
                )
        elif ent is not None and ent.label_ == "ORG":
            words = ent.text.split()
            if words and words[0].lower() in {"the", "a", "an"}:
                words = words[1:]
            if words and words[0].lower() in DEMONYMS:
                yield Candidate(
                    subject, [], Argument(words[0], True, kind="place", token=token.i), relation=relation
                )
                words = words[1:]
            if words and person and re.search(r"\bpart(y|ies)\b", " ".join(words), re.I):
                party = Argument(" ".join(words), True, kind="org", token=token.i)
                yield Candidate(subject, [], party, relation="member_of_political_party")
            elif words and person and token.dep_ == "compound" and token.pos_ == "PROPN":
                employer = Argument(" ".join(words), True, kind="org", token=token.i)
                yield Candidate(subject, [], employer, relation="employer")  # "a Mossad officer"

    def _occupation_argument(self, noun: Any) -> Argument:
        """The noun with its common-noun compounds and descriptive adjectives ("set decorator")."""
        if noun.i in self.segment_starts:
            return self._listed_occupation(noun)
        start = noun.i
        for child in reversed(list(noun.lefts)):
            if child.right_edge.i != start - 1 or child.dep_ not in {"compound", "amod", "nmod"}:
                break
            if names_a_field(child):  # "Australian rules footballer"
                start = child.left_edge.i
                continue
            if self.entity_of.get(child.i) is not None or child.pos_ in {"PROPN", "NUM"}:
                break
            if child.lower_ in NON_OCCUPATION_ADJECTIVES | DEMONYMS or child.lower_ == "born":
                break  # "English-born jazz saxophonist": a birthplace, no part of the occupation
            start = child.left_edge.i
        start = hyphenated_start(noun.doc, start)
        while start > 0 and self._is_plain_noun(self.doc[start - 1]) and start - 1 not in self.in_parentheses:
            start -= 1  # "university professor" parsed as two conjuncts
        joints = [t.i for t in self.doc[start : noun.i] if t.pos_ == "CCONJ" or t.text in {",", ";"}]
        if joints:  # "a Norwegian philosopher and working life researcher": only the last one's words
            start = joints[-1] + 1
        while (
            start < noun.i
            and not joined_by_hyphen(self.doc, start)
            and (
                self.doc[start].pos_ in {"DET", "PUNCT"}
                or self.doc[start].lower_ in NON_OCCUPATION_ADJECTIVES
                or (self.doc[start].lower_ in DEMONYMS and not names_a_field(self.doc[start]))
                or self.doc[start].lower_ == "born"  # "Canadian-born fisheries scientist"
                or self._graded_adjective(self.doc[start])
            )
        ):
            start += 1
        return Argument(self.doc[start : noun.i + 1].text, False, kind="common", token=noun.i)

    @staticmethod
    def _graded_adjective(token: Any) -> bool:
        """ "tactically versatile": an adverb and the adjective it grades judge, they name no occupation."""
        if token.pos_ == "ADV":
            return True
        return token.pos_ == "ADJ" and any(c.dep_ == "advmod" and c.i < token.i for c in token.children)

    def _listed_occupation(self, noun: Any) -> Argument:
        """A listed description's words without determiners, demonyms, names and "former"."""
        start = self.segment_starts[noun.i]
        while (
            start < noun.i
            and not names_a_field(self.doc[start])
            and (
                self.doc[start].pos_ in {"DET", "PUNCT", "ADV", "PROPN", "NUM"}
                or self.doc[start].lower_ in NON_OCCUPATION_ADJECTIVES
                or self.doc[start].lower_ in DEMONYMS
                or start in self.entity_of
            )
        ):
            start += 1
        start = min(start, hyphenated_start(self.doc, noun.i))  # "co-founder": "co" is no adverb to drop
        return Argument(self.doc[start : noun.i + 1].text, False, kind="common", token=noun.i)

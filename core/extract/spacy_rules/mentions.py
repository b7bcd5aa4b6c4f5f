"""Mentions and pronouns: full names registered per sentence, genders, and a pronoun's referent
when it is certain.
"""

from __future__ import annotations

from typing import Any

from core.extract.spacy_rules.tree import lemma_of
from core.extract.spacy_rules.words import (
    MALE_PRONOUNS,
    NAMED_LABELS,
    PERSON_PRONOUNS,
    SUBJECT_DEPS,
    THING_PRONOUNS,
)
from core.extract.vocabulary import (
    FEMALE_NOUNS,
    KIN_NOUNS,
    MALE_NOUNS,
)
from core.types import normalize_entity


class MentionRules:
    """The mentions rules of `ChunkRules` (a mixin: the state is `ChunkRules`'s)."""

    def _register_mentions(self) -> None:
        """Full names into the document context; mentions per sentence for pronouns."""
        for ent in self.doc.ents:
            if ent.label_ not in NAMED_LABELS:
                continue
            start, end = self._strip_bounds(ent.start, ent.end)
            if start >= end:
                continue
            text = self.doc[start:end].text.strip()
            words = text.split()
            if not words:
                continue  # an entity of whitespace only ("? ––  \nCorser": the span before the name)
            first_char = self.offset + self.doc[start].idx
            capitalised = all(w[:1].isupper() for w in words)
            full = self.context.fuller_name(words, first_char, ent.label_) if capitalised else None
            if (
                full is None
                and self.context.title_person
                and words
                and len(words) == 1
                and (words[0] in self.context.title_person.split())
            ):
                full = self.context.title_person
            label = "PERSON" if full == self.context.title_person and full else ent.label_
            name = full or text
            if full is None:
                self.context.add_name(
                    text, ent.label_, self.offset + self.doc[end - 1].idx + len(self.doc[end - 1])
                )
            self.mentions_by_sentence[self.sentence_of[start]].append((start, name, label))
            if ent.root.dep_ in SUBJECT_DEPS:
                self.context.subject_names.add(name)
        for token in self.doc:  # partial names the tagger missed ("Voss moved to Berlin")
            if token.i not in self.entity_of and token.pos_ in {"PROPN", "NOUN"} and token.text[:1].isupper():
                full = self.context.fuller_name([token.text], self.offset + token.idx)
                if full is not None:
                    label = self.context.labels.get(full, "PERSON")
                    self.mentions_by_sentence[self.sentence_of[token.i]].append((token.i, full, label))
        self._register_genders()

    def _register_genders(self) -> None:
        """ "X's father, Danny" / "his wife Ida": the kinship noun gives the named person's gender."""
        for token in self.doc:
            lower = token.lower_
            if lower not in MALE_NOUNS and lower not in FEMALE_NOUNS:
                continue
            for named in (c for c in token.children if c.dep_ in {"appos", "compound"}):
                ent = self.entity_of.get(named.i)
                if ent is not None and ent.label_ == "PERSON":
                    name = self.context.fuller_name(ent.text.split(), 10**12) or ent.text
                    self.context.genders[name] = "male" if lower in MALE_NOUNS else "female"

    def _resolve_pronoun(self, pronoun: Any) -> tuple[str, str] | None:
        lower = pronoun.lower_
        if lower in PERSON_PRONOUNS:
            labels = {"PERSON"}
            excluded = "female" if lower in MALE_PRONOUNS else "male"
        elif lower in THING_PRONOUNS:
            labels = {"ORG", "FAC", "GPE", "LOC", "PRODUCT", "WORK_OF_ART", "EVENT"}
            excluded = ""
        else:
            return None
        sentence = self.sentence_of[pronoun.i]
        candidates = {
            name: label
            for index in (sentence - 1, sentence)
            for start, name, label in self.mentions_by_sentence.get(index, [])
            if label in labels and start < pronoun.i and self.context.genders.get(name) != excluded
        }
        title = self.context.title_person
        if title and labels == {"PERSON"} and self.context.genders.get(title) != excluded:
            # The passage's title person is always a candidate; names containing it are the same person.
            same = [name for name in candidates if self.context.is_title_person(name)]
            for name in same:
                del candidates[name]
            candidates[max([*same, title], key=len)] = "PERSON"
        if labels != {"PERSON"} and self._is_subject_pronoun(pronoun) and self.context.title_is_a_thing():
            # "Five Branded Women is a 1960 film ... It features ...": the work, as the previous
            # main clause's subject, is the referent of a subject "it"
            subject = self._main_subject(sentence - 1)
            if subject is not None and normalize_entity(subject) == normalize_entity(self.context.title_name):
                return self.context.title_name, "WORK_OF_ART"
        if len(candidates) == 1:
            return next(iter(candidates.items()))
        if title and labels == {"PERSON"} and self._is_subject_pronoun(pronoun):
            # "Corser was born ... to Edward Corser and Mary Jane. He was educated ...": the
            # title person as the previous main clause's subject is the referent of a subject "he"
            # (or of "his" in the subject "His mother"), also when that subject was itself a "he".
            subject = self._main_subject(sentence - 1)
            if subject is not None and self.context.is_title_person(subject):
                return subject, "PERSON"
        return None

    @staticmethod
    def _possessive_pronoun(noun: Any) -> Any | None:
        """ "his" of "His father"."""
        return next((c for c in noun.children if c.dep_ == "poss" and c.lower_ in PERSON_PRONOUNS), None)

    @staticmethod
    def _is_subject_pronoun(pronoun: Any) -> bool:
        return pronoun.dep_ in SUBJECT_DEPS or (pronoun.dep_ == "poss" and pronoun.head.dep_ in SUBJECT_DEPS)

    def _main_subject(self, sentence_index: int) -> str | None:
        if sentence_index < 0:
            return None
        root = self.sentences[sentence_index].root
        subjects = [c for c in root.children if c.dep_ in SUBJECT_DEPS]
        if len(subjects) != 1:
            return None
        if subjects[0].pos_ == "PRON":
            resolved = self._resolve_pronoun(subjects[0])  # looks only at earlier sentences
            return resolved[0] if resolved is not None else None
        owner = self._possessive_pronoun(subjects[0])
        described = lemma_of(root) == "be" or subjects[0].tag_ == "NNS"  # "His parents divorced": no "he"
        if owner is not None and subjects[0].lemma_.lower() in KIN_NOUNS and described:
            # "His father was a policeman named X. He joined ...": a sentence describing the
            # title person's relative keeps the title person as the topic ("His father joined
            # the army. He ..." would not: there the father acts and may go on acting)
            resolved = self._resolve_pronoun(owner)
            return resolved[0] if resolved is not None else None
        argument = self._argument(subjects[0])
        return argument.text if argument is not None else None

    def _sentence_span(self, head_token: int | None, tail_token: int | None) -> tuple[int, int]:
        indices = [i for i in (head_token, tail_token) if i is not None] or [0]
        first = self.sentences[self.sentence_of[min(indices)]]
        last = self.sentences[self.sentence_of[max(indices)]]
        start, end = first.start_char, last.end_char
        while end > start and self.text[end - 1].isspace():
            end -= 1
        return start + self.offset, end + self.offset

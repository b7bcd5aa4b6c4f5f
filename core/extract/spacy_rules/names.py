"""Names: birth names ("née Smith"), titles before a name ("Senator John Smith") and relatives
named after a copula ("his father was John Smith").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from core.extract.spacy_rules.context import Argument, Candidate
from core.extract.spacy_rules.words import MAIDEN_MARKERS, TITLE_MODIFIERS
from core.extract.vocabulary import (
    KIN_NOUNS,
    PERSONAL_HONORIFICS,
    is_person_noun,
    title_relation,
)


class NameRules:
    """The names rules of `ChunkRules` (a mixin: the state is `ChunkRules`'s)."""

    def _maiden_names(self) -> dict[int, int]:
        """'Sarah Hutchings "née" Reneer', "Mary Kemp née Ward", "(née Smith; born 1950)": the birth
        name's tokens stand for the person named before "née"."""
        found: dict[int, int] = {}
        for token in self.doc:
            if token.lower_ not in MAIDEN_MARKERS:
                continue
            before = token.i - 1
            while before >= 0 and self.doc[before].text in {'"', "“", "”", "("}:
                before -= 1
            start = token.i + 1
            while start < len(self.doc) and self.doc[start].text in {'"', "“", "”"}:
                start += 1
            end = start
            while end < len(self.doc) and end - start < 3 and self.doc[end].text[:1].isupper():
                end += 1
            if before < 0 or end == start or not self.doc[before].text[:1].isupper():
                continue
            for index in range(start, end):
                found[index] = before
        return found

    def _birth_name_candidates(self) -> Iterator[Candidate]:
        spans: dict[int, list[int]] = defaultdict(list)  # the married name's last token -> birth name tokens
        for index, person_end in self.maiden_name_of.items():
            spans[person_end].append(index)
        for person_end, indices in spans.items():
            person = self._argument(self.doc[person_end])
            if person is not None:
                text = self.doc[min(indices) : max(indices) + 1].text
                birth_name = Argument(text, True, kind="name", token=min(indices))
                yield Candidate(replace(person, kind="person"), [], birth_name, "birth_name")

    def _title_before_name_candidates(self) -> Iterator[Candidate]:
        """ "by Governor Clarence D. Martin" -> position_held Governor; "Captain Raginis" -> military_rank."""
        for ent in self.doc.ents:
            if ent.label_ != "PERSON":
                continue
            start = ent.start
            while start > 0 and self.doc[start - 1].lower_ in PERSONAL_HONORIFICS:
                start -= 1  # "General Sir Ian Hamilton"
            first = start
            while first > 0 and self._is_title_word(self.doc[first - 1]) and start - first < 4:
                first -= 1
            if first == start:
                continue
            words = [t.text for t in self.doc[first:start] if t.lower_ not in PERSONAL_HONORIFICS]
            if not words:
                continue  # honorifics only ("Dr. Mrs. Voss"): no title to read
            relation = title_relation(words[-1].lower())
            if relation is None or first in self.in_parentheses:
                continue
            person = self._argument(self.doc[ent.end - 1])
            if person is not None:
                title = Argument(" ".join(words), False, kind="common", token=first)
                yield Candidate(replace(person, kind="person"), [], title, relation=relation)

    def _is_title_word(self, token: Any) -> bool:
        if not token.text[:1].isupper() or token.i in self.entity_of:
            return False
        following = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
        if token.text in TITLE_MODIFIERS and following is not None and self._is_title_word(following):
            return True  # "Vice" of "Vice Admiral", "Air Force" of "Air Force Vice Admiral"
        return title_relation(token.lower_) is not None

    def _relative_named_after_copula_candidates(self) -> Iterator[Candidate]:
        """ "His biological father was noted stage and film actor Richard Hart" -> father, occupation.

        Read off the words, since the small parser takes "noted" for the verb: a possessed
        kinship noun, "was"/"is", then only descriptive words up to a person's name that ends
        the clause. The last noun before the name is the relative's occupation.
        """
        for kin in self.doc:
            owner = next((c for c in kin.children if c.dep_ == "poss"), None)
            if owner is None or kin.lemma_.lower() not in KIN_NOUNS or kin.tag_ == "NNS":
                continue
            copula = kin.i + 1
            if copula >= len(self.doc) or self.doc[copula].lower_ not in {"was", "is"}:
                continue
            name_start = copula + 1
            while name_start < len(self.doc) and self._describes_a_name(self.doc[name_start]):
                name_start += 1
            ent = self.entity_of.get(name_start) if name_start < len(self.doc) else None
            if (
                ent is None
                or ent.label_ != "PERSON"
                or ent.start != name_start
                or not self._ends_clause(ent.end)
            ):
                continue
            named = self.doc[ent.end - 1]
            yield Candidate(owner, [kin.lower_], named)
            described = self.doc[name_start - 1]
            if described.pos_ == "NOUN" and is_person_noun(described.lower_):
                value = Argument(described.lower_, False, kind="common", token=described.i)
                yield Candidate(named, [], value, relation="occupation")

    def _describes_a_name(self, token: Any) -> bool:
        return token.i not in self.entity_of and (
            token.tag_ in {"DT", "JJ", "NN", "NNS", "CC", "VBN", "HYPH"} and token.text[:1].islower()
        )

    def _ends_clause(self, index: int) -> bool:
        return index >= len(self.doc) or self.doc[index].text in {".", ",", ";", "(", ":"}

"""Facts from the parenthesis after a name: "Name (born 1964 in Turin)", lifespans in
lists ("Name, (1852–1928) Australian politician") and native names ("Ivan Petrov (Russian: ...)").

The parenthesis itself is parsed by `core.extract.lifespans`; this mixin finds it and its person.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from core.extract.lifespans import parse_parenthetical
from core.extract.spacy_rules.context import Argument, Candidate
from core.extract.spacy_rules.words import NATIVE_NAME, VALUE_LABELS


class LifespanRules:
    """The lifespans rules of `ChunkRules` (a mixin: the state is `ChunkRules`'s)."""

    def _lifespan_candidates(self) -> Iterator[Candidate]:
        """ "Name (born 1964 in Turin)", "Name, (1852–1928) Australian politician"."""
        for open_paren in self.doc:
            if open_paren.text != "(":
                continue
            close = self._closing_paren(open_paren.i)
            name_end = open_paren.i - 1
            while name_end >= 0 and self.doc[name_end].is_space:
                name_end -= 1  # "Franz Šedivý  (2 December 1864 – 20 April 1945)": a double space
            while name_end >= 0 and self.doc[name_end].text == ")":  # "Name (also X) (1554 – 1598)"
                opening = self._opening_paren(name_end)
                if opening is None:
                    break
                name_end = opening - 1
            if name_end >= 0 and self.doc[name_end].text == ",":
                name_end -= 1
            if close is None or name_end < 0 or not self._may_be_person(self.doc[name_end]):
                continue
            name_end = self._name_before_also_known_as(name_end)
            inner_start = open_paren.idx + 1
            facts = parse_parenthetical(self.text[inner_start : self.doc[close].idx])
            if not facts and not self._is_person_token(self.doc[name_end]):
                continue
            person = self._argument(self.doc[name_end])
            if person is None:
                continue
            if person.kind != "person":
                self.context.labels[person.text] = "PERSON"
                person = Argument(person.text, True, person.from_pronoun, "person", person.token)
            for prop, value, start, _end in facts:
                yield from self._lifespan_fact(person, prop, value, inner_start + start, open_paren.i)
            yield from self._description_after(person, close)

    def _name_before_also_known_as(self, name_end: int) -> int:
        """ "Georg Wilhelm Timm, also known as Vasily Fyodorovich Timm (1820 – 1895)": the lifespan
        is the first name's; the second is another name of the same person."""
        start = min(self._phrase_bounds(self.doc[name_end])[0], self.doc[name_end].left_edge.i)
        before = [t.lower_ for t in self.doc[max(0, start - 4) : start]]
        for cue in (["also", "known", "as"], ["known", "as"], ["a.k.a", "."], ["aka"]):
            if before[-len(cue) :] == cue:
                index = start - len(cue) - 1
                if index >= 0 and self.doc[index].text == ",":
                    index -= 1
                if index >= 0 and self._may_be_person(self.doc[index]):
                    return index
        return name_end

    def _native_name_candidates(self) -> Iterator[Candidate]:
        """ "Masayoshi Soken (祖堅正慶)", "Ivan Petrov (Russian: Иван Петров)" -> native_name."""
        for open_paren in self.doc:
            if open_paren.text != "(" or open_paren.i == 0:
                continue
            close = self._closing_paren(open_paren.i)
            name = self.doc[open_paren.i - 1]
            if close is None or not self._is_entity_token(name) or self._label(name) in VALUE_LABELS:
                continue
            first_clause = self.text[open_paren.idx + 1 : self.doc[close].idx].split(";")[0]
            # "(Russian: Иван Петров; born 1950)", "(中谷 正義, Nakatani Masayoshi, born March 8, 1989)"
            inner = NATIVE_NAME.match(first_clause) or NATIVE_NAME.match(first_clause.split(",")[0])
            if inner is None or not any(ch.isalpha() for ch in inner.group(1)):
                continue
            argument = self._argument(name)
            if argument is not None:
                value = Argument(inner.group(1).strip(), True, kind="name", token=open_paren.i + 1)
                yield Candidate(argument, [], value, relation="native_name")

    def _lifespan_fact(
        self, person: Argument, prop: str, value: str, char: int, anchor: int
    ) -> Iterator[Candidate]:
        kind = "date" if prop.startswith(("date", "work_period")) or prop == "floruit" else "place"
        parts = [p.strip() for p in value.split(",") if p.strip()] if kind == "place" else [value]
        token = self._token_at(char)
        anchor = token.i if token is not None else anchor
        after_preposition = (
            token is not None and token.i > 0 and self.doc[token.i - 1].lower_ in {"in", "at", "near"}
        )
        if (
            prop == "place_of_birth"
            and token is not None
            and self._label(token) == "PERSON"
            and not after_preposition
        ):
            # "(born Christopher Comstock Hart)": a birth name, not a place
            yield Candidate(
                person, [], Argument(value, True, kind="name", token=anchor), relation="birth_name"
            )
            return
        yield Candidate(person, [], Argument(parts[0], True, kind=kind, token=anchor), relation=prop)
        for inner, outer in pairwise(parts):
            yield Candidate(
                Argument(inner, True, kind="place", token=anchor),
                [],
                Argument(outer, True, kind="place", token=anchor),
                relation="located_in",
            )

    def _description_after(self, person: Argument, close: int) -> Iterator[Candidate]:
        """The noun phrase right after a lifespan in a list: "(1852–1928) Australian politician"."""
        start = close + 1
        if start < len(self.doc) and self.doc[start].text == ",":
            start += 1
        end = start
        while end < len(self.doc) and self.doc[end].pos_ in {"ADJ", "NOUN", "PROPN", "CCONJ", "PUNCT", "DET"}:
            if self.doc[end].text in {";", ".", "(", ")"}:
                break
            end += 1
        nouns = [t for t in self.doc[start:end] if (t.pos_ == "NOUN" and t.head.i >= end) or t.pos_ == "NOUN"]
        if not nouns:
            return
        root = max(nouns, key=lambda t: t.i) if nouns else None
        # a conjunct right before another noun modifies it ("animal and landscape painter")
        roots = {root} | {
            t
            for t in nouns
            if t.dep_ == "conj"
            and t.head in nouns
            and (t.i + 1 == len(self.doc) or self.doc[t.i + 1].pos_ != "NOUN")
        }
        ordered = sorted(roots, key=lambda t: t.i)
        for noun in ordered:
            yield from self._describe(person, noun, follow=False, siblings=ordered)

    def _closing_paren(self, open_index: int) -> int | None:
        sentence = self.sentences[self.sentence_of[open_index]]
        limit = min(len(self.doc), max(sentence.end, open_index + 1) + 40)
        for i in range(open_index + 1, limit):
            if self.doc[i].text == ")":
                return i
            if self.doc[i].text == "(":
                return None
        return None

    def _opening_paren(self, close_index: int) -> int | None:
        for i in range(close_index - 1, max(-1, close_index - 40), -1):
            if self.doc[i].text == "(":
                return i
            if self.doc[i].text == ")":
                return None
        return None

    def _parenthesised_tokens(self) -> set[int]:
        inside: set[int] = set()
        for token in self.doc:
            if token.text == "(":
                close = self._closing_paren(token.i)
                if close is not None:
                    inside.update(range(token.i, close + 1))
        return inside

    def _token_at(self, char: int) -> Any | None:
        span = self.doc.char_span(char, char + 1, alignment_mode="expand")
        return span[0] if span is not None and len(span) else None

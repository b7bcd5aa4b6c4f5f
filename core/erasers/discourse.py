"""What a deletion does to the sentences around it: a pronoun must still have someone to refer to.

When the sentence that named a person goes (every fact in it private), the next sentence's
"He" or "His" is left with nobody to refer to ("He directed 59 films. His son was a film
producer."). The first such pronoun is replaced by the name of the passage's topic (the
person the original names most often, in their longest form) when the original named them
before it. A passage that began with a pronoun is left as it was: its reader had no name
either.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from core.erasers.fluency import Parser, sentence_pieces

SUBJECT_PRONOUNS = {"he", "she"}
POSSESSIVE_PRONOUNS = {"his", "her"}
_PRONOUN = re.compile(r"\b(?:[Hh]e|[Ss]he|[Hh]is|[Hh]er)\b")


def restore_first_mentions(original_doc: Any, text: str, parse: Parser | None = None) -> str:
    """`text` (a rewrite of the doc's text) with a pronoun that lost its antecedent replaced by the name."""
    # a one-word "person" is as often a place the small parser mislabels ("Glasgow returned.")
    people = [ent for ent in original_doc.ents if ent.label_ == "PERSON" and len(_full_name(ent).split()) > 1]
    if not people:
        return text
    names = _name_forms(people)
    pieces = sentence_pieces(text)
    for index, piece in enumerate(pieces):
        if _names_someone(piece, names):
            return text
        match = _PRONOUN.search(piece)
        if match is None:
            continue
        position = _original_position(original_doc.text, piece, match.start())
        name = _antecedent(original_doc, people, position)
        if name is None:
            return text
        pieces[index] = _with_name(piece, match, name, parse)
        return "".join(pieces)
    return text


def _name_forms(people: list[Any]) -> set[str]:
    """Each person's name and its last word (the surname an article goes on with)."""
    forms = set()
    for ent in people:
        forms.add(ent.text)
        words = [w for w in ent.text.split() if len(w) > 2 and w[:1].isupper()]
        if words:
            forms.add(words[-1])
    return forms


def _names_someone(piece: str, names: set[str]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", piece) for name in names)


def _original_position(original: str, piece: str, offset: int) -> int:
    """Where the piece's pronoun sat in the original (the words after it are usually kept), else its end."""
    words = piece[offset:].split()
    for count in range(min(len(words), 6), 1, -1):  # the longest run of its words the original has
        found = original.find(" ".join(words[:count]).rstrip(".,;:!?"))
        if found >= 0:
            return found
    return len(original)


def _antecedent(doc: Any, people: list[Any], position: int) -> str | None:
    """The person a pronoun at `position` of the original referred to: the passage's topic (the person
    named most often, by surname) when named before it; None without anyone named before it."""
    before = [ent for ent in people if ent.end_char <= position]
    if not before:
        return None
    counts = Counter(_surname(ent) for ent in people)
    topic = max(before, key=lambda ent: (counts[_surname(ent)], -ent.start))
    forms = [_full_name(ent) for ent in people if _surname(ent) == _surname(topic)]
    return max(forms, key=len)


def _surname(ent: Any) -> str:
    return _full_name(ent).split()[-1]


def _full_name(ent: Any) -> str:
    """The entity with capitalised name words the small parser left outside it ("William Archibald| Wall")."""
    doc = ent.doc
    end = ent.end
    while (
        end < len(doc) and doc[end].pos_ == "PROPN" and doc[end].text[:1].isupper() and not doc[end].ent_type_
    ):
        end += 1
    return doc[ent.start : end].text.strip(" ,;:")


def _with_name(piece: str, match: re.Match[str], name: str, parse: Parser | None) -> str:
    word = match.group(0)
    if word.lower() in SUBJECT_PRONOUNS:
        replacement = name
    elif word.lower() == "his" or _is_possessive_her(piece, match, parse):
        replacement = name + ("'" if name.endswith("s") else "'s")
    else:
        replacement = name
    return piece[: match.start()] + replacement + piece[match.end() :]


def _is_possessive_her(piece: str, match: re.Match[str], parse: Parser | None) -> bool:
    if parse is None:
        following = piece[match.end() :].lstrip()
        return bool(following[:1].isalpha())
    for token in parse(piece):
        if token.idx == match.start():
            return token.tag_ == "PRP$"
    return False

"""Entity fixes before the rules run: quoted nicknames, possessive and coordinated names merged;
coordinated institutions and maiden names split.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from core.extract.spacy_rules.words import (
    CONNECTORS,
    MAIDEN_MARKERS,
    NAMED_PLACE_WORDS,
    ORGANISATION_WORDS,
    UNIT_WORDS,
)
from core.extract.vocabulary import (
    is_demonym,
)

_QUOTES = {'"', "“", "”"}


# Cheap tests on the text before a pass over the tokens (most passages have none of these).
_MAY_HAVE_NICKNAME = re.compile(r'[A-Z][\w.]* ["“][A-Z]')


_MAY_HAVE_POSSESSIVE_NAME = re.compile(r"[A-Z]\w*(?:['’]s|s['’])\s+(?:[A-Z]\w*\s+)*[A-Z]")


_MAY_HAVE_COORDINATED_NAME = re.compile(r"[A-Z]\w* of [A-Z]\w* and [A-Z]")


def merge_quoted_nicknames(doc: Any, text: str) -> None:
    """'Gerald Warner "Jerry" Brightman' is one person's name; the tagger cuts it at the quotes."""
    if not _MAY_HAVE_NICKNAME.search(text):
        return
    spans = []
    for open_quote in doc:
        i = open_quote.i
        if open_quote.text not in _QUOTES or i == 0 or i + 3 >= len(doc):
            continue
        close = next((j for j in range(i + 2, min(i + 4, len(doc))) if doc[j].text in _QUOTES), None)
        if close is None or close + 1 >= len(doc):
            continue
        words = [*doc[i - 1 : i], *doc[i + 1 : close], doc[close + 1]]
        if not all(t.pos_ == "PROPN" and t.text[:1].isupper() for t in words):
            continue
        start, end = i - 1, close + 2
        while start > 0 and _may_be_given_name(doc[start - 1]):
            start -= 1  # the given names; not "Congressman Dr." before them
        while end < len(doc) and doc[end].pos_ == "PROPN" and doc[end].text[:1].isupper():
            end += 1
        spans.append(doc[start:end])
    _set_entities(doc, spans, "PERSON")


_HONORIFICS = frozenset(
    {
        "sir", "dame", "lord", "lady", "king", "queen", "prince", "princess", "saint", "mr", "mrs", "ms",
        "miss", "dr", "doctor", "professor", "president", "senator", "congressman", "congresswoman",
        "governor", "mayor", "judge", "justice", "general", "colonel", "captain", "major", "lieutenant",
        "admiral", "bishop", "father", "brother", "sister", "reverend", "rabbi", "imam", "sheikh",
    }
)  # fmt: skip


def _may_be_given_name(token: Any) -> bool:
    if token.ent_type_ == "PERSON":
        return True
    text = token.text
    return (
        token.pos_ == "PROPN"
        and text[:1].isupper()
        and not text.endswith(".")
        and text.lower() not in _HONORIFICS
    )


def merge_possessive_names(doc: Any, text: str) -> None:
    """ "the Queen's Theatre", "Christian Brothers' School", "St. Thomas's Hospital": one name.

    The tagger cuts such names at the possessive ("Theatre" alone an organisation, "St.
    Thomas's" a place). A named owner right before an organisation word makes one name, unless
    the owner is a place ("Iceland's Social Pedagogue School") or the organisation word has a
    name of its own after it ("European Parliament's Committee on Civil Liberties").
    """
    if not _MAY_HAVE_POSSESSIVE_NAME.search(text):
        return
    spans = []
    for head in doc:
        if head.pos_ != "PROPN" or head.lower_ not in NAMED_PLACE_WORDS:
            continue
        marker = next((t for t in doc[max(0, head.i - 4) : head.i] if t.tag_ == "POS"), None)
        if marker is None or marker.i < 1:
            continue
        owner = doc[marker.i - 1]
        between = doc[marker.i + 1 : head.i]  # "Christian Brothers' High School"
        if owner.pos_ != "PROPN" or not owner.text[:1].isupper() or owner.head.i != head.i:
            continue
        if not all(t.pos_ == "PROPN" and t.dep_ == "compound" for t in between):
            continue
        if any(c.dep_ == "prep" and c.lower_ in {"of", "on", "for"} and c.i > head.i for c in head.children):
            continue  # "European Parliament's Committee on Civil Liberties": a name of its own
        start = owner.i
        while start > 0 and doc[start - 1].dep_ == "compound" and doc[start - 1].pos_ == "PROPN":
            start -= 1
        owner_words = {t.lower_ for t in doc[start : owner.i + 1]}
        saint = doc[start].lower_.rstrip(".") in {"st", "saint"}
        if owner_words & ORGANISATION_WORDS or (owner.ent_type_ in {"GPE", "LOC"} and not saint):
            continue  # "New York University's Kanbar Institute", "Iceland's Social Pedagogue School"
        spans.append(doc[start : head.i + 1])
    _set_entities(doc, spans, "ORG")


def merge_coordinated_names(doc: Any, text: str) -> None:
    """ "School of Oriental and African Studies", "Professor of Nepali and Himalayan Studies".

    A name does not end in an adjective: after "of", a capitalised adjective or nationality
    followed by "and" shares the noun that ends the next capitalised words, so the name runs
    on to it (the tagger makes "the School of Oriental" and "African Studies" two names).
    """
    if not _MAY_HAVE_COORDINATED_NAME.search(text):
        return
    spans = []
    for of in doc:
        k = of.i
        if of.lower_ != "of" or k == 0 or k + 3 >= len(doc):
            continue
        before, shared, conjunction = doc[k - 1], doc[k + 1], doc[k + 2]
        if before.pos_ != "PROPN" or not before.text[:1].isupper() or conjunction.lower_ != "and":
            continue
        if not shared.text[:1].isupper() or not (
            shared.pos_ == "ADJ" or shared.ent_type_ == "NORP" or is_demonym(shared.text)
        ):
            continue
        end = k + 3
        while end < len(doc) and doc[end].text[:1].isupper() and doc[end].pos_ in {"PROPN", "ADJ"}:
            end += 1
        if end == k + 3 or doc[end - 1].pos_ != "PROPN":
            continue
        start = k - 1
        while start > 0 and doc[start - 1].pos_ == "PROPN" and doc[start - 1].text[:1].isupper():
            start -= 1
        spans.append(doc[start:end])
    _set_entities(doc, spans, "ORG")


def split_entities(doc: Any, cut_of: Callable[[Any], tuple[int, int, str] | None]) -> None:
    """Each entity that `cut_of` cuts, as (left end, right start, right label), becomes two."""
    from spacy.tokens import Span  # spaCy loads with the model, not with this module

    ents, changed = [], False
    for ent in doc.ents:
        cut = cut_of(ent)
        if cut is None:
            ents.append(ent)
            continue
        left_end, right_start, right_label = cut
        ents += [
            Span(doc, ent.start, left_end, label=ent.label_),
            Span(doc, right_start, ent.end, label=right_label),
        ]
        changed = True
    if changed:
        doc.ents = ents


def split_at_maiden_name(doc: Any) -> None:
    """ "Mary Kemp née Ward" is a married name and a birth name; the tagger may make it one."""

    def cut(ent: Any) -> tuple[int, int, str] | None:
        marker = next((t.i for t in ent if t.lower_ in MAIDEN_MARKERS and t.i > ent.start), None)
        return (marker, marker + 1, ent.label_) if marker is not None and marker + 1 < ent.end else None

    split_entities(doc, cut)


def merge_connected_names(doc: Any) -> None:
    """ "Domingo de Eyzaguirre y Arechavala" is one name; the tagger cuts it at "y"."""
    ents = list(doc.ents)
    spans = [
        doc[first.start : second.end]
        for first, second in pairwise(ents)
        if first.label_ == second.label_ == "PERSON"
        and second.start == first.end + 1
        and doc[first.end].lower_ in CONNECTORS
    ]
    if spans:
        _set_entities(doc, spans, "PERSON")


def split_coordinated_institutions(doc: Any) -> None:
    """ "the University of Bern and University of Lausanne" is two names; the tagger makes one.

    An organisation or place entity holding "and" splits there when both sides carry the same
    institution word ("University", "College"); "School of Oriental and African Studies" stays.
    A university's name followed by ", Department of ..." splits before the unit.
    """

    def cut(ent: Any) -> tuple[int, int, str] | None:
        index = _institution_cut(ent) if ent.label_ in {"ORG", "FAC", "GPE"} else None
        if index is None:
            return None
        return index, index + 1 + (doc[index + 1].pos_ == "DET"), ent.label_

    split_entities(doc, cut)


def _institution_cut(ent: Any) -> int | None:
    for token in ent:
        if token.text not in {"and", ","} or token.i in {ent.start, ent.end - 1}:
            continue
        if token.text == ",":  # "the University of Oslo, Department of Geosciences": a unit of it
            left = {t.lower_ for t in ent.doc[ent.start : token.i]}
            if "university" in left and ent.doc[token.i + 1].lower_ in UNIT_WORDS:
                return token.i
            continue
        left = {t.lower_ for t in ent.doc[ent.start : token.i]} & NAMED_PLACE_WORDS
        right = {t.lower_ for t in ent.doc[token.i + 1 : ent.end]} & NAMED_PLACE_WORDS
        if left & right:
            return token.i
    return None


def _set_entities(doc: Any, spans: list[Any], label: str) -> None:
    """`spans` as entities of `label`; an entity they overlap keeps what lies outside them."""
    if not spans:
        return
    from spacy.tokens import Span  # spaCy loads with the model, not with this module

    kept = []
    for ent in doc.ents:
        overlapping = [s for s in spans if ent.start < s.end and s.start < ent.end]
        if not overlapping:
            kept.append(ent)
            continue
        start, end = max(s.end for s in overlapping), ent.end
        while start < end and (doc[start].is_punct or doc[start].pos_ == "DET"):
            start += 1  # "School, Riverview College" keeps "Riverview College"
        if start < end:
            kept.append(Span(doc, start, end, label=ent.label_))
    added = [Span(doc, s.start, s.end, label=label) for s in spans]
    doc.ents = sorted([*kept, *added], key=lambda e: e.start)

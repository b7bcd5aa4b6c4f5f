"""Where an entity is mentioned in a text, and what kind of entity it is.

Shared by the erasers (mask, graph-guided), verify-and-repair and the leak check.
Matching is case-insensitive on word boundaries with flexible whitespace, and accepts
a leading article ("the Acme Corp" for the key entity "acme corp").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from core.eraser4rag.names import surname_is_shared
from core.types import Span, TripleKey, normalize_entity

PLACEHOLDER_BY_LABEL = {
    "PERSON": "[PERSON]",
    "NORP": "[GROUP]",
    "FAC": "[LOCATION]",
    "GPE": "[LOCATION]",
    "LOC": "[LOCATION]",
    "ORG": "[ORGANIZATION]",
    "DATE": "[DATE]",
    "TIME": "[TIME]",
    "MONEY": "[AMOUNT]",
    "QUANTITY": "[AMOUNT]",
    "CARDINAL": "[NUMBER]",
    "ORDINAL": "[NUMBER]",
    "PERCENT": "[NUMBER]",
    "WORK_OF_ART": "[TITLE]",
    "EVENT": "[EVENT]",
    "LANGUAGE": "[LANGUAGE]",
    "PRODUCT": "[PRODUCT]",
    "LAW": "[LAW]",
}
DEFAULT_PLACEHOLDER = "[ENTITY]"


_DAY_MONTH_YEAR = re.compile(r"^(\d{1,2})\s+([a-z]+)\s+(\d{3,4})$")
_MONTH_DAY_YEAR = re.compile(r"^([a-z]+)\s+(\d{1,2}),?\s+(\d{3,4})$")


@lru_cache(maxsize=4096)
def mention_pattern(entity: str) -> re.Pattern[str] | None:
    """Regex for mentions of `entity` (any surface form with the same normalisation; a full date in
    either order: "23 September 1962" is also "September 23, 1962")."""
    words = normalize_entity(entity).split()
    if not words:
        return None
    body = _date_forms(" ".join(words)) or r"\s+".join(re.escape(w) for w in words)
    return re.compile(rf"(?<!\w)(?:(?:the|a|an)\s+)?(?P<name>{body})(?!\w)", re.IGNORECASE)


def _date_forms(entity: str) -> str:
    """An alternation of a full date's two written orders, or "" for anything else."""
    day_first = _DAY_MONTH_YEAR.match(entity)
    month_first = _MONTH_DAY_YEAR.match(entity)
    if day_first:
        day, month, year = day_first.groups()
    elif month_first:
        month, day, year = month_first.groups()
    else:
        return ""
    day, month, year = re.escape(day), re.escape(month), re.escape(year)
    return rf"(?:{day}\s+{month},?\s+{year}|{month}\s+{day},?\s+{year})"


def find_mentions(text: str, entity: str, within: Span | None = None) -> list[Span]:
    """Character spans of `entity` in `text` (optionally only inside `within`), without an article."""
    pattern = mention_pattern(entity)
    if pattern is None:
        return []
    start, end = within if within is not None else (0, len(text))
    return [(m.start("name"), m.end("name")) for m in pattern.finditer(text, start, end)]


def mentions_entity(text: str, entity: str) -> bool:
    pattern = mention_pattern(entity)
    return bool(pattern and pattern.search(text))


_SHORT_FORM = r"[A-Z][A-Z0-9&.]{1,9}"
_BRACKETED_ACRONYM = re.compile(rf"\s*\(\s*({_SHORT_FORM})\s*\)")


_OPEN_ACRONYM_AT_END = re.compile(rf"\s*\(\s*({_SHORT_FORM})\s*\)?$")


def defined_acronyms(text: str, entity: str) -> list[str]:
    """Short forms `text` gives `entity` in brackets right after it: "the School of the Art Institute of
    Chicago (SAIC)" makes "SAIC" a name of the school wherever the passage says it. An extracted entity
    that took its short form in ("Australian National Basketball League (NBL") is read the same way."""
    found = []
    short_inside = _OPEN_ACRONYM_AT_END.search(entity)
    if short_inside and _abbreviates(short_inside.group(1), entity[: short_inside.start()]):
        found.append(short_inside.group(1))
        entity = entity[: short_inside.start()]
    pattern = mention_pattern(entity)
    if pattern is None:
        return found
    for match in pattern.finditer(text):
        short = _BRACKETED_ACRONYM.match(text, match.end())
        if short and short.group(1) not in found and _abbreviates(short.group(1), match.group("name")):
            found.append(short.group(1))
    return found


def _abbreviates(short: str, name: str) -> bool:
    """ "SAIC" for "School of the Art Institute of Chicago" (the initials of its capitalised words), or a
    short form of three letters or more in another language ("ZWC" for "Union of Active Struggle"); not
    "(UK)" after "London" or "(MP)" after a name."""
    initials = "".join(word[0] for word in name.split() if word[:1].isupper())
    return short.replace(".", "") == initials or (len(short) >= 3 and len(name.split()) >= 2)


def acronym_mentions(text: str, acronym: str) -> list[Span]:
    """Where `text` says `acronym`, written as it is (case matters: "IT" is not "it")."""
    return [(m.start(), m.end()) for m in re.finditer(rf"(?<![\w-]){re.escape(acronym)}(?![\w-])", text)]


def surname(entity: str) -> str:
    """The last word of a multi-word name ("mara voss" -> "voss"); "" for one-word names."""
    words = normalize_entity(entity).split()
    return words[-1] if len(words) > 1 else ""


def name_forms(entity: str, text: str = "", title: str = "") -> list[str]:
    """The forms that name `entity`: its full name and, for a multi-word name, its surname -- unless
    `text` names others of that surname (a list page of Hutchings: "Hutchings" is none of them)."""
    short = surname(entity)
    if short and text and surname_is_shared(text, entity, title):
        return [entity]
    return [entity, short] if short else [entity]


def names_entity(text: str, entity: str) -> bool:
    """`entity` named in `text` by its full name or, for multi-word names, its surname."""
    return any(mentions_entity(text, form) for form in name_forms(entity))


def pair_named(text: str, key: TripleKey) -> bool:
    """THE leak check's rule: the triple's head is named (full name or surname) and its tail is
    mentioned in `text`, a pair a reader could join again whatever the relation."""
    head, _relation, tail = key
    return mentions_entity(text, tail) and names_entity(text, head)


def inside_longer_entity(doc: Any, span: Span) -> bool:
    """Whether a mention is only part of a longer named entity ("Harrow Vale" in "Harrow Vale School")."""
    return longer_entity(doc, span) is not None


def longer_entity(doc: Any, span: Span) -> Any | None:
    """The longer named entity (a spaCy span) a mention is only part of, or None."""
    for ent in doc.ents:
        if (
            ent.start_char <= span[0]
            and span[1] <= ent.end_char
            and (ent.end_char - ent.start_char) > (span[1] - span[0])
        ):
            inner = doc.text[span[0] : span[1]]
            return ent if normalize_entity(ent.text) != normalize_entity(inner) else None
    return None


def placeholder_for(doc: Any, span: Span) -> str:
    """Typed placeholder for a mention, from the spaCy entity that overlaps it most."""
    best_label, best_overlap = "", 0
    for ent in doc.ents:
        overlap = min(span[1], ent.end_char) - max(span[0], ent.start_char)
        if overlap > best_overlap:
            best_label, best_overlap = ent.label_, overlap
    return PLACEHOLDER_BY_LABEL.get(best_label, DEFAULT_PLACEHOLDER)

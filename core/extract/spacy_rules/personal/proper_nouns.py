"""Proper nouns no recogniser typed: in an untitled record, a run of capitalised proper nouns (by the
parse's part-of-speech tags) that no detection covers ("Christian had given Lukas his address", "Gréta
is from Sas", "the following year at Optigov in Kwaxuma") still names someone or something. Each is a
node the analyst can mark, owned by nobody (`mentions`): the small entity recogniser misses rare names,
and a name it misses is personal data all the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy
from spacy.symbols import PROPN

from core.aback.common_words import is_common

MAX_RUN_TOKENS = 4
# Entity types that name no one and nothing one could own or live in: languages, events ("Summer
# Olympics"), laws, dates and numbers. Nationalities and groups (NORP) stay: the small model tags rare
# given names so ("Christian had given Lukas his address"), and a nationality is personal data too.
_NOT_NAMES = frozenset(
    {
        "LANGUAGE",
        "EVENT",
        "LAW",
        "DATE",
        "TIME",
        "CARDINAL",
        "ORDINAL",
        "MONEY",
        "PERCENT",
        "QUANTITY",
    }
)
_INNER_PARTICLES = frozenset({"de", "del", "der", "van", "von", "da", "di", "du", "la", "le", "of", "y", "-"})


def proper_noun_runs(doc: Any) -> list[tuple[int, int]]:
    """(start, end) of each run of capitalised proper nouns in a parse, with inner name particles
    ("Torres de Albánchez"); runs longer than `MAX_RUN_TOKENS` are no names. Only the tokens tagged
    PROPN are looked at one by one (the tags are read as one array: this runs on every record)."""
    if not len(doc):
        return []
    candidates = numpy.flatnonzero(doc.to_array("POS") == PROPN).tolist()
    runs: list[tuple[int, int]] = []
    group: list[int] = []
    for index in (i for i in candidates if _name_token(doc[i])):
        if group and _joined(doc, group[-1], index):
            group.append(index)
            continue
        _close(doc, group, runs)
        group = [index]
    _close(doc, group, runs)
    return runs


def _joined(doc: Any, last: int, index: int) -> bool:
    """Adjacent, or with at most two name particles between on one line ("Torres de Albánchez")."""
    between = doc[last + 1 : index]
    return len(between) <= 2 and all(
        t.lower_ in _INNER_PARTICLES and "\n" not in t.whitespace_ for t in between
    )


def _close(doc: Any, group: list[int], runs: list[tuple[int, int]]) -> None:
    if group and group[-1] - group[0] < MAX_RUN_TOKENS:
        last = doc[group[-1]]
        runs.append((doc[group[0]].idx, last.idx + len(last.text)))


def _name_token(token: Any) -> bool:
    return (
        token.ent_type_ not in _NOT_NAMES
        and token.text[:1].isupper()
        and not token.is_stop
        and any(char.isalpha() for char in token.text)
        and "\n" not in token.text
    )


def unrecognised_names(
    text: str, runs: Sequence[tuple[int, int]], taken: Sequence[tuple[int, int]]
) -> list[tuple[int, str]]:
    """(start, name) of each run that overlaps none of the `taken` spans (detections, form keys) and
    holds a word that is no ordinary English word: "Lukas", "Optigov", "Kwaxuma", not "President",
    "Bachelor of Arts" or "Sir" (a name that is also a word, "Heather", is left to the recognisers)."""
    return [
        (start, text[start:end])
        for start, end in runs
        if not any(s < end and start < e for s, e in taken) and not _ordinary_words(text[start:end])
    ]


def _ordinary_words(name: str) -> bool:
    words = [w for w in re.findall(r"[^\W\d_]+", name) if w.casefold() not in _INNER_PARTICLES]
    return all(len(w) <= 2 or is_common(w) for w in words)

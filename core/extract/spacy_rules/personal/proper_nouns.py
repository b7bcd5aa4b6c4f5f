"""Proper nouns no recogniser typed: in an untitled record, a run of capitalised proper nouns (by the
parse's part-of-speech tags) that no detection covers ("Christian had given Lukas his address", "Gréta
is from Sas", "the following year at Optigov in Kwaxuma") still names someone or something. Each is a
node the analyst can mark, owned by nobody (`mentions`): the small entity recogniser misses rare names,
and a name it misses is personal data all the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy
from spacy.symbols import PROPN

from core.aback.common_words import is_common
from core.extract.spacy_rules.personal.letterheads import NAME_PARTICLES

MAX_RUN_TOKENS = 4
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})


@dataclass(frozen=True)
class NameRun:
    start: int
    end: int
    subject: bool  # the subject of its clause ("Lukas moved here from Kwaxuma"): the clause's owner


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


def proper_noun_runs(doc: Any) -> list[NameRun]:
    """Each run of capitalised proper nouns in a parse, with inner name particles ("Torres de
    Albánchez"); runs longer than `MAX_RUN_TOKENS` are no names. Only the tokens tagged PROPN are
    looked at one by one (the tags are read as one array: this runs on every record)."""
    if not len(doc):
        return []
    candidates = numpy.flatnonzero(doc.to_array("POS") == PROPN).tolist()
    runs: list[NameRun] = []
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
        t.lower_ in NAME_PARTICLES and "\n" not in t.whitespace_ for t in between
    )


def _close(doc: Any, group: list[int], runs: list[NameRun]) -> None:
    if group and group[-1] - group[0] < MAX_RUN_TOKENS:
        last = doc[group[-1]]
        subject = any(doc[i].dep_ in _SUBJECT_DEPS for i in range(group[0], group[-1] + 1))
        runs.append(NameRun(doc[group[0]].idx, last.idx + len(last.text), subject))


def _name_token(token: Any) -> bool:
    return (
        token.ent_type_ not in _NOT_NAMES
        and token.text[:1].isupper()
        and not token.is_stop
        and any(char.isalpha() for char in token.text)
        and "\n" not in token.text
    )


def unrecognised_names(text: str, runs: Sequence[NameRun], taken: Sequence[tuple[int, int]]) -> list[NameRun]:
    """The runs that overlap none of the `taken` spans (detections, form keys) and hold a word that is
    no ordinary English word nor chat shorthand: "Lukas", "Optigov", "Kwaxuma", not "President",
    "Bachelor of Arts", "Sir" or "Btw" (a name that is also a word, "Heather", is left to the
    recognisers)."""
    covered = bytearray(len(text) + 1)
    for start, end in taken:
        covered[max(0, start) : max(0, end)] = b"\x01" * (max(0, end) - max(0, start))
    return [
        run
        for run in runs
        if not any(covered[run.start : run.end]) and not _ordinary_words(text[run.start : run.end])
    ]


# Chat and e-mail shorthand a sentence may open with, capitalised, that no dictionary lists.
_SHORTHAND = frozenset(
    [
        "btw",
        "asap",
        "thx",
        "pls",
        "plz",
        "fwd",
        "fw",
        "cc",
        "bcc",
        "attn",
        "fyi",
        "lol",
        "omg",
        "ok",
        "okay",
        "tbh",
        "imo",
        "idk",
    ]
)


def _ordinary_words(name: str) -> bool:
    words = [w for w in re.findall(r"[^\W\d_]+", name) if w.casefold() not in NAME_PARTICLES]
    return all(len(w) <= 2 or w.casefold() in _SHORTHAND or is_common(w) for w in words)

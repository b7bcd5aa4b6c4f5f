"""A stand-in for `relik.Relik` used by tests/core/extract/test_relik_worker.py.

It has the shape of relik's API (`from_pretrained`, calling returns an object whose
`.triplets` hold `subject`/`object` spans with start, end, label, text, plus `label` and
`confidence`) and finds "X works for Y" / "X lives in Y" with a regular expression, so
the worker process, the JSON-lines protocol and the mapping run for real without relik.
Text containing RAISE makes the call fail; CRASH ends the process.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import NamedTuple

PATTERN = re.compile(r"([A-Z]\w+(?: [A-Z]\w+)*) (works for|lives in) ([A-Z]\w+(?: [A-Z]\w+)*)")
LABELS = {"works for": "employer", "lives in": "residence"}


class Span(NamedTuple):
    start: int
    end: int
    label: str
    text: str


class Triplets(NamedTuple):
    subject: Span
    label: str
    object: Span
    confidence: float


@dataclass
class RelikOutput:
    text: str
    triplets: list[Triplets]


class FakeRelik:
    def __init__(self, word_offsets: bool) -> None:
        self.word_offsets = word_offsets

    @classmethod
    def from_pretrained(cls, name: str) -> FakeRelik:
        if name == "missing-model":
            raise OSError(f"{name} is not a model on the hub")
        print("loading weights ... done")  # libraries print; the server must keep stdout clean
        return cls(word_offsets=name == "fake-word-offsets")

    def _span(self, text: str, start: int, end: int) -> Span:
        if self.word_offsets:  # like AnnotationType.WORD: offsets count words, not characters
            return Span(len(text[:start].split()), len(text[:end].split()), "--NME--", text[start:end])
        return Span(start, end, "--NME--", text[start:end])

    def __call__(self, text: str) -> RelikOutput:
        if "CRASH" in text:
            os._exit(3)
        if "RAISE" in text:
            raise ValueError("window too long")
        triplets = [
            Triplets(
                self._span(text, m.start(1), m.end(1)),
                LABELS[m.group(2)],
                self._span(text, m.start(3), m.end(3)),
                0.75,
            )
            for m in PATTERN.finditer(text)
        ]
        return RelikOutput(text, triplets)

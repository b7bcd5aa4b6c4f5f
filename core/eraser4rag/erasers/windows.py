"""Sentence windows of a document, and which of them mention a private triple.

Shared by the `eraser4rag` eraser (which rewrites window by window and sends only the
private windows to the model) and by the annotation tasks that train it (one task per
private window), so training and inference cut documents the same way.

A window is *private* when it overlaps the span of a private occurrence of the document
(the extractor's provenance span, which covers pronoun subjects the extractor resolved),
or mentions the tail of a private triple that concerns the document: one of its own
occurrences (g_i,pri), or a triple of G_pri whose head (full name or surname, as the
graph-guided eraser matches it) and tail the document both names -- a pair a reader could
re-join, the leak check's rule. A window that names only the head does not count: without
the tail it cannot state the private fact, and in a passage about a person the head is in
nearly every sentence (on PopQA, counting head mentions sent 28 of 37 windows to the model
instead of 12-15, most of them with nothing to erase). The tail with a pronoun for the head
("He was born in Hampstead") does count. Other windows carry nothing to erase.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.eraser4rag.erasers.mentions import mentions_entity, pair_named
from core.eraser4rag.erasers.sentences import split_at_stops
from core.types import Span, Triple, TripleKey


@dataclass(frozen=True)
class Window:
    span: Span  # characters of the document, trailing whitespace included
    text: str
    private: bool


def sentence_spans(text: str, size: int) -> list[Span]:
    """Spans of `size` consecutive sentences each; together they cover the text exactly."""
    spans: list[Span] = []
    start = 0
    sentences = split_at_stops(text)
    step = max(1, size)
    for first in range(0, len(sentences), step):
        length = sum(len(s) for s in sentences[first : first + step])
        spans.append((start, start + length))
        start += length
    return spans


def concerning_keys(
    text: str, occurrences: Iterable[Triple], global_private: Iterable[TripleKey]
) -> set[TripleKey]:
    """Private keys that concern a document: its own private occurrences' keys, and keys of
    G_pri whose head and tail the document both names."""
    private = set(global_private)
    keys = {t.key for t in occurrences if t.key in private}
    keys |= {k for k in private if pair_named(text, k)}
    return keys


def windows_of(
    text: str,
    size: int,
    occurrences: Sequence[Triple],
    global_private: Iterable[TripleKey],
) -> list[Window]:
    """The document's sentence windows, each marked private or not (see the module doc).

    `occurrences` are the document's extracted triples with their spans; only those whose
    key is in `global_private` count as private occurrences.
    """
    private = set(global_private)
    private_spans = [t.span for t in occurrences if t.key in private]
    keys = concerning_keys(text, occurrences, private)
    windows = []
    for start, end in sentence_spans(text, size):
        piece = text[start:end]
        overlaps = any(s < end and start < e for s, e in private_spans)
        named = any(mentions_entity(piece, tail) for _h, _r, tail in keys)
        windows.append(Window((start, end), piece, overlaps or named))
    return windows

"""Syntactic signals for the deletion tagger (`deletion_tags`): where each word stands in the parse
relative to the private tails its window concerns.

Deletion-based compression has always read the dependency tree (Clarke & Lapata 2008; Filippova &
Altun 2013): whether a word governs, belongs to or sits beside the phrase that goes decides whether
it goes too. The tagger's teacher (graph-guided + repair) decides on the parse, so the tagger gets
the same view: per word, the signals below (its first spaCy token speaks for it), beside the
language model's hidden states and the four triple flags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.eraser4rag.erasers.mentions import find_mentions
from core.types import Span

VERB_POS = {"VERB", "AUX"}
POS_SIGNALS = ("VERB", "AUX", "ADP", "DET", "PROPN", "NUM", "PUNCT", "CCONJ", "ADJ")
SIGNALS = (
    "in a sentence naming a private tail",
    "inside a private tail",
    "governs a private tail",
    "in the phrase that attaches a private tail",
    "in a private tail's clause",
    "closeness in the tree to a private tail",
    "closeness in the text to a private tail",
    "inside a public tail",
    "governs a public tail",
    "inside brackets",
    "the sentence's root",
    *(f"part of speech {pos}" for pos in POS_SIGNALS),
)
SIGNAL_COUNT = len(SIGNALS)
_FAR = 8  # tree or token distances from here on count as "far"


def syntax_signals(
    doc: Any, words: Sequence[Span], private_tails: Sequence[str], public_tails: Sequence[str]
) -> list[list[float]]:
    """Per word of `doc.text` (`words`: character spans), the `SIGNALS` in order."""
    text = doc.text
    private = _mention_tokens(doc, text, private_tails)
    public = _mention_tokens(doc, text, public_tails)
    sentence_of = {token.i: sentence.start for sentence in doc.sents for token in sentence}
    places = _Places(
        private=private,
        public=public,
        attaching={t.i for root in _mention_roots(doc, private) for t in root.head.subtree},
        clauses={_clause(doc[i]).i for i in private},
        sentences={sentence_of[i] for i in private},
        governing_private={a.i for i in private for a in doc[i].ancestors},
        governing_public={a.i for i in public for a in doc[i].ancestors},
        bracketed=_bracketed(doc),
        sentence_of=sentence_of,
    )
    by_start = {token.idx: token for token in doc}
    rows = []
    for start, end in words:
        token = by_start.get(start) or _first_token(doc, start, end)
        rows.append([0.0] * SIGNAL_COUNT if token is None else _signals(doc, token, places))
    return rows


@dataclass(frozen=True)
class _Places:
    """Token indices of one parse: where the private and public tails are, and what governs them."""

    private: set[int]
    public: set[int]
    attaching: set[int]
    clauses: set[int]
    sentences: set[int]
    governing_private: set[int]
    governing_public: set[int]
    bracketed: set[int]
    sentence_of: dict[int, int]


def _signals(doc: Any, token: Any, places: _Places) -> list[float]:
    sentence = places.sentence_of[token.i]
    same_sentence = [i for i in places.private if places.sentence_of[i] == sentence]
    return [
        float(sentence in places.sentences),
        float(token.i in places.private),
        float(token.i in places.governing_private),
        float(token.i in places.attaching),
        float(bool(places.private) and _clause(token).i in places.clauses),
        _closeness(min((_tree_distance(token, doc[i]) for i in same_sentence), default=_FAR)),
        _closeness(min((abs(token.i - i) for i in same_sentence), default=_FAR)),
        float(token.i in places.public),
        float(token.i in places.governing_public),
        float(token.i in places.bracketed),
        float(token.dep_ == "ROOT"),
        *(float(token.pos_ == pos) for pos in POS_SIGNALS),
    ]


def _mention_tokens(doc: Any, text: str, tails: Sequence[str]) -> set[int]:
    tokens: set[int] = set()
    for tail in tails:
        for first, last in find_mentions(text, tail):
            span = doc.char_span(first, last, alignment_mode="expand")
            if span is not None:
                tokens.update(t.i for t in span)
    return tokens


def _mention_roots(doc: Any, tokens: set[int]) -> list[Any]:
    """The tokens of `tokens` whose head lies outside them (each mention's root)."""
    return [doc[i] for i in sorted(tokens) if doc[i].head.i not in tokens or doc[i].head.i == i]


def _clause(token: Any) -> Any:
    """The nearest verb at or above `token` (the sentence root when there is none)."""
    for candidate in [token, *token.ancestors]:
        if candidate.pos_ in VERB_POS:
            return candidate
    return token.sent.root


def _tree_distance(first: Any, second: Any) -> int:
    """Dependency steps between two tokens of one sentence (through their lowest common ancestor)."""
    above_first = [first, *first.ancestors]
    depth = {token.i: steps for steps, token in enumerate(above_first)}
    for steps, token in enumerate([second, *second.ancestors]):
        if token.i in depth:
            return min(_FAR, steps + depth[token.i])
    return _FAR


def _closeness(distance: int) -> float:
    return 0.0 if distance >= _FAR else 1.0 / (1 + distance)


def _bracketed(doc: Any) -> set[int]:
    inside: set[int] = set()
    depth = 0
    for token in doc:
        if token.text in ")]":
            depth = max(0, depth - 1)
        if depth:
            inside.add(token.i)
        if token.text in "([":
            depth += 1
    return inside


def _first_token(doc: Any, start: int, end: int) -> Any:
    span = doc.char_span(start, end, alignment_mode="expand")
    return span[0] if span is not None and len(span) else None

"""The eraser interface: one retrieval set in, one rewrite per document out.

Every eraser (graph-guided deletion, masking, prompted LLMs, the Eraser4RAG rewriter)
takes an `EraseRequest` -- the documents of one retrieval set, every extracted triple
occurrence with its document and span, and the set's privacy definition -- and yields a
`Rewrite` per document with character-level `Edit`s for the diff view.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal, Protocol

from core.eraser4rag.filters import PrivacyDefinition
from core.types import Document, Progress, Query, Span, Triple, TripleKey

EditKind = Literal["removed", "inserted", "replaced"]


class EraserError(RuntimeError):
    """An eraser could not rewrite a named document; the message says which and what to do."""


@dataclass(frozen=True)
class Edit:
    """One change, for the diff view."""

    kind: EditKind
    original_span: Span  # (start, end) in the original text ((s, s) for an insertion)
    rewrite_span: Span  # (start, end) in the rewrite ((s, s) for a deletion)
    reason: str = ""  # e.g. "private (mara voss, live_in, harrow vale)"
    keys: tuple[TripleKey, ...] = ()


@dataclass(frozen=True)
class EraseRequest:
    """One retrieval set (see core.types.RetrievalSet) and its privacy definition."""

    documents: tuple[Document, ...]
    triples: tuple[Triple, ...]  # every extracted occurrence in these documents (doc_id + span)
    definition: PrivacyDefinition  # G_pri = definition.private, G_pub = definition.public
    query: Query | None = None

    def triples_of(self, doc_id: str) -> list[Triple]:
        return [t for t in self.triples if t.doc_id == doc_id]

    def private_keys_of(self, doc_id: str) -> tuple[TripleKey, ...]:
        """g_i,pri: this document's private keys, sorted, without duplicates."""
        return tuple(sorted({t.key for t in self.triples_of(doc_id)} & self.definition.private))

    def public_keys_of(self, doc_id: str) -> tuple[TripleKey, ...]:
        """g_i,pub: this document's public keys, sorted, without duplicates."""
        return tuple(sorted({t.key for t in self.triples_of(doc_id)} & self.definition.public))


@dataclass(frozen=True)
class Rewrite:
    doc_id: str
    eraser: str
    original: str
    text: str
    edits: tuple[Edit, ...]
    removed: tuple[TripleKey, ...]  # private keys of this doc the eraser targeted
    kept: tuple[TripleKey, ...]  # public keys of this doc it meant to keep
    seconds: float
    notes: tuple[str, ...] = ()  # e.g. "private triples truncated to fit the context: 12 of 40 kept"
    repairs: tuple[str, ...] = ()  # filled by verify-and-repair
    # parts the eraser could not do its own way and did another, each with why (eraser4rag: a
    # rejected edit script); reported as problems (stage "fallback") beside the other erasers' errors
    fallbacks: tuple[str, ...] = ()


class Eraser(Protocol):
    name: str
    trained: bool  # False for eraser4rag without an adapter: the UI labels it "untrained"

    def erase(self, request: EraseRequest, progress: Progress | None = None) -> Iterator[Rewrite]: ...


_TOKEN = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def edits_between(original: str, rewrite: str) -> tuple[Edit, ...]:
    """Word-level diff of two texts as `Edit`s (difflib), for erasers that return free text."""
    before, after = _tokens(original), _tokens(rewrite)
    matcher = difflib.SequenceMatcher(None, [t[0] for t in before], [t[0] for t in after], autojunk=False)
    edits: list[Edit] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        o_start = before[i1][1] if i1 < len(before) else len(original)
        o_end = before[i2 - 1][2] if i2 > i1 else o_start
        r_start = after[j1][1] if j1 < len(after) else len(rewrite)
        r_end = after[j2 - 1][2] if j2 > j1 else r_start
        kind: EditKind = {"delete": "removed", "insert": "inserted"}.get(tag, "replaced")  # type: ignore[assignment]
        edits.append(Edit(kind, (o_start, o_end), (r_start, r_end)))
    return tuple(edits)


def apply_replacements(
    text: str, replacements: Iterable[tuple[Span, str, str, tuple[TripleKey, ...]]]
) -> tuple[str, tuple[Edit, ...]]:
    """Apply non-overlapping (span, new_text, reason, keys) replacements; overlapping ones merge.

    Returns the new text and one `Edit` per replacement with spans in both texts.
    """
    merged = _merge_replacements(replacements)
    pieces: list[str] = []
    edits: list[Edit] = []
    cursor = 0
    out_len = 0
    for (start, end), new, reason, keys in merged:
        pieces.append(text[cursor:start])
        out_len += start - cursor
        kind: EditKind = "removed" if not new else ("inserted" if start == end else "replaced")
        edits.append(Edit(kind, (start, end), (out_len, out_len + len(new)), reason, keys))
        pieces.append(new)
        out_len += len(new)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces), tuple(edits)


def _merge_replacements(
    replacements: Iterable[tuple[Span, str, str, tuple[TripleKey, ...]]],
) -> list[tuple[Span, str, str, tuple[TripleKey, ...]]]:
    ordered = sorted(replacements, key=lambda r: (r[0][0], -r[0][1]))
    merged: list[tuple[Span, str, str, tuple[TripleKey, ...]]] = []
    for span, new, reason, keys in ordered:
        if merged and span[0] < merged[-1][0][1]:
            (p_start, p_end), p_new, p_reason, p_keys = merged[-1]
            if span[1] <= p_end:  # contained: the outer change already covers it
                merged[-1] = ((p_start, p_end), p_new, p_reason, _union(p_keys, keys))
            else:  # partial overlap: one removal over both (a placeholder would be cut in half)
                joined = p_new if p_new == new else ""
                merged[-1] = ((p_start, span[1]), joined, p_reason, _union(p_keys, keys))
            continue
        merged.append((span, new, reason, keys))
    return merged


def _union(a: tuple[TripleKey, ...], b: tuple[TripleKey, ...]) -> tuple[TripleKey, ...]:
    return tuple(dict.fromkeys(a + b))


NO_PRIVATE_NOTE = (
    "the privacy definition has no private triple, so nothing was erased: mark triples private "
    "(or simulate a split) first"
)


def format_reason(state: str, keys: Iterable[TripleKey]) -> str:
    """ "private (mara voss, live_in, harrow vale)" for the edits of several keys."""
    return "; ".join(f"{state} ({h}, {r}, {t})" for h, r, t in keys)


def occurrences_by_doc(triples: Iterable[Triple]) -> dict[str, list[Triple]]:
    grouped: dict[str, list[Triple]] = defaultdict(list)
    for triple in triples:
        grouped[triple.doc_id].append(triple)
    return grouped


def rewrite_each(
    request: EraseRequest,
    rewrite_document: Callable[[Document, EraseRequest], Rewrite],
    progress: Progress | None = None,
) -> Iterator[Rewrite]:
    """The erasers' common loop: one rewrite per document, in order, reporting progress after each."""
    total = len(request.documents)
    for done, document in enumerate(request.documents, start=1):
        yield rewrite_document(document, request)
        if progress is not None:
            progress(done, total)

"""Annotation tasks: one document of a retrieval set with g_i,pri and g_i,pub (what the
annotating model is told) and the global G_pri / G_pub (what the rewriter is trained on).

A task carries every triple occurrence of its document (key and span), so any eraser can
propose a candidate for it offline and the review tab can highlight the private spans.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from core.eraser4rag.erasers.base import EraseRequest
from core.eraser4rag.erasers.windows import windows_of
from core.eraser4rag.filters import PrivacyDefinition
from core.types import Document, Span, Triple, TripleKey

Occurrence = tuple[str, str, str, int, int]  # head, relation, tail (the key) and the span


@dataclass(frozen=True)
class AnnotationTask:
    doc_id: str
    text: str
    private: tuple[TripleKey, ...]  # g_i,pri
    public: tuple[TripleKey, ...]  # g_i,pub
    global_private: tuple[TripleKey, ...]  # G_pri
    global_public: tuple[TripleKey, ...]  # G_pub
    occurrences: tuple[Occurrence, ...] = ()
    title: str = ""
    query: str = ""
    batch: str = ""
    definition: str = ""
    id: int | None = field(default=None, compare=False)

    @property
    def key(self) -> str:
        """Content hash: the same document under the same definition is one task."""
        payload = [self.text, self.private, self.public, self.global_private, self.global_public]
        return hashlib.sha256(json.dumps(payload, ensure_ascii=False).encode()).hexdigest()

    @property
    def private_spans(self) -> tuple[Span, ...]:
        private = set(self.private)
        return tuple(sorted({(o[3], o[4]) for o in self.occurrences if (o[0], o[1], o[2]) in private}))

    def erase_request(self) -> EraseRequest:
        """A one-document request under the global definition, for erasers proposing candidates."""
        triples = tuple(Triple(h, r, t, self.doc_id, (s, e)) for h, r, t, s, e in self.occurrences)
        private = frozenset(self.global_private)
        public = frozenset(self.global_public)
        definition = PrivacyDefinition(
            private=private, public=public, excluded=frozenset(), moves=(), marked=private
        )
        document = Document(self.doc_id, self.title, self.text)
        return EraseRequest(documents=(document,), triples=triples, definition=definition)


def window_tasks(task: AnnotationTask, sentences: int) -> list[AnnotationTask]:
    """One task per private window of a document task (`core.eraser4rag.erasers.windows`), cut exactly as
    `eraser4rag` cuts documents at inference: the rewriter is then trained on the inputs it sees.

    A window's task keeps the global G_pri / G_pub; its g_i,pri / g_i,pub and occurrences are
    the document's occurrences lying wholly inside the window (offsets moved to the window).
    """
    occurrences = [Triple(h, r, t, task.doc_id, (s, e)) for h, r, t, s, e in task.occurrences]
    private_keys = set(task.global_private)
    public_keys = set(task.global_public)
    tasks = []
    for number, window in enumerate(windows_of(task.text, sentences, occurrences, private_keys), start=1):
        text = window.text.strip()
        if not window.private or not text:
            continue
        start = window.span[0] + len(window.text) - len(window.text.lstrip())
        end = start + len(text)
        inside = tuple(
            (h, r, t, s - start, e - start) for h, r, t, s, e in task.occurrences if start <= s and e <= end
        )
        keys = {(o[0], o[1], o[2]) for o in inside}
        tasks.append(
            replace(
                task,
                doc_id=f"{task.doc_id}#w{number}",
                text=text,
                private=tuple(sorted(keys & private_keys)),
                public=tuple(sorted(keys & public_keys)),
                occurrences=inside,
                id=None,
            )
        )
    return tasks


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def tasks_from_request(
    request: EraseRequest, batch: str = "", definition: str = ""
) -> Iterator[AnnotationTask]:
    """One task per non-empty document that holds a private triple (nothing to erase otherwise)."""
    global_private = tuple(sorted(request.definition.private))
    global_public = tuple(sorted(request.definition.public))
    query = request.query.text if request.query is not None else ""
    for document in request.documents:
        private = request.private_keys_of(document.id)
        if not document.text.strip() or not private:
            continue
        yield AnnotationTask(
            doc_id=document.id,
            text=document.text,
            private=private,
            public=request.public_keys_of(document.id),
            global_private=global_private,
            global_public=global_public,
            occurrences=_occurrences(request.triples_of(document.id)),
            title=document.title,
            query=query,
            batch=batch,
            definition=definition,
        )


def _occurrences(triples: Iterable[Triple]) -> tuple[Occurrence, ...]:
    return tuple(sorted({(*t.key, t.span[0], t.span[1]) for t in triples}))


def keys_from_json(rows: Iterable[Iterable[str]], where: str) -> tuple[TripleKey, ...]:
    """[[h, r, t], ...] as key tuples; a malformed row names `where` and its index."""
    keys: list[TripleKey] = []
    for index, row in enumerate(rows):
        items = list(row)
        if len(items) != 3 or not all(isinstance(x, str) for x in items):
            raise ValueError(
                f"{where}[{index}]: a triple must be [head, relation, tail] strings, got {items!r}"
            )
        keys.append((items[0], items[1], items[2]))
    return tuple(keys)

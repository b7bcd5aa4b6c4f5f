"""Dense retrieval over a corpus: the RAG retriever of the ABack tab and benchmark.

Documents are embedded once (lazily, at the first query) with a sentence-transformers
model, by default the embedded all-MiniLM-L6-v2 (the paper uses bge-large-en-v1.5 with
Chroma; any sentence-transformers folder or hub id works through `settings.embedder`).
Scores are cosine similarities. `retriever_for` keeps the last few retrievers (one per
distinct corpus and embedder), so a corpus is embedded once however often it is queried.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from core.model_loading import get_embedder
from core.types import Document


class Retriever:
    def __init__(self, documents: Sequence[Document], embedder: Any = None, embedder_name: str = "") -> None:
        """`embedder`: a loaded SentenceTransformer (None: `model_loading.get_embedder(embedder_name)`)."""
        self.documents = list(documents)
        self._embedder = embedder
        self._embedder_name = embedder_name
        self._matrix: Any = None

    @property
    def embedder(self) -> Any:
        if self._embedder is None:
            self._embedder = get_embedder(self._embedder_name)
        return self._embedder

    def _document_matrix(self) -> Any:
        if self._matrix is None:
            texts = [f"{doc.title}\n{doc.text}" if doc.title else doc.text for doc in self.documents]
            self._matrix = self.embedder.encode(
                texts, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
            )
        return self._matrix

    def top_k(self, query: str, k: int = 2) -> list[tuple[Document, float]]:
        """The `k` documents most similar to `query`, best first, with their cosine similarity."""
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        if not query.strip():
            raise ValueError("the query is empty")
        if not self.documents:
            return []
        # numpy (~0.4 s) loads only when retrieval ranks passages
        import numpy as np

        matrix = self._document_matrix()
        query_vector = self.embedder.encode(
            [query], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )[0]
        scores = matrix @ query_vector
        order = np.argsort(-scores, kind="stable")[:k]
        return [(self.documents[index], float(scores[index])) for index in order]


_RETRIEVERS: OrderedDict[str, Retriever] = OrderedDict()
_RETRIEVERS_LOCK = threading.Lock()
MAX_CACHED_RETRIEVERS = 8


def retriever_for(documents: Sequence[Document], embedder_name: str = "") -> Retriever:
    """The cached retriever of this corpus and embedder (least recently used dropped beyond 8)."""
    digest = hashlib.sha256(embedder_name.encode())
    for doc in documents:
        digest.update(f"\x00{doc.id}\x00{doc.title}\x00{doc.text}".encode())
    key = digest.hexdigest()
    with _RETRIEVERS_LOCK:
        if key not in _RETRIEVERS:
            _RETRIEVERS[key] = Retriever(documents, embedder_name=embedder_name)
            while len(_RETRIEVERS) > MAX_CACHED_RETRIEVERS:
                _RETRIEVERS.popitem(last=False)
        _RETRIEVERS.move_to_end(key)
        return _RETRIEVERS[key]

"""State prototypes and the embedding prior p(s_j | o_j) of ABack Eq. 8.

The example segments per state (S1 neutral, S2 obfuscated avoidance, S3 leakage
tendency) live in `assets/aback/prototypes.json`. Each state's prototype is the
mean of its segments' unit-normalised embeddings, normalised again, so the prior
is a softmax over plain cosine similarities divided by a temperature.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import numpy as np

from core.aback.hsm import HiddenState
from core.model_loading import get_embedder
from core.settings import from_env

PROTOTYPES_PATH = Path(__file__).resolve().parents[2] / "assets" / "aback" / "prototypes.json"
PRIOR_STATES = (HiddenState.S1, HiddenState.S2, HiddenState.S3)

_cache: dict[tuple[int, str], Prototypes] = {}
_cache_lock = threading.Lock()


def load_segments(path: Path = PROTOTYPES_PATH) -> dict[HiddenState, list[str]]:
    """Example segments per state; a broken file raises naming the file and the field."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: cannot read prototype segments: {exc}") from exc
    states = data.get("states") if isinstance(data, dict) else None
    if not isinstance(states, dict):
        raise ValueError(f"{path}: expected an object with a 'states' field")
    segments: dict[HiddenState, list[str]] = {}
    for state in PRIOR_STATES:
        items = states.get(state.label)
        if (
            not isinstance(items, list)
            or not items
            or not all(isinstance(s, str) and s.strip() for s in items)
        ):
            raise ValueError(
                f"{path}: field states.{state.label} must be a non-empty list of non-empty strings"
            )
        segments[state] = items
    return segments


class Prototypes:
    """Prototype vectors for S1..S3 and the softmax prior over cosine similarity."""

    def __init__(self, embedder: Any, vectors: np.ndarray, temperature: float = 1.0) -> None:
        if temperature <= 0:
            raise ValueError(f"prior temperature must be > 0, got {temperature}")
        self.embedder = embedder
        self.vectors = vectors  # (3, dim), unit length
        self.temperature = temperature

    @classmethod
    def load(cls, embedder: Any = None, temperature: float = 1.0, path: Path = PROTOTYPES_PATH) -> Prototypes:
        """Embed the segments once per (embedder, file); later calls reuse the vectors."""
        if embedder is None:
            embedder = get_embedder(from_env().embedder)
        key = (id(embedder), str(path))
        with _cache_lock:
            cached = _cache.get(key)
            if cached is None:
                cached = cls(embedder, _prototype_vectors(embedder, load_segments(path)))
                _cache[key] = cached
        return cls(embedder, cached.vectors, temperature)

    def similarities(self, units: list[str]) -> np.ndarray:
        """Cosine similarity (n, 3) of each unit with the S1..S3 prototypes."""
        if not units:
            return np.zeros((0, 3))
        embeddings = _embed(self.embedder, [u if u.strip() else "." for u in units])
        return embeddings @ self.vectors.T

    def prior(self, units: list[str]) -> np.ndarray:
        """p(s_j = S^v | o_j) for v = 1..3 (Eq. 8), shape (n, 3), rows sum to 1."""
        logits = self.similarities(units) / self.temperature
        logits -= logits.max(axis=1, keepdims=True) if len(logits) else 0.0
        weights = np.exp(logits)
        return weights / weights.sum(axis=1, keepdims=True)


def _embed(embedder: Any, texts: list[str]) -> np.ndarray:
    vectors = np.asarray(
        embedder.encode(texts, normalize_embeddings=True, show_progress_bar=False), dtype=float
    )
    return vectors.reshape(len(texts), -1)


def _prototype_vectors(embedder: Any, segments: dict[HiddenState, list[str]]) -> np.ndarray:
    means = np.stack([_embed(embedder, segments[state]).mean(axis=0) for state in PRIOR_STATES])
    return means / np.linalg.norm(means, axis=1, keepdims=True)

"""Erasers behind one interface (`base.Eraser`), built by name from settings.

`get_eraser(name, settings)` returns a fresh eraser; `ERASER_NAMES` lists the names in
the order the UI and the benchmark show them.
"""

from __future__ import annotations

from collections.abc import Callable

from core.eraser4rag.erasers.base import (
    Edit,
    Eraser,
    EraseRequest,
    EraserError,
    Rewrite,
    apply_replacements,
    edits_between,
)
from core.llm import get_chat_client
from core.settings import Settings

__all__ = [
    "ERASER_NAMES",
    "RULE_ERASERS",
    "Edit",
    "EraseRequest",
    "Eraser",
    "EraserError",
    "Rewrite",
    "apply_replacements",
    "edits_between",
    "get_eraser",
]


def _mask(settings: Settings) -> Eraser:
    # registry: an eraser's module loads only when it is chosen (all of them: ~0.2 s)
    from core.eraser4rag.erasers.mask import MaskEraser

    return MaskEraser(settings.spacy_model)


def _graph_guided(settings: Settings) -> Eraser:
    # registry: an eraser's module loads only when it is chosen (all of them: ~0.2 s)
    from core.eraser4rag.erasers.graph_guided import GraphGuidedEraser

    return GraphGuidedEraser(settings.spacy_model)


def _llm_each(settings: Settings) -> Eraser:
    # registry: an eraser's module loads only when it is chosen (all of them: ~0.2 s)
    from core.eraser4rag.erasers.llm_each import LlmEachEraser

    return LlmEachEraser(get_chat_client(settings), settings.rewriter_max_new_tokens)


def _llm_all(settings: Settings) -> Eraser:
    # registry: an eraser's module loads only when it is chosen (all of them: ~0.2 s)
    from core.eraser4rag.erasers.llm_all import LlmAllEraser

    return LlmAllEraser(get_chat_client(settings), settings.rewriter_max_new_tokens)


def _abstraction(settings: Settings) -> Eraser:
    # registry: an eraser's module loads only when it is chosen (all of them: ~0.2 s)
    from core.eraser4rag.erasers.abstraction import AbstractionEraser

    return AbstractionEraser(get_chat_client(settings), settings.rewriter_max_new_tokens)


def _eraser4rag(settings: Settings) -> Eraser:
    # registry: an eraser's module loads only when it is chosen (all of them: ~0.2 s)
    from core.eraser4rag.erasers.eraser4rag import Eraser4RAGEraser

    return Eraser4RAGEraser(settings)


ERASERS: dict[str, Callable[[Settings], Eraser]] = {
    "graph-guided": _graph_guided,
    "mask": _mask,
    "llm-each": _llm_each,
    "llm-all": _llm_all,
    "abstraction": _abstraction,
    "eraser4rag": _eraser4rag,
}
ERASER_NAMES: tuple[str, ...] = ("graph-guided", "mask", "llm-each", "llm-all", "abstraction", "eraser4rag")
# erasers that run no model: an empty rewrite is their rule at work (every sentence stated a private fact)
RULE_ERASERS: frozenset[str] = frozenset({"graph-guided", "mask"})


def get_eraser(name: str, settings: Settings) -> Eraser:
    """The named eraser configured from settings; unknown names raise ValueError listing the choices."""
    key = name.strip().lower()
    factory = ERASERS.get(key)
    if factory is None:
        raise ValueError(f"unknown eraser {name!r}: choose one of {', '.join(ERASER_NAMES)}")
    return factory(settings)

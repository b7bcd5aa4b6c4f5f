"""Erasers behind one interface (`base.Eraser`), built by name from settings.

`get_eraser(name, settings)` returns a fresh eraser; `ERASER_NAMES` lists the names in
the order the UI and the benchmark show them.
"""

from __future__ import annotations

from collections.abc import Callable

from core.erasers.base import (
    Edit,
    Eraser,
    EraseRequest,
    EraserError,
    Rewrite,
    apply_replacements,
    edits_between,
)
from core.settings import Settings

__all__ = [
    "ERASER_NAMES",
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
    from core.erasers.mask import MaskEraser

    return MaskEraser(settings.spacy_model)


def _graph_guided(settings: Settings) -> Eraser:
    from core.erasers.graph_guided import GraphGuidedEraser

    return GraphGuidedEraser(settings.spacy_model)


ERASERS: dict[str, Callable[[Settings], Eraser]] = {"graph-guided": _graph_guided, "mask": _mask}
ERASER_NAMES: tuple[str, ...] = ("graph-guided", "mask", "llm-each", "llm-all", "abstraction", "eraser4rag")


def get_eraser(name: str, settings: Settings) -> Eraser:
    """The named eraser configured from settings; unknown names raise ValueError listing the choices."""
    key = name.strip().lower()
    factory = ERASERS.get(key)
    if factory is None:
        if key in ERASER_NAMES:
            raise ValueError(f"eraser {name!r} is not available in this build yet")
        raise ValueError(f"unknown eraser {name!r}: choose one of {', '.join(ERASER_NAMES)}")
    return factory(settings)

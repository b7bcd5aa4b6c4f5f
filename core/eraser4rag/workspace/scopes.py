"""Scopes and their names: a workspace's marks belong to one retrieval set (a question) or to the
whole corpus; each scope's definition is stored under `definition_name(scope)`, and its undo steps
travel in the corpus meta (`undo_from_meta`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.types import TripleKey

DEFAULT_DEFINITION_NAME = "default"
WHOLE_CORPUS = ""  # scope name of the whole corpus in `scope_marks`
UNDO_DEPTH = 20  # mark changes that can be undone


def scope_name(scope: str | None) -> str:
    return scope or WHOLE_CORPUS


def definition_name(scope: str | None) -> str:
    """Storage name of a scope's definition: "default" (whole corpus) or "default@<query id>"."""
    return DEFAULT_DEFINITION_NAME if scope is None else f"{DEFAULT_DEFINITION_NAME}@{scope}"


def is_scope_definition(name: str) -> bool:
    return name == DEFAULT_DEFINITION_NAME or name.startswith(DEFAULT_DEFINITION_NAME + "@")


def scope_of(name: str) -> str:
    """The scope name ("" = whole corpus, else a query id) of a `definition_name`."""
    return name.partition("@")[2]


def keys_json(keys: Iterable[TripleKey]) -> list[list[str]]:
    return sorted([list(key) for key in keys])


def undo_from_meta(stored: Any, scope_names: set[str]) -> dict[str, list[frozenset[TripleKey]]]:
    """Undo steps stored by `Workspace.undo_to_meta` (scopes no longer present, or bad entries, skipped)."""
    histories: dict[str, list[frozenset[TripleKey]]] = {}
    if not isinstance(stored, dict):
        return histories
    for name, steps in stored.items():
        if name not in scope_names or not isinstance(steps, list):
            continue
        history: list[frozenset[TripleKey]] = []
        for step in steps[-UNDO_DEPTH:]:
            if isinstance(step, list):
                keys = (tuple(k) for k in step if isinstance(k, list) and len(k) == 3)
                history.append(frozenset(k for k in keys if all(isinstance(p, str) for p in k)))
        if history:
            histories[name] = history
    return histories

"""What a workspace save writes, and the two ways a save is refused (no storage code here).

A save is one transaction in the store (`storage.repository.Repository.save_workspace`): the
corpus, its triples, every definition, the rewrite runs and the meta land together or not at all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.eraser4rag.filters import PrivacyDefinition
from core.eraser4rag.rewrites import RewriteRun
from core.types import Corpus, Triple


class SaveRefused(RuntimeError):
    """A save that changed nothing; the message says why and what to do."""


class OverwriteRefused(SaveRefused):
    """The name is taken and the caller did not choose to overwrite it."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"a workspace named {name!r} already exists; nothing was saved. Save under another name, "
            "or overwrite it explicitly (the studio asks to confirm; the CLI needs --overwrite)."
        )
        self.name = name


class SaveConflict(SaveRefused):
    """Someone saved the workspace after this copy was loaded (its version moved on)."""

    def __init__(self, name: str, expected: int, current: int, content_digest: str) -> None:
        super().__init__(
            f"workspace {name!r} was saved by someone else since you loaded it (version {expected}, now "
            f"{current}); nothing was saved. Load it again and re-apply your changes, or save under "
            "another name."
        )
        self.name = name
        self.expected = expected
        self.current = current
        self.content_digest = content_digest  # of the stored documents, queries and triples


@dataclass(frozen=True)
class WorkspaceSave:
    """Everything one save writes. `corpus=None`: documents, queries and triples are not written
    (they must already be stored); `rewrite_runs=None`: the stored runs are kept."""

    corpus: Corpus | None
    triples: list[Triple]
    content_digest: str
    extractor: str = ""
    meta: dict[str, Any] = field(default_factory=dict)  # set in the stored meta; other keys are kept
    meta_removed: tuple[str, ...] = ()
    definitions: dict[str, PrivacyDefinition] = field(default_factory=dict)
    # Stored definitions this save owns: those of them it does not carry are deleted.
    owns_definition: Callable[[str], bool] = field(default=lambda _name: False)
    definition_settings: dict[str, Any] = field(default_factory=dict)
    rewrite_runs: list[RewriteRun] | None = None


@dataclass(frozen=True)
class LoadedWorkspace:
    """A saved workspace read in one snapshot (never half of one save and half of the next)."""

    corpus: Corpus
    triples: list[Triple]
    meta: dict[str, Any]
    definitions: dict[str, PrivacyDefinition]
    rewrite_runs: list[RewriteRun]
    version: int
    content_digest: str


def content_digest(corpus: Corpus, triples: list[Triple]) -> str:
    """Digest of documents, queries and triples in order: equal digests, equal stored content."""
    digest = hashlib.sha256()
    for part in (corpus.documents, corpus.queries, triples):
        for item in part:
            digest.update(repr(item).encode("utf-8", "surrogatepass"))
            digest.update(b"\x00")
        digest.update(b"\x01")
    return digest.hexdigest()

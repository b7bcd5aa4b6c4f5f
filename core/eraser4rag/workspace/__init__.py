"""One user's session (`Workspace`): documents, triples, private marks, the privacy definition of
each scope, rewrite runs; every UI action is one method of it.

One module per concept: `workspace` (the class: documents, extraction, scope, marks, derived views,
the triples table), `rewriting` (its rewrite runs), `persistence` (save, load, merge), `scopes`
(scope and definition names, undo steps as JSON), `states` (the states users read).
"""

from core.eraser4rag.workspace.persistence import EXTRACTED_IDS_META, SCOPE_META, UNDO_META
from core.eraser4rag.workspace.scopes import (
    DEFAULT_DEFINITION_NAME,
    UNDO_DEPTH,
    WHOLE_CORPUS,
    definition_name,
    is_scope_definition,
    scope_of,
    undo_from_meta,
)
from core.eraser4rag.workspace.states import (
    EXCLUDED,
    FRESH,
    INCOMPLETE,
    INFERABLE,
    PRIVATE,
    PUBLIC,
    QUERY,
    STALE,
    STATUS_EXPLANATIONS,
    STATUS_LABELS,
    status_counts_text,
    status_label,
)
from core.eraser4rag.workspace.workspace import EXTRACT_BATCHES, Workspace, source_batches

__all__ = [
    "DEFAULT_DEFINITION_NAME",
    "EXCLUDED",
    "EXTRACTED_IDS_META",
    "EXTRACT_BATCHES",
    "FRESH",
    "INCOMPLETE",
    "INFERABLE",
    "PRIVATE",
    "PUBLIC",
    "QUERY",
    "SCOPE_META",
    "STALE",
    "STATUS_EXPLANATIONS",
    "STATUS_LABELS",
    "UNDO_DEPTH",
    "UNDO_META",
    "WHOLE_CORPUS",
    "Workspace",
    "definition_name",
    "is_scope_definition",
    "scope_of",
    "source_batches",
    "status_counts_text",
    "status_label",
    "undo_from_meta",
]

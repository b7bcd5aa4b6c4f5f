"""The states users read: of a triple in the privacy definition (the five of README's table), and of
a rewrite run against the current workspace; one vocabulary for messages, tables, legends and docs."""

from __future__ import annotations

# Status of a triple in the privacy definition (codes used by data and styles).
PRIVATE = "private"
PUBLIC = "public"
EXCLUDED = "excluded"  # public candidate removed because it connects private entities
INFERABLE = "inferable"  # marked private, but derivable from public triples, so not kept private
QUERY = "query"  # from a query: never private

# State of a rewrite run against the current workspace.
FRESH = "fresh"  # computed from the current definition and texts, every document rewritten
STALE = "stale"  # the definition or a document changed since: shown, never silently recomputed
INCOMPLETE = "incomplete"  # stopped before its last document (an error); running again continues
# The one vocabulary users read for those states: messages, tables, legends and docs.
STATUS_LABELS = {
    PRIVATE: "private",
    PUBLIC: "public",
    QUERY: "query",
    INFERABLE: "excluded: inferable from public",
    EXCLUDED: "excluded: connects private facts",
}
STATUS_EXPLANATIONS = {
    PRIVATE: "marked private and kept private by the filters",
    PUBLIC: "stays in the documents",
    QUERY: "from a query: never private",
    INFERABLE: "marked private, but public triples already connect its entities, so erasing it "
    "alone protects nothing (filter b)",
    EXCLUDED: "not marked, but it connects entities of private triples, so it is taken out of the "
    "public set (filter a)",
}


def status_label(status: str) -> str:
    """The label users read for a status code."""
    return STATUS_LABELS.get(status, status)


def status_counts_text(counts: dict[str, int]) -> str:
    """ "3 private, 10 public, 1 excluded: inferable from public" (states with no triple left out,
    private and public always shown)."""
    order = (PRIVATE, PUBLIC, INFERABLE, EXCLUDED, QUERY)
    parts = [
        f"{counts.get(status, 0)} {STATUS_LABELS[status]}"
        for status in order
        if status in (PRIVATE, PUBLIC) or counts.get(status, 0)
    ]
    return ", ".join(parts)

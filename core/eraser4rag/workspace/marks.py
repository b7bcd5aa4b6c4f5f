"""Privacy marks of the current scope: toggle one triple, every triple of an entity or of a category
of personal data, a seeded random split, clear, and undo (up to `UNDO_DEPTH` steps per scope).

`Marks` is mixed into `core.eraser4rag.workspace.Workspace`: every change goes through
`_refresh_definition`, so the filtered definition always follows the marks."""

from __future__ import annotations

from typing import Any

from core.eraser4rag.erasers.pipeline import SPLIT_METHODS, SplitRecipe, private_marks
from core.eraser4rag.filters import PrivacyDefinition
from core.eraser4rag.workspace.scopes import UNDO_DEPTH, keys_json, scope_name
from core.types import TripleKey, normalize_entity


class Marks:
    """Marking triples private in the current scope (a mixin of `Workspace`)."""

    marked_private: set[TripleKey]
    mark_history: list[frozenset[TripleKey]]
    scope_histories: dict[str, list[frozenset[TripleKey]]]
    scope: str | None
    definition: Any

    def _require_key(self, key: TripleKey) -> None:
        if key not in self.all_keys():
            raise KeyError(f"no triple {key!r} in this workspace")
        if key in self.query_keys():
            raise ValueError(f"triple {key!r} comes from a query; query triples are never private")

    def _remember_marks(self) -> None:
        """Keep the marks as they are now so the coming change can be undone."""
        self.mark_history.append(frozenset(self.marked_private))
        del self.mark_history[:-UNDO_DEPTH]

    def undo_to_meta(self) -> dict[str, list[list[list[str]]]]:
        """Every scope's undo steps as JSON (scope name -> steps, oldest first -> triple keys)."""
        histories = {**self.scope_histories, scope_name(self.scope): self.mark_history}
        return {name: [keys_json(step) for step in steps] for name, steps in histories.items() if steps}

    def undo(self) -> int:
        """Put back the marks as they were before the last change; returns how many are marked."""
        if not self.mark_history:
            raise ValueError("nothing to undo: the privacy marks have not changed")
        self.marked_private = set(self.mark_history.pop()) & self.all_keys()
        self._refresh_definition()
        return len(self.marked_private)

    def status_counts(self) -> dict[str, int]:
        """How many distinct triples are in each state (codes of STATUS_LABELS)."""
        counts: dict[str, int] = {}
        for status in self._statuses().values():
            counts[status] = counts.get(status, 0) + 1
        return counts

    def toggle_private(self, key: TripleKey) -> bool:
        """Mark or unmark one triple as private; returns whether it is marked now."""
        self._require_key(key)
        self._remember_marks()
        if key in self.marked_private:
            self.marked_private.discard(key)
            marked = False
        else:
            self.marked_private.add(key)
            marked = True
        self._refresh_definition()
        return marked

    def mark_entity_private(self, entity: str) -> int:
        """Mark every non-query triple that has `entity` as head or tail; returns how many were new."""
        wanted = normalize_entity(entity)
        if not wanted:
            raise ValueError("choose an entity to mark private")
        query_keys = self.query_keys()
        keys = {k for k in self.all_keys() if wanted in (k[0], k[2]) and k not in query_keys}
        if not keys:
            raise ValueError(f"no non-query triple mentions the entity {entity!r}")
        return self._mark_keys_private(keys)

    def _mark_keys_private(self, keys: set[TripleKey]) -> int:
        """Mark `keys` private as one undoable step; how many were new."""
        new = keys - self.marked_private
        if new:
            self._remember_marks()
        self.marked_private |= keys
        self._refresh_definition()
        return len(new)

    def mark_category_private(self, category: str) -> int:
        """Mark every non-query triple of the scope whose category is `category` (e.g. "health")
        private, as marks on their keys; returns how many were new."""
        wanted = (category or "").strip().casefold()
        if not wanted:
            raise ValueError("choose a category of personal data to mark private")
        query_keys = self.query_keys()
        keys = {k for k, c in self.key_categories().items() if c == wanted and k not in query_keys}
        if not keys:
            present = ", ".join(self.category_counts()) or "none"
            raise ValueError(
                f"no non-query triple has the category {category!r} (categories here: {present})"
            )
        return self._mark_keys_private(keys)

    def random_split(self, ratio: float, seed: int, method: str = "connected") -> int:
        """Replace the marks with a random `ratio` of the scope's triples (query triples never private).

        `method` "connected" grows a connected subset (the paper's simulation, section 3.1.1);
        "uniform" samples triples independently.
        """
        if not 0.0 < ratio <= 1.0:
            raise ValueError(f"private ratio must be in (0, 1], got {ratio}")
        if method not in SPLIT_METHODS:
            raise ValueError(f"unknown split method {method!r}: choose one of {', '.join(SPLIT_METHODS)}")
        if not self.all_keys():
            raise ValueError("no triples yet: extract triples first")
        recipe = SplitRecipe(ratio, seed, method)  # the batch's split rule (core.eraser4rag.erasers.pipeline)
        self._remember_marks()
        self.marked_private = private_marks(self.all_keys(), self.query_keys(), recipe, self.name_aliases())
        self._refresh_definition()
        return len(self.marked_private)

    def clear_private(self) -> None:
        if self.marked_private:
            self._remember_marks()
        self.marked_private = set()
        self._set_definition(None)

    def apply_filters(self) -> PrivacyDefinition:
        """Run the Eraser4RAG filters on the marks and keep the resulting definition."""
        if not self.marked_private:
            raise ValueError("nothing is marked private: click triples, mark an entity or use a random split")
        self._refresh_definition()
        assert self.definition is not None
        return self.definition

    def private_entities(self) -> list[str]:
        """Display labels of the entities of private triples, sorted."""
        nodes = {node for key in self.private_keys() for node in (key[0], key[2])}
        return sorted({self.graph.label(node) for node in nodes}, key=str.casefold)

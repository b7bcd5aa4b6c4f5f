"""Which part of a large graph to draw: whole connected components, largest first, within a
node budget; a component too large for the budget is cut to the neighbourhood of its
best-connected entity (breadth-first). What is left out is counted, so the page can say so.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Collection, Iterable
from dataclasses import dataclass

import networkx as nx

from core.eraser4rag.graph import adjacency, components_of
from core.types import TripleKey


@dataclass(frozen=True)
class GraphView:
    keys: tuple[TripleKey, ...]  # the triples to draw, in the input order
    nodes_total: int
    nodes_shown: int
    edges_total: int
    components_total: int
    components_shown: int  # whole or cut
    cut: bool  # a component was cut to a neighbourhood

    @property
    def nodes_hidden(self) -> int:
        return self.nodes_total - self.nodes_shown

    @property
    def edges_hidden(self) -> int:
        return self.edges_total - len(self.keys)

    def summary(self) -> str:
        """ "All 12 entities and 9 triples shown." or what is hidden and how to see it."""
        if not self.nodes_hidden and not self.edges_hidden:
            return f"All {self.nodes_total} entities and {self.edges_total} triples shown."
        parts = [
            f"Showing {self.nodes_shown} of {self.nodes_total} entities and {len(self.keys)} of "
            f"{self.edges_total} triples ({self.components_shown} of {self.components_total} connected "
            "group(s), largest first"
        ]
        if self.cut:
            parts.append("; the largest group is cut to the neighbourhood of its best-connected entity")
        parts.append(
            f"). Hidden: {self.nodes_hidden} entities, {self.edges_hidden} triple(s). Pick an entity or a "
            "document above to see another part."
        )
        return "".join(parts)


def visible_part(
    keys: Iterable[TripleKey], max_nodes: int, priority: Collection[TripleKey] = ()
) -> GraphView:
    """The components (or one neighbourhood) of `keys` to draw with at most `max_nodes` entities.

    Components holding a `priority` triple (the private ones) come first, and a component too large
    for the budget is cut around the entity with the most of them: after a split, the private
    triples are what the reader looks for."""
    keys = list(dict.fromkeys(keys))
    wanted = set(priority)
    groups = _components(keys)
    if wanted:
        groups.sort(key=lambda group: not any(key in wanted for key in group[1]))  # stable: size order kept
    nodes_total = sum(len(nodes) for nodes, _ in groups)
    budget = max(1, max_nodes)
    chosen_nodes: set[str] = set()
    shown = 0
    cut = False
    for nodes, group_keys in groups:
        if len(chosen_nodes) + len(nodes) <= budget:
            chosen_nodes |= nodes
            shown += 1
        elif shown == 0:  # the largest component alone is too big: its densest neighbourhood
            chosen_nodes = _neighbourhood(group_keys, budget, wanted)
            shown, cut = 1, True
            break
    visible = tuple(k for k in keys if k[0] in chosen_nodes and k[2] in chosen_nodes)
    return GraphView(
        keys=visible,
        nodes_total=nodes_total,
        nodes_shown=len(chosen_nodes),
        edges_total=len(keys),
        components_total=len(groups),
        components_shown=shown,
        cut=cut,
    )


def _components(keys: list[TripleKey]) -> list[tuple[set[str], list[TripleKey]]]:
    """(nodes, keys) of each connected component, most nodes first, ties by first key."""
    union = components_of(keys)
    by_root: dict[str, tuple[set[str], list[TripleKey]]] = {}
    for key in keys:
        nodes, group_keys = by_root.setdefault(union.find(key[0]), (set(), []))
        nodes.update((key[0], key[2]))
        group_keys.append(key)
    return sorted(by_root.values(), key=lambda group: (-len(group[0]), -len(group[1]), min(group[1])))


def _neighbourhood(keys: list[TripleKey], budget: int, wanted: Collection[TripleKey] = ()) -> set[str]:
    """Up to `budget` entities reached breadth-first from the entity with the most `wanted` triples,
    then the most triples."""
    adj = adjacency(keys)
    wanted_at = {node: sum(key in wanted for _other, key in adj[node]) for node in adj}
    start = min(adj, key=lambda node: (-wanted_at[node], -len(adj[node]), node))
    seen = {start}
    queue = deque([start])
    while queue and len(seen) < budget:
        node = queue.popleft()
        for neighbour in sorted({other for other, _key in adj[node]}):
            if len(seen) >= budget:
                break
            if neighbour not in seen:
                seen.add(neighbour)
                queue.append(neighbour)
    return seen


LAYOUT_MAX_NODES = 400  # above this the page lays the graph out itself (a server layout costs seconds)
LAYOUT_SPACING = 90.0  # about the pixels between neighbouring entities, as the page's own layout
LAYOUT_SEED = 7


def layout_positions(
    keys: Iterable[TripleKey], seed: int = LAYOUT_SEED, max_nodes: int = LAYOUT_MAX_NODES
) -> dict[str, tuple[float, float]]:
    """A place for every entity of `keys` (force-directed, the same for the same keys and seed), in
    the page's pixels; {} above `max_nodes` entities. Graphs drawn with these places put each entity
    where it is in the others: the rewritten graph is laid out like the original."""
    graph = nx.Graph()
    edges = sorted({tuple(sorted((head, tail))) for head, _relation, tail in keys})
    graph.add_nodes_from(sorted({node for edge in edges for node in edge}))
    graph.add_edges_from(edges)
    count = graph.number_of_nodes()
    if not count or count > max_nodes:
        return {}
    scale = LAYOUT_SPACING * math.sqrt(count)
    placed = nx.spring_layout(graph, seed=seed, iterations=50)
    return {node: (round(float(x) * scale, 1), round(float(y) * scale, 1)) for node, (x, y) in placed.items()}

"""The global knowledge graph: nodes, edges, connectivity and paths.

Eraser4RAG (section 3.1.1) merges the triples of all retrieved documents into one
graph G, marks a subset as private, and filters the split so that neither side can
be inferred from the other; section 4.1.2 (Eq. 2) defines which private triples stay
inferable from the non-private triples of *other* documents.

Conventions used throughout this module:

* Triples are compared by `Triple.key` (`core.types.triple_key`); nodes are the
  normalised head/tail strings of those keys.
* "Connected" means connected in the *undirected* graph whose edges are the given
  keys, exactly as `networkx.has_path` on an undirected graph: a node is connected
  to itself when it is a node of the graph, and a node that is not in the graph is
  connected to nothing.
* Connectivity over many pairs uses union-find; breadth-first search runs only to
  produce the few paths a person reads (filter moves, inference risks).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import networkx as nx

from core.eraser4rag.names import Aliases
from core.extract.vocabulary import is_category_value
from core.types import Triple, TripleKey, normalize_entity, normalize_relation

CATEGORY_SEPARATOR = "\x1f"
Adjacency = dict[str, list[tuple[str, TripleKey]]]


class UnionFind:
    """Disjoint sets over hashable items, with path halving and union by size.

    `find` of an item never seen returns the item itself without adding it, so
    asking about an unknown node does not change the structure.
    """

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}
        self._size: dict[str, int] = {}

    def __contains__(self, item: object) -> bool:
        return item in self._parent

    def __len__(self) -> int:
        return len(self._parent)

    def add(self, item: str) -> None:
        if item not in self._parent:
            self._parent[item] = item
            self._size[item] = 1

    def find(self, item: str) -> str:
        parent = self._parent
        if item not in parent:
            return item
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    def union(self, a: str, b: str) -> str:
        """Merge the sets of `a` and `b` (adding either if new); returns the new root."""
        self.add(a)
        self.add(b)
        root_a, root_b = self.find(a), self.find(b)
        if root_a == root_b:
            return root_a
        if self._size[root_a] < self._size[root_b]:
            root_a, root_b = root_b, root_a
        self._parent[root_b] = root_a
        self._size[root_a] += self._size[root_b]
        return root_a

    def connected(self, a: str, b: str) -> bool:
        """True when both items are known and in one set (an item is connected to itself)."""
        return a in self._parent and b in self._parent and self.find(a) == self.find(b)

    def component_size(self, item: str) -> int:
        return self._size[self.find(item)] if item in self._parent else 0


def node_of(entity: str, aliases: Aliases | None = None) -> str:
    """The graph node of an entity: its canonical name variant (`core.eraser4rag.names`), also inside a
    category value's qualifier ("politician<sep>henry feilden" -> "...<sep>henry master feilden")."""
    if not aliases:
        return entity
    if CATEGORY_SEPARATOR in entity:
        value, head = entity.split(CATEGORY_SEPARATOR, 1)
        return f"{value}{CATEGORY_SEPARATOR}{aliases.get(head, head)}"
    return aliases.get(entity, entity)


def ends_of(key: TripleKey, aliases: Aliases | None = None) -> tuple[str, str]:
    """(head node, tail node) of a key, name variants joined."""
    return node_of(key[0], aliases), node_of(key[2], aliases)


def components_of(keys: Iterable[TripleKey], aliases: Aliases | None = None) -> UnionFind:
    """Union-find over the undirected graph whose edges are the head/tail of `keys`.

    With `aliases` (`core.eraser4rag.names.name_aliases`), name variants of one person are one node; ask
    `connected(*ends_of(key, aliases))`.
    """
    uf = UnionFind()
    for key in keys:
        uf.union(*ends_of(key, aliases))
    return uf


def inference_key(key: TripleKey) -> TripleKey:
    """The key as inference paths see it: a category value becomes its head's own node.

    (A, occupation, politician) and (B, occupation, politician) state two facts about two
    people; the shared value "politician" is a class, so a path A -> politician <- B would
    "infer" something about A from B that B never said. Qualifying a category value
    (`vocabulary.is_category_value`: occupation, citizenship, demonyms, degrees, awards, ...)
    with its head keeps it a triple's tail and an endpoint of paths from its own head (a
    second document stating A's occupation still infers it), but no path passes through it.
    The mapping is one-to-one, so paths map back to the original keys.
    """
    head, relation, tail = key
    if is_category_value(relation, tail):
        return head, relation, f"{tail}{CATEGORY_SEPARATOR}{head}"
    return key


def original_key(viewed: TripleKey) -> TripleKey:
    """The key `inference_key` turned into `viewed`."""
    head, relation, tail = viewed
    return head, relation, tail.split(CATEGORY_SEPARATOR, 1)[0]


def entity_components(keys: Iterable[TripleKey], aliases: Aliases | None = None) -> UnionFind:
    """Components as inference sees them: category values join no two heads (`inference_key`);
    name variants of one person are one node (`aliases`)."""
    return components_of((inference_key(key) for key in keys), aliases)


# ---------------------------------------------------------------------------- the graph


@dataclass
class KnowledgeGraph:
    """Every triple occurrence grouped by key, with per-node labels and document index.

    `edges[key]` lists every `Triple` that produced `key`, in input order (the
    provenance a highlight or an export needs). Build with `from_triples`.
    """

    edges: dict[TripleKey, list[Triple]] = field(default_factory=dict)
    _surface_forms: dict[str, Counter[str]] = field(default_factory=dict, repr=False)
    _node_docs: dict[str, set[str]] = field(default_factory=dict, repr=False)
    _doc_keys: dict[str, set[TripleKey]] = field(default_factory=dict, repr=False)
    _node_keys: dict[str, set[TripleKey]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_triples(cls, triples: Iterable[Triple]) -> KnowledgeGraph:
        graph = cls()
        for triple in triples:
            graph._add(triple, triple.key)
        return graph

    def _add(self, triple: Triple, key: TripleKey) -> None:
        head, _relation, tail = key
        self.edges.setdefault(key, []).append(triple)
        self._doc_keys.setdefault(triple.doc_id, set()).add(key)
        for node, surface in ((head, triple.head), (tail, triple.tail)):
            self._surface_forms.setdefault(node, Counter())[surface.strip()] += 1
            self._node_docs.setdefault(node, set()).add(triple.doc_id)
            self._node_keys.setdefault(node, set()).add(key)

    def __len__(self) -> int:
        return len(self.edges)

    def __iter__(self) -> Iterator[TripleKey]:
        return iter(self.edges)

    def __contains__(self, key: object) -> bool:
        return key in self.edges

    def keys(self) -> set[TripleKey]:
        return set(self.edges)

    def triples(self) -> list[Triple]:
        """Every occurrence, grouped by key in first-seen key order."""
        return [triple for occurrences in self.edges.values() for triple in occurrences]

    def nodes(self) -> list[str]:
        return list(self._surface_forms)

    @property
    def doc_ids(self) -> tuple[str, ...]:
        """Ids of the documents (and queries) that contributed a triple, in first-seen order."""
        return tuple(self._doc_keys)

    def label(self, node: str) -> str:
        """Most frequent surface form of a node (the first seen wins a tie)."""
        forms = self._surface_forms.get(node)
        if not forms:
            return node
        return forms.most_common(1)[0][0]

    def relation_label(self, key: TripleKey) -> str:
        """Most frequent surface form of the relation of `key`."""
        forms = Counter(triple.relation.strip() for triple in self.edges.get(key, ()))
        return forms.most_common(1)[0][0] if forms else key[1]

    def documents_mentioning(self, node: str) -> set[str]:
        return set(self._node_docs.get(node, ()))

    def triples_of_doc(self, doc_id: str) -> set[TripleKey]:
        return set(self._doc_keys.get(doc_id, ()))

    def docs_of(self, key: TripleKey) -> set[str]:
        return {triple.doc_id for triple in self.edges.get(key, ())}

    def neighbours(self, node: str) -> set[str]:
        """Nodes one edge away in either direction."""
        found = {end for head, _relation, tail in self._node_keys.get(node, ()) for end in (head, tail)}
        found.discard(node)
        return found

    def to_networkx(self) -> nx.MultiDiGraph:
        """Directed multigraph: node attrs `label`, `size` (documents); edge key = relation.

        Edge attributes: `relation` (normalised), `label` (surface form), `triple_key`,
        `doc_ids` (sorted) and `count` (occurrences).
        """
        graph = nx.MultiDiGraph()
        for node in self._surface_forms:
            graph.add_node(node, label=self.label(node), size=len(self._node_docs[node]))
        for key, occurrences in self.edges.items():
            head, relation, tail = key
            graph.add_edge(
                head,
                tail,
                key=relation,
                relation=relation,
                label=self.relation_label(key),
                triple_key=key,
                doc_ids=sorted({t.doc_id for t in occurrences}),
                count=len(occurrences),
            )
        return graph

    def subgraph(
        self,
        doc_ids: Iterable[str] | None = None,
        entity: str | None = None,
        relation: str | None = None,
        search: str | None = None,
        limit: int | None = None,
        include_neighbours: bool = False,
    ) -> KnowledgeGraph:
        """A filtered copy for display; every given filter must hold.

        * `doc_ids`: keep only occurrences from these documents.
        * `entity`: keep triples touching the entity (surface text is normalised);
          with `include_neighbours`, also triples touching any of its neighbours.
        * `relation`: keep triples with this relation (normalised).
        * `search`: case-insensitive substring of head, relation or tail, matched
          against both the normalised key and the surface forms.
        * `limit`: at most this many keys, those with the most occurrences first.
        """
        wanted_docs = set(doc_ids) if doc_ids is not None else None
        touching = self._entity_nodes(entity, include_neighbours) if entity else None
        wanted_relation = normalize_relation(relation) if relation else None
        needle = search.strip().casefold() if search and search.strip() else None

        kept: dict[TripleKey, list[Triple]] = {}
        for key, occurrences in self.edges.items():
            head, rel, tail = key
            if wanted_relation is not None and rel != wanted_relation:
                continue
            if touching is not None and head not in touching and tail not in touching:
                continue
            if wanted_docs is not None:
                occurrences = [t for t in occurrences if t.doc_id in wanted_docs]
            if not occurrences:
                continue
            if needle is not None and not matches_search(needle, key, occurrences):
                continue
            kept[key] = occurrences
        if limit is not None:
            ranked = sorted(kept, key=lambda k: (-len(kept[k]), k))[: max(limit, 0)]
            kept = {key: kept[key] for key in ranked}
        return KnowledgeGraph.from_triples(t for occurrences in kept.values() for t in occurrences)

    def _entity_nodes(self, entity: str, include_neighbours: bool) -> set[str]:
        node = normalize_entity(entity)
        nodes = {node}
        if include_neighbours:
            nodes |= self.neighbours(node)
        return nodes


def matches_search(needle: str, key: TripleKey, occurrences: Sequence[Triple]) -> bool:
    """Whether `needle` (stripped, case-folded search text) is part of a head, relation or tail.

    Checked against the normalised key (a spaced needle also against the snake_case relation,
    so "live in" finds `live_in`) and against the surface forms of `occurrences`. The graph
    view and the workspace's triples table both filter with this rule.
    """
    if any(needle in part for part in key):
        return True
    needle_snake = needle.replace(" ", "_")
    if needle_snake != needle and needle_snake in key[1]:
        return True
    return any(needle in part.casefold() for t in occurrences for part in (t.head, t.relation, t.tail))


# -------------------------------------------------------------------------- paths (BFS)


def adjacency(keys: Iterable[TripleKey], aliases: Aliases | None = None) -> Adjacency:
    """Undirected adjacency lists, built from sorted keys so that paths are reproducible.

    Nodes are `node_of` the key's ends (name variants joined); edges stay the keys themselves.
    """
    adj: Adjacency = defaultdict(list)
    for key in sorted(keys):
        head, tail = ends_of(key, aliases)
        adj[head].append((tail, key))
        if tail != head:
            adj[tail].append((head, key))
    return dict(adj)


def shortest_path(
    adj: Adjacency,
    source: str,
    target: str,
    avoid: Container[TripleKey] = frozenset(),
) -> tuple[TripleKey, ...] | None:
    """Fewest-edge path from `source` to `target` as keys, or None when not connected.

    Bidirectional breadth-first search that always grows the frontier with fewer
    edges to walk, so a disconnected pair costs about the smaller side's component. Edges in `avoid` are
    not walked. A node present in `adj` reaches itself
    by the empty path.
    """
    if source not in adj or target not in adj:
        return None
    if source == target:
        return ()
    forward: dict[str, tuple[str, TripleKey] | None] = {source: None}
    backward: dict[str, tuple[str, TripleKey] | None] = {target: None}
    depth_f, depth_b = {source: 0}, {target: 0}
    frontier_f, frontier_b = [source], [target]
    while frontier_f and frontier_b:
        grow_forward = _fanout(adj, frontier_f) <= _fanout(adj, frontier_b)
        if grow_forward:
            frontier_f, meet = _expand(adj, frontier_f, forward, depth_f, depth_b, avoid)
        else:
            frontier_b, meet = _expand(adj, frontier_b, backward, depth_b, depth_f, avoid)
        if meet is not None:
            return _join(forward, backward, meet)
    return None


def connected_avoiding(adj: Adjacency, source: str, target: str, avoid: Container[TripleKey]) -> bool:
    """Whether `shortest_path(adj, source, target, avoid)` would find a path, without building it.

    Same bidirectional search, but it stops at the first edge joining the two sides.
    """
    if source not in adj or target not in adj:
        return False
    if source == target:
        return True
    seen_f, seen_b = {source}, {target}
    frontier_f, frontier_b = [source], [target]
    while frontier_f and frontier_b:
        if _fanout(adj, frontier_f) > _fanout(adj, frontier_b):
            frontier_f, frontier_b, seen_f, seen_b = frontier_b, frontier_f, seen_b, seen_f
        next_frontier: list[str] = []
        for node in frontier_f:
            for neighbour, key in adj[node]:
                if neighbour in seen_f or key in avoid:
                    continue
                if neighbour in seen_b:
                    return True
                seen_f.add(neighbour)
                next_frontier.append(neighbour)
        frontier_f = next_frontier
    return False


def _fanout(adj: Adjacency, frontier: list[str]) -> int:
    """Edges the next level would walk (a hub makes a one-node frontier expensive)."""
    return sum(len(adj[node]) for node in frontier)


def _expand(
    adj: Adjacency,
    frontier: list[str],
    parents: dict[str, tuple[str, TripleKey] | None],
    depth: dict[str, int],
    other_depth: dict[str, int],
    avoid: Container[TripleKey],
) -> tuple[list[str], str | None]:
    """Grow one full level; returns the next frontier and the best meeting node, if any."""
    next_frontier: list[str] = []
    meet: str | None = None
    for node in frontier:
        for neighbour, key in adj[node]:
            if neighbour in parents or key in avoid:
                continue
            parents[neighbour] = (node, key)
            depth[neighbour] = depth[node] + 1
            next_frontier.append(neighbour)
            if neighbour in other_depth and (meet is None or other_depth[neighbour] < other_depth[meet]):
                meet = neighbour
    return next_frontier, meet


def _join(
    forward: dict[str, tuple[str, TripleKey] | None],
    backward: dict[str, tuple[str, TripleKey] | None],
    meet: str,
) -> tuple[TripleKey, ...]:
    first_half: list[TripleKey] = []
    node = meet
    while (step := forward[node]) is not None:
        node, key = step
        first_half.append(key)
    second_half: list[TripleKey] = []
    node = meet
    while (step := backward[node]) is not None:
        node, key = step
        second_half.append(key)
    return (*reversed(first_half), *second_half)


def format_key(key: TripleKey) -> str:
    """`(head, relation, tail)` of a normalised key, for messages and the CLI."""
    return f"({key[0]}, {key[1]}, {key[2]})"

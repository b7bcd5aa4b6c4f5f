"""The private/public split and its two connectivity filters (Eraser4RAG section 3.1.1)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from core.eraser4rag.graph import (
    Adjacency,
    UnionFind,
    adjacency,
    ends_of,
    entity_components,
    format_key,
    inference_key,
    original_key,
    shortest_path,
)
from core.eraser4rag.names import Aliases
from core.types import TripleKey

FILTER_PUBLIC = "public_connected_in_private"  # filter (a): leaves the public set
FILTER_PRIVATE = "private_inferable_from_public"  # filter (b): leaves the private set
State = Literal["private", "public", "excluded"]


@dataclass(frozen=True)
class FilterMove:
    """One triple taken out of its candidate set by a filter, with the reason.

    `path` is the connecting path in the *other* graph (private graph for filter
    (a), filtered public graph for filter (b)); it is empty when not computed yet
    (see `path_for`) or when head and tail are the same entity.
    """

    key: TripleKey
    filter: str
    path: tuple[TripleKey, ...] = ()

    def reason(self) -> str:
        head, _relation, tail = self.key
        if self.filter == FILTER_PUBLIC:
            start = (
                f"{format_key(self.key)} left the public set: "
                f"{head!r} and {tail!r} are connected in the private graph"
            )
        else:
            start = (
                f"{format_key(self.key)} left the private set: it can be inferred because "
                f"{head!r} and {tail!r} are connected in the public graph"
            )
        if self.path:
            return f"{start} via {' – '.join(format_key(k) for k in self.path)}."
        return f"{start}."


@dataclass(frozen=True)
class PrivacyDefinition:
    """The filtered split of the global graph.

    `marked` is what the person or simulation marked before filtering; `query` are
    the query triples (never private); `excluded` left both sets through a filter,
    each with one `FilterMove` in `moves` (filter (a) moves first, then (b), each
    sorted by key).
    """

    private: frozenset[TripleKey]
    public: frozenset[TripleKey]
    excluded: frozenset[TripleKey]
    moves: tuple[FilterMove, ...]
    marked: frozenset[TripleKey]
    query: frozenset[TripleKey] = frozenset()
    # name variant -> canonical node (`core.eraser4rag.names.name_aliases`): connectivity reads nodes
    # through it
    aliases: tuple[tuple[str, str], ...] = ()

    @cached_property
    def alias_map(self) -> dict[str, str]:
        return dict(self.aliases)

    def state_of(self, key: TripleKey) -> State:
        if key in self.private:
            return "private"
        if key in self.public:
            return "public"
        if key in self.excluded:
            return "excluded"
        raise KeyError(f"triple {format_key(key)} is not part of this privacy definition")

    def move_of(self, key: TripleKey) -> FilterMove | None:
        return self._moves_by_key.get(key)

    @property
    def all_keys(self) -> frozenset[TripleKey]:
        return self.private | self.public | self.excluded

    @property
    def unprivate(self) -> frozenset[TripleKey]:
        """G_unpri = G minus G_pri: public and excluded triples."""
        return self.public | self.excluded

    @property
    def candidate_private(self) -> frozenset[TripleKey]:
        """The private graph filter (a) used: marks minus query triples."""
        return self.private | {m.key for m in self.moves if m.filter == FILTER_PRIVATE}

    @cached_property
    def _moves_by_key(self) -> dict[TripleKey, FilterMove]:
        return {move.key: move for move in self.moves}

    @cached_property
    def _candidate_private_adjacency(self) -> Adjacency:
        return adjacency((inference_key(k) for k in self.candidate_private), self.alias_map)

    @cached_property
    def _public_adjacency(self) -> Adjacency:
        return adjacency((inference_key(k) for k in self.public), self.alias_map)


def path_for(move: FilterMove, definition: PrivacyDefinition) -> tuple[TripleKey, ...]:
    """The connecting path that justifies `move` (computed once per graph, then BFS)."""
    if move.path:
        return move.path
    if move.filter == FILTER_PUBLIC:
        adj = definition._candidate_private_adjacency
    else:
        adj = definition._public_adjacency
    head, tail = ends_of(inference_key(move.key), definition.alias_map)
    return tuple(original_key(k) for k in shortest_path(adj, head, tail) or ())


def with_path(move: FilterMove, definition: PrivacyDefinition) -> FilterMove:
    """`move` with its path filled in (for display of a few moves at a time)."""
    return FilterMove(move.key, move.filter, path_for(move, definition))


def _ends_connected(components: UnionFind, key: TripleKey, aliases: Aliases) -> bool:
    return components.connected(*ends_of(inference_key(key), aliases))


def define_privacy(
    all_keys: Iterable[TripleKey],
    marked_private: Iterable[TripleKey],
    query_keys: Iterable[TripleKey] = frozenset(),
    max_paths: int = 100,
    aliases: Mapping[str, str] | None = None,
) -> PrivacyDefinition:
    """Split G into private and public and apply both filters of section 3.1.1.

    1. Candidate private = marked minus query keys; candidate public = the rest.
    2. Filter (a): a candidate public triple whose head and tail are connected in
       the candidate private graph leaves the public set. Its own edge is never in
       that graph; a private *parallel* edge with the same (head, tail) does count,
       since that pair is then connected privately.
    3. Filter (b), on the public graph left after (a): a candidate private triple
       whose head and tail are connected there leaves the private set (it can be
       inferred anyway). Its own edge is never in the public graph.
    Connectivity is read as inference reads it (`core.eraser4rag.graph.inference_key`): no path passes
    through a category value (an occupation, a nationality, a date), so two people who are
    both "politician" do not make each other's facts inferable. `aliases`
    (`core.eraser4rag.names.name_aliases` of the set's triples) makes name variants of one person one node.
    The filters run once, in this order, as in the paper; triples leaving a set are
    `excluded` (in neither set). Paths are filled in for the first `max_paths`
    moves; `path_for` computes the others on demand.

    Raises ValueError when a marked triple is not in `all_keys`.
    """
    keys = frozenset(all_keys)
    marked = frozenset(marked_private)
    unknown = marked - keys
    if unknown:
        sample = ", ".join(format_key(k) for k in sorted(unknown)[:3])
        raise ValueError(f"{len(unknown)} marked triple(s) are not in the graph, e.g. {sample}")
    query = frozenset(query_keys) & keys
    candidate_private = marked - query
    candidate_public = keys - candidate_private

    alias_map = dict(aliases or {})
    private_components = entity_components(candidate_private, alias_map)
    moved_public = sorted(k for k in candidate_public if _ends_connected(private_components, k, alias_map))
    public = candidate_public.difference(moved_public)
    public_components = entity_components(public, alias_map)
    moved_private = sorted(k for k in candidate_private if _ends_connected(public_components, k, alias_map))
    private = candidate_private.difference(moved_private)

    moves = [FilterMove(k, FILTER_PUBLIC) for k in moved_public]
    moves += [FilterMove(k, FILTER_PRIVATE) for k in moved_private]
    definition = PrivacyDefinition(
        private=private,
        public=public,
        excluded=frozenset(moved_public) | frozenset(moved_private),
        moves=tuple(moves),
        marked=marked,
        query=query,
        aliases=tuple(sorted(alias_map.items())),
    )
    if not moves or max_paths <= 0:
        return definition
    shown = tuple(with_path(m, definition) if i < max_paths else m for i, m in enumerate(moves))
    with_paths = PrivacyDefinition(
        definition.private, public, definition.excluded, shown, marked, query, definition.aliases
    )
    # Hand over the adjacency lists already built, so a later `path_for` does not rebuild them.
    for graph_cache in ("_candidate_private_adjacency", "_public_adjacency"):
        if graph_cache in definition.__dict__:
            with_paths.__dict__[graph_cache] = definition.__dict__[graph_cache]
    return with_paths

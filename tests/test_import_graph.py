"""The import graph of `core`, `storage` and `ui` (read by grimp from the source, every import
counted: module-level, inside functions and under TYPE_CHECKING) has no cycle and keeps the layers
docs/ARCHITECTURE.md draws:

    ui ──▶ storage ──▶ core        (ui also calls core directly)

* `core` (the methods) never imports `ui`, and never imports `storage`, except the command-line
  entry points named in `CORE_MODULES_THAT_OPEN_STORAGE` (batch commands that open the database);
* `storage` (the only SQL) imports `core` for the domain types it stores and their JSON forms,
  never `ui`;
* `core` never imports gradio, SQLAlchemy or alembic; `ui` never imports SQLAlchemy or alembic.
"""

from __future__ import annotations

from itertools import pairwise

import grimp
import pytest

PACKAGES = ("core", "storage", "ui")
CORE_MODULES_THAT_OPEN_STORAGE = frozenset({"core.cli", "core.cli_annotate"})
FORBIDDEN_EXTERNAL = {"core": {"gradio", "sqlalchemy", "alembic"}, "ui": {"sqlalchemy", "alembic"}}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    # the packages are found on sys.path, where pytest put the repository (tests/ is a package)
    return grimp.build_graph(*PACKAGES, include_external_packages=True, exclude_type_checking_imports=False)


def _internal(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    """Each module of the three packages -> the modules of the three packages it imports."""
    modules = {m for m in graph.modules if m.split(".")[0] in PACKAGES}
    return {m: {w for w in graph.find_modules_directly_imported_by(m) if w in modules} for m in modules}


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # iterative Tarjan: the graph is deeper than a comfortable recursion
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges[node]:
                    found.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


def _import_lines(graph: grimp.ImportGraph, importer: str, imported: str) -> str:
    details = graph.get_import_details(importer=importer, imported=imported)
    return "; ".join(f"{importer}:{d['line_number']} {d['line_contents']}" for d in details)


def test_the_cycle_finder_finds_a_cycle_and_passes_a_chain():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert _cycles({"a": {"a"}}) == [["a"]]


def _one_cycle(graph: grimp.ImportGraph, component: list[str], edges: dict[str, set[str]]) -> str:
    """A shortest cycle through the component's first module, each step with its import line."""
    first = component[0]
    successor = min(edges[first] & set(component))
    chain = [first, *(graph.find_shortest_chain(importer=successor, imported=first) or (successor, first))]
    return (
        " -> ".join(chain) + "\n    " + "\n    ".join(_import_lines(graph, a, b) for a, b in pairwise(chain))
    )


def test_no_module_of_core_storage_or_ui_imports_itself_back(graph):
    edges = _internal(graph)
    assert len(edges) > 100  # the three packages were read, not an empty graph
    cycles = _cycles(edges)
    shown = [f"{len(c)} modules in one cycle, e.g. {_one_cycle(graph, c, edges)}" for c in cycles]
    assert not cycles, "import cycles:\n" + "\n".join(shown)


def _crossing(graph: grimp.ImportGraph, lower: str, upper: str) -> list[str]:
    edges = _internal(graph)
    return sorted(
        _import_lines(graph, importer, imported)
        for importer, targets in edges.items()
        if importer.split(".")[0] == lower
        for imported in targets
        if imported.split(".")[0] == upper
    )


def test_core_and_storage_never_import_ui(graph):
    assert _crossing(graph, "core", "ui") == []
    assert _crossing(graph, "storage", "ui") == []


def test_core_imports_storage_only_in_its_command_line_entry_points(graph):
    edges = _internal(graph)
    opening = {
        m
        for m, targets in edges.items()
        if m.startswith("core.") and any(t.startswith("storage") for t in targets)
    }
    assert opening <= CORE_MODULES_THAT_OPEN_STORAGE, _crossing(graph, "core", "storage")
    assert opening, "the CLI exception is stale: drop it from CORE_MODULES_THAT_OPEN_STORAGE"


def test_storage_reads_core_types(graph):
    # the contract that holds today: storage stores core's nouns (Triple, RewriteRun, ...)
    assert "core.types" in graph.find_modules_directly_imported_by("storage.repository")


@pytest.mark.parametrize("package", sorted(FORBIDDEN_EXTERNAL))
def test_forbidden_libraries_stay_out(graph, package):
    edges = {m for m in graph.modules if m.split(".")[0] == package}
    found = sorted(
        _import_lines(graph, module, library)
        for module in edges
        for library in FORBIDDEN_EXTERNAL[package] & graph.find_modules_directly_imported_by(module)
    )
    assert found == []

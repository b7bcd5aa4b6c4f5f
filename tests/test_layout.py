"""Tests mirror the modules they test (README, "Layout").

Every `tests/**/test_*.py` sits in the directory that mirrors a package of the repository
(`tests/core/eraser4rag/erasers/` <-> `core/eraser4rag/erasers/`), and its name starts with
`test_<module>` for a module or sub-package of that package, or with `test_<package dir name>`
(a test across the package's modules, e.g. `tests/ui/test_ui_walkthrough.py`); what follows is the
aspect tested (`tests/core/test_documents_real.py`). `tests/` itself mirrors the repository root and
holds the repository-wide checks only (`REPOSITORY_WIDE`). Not checked: `tests/browser/` (the studio
end to end in Chromium) and `tests/benchmarks/` (the benchmarks' code)."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
NOT_CHECKED = ("browser", "benchmarks")
# tests/ mirrors the repository root: only checks of the whole repository live there
REPOSITORY_WIDE = frozenset({"test_layout.py", "test_import_graph.py"})


def _names_in(package: Path) -> set[str]:
    """What a test name in the mirror of `package` may start with: its modules, its sub-packages
    and the package's own directory name."""
    modules = {p.stem for p in package.glob("*.py") if p.name != "__init__.py"}
    packages = {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    return modules | packages | {package.name}


def _problem(test: Path) -> str | None:
    relative = test.relative_to(TESTS)
    if relative.parent == Path("."):
        if test.name in REPOSITORY_WIDE:
            return None
        return "at the top of tests/, which holds only the repository-wide checks: move it beside its module"
    package = REPO / relative.parent
    if not (package / "__init__.py").is_file():
        return f"tests/{relative.parent}/ mirrors no package ({relative.parent}/__init__.py does not exist)"
    if not (test.parent / "__init__.py").is_file():
        return f"tests/{relative.parent}/ has no __init__.py (equal test basenames would clash)"
    stem = test.stem.removeprefix("test_")
    names = _names_in(package)
    if not any(stem == name or stem.startswith(name + "_") for name in names):
        return f"its name starts with no module of {relative.parent}/ (test_<module>[_<aspect>].py)"
    return None


def _checked_tests() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if p.relative_to(TESTS).parts[0] not in NOT_CHECKED)


def test_every_test_file_mirrors_the_module_it_tests():
    tests = _checked_tests()
    assert len(tests) > 50  # the tree was read
    problems = [f"tests/{t.relative_to(TESTS)}: {why}" for t in tests if (why := _problem(t))]
    assert not problems, "test files out of place:\n" + "\n".join(problems)


def test_the_rule_refuses_a_misplaced_or_misnamed_file():
    assert _problem(TESTS / "test_somewhere.py") is not None
    assert _problem(TESTS / "core" / "test_no_such_module.py") is not None
    assert _problem(TESTS / "nowhere" / "test_x.py") is not None
    assert _problem(TESTS / "core" / "eraser4rag" / "erasers" / "test_closure.py") is None
    assert _problem(TESTS / "core" / "test_documents_real.py") is None
    assert _problem(TESTS / "ui" / "test_ui_walkthrough.py") is None

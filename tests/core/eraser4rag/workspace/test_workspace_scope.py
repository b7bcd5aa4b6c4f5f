"""The paper's setting: one graph and one privacy definition per retrieval set (a question and its
passages), the connected split as the default simulation, and definitions saved without the corpus.
Real PopQA retrieval sets (tests/data/popqa_slice.jsonl), the real spaCy extractor, a real SQLite file."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from core.eraser4rag.split import connected_random_private_keys, random_private_keys
from core.eraser4rag.workspace import Workspace, definition_name
from core.extract import get_extractor
from core.settings import Settings
from storage.repository import Repository

SLICE = Path(__file__).resolve().parents[3] / "data" / "popqa_slice.jsonl"


@pytest.fixture(scope="module")
def extracted() -> Workspace:
    workspace = Workspace()
    assert workspace.add_files([(SLICE.name, SLICE.read_bytes())], 5_000_000) == []
    workspace.extract(get_extractor("spacy", Settings()))
    return workspace


@pytest.fixture
def ws(extracted: Workspace) -> Workspace:
    return copy.deepcopy(extracted)


def test_scope_shows_one_retrieval_set_as_its_own_graph(ws: Workspace):
    whole_keys = ws.all_keys()
    query_ids = [query_id for query_id, _ in ws.scopes()]
    assert len(query_ids) == 4
    sizes = []
    for query_id in query_ids:
        ws.set_scope(query_id)
        retrieval_set = ws.retrieval_set()
        assert retrieval_set is not None and retrieval_set.query.id == query_id
        sources = retrieval_set.source_ids()
        assert ws.scoped_triples() and all(t.doc_id in sources for t in ws.scoped_triples())
        assert ws.all_keys() == {t.key for t in ws.triples if t.doc_id in sources}
        assert {t.doc_id for e in ws.graph.edges.values() for t in e} <= sources
        assert {row["doc_id"] for row in ws.triples_table()} <= sources
        sizes.append(len(ws.all_keys()))
    assert max(sizes) < len(whole_keys)
    ws.set_scope(None)
    assert ws.all_keys() == whole_keys and ws.retrieval_set() is None
    with pytest.raises(KeyError, match="no question"):
        ws.set_scope("nosuch-q1")


def test_each_scope_keeps_its_own_marks_and_definition(ws: Workspace):
    first, second = (query_id for query_id, _ in ws.scopes()[:2])
    ws.set_scope(first)
    ws.random_split(0.25, seed=0)
    first_definition = ws.definition
    assert first_definition is not None and first_definition.all_keys == ws.all_keys()
    ws.set_scope(second)
    assert ws.definition is None and not ws.marked_private
    ws.set_scope(None)
    assert ws.definition is None  # the whole corpus has its own marks, none yet
    ws.set_scope(first)
    assert ws.definition == first_definition


def test_connected_split_is_the_default_and_uniform_an_option(ws: Workspace):
    ws.set_scope(ws.scopes()[0][0])
    eligible, query = ws.all_keys(), ws.query_keys()
    ws.random_split(0.25, seed=5)
    assert ws.marked_private == connected_random_private_keys(eligible, 0.25, 5, exclude=query)
    ws.random_split(0.25, seed=5, method="uniform")
    assert ws.marked_private == random_private_keys(eligible, 0.25, 5, exclude=query)
    with pytest.raises(ValueError, match="unknown split method"):
        ws.random_split(0.25, seed=5, method="sideways")


def test_split_each_question_gives_one_definition_per_retrieval_set(ws: Workspace):
    definitions = ws.split_each_question(0.25, seed=0)
    assert set(definitions) == {query_id for query_id, _ in ws.scopes()}
    for query_id, definition in definitions.items():
        ws.set_scope(query_id)
        assert definition.all_keys == ws.all_keys()  # its own graph, not the corpus's
        assert definition.marked == ws.marked_private and not definition.marked & ws.query_keys()
    ws.set_scope(None)
    assert ws.definition is None


def test_definitions_are_saved_without_the_corpus_and_restored_per_scope(ws: Workspace, tmp_path):
    repo = Repository(tmp_path / "studio.sqlite3")
    ws.save(repo, "popqa")
    definitions = ws.split_each_question(0.25, seed=1)

    def refuse(*args, **kwargs):
        raise AssertionError("saving definitions must not write the corpus again")

    repo.save_corpus = refuse  # type: ignore[method-assign]
    assert ws.save_definitions(repo, {"method": "connected"}) == 4
    assert sorted(repo.list_definitions("popqa")) == sorted(definition_name(q) for q in definitions)
    first_name = definition_name(next(iter(definitions)))
    assert repo.definition_settings("popqa", first_name) == {"method": "connected"}

    fresh = Workspace()
    fresh.load(repo, "popqa")
    for query_id, definition in definitions.items():
        fresh.set_scope(query_id)
        assert fresh.definition == definition
    # unmarking a question deletes its stored definition at the next save
    first = next(iter(definitions))
    fresh.set_scope(first)
    fresh.clear_private()
    fresh.save_definitions(repo)
    assert definition_name(first) not in repo.list_definitions("popqa")


def test_saved_scope_comes_back_on_load(ws: Workspace, tmp_path):
    repo = Repository(tmp_path / "studio.sqlite3")
    second = ws.scopes()[1][0]
    ws.set_scope(second)
    ws.random_split(0.3, seed=2)
    ws.save(repo, "popqa")
    fresh = Workspace()
    fresh.load(repo, "popqa")
    assert fresh.scope == second and fresh.definition == ws.definition

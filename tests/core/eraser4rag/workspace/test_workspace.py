"""Workspace flows on the sample corpus with the real spaCy extractor and a real SQLite file."""

from __future__ import annotations

import copy
import json

import pytest

from core.eraser4rag.workspace import EXCLUDED, INFERABLE, PRIVATE, PUBLIC, QUERY, Workspace
from core.extract import get_extractor
from core.saving import OverwriteRefused
from core.settings import Settings
from core.types import triple_key
from storage.repository import Repository

NOTE = "Ada Brook works for Zephyr Labs. Zephyr Labs is located in Northport.\n"


@pytest.fixture(scope="module")
def extractor():
    return get_extractor("spacy", Settings())


@pytest.fixture(scope="module")
def extracted(extractor) -> Workspace:
    workspace = Workspace()
    workspace.load_sample()
    workspace.extract(extractor)
    return workspace


@pytest.fixture
def ws(extracted: Workspace) -> Workspace:
    return copy.deepcopy(extracted)


def _document_key(ws: Workspace, status: str = PUBLIC):
    """A document triple whose key is not also a query triple, with the wanted status."""
    query = ws.query_keys()
    return next(t.key for t in ws.triples if t.key not in query and ws.status_of(t.key) == status)


def _leaf_key(ws: Workspace):
    """A document triple whose tail occurs in no other triple (marking it keeps it private)."""
    query = ws.query_keys()
    degree: dict[str, int] = {}
    for head, _relation, tail in ws.all_keys():
        degree[head] = degree.get(head, 0) + 1
        degree[tail] = degree.get(tail, 0) + 1
    return next(k for k in sorted(ws.all_keys()) if k not in query and degree[k[2]] == 1)


def test_extract_covers_every_document_and_query_once(ws: Workspace, extractor):
    assert ws.triples
    assert ws.extracted_ids == ws.corpus.document_ids() | ws.corpus.query_ids()
    assert ws.extract(extractor) == 0
    ws.add_text(NOTE, "Field notes")
    added = ws.extract(extractor)
    assert added > 0
    assert {t.doc_id for t in ws.triples[-added:]} == {ws.corpus.documents[-1].id}


def test_toggle_private_marks_and_unmarks(ws: Workspace):
    key = _leaf_key(ws)
    assert ws.toggle_private(key) is True
    assert ws.status_of(key) == PRIVATE
    assert key in ws.private_keys()
    assert ws.toggle_private(key) is False
    assert ws.definition is None and ws.status_of(key) == PUBLIC


def test_query_triples_are_never_private(ws: Workspace):
    query_key = next(iter(ws.query_keys()))
    assert ws.status_of(query_key) == QUERY
    with pytest.raises(ValueError, match="query"):
        ws.toggle_private(query_key)
    with pytest.raises(KeyError, match="no triple"):
        ws.toggle_private(("nobody", "knows", "nothing"))
    ws.random_split(1.0, seed=3)
    assert not ws.marked_private & ws.query_keys()
    assert ws.marked_private == ws.all_keys() - ws.query_keys()


def test_random_split_uses_the_ratio_and_is_reproducible(ws: Workspace):
    eligible = len(ws.all_keys() - ws.query_keys())
    count = ws.random_split(0.25, seed=0)
    assert count == round(0.25 * eligible)
    first = set(ws.marked_private)
    ws.random_split(0.25, seed=0)
    assert ws.marked_private == first
    ws.random_split(0.25, seed=1)
    assert ws.marked_private != first
    with pytest.raises(ValueError, match="ratio"):
        ws.random_split(0.0, seed=0)


def test_mark_entity_marks_its_triples_and_filters_explain_moves(ws: Workspace):
    added = ws.mark_entity_private("Tomas Reyl")
    tomas = {k for k in ws.all_keys() - ws.query_keys() if "tomas reyl" in (k[0], k[2])}
    assert added == len(tomas) and ws.marked_private == tomas
    assert "Tomas Reyl" in ws.private_entities()
    definition = ws.apply_filters()
    assert definition.private <= tomas
    for move in ws.moves():
        assert ws.status_of(move.key) in {EXCLUDED, INFERABLE}
        assert move.path, move  # each move says which path justifies it
    with pytest.raises(ValueError, match="entity"):
        ws.mark_entity_private("Nobody At All")


def test_marked_triple_inferable_from_public_ones_is_not_kept_private(ws: Workspace):
    # hr_record states where Mara Voss lives; other documents connect her to Harrow Vale publicly.
    key = triple_key("Mara Voss", "residence", "Harrow Vale")
    assert key in ws.all_keys()
    ws.toggle_private(key)
    assert ws.status_of(key) == INFERABLE
    assert ws.private_keys() == set()
    move = ws.move_of(key)
    assert move is not None and move.path
    assert [m.key for m in ws.inferable_moves()] == [key]
    assert ws.inferable_moves()[0].path == move.path


def test_risks_and_r_connect_follow_the_definition(ws: Workspace):
    assert ws.risks() == [] and ws.r_connect_after_erasure() is None
    found = None
    for seed in range(10):
        ws.random_split(0.25, seed)
        if ws.risks():
            found = seed
            break
    assert found is not None, "no random split of the sample corpus has a cross-document risk"
    risks = ws.risks()
    private = ws.private_keys()
    for risk in risks:
        assert risk.key in private
        assert risk.path and all(step not in private for step in risk.path)
        assert risk.doc_id not in risk.path_docs
    value = ws.r_connect_after_erasure()
    assert value is not None and len({r.key for r in risks}) / len(private) <= value <= 1.0


def test_add_files_keeps_good_files_and_reports_bad_lines(ws: Workspace):
    before = len(ws.corpus.documents)
    bad = b'{"title": "ok", "text": "Fine."}\n{"title": broken}\n'
    errors = ws.add_files([("notes.txt", NOTE.encode()), ("records.jsonl", bad)], max_bytes=100_000)
    assert len(errors) == 1
    assert errors[0].file == "records.jsonl" and errors[0].line == 2
    assert len(ws.corpus.documents) == before + 1
    assert ws.corpus.documents[-1].text == NOTE
    with pytest.raises(ValueError, match="pasted text"):
        ws.add_text("   ", "empty")


def test_save_and_load_round_trip_through_sqlite(ws: Workspace, tmp_path):
    ws.random_split(0.25, seed=0)
    repo = Repository(tmp_path / "studio.sqlite3")
    ws.save(repo, "sample")
    fresh = Workspace()
    fresh.load(repo, "sample")
    assert fresh.corpus.document_ids() == ws.corpus.document_ids()
    assert sorted(t.key for t in fresh.triples) == sorted(t.key for t in ws.triples)
    assert fresh.marked_private == ws.marked_private
    assert fresh.private_keys() == ws.private_keys()
    assert fresh.pending_sources().documents == []
    bundle = json.loads(repo.export_json("sample"))
    assert bundle["name"] == "sample"
    ws.clear_private()
    ws.save(repo, "sample")  # saving without a definition drops the stored one
    fresh.load(repo, "sample")
    assert fresh.definition is None and not fresh.marked_private
    with pytest.raises(ValueError, match="name"):
        ws.save(repo, "  ")
    repo.close()


def test_triples_table_filters_combine(ws: Workspace):
    all_rows = ws.triples_table()
    assert len(all_rows) == len(ws.triples)
    mara = ws.triples_table(entity="Mara Voss")
    assert mara and all("mara voss" in (r["key"][0], r["key"][2]) for r in mara)
    located = ws.triples_table(relation="located_in", search="eastmere")
    assert located and all(r["key"][1] == "located_in" and "eastmere" in r["key"][2] for r in located)
    doc_id = ws.corpus.documents[0].id
    assert {r["doc_id"] for r in ws.triples_table(doc_id=doc_id)} == {doc_id}
    assert len(ws.triples_table(limit=5)) == 5


def test_deepcopy_is_independent_and_drops_the_graph_cache(ws: Workspace):
    assert len(ws.graph) > 0
    assert ws.statuses() and ws.source_title(ws.corpus.documents[0].id)
    twin = copy.deepcopy(ws)
    assert twin._graph is None and twin._derived == {}
    assert twin.statuses() == ws.statuses()
    twin.toggle_private(_document_key(twin))
    assert ws.marked_private == set() and twin.marked_private


def test_cached_views_follow_every_change(ws: Workspace, extractor, monkeypatch):
    import core.eraser4rag.workspace.workspace as workspace_module

    calls = []
    real = workspace_module.inference_risks

    def counting(source, definition, progress=None):
        calls.append(source)
        return real(source, definition, progress)

    monkeypatch.setattr(workspace_module, "inference_risks", counting)
    keys = ws.all_keys()
    assert ws.all_keys() is keys and ws.query_keys() is ws.query_keys()
    key = _leaf_key(ws)
    statuses = ws.statuses()
    statuses[key] = "changed by a caller"
    assert ws.statuses()[key] == PUBLIC  # callers get a copy
    ws.toggle_private(key)
    assert ws.statuses()[key] == PRIVATE == ws.status_of(key)
    assert ws.risks() == ws.risks() and len(calls) == 1  # memoised per definition
    assert calls[0] is ws.graph  # the graph, not the occurrence list
    ws.random_split(0.25, seed=0)
    ws.risks()
    assert len(calls) == 2
    ws.clear_private()
    assert ws.statuses()[key] == PUBLIC and ws.risks() == []
    document = ws.add_text(NOTE, "Field notes")
    assert ws.source_title(document.id) == "Field notes"
    assert ws.source_titles()[document.id] == "Field notes"
    ws.extract(extractor)
    new_keys = {t.key for t in ws.triples if t.doc_id == document.id}
    assert new_keys and new_keys <= ws.all_keys() and new_keys <= set(ws.statuses())
    ws.clear()
    assert ws.all_keys() == frozenset() and ws.statuses() == {}
    assert ws.source_title(document.id) == document.id


def test_private_occurrences_lists_each_private_occurrence_once_at_risk_first(ws: Workspace):
    assert ws.private_occurrences() == []
    seed = next(s for s in range(10) if ws.random_split(0.25, s) and ws.risks())
    assert seed in range(10)
    risks = ws.risks()
    private = ws.private_keys()
    expected = {(t.key, t.doc_id) for t in ws.triples if t.key in private}
    occurrences = ws.private_occurrences(risks)
    assert len(occurrences) == len(expected) and set(occurrences) == expected
    at_risk = {(r.key, r.doc_id) for r in risks}
    assert occurrences == sorted(expected, key=lambda item: (item not in at_risk, item))
    assert set(occurrences[: len(at_risk)]) == at_risk
    assert ws.private_occurrences() == occurrences


def test_triples_table_filters_like_the_graph(ws: Workspace):
    cases = [
        ("located in", ""),
        ("Located In", "harrow"),
        ("located_in", ""),
        ("", "located in"),
        ("", "Mara"),
    ]
    for relation, search in cases:
        rows = ws.triples_table(relation=relation, search=search)
        shown = ws.graph.subgraph(relation=relation or None, search=search or None)
        assert rows, (relation, search)
        assert {r["key"] for r in rows} == set(shown.edges), (relation, search)
    assert all(r["key"][1] == "located_in" for r in ws.triples_table(relation="located in"))


def test_sources_without_triples_stay_extracted_after_a_reload(ws: Workspace, extractor, tmp_path):
    document = ws.add_text("Hello there. What a day.", "No facts")
    ws.extract(extractor)
    assert document.id in ws.extracted_ids
    assert not any(t.doc_id == document.id for t in ws.triples)
    repo = Repository(tmp_path / "studio.sqlite3")
    try:
        ws.save(repo, "sample")
        assert repo.corpus_meta("sample")["extracted_ids"] == sorted(ws.extracted_ids)
        fresh = Workspace()
        fresh.load(repo, "sample")
        assert fresh.extracted_ids == ws.extracted_ids
        assert not fresh.pending_sources().documents and not fresh.pending_sources().queries
        # Saved without the meta (as before it existed): sources with triples count as extracted.
        repo.save_corpus("older", ws.corpus, ws.triples)
        fresh.load(repo, "older")
        assert fresh.extracted_ids == {t.doc_id for t in ws.triples}
        assert [d.id for d in fresh.pending_sources().documents] == [document.id]
        # Saving over a corpus keeps the meta that others stored.
        repo.save_corpus("imported", ws.corpus, ws.triples, meta={"origin": "bundle"})
        with pytest.raises(OverwriteRefused, match="'imported' already exists"):
            ws.save(repo, "imported")  # another workspace's name: only an explicit choice overwrites it
        ws.save(repo, "imported", overwrite=True)
        assert repo.corpus_meta("imported") == {"origin": "bundle", "extracted_ids": sorted(ws.extracted_ids)}
    finally:
        repo.close()


def test_a_cancelled_extraction_keeps_the_batches_it_finished(extractor) -> None:
    from core.eraser4rag.workspace import EXTRACT_BATCHES

    workspace = Workspace()
    for number in range(2 * EXTRACT_BATCHES):
        workspace.add_text(f"Person{number} Vale works for Firm{number} Labs.", f"note {number}")
    seen: list[tuple[int, int]] = []

    class Cancelled(Exception):
        pass

    def cancel_midway(done: int, total: int) -> None:
        seen.append((done, total))
        if done >= total // 2:
            raise Cancelled

    with pytest.raises(Cancelled):
        workspace.extract(extractor, progress=cancel_midway)
    assert {total for _, total in seen} == {2 * EXTRACT_BATCHES}  # one unit: sources
    kept = len(workspace.extracted_ids)
    assert 0 < kept < 2 * EXTRACT_BATCHES
    assert len(workspace.pending_sources().documents) == 2 * EXTRACT_BATCHES - kept
    assert {t.doc_id for t in workspace.triples} <= workspace.extracted_ids and workspace.triples
    workspace.extract(extractor)  # the rest, once
    assert len(workspace.extracted_ids) == 2 * EXTRACT_BATCHES

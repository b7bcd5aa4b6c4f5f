"""The eraser interface: registry, edits_between, apply_replacements and the mask eraser."""

import pytest

from core.eraser4rag.erasers import ERASER_NAMES, apply_replacements, edits_between, get_eraser
from core.settings import Settings
from tests.core.eraser4rag.erasers.erasers_fixtures import sample_request


def test_registry_names_and_unknown_name():
    assert ERASER_NAMES == ("graph-guided", "mask", "llm-each", "llm-all", "abstraction", "eraser4rag")
    with pytest.raises(ValueError, match="choose one of"):
        get_eraser("nope", Settings())


def test_edits_between_maps_spans_in_both_texts():
    original = "Mara Voss lives in Harrow Vale. She plays cello."
    rewrite = "Mara Voss lives somewhere. She plays the cello."
    edits = edits_between(original, rewrite)
    assert [e.kind for e in edits] == ["replaced", "inserted"]
    replaced = edits[0]
    assert original[slice(*replaced.original_span)] == "in Harrow Vale"
    assert rewrite[slice(*replaced.rewrite_span)] == "somewhere"
    inserted = edits[1]
    assert inserted.original_span[0] == inserted.original_span[1]
    assert rewrite[slice(*inserted.rewrite_span)].strip() == "the"
    assert edits_between("same", "same") == ()


def test_apply_replacements_merges_overlaps_and_tracks_offsets():
    text = "abcdefghij"
    new, edits = apply_replacements(
        text, [((1, 3), "X", "r1", ()), ((2, 5), "", "r2", ()), ((7, 8), "", "r3", ())]
    )
    assert new == "afgij"
    assert [(e.original_span, e.rewrite_span) for e in edits] == [((1, 5), (1, 1)), ((7, 8), (3, 3))]


def test_mask_replaces_private_tails_with_typed_placeholders():
    request = sample_request(("hr-record", "mara-voss"))
    rewrites = {r.doc_id: r for r in get_eraser("mask", Settings()).erase(request)}
    hr = rewrites["hr-record"]
    assert hr.text.startswith("Mara Voss lives in [LOCATION].")
    assert "asthma" not in hr.text
    assert "attends Harrow Vale School" in hr.text  # a longer name is not a mention of its prefix
    assert any(k[0] == "mara voss" and k[2] == "harrow vale" for k in hr.removed)
    for edit in hr.edits:
        assert hr.text[slice(*edit.rewrite_span)].startswith("[")
        assert "private (" in edit.reason and edit.keys
    # a document without private triples comes back unchanged
    mara = rewrites["mara-voss"]
    assert mara.text == mara.original and mara.edits == () and mara.removed == ()


@pytest.mark.parametrize("name", ["graph-guided", "mask", "llm-each", "llm-all", "abstraction"])
def test_a_definition_without_private_triples_leaves_documents_unchanged_and_says_why(name):
    from dataclasses import replace

    request = sample_request(("mara-voss",))
    empty = replace(request, definition=replace(request.definition, private=frozenset()))
    (rewrite,) = get_eraser(name, Settings()).erase(empty)
    assert rewrite.text == rewrite.original and rewrite.edits == ()
    assert any("no private triple" in note for note in rewrite.notes)

import pytest

from core.types import Corpus, Document, Query, Triple, normalize_entity, normalize_relation, triple_key


def test_entity_normalisation_folds_case_space_punctuation_and_article():
    assert normalize_entity("The  Acme Corp.") == "acme corp"
    assert normalize_entity("acme corp") == "acme corp"
    assert normalize_entity("  “Harrow Vale” ") == "harrow vale"
    assert normalize_entity("Anna-Lena O'Neil") == "anna-lena o'neil"


def test_relation_normalisation_is_snake_case():
    assert normalize_relation("Lives In") == "lives_in"
    assert normalize_relation("works-for") == "works_for"
    assert normalize_relation("  located   in ") == "located_in"
    assert normalize_relation("John's sister") == "john_sister"


def test_triple_key_equal_across_surface_forms():
    a = Triple("John Doe", "lives_in", "TechVille", "d1", (0, 10))
    b = Triple("john doe", "Lives in", "the TechVille.", "d2", (5, 20))
    assert a.key == b.key == triple_key("JOHN DOE", "lives in", "techville")
    assert a != b  # provenance differs; only the key is shared


def test_corpus_lookup_and_merge_keeps_existing_ids():
    first = Corpus([Document("d1", "One", "alpha")], [Query("q1", "what?", ("a",), ("d1",))])
    second = Corpus([Document("d1", "Other", "beta"), Document("d2", "Two", "gamma")], [])
    merged = first.merged_with(second)
    assert [d.id for d in merged.documents] == ["d1", "d2"]
    assert merged.document("d1").text == "alpha"
    assert merged.text_of("q1") == "what?"
    assert first.documents == [Document("d1", "One", "alpha")]  # inputs untouched


def test_triple_key_is_computed_once_and_leaves_equality_hash_pickle_and_copies_alone():
    import copy
    import pickle

    triple = Triple("The Ada Brook", "Works For", "Zephyr Labs.", "d1", (0, 12))
    key = triple.key
    assert key == ("ada brook", "works_for", "zephyr labs")
    assert triple.key is key  # cached, not recomputed
    assert "key" not in repr(triple)
    twin = Triple("The Ada Brook", "Works For", "Zephyr Labs.", "d1", (0, 12))
    assert twin == triple and hash(twin) == hash(triple)  # twin has no cached key yet
    restored = pickle.loads(pickle.dumps(triple))
    assert "key" not in restored.__dict__  # the derived key is not pickled
    assert restored == triple and hash(restored) == hash(triple) and restored.key == key
    assert copy.deepcopy(triple) == triple and copy.copy(triple) == triple
    assert copy.deepcopy([triple])[0].key == key
    with pytest.raises(AttributeError):
        triple.head = "someone else"  # still frozen


def test_retrieval_sets_follow_each_querys_documents() -> None:
    from core.types import Corpus, Document, Query

    docs = [Document("d1", "A", "a"), Document("d2", "B", "b"), Document("d3", "C", "c")]
    corpus = Corpus(
        docs, [Query("q1", "who?", doc_ids=("d3", "d1", "missing")), Query("q2", "what?", doc_ids=("d2",))]
    )
    sets = corpus.retrieval_sets()
    assert [s.query.id for s in sets] == ["q1", "q2"]
    assert [d.id for d in sets[0].documents] == ["d3", "d1"]
    assert sets[0].source_ids() == {"q1", "d3", "d1"}

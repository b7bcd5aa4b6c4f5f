"""Verify's repairs (`core.eraser4rag.erasers.verify`); its end-to-end runs are in test_graph_guided.py."""

from core.eraser4rag.erasers import EraseRequest
from core.eraser4rag.erasers.graph_guided import GraphGuidedEraser
from core.eraser4rag.erasers.verify import _apply, verify_and_repair
from core.eraser4rag.filters import PrivacyDefinition
from core.extract import get_extractor
from core.settings import Settings
from core.types import Document, Triple


def test_a_fact_cut_to_disconnect_a_private_one_is_not_said_again(nlp):
    """PopQA dev (Arcangelo Resani): verify cut (occupation, painter) so that "Italian" could no longer be
    inferred, and the sentence's repair said "was a painter" again from the public facts."""
    text = "Arcangelo Resani (1670–1740) was a painter of the Baroque period. He was a pupil of G. Boncuore."
    painter = Triple("Arcangelo Resani", "occupation", "painter", "a")
    public = [
        painter,
        Triple("Arcangelo Resani", "date_of_birth", "1670", "a"),
        Triple("Arcangelo Resani", "date_of_death", "1740", "a"),
    ]
    texts = {"a": text}
    changed, reasons = _apply(
        texts, {"a": [(painter, "cut public")]}, nlp, {"a": public}, {"a": "Arcangelo Resani"}
    )
    assert changed == {"a"} and reasons["a"] == ["cut public (object: 'a painter of the Baroque period')"]
    assert texts["a"] == "Arcangelo Resani was born in 1670 and died in 1740. He was a pupil of G. Boncuore."


def _erased_then_verified(document: Document, is_private) -> tuple[str, str]:
    """The graph-guided eraser's text and verify's repair of it, the keys `is_private` picks private and
    every other key extracted from `document` public."""
    extractor = get_extractor("spacy", Settings())
    triples = tuple(extractor.extract_many([(document.id, document.text)], titles={"a": document.title}))
    keys = {t.key for t in triples}
    private = frozenset(k for k in keys if is_private(k))
    assert private
    definition = PrivacyDefinition(
        private=private, public=frozenset(keys - private), excluded=frozenset(), moves=(), marked=private
    )
    request = EraseRequest((document,), triples, definition)
    eraser = GraphGuidedEraser()
    erased = list(eraser.erase(request))
    (repaired,), _triples = verify_and_repair(
        request, erased, extractor, eraser.parse, titles={"a": document.title}
    )
    return erased[0].text, repaired.text


def test_a_private_person_said_again_without_her_first_name_goes():
    """PopQA dev (Charles Harrison), round 30's reader: "Walker Harrison also served on the board of
    directors." kept the private mother "Lullelia Walker Harrison" once her full name went."""
    document = Document(
        "a",
        "Charles Harrison",
        "Charles Harrison was born to Lullelia Walker Harrison in Gary, Indiana. His mother was an educator. "
        "Walker Harrison also served on the board of directors for over a dozen organizations. Harrison "
        "attended Wheatley High School in Houston.",
    )
    mother = ("charles harrison", "born_to", "lullelia walker harrison")
    erased, repaired = _erased_then_verified(document, lambda key: key == mother)
    assert "Walker Harrison also served" in erased  # the eraser alone reads no name variant
    assert (
        repaired
        == "Charles Harrison's mother was an educator. Harrison attended Wheatley High School in Houston."
    )


def test_a_unit_found_by_two_mentions_is_cut_and_reported_once(nlp):
    """PopQA dev, held back (the "Arcangelo" list page): each mention of a private "Italian" found every other
    mention of its sentence, and the repairs said the same removal dozens of times."""
    text = "Arcangelo Pinelli is an Italian fencer. Pinelli also coached the Italian team."
    private = Triple("Arcangelo Pinelli", "country_of_citizenship", "Italian", "a", (0, len(text)))
    texts = {"a": text}
    _changed, reasons = _apply(texts, {"a": [(private, "private"), (private, "private")]}, nlp, {}, {})
    assert "Italian" not in texts["a"]
    assert len(reasons["a"]) == len(set(reasons["a"])) == 1


def test_a_private_schools_short_form_goes_once_its_full_name_went():
    """PopQA dev (Charles "Chuck" Harrison), round 38's reader: "It was also while attending SAIC that
    Harrison met his future wife." still said the private school once "the School of the Art Institute of
    Chicago (SAIC)" went with its sentence."""
    document = Document(
        "a",
        "Chuck Harrison",
        "Harrison attended the School of the Art Institute of Chicago (SAIC) from 1949 to 1954. One of his "
        "professors was Henry P. Glass. It was also while attending SAIC that Harrison met his future wife. "
        "He received his Master of Science in Art Education from the Institute of Design in 1963.",
    )
    school = "school of the art institute of chicago"
    erased, repaired = _erased_then_verified(document, lambda key: key[2] == school)
    assert "SAIC" in erased and "Art Institute" not in erased
    assert repaired == (
        "One of Chuck Harrison's professors was Henry P. Glass. He received his Master of Science in Art "
        "Education from the Institute of Design in 1963."
    )

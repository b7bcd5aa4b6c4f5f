"""Verify's repairs (`core.eraser4rag.erasers.verify`); its end-to-end runs are in test_graph_guided.py."""

from core.eraser4rag.erasers.verify import _apply
from core.types import Triple


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

"""Pointers at a removed place, on a sentence of a real PopQA dev passage (round 26's reader)."""

from tests.core.eraser4rag.erasers.erasers_fixtures import erase_phrases

MCKAY = "McKay was a councillor of Pembroke, Ontario for five years and once served as the community's mayor."


def test_the_community_goes_with_the_place_it_pointed_at(nlp):
    text, _lost = erase_phrases(nlp, MCKAY, ["of Pembroke, Ontario"])
    assert "community" not in text
    assert text.startswith("McKay was a councillor for five years and once served as")
    assert text.endswith("mayor.")


def test_the_community_stays_while_its_place_is_named(nlp):
    text, _lost = erase_phrases(nlp, MCKAY, ["for five years"])
    assert text == "McKay was a councillor of Pembroke, Ontario and once served as the community's mayor."

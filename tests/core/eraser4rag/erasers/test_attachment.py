"""Words the parser left unattached after a removed phrase, on a real PopQA dev sentence (round 28)."""

from tests.core.eraser4rag.erasers.erasers_fixtures import erase_phrases

MCDANIELS = (
    "Following his collegiate career, McDaniels worked for Procter & Gamble as a Health and Beauty Care "
    "representative in the Portland, Oregon area before pursuing a professional football career in the "
    "World League of American Football with the Birmingham Fire."
)


def test_the_rest_of_a_place_the_parser_left_unattached_goes_with_the_place(nlp):
    text, _lost = erase_phrases(
        nlp, MCDANIELS, ["for Procter & Gamble", "as a Health and Beauty Care representative"]
    )
    assert "Oregon" not in text
    assert text.startswith("Following his collegiate career, McDaniels worked before pursuing")


def test_an_unattached_phrase_after_kept_words_stays(nlp):
    text, _lost = erase_phrases(nlp, MCDANIELS, ["with the Birmingham Fire"])
    assert "in the Portland, Oregon area" in text


def test_also_before_a_removed_phrase_goes_with_it(nlp):
    # PopQA dev (Arcangelo Guglielmelli), round 31's reader: "His two sons were Marcello, also."
    text, _lost = erase_phrases(
        nlp, "His two sons were Marcello, also an architect who worked with his father.", ["an architect"]
    )
    assert text == "His two sons were Marcello."
    text, _lost = erase_phrases(
        nlp, "He was not only a painter in oils, but also a poet.", ["a painter in oils"]
    )
    assert "not" in text and "poet" in text  # only the comma's "also" before a cut to the end goes

"""core/eraser4rag/erasers/sentences.py: the two sentence cuts, and where they differ on purpose."""

from __future__ import annotations

import pytest

from core.eraser4rag.erasers.sentences import sentence_pieces, split_at_stops

TEXTS = (
    "One. Two! Three?  Four",
    'James B. Zagel (born 1941) is a judge. He said "no." Then he left.\nA title\nNext line.',
    "Dr. Smith met Mr. Jones on Jan. 5. They talked.",
    "",
    "No stop at all",
)


@pytest.mark.parametrize("text", TEXTS)
def test_both_cuts_give_the_text_back(text):
    assert "".join(split_at_stops(text)) == text
    assert "".join(sentence_pieces(text)) == text


def test_split_at_stops_breaks_after_every_stop():
    assert split_at_stops("One. Two! Three?  Four") == ["One. ", "Two! ", "Three?  ", "Four"]
    # initials and abbreviations end a piece too: eraser4rag's windows were cut this way
    assert split_at_stops("James B. Zagel is a judge.") == ["James B. ", "Zagel is a judge."]
    # a line break alone ends nothing
    assert split_at_stops("A title\nNext line.") == ["A title\nNext line."]


def test_sentence_pieces_cut_as_a_reader_does():
    assert sentence_pieces("James B. Zagel is a judge. Dr. Smith left.") == [
        "James B. Zagel is a judge. ",
        "Dr. Smith left.",
    ]
    # a closing quote stays with its sentence, a line break ends a piece
    assert sentence_pieces('He said "no." Then he left.\nA title\nNext.') == [
        'He said "no." ',
        "Then he left.\n",
        "A title\n",
        "Next.",
    ]
    # PopQA dev (Leven H. Ellis): a dotted abbreviation had cut "degree from ..." off as a sentence
    assert sentence_pieces("He obtained a B.Ped. degree in 1907. He left.") == [
        "He obtained a B.Ped. degree in 1907. ",
        "He left.",
    ]
    # PopQA dev (James Strange Butson): "The Ven." had been left as a sentence of its own
    assert sentence_pieces("The Ven. James Butson was a priest.") == ["The Ven. James Butson was a priest."]


def test_a_case_name_is_no_sentence_end():
    """Round 23's reader (Louis Stokes): "the case of Terry v. He was elected" had cut "Ohio ..." off."""
    assert sentence_pieces("He argued Terry v. Ohio in 1968. He left.") == [
        "He argued Terry v. Ohio in 1968. ",
        "He left.",
    ]


def test_a_question_mark_inside_brackets_ends_no_sentence_before_lower_case():
    # PopQA dev (Eliza Smith), round 33's reader: the repair cut "Eliza Smith (died 1732?)" off its verb,
    # and the rewrite opened on "was one of the most popular ... writers."
    text = "Eliza Smith (died 1732?) was one of the most popular writers. Was she? he asked. (Why?) Then."
    assert sentence_pieces(text) == [
        "Eliza Smith (died 1732?) was one of the most popular writers. ",
        "Was she? ",
        "he asked. ",
        "(Why?) ",
        "Then.",
    ]


def test_a_title_in_lower_case_ends_no_sentence():
    """pii_dev (seed 23 of bench_erase_records): "dr. gregory is a 50 year old man" was capitalised to
    "dr. Gregory" after a removal, as if "dr." had ended a sentence."""
    from core.eraser4rag.erasers.sentences import sentence_pieces

    assert sentence_pieces("dr. gregory is a 50 year old man.") == ["dr. gregory is a 50 year old man."]


def test_a_title_in_capitals_is_no_lower_case_title():
    """The second review of session 28: "diagnosed with MS." ends its sentence."""
    from core.eraser4rag.erasers.sentences import sentence_pieces

    assert sentence_pieces("He was diagnosed with MS. In 1990 he retired.") == [
        "He was diagnosed with MS. ",
        "In 1990 he retired.",
    ]

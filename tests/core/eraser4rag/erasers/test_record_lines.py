"""Lines of a record after a removal, on messages of the labelled PII set (microsoft/presidio-research)."""

import pytest

from core.eraser4rag.erasers.record_lines import joined_where_a_removal_crosses_lines, mend_record_lines
from core.eraser4rag.erasers.repair import segments

CARD = (
    "card number 4929129761689154 is lost, can you please send a new one to Unit 3191 Box 3770\n"
    "DPO AP 27173? I am in Melliste for a business trip"
)


def test_a_sentence_end_left_opening_a_line_goes_back_to_the_line_before():
    new = CARD.replace("DPO AP 27173", "")
    assert mend_record_lines(CARD, new) == (
        "card number 4929129761689154 is lost, can you please send a new one to Unit 3191 Box 3770?\n"
        "I am in Melliste for a business trip"
    )


def test_a_colon_whose_value_went_ends_the_sentence():
    original = "please update the billing address for this card: 4556241386518419"
    assert mend_record_lines(original, "please update the billing address for this card:") == (
        "please update the billing address for this card."
    )


def test_a_speakers_label_whose_words_went_goes_after_the_sentence_before_it():
    # pii_dev (seed 11 of bench_erase_records): "User: [Shawn Osborne]" was left as "User."
    original = "Bot: What's the name on the account? User: Shawn Osborne"
    assert mend_record_lines(original, "Bot: What's the name on the account? User:") == (
        "Bot: What's the name on the account?"
    )
    # the review of session 28: a title's full stop ends no sentence
    original = "Please forward it to Dr. Smith at: 555-1234"
    assert (
        mend_record_lines(original, "Please forward it to Dr. Smith at:")
        == "Please forward it to Dr. Smith at."
    )
    original = "I called. Then Lucas gave Maria his address: 16 Blæsenborgvej 5"
    assert mend_record_lines(original, "I called. Then Lucas gave Maria his address:") == (
        "I called. Then Lucas gave Maria his address."
    )


@pytest.mark.parametrize(
    ("original", "new"),
    [
        ("Please send it to:\n12 Main Street", "Please send it to:\n"),
        # the review of session 26: a colon whose own value went still opens the list under it
        (
            "Address: 5 Main St. Notes: see below\nFor Anna Notes:\n- a\n- b",
            "Address: 5 Main St.\nNotes:\n- a\n- b",
        ),
    ],
)
def test_a_colon_that_opens_the_lines_under_it_stays(original, new):
    assert mend_record_lines(original, new) == new


@pytest.mark.parametrize("label", ["fax", "mobile", "Office"])
def test_a_contact_label_whose_number_went_goes(label):
    original = f"Jennifer Gyarmaty\n438.812.1525 {label}\nGrolmanstraße 25"
    assert mend_record_lines(original, f"Jennifer Gyarmaty\n{label}\nGrolmanstraße 25") == (
        "Jennifer Gyarmaty\nGrolmanstraße 25"
    )


def test_a_list_whose_lines_open_on_a_semicolon_keeps_it():
    """PopQA dev (Masayoshi): a name list's members open their lines on " ; "."""
    original = "Masayoshi may refer to:\n ; Masayoshi Hotta, daimyō; Masayoshi Ōhira, politician"
    new = "Masayoshi may refer to:\n ; Masayoshi Ōhira, politician"
    assert mend_record_lines(original, new) == new


def test_a_line_left_with_only_its_sentence_end_gives_it_back():
    original = "send a new one to 53 Pierre 211\nDohma\n Iceland 20936? I am in Leiria"
    new = "send a new one to 53 Pierre 211\n ?"
    assert mend_record_lines(original, new) == "send a new one to 53 Pierre 211?"


def test_a_forms_keys_keep_their_colon():
    """The PII set's forms ("Name: Joseph Arnold"): a key whose value went stays a key, so a record left
    with keys alone still reads as empty headings (`repair`)."""
    original = "Date: 2011-10-24 06:30:25\nName: Joseph Arnold\nPhone: 05334 75 83 35"
    assert mend_record_lines(original, "Date:\nName:") == "Date:\nName:"


def test_a_label_before_its_number_goes_too():
    assert mend_record_lines("Phone: 555 1234\nAnna", "Phone:\nAnna") == "Anna"


def test_a_word_of_prose_is_no_contact_label():
    """The review of session 26: "home" left alone by a removal in prose never had a number."""
    original = "He works at home\nJohn Smith home"
    assert mend_record_lines(original, "He works at home\nhome") == "He works at home\nhome"


def test_lines_the_original_had_are_kept_as_they_were():
    original = "Sim Street\n, PL\nfax\n? odd"
    assert mend_record_lines(original, original) == original


def test_a_line_of_the_marks_every_line_opens_with_goes_without_ending_the_line_before():
    """A held-out letterhead of the PII set whose lines all open on "???" (a lost bullet): its emptied
    lines go, and the kept lines do not end on "?"."""
    original = "??? Carrie Castro\n??? Smartasset\n??? 02 53 place Stanislas\n??? Suite 942\n??? NANTES"
    assert (
        mend_record_lines(original, "???\n??? Smartasset\n???\n???\n??? NANTES")
        == "??? Smartasset\n??? NANTES"
    )


def test_segments_are_joined_where_one_removed_value_runs_over_their_line_break(nlp):
    text = "The letter arrived at Unit 5906 Box 6078\nDPO AP 49101 last night.\nThanks"
    doc = nlp(text)
    value = "Unit 5906 Box 6078\nDPO AP 49101"
    start = text.index(value)
    joined = joined_where_a_removal_crosses_lines(segments(doc), [(start, start + len(value))])
    assert [piece.text for piece in joined] == [text.rsplit("\n", 1)[0], "Thanks"]
    # two values, one on each line: the lines stay apart
    apart = joined_where_a_removal_crosses_lines(
        segments(doc), [(start, start + 5), (start + 20, start + 25)]
    )
    assert len(apart) == 3


def test_a_questions_mark_goes_back_though_the_lines_open_on_question_marks():
    """The review of session 27: a lone "?" is a sentence's end even where lines open on "???"."""
    original = (
        "??? Dear support\nCan you send a new one to my home in Springfield at\n12 Elm Street?\n??? Thanks"
    )
    new = "??? Dear support\nCan you send a new one to my home in Springfield\n?\n??? Thanks"
    assert mend_record_lines(original, new) == (
        "??? Dear support\nCan you send a new one to my home in Springfield?\n??? Thanks"
    )


def test_a_clause_that_announced_the_value_goes_with_it():
    # pii_dev held-out (seed 8, read cold): "I want to update my primary and secondary address to the same."
    original = "Hi. I want to update my address to the same: 81 Stallstigen 19 Suite 212"
    assert mend_record_lines(original, "Hi. I want to update my address to the same:") == "Hi."


def test_a_no_ends_its_sentence_for_the_label_rule():
    # the second review of session 28
    original = "Agent: Do you have a card? Client: No. Agent: Name: Bob"
    assert mend_record_lines(original, "Agent: Do you have a card? Client: No. Agent: Name:") == (
        "Agent: Do you have a card? Client: No."
    )

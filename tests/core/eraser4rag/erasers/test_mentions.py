"""Where the erasers find an entity in a text (core/eraser4rag/erasers/mentions.py)."""

from core.eraser4rag.erasers.mentions import find_mentions

MCDANIEL = (
    "Bruce McDaniel (born September 23, 1962) is a musician. He was born on 23 September 1962 in Boston."
)


def _found(text: str, entity: str) -> list[str]:
    return [text[start:end] for start, end in find_mentions(text, entity)]


def test_a_full_date_is_found_in_either_written_order():
    both = ["September 23, 1962", "23 September 1962"]
    assert _found(MCDANIEL, "23 September 1962") == both
    assert _found(MCDANIEL, "september 23, 1962") == both


def test_names_match_case_and_whitespace_but_not_inside_words():
    assert _found("He met THE  Acme Corp in 1990.", "acme corp") == ["Acme Corp"]
    assert _found("Bostonian writers", "Boston") == []
    assert _found(MCDANIEL, "1962") == ["1962", "1962"]


def test_a_short_form_in_brackets_after_a_name_is_one_of_its_names():
    from core.eraser4rag.erasers.mentions import acronym_mentions, defined_acronyms

    text = "He attended the School of the Art Institute of Chicago (SAIC). While attending SAIC he met Ann."
    assert defined_acronyms(text, "School of the Art Institute of Chicago") == ["SAIC"]
    assert defined_acronyms("Florence Harriet (Baker) Wheatley", "Florence Harriet") == []  # a maiden name
    second = text.rindex("SAIC")
    assert acronym_mentions(text, "SAIC") == [
        (text.index("SAIC"), text.index("SAIC") + 4),
        (second, second + 4),
    ]
    assert acronym_mentions("It was built in the US.", "IT") == []
    # the review of session 24: a country or a title in brackets is no short form of the name before it
    assert defined_acronyms("He was born in London (UK) in 1950.", "London") == []
    assert defined_acronyms("He married Jane Doe (MP), a Labour politician.", "Jane Doe") == []
    assert defined_acronyms("a member of the Union of Active Struggle (ZWC)", "Union of Active Struggle") == [
        "ZWC"
    ]
    # an extracted tail that took its short form in, bracket unclosed (PopQA dev, Wayne McDaniel)
    league = "He spent his career in the Australian National Basketball League (NBL). He was an NBL All-Star."
    assert defined_acronyms(league, "Australian National Basketball League (NBL") == ["NBL"]
    assert defined_acronyms(league, "Australian National Basketball League (NBL)") == ["NBL"]
    assert defined_acronyms("He was born in London (UK) in 1950.", "London (UK") == []

"""Kept tokens as text, tidied: what a deletion leaves in brackets, lifespans and punctuation."""

import pytest

from core.eraser4rag.erasers.fluency import broken_in_rewrite
from core.eraser4rag.erasers.rendering import tidy
from tests.core.eraser4rag.erasers.erasers_fixtures import erase_phrases


@pytest.mark.parametrize(
    ("messy", "tidy_text"),
    [
        ("Vincent Fantauzzo (born) is an artist.", "Vincent Fantauzzo is an artist."),
        ("Edward Augustus Brackett (–) was a sculptor.", "Edward Augustus Brackett was a sculptor."),
        (
            "Thomas Allom (13 March 1804 –) was an architect.",
            "Thomas Allom (born 13 March 1804) was an architect.",
        ),
        ("Dominik Paris); Dominick Zator", "Dominik Paris; Dominick Zator"),
        ("He won the award, , and the medal.", "He won the award, and the medal."),
        ("he was an professional player", "He was a professional player"),
        ("Christopher Harison (c.) was an official.", "Christopher Harison was an official."),
        ("Eliza Smith (died ?) was a cookbook author.", "Eliza Smith was a cookbook author."),
    ],
)
def test_tidy_mends_what_a_deletion_leaves(messy, tidy_text):
    assert tidy(messy) == tidy_text
    assert not broken_in_rewrite(messy, tidy_text)


def test_born_keeps_no_comma_when_the_phrase_before_it_went():
    # PopQA dev (Søren Krarup, birthplace private): "Krarup was born, to vicar ..." had been dropped whole
    assert tidy("Krarup was born, to vicar Vilhelm Krarup.") == "Krarup was born to vicar Vilhelm Krarup."


def test_a_lifespan_that_lost_its_birth_year_says_born_and_died():
    # PopQA dev (Lichtensteig list): "Paula Rueß (in Lichtensteig - 1980)" read as a garbled bracket
    assert tidy("Paula Rueß (in Lichtensteig - 1980) a political activist") == (
        "Paula Rueß (born in Lichtensteig, died 1980) a political activist"
    )


def test_a_comma_left_between_a_name_and_its_verb_goes():
    """PopQA dev (John Wallach): "John Paul Wallach, [(1943 – 2002) born in New York,] was" had kept it."""
    assert tidy("John Paul Wallach, was a journalist.") == "John Paul Wallach was a journalist."
    kept = "His father, John Wallach, was a journalist."
    assert tidy(kept) == kept


def test_a_coordinator_loses_the_comma_a_removed_fronted_phrase_left():
    assert tidy("He won the Stakes and, he captured the Cup.") == "He won the Stakes and he captured the Cup."
    aside = "He won the Stakes and, Smith said, the Cup."
    assert tidy(aside) == aside


def test_a_year_someone_was_active_in_is_no_birth_year():
    """PopQA dev (Richard Harris): "(fl. 1558 – [1601])" had become "(born fl. 1558)", a changed meaning."""
    assert tidy("Richard Harris (fl. 1558 – ) was a priest.") == "Richard Harris (fl. 1558) was a priest."
    assert tidy("Richard Harris (c. 1650 – ) was a priest.") == "Richard Harris (born c. 1650) was a priest."


def test_a_removed_phrase_takes_the_comma_before_the_next_phrase_of_its_verb(nlp):
    """PopQA dev (Bruce Hardy McLain, birth date private): "was born, in San Francisco, US." was flagged
    and said again as "was born in San Francisco." (the "US" lost)."""
    from core.eraser4rag.erasers.rendering import render

    sentence = "Bruce Hardy McLain was born in September 1952, in San Francisco, US."
    doc = nlp(sentence)
    start = sentence.index("in September")
    removed = {t.i for t in doc if start <= t.idx < start + len("in September 1952")}
    assert render(doc[:], removed) == "Bruce Hardy McLain was born in San Francisco, US."
    aside = "He studied law in Paris, where he met his wife."
    doc = nlp(aside)
    kept = render(doc[:], {t.i for t in doc if t.text in {"in", "Paris"}})
    assert kept == "He studied law, where he met his wife."


def test_a_kept_member_gets_the_article_the_removed_one_shared(nlp):
    """Round 22's reader (Walery Sławek): "was participant in numerous missions" once "a key member [of
    the Legions] and" went with the article both had shared."""
    from core.eraser4rag.erasers.rendering import render

    sentence = "He was an actor and singer in New York."
    doc = nlp(sentence)
    removed = {t.i for t in doc if t.text in {"an", "actor", "and"}}
    assert render(doc[:], removed) == "He was a singer in New York."


def test_the_comma_of_a_long_first_member_goes_with_its_phrase(nlp):
    # PopQA dev (Frank Ray Perilli), round 32's reader: "was a screenwriter, and a playwright"
    sentence = "Perilli was a screenwriter with more than 15 screen credits, and a playwright of four plays."
    text, _lost = erase_phrases(nlp, sentence, ["with more than 15 screen credits"])
    assert text == "Perilli was a screenwriter and a playwright of four plays."
    clauses = "He worked in Paris for five years, and she stayed in Rome."
    assert erase_phrases(nlp, clauses, ["for five years"])[0] == "He worked in Paris, and she stayed in Rome."


def test_a_role_said_before_a_removed_name_takes_an_article(nlp):
    """Rounds 34 and 36's readers (Sekino Jun'ichirō, PopQA dev): "he met famous kabuki actor whose
    woodblock portrait he produced" lost its article with the actor's name."""
    from core.eraser4rag.erasers.rendering import render

    text = (
        "Through this role he met famous kabuki actor Nakamura Kichiemon I whose woodblock portrait he "
        "produced in 1947."
    )
    doc = nlp(text)
    start = text.index("Nakamura")
    name = {t.i for t in doc if start <= t.idx < text.index(" whose")}
    assert render(doc[:], name) == (
        "Through this role he met a famous kabuki actor whose woodblock portrait he produced in 1947."
    )
    kept = "He met the famous actor John Smith in Rome."
    doc = nlp(kept)
    assert render(doc[:], set()) == kept


TIMME = (
    "With his regiment, Timme participated in the battles of Perryville, Stones River, Hoover's Gap, and "
    "Chickamauga, in the campaign for control over Middle Tennessee."
)


def test_a_plural_left_with_one_member_of_its_list_names_one(nlp):
    """Round 39's reader (Ernst Timme, PopQA dev): "participated in the battles of Stones River" named a
    list of one."""
    text, _lost = erase_phrases(nlp, TIMME, ["Perryville, ", "Hoover's Gap, and Chickamauga"])
    assert text == (
        "With his regiment, Timme participated in the battle of Stones River, in the campaign for control "
        "over Middle Tennessee."
    )
    two_left, _lost = erase_phrases(nlp, TIMME, ["Perryville, ", "Hoover's Gap, "])
    assert "the battles of Stones River and Chickamauga" in two_left


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        # the review of session 24: plurals that are many per member, or what a count picks from
        (
            "She was one of the daughters of John Smith and Mary Jones.",
            " and Mary Jones",
            "She was one of the daughters of John Smith.",
        ),
        (
            "He wrote biographies of Abraham Lincoln and Ulysses S. Grant.",
            " and Ulysses S. Grant",
            "He wrote biographies of Abraham Lincoln.",
        ),
        (
            "He was wounded in one of the battles of Perryville, Stones River and Chickamauga.",
            "Perryville, ",
            "He was wounded in one of the battles of Stones River and Chickamauga.",
        ),
    ],
)
def test_a_plural_stays_when_it_is_no_one_per_member(nlp, sentence, private, expected):
    assert erase_phrases(nlp, sentence, [private])[0] == expected


def test_a_title_without_its_portfolio_is_one_of_several(nlp):
    """Round 45's reader (Ghada Chreim Ata): "She is Minister in the government of Hassan Diab" once "for
    Refugees" went: the capitalised title has no portfolio."""
    sentence = "She is Minister for Refugees in the government of Hassan Diab since January 2020."
    text, _lost = erase_phrases(nlp, sentence, ["for Refugees"])
    assert text == "She is a minister in the government of Hassan Diab since January 2020."


def test_a_title_with_its_portfolio_stays_a_title(nlp):
    text, _lost = erase_phrases(
        nlp, "She is Minister for Refugees in the government since 2020.", ["since 2020"]
    )
    assert text == "She is Minister for Refugees in the government."


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        # the review of session 25: a title that kept a portfolio, and a negated one, stay titles
        ("She was Secretary of State for Wales in 1990.", "for Wales", "She was Secretary of State in 1990."),
        (
            "He was never Minister for Defence in any cabinet.",
            "for Defence",
            "He was never Minister in any cabinet.",
        ),
    ],
)
def test_a_title_stays_a_title_with_a_portfolio_left_or_under_a_negation(nlp, sentence, private, expected):
    text, _lost = erase_phrases(nlp, sentence, [private])
    assert text == expected


def test_a_sentence_cut_inside_a_bracket_keeps_the_half_its_neighbour_holds():
    """pii_dev (seed 11 of bench_erase_records): "(What did he put at #1 you ask? Answer: "Tube Snake Boogie"
    by [Michael Hodžaj] - go figure)" lost its closing bracket: the splitter had cut the bracket in two at
    "?", and the second sentence's ")" closed nothing inside it."""
    from core.eraser4rag.erasers.rendering import balance_brackets

    assert balance_brackets("Answer: Tube Snake Boogie, go figure)", closes_before=1) == (
        "Answer: Tube Snake Boogie, go figure)"
    )
    assert balance_brackets("Answer: Tube Snake Boogie, go figure)") == "Answer: Tube Snake Boogie, go figure"
    assert balance_brackets("He was born (in) 1950 (", opens_after=1) == "He was born (in) 1950 ("
    # the review of session 28: more kept than there are keeps none too many
    assert balance_brackets("a ( b ( c", 0, 3) == "a ( b ( c"
    assert tidy("Answer: Tube Snake Boogie, go figure)", brackets_beyond="Answer: X by Y, go figure)") == (
        "Answer: Tube Snake Boogie, go figure)"
    )


def test_a_number_sign_whose_number_went_goes(nlp):
    """pii_dev held-out (seed 7, read cold): "on my card # for certain duration of time"."""
    sentence = "I want to increase limit on my card # 5378797340791478 for certain duration."
    assert erase_phrases(nlp, sentence, ["5378797340791478"])[0] == (
        "I want to increase limit on my card for certain duration."
    )
    assert tidy("He wrote it in C# for fun and ranked #15.") == "He wrote it in C# for fun and ranked #15."


def test_a_chat_in_lower_case_gets_no_capital_after_a_removal():
    """pii_dev held-out (seed 8, read cold): "what's the address? it's in the corner of [...]" came back with
    "It's"."""
    from core.eraser4rag.erasers.rendering import capitalise_new_sentence_starts

    original = "what's the address? it's in the corner of frankfurter allee 73 and edmunds street"
    assert capitalise_new_sentence_starts(original, "what's the address? it's in the corner") == (
        "what's the address? it's in the corner"
    )

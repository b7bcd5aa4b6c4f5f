"""String grading (`core.eraser4rag.erasers.leaks` and `evaluation.grade_strings`) on real dev sentences."""

from core.eraser4rag.erasers import leaks
from core.eraser4rag.erasers.evaluation import grade_strings, head_forms
from core.types import Document, triple_key

FEILDEN = (
    "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English Conservative Party politician."
)
ALONSO = "Antonio Álvarez Alonso (11 March 1867 - 22 June 1903) was a Spanish pianist and composer."


def test_names_fold_case_accents_and_punctuation():
    assert leaks.names("ANTONIO ALVAREZ ALONSO was a pianist", "Antonio Álvarez Alonso")
    assert leaks.names("the Feilden-baronets' seat", "feilden")


def test_one_edit_for_names_of_five_letters_or_more_never_for_numbers():
    assert leaks.names("Tomas Rey takes a daily inhaler.", "Tomas Reyl")
    assert leaks.names("Henry Master Feilden was", "Henry Master Fielden") is False  # two edits
    assert not leaks.names("Born in 1819.", "1818")
    assert not leaks.names("Bo Lee", "Bo Le")  # a name under five letters takes no edit
    assert leaks.names("Brewery", "brewer") and not leaks.names("Thwaites Brewery", "brewer", fuzzy=False)


def test_token_set_for_multi_word_names():
    assert leaks.names("Feilden, Henry Master (1818-1875)", "Henry Master Feilden")
    assert leaks.names("born on 23 September 1962", "September 23, 1962")
    assert not leaks.names("Henry went home. Much later, Master Feilden", "Henry Master Feilden")


def test_is_proper_name():
    assert leaks.is_proper_name("Conservative Party") and leaks.is_proper_name("University of London")
    assert not leaks.is_proper_name("brewer") and not leaks.is_proper_name("conservation architect")


def test_partial_date_month_and_year_left_when_the_day_went():
    rewrite = "Antonio Álvarez Alonso (11 March 1867 June 1903) was a Spanish pianist and composer."
    assert not leaks.names(rewrite, "22 June 1903")
    assert leaks.partial_tail(ALONSO, rewrite, "22 June 1903")
    gone = "Antonio Álvarez Alonso (born 11 March 1867) was a Spanish pianist and composer."
    assert not leaks.partial_tail(ALONSO, gone, "22 June 1903")


def test_partial_multi_word_tail_half_of_its_words_left_in_place():
    rewrite = (
        "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English Conservative politician."
    )
    assert not leaks.names(rewrite, "Conservative Party")
    assert leaks.partial_tail(FEILDEN, rewrite, "Conservative Party")
    assert not leaks.partial_tail(FEILDEN, FEILDEN.replace(" Conservative Party", ""), "Conservative Party")
    # a word of the tail that the original had elsewhere is not where the tail was
    original = FEILDEN + " The party won."
    assert not leaks.partial_tail(
        original, FEILDEN.replace(" Conservative Party", "") + " The party won.", "Conservative Party"
    )


def test_characters_kept():
    assert leaks.characters_kept(FEILDEN, FEILDEN) == len(FEILDEN)
    shorter = FEILDEN.replace(" Conservative Party", "")
    assert leaks.characters_kept(FEILDEN, shorter) == len(shorter)


def test_grade_strings_strict_partial_and_public_kept():
    document = Document("d1", "Henry Feilden (Conservative politician)", FEILDEN)
    party = triple_key("Henry Master Feilden", "member_of_political_party", "Conservative Party")
    death = triple_key("Henry Master Feilden", "date_of_death", "5 September 1875")
    english = triple_key("Henry Master Feilden", "country_of_citizenship", "English")
    proper = frozenset({party[2], death[2]})
    rewrite = "Henry Master Feilden (21 February 1818 – September 1875) was an English Party politician."
    figures = grade_strings(document, rewrite, [party, death], [english], proper_names=proper)
    assert figures["strict_leaked"] == ()
    assert set(figures["partial_leaked"]) == {party, death}
    assert (
        figures["private_visible"] == 2 and figures["public_visible"] == figures["public_kept_strings"] == 1
    )
    # a one-letter misspelling of the tail still leaks; the surname alone names the head
    misspelt = "Feilden (21 February 1818 – 5 September 1875) was an English Conservative Partty politician."
    figures = grade_strings(document, misspelt, [party, death], [english], proper_names=proper)
    assert set(figures["strict_leaked"]) == {party, death} and figures["changed"]


def test_a_records_own_facts_are_in_view_without_a_name():
    """A personal record's node ("record <title>") names nobody in the text: its private address left
    in part ("[24 ul.] miła 131 codogne") was invisible to the grading; the record is the passage."""
    text = "please update the billing address with 24 ul. miła 131\ncodogne for this card"
    document = Document("d2", "", text)
    address = triple_key("record d2", "address", "24 ul. miła 131 codogne")
    rewrite = "please update the billing address with miła 131\ncodogne"
    figures = grade_strings(document, rewrite, [address], [])
    assert figures["private_visible"] == 1
    assert figures["partial_leaked"] == (address,)
    figures = grade_strings(document, text, [address], [])
    assert figures["strict_leaked"] == (address,)


def test_head_forms_take_the_alias_map_and_the_surname():
    aliases = {"henry feilden": "henry master feilden"}
    assert head_forms("henry feilden", aliases) >= {"henry feilden", "henry master feilden", "feilden"}
    assert "party" not in head_forms("conservative party", None)


def test_on_a_list_page_another_members_tail_is_no_leak():
    """PopQA dev ("Hutchings"): with Richard's entry gone, "Tim Hutchings ..., English runner" says nothing
    of Richard; the surname is his variant only where it names nobody else."""
    page = (
        "Kenneth Hutchings (1882–1916), English cricketer ; Richard Hutchings (born 1978), English "
        "cricketer ; Tim Hutchings (born 1958), English runner"
    )
    document = Document("d1", "Hutchings", page)
    english = triple_key("Richard Hutchings", "country_of_citizenship", "English")
    rewrite = page.replace("Richard Hutchings (born 1978), English cricketer ; ", "")
    assert grade_strings(document, rewrite, [english], [])["strict_leaked"] == ()
    assert "hutchings" not in head_forms("richard hutchings", None, page, "Hutchings")
    assert "hutchings" in head_forms("richard hutchings", None, page, "Richard Hutchings")


def test_a_tail_said_only_inside_longer_names_is_told_apart():
    text = "He fled just before the American Civil War and later taught at the University of Vienna."
    body = leaks.tokens(text)
    assert leaks.only_inside_longer_names(text, body, "american")
    assert leaks.only_inside_longer_names(text, body, "vienna")
    said = "He is an American musician who lived in Vienna."
    assert not leaks.only_inside_longer_names(said, leaks.tokens(said), "american")
    assert not leaks.only_inside_longer_names(said, leaks.tokens(said), "vienna")

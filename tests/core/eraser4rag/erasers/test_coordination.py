"""Lists and clauses that lost a member, on sentences of real PopQA dev passages (round 26's reader)."""

from tests.core.eraser4rag.erasers.erasers_fixtures import erase_phrases

WALLACH = (
    "Wallach was the son of German Jews, Paul and Edith Wallach, who escaped Nazi Germany in 1941, after the "
    "government took possession of their family's clothing factory."
)
LAAKE = (
    "He had his own lawyer's office from 1963 to 1976, and from 2007 to 2023, since 1964 as a barrister with "
    "access to working with Supreme Court cases."
)


def test_the_names_after_a_plural_go_when_one_of_them_went(nlp):
    text, _lost = erase_phrases(nlp, WALLACH, ["and Edith Wallach"])
    assert text.startswith("Wallach was the son of German Jews, who escaped Nazi Germany in 1941")


def test_a_time_clause_goes_with_the_relative_clause_it_dated(nlp):
    text, _lost = erase_phrases(nlp, WALLACH, ["Nazi Germany", "in 1941", "and Edith Wallach"])
    assert text == "Wallach was the son of German Jews."


def test_a_time_clause_after_a_kept_relative_clause_stays(nlp):
    text, _lost = erase_phrases(nlp, WALLACH, ["and Edith Wallach"])
    assert text.endswith(", after the government took possession of their family's clothing factory.")


def test_the_coordinator_before_a_like_phrase_goes_with_the_first_phrase(nlp):
    text, _lost = erase_phrases(nlp, LAAKE, ["from 1963 to 1976"])
    assert text.startswith("He had his own lawyer's office from 2007 to 2023, since 1964 as a barrister")


def test_a_verb_that_shared_its_object_with_a_removed_verb_goes(nlp):
    sentence = (
        "Laake disagreed with Quisling's views on the social and political stability of Norway, and "
        "repeatedly opposed and delayed the defence minister's internal security measures."
    )
    text, _lost = erase_phrases(nlp, sentence, ["the defence minister's internal security measures"])
    assert text == "Laake disagreed with Quisling's views on the social and political stability of Norway."


def test_a_subordinator_the_parser_hung_on_the_main_verb_goes_with_its_clause(nlp):
    # round 27's reader (William Archibald Wall): "Although Wall spent many years living."
    sentence = "Although American by birth, Wall spent many years living and working in London."
    text, _lost = erase_phrases(nlp, sentence, ["American"])
    assert text == "Wall spent many years living and working in London."


def test_a_verb_that_shared_its_place_with_a_removed_verb_goes(nlp):
    sentence = "Wall spent many years living and working in London."
    text, _lost = erase_phrases(nlp, sentence, ["and working in London"])
    assert text == "Wall spent many years."


MERCHANT = (
    "Merchant has performed as a stand-up comedian, which led to him writing and starring in the HBO "
    'series "Hello Ladies" (2013–2014), based on his stand-up material.'
)


def test_a_participle_goes_with_the_removed_phrase_it_described(nlp):
    # round 28's reader (Stephen Merchant): "Merchant has performed based on his stand-up material."
    removed = MERCHANT[len("Merchant has performed ") : MERCHANT.index(", based")]
    text, _lost = erase_phrases(nlp, MERCHANT, [removed])
    assert "based on" not in text


def test_a_participle_after_a_kept_phrase_stays(nlp):
    text, _lost = erase_phrases(nlp, MERCHANT, ["(2013–2014)"])
    assert text.endswith(", based on his stand-up material.")


POOCK = (
    "He was a noted practitioner of the Plein-Air Painting style, an important movement in pre-World War II "
    "Southern California, and a part of the influential Arroyo Seco art scene."
)


def test_an_apposition_goes_with_the_removed_object_it_described(nlp):
    # round 29's reader (Fritz Poock): "He was a noted practitioner, an important movement in ..."
    text, lost = erase_phrases(
        nlp, POOCK, ["of the Plein-Air Painting style", "and a part of the influential Arroyo Seco art scene"]
    )
    assert lost and "movement" not in text  # the predicate went: the sentence goes or is said again


def test_an_apposition_after_a_kept_object_stays(nlp):
    text, _lost = erase_phrases(nlp, POOCK, ["and a part of the influential Arroyo Seco art scene"])
    assert text.startswith(
        "He was a noted practitioner of the Plein-Air Painting style, an important movement"
    )


HUTCHINGS = (
    "Arthur James Bramwell Hutchings (14 July 1906 – 13 November 1989 ) was an English musicologist, "
    "composer, and professor of music successively at the University of Durham and the University of Exeter."
)


def test_the_phrases_of_a_removed_last_member_the_parser_hung_on_the_verb_go(nlp):
    """Round 38's reader (Arthur Hutchings, PopQA dev): "was a musicologist, successively at the University
    of Durham" held a post the musicologist never had."""
    text, _lost = erase_phrases(nlp, HUTCHINGS, ["English ", "composer, and professor of music"])
    assert text == "Arthur James Bramwell Hutchings (14 July 1906 – 13 November 1989) was a musicologist."


def test_the_phrases_after_a_removed_member_stay_when_they_name_a_public_fact(nlp):
    """Where he held the post is a public fact of its own: it stays, though it reads less well."""
    text, _lost = erase_phrases(
        nlp, HUTCHINGS, ["composer, and professor of music"], public=["University of Exeter"]
    )
    assert text.endswith(
        "was an English musicologist, successively at the University of Durham and the University of Exeter."
    )


def test_a_time_after_a_removed_last_member_stays(nlp):
    """Richard Harris (college principal), PopQA dev: the century is said of both members."""
    sentence = (
        "Richard Harris (fl. 1558 – 1595) was an academic at the University of Oxford and clergyman in the "
        "sixteenth century."
    )
    text, _lost = erase_phrases(nlp, sentence, ["and clergyman"])
    assert text.endswith("was an academic at the University of Oxford in the sixteenth century.")


FINLAY = (
    "He entered the university, where he had as a classmate John Wilson (alias 'Christopher North'), who "
    "states that he was distinguished above most of his contemporaries."
)


def test_a_who_clause_goes_with_the_removed_name_it_described(nlp):
    """Round 43's reader (John Finlay, poet, PopQA dev): "where he had as a classmate, who states that he was
    distinguished": the parser hung "who states" on "university"; it said what the removed classmate
    wrote, and "had as a classmate" had nothing left to have."""
    text, _lost = erase_phrases(nlp, FINLAY, [" John Wilson (alias 'Christopher North')"])
    assert text == "He entered the university."
    kept, _lost = erase_phrases(nlp, FINLAY, [" (alias 'Christopher North')"])
    assert kept.startswith("He entered the university, where he had as a classmate John Wilson")
    assert "who states that he was distinguished" in kept


def test_a_time_phrase_after_a_removed_last_member_stays(nlp):
    """The review of session 24: "until his death" is said of the composer too."""
    text, _lost = erase_phrases(
        nlp, "He was a German composer and conductor until his death.", [" and conductor"]
    )
    assert text == "He was a German composer until his death."

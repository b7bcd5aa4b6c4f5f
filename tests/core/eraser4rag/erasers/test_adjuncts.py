"""Whether a partial deletion removed only adjuncts, on sentences of real PopQA dev passages."""

from core.eraser4rag.erasers.adjuncts import only_adjuncts_removed
from core.eraser4rag.erasers.repair import segments


def _removal(nlp, sentence: str, phrase: str):
    doc = nlp(sentence)
    start = sentence.index(phrase)
    segment = segments(doc)[0]
    return segment, {t.i for t in doc if start <= t.idx < start + len(phrase)}


def test_a_role_keeps_its_of_phrase_and_a_superlative_its_restriction(nlp):
    # PopQA dev sentences: "Eiland is a former head." and "the first cookbook author" read as other claims
    assert not only_adjuncts_removed(
        *_removal(
            nlp,
            "Eiland is a former head of the National Security Council.",
            "of the National Security Council",
        )
    )
    first = "In 1742 Smith became the first cookbook author published in colonial America."
    assert not only_adjuncts_removed(*_removal(nlp, first, "published in colonial America"))
    assert only_adjuncts_removed(*_removal(nlp, "In 1742 Smith moved to a house in Boston.", "in Boston"))


def test_a_phrase_the_sentence_needs_is_no_adjunct(nlp):
    # PopQA dev sentences the cold readers of round 4/5 read as broken after a partial deletion
    wall = "Wall the elder got married in 1812, the same year he left Ireland for the United States."
    assert not only_adjuncts_removed(*_removal(nlp, wall, "he left Ireland for the United States"))
    slawek = (
        "During the 1905 Congress of the PPS, Sławek was elected to the Central Workers Committee (CKR), "
        "as its youngest member."
    )
    assert not only_adjuncts_removed(*_removal(nlp, slawek, "to the Central Workers Committee (CKR)"))
    mulvany = (
        "Mulvany was diagnosed with a Wilms's tumor (renal cancer) at age two and spent much of her "
        "childhood in the hospital."
    )
    assert not only_adjuncts_removed(*_removal(nlp, mulvany, "with a Wilms's tumor (renal cancer)"))
    assert only_adjuncts_removed(*_removal(nlp, mulvany, " at age two"))


def test_a_phrase_that_limits_a_count_stays(nlp):
    # PopQA dev passage "Joe Moock": without "in the Major Leagues" the 13 games read as his whole career
    moock = "He was a professional baseball infielder who appeared in 13 games in the Major Leagues."
    assert not only_adjuncts_removed(*_removal(nlp, moock, " in the Major Leagues"))


def test_an_activity_reads_without_its_phrase_a_bare_role_does_not(nlp):
    # PopQA dev (John Barnes, broadcaster): "worked in broadcasting [for Radio Clyde, ...]" had dropped the
    # whole sentence, read as a bare role like "He was director [of the museum]."
    barnes = (
        "He joined the BBC in 1993 after previously having worked in broadcasting for Radio Clyde, STV, West "
        "Sound Radio and BT Supercall Sport."
    )
    assert only_adjuncts_removed(
        *_removal(nlp, barnes, " for Radio Clyde, STV, West Sound Radio and BT Supercall Sport")
    )
    assert not only_adjuncts_removed(*_removal(nlp, "He was director of the museum.", " of the museum"))
    # PopQA dev (Kristian Laake), read as a meaning change in round 17: "his lack of previous service"
    laake = "Laake's appointment was criticized because of his lack of previous service on the general staff."
    assert not only_adjuncts_removed(*_removal(nlp, laake, " on the general staff"))


def test_regarding_something_needs_its_as_phrase(nlp):
    # PopQA dev (Søren Krarup): "he regarded the association [as the freedom fighters of our time]"
    krarup = 'He said he regarded the association as "the freedom fighters of our time".'
    assert not only_adjuncts_removed(*_removal(nlp, krarup, ' as "the freedom fighters of our time"'))
    # round 34's reader (Sekino Jun'ichirō): "and established him [as the country's pre-eminent portraitist]"
    sekino = "It became his best piece, and established him as the country's pre-eminent portraitist."
    assert not only_adjuncts_removed(*_removal(nlp, sekino, " as the country's pre-eminent portraitist"))


def test_a_modifier_further_down_a_superlative_phrase_is_no_adjunct(nlp):
    """Round 27's reader (Bill Russell): "the most championships won by an athlete in a [North American]
    sports league" would claim every league; without a superlative the same modifier is an adjunct."""
    record = (
        "Russell and Henri Richard of the National Hockey League are tied for the record of the most "
        "championships won by an athlete in a North American sports league."
    )
    plain = "Russell won eleven championships as an athlete in a North American sports league."
    for sentence, adjunct in ((record, False), (plain, True)):
        assert only_adjuncts_removed(*_removal(nlp, sentence, "North American")) is adjunct


def test_their_after_the_team_that_went_is_no_adjunct_removal(nlp):
    """Round 27's reader (John Finlay): "as a substitute [for Sunderland AFC] on their 4th match"."""
    sentence = (
        "John Finlay made his debut on the 11th of September 1946 as a substitute for Sunderland AFC on "
        "their 4th match of the season in Division 1 against Charlton Athletic."
    )
    assert not only_adjuncts_removed(*_removal(nlp, sentence, "for Sunderland AFC"))
    assert only_adjuncts_removed(*_removal(nlp, sentence, "on the 11th of September 1946"))

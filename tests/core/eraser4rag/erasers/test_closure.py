"""Removals closed under the grammatical rules, on sentences of real PopQA dev passages."""

import pytest

from core.eraser4rag.erasers.rendering import tidy
from tests.core.eraser4rag.erasers.erasers_fixtures import erase_phrases as _erase

LAWRENCE = (
    "Lillian Lawrence (February 17, 1868 – May 7, 1926) was an American theatre and silent film actress."
)


FEILDEN = (
    "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English Conservative Party politician."
)


def test_a_private_birth_date_goes_whole_and_the_death_date_reads_as_died(nlp):
    text, lost = _erase(nlp, FEILDEN, ["21 February"])
    assert (text, lost) == (
        "Henry Master Feilden (died 5 September 1875) was an English Conservative Party politician.",
        False,
    )


def test_a_private_death_date_leaves_born(nlp):
    text, _lost = _erase(nlp, FEILDEN, ["5 September 1875"])
    assert text.startswith("Henry Master Feilden (born 21 February 1818) was")


def test_a_copula_keeps_its_public_adjective(nlp):
    text, lost = _erase(nlp, FEILDEN, ["Conservative Party politician"], public=["English"])
    assert (text, lost) == ("Henry Master Feilden (21 February 1818 – 5 September 1875) was English.", False)


def test_a_copula_without_any_public_predicate_asks_for_the_sentence_to_be_said_again(nlp):
    _text, lost = _erase(nlp, FEILDEN, ["English Conservative Party politician"])
    assert lost


def test_article_agreement_after_a_removed_adjective(nlp):
    sentence = (
        "Eugene Booker McDaniels (February 12, 1935 – July 29, 2011) was an American singer and songwriter."
    )
    text, _lost = _erase(nlp, sentence, ["American"])
    assert "was a singer and songwriter." in text


def test_a_removed_object_takes_its_verb_and_coordinator_not_the_shared_when(nlp):
    sentence = (
        "The battle occurred during the Italo-Turkish War when the Kingdom of Italy attacked and took "
        "possession of the major cities of the Ottoman Empire."
    )
    text, _lost = _erase(nlp, sentence, ["possession of the major cities of the Ottoman Empire"])
    assert text == "The battle occurred during the Italo-Turkish War when the Kingdom of Italy attacked."


def test_a_conjoined_clause_takes_the_place_of_a_main_clause_that_lost_its_predicate(nlp):
    sentence = "He is a Muslim and he's the youngest son of the late Sidiki Diabaté and Mariam Kouyaté."
    text, lost = _erase(nlp, sentence, ["a Muslim"])
    assert (text, lost) == ("He's the youngest son of the late Sidiki Diabaté and Mariam Kouyaté.", False)


def test_a_removed_possessor_leaves_the(nlp):
    sentence = "In July 1980, he was sent to live in the city of Ikeda, on Japan’s island of Hokkaido."
    text, _lost = _erase(nlp, sentence, ["Japan’s"])
    assert "on the island of Hokkaido." in text


def test_a_list_that_lost_its_last_member_gets_its_and_back(nlp):
    sentence = "He was a German choral conductor, church music director, organist and composer."
    text, _lost = _erase(nlp, sentence, ["and composer"])
    assert text == "He was a German choral conductor, church music director and organist."


def test_a_copula_whose_predicate_went_is_not_completed_by_a_time_phrase(nlp):
    sentence = "In addition to acting, Wheatley was a radio announcer during the Second World War."
    _text, lost = _erase(nlp, sentence, ["a radio announcer"])
    assert lost


def test_a_removed_inner_bracket_does_not_close_the_outer_one(nlp):
    sentence = (
        "Hermann Kober (born 1888 in Beuthen, Germany (now Bytom, Poland), died 4 October 1973 in "
        "Birmingham, England) was a Jewish-German mathematician."
    )
    text, lost = _erase(nlp, sentence, ["Germany (now Bytom, Poland)"])
    assert not lost
    assert text.startswith(
        "Hermann Kober (born 1888 in Beuthen, died 4 October 1973 in Birmingham, England) was"
    )


def test_emptied_quotes_go_and_a_title_goes_whole(nlp):
    assert tidy('He said he regarded the association "".') == "He said he regarded the association."
    text, _lost = _erase(nlp, "In 1994 he won the Nobel Prize in Literature and a medal.", ["Literature"])
    assert text == "In 1994 he won a medal."


def test_a_removed_last_clause_leaves_the_full_stop(nlp):
    sentence = (
        "His next promotion was to commander on 2 September 1795, and he was then raised to post-captain "
        "on 9 July 1798."
    )
    text, _lost = _erase(nlp, sentence, ["and he was then raised to post-captain on 9 July 1798"])
    assert text == "His next promotion was to commander on 2 September 1795."


def test_a_participle_clause_that_lost_its_complements_goes(nlp):
    sentence = "He spent four years apprenticing with Arnold Dolmetsch in England, returning in 1930."
    text, _lost = _erase(nlp, sentence, ["in 1930"])
    assert text == "He spent four years apprenticing with Arnold Dolmetsch in England."


def test_a_quotation_is_kept_word_for_word_or_not_at_all(nlp):
    # PopQA dev: "was called "one of the foremost citizens has ever had"" misquoted the Chicago Defender
    sentence = (
        'He was active in anti-lynching and civil rights causes and was called "one of the foremost '
        'citizens Chicago has ever had" by the Chicago Defender.'
    )
    text, lost = _erase(nlp, sentence, ["Chicago has"])
    assert (text, lost) == ("He was active in anti-lynching and civil rights causes.", False)


def test_a_demonym_naming_a_sport_goes_with_the_sport(nlp):
    # PopQA dev: "American football player" without "American" plays another game
    text, _lost = _erase(nlp, "He is a former American football player who played cornerback.", ["American"])
    assert text == "He is a former player who played cornerback."


def test_a_field_coordinated_with_a_removed_occupation_goes_with_it(nlp):
    """PopQA dev (Lillian Lawrence): "theatre and [silent film actress]" had left "was a theatre"."""
    text, lost = _erase(nlp, LAWRENCE, ["silent film actress"], public=["American"])
    assert (text, lost) == ("Lillian Lawrence (February 17, 1868 – May 7, 1926) was American.", False)
    text, _lost = _erase(nlp, "She was a singer and a jazz pianist.", [" and a jazz pianist"])
    assert text == "She was a singer."  # a person noun is a conjunct of its own


def test_one_side_of_a_slash_pair_stays(nlp):
    """PopQA dev (Bruce McDaniel): "Mexican and Scottish/[American] parents" had become "Mexican parents"."""
    sentence = "He was born in Boston of Mexican and Scottish/American parents and grew up in New York."
    text, _lost = _erase(nlp, sentence, ["American"])
    assert text == "He was born in Boston of Mexican and Scottish parents and grew up in New York."


def test_a_list_member_before_a_removed_last_member_stays(nlp):
    """PopQA dev (William Archibald Wall): the field rule must not take "landscapes" from a list."""
    sentence = "He specialized in waterscapes, landscapes and rural and urban views."
    text, _lost = _erase(nlp, sentence, [" and rural and urban views"])
    assert text == "He specialized in waterscapes and landscapes."


def test_a_relative_pronoun_goes_with_its_clause(nlp):
    """PopQA dev (Eliza Kennedy Smith): a quoted relative clause went whole and had left "who."."""
    sentence = (
        'The Press described her as "a watchdog of the purse strings" who "attended more budget sessions '
        'than anyone else in Pittsburgh".'
    )
    text, _lost = _erase(nlp, sentence, ["Pittsburgh"])
    assert text == 'The Press described her as "a watchdog of the purse strings".'


def test_a_generic_name_head_goes_with_the_word_that_made_it_a_name(nlp):
    """PopQA dev (Dominick Bellizzi): "for the prominent [Brookmeade] Stable" had been left."""
    sentence = (
        "He won the Adirondack Stakes and for the prominent Brookmeade Stable, owned by heiress Isabel "
        "Dodge Sloane, he captured both the Toboggan Handicap and the Whitney Handicap."
    )
    text, _lost = _erase(nlp, sentence, ["Brookmeade"])
    assert text == (
        "He won the Adirondack Stakes and he captured both the Toboggan Handicap and the Whitney Handicap."
    )
    text, _lost = _erase(nlp, "He graduated from Harvard University in 1950.", ["Harvard"])
    assert text == "He graduated in 1950."


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        (  # PopQA dev (Chuck Harrison): "Harrison posted to Germany." had been left
            "Harrison was drafted into the United States Army and posted to Germany.",
            "drafted into the United States Army",
            "Harrison was posted to Germany.",
        ),
        ("He was born in Paris and raised in Lyon.", "born in Paris", "He was raised in Lyon."),
        # an active second verb does not take the passive's auxiliary
        ("He was elected in 1990 and served until 1995.", "elected in 1990", "He served until 1995."),
    ],
)
def test_a_kept_participle_keeps_the_auxiliary_it_shared(nlp, sentence, private, expected):
    text, _lost = _erase(nlp, sentence, [private])
    assert text == expected


def test_an_object_named_by_a_close_apposition_becomes_a_kind_without_the_name(nlp):
    """PopQA dev (Achille Perilli): "he founded the group [Forma 1] alongside ..." had left "the group"; the
    whole sentence then went with its five public co-founders. "a group" points at nothing in particular."""
    sentence = "After World War II, he founded the group Forma 1 alongside Carla Accardi and Giulio Turcato."
    text, lost = _erase(nlp, sentence, ["Forma 1"])
    assert not lost
    assert text == "After World War II, he founded a group alongside Carla Accardi and Giulio Turcato."


def test_a_subject_named_by_a_close_apposition_goes_with_the_name(nlp):
    from core.eraser4rag.erasers.repair import repair_removals

    text = "The group Forma 1 was founded in 1949 by six painters. He left."
    doc = nlp(text)
    start = text.index("Forma 1")
    removal = ((start, start + len("Forma 1")), "", "private", ())
    assert repair_removals(text, doc, [removal], (), nlp)[0] == "He left."


@pytest.mark.parametrize(
    "sentence",
    [
        "He founded the first abstract group Forma 1 in Italy.",
        "He later led the same group Forma 1 until 1951.",
    ],
)
def test_a_noun_still_one_of_a_kind_goes_with_its_name(nlp, sentence):
    """The review of session 25: "a first abstract group", "a same group"."""
    text, _lost = _erase(nlp, sentence, ["Forma 1"])
    assert "group" not in text, text


def test_a_son_hung_on_a_removed_birthplace_is_still_the_one_born(nlp):
    """PopQA dev (John Barnes, Australian politician): the parser hangs "the son of ..." on the private
    birthplace, and the sentence went whole with its father's five public facts."""
    sentence = (
        "Barnes was born at Hamilton, South Australia, the son of John Thomas Barnes, a drover who had "
        "emigrated from Somerset, England."
    )
    text, lost = _erase(nlp, sentence, ["Hamilton"])
    assert not lost
    assert text == (
        "Barnes was born the son of John Thomas Barnes, a drover who had emigrated from Somerset, England."
    )


def test_a_son_with_a_private_part_of_his_own_comes_back_without_it(nlp):
    """Round 46's reader (Carl Stokes): "born in the Central neighborhood" once "Cleveland's" went; with the
    neighborhood gone too, the son it carried comes back without his father's private occupation."""
    sentence = (
        "Stokes was born in Cleveland's Central neighborhood, the son of Louise (Stone) and Charles Stokes, "
        "a laundryman who died when Carl was two years old."
    )
    text, lost = _erase(nlp, sentence, ["Cleveland's", "laundryman"])
    assert not lost
    assert text == "Stokes was born the son of Louise (Stone) and Charles Stokes."


def test_a_son_goes_with_his_birthplace_when_his_own_fact_is_private(nlp):
    sentence = "Barnes was born at Hamilton, South Australia, the son of John Thomas Barnes, a drover."
    text, _lost = _erase(nlp, sentence, ["Hamilton", "John Thomas Barnes"])
    assert "son" not in text and "drover" not in text, text


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        # PopQA dev (Harvey J. Stokes): a private "professor of Music" took the university with it
        (
            "As of 2020, he is Professor of Music at Hampton University in Hampton, Virginia.",
            "Music",
            "As of 2020, he is a professor at Hampton University in Hampton, Virginia.",
        ),
        (
            "He was the director of research at IBM until 1990.",
            "research",
            "He was a director at IBM until 1990.",  # "the director at IBM" would claim he ran IBM
        ),
    ],
)
def test_a_role_held_at_a_named_place_keeps_it_without_its_of(nlp, sentence, private, expected):
    text, lost = _erase(nlp, sentence, [private])
    assert not lost and text == expected


@pytest.mark.parametrize(
    ("sentence", "private"),
    [
        ("He was an opponent of slavery at Westminster.", "slavery"),  # a stance, not a post held there
        ("She was the captain of the women's team at Oxford.", "the women's team"),
    ],
)
def test_a_role_that_is_no_post_held_at_a_place_still_needs_its_of(nlp, sentence, private):
    """The review of session 25: "He was an opponent at Westminster", "She was the captain at Oxford"."""
    text, _lost = _erase(nlp, sentence, [private])
    assert "opponent at" not in text and "captain at" not in text, text


def test_a_son_who_points_back_at_the_birthplace_goes_with_it(nlp):
    """The review of session 25: "born the son of a fisherman from the town" once Kilkee went."""
    text, _lost = _erase(nlp, "He was born in Kilkee, the son of a fisherman from the town.", [" in Kilkee"])
    assert "the town" not in text, text


def test_a_role_without_its_of_and_nowhere_named_still_goes(nlp):
    text, _lost = _erase(nlp, "He was the founder of Forma 1 and a painter.", ["Forma 1"])
    assert "founder" not in text, text


def test_the_name_before_and_co_is_part_of_the_firm(nlp):
    """PopQA dev (Edward Corser): "his business, Corser and [Co. Ltd.]" had become "his business, Corser"."""
    sentence = "In 1872, he opened his own business, Corser and Co. Ltd., which became a large establishment."
    text, _lost = _erase(nlp, sentence, ["Co. Ltd."])
    assert text == "In 1872, he opened his own business, which became a large establishment."


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        (  # PopQA dev (Arcangelo Guglielmelli): "He rebuilt, the fallen dome" had been left
            "He rebuilt, between 1692 and 1693, the fallen dome (1629–35) of the church.",
            "between 1692 and 1693",
            "He rebuilt the fallen dome (1629–35) of the church.",
        ),
        ("He bought apples, pears, plums and figs.", "pears", "He bought apples, plums and figs."),
        ("In 1990, in Paris, he met her.", "in Paris", "In 1990, he met her."),
    ],
)
def test_an_adjunct_set_off_by_commas_after_its_verb_takes_both(nlp, sentence, private, expected):
    text, _lost = _erase(nlp, sentence, [private])
    assert text == expected


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        (  # PopQA dev (Frank K. Hallock)
            "Hallock received a Bachelor of Arts in 1882 and a Master of Arts in 1885.",
            "in 1882",
            "Hallock received a Bachelor of Arts and a Master of Arts.",
        ),
        (  # PopQA dev (Fernando Valerio-Holguin)
            "He was promoted to associate professor in 2002 and to full professor in 2008.",
            "in 2002",
            "He was promoted to associate professor and to full professor.",
        ),
        (  # PopQA dev (John Barnes, mayor)
            "Barnes was elected to the Town Board in 1863 and the new Town Council in 1866.",
            "in 1863",
            "Barnes was elected to the Town Board and the new Town Council.",
        ),
    ],
)
def test_a_member_that_lost_its_date_does_not_take_the_next_members(nlp, sentence, private, expected):
    """Without its own year the first member would read as dated by the second's ("the ranks of Premier
    Lieutenant and Captain in 1903", read by a cold reader as both ranks in 1903): that year goes too."""
    text, _lost = _erase(nlp, sentence, [private])
    assert text == expected


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        pytest.param(  # PopQA dev (James Graham Phelps Stokes)
            "He was an American millionaire socialist writer, political activist, and philanthropist.",
            ", and philanthropist",
            "He was an American millionaire socialist writer and political activist.",
            id="the comma before a removed last member says and, after an Oxford comma",
        ),
        pytest.param(  # PopQA dev (Herlyn Espinal)
            "Shell casings were found on a bridge over the Humuya River on the road between Santa Rita and "
            "La Barca.",
            "and La Barca",
            "Shell casings were found on a bridge over the Humuya River.",
            id="between without one of its sides goes",
        ),
        pytest.param(  # PopQA dev (Helga Vala Helgadóttir): "and, she" had been left
            "In 2011 she received her lawyer's license and from 2011 to 2017, she operated her law firm.",
            "from 2011 to 2017",
            "In 2011 she received her lawyer's license and she operated her law firm.",
            id="a fronted adjunct takes the comma that set it off",
        ),
    ],
)
def test_what_a_removed_member_or_adjunct_leaves_reads(nlp, sentence, private, expected):
    text, _lost = _erase(nlp, sentence, [private])
    assert text == expected


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        pytest.param(
            "He was a professor at Harvard University.",
            "at Harvard University",
            "He was a professor.",
            id="a role needs its of-phrase, not any phrase",
        ),
        pytest.param(
            "She was an amateur boxer and professional wrestler.",
            "boxer and",
            "She was a professional wrestler.",
            id="the first member's adjective is not the next member's when it has its own",
        ),
        pytest.param(
            "The dispute between the United Kingdom and Argentina continued until 1982.",
            "the United Kingdom and",
            "The dispute continued until 1982.",
            id="between left with its second side only goes too",
        ),
    ],
)
def test_a_reviewers_counter_examples_read(nlp, sentence, private, expected):
    """Sentences a reviewer of session 12's rules wrote to break them (each broke a first version)."""
    text, _lost = _erase(nlp, sentence, [private])
    assert text == expected


@pytest.mark.parametrize(
    ("sentence", "private"),
    [
        pytest.param(  # PopQA dev (Bahaa Trabelsi), quoted by round 13's reader: "returned where?"
            "After her graduation in France she returned to Morocco for some time.",
            "to Morocco",
            id="returned without where to",
        ),
        pytest.param(  # PopQA dev (Matthew Good): "nominated during his career, winning four"
            "Good has been nominated for 21 Juno Awards during his career, winning four.",
            "for 21 Juno Awards",
            id="nominated without what for",
        ),
        pytest.param(  # PopQA dev (Jim Brown): "He went on to spend five years."
            "He went on to spend five years at Bramall Lane.",
            "at Bramall Lane",
            id="spent a time without where",
        ),
        pytest.param(  # PopQA dev (Matthew Good): "Good has pursued a solo career and established himself."
            "Good established himself as a political commentator.",
            "as a political commentator",
            id="a reflexive object without what it said of itself",
        ),
        pytest.param(  # PopQA dev (Richard Harris): "he won the prize" (the parser hangs "for" on the verb)
            "In 1994 he won the prize for best situation comedy from the Writers' Guild.",
            "for best situation comedy from the Writers' Guild",
            id="the prize without which prize",
        ),
        pytest.param(  # PopQA dev (Paul Wheatley): "He became interested." in a first run of session 13
            "He became interested in the historical geography of Southeast Asia and China.",
            "in the historical geography of Southeast Asia and China",
            id="interested without in what",
        ),
        pytest.param(  # PopQA dev (Muhammad Ali Siddiqui), round 14: "He received his early education."
            "He received his early education at the Sindh Madressatul Islam in Karachi.",
            "at the Sindh Madressatul Islam in Karachi",
            id="an education without where",
        ),
        pytest.param(  # PopQA dev (Rogelio Espina), round 11: "he studied a degree."
            "From 1980 to 1984 at the same school, he studied a degree on Doctor of Medicine.",
            "on Doctor of Medicine",
            id="a degree without in what",
        ),
        pytest.param(  # PopQA dev (Frank Ray Perilli), round 15: "He began his career, and made appearances"
            "He began his career at the Copacabana.",
            "at the Copacabana",
            id="a career without where",
        ),
        pytest.param(  # prompted by a held-back passage round 16's reader quoted ("resided to his death")
            "He lived in Paris until his death.",
            "in Paris",
            id="lived without where",
        ),
        pytest.param(  # PopQA dev (Rinaldo del Mel), round 12's reader: "he was sent by his family." (where?)
            "After finishing his schooling, he was sent to Antwerp by his family.",
            "to Antwerp",
            id="sent without where to",
        ),
        pytest.param(  # the labelled PII set (session 26): "I am for a business trip"
            "I am in Leiria for a business trip.",
            "in Leiria",
            id="a copula without where, left with why",
        ),
        pytest.param(
            "He was in London for two years after the war.",
            "in London",
            id="a copula without where, left with how long",
        ),
    ],
)
def test_a_predicate_left_with_adjuncts_only_goes(nlp, sentence, private):
    _text, lost = _erase(nlp, sentence, [private])
    assert lost


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        ("She returned to Morocco for some time.", "for some time", "She returned to Morocco."),
        (
            "Good established himself as a commentator in 2002.",
            "in 2002",
            "Good established himself as a commentator.",
        ),
        ("He won the prize in 1994.", "in 1994", "He won the prize."),
        (
            "He spent five years at Bramall Lane in Sheffield.",
            "in Sheffield",
            "He spent five years at Bramall Lane.",
        ),
        ("He was a teacher in Paris for a decade.", "in Paris", "He was a teacher for a decade."),
        ("He was in Paris for a conference in 1990.", "in 1990", "He was in Paris for a conference."),
    ],
)
def test_a_predicate_that_keeps_its_needed_phrase_stays(nlp, sentence, private, expected):
    text, lost = _erase(nlp, sentence, [private])
    assert (text, lost) == (expected, False)


def test_a_named_degree_reads_without_where(nlp):
    """PopQA dev (Kate Mulvany): "received her Bachelor of Arts degree" says which degree; only a bare "a
    degree" needs its "in what" (a first version of the rule dropped this sentence)."""
    text, lost = _erase(
        nlp,
        "In 1997, Mulvany received her Bachelor of Arts degree from Curtin University.",
        ["from Curtin University"],
    )
    assert (text, lost) == ("In 1997, Mulvany received her Bachelor of Arts degree.", False)


def test_an_also_phrase_goes_with_the_phrase_it_said_again(nlp):
    """PopQA dev (Fernando Valerio-Holguin), round 15 (M): "received a bachelor's degree, and a Doctor
    of Philosophy, also from Tulane" put the bachelor's degree at Tulane once the first "from Tulane" went."""
    sentence = (
        "He received a master's degree from Tulane University in 1987, and a Doctor of Philosophy, also from "
        "Tulane, in 1994."
    )
    text, lost = _erase(nlp, sentence, ["from Tulane University"])
    assert (text, lost) == (
        "He received a master's degree in 1987, and a Doctor of Philosophy in 1994.",
        False,
    )


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        pytest.param(  # PopQA dev (Rinaldo Saporiti), round 16: "Rinaldo Saporiti (Milan) was a painter."
            "Rinaldo Saporiti (Milan 1840 - 1913) was an Italian painter.",
            ["1840", "1913"],
            "Rinaldo Saporiti was an Italian painter.",
            id="a lifespan left with its place alone goes whole",
        ),
        pytest.param(  # PopQA dev (Jim Brown), round 16's reader: "He also excelled in field and lacrosse."
            "He excelled in lacrosse and in track and field.",
            ["track"],
            "He excelled in lacrosse.",
            id="one half of a fixed pair goes with the other",
        ),
    ],
)
def test_what_is_read_as_one_unit_goes_whole(nlp, sentence, private, expected):
    text, _lost = _erase(nlp, sentence, private)
    assert text == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # PopQA dev passages (questions 25 and 17)
        (
            "He had his own radio show called Kino Kazuyoshi no sekai on Radio Nikkei.",
            "He had the radio show called Kino Kazuyoshi no sekai on Radio Nikkei.",
        ),
        (
            "From 2011 to 2017, Helga ran her own law firm, Valva Lawyers.",
            "From 2011 to 2017, Helga ran the law firm, Valva Lawyers.",
        ),
    ],
)
def test_own_goes_with_its_possessor(nlp, sentence, expected):
    text, lost = _erase(nlp, sentence, ["his" if " his " in sentence else "her"])
    assert text == expected and not lost  # never "the own radio show"


def test_a_removed_phrase_keeps_the_comma_that_set_off_the_next(nlp):
    """Round 22's reader (Ludwig Lichtheim): "was called in 1888 to the University of Königsberg his final
    position" had lost the comma that also set off "his final position"."""
    sentence = (
        "He was called in 1888 to the University of Königsberg as a professor of medicine, "
        "his final position."
    )
    text, _lost = _erase(nlp, sentence, ["as a professor of medicine"])
    assert text == "He was called in 1888 to the University of Königsberg, his final position."


def test_the_place_of_a_removed_name_goes_with_it(nlp):
    """Round 22's reader (Bernard Corser): "He was educated at Sydney." was left of "at [Maryborough
    Christian Brothers' School, Riverview College], Sydney, and returned"; a list's next member stays
    ("IBM, Microsoft and Google")."""
    sentence = (
        "He was educated at Maryborough Christian Brothers' School, Riverview College, Sydney, and returned "
        "to Queensland to study at Queensland Agricultural College, Gatton."
    )
    text, _lost = _erase(nlp, sentence, ["Maryborough Christian Brothers' School, Riverview College"])
    assert "Sydney" not in text
    text, _lost = _erase(nlp, "He worked for IBM, Microsoft and Google.", ["IBM"])
    assert text == "He worked for Microsoft and Google."


def test_a_list_that_lost_its_first_of_three_members_loses_its_serial_comma(nlp):
    """Round 22's reader (Thomas Allom): "was an artist, and topographical illustrator" kept the serial comma
    of a list of three that now has two."""
    sentence = "Thomas Allom was an English architect, artist, and topographical illustrator."
    text, _lost = _erase(nlp, sentence, ["English architect,"])
    assert text == "Thomas Allom was an artist and topographical illustrator."


def test_a_flat_list_of_four_that_kept_two_loses_every_comma_between_them(nlp):
    """Round 28's reader (Stephen Merchant): "including three BAFTA Awards, and four British Comedy Awards"
    once the first and third of four went (the parser hangs the last three on the second)."""
    sentence = (
        "He has received numerous accolades, including two Golden Globe Awards, three BAFTA Awards, a "
        "Primetime Emmy Award, and four British Comedy Awards."
    )
    text, _lost = _erase(nlp, sentence, ["two Golden Globe Awards", "a Primetime Emmy Award"])
    assert text == (
        "He has received numerous accolades, including three BAFTA Awards and four British Comedy Awards."
    )


def test_a_maiden_name_goes_with_its_nee_and_leaves_her_dates(nlp):
    """Round 22's reader (Lillian): "Lillian Metge Grubb (1871–1954)" read the maiden name as part of the
    married name once "née" went."""
    sentence = "Lillian Metge née Grubb (1871–1954), Anglo-Irish suffragette and women's rights campaigner ;"
    text, _lost = _erase(nlp, sentence, ["née"])
    assert text.startswith("Lillian Metge (1871–1954), Anglo-Irish suffragette")


def test_a_count_whose_noun_went_goes(nlp):
    """Round 20's reader (Peter Jaffrey Wheatley): "was educated for four" was left of "[1st XI footballer]
    for four"."""
    sentence = (
        "He was educated at King Edward VII School in Sheffield, where he was Captain of cricket for two "
        "years and 1st XI footballer for four."
    )
    text, _lost = _erase(nlp, sentence, ["King Edward VII School", "in Sheffield", "1st XI footballer"])
    assert "for four" not in text


def test_the_next_member_the_parser_hung_elsewhere_takes_the_removed_ones_place(nlp):
    """Round 20's reader (Richard Harris), an M: "leading several indoor football teams as head coach and
    Ottawa Renegades" had made him head coach of the Renegades, where he was a defensive assistant."""
    sentence = (
        "Harris began a second career as a coach, leading several indoor football teams as head coach before "
        "working as a defensive assistant for the BC Lions, Ottawa Renegades, and Winnipeg Blue Bombers of "
        "the Canadian Football League."
    )
    text, _lost = _erase(nlp, sentence, ["BC Lions"])
    assert "as a defensive assistant for Ottawa Renegades" in text
    text, _lost = _erase(nlp, sentence, ["for the BC Lions"])  # the list goes with its preposition
    assert "Renegades" not in text and "as head coach" in text


def test_known_by_a_bare_name_reads_known_as(nlp):
    """Round 21's reader (Abu Luqman): "known by Abu Ayyub al-Ansari" once "his kunya Abu Luqman," went."""
    sentence = (
        "Al-Shawakh, known by his kunya Abu Luqman, Abu Ayyub al-Ansari or Ali al-Hamoud, was a Syrian man."
    )
    text, _lost = _erase(nlp, sentence, ["his kunya Abu Luqman,"])
    assert "known as Abu Ayyub al-Ansari" in text


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        # round 24's reader (Andrea Bocelli): the list lost its last member and its "and"
        (
            "Bocelli has recorded 15 solo studio albums of both pop and classical music, three greatest hits "
            "albums, and nine complete operas.",
            ", and nine complete operas",
            "Bocelli has recorded 15 solo studio albums of both pop and classical music and three greatest "
            "hits albums.",
        ),
        # round 24's reader (Ali Muhammad Khan): the coordinator of a member that went
        (
            "By profession, he is an Engineer and a law graduate as well.",
            "a law graduate",
            "By profession, he is an Engineer as well.",
        ),
        # round 23's reader (Hugo Licht): "During his time, Licht made several study trips."
        (
            "During his time in Berlin, Licht made several study trips to Paris and London.",
            "in Berlin",
            "Licht made several study trips to Paris and London.",
        ),
    ],
)
def test_what_rounds_23_and_24_quoted_reads(nlp, sentence, private, expected):
    text, _lost = _erase(nlp, sentence, [private])
    assert text == expected


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        # round 27's reader (Valgerður Gunnarsdóttir): "deputy chairman for the delegation": whose?
        (
            "She has been a member of the Parliamentary Assembly of the Council of Europe since 2016 and "
            "serves as deputy chairman for the Icelandic delegation.",
            "Icelandic",
            "She has been a member of the Parliamentary Assembly of the Council of Europe since 2016 and "
            "serves as deputy chairman.",
        ),
        # round 27 (Richard Harris): the promoted clause has its own subject, "there"; "He there are" was
        # what the rule made of it once "fan" needed its "of" phrase
        (
            "He remained an ardent fan of the Munster Rugby and Young Munster teams until his death, "
            "attending many of their matches, and there are numerous stories of japes at rugby matches "
            "with actors and fellow rugby fans Peter O'Toole and Richard Burton.",
            "of the Munster Rugby and Young Munster teams",
            "There are numerous stories of japes at rugby matches with actors and fellow rugby fans Peter "
            "O'Toole and Richard Burton.",
        ),
    ],
)
def test_what_round_27_quoted_reads(nlp, sentence, private, expected):
    text, _lost = _erase(nlp, sentence, [private])
    assert text == expected


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        # round 28's reader (Senegal): "is a country, on the Atlantic Ocean coastline"
        (
            "Senegal, officially the Republic of Senegal, is a country in West Africa, on the Atlantic Ocean "
            "coastline.",
            "in West Africa",
            "Senegal, officially the Republic of Senegal, is a country on the Atlantic Ocean coastline.",
        ),
        # round 27's reader (Richard Harris, footballer): "and had loan spells."
        (
            "He made 13 league and cup appearances, and had loan spells at Mansfield Town and Wycombe "
            "Wanderers.",
            "at Mansfield Town and Wycombe Wanderers",
            "He made 13 league and cup appearances.",
        ),
    ],
)
def test_what_round_28_quoted_reads(nlp, sentence, private, expected):
    text, _lost = _erase(nlp, sentence, [private])
    assert text == expected


def test_a_border_and_a_phd_without_their_phrase_lose_the_predicate(nlp):
    # round 28's reader (Senegal): "Senegal also shares a maritime border."; round 27's (Harvey J. Stokes):
    # "Stokes earned his PhD."
    _text, lost = _erase(nlp, "Senegal also shares a maritime border with Cape Verde.", ["with Cape Verde"])
    assert lost
    _text, lost = _erase(
        nlp, "Stokes earned his PhD from Michigan State University.", ["from Michigan State University"]
    )
    assert lost


def test_someone_s_support_without_its_phrase_goes(nlp):
    # round 30's reader (Richard Harris): "after which Richard Harris discontinued his support."
    text, lost = _erase(nlp, "In 1984 he discontinued his support for the PIRA.", ["for the PIRA"])
    assert lost and "support" not in text
    text, lost = _erase(nlp, "He received support from the government.", ["from the government"])
    assert not lost and text == "He received support."


def test_a_club_the_parser_hung_on_the_copula_goes_when_only_the_nationality_is_kept(nlp):
    """Round 29's reader (Jock Finlay): "was Scottish, and Newcastle United (where ...)" (the same sentence
    shortened; with its whole last bracket the parser hangs the club elsewhere)."""
    sentence = (
        "John Finlay (19 October 1882 – 31 March 1933) was a Scottish footballer who played as a left half "
        "for Rangers (where he played only once in the Scottish Football League in his first season as a "
        "professional), Airdrieonians (where he became an established top division regular over five years), "
        "and Newcastle United (where he was registered as a player for 15 years)."
    )
    private = sentence[sentence.index("a Scottish") : sentence.index(", and Newcastle")]
    text, _lost = _erase(nlp, sentence, [private], ["Scottish"])
    assert text == "John Finlay (19 October 1882 – 31 March 1933) was Scottish."


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        # PopQA dev (Arcangelo Ghisleri): "To 1890 he founded and edited the review" once 1887 went
        (
            "From 1887 to 1890 he founded and edited the review 'Cuore e Critica'.",
            "From 1887",
            "He founded and edited the review 'Cuore e Critica'.",
        ),
        ("He served as mayor from 12 May 1887 to June 1890.", "from 12 May 1887", "He served as mayor."),
        # a start without its end still reads
        (
            "He edited the review from 1887 to 1890 in Milan.",
            "to 1890",
            "He edited the review from 1887 in Milan.",
        ),
    ],
)
def test_the_end_of_a_range_goes_with_its_start(nlp, sentence, private, expected):
    text, _lost = _erase(nlp, sentence, [private])
    assert text == expected


def test_a_cleft_copula_goes_with_the_clause_it_framed(nlp):
    """PopQA dev (Chuck Harrison): "It was also while attending SAIC that Harrison met his future wife."
    without its clause was "It was also."; a copula whose every phrase after it went says nothing."""
    sentence = "It was also while attending SAIC that Harrison met his wife."
    text, lost = _erase(nlp, sentence, ["while attending SAIC that Harrison met his wife"])
    assert lost
    text, lost = _erase(nlp, "It was also in Paris that he met his wife, in 1950.", ["in 1950"])
    assert not lost and text == "It was also in Paris that he met his wife."


def test_a_work_that_lost_its_title_goes(nlp):
    """Round 41's reader (George Combe, PopQA dev): "George Combe wrote a noted study." once its title,
    The Constitution of Man (1828), went; a work of nothing is no fact, and its verb goes with it."""
    sentence = "He founded a society in 1820 and wrote a noted study, The Constitution of Man (1828)."
    text, _lost = _erase(nlp, sentence, [", The Constitution of Man (1828)"])
    assert text == "He founded a society in 1820."
    titled, _lost = _erase(nlp, sentence, ["in 1820"])
    assert titled == "He founded a society and wrote a noted study, The Constitution of Man (1828)."


def test_a_work_still_described_by_a_participle_stays(nlp):
    """Derek Wheatley, PopQA dev: "He also wrote a novel based on his experiences." still says which novel
    (the parser hangs "based on" on the verb)."""
    sentence = "He also wrote a novel, The Silent Lady (Mona Lisa), based on his experiences as a barrister."
    text, _lost = _erase(nlp, sentence, [", The Silent Lady (Mona Lisa)"])
    assert text == "He also wrote a novel based on his experiences as a barrister."


def test_a_work_stays_when_it_is_a_public_fact_or_only_lost_its_genre(nlp):
    """The review of session 24: a public genre, and a genre word ("jazz") that is no title."""
    film = "His first film was a documentary about the Vietnam War."
    text, _lost = _erase(nlp, film, [" about the Vietnam War"], public=["documentary"])
    assert text == "His first film was a documentary."
    album, _lost = _erase(nlp, "In 1975 he released a jazz album on Blue Note Records.", ["jazz "])
    assert album == "In 1975 he released an album on Blue Note Records."


def test_an_adverb_predicate_keeps_its_copula(nlp):
    """The review of session 24: "He was abroad" says where he was."""
    text, lost = _erase(nlp, "He was abroad from 1950 to 1955.", [" from 1950 to 1955"])
    assert not lost and text == "He was abroad."


def test_a_period_goes_with_its_end(nlp):
    """Round 45's reader (Steen Krarup Jensen): "during the period from 1971." once "to 1978" went."""
    sentence = "He studied sculpture at The Royal Danish Academy during the period from 1971 to 1978."
    text, lost = _erase(nlp, sentence, ["to 1978"])
    assert not lost
    assert text == "He studied sculpture at The Royal Danish Academy."


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        # the "to" of "his move to Paris" is no end of the period (the review of session 25)
        (
            "During the period from his move to Paris until 1978 he painted little.",
            " to Paris",
            "During the period from his move until 1978 he painted little.",
        ),
        # a subject keeps its start: "The period was his most productive" would point at nothing
        (
            "The period from 1971 to 1978 was his most productive.",
            " to 1978",
            "The period from 1971 was his most productive.",
        ),
    ],
)
def test_a_period_keeps_its_start_when_its_end_stays_or_it_is_the_subject(nlp, sentence, private, expected):
    text, _lost = _erase(nlp, sentence, [private])
    assert text == expected


def test_a_start_without_a_period_keeps_its_from(nlp):
    text, _lost = _erase(nlp, "He served as mayor from 1990 to 1995.", ["to 1995"])
    assert text == "He served as mayor from 1990."


@pytest.mark.parametrize(
    ("sentence", "phrase", "expected"),
    [
        # pii_dev (seed 17 of bench_erase_records): the parser hung the role on the removed firm, and the
        # whole record emptied
        (
            "Blažena spent a year at 5Psolutions as the assistant to Stephanie Kučera, and the following "
            "year at Biovia in Casbeno.",
            "5Psolutions",
            "Blažena spent a year as the assistant to Stephanie Kučera, and the following year at Biovia in "
            "Casbeno.",
        ),
        ("He worked at Google as a software engineer.", "Google", "He worked as a software engineer."),
    ],
)
def test_a_role_the_parser_hung_on_a_removed_object_stays_the_subjects(nlp, sentence, phrase, expected):
    assert _erase(nlp, sentence, [phrase]) == (expected, False)


def test_such_as_goes_with_the_noun_it_lists_for(nlp):
    assert "such as" not in _erase(nlp, "He visited cities such as Paris and Rome.", ["cities"])[0]


def test_an_opening_mark_glued_to_a_word_shifts_no_quotation(nlp):
    """pii_dev (seed 13 of bench_erase_records): the tokenizer kept the opening mark inside 'Answer:"Tube',
    so the closing mark after "Boogie" was paired with a mark further on, and the title lost its closing
    mark with what stood between."""
    new, _lost = _erase(nlp, 'Answer:"Tube Snake Boogie" by Rachel Holloway, go figure', ["Rachel Holloway"])
    assert new.startswith('Answer:"Tube Snake Boogie"')


def test_a_street_word_goes_with_the_name_it_was_part_of(nlp):
    """pii_dev held-out (seed 8, read cold): "The title refers to [Pachergasse 64] street in BÜSCHENDORF."
    read "The title refers to street in BÜSCHENDORF."; a prison keeps its word ("sent to [Alcatraz]
    prison")."""
    assert "street" not in _erase(nlp, "The title refers to Törneby 2 street in GUALÖV.", ["Törneby 2"])[0]
    assert _erase(nlp, "He was sent to Alcatraz prison in 1934.", ["Alcatraz"]) == (
        "He was sent to prison in 1934.",
        False,
    )


@pytest.mark.parametrize(
    ("sentence", "phrase", "gone"),
    [
        # the second review of session 28: an "as" that belongs to the noun goes with it
        ("He rose to the same rank as his father.", "the same rank", "as his father"),
        ("He is known for his role as John Brown in Dallas.", "his role", "as John Brown"),
        # the verb itself went: its role goes too
        (
            "Blažena spent a year at 5Psolutions as the assistant to Stephanie Kučera, and then moved to "
            "Oslo.",
            "spent a year at 5Psolutions",
            "assistant",
        ),
    ],
)
def test_a_role_goes_where_it_is_the_nouns_or_its_verb_went(nlp, sentence, phrase, gone):
    assert gone not in _erase(nlp, sentence, [phrase])[0]


def test_a_quotation_opened_after_a_bracket_is_kept_whole_or_not_at_all(nlp):
    new, _lost = _erase(
        nlp, 'He called the city ("one of the foremost citizens Chicago has ever had") in 1900.', ["Chicago"]
    )
    assert "foremost" not in new

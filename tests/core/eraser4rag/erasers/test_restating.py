"""Which public facts of a sentence are said again, about whom, and how names and places read."""

from core.eraser4rag.erasers.realise import realise_facts
from core.eraser4rag.erasers.repair import segments
from core.eraser4rag.erasers.restating import (
    is_about_subject,
    one_name_per_person,
    places_as_written,
    roles_without_their_of,
    verb_relation_said,
    with_article,
    with_time_qualifier,
)
from core.types import Triple
from tests.core.eraser4rag.erasers.erasers_fixtures import SEITZ


def test_a_sentence_said_again_states_only_facts_of_its_subject(nlp):
    timme = (
        "He was the 13th Secretary of State of Wisconsin (1882–1891) and a member of the Wisconsin State "
        "Senate, representing Racine and Kenosha counties."
    )
    segment = segments(nlp(timme))[0]
    assert not is_about_subject(segment, "State of Wisconsin", "Ernst Timme")  # a misread head
    assert is_about_subject(segment, "Ernst Timme", "Ernst Timme")
    feilden = (
        "The two Conservatives who had been elected, William Henry Hornby and Feilden's father Joseph "
        "Feilden, were unseated when Mr Justice Willes found that there had been widespread intimidation."
    )
    assert not is_about_subject(
        segments(nlp(feilden))[0], "Willes", "Henry Feilden (Conservative politician)"
    )


def test_a_verb_relation_is_said_again_only_where_its_verb_took_that_preposition(nlp):
    # PopQA dev passage "Christopher Grigson": the rewrite read "Christopher Grigson published in Grimstad."
    sent = segments(nlp("Grigson published 20 papers and died in Grimstad in 2020."))[0]
    assert not verb_relation_said(sent, Triple("Grigson", "publish_in", "Grimstad", "d1"))
    assert verb_relation_said(sent, Triple("Grigson", "die_in", "Grimstad", "d1"))
    assert verb_relation_said(sent, Triple("Grigson", "occupation", "writer", "d1"))


def test_a_surname_subject_is_the_title_person_not_a_relative(nlp):
    # PopQA dev passage "Søren Krarup": the realiser wrote "Bodil Marie Krarup was born Langballe."
    text = "Krarup was born in Grenaa, to vicar Vilhelm Krarup and Bodil Marie Krarup (née Langballe)."
    segment = segments(nlp(text))[0]
    assert not is_about_subject(segment, "Bodil Marie Krarup", "Søren Krarup")
    assert is_about_subject(segment, "Søren Krarup", "Søren Krarup")
    assert is_about_subject(segment, "Krarup", "Søren Krarup")


def test_he_is_the_title_person_not_a_parent_the_sentence_names(nlp):
    # PopQA held-back passage "Kristian Laake", rewritten by the learned tagger: the realiser wrote
    # "He was born in 1839 and died in 1903.", the mother's years (tested here on a dev-like sentence)
    text = "He was born in Ullensaker as a son of farmers Ole Berg (1835–1875) and Karen Moe (1839–1903)."
    segment = segments(nlp(text))[0]
    assert not is_about_subject(segment, "Karen Moe", "Kristian Laake")
    assert is_about_subject(segment, "Kristian Laake", "Kristian Laake")
    assert not is_about_subject(segment, "Karen Moe", "")  # no title: a person the sentence names is not "he"


def test_one_person_under_two_names_is_said_once():
    facts = [
        Triple("Ludwig Seitz", "date_of_birth", "11 June 1844", "d", (0, 0)),
        Triple("Ludovico Seitz", "country_of_citizenship", "Italian", "d", (0, 0)),
    ]
    merged = one_name_per_person(facts, SEITZ)
    assert realise_facts(merged) == "Ludovico Seitz was born on 11 June 1844 and was Italian."


def test_a_place_written_with_its_state_is_said_as_one_place():
    # PopQA dev (Morris S. Barnett): had been said again as "He lived in Milwaukee and Wisconsin."
    facts = [
        Triple("Barnett", "residence", "Milwaukee", "d", (0, 0)),
        Triple("Barnett", "residence", "Wisconsin", "d", (0, 0)),
    ]
    merged = places_as_written(facts, "In 1850 Barnett moved to Milwaukee, Wisconsin, where he lived.")
    assert realise_facts(merged) == "Barnett lived in Milwaukee, Wisconsin."


def test_occupations_written_as_a_list_stay_apart():
    facts = [
        Triple("Stephen James Merchant", "occupation", "director", "d", (0, 0)),
        Triple("Stephen James Merchant", "occupation", "presenter", "d", (0, 0)),
    ]
    merged = places_as_written(facts, "He is an English director, presenter and writer.")
    assert realise_facts(merged, past=False) == "Stephen James Merchant is a director and a presenter."


def test_a_role_given_with_its_of_phrase_is_not_said_alone():
    """PopQA dev (Masayoshi Esashi): "is an associate director." had been said again."""
    facts = [
        Triple("Masayoshi Esashi", "occupation", "associate director", "d", (0, 0)),
        Triple("Masayoshi Esashi", "occupation", "engineer", "d", (0, 0)),
    ]
    sentence = "He is an associate director of the Semiconductor Research Institute and an engineer."
    assert [f.tail for f in roles_without_their_of(facts, sentence)] == ["engineer"]


def test_a_role_said_again_keeps_the_word_that_dated_it():
    """PopQA dev (Hardy McLain): said again from its public facts, "an American retired hedge fund
    manager" had become "is a hedge fund manager"."""
    sentence = "Bruce Hardy McLain (born September 1952) is an American retired hedge fund manager."
    role = Triple("Bruce Hardy McLain", "occupation", "hedge fund manager", "d")
    assert with_time_qualifier(sentence, role).tail == "retired hedge fund manager"
    place = Triple("Bruce Hardy McLain", "residence", "hedge fund manager", "d")
    assert with_time_qualifier(sentence, place).tail == "hedge fund manager"
    assert with_time_qualifier("He is a hedge fund manager.", role).tail == "hedge fund manager"


def test_an_approximate_date_is_not_said_again_as_exact():
    """Round 18's reader (Arcangelo Guglielmelli): "(c. 1650 – 1723)" had been said again as "was born in
    1650", an exact year."""
    from core.eraser4rag.erasers.restating import said_as_approximate
    from core.types import Triple

    sentence = "Arcangelo Guglielmelli (c. 1650 – 1723) was an Italian painter."
    born = Triple("Arcangelo Guglielmelli", "date_of_birth", "1650", "d", (0, len(sentence)))
    died = Triple("Arcangelo Guglielmelli", "date_of_death", "1723", "d", (0, len(sentence)))
    assert said_as_approximate(sentence, born) and not said_as_approximate(sentence, died)


def test_a_relative_named_in_full_outside_the_subject_is_not_the_subject(nlp):
    # PopQA dev passage "John Barnes (Australian politician)": the father shares the son's first name
    # and surname, and the realiser wrote "John Thomas Barnes was a drover and ... emigrated from Somerset
    # and Mary."
    text = (
        "Barnes was born at Hamilton, South Australia, the son of John Thomas Barnes, a drover who had "
        "emigrated from Somerset, England."
    )
    segment = segments(nlp(text))[0]
    assert not is_about_subject(segment, "John Thomas Barnes", "John Barnes (Australian politician)")
    assert is_about_subject(segment, "John Barnes", "John Barnes (Australian politician)")


def test_a_garbled_head_is_said_as_the_sentence_named_it(nlp):
    """Round 19's reader (Selema Masekela): the title glued to the name gave the head
    'Selema Masekela Selema Mabena "Sal" Masekela', said again whole in "... was born in Los Angeles."."""
    from core.eraser4rag.erasers.restating import named_as_the_sentence_did

    segment = segments(nlp("Masekela was born in Los Angeles, the son of Hugh Masekela."))[0]
    garbled = 'Selema Masekela Selema Mabena "Sal" Masekela'
    facts = [Triple(garbled, "place_of_birth", "Los Angeles", "d", (0, 10))]
    assert [f.head for f in named_as_the_sentence_did(facts, segment)] == ["Masekela"]
    plain = [Triple("Annie A. M. Cuyt", "place_of_birth", "Antwerp", "d", (0, 10))]
    segment = segments(nlp("Annie M. Cuyt was born in Antwerp."))[0]
    assert [f.head for f in named_as_the_sentence_did(plain, segment)] == ["Annie A. M. Cuyt"]


def test_a_role_said_with_for_is_not_said_again_alone():
    """Round 20's reader (John Barnes, judge): "He was a general counsel." from "general counsel for the
    Northwestern Mutual Life Insurance Company"."""
    sentence = "He worked as general counsel for the Northwestern Mutual Life Insurance Company from 1916."
    fact = Triple("John Barnes", "occupation", "general counsel", "b", (0, len(sentence)))
    assert roles_without_their_of([fact], sentence) == []


def test_a_tail_whose_possessor_the_triple_left_out_takes_it_back():
    # round 25's reader (Arne Eidsmo): "He served in Cabinet." said again from (serve_in, Cabinet); round
    # 29's: "He served in the Cabinet." said which cabinet to nobody
    text = (
        "He also served as State Secretary in the Ministry of Fisheries from 1989 to 1990, in Syse's Cabinet."
    )
    fact = with_article(text, Triple("Arne Eidsmo", "serve_in", "Cabinet", "d"))
    assert realise_facts([fact]) == "Arne Eidsmo served in Syse's Cabinet."
    lower = text.replace("Syse's", "his party's")
    assert with_article(lower, Triple("Arne Eidsmo", "serve_in", "Cabinet", "d")).tail == "the Cabinet"
    king = text.replace("Syse's", "the King's")
    assert with_article(king, Triple("Arne Eidsmo", "serve_in", "Cabinet", "d")).tail == "the King's Cabinet"
    irish = text.replace("Syse's", "O'Brien's")
    assert with_article(irish, Triple("Arne Eidsmo", "serve_in", "Cabinet", "d")).tail == "the Cabinet"
    assert with_article(text, Triple("Arne Eidsmo", "serve_in", "Ministry of Fisheries", "d")).tail == (
        "the Ministry of Fisheries"
    )


def test_a_contraction_is_no_possessor():
    text = "He's Mayor of Springfield since 2001."
    assert with_article(text, Triple("Ann Lee", "serve_as", "Mayor", "d")).tail == "Mayor"


def test_a_role_verb_is_not_said_again_without_its_role(nlp):
    # PopQA dev (John Wallach), round 31's reader: "He served for Hearst newspapers." once his posts went
    sent = segments(nlp("He served as foreign editor for Hearst newspapers for nearly 30 years."))[0]
    assert not verb_relation_said(sent, Triple("John Wallach", "serve_for", "Hearst newspapers", "d1"))
    assert verb_relation_said(sent, Triple("John Wallach", "serve_for", "nearly 30 years", "d1"))
    in_cabinet = segments(nlp("He also served as State Secretary in 1989, in Syse's Cabinet."))[0]
    assert verb_relation_said(in_cabinet, Triple("Arne Eidsmo", "serve_in", "Cabinet", "d1"))


def test_a_public_tail_said_only_as_the_end_of_a_private_one_is_not_said_again(nlp):
    """Round 34's reader (Olav Eikeland): the private "working life researcher" went and the realiser said
    "is a researcher" from its last word, beside the kept "He was a researcher." (a private "Italian" before
    a public "violinist" is another matter: that occupation stays sayable)."""
    from core.eraser4rag.erasers.restating import stated_in

    text = "Olav Eikeland (born 10 October 1955) is a Norwegian philosopher and working life researcher."
    doc = nlp(text)
    sent = next(iter(doc.sents))
    researcher = Triple("Olav Eikeland", "occupation", "researcher", "a", (0, len(text)))
    start = text.index("working")
    removed = {t.i for t in doc if start <= t.idx}
    assert stated_in(doc, sent, researcher) and not stated_in(doc, sent, researcher, removed)
    corelli = "Arcangelo Corelli was an Italian violinist."
    doc = nlp(corelli)
    violinist = Triple("Arcangelo Corelli", "occupation", "violinist", "a", (0, len(corelli)))
    removed = {t.i for t in doc if t.text in {"Italian", "violinist", "an"}}
    assert stated_in(doc, next(iter(doc.sents)), violinist, removed)

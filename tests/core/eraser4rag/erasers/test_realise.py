"""Public facts said again from templates."""

from core.eraser4rag.erasers.fluency import broken_in_rewrite
from core.eraser4rag.erasers.realise import predicate, realise_facts
from core.types import Triple


def test_the_realiser_says_public_facts_of_one_head_in_one_sentence():
    facts = [
        Triple("Derek John Mulvaney", "date_of_birth", "26 October 1925", "d", (0, 0)),
        Triple("Derek John Mulvaney", "date_of_death", "21 September 2016", "d", (0, 0)),
        Triple("Derek John Mulvaney", "occupation", "archaeologist", "d", (0, 0)),
    ]
    assert realise_facts(facts) == (
        "Derek John Mulvaney was born on 26 October 1925, was an archaeologist and died on 21 September 2016."
    )


def test_the_realiser_says_nothing_it_has_no_template_for():
    assert predicate("artist_from", "Tortona") == ""
    assert predicate("move_to", "Paris") == "moved to Paris"
    assert predicate("begin_as", "apprentice") == ""  # a verb's relation reads only with a named tail
    assert predicate("date_of_birth", "1969") == "was born in 1969"
    assert realise_facts([Triple("X", "artist_from", "Tortona", "d", (0, 0))]) == ""


def test_the_realiser_says_one_relation_once_and_a_birth_in_one_phrase():
    merchant = [
        Triple("Stephen James Merchant", "occupation", tail, "d", (0, 0))
        for tail in ("director", "presenter", "writer")
    ]
    assert (
        realise_facts(merchant, past=False)
        == "Stephen James Merchant is a director, a presenter and a writer."
    )
    mcdermott = [
        Triple("Dylan McDermott", "birth_name", "Mark Anthony McDermott", "d", (0, 0)),
        Triple("Dylan McDermott", "date_of_birth", "October 26, 1961", "d", (0, 0)),
    ]
    assert realise_facts(mcdermott) == "Dylan McDermott was born Mark Anthony McDermott on October 26, 1961."


def test_the_realiser_leaves_out_a_tail_that_reads_only_where_it_was_written():
    facts = [
        Triple("John Challis", "date_of_death", "1974", "d1"),
        Triple("John Challis", "occupation", "only such maker", "d1"),
    ]
    assert realise_facts(facts) == "John Challis died in 1974."


def test_an_occupation_named_with_a_demonym_gets_its_article():
    assert predicate("occupation", "American football player") == "was an American football player"
    # PopQA dev (Richard Harris): "earned Bachelor of Medicine" had been said again
    assert predicate("academic_degree", "Bachelor of Arts") == "earned a Bachelor of Arts degree"
    assert predicate("academic_degree", "master's degree") == "earned a master's degree"


def test_a_date_without_its_day_is_said_with_in():
    """PopQA dev (Arne Eidsmo): "died on October 2011" had been said again."""
    assert predicate("date_of_death", "October 2011") == "died in October 2011"
    assert predicate("date_of_death", "16 October 2011") == "died on 16 October 2011"
    assert predicate("date_of_birth", "October 16, 1941") == "was born on October 16, 1941"


def test_a_verb_relation_is_said_only_of_named_tails():
    """PopQA dev (Richard Butson): "Richard Butson settled in Hamilton and 1953." had been said again."""
    facts = [
        Triple("Richard Butson", "settle_in", "Hamilton", "d1"),
        Triple("Richard Butson", "settle_in", "1953", "d1"),
    ]
    assert realise_facts(facts) == "Richard Butson settled in Hamilton."


def test_a_verb_that_needs_its_object_is_not_said_without_it():
    """PopQA dev (Richard Butson): "joined [the Canadian Militia] as Medical Officer" lost its object."""
    assert predicate("join_as", "Medical Officer") == ""
    assert predicate("spend_at", "Bramall Lane") == ""
    assert predicate("move_to", "Paris") == "moved to Paris"


def test_a_relation_named_from_a_passive_is_said_in_the_passive():
    assert predicate("elect_to", "Senate") == "was elected to Senate"
    assert predicate("appoint_as", "Bishop of Bath", past=False) == "is appointed as Bishop of Bath"


def test_what_a_list_page_says_of_a_name_is_not_said_of_a_person():
    """PopQA dev (Hutchings), round 13's reader: "... was a mathematics prodigy and a surname"."""
    facts = [
        Triple("William S. Hutchings", "occupation", "mathematics prodigy", "d1"),
        Triple("William S. Hutchings", "occupation", "surname", "d1"),
    ]
    assert realise_facts(facts) == "William S. Hutchings was a mathematics prodigy."


def test_what_a_person_was_comes_before_their_death():
    """PopQA dev (John Challis), round 15's reader: "John Challis died in 1974 and was American." was odd."""
    facts = [
        Triple("John Challis", "date_of_death", "1974", "d1"),
        Triple("John Challis", "country_of_citizenship", "American", "d1"),
    ]
    assert realise_facts(facts) == "John Challis was American and died in 1974."


def test_a_demonym_is_said_with_the_occupation():
    """PopQA dev (William Thomas Mulvany): "was Irish, was an entrepreneur, was born ..." (session 13's first
    reordering) read as a list and the checker flagged "entrepreneur, was"."""
    facts = [
        Triple("William Thomas Mulvany", "date_of_death", "30 October 1885", "d1"),
        Triple("William Thomas Mulvany", "country_of_citizenship", "Irish", "d1"),
        Triple("William Thomas Mulvany", "occupation", "entrepreneur", "d1"),
        Triple("William Thomas Mulvany", "place_of_birth", "Dublin", "d1"),
    ]
    assert realise_facts(facts) == (
        "William Thomas Mulvany was born in Dublin, was an Irish entrepreneur and died on 30 October 1885."
    )
    assert not broken_in_rewrite("", realise_facts(facts))


def test_what_a_person_was_is_said_with_one_was():
    """PopQA dev (John Barnes, Australian politician): "was a drover, was married to Mary" was flagged by the
    checker (a comma before "was") in session 13's run."""
    facts = [
        Triple("John Thomas Barnes", "occupation", "drover", "d1"),
        Triple("John Thomas Barnes", "spouse", "Mary", "d1"),
    ]
    assert realise_facts(facts) == "John Thomas Barnes was a drover and married to Mary."
    assert not broken_in_rewrite("", realise_facts(facts))


def test_a_common_award_gets_its_article_and_a_named_one_none():
    """PopQA dev (Andrea Bocelli): "Andrea Bocelli received gold medal." had lost its article."""
    medal = Triple("Andrea Bocelli", "award_received", "gold medal", "d", (0, 1))
    assert realise_facts([medal]) == "Andrea Bocelli received a gold medal."
    named = Triple("Andrea Bocelli", "award_received", "Padma Shri", "d", (0, 1))
    assert realise_facts([named]) == "Andrea Bocelli received Padma Shri."

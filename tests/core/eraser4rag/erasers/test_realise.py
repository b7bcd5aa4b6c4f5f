"""Public facts said again from templates."""

from core.eraser4rag.erasers.realise import predicate, realise_facts
from core.types import Triple


def test_the_realiser_says_public_facts_of_one_head_in_one_sentence():
    facts = [
        Triple("Derek John Mulvaney", "date_of_birth", "26 October 1925", "d", (0, 0)),
        Triple("Derek John Mulvaney", "date_of_death", "21 September 2016", "d", (0, 0)),
        Triple("Derek John Mulvaney", "occupation", "archaeologist", "d", (0, 0)),
    ]
    assert realise_facts(facts) == (
        "Derek John Mulvaney was born on 26 October 1925, died on 21 September 2016 and was an archaeologist."
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

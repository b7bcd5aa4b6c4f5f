from core.extract.spacy_rules.personal.owners import (
    Owners,
    Person,
    clause_bounds,
    find_subject,
    record_node,
    speaker_turns,
)


def persons_in(text: str, *names: str) -> list[Person]:
    found = []
    for name in names:
        start = text.index(name)
        found.append(Person(start, start + len(name), name))
    return sorted(found, key=lambda p: p.start)


def test_the_named_person_of_the_clause_owns_a_value_after_the_name():
    text = "Anna Berg lives in Oslo. Her brother Tom Berg can be reached at 555-0100."
    owners = Owners(text, "record d", persons_in(text, "Anna Berg", "Tom Berg"))
    assert owners.owner_at(text.index("Oslo")) == "Anna Berg"
    assert owners.owner_at(text.index("555")) == "Tom Berg"


def test_first_person_goes_to_the_subject_or_the_record_never_to_a_named_stranger():
    text = "Ask Anna Berg to call me at 555-0100."
    persons = persons_in(text, "Anna Berg")
    assert Owners(text, "record d", persons).owner_at(text.index("555")) == "record d"
    assert Owners(text, "record d", persons, subject="Kim Lee").owner_at(text.index("555")) == "Kim Lee"


def test_a_pronoun_takes_the_only_earlier_person_else_the_record():
    text = "Anna Berg called. She was born on 1/2/1980."
    assert Owners(text, "record d", persons_in(text, "Anna Berg")).owner_at(text.index("1/2")) == "Anna Berg"
    two = "Anna Berg met Tom Lee. She was born on 1/2/1980."
    owners = Owners(two, "record d", persons_in(two, "Anna Berg", "Tom Lee"))
    assert owners.owner_at(two.index("1/2")) == "record d"


def test_with_nobody_named_the_record_owns_the_value():
    text = "She was born on 12/15/1995."
    assert Owners(text, record_node("pii-7")).owner_at(text.index("12/")) == "record pii-7"
    assert record_node("doc-1", "staff_0012") == "record staff_0012"


def test_subject_from_introduction_first_line_and_signature():
    text = "Hello, this is Dr. Rodney Radolič. Who are you?"
    assert find_subject(text, None, persons_in(text, "Rodney Radolič"), None) == "Rodney Radolič"
    letter = "Anna Berg\n12 Main Street\nSpringfield"
    assert find_subject(letter, None, persons_in(letter, "Anna Berg"), None) == "Anna Berg"
    mail = "Please update my phone.\n\nKind regards,\nTom Lee\nFinance"
    assert find_subject(mail, None, persons_in(mail, "Tom Lee"), None) == "Tom Lee"


def test_no_subject_is_guessed():
    text = "I am in Warszawa for a business trip"
    assert find_subject(text, None, persons_in(text, "Warszawa"), None) is None
    assert find_subject("Ask Anna Berg.", None, persons_in("Ask Anna Berg.", "Anna Berg"), None) is None


def test_clause_bounds_stop_at_sentence_ends_and_lines():
    text = "One. Two three\nfour"
    assert clause_bounds(text, text.index("three")) == (5, 14)


def test_a_pronoun_after_a_second_name_goes_to_the_clauses_subject():
    text = "Daniel had given Signe his address: 21 Baldock Street"
    owners = Owners(text, "record d", persons_in(text, "Daniel", "Signe"))
    assert owners.owner_at(text.index("21")) == "Daniel"


def test_a_first_line_with_a_courtesy_title_or_a_degree_names_the_subject():
    for text, name in (("Ms. Alicia Laaksonen\nThink Computer Corporation", "Alicia Laaksonen"),
                       ("Terry Cardoso PhD\n\n65 Bodbysund 61", "Terry Cardoso")):  # fmt: skip
        assert find_subject(text, None, persons_in(text, name), None) == name


def test_a_first_name_beside_the_full_name_owns_as_the_full_name() -> None:
    """The sample HR record gave (Tomas, residence, 14 Birch Lane) beside (Tomas Reyl, ...): a second
    node that joined the record's values through the graph and made a private address "inferable"."""
    from core.extract.spacy_rules.personal.owners import Owners, Person

    text = "Tomas Reyl lives at 14 Birch Lane. Tomas lives at 14 Birch Lane."
    owners = Owners(text, "record hr", [Person(0, 10, "Tomas Reyl"), Person(35, 40, "Tomas")])
    assert owners.owner_at(47) == "Tomas Reyl"
    assert owners.fullest_name("Elin") == "Elin"
    assert owners.fullest_name("Reyl") == "Reyl"  # a bare surname may be a relative's: never joined


def test_a_transcripts_speakers_are_persons_and_the_i_of_their_turns():
    # pii_dev: 'Szebasztián: \"Who are you?\"\nMary:\"I\'m Russell\'s daughter\".'
    text = 'Szebasztián: \\"Who are you?\\"\nMary:\\"I\\\'m Russell\\\'s daughter\\".'
    assert [speaker.name for _, _, speaker in speaker_turns(text)] == ["Szebasztián", "Mary"]
    chat = "Anna: I moved here from Haiti.\nBen: my phone is 555-0100"
    owners = Owners(chat, "record d", [], None, speaker_turns(chat))
    assert owners.owner_at(chat.index("Haiti")) == "Anna"
    assert owners.owner_at(chat.index("555")) == "Ben"
    # roles, subject keys and form fields are no speakers
    assert speaker_turns("Agent: How can I help?\nCustomer: my card is lost") == []
    assert speaker_turns("Name: Anna Berg\nManager: Pieter de Vries") == []

from core.extract.spacy_rules.personal.sensitive import phrase_after, sensitive_attributes


def found(text: str, in_record: bool = True) -> set[tuple[str, str]]:
    return {(item.relation, item.value) for item in sensitive_attributes(text, in_record)}


def test_health_facts_with_their_cues():
    text = "He was diagnosed with type 2 diabetes in 2019 and is allergic to penicillin."
    assert found(text) == {("diagnosis", "type 2 diabetes"), ("allergy", "penicillin")}
    assert ("medication", "metformin 500 mg") in found("She is taking metformin 500 mg daily.")
    assert ("disability", "wheelchair user") in found("Tom is a wheelchair user.")


def test_money_criminal_beliefs_sexuality_and_ethnicity():
    assert ("salary", "$85,000") in found("Her annual salary is $85,000.")
    assert ("debt", "£2,300") in found("He still owes £2,300 on the loan.")
    assert ("convicted_of", "burglary") in found("He was convicted of burglary in 2015.")
    assert ("religion", "Muslim") in found("She is Muslim.")
    assert ("sexual_orientation", "gay") in found("He is gay.")
    assert ("ethnicity", "Irish") in found("She is of Irish descent.")
    assert ("political_party", "Green Party") in found("He is a member of the Green Party.")
    assert ("political_party", "Liberal Party") in found("He joined the Liberal Party as well.")
    assert ("ethnicity", "Pakistani") in found("She is of Pakistani origin she grew up in Oslo.")


def test_listed_terms_count_only_in_personal_records():
    assert ("medical_condition", "asthma") in found("Patient has asthma.")
    assert found("The cancer research institute opened in 1990.", in_record=False) == set()


def test_nothing_in_ordinary_text():
    assert found("The weather in Oslo was fine and the train left on time.") == set()
    assert found("Thai food is great; she is Asian-food mad.") == set()


def test_a_phrase_stops_at_punctuation_and_clause_words():
    text = "suffers from chronic migraines, which"
    start = text.index("chronic")
    assert text[slice(*phrase_after(text, start))] == "migraines"

"""Proper nouns no recogniser typed become nodes of untitled records (issue 19), on sentences of the PII
set's development part, through the real parser and the real extractor."""

from core.extract.spacy_rules.personal.proper_nouns import proper_noun_runs, unrecognised_names
from core.model_loading import get_spacy


def names(text: str, taken: list[tuple[int, int]] = ()) -> list[str]:
    doc = get_spacy()(text)
    return [text[run.start : run.end] for run in unrecognised_names(text, proper_noun_runs(doc), list(taken))]


def test_rare_names_firms_and_places_are_kept_ordinary_capitalised_words_are_not():
    found = names("Júlia spent a year at Green Group, and the following year at Optigov in Kwaxuma.")
    assert "Optigov" in found and "Kwaxuma" in found
    assert names("Excuse me, Sir bot, but I really don't like this tone") == []
    assert names("He was President of the Society and holds a Bachelor of Arts.") == []
    assert not any("Olympics" in name for name in names("The Summer Olympics were held there."))  # an event


def test_a_run_under_a_detection_or_a_form_key_is_left_to_it():
    text = "Name: Allen Akhtakhanov"
    assert names(text, [(6, len(text))]) == []


def test_a_name_the_recogniser_missed_owns_the_values_of_its_clause(extractor):
    text = "Helen Berg\nNurse\n12 Calle Mayor 4\n\nDear Sir,\nLukas moved here from Kwaxuma last year."
    found = {(t.head, t.relation, t.tail) for t in extractor.extract("r7", text)}
    assert ("Lukas", "place_of_origin", "Kwaxuma") in found  # not the letter's subject, Helen Berg


def test_an_untitled_record_mentions_the_names_the_recogniser_missed(extractor):
    text = "Christian had given Lukas his address: 15 Via Carlo Cattaneo 130, Burgos"
    tails = {(t.head, t.relation, t.tail) for t in extractor.extract("r5", text)}
    assert ("record r5", "mentions", "Lukas") in tails
    titled = extractor.extract("r6", text, title="Lukas (footballer)")  # an encyclopedia's passage
    assert not any(t.relation == "mentions" and t.tail == "Lukas" for t in titled)

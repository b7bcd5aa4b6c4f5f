from core.aback.pii import Detection
from core.extract.spacy_rules.personal.record_kind import (
    has_article_title,
    in_record_detections,
    speaks_personally,
)


def test_first_person_greetings_and_forms_speak_personally():
    assert speaks_personally("I lost my card.")
    assert speaks_personally("Dear Sir, the invoice is attached.")
    assert speaks_personally("Name: Anna Berg\nPhone: 555 0100")
    assert speaks_personally("Employee: Rahul Verma\nRating: meets expectations")
    assert speaks_personally("She was born on 12/15/1995. Her maiden name is Cortés")


def test_third_person_prose_and_quoted_speech_do_not():
    assert not speaks_personally("Edwin Ellis (1841-1895) was an English musician. He was born in London.")
    assert not speaks_personally('Ellis said "I will return" in 1890.')


def detections(text: str, *pieces: tuple[str, str]) -> list[Detection]:
    found = []
    for kind, value in pieces:
        start = text.index(value)
        found.append(Detection(value, kind, start, start + len(value), 0.9, "pattern"))
    return found


def test_identifiers_and_stated_addresses_are_evidence_of_a_record():
    text = "Call Anna on 555 0100."
    assert in_record_detections(text, detections(text, ("PHONE_NUMBER", "555 0100")))
    text = "Robert Beverdam lives at 38 Curas 88, Villafranca"
    assert in_record_detections(text, detections(text, ("ADDRESS", "38 Curas 88")))
    text = "Aaron Hébert\n98 P.O. Box 101\n Suite 242"
    assert in_record_detections(text, detections(text, ("ADDRESS", "98 P.O. Box 101\n Suite 242")))


def test_names_places_dates_and_loose_address_matches_are_not():
    text = "Dominick was born on December 7, 1981 in Wheat Ridge, Colorado, to Donald Dominick."
    pieces = (("PERSON", "Donald Dominick"), ("DATE_TIME", "December 7"), ("ADDRESS", "1981 in Wheat Ridge"))
    assert not in_record_detections(text, detections(text, *pieces))


def test_a_records_genre_or_a_label_line_shows_a_record():
    assert speaks_personally("Patient Aiko Tanaka, 34, reports migraines.")
    assert speaks_personally("Incident report: on 2 February the employee Viktor Novak slipped.")
    assert not speaks_personally("Tanaka was a patient of Freud in Vienna.")
    assert not speaks_personally("Honours\nCopa del Rey: 2009-10\nSupercopa de España: 2010")


def test_article_titles_and_file_names():
    assert has_article_title("Edwin Ellis (musician)")
    assert not has_article_title("")
    assert not has_article_title("staff_0231")
    assert not has_article_title("note.txt")
    assert not has_article_title("record-12")


def test_first_person_in_any_case_but_not_the_country():
    assert speaks_personally("My zip code is 40938")
    assert speaks_personally("i want to add julie as a beneficiary")
    assert not speaks_personally("He served in the US Army.")
    assert not speaks_personally("Born in Mo i Rana, Lahlum grew up in Rødøy.")
    assert not speaks_personally("In World War I he served in France; James I had granted the land.")
    long_passage = "He wrote many books about the sea. " * 20 + "He said: we sail at dawn."
    assert not speaks_personally(long_passage)  # one "we" in 150 words is a quotation
    assert not speaks_personally("She starred in My Fair Lady and Love You Forever.")


def test_an_address_block_is_short_lines_not_paragraphs():
    text = "Aaron Hébert\n\n98 P.O. Box 101\n Suite 242\n Qeqertarsuaq\n\n Greece 79976"
    block = text[text.index("98") :]
    assert in_record_detections(text, detections(text, ("ADDRESS", block)))
    prose = "It won at the 2016 Logie Awards.\n\nOn 26 May it returned."
    assert not in_record_detections(prose, detections(prose, ("ADDRESS", "2016 Logie Awards.\n\nOn 26")))


def test_a_chat_turn_with_a_personal_key_shows_a_record():
    assert speaks_personally("Bot: What's the name on the account? User: Garrett Himmel")

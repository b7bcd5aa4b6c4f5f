from core.extract.spacy_rules.personal.forms import crosses_fields, form_fields, key_spans, relation_of_key
from core.types import Triple

STAFF_FILE = (
    "Name: Anna Berg\n"
    "Department: Finance\n"
    "Manager: Pieter de Vries\n"
    "Home address: 12 Main Street\n"
    "Springfield, IL 62704\n"
    "Emergency contact: Tom Berg (husband)\n"
    "Car: Volvo XYZ\n"
    "Accident date: 3 May 2024\n"
)


def fields_of(text: str) -> dict[str, str]:
    return {field.key: field.value for field in form_fields(text)}


def test_each_key_value_line_is_a_field_with_the_value_on_its_line():
    fields = fields_of(STAFF_FILE)
    assert fields["Name"] == "Anna Berg"
    assert fields["Manager"] == "Pieter de Vries"
    assert fields["Car"] == "Volvo XYZ"  # never "Volvo XYZ\nAccident date"
    assert fields["Accident date"] == "3 May 2024"


def test_an_address_value_takes_the_lines_under_it_up_to_the_next_key():
    assert fields_of(STAFF_FILE)["Home address"] == "12 Main Street\nSpringfield, IL 62704"


def test_a_header_takes_the_block_under_it():
    text = "Address:\n5 Rue de la Paix\n75002 Paris\n\nPhone: 01 23 45 67 89"
    fields = fields_of(text)
    assert fields["Address"] == "5 Rue de la Paix\n75002 Paris"
    assert fields["Phone"] == "01 23 45 67 89"


def test_several_fields_on_one_line_are_split():
    fields = fields_of("Name: John Smith    DOB: 01/02/1980 | Sex: M")
    assert fields == {"Name": "John Smith", "DOB": "01/02/1980", "Sex": "M"}


def test_a_chat_turn_after_a_question_is_a_field_and_the_question_is_not():
    fields = fields_of("Bot: What's the name on the account? User: Sheila Dvořáčková")
    assert fields == {"User": "Sheila Dvořáčková"}


def test_prose_after_a_label_and_urls_are_no_fields():
    text = "Notes: the patient reported that the pain had moved to the left side over the last three days\n"
    text += "see https://example.org/x"
    assert form_fields(text) == []


def test_keys_map_to_relations():
    assert relation_of_key("DOB") == "date_of_birth"
    assert relation_of_key("Line manager") == "manager"
    assert relation_of_key("E-mail") == "email"
    assert relation_of_key("Favourite colour") == "favourite_colour"


def test_sentence_rule_triples_read_across_fields_are_recognised():
    keys = key_spans(STAFF_FILE)
    start = STAFF_FILE.index("Car")
    across = Triple("Volvo XYZ", "occupation", "XYZ\nAccident date", "d", (start, len(STAFF_FILE)))
    key_as_value = Triple("Main Street", "occupation", "Emergency contact", "d", (0, 5))
    fine = Triple("Anna Berg", "works_in", "Finance", "d", (0, 5))
    assert crosses_fields(across, STAFF_FILE, keys)
    assert crosses_fields(key_as_value, STAFF_FILE, keys)
    assert not crosses_fields(fine, STAFF_FILE, keys)
    assert not crosses_fields(across, "plain prose", key_spans("plain prose"))


def test_a_key_that_ends_in_a_known_key_takes_its_relation():
    assert relation_of_key("Here's my SSN") == "ssn"
    assert relation_of_key("for this card") == "card_number"

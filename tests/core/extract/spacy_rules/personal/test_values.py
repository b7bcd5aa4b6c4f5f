from core.extract.spacy_rules.personal.values import (
    age_values,
    labelled_phone_values,
    relation_for,
    zip_values,
)


def test_identifiers_are_read_in_any_document():
    assert relation_for("PHONE_NUMBER", "call ", in_record=False) == "phone"
    assert relation_for("CREDIT_CARD", "", in_record=False) == "card_number"
    assert relation_for("EMAIL_ADDRESS", "", in_record=True) == "email"


def test_names_places_and_dates_only_in_a_personal_record():
    assert relation_for("LOCATION", "", in_record=False) is None
    assert relation_for("LOCATION", "", in_record=True) == "location"
    assert relation_for("DATE_TIME", "She was born on ", in_record=True) == "date_of_birth"
    assert relation_for("DATE_TIME", "She was born on ", in_record=False) is None


def test_the_words_before_name_the_relation():
    assert relation_for("ADDRESS", "please send a new one to ", in_record=True) == "mailing_address"
    assert relation_for("LOCATION", "My friend lives in ", in_record=True) == "residence"
    assert relation_for("ORGANIZATION", "I work at ", in_record=True) == "employer"
    assert relation_for("PERSON", "Her maiden name is ", in_record=True) == "maiden_name"
    assert relation_for("LOCATION", "Her maiden name is ", in_record=False) == "maiden_name"
    assert relation_for("PERSON", "my husband ", in_record=True) == "spouse"
    assert relation_for("PERSON", "", in_record=True) is None


def test_from_names_where_one_comes_from_only_right_before_the_place():
    # pii_dev sentences: "Sisko is from Workhands"; "... invites songwriters from around the world to Texas"
    assert relation_for("LOCATION", "Sisko is from ", in_record=True) == "place_of_origin"
    assert relation_for("LOCATION", "i'm from the ", in_record=True) == "place_of_origin"
    # PopQA: "Amina Zoubir (born 1983) is a contemporary artist, filmmaker and performer from Algiers,
    # Algeria"
    before = "is a contemporary artist, filmmaker and performer from Algiers, "
    assert relation_for("LOCATION", before, in_record=False) is None  # encyclopedic: the sentence rules'
    assert relation_for("LOCATION", before, in_record=True) == "place_of_origin"
    before = "a 501(c)3 that invites songwriters from around the world to "
    assert relation_for("LOCATION", before, in_record=True) == "location"


def test_a_word_after_a_phone_number_names_the_line():
    assert relation_for("PHONE_NUMBER", "", in_record=True, after="-fax") == "fax"
    assert relation_for("PHONE_NUMBER", "", in_record=True, after=" (mobile)") == "mobile"


def test_stated_ages():
    text = "a 50 year old man, aged 34, 7 y/o"
    assert [text[s:e] for s, e in age_values(text)] == ["50", "34", "7"]


def test_stated_postal_codes():
    text = "My zip code is 40938, postcode: SW1A 1AA"
    assert [text[s:e] for s, e in zip_values(text)] == ["40938", "SW1A 1AA"]


def test_a_phone_number_followed_by_its_lines_name_is_a_value():
    text = "Chile 89825\n9885 1152-Office\\,001-755-329-4431-Fax\n455 6186 office\nRoom 12 office"
    assert [text[s:e] for s, e in labelled_phone_values(text)] == [
        "9885 1152",
        "001-755-329-4431",
        "455 6186",
    ]

from core.extract.spacy_rules.personal.categories import (
    CATEGORIES,
    CONTACT,
    FAMILY,
    HEALTH,
    OTHER,
    category_of,
)


def test_relations_have_their_category():
    assert category_of("phone") == CONTACT
    assert category_of("Diagnosis") == HEALTH
    assert category_of("spouse") == FAMILY
    assert category_of("favourite_colour") == OTHER


def test_every_category_is_listed_once():
    assert len(set(CATEGORIES)) == len(CATEGORIES)
    assert OTHER in CATEGORIES

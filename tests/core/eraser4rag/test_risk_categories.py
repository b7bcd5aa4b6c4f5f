"""Category values (occupation, nationality, degrees, dates) in Eq. 2 inference paths and in
the component statistic, on triples extracted from real PopQA dev sentences (Wikipedia,
CC BY-SA; see tests/data/EXTRACTION_GOLD.md)."""

from __future__ import annotations

import pytest

from core.eraser4rag.filters import FILTER_PUBLIC, PrivacyDefinition, define_privacy
from core.eraser4rag.graph import components_of, entity_components, inference_key
from core.eraser4rag.risk import inference_risks
from core.extract.spacy_rules import SpacyRuleExtractor
from core.extract.vocabulary import is_category_value
from core.types import Triple, TripleKey, triple_key

FEILDEN = (
    "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English Conservative Party politician."
)
BROWN = (
    "James McMillan Brown (5 April 1927 – 28 May 2020) was an Australian politician who served in both "
    "houses of the Parliament of Western Australia, representing the Labor Party."
)
FEILDEN_POLITICIAN = triple_key("Henry Master Feilden", "occupation", "politician")


@pytest.fixture(scope="module")
def extracted() -> list[Triple]:
    extractor = SpacyRuleExtractor()
    return extractor.extract_many(
        [("feilden", FEILDEN), ("brown", BROWN)],
        titles={"feilden": "Henry Feilden (Conservative politician)", "brown": "Jim Brown (politician)"},
    )


def definition_with_private(private: TripleKey, keys: set[TripleKey]) -> PrivacyDefinition:
    return PrivacyDefinition(
        private=frozenset({private}),
        public=frozenset(keys - {private}),
        excluded=frozenset(),
        moves=(),
        marked=frozenset({private}),
    )


def test_category_values_are_class_tails_demonyms_and_literals():
    assert is_category_value("occupation", "politician")
    assert is_category_value("academic_degree", "master's degree in economics")
    assert is_category_value("anything", "american")
    assert is_category_value("date_of_birth", "5 april 1927") and is_category_value("born_in", "1988")
    assert not is_category_value("located_in", "london")
    assert not is_category_value("member_of_political_party", "labor party")
    assert inference_key(FEILDEN_POLITICIAN)[2] != "politician"
    assert inference_key(triple_key("Acme", "located_in", "London")) == triple_key(
        "Acme", "located_in", "London"
    )


def test_two_people_sharing_an_occupation_are_not_one_component(extracted):
    keys = {t.key for t in extracted}
    assert FEILDEN_POLITICIAN in keys
    assert triple_key("James McMillan Brown", "occupation", "politician") in keys
    assert components_of(keys).connected("henry master feilden", "james mcmillan brown")  # the previous rule
    assert not entity_components(keys).connected("henry master feilden", "james mcmillan brown")


def test_no_inference_path_runs_through_a_shared_occupation(extracted):
    link = Triple("Henry Master Feilden", "met", "James McMillan Brown", "letters")
    triples = [*extracted, link]
    definition = definition_with_private(FEILDEN_POLITICIAN, {t.key for t in triples})
    # Feilden -met-> Brown -occupation-> politician says Brown is a politician, not Feilden
    before = inference_risks(triples, definition, through_categories=True)
    assert [risk.key for risk in before] == [FEILDEN_POLITICIAN]
    assert inference_risks(triples, definition) == []


def test_another_document_stating_the_same_value_of_the_same_head_is_still_a_risk(extracted):
    restated = Triple("Henry Master Feilden", "position_held", "politician", "hansard")
    triples = [*extracted, restated]
    definition = definition_with_private(FEILDEN_POLITICIAN, {t.key for t in triples})
    (risk,) = inference_risks(triples, definition)
    assert risk.key == FEILDEN_POLITICIAN and risk.doc_id == "feilden"
    assert risk.path == (restated.key,)  # reported with the original keys


def test_filter_b_keeps_a_private_occupation_that_only_another_person_shares(extracted):
    link = Triple("Henry Master Feilden", "met", "James McMillan Brown", "letters")
    keys = {t.key for t in [*extracted, link]}
    definition = define_privacy(keys, {FEILDEN_POLITICIAN})
    assert FEILDEN_POLITICIAN in definition.private  # Brown being a politician says nothing of Feilden


def test_filter_a_still_sees_the_same_head_restating_a_private_value(extracted):
    restated = triple_key("Henry Master Feilden", "position_held", "politician")
    keys = {t.key for t in extracted} | {restated}
    definition = define_privacy(keys, {FEILDEN_POLITICIAN})
    assert definition.state_of(FEILDEN_POLITICIAN) == "private"
    (move,) = definition.moves  # the public restatement leaves the public set: it states the private fact
    assert move.key == restated and move.filter == FILTER_PUBLIC
    assert move.path == (FEILDEN_POLITICIAN,)  # the path is given in the original keys

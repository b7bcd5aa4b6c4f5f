"""The spaCy rule extractor the extraction tests share (one per test module, as before the move)."""

from __future__ import annotations

import pytest

from core.extract.spacy_rules import SpacyRuleExtractor


@pytest.fixture(scope="module")
def extractor() -> SpacyRuleExtractor:
    return SpacyRuleExtractor()

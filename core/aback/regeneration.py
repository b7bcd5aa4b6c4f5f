"""What keeps ABack's regenerated text readable and free of other records' identifiers.

After the first backtrack, `RegenerationGuard` adjusts every next-token distribution:
- **indicator bans**: no indicator of the retrieved set (not only the leaked one) may be started or
  continued. A trie over the token sequences of every indicator variant (as written, lower-case,
  Title-case; with and without a leading space) gives, for the tokens generated so far, the tokens
  that would extend an indicator prefix; those get -inf. The first token of an indicator is banned
  only when it carries at least two letters (" Maria", " Spring"): banning a lone digit or "(" would
  forbid every number or bracket, and such indicators are still blocked from their second token on
  once the prefix holds three characters;
- **no repeated n-gram**: a token that would complete an n-gram (`ngram` tokens) already present in
  the answer is banned (the usual `no_repeat_ngram_size` rule), so the answer cannot loop;
- **repetition penalty** (CTRL, Keskar et al. 2019): logits of tokens already used in the regenerated
  span are divided by `penalty` (multiplied when negative).
`WordLoopGuard` (from the first token with `block_loops`) bans the start of a word that would make one
word n-gram occur a third time: token n-grams differ when punctuation or line breaks change the
tokens ("is: \nThe person" / "is: The person"), so the token rule alone let "document is the person"
come back three times; this rule is the degenerate-answer test's own (`metrics.is_degenerate`).
`refusal_cut` finds where an answer is cut when an indicator keeps leaking: at the end of the last
complete sentence before the leak, so the refusal sentence follows whole sentences, not fragments.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

_MIN_PREFIX_CHARS = 3
_SENTENCE_END = re.compile(r"[.!?](?:[\"')\]]*)\s|\n")


class IndicatorTrie:
    """Token-sequence prefixes of every indicator variant -> the tokens that would continue them."""

    def __init__(self, tokenizer: Any, indicators: Iterable[str]) -> None:
        self.first: set[int] = set()
        self.next: dict[tuple[int, ...], set[int]] = defaultdict(set)
        self.longest = 0
        for indicator in indicators:
            for ids in _variant_ids(tokenizer, indicator):
                self._add(tokenizer, ids)

    def _add(self, tokenizer: Any, ids: list[int]) -> None:
        if not ids:
            return
        if sum(char.isalpha() for char in tokenizer.decode(ids[:1])) >= 2:
            self.first.add(ids[0])
        for k in range(1, len(ids)):
            if len(tokenizer.decode(ids[:k]).strip()) >= _MIN_PREFIX_CHARS or k >= 2:
                self.next[tuple(ids[:k])].add(ids[k])
        self.longest = max(self.longest, len(ids))

    def bans(self, ids: Sequence[int]) -> set[int]:
        """Tokens that would start or extend an indicator after `ids`."""
        banned = set(self.first)
        for k in range(1, min(self.longest, len(ids) + 1)):
            banned |= self.next.get(tuple(ids[-k:]), set())
        return banned


def _variant_ids(tokenizer: Any, indicator: str) -> list[list[int]]:
    text = indicator.strip()
    variants = {text, text.lower(), text.title()}
    return [tokenizer.encode(prefix + variant, add_special_tokens=False)
            for variant in variants for prefix in ("", " ")]


def ngram_bans(ids: Sequence[int], n: int) -> set[int]:
    """Tokens that would complete an n-gram already in `ids` (n < 2: none)."""
    if n < 2 or len(ids) < n - 1:
        return set()
    tail = tuple(ids[len(ids) - (n - 1):])
    return {ids[i + n - 1] for i in range(len(ids) - n + 1) if tuple(ids[i:i + n - 1]) == tail}


def apply_repetition_penalty(logits: Any, token_ids: Iterable[int], penalty: float) -> None:
    """CTRL's penalty, in place: positive logits divided by `penalty`, negative ones multiplied."""
    ids = sorted(set(token_ids))
    if penalty == 1.0 or not ids:
        return
    values = logits[ids]
    logits[ids] = values.where(values < 0, values / penalty).where(values >= 0, values * penalty)


class RegenerationGuard:
    """Indicator bans + n-gram blocking + repetition penalty for the text generated after a backtrack."""

    def __init__(self, tokenizer: Any, indicators: Iterable[str], ngram: int = 4,
                 penalty: float = 1.3) -> None:
        self.trie = IndicatorTrie(tokenizer, indicators)
        self.ngram = ngram
        self.penalty = penalty

    def adjust(self, logits: Any, answer_ids: Sequence[int], regenerated_from: int) -> None:
        """Apply the guard in place to the logits of the next token after `answer_ids`."""
        apply_repetition_penalty(logits, answer_ids[regenerated_from:], self.penalty)
        banned = self.trie.bans(answer_ids) | ngram_bans(answer_ids, self.ngram)
        if banned:
            logits[sorted(banned)] = float("-inf")


_WORD = re.compile(r"\w+")
_FIRST_WORD = re.compile(r"\W*(\w+)")
_VOCAB_WORDS: dict[tuple[str, int], tuple[dict[str, set[int]], frozenset[int]]] = {}


def _vocabulary_words(tokenizer: Any) -> tuple[dict[str, set[int]], frozenset[int]]:
    """(first word of each token's text, case-folded -> token ids; ids of tokens that begin with a
    non-word character), computed once per tokenizer."""
    key = (getattr(tokenizer, "name_or_path", ""), len(tokenizer))
    if key not in _VOCAB_WORDS:
        texts = tokenizer.batch_decode([[token_id] for token_id in range(len(tokenizer))])
        by_word: dict[str, set[int]] = defaultdict(set)
        separated = set()
        for token_id, text in enumerate(texts):
            match = _FIRST_WORD.match(text.casefold())
            if match:
                by_word[match.group(1)].add(token_id)
            if text and not _WORD.match(text[0]):
                separated.add(token_id)
        _VOCAB_WORDS[key] = (dict(by_word), frozenset(separated))
    return _VOCAB_WORDS[key]


class WordLoopGuard:
    """Tokens that would start a word completing a word n-gram already present `times - 1` times."""

    def __init__(self, tokenizer: Any, n: int = 4, times: int = 3) -> None:
        self.by_word, self.separated = _vocabulary_words(tokenizer)
        self.n, self.times = n, times

    def banned_words(self, text: str) -> set[str]:
        words = _WORD.findall(text.casefold())
        if self.n < 2 or len(words) < self.n - 1:
            return set()
        context = tuple(words[len(words) - (self.n - 1):])
        counts: dict[str, int] = defaultdict(int)
        for i in range(len(words) - self.n + 1):
            if tuple(words[i:i + self.n - 1]) == context:
                counts[words[i + self.n - 1]] += 1
        return {word for word, count in counts.items() if count >= self.times - 1}

    def bans(self, text: str) -> set[int]:
        """Token ids that would begin one of `banned_words(text)` as the next word."""
        banned: set[int] = set()
        for word in self.banned_words(text):
            for k in range(1, len(word) + 1):
                banned |= self.by_word.get(word[:k], set())
        if text and _WORD.match(text[-1]):  # mid-word: only tokens that open a new word start one
            banned &= self.separated
        return banned


def refusal_cut(text: str, before: int) -> int:
    """Character offset just after the last complete sentence ending before `before` (0 if none)."""
    cut = 0
    for match in _SENTENCE_END.finditer(text, 0, before):
        cut = match.end()
    return cut

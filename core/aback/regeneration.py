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
  span are divided by `penalty` (multiplied when negative);
- **no invented specifics** (`InventedSpecificsGuard`, with `question`): no token may begin a number
  the question lacks (digits of the retrieved records are exactly what must not be re-stated; the
  trie already bans the true ones, this stops made-up ones such as "205 St. John Street"), nor begin
  or continue a capitalised word that is neither a common English word (`common_words`) nor a word
  of the question. If these bans would leave no token, they are dropped for that step.
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
from dataclasses import dataclass
from typing import Any

from core.aback.common_words import is_common, is_common_prefix, is_proper_noun

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
    return [
        tokenizer.encode(prefix + variant, add_special_tokens=False)
        for variant in variants
        for prefix in ("", " ")
    ]


def ngram_bans(ids: Sequence[int], n: int) -> set[int]:
    """Tokens that would complete an n-gram already in `ids` (n < 2: none)."""
    if n < 2 or len(ids) < n - 1:
        return set()
    tail = tuple(ids[len(ids) - (n - 1) :])
    return {ids[i + n - 1] for i in range(len(ids) - n + 1) if tuple(ids[i : i + n - 1]) == tail}


def apply_repetition_penalty(logits: Any, token_ids: Iterable[int], penalty: float) -> None:
    """CTRL's penalty, in place: positive logits divided by `penalty`, negative ones multiplied."""
    ids = sorted(set(token_ids))
    if penalty == 1.0 or not ids:
        return
    values = logits[ids]
    logits[ids] = values.where(values < 0, values / penalty).where(values >= 0, values * penalty)


class RegenerationGuard:
    """Indicator bans + n-gram blocking + repetition penalty (+ no invented specifics when `question`
    is given) for the text generated after a backtrack."""

    def __init__(
        self,
        tokenizer: Any,
        indicators: Iterable[str],
        ngram: int = 4,
        penalty: float = 1.3,
        question: str | None = None,
    ) -> None:
        self.trie = IndicatorTrie(tokenizer, indicators)
        self.ngram = ngram
        self.penalty = penalty
        self.tokenizer = tokenizer
        self.specifics = InventedSpecificsGuard(tokenizer, question) if question is not None else None

    def adjust(self, logits: Any, answer_ids: Sequence[int], regenerated_from: int) -> None:
        """Apply the guard in place to the logits of the next token after `answer_ids`."""
        apply_repetition_penalty(logits, answer_ids[regenerated_from:], self.penalty)
        banned = self.trie.bans(answer_ids) | ngram_bans(answer_ids, self.ngram)
        if banned:
            logits[sorted(banned)] = float("-inf")
        if self.specifics is not None:
            tail = self.tokenizer.decode(
                list(answer_ids[-_TAIL_TOKENS:]), skip_special_tokens=True, clean_up_tokenization_spaces=False
            )
            self.specifics.adjust(logits, tail)


_TAIL_TOKENS = 12  # tokens decoded to find the word or number in progress
_LETTERS = re.compile(r"[^\W\d_]+")
_LEAD = re.compile(r"^[\s\W_]+")
_DIGITS = re.compile(r"\d+")
_TRAILING_LETTERS = re.compile(r"[^\W\d_]+$")
_TRAILING_DIGITS = re.compile(r"\d+$")
_CONTINUATIONS_CHECKED = 32  # letter continuations of a capitalised word checked per step (by logit)


@dataclass(frozen=True)
class _CapitalToken:
    token_id: int
    piece: str  # the capitalised letters the token starts with, case-folded
    whole: bool  # a non-letter follows inside the token: the word ends there
    spaced: bool  # whitespace or punctuation comes first in the token, so it always begins a word


@dataclass(frozen=True)
class _SpecificsVocabulary:
    """Per tokenizer: the tokens the invented-specifics rule looks at, classified once."""

    capitals: tuple[_CapitalToken, ...]  # tokens starting a capitalised word that is not common
    continuations: tuple[tuple[int, str, bool], ...]  # (id, letters, whole) of tokens starting with a letter
    continuation_ids: Any  # LongTensor of the continuations' ids, same order
    numbers: tuple[tuple[int, bool, str, bool], ...]  # (id, spaced, leading digits, whole)


_SPECIFICS_VOCAB: dict[tuple[str, int], _SpecificsVocabulary] = {}


_WHOLE_WORD_LETTERS = 4  # a word-start token with this many letters is taken as a whole word


def _allowed_word(
    letters: str,
    whole: bool,
    extra: frozenset[str] = frozenset(),
    extra_prefixes: frozenset[str] = frozenset(),
) -> bool:
    """Whether a capitalised word beginning with `letters` (case-folded; complete when `whole`) may be
    written: a common word or a word of `extra`, or, while incomplete, the start of one that is not a
    proper noun itself (" John" begins "johnnycake" but is a name)."""
    if is_common(letters) or letters in extra:
        return True
    if whole:
        return False
    return letters in extra_prefixes or (is_common_prefix(letters) and not is_proper_noun(letters))


def _allowed_start(letters: str, whole: bool) -> bool:
    """`_allowed_word` for a token that begins a word: one of `_WHOLE_WORD_LETTERS` letters or more is
    judged as a whole word (BPE keeps frequent whole words as one token: " Rivera", " Asia")."""
    return _allowed_word(letters, whole or len(letters) >= _WHOLE_WORD_LETTERS)


def _specifics_vocabulary(tokenizer: Any) -> _SpecificsVocabulary:
    key = (getattr(tokenizer, "name_or_path", ""), len(tokenizer))
    if key not in _SPECIFICS_VOCAB:
        # torch (~5 s) loads only when a model runs
        import torch

        capitals, continuations, numbers = [], [], []
        for token_id, text in enumerate(_token_texts(tokenizer)):
            bare = _LEAD.sub("", text)
            spaced = bare != text  # whitespace or punctuation first: what follows begins a word
            letters, digits = _LETTERS.match(bare), _DIGITS.match(bare)
            if digits:
                numbers.append((token_id, spaced, digits.group(), digits.end() < len(bare)))
            if not letters:
                continue
            piece, whole = letters.group().casefold(), letters.end() < len(bare)
            if not spaced:
                continuations.append((token_id, piece, whole))
            if bare[0].isupper() and not _allowed_start(piece, whole):
                capitals.append(_CapitalToken(token_id, piece, whole, spaced))
        continuation_ids = torch.tensor(
            [token_id for token_id, _piece, _whole in continuations], dtype=torch.long
        )
        _SPECIFICS_VOCAB[key] = _SpecificsVocabulary(
            tuple(capitals), tuple(continuations), continuation_ids, tuple(numbers)
        )
    return _SPECIFICS_VOCAB[key]


class InventedSpecificsGuard:
    """Bans tokens that would begin a number or a capitalised name that `question` does not contain.

    Numbers: a digit token may only start or continue a digit run that is a prefix of one of the
    question's numbers (none in the question: no digit at all). Names: a token may not begin a
    capitalised word that is neither common nor a question word (at a word start: after whitespace,
    punctuation or at the start), and while a capitalised word is being written, a letter token may
    only continue it towards such a word (the `_CONTINUATIONS_CHECKED` most likely continuations are
    checked, the rest, improbable, banned). Lower-case text, punctuation and the words of the
    question are never touched, so the refusal sentence and generic wording stay possible. A
    word-start token of four or more letters that the tokenizer ends there (" Rivera", " Asia") must
    be a whole allowed word, not merely the start of one ("riverain", "asiatic"): such tokens are
    mostly whole words; shorter ones (" Cl") are word starts and are checked as they continue.
    """

    def __init__(self, tokenizer: Any, question: str) -> None:
        # torch (~5 s) loads only when a model runs
        import torch

        self.vocabulary = vocabulary = _specifics_vocabulary(tokenizer)
        self.question_numbers = tuple(dict.fromkeys(_DIGITS.findall(question)))
        self.question_words = frozenset(word.casefold() for word in _LETTERS.findall(question))
        self.question_prefixes = frozenset(
            word[:k] for word in self.question_words for k in range(1, len(word) + 1)
        )
        spaced, bare = set(), set()
        for token in vocabulary.capitals:
            if not self._question_allows(token.piece, token.whole):
                (spaced if token.spaced else bare).add(token.token_id)
        if not self.question_numbers:
            spaced |= {token_id for token_id, *_rest in vocabulary.numbers}
        self.always = torch.tensor(sorted(spaced), dtype=torch.long)
        self.at_word_start = torch.tensor(sorted(bare), dtype=torch.long)

    def _question_allows(self, letters: str, whole: bool) -> bool:
        return letters in self.question_words or (not whole and letters in self.question_prefixes)

    def bans(self, logits: Any, tail: str) -> Any:
        """Token ids (a LongTensor) banned after the text `tail` (the end of the answer so far)."""
        # torch (~5 s) loads only when a model runs
        import torch

        parts = [self.always]
        if not tail or not (tail[-1].isalnum() or tail[-1] == "_"):
            parts.append(self.at_word_start)
        else:
            word = _TRAILING_LETTERS.search(tail)
            if word and word.group()[0].isupper():
                letters = word.group().casefold()
                parts.append(self._continuation_bans(logits, letters))
        if self.question_numbers:
            parts.append(self._number_bans(tail))
        return torch.cat(parts)

    def adjust(self, logits: Any, tail: str) -> None:
        """Apply the bans in place, unless they would leave no token possible."""
        # torch (~5 s) loads only when a model runs
        import torch

        banned = self.bans(logits, tail)
        if banned.numel() == 0:
            return
        kept = logits.clone()
        kept[banned] = float("-inf")
        if not bool(torch.isinf(kept).all()):
            logits.copy_(kept)

    def _continuation_bans(self, logits: Any, word: str) -> Any:
        # torch (~5 s) loads only when a model runs
        import torch

        vocabulary = self.vocabulary
        candidates = logits[vocabulary.continuation_ids]
        top = torch.topk(candidates, min(_CONTINUATIONS_CHECKED, len(candidates))).indices.tolist()
        allowed = torch.zeros(len(candidates), dtype=torch.bool)
        for index in top:
            _token_id, piece, whole = vocabulary.continuations[index]
            letters = word + piece
            if _allowed_word(letters, whole, self.question_words, self.question_prefixes):
                allowed[index] = True
        return vocabulary.continuation_ids[~allowed]

    def _number_bans(self, tail: str) -> Any:
        # torch (~5 s) loads only when a model runs
        import torch

        running = _TRAILING_DIGITS.search(tail)
        banned = []
        for token_id, spaced, digits, whole in self.vocabulary.numbers:
            number = digits if spaced or not running else running.group() + digits
            fits = [known for known in self.question_numbers if known.startswith(number)]
            if not fits or (whole and number not in fits):
                banned.append(token_id)
        return torch.tensor(banned, dtype=torch.long)


_WORD = re.compile(r"\w+")
_FIRST_WORD = re.compile(r"\W*(\w+)")
_VOCAB_WORDS: dict[tuple[str, int], tuple[dict[str, set[int]], frozenset[int]]] = {}


_TOKEN_TEXTS: dict[tuple[str, int], list[str]] = {}


def _token_texts(tokenizer: Any) -> list[str]:
    """Each token's text decoded alone, computed once per tokenizer."""
    key = (getattr(tokenizer, "name_or_path", ""), len(tokenizer))
    if key not in _TOKEN_TEXTS:
        _TOKEN_TEXTS[key] = tokenizer.batch_decode([[token_id] for token_id in range(len(tokenizer))])
    return _TOKEN_TEXTS[key]


def _vocabulary_words(tokenizer: Any) -> tuple[dict[str, set[int]], frozenset[int]]:
    """(first word of each token's text, case-folded -> token ids; ids of tokens that begin with a
    non-word character), computed once per tokenizer."""
    key = (getattr(tokenizer, "name_or_path", ""), len(tokenizer))
    if key not in _VOCAB_WORDS:
        texts = _token_texts(tokenizer)
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
        context = tuple(words[len(words) - (self.n - 1) :])
        counts: dict[str, int] = defaultdict(int)
        for i in range(len(words) - self.n + 1):
            if tuple(words[i : i + self.n - 1]) == context:
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


class EchoGuard(WordLoopGuard):
    """Tokens that would start a word completing a word n-gram of `source` (the privacy instruction a
    backtrack adds to the prompt): a small model tends to copy the instruction into the answer."""

    def __init__(self, tokenizer: Any, source: str, n: int = 4) -> None:
        super().__init__(tokenizer, n, times=2)
        words = _WORD.findall(source.casefold())
        self.next_words: dict[tuple[str, ...], set[str]] = defaultdict(set)
        for i in range(len(words) - n + 1):
            self.next_words[tuple(words[i : i + n - 1])].add(words[i + n - 1])

    def banned_words(self, text: str) -> set[str]:
        words = _WORD.findall(text.casefold())
        if self.n < 2 or len(words) < self.n - 1:
            return set()
        return set(self.next_words.get(tuple(words[len(words) - (self.n - 1) :]), set()))


def echoed_ngram(text: str, source: str, n: int = 4) -> str | None:
    """The first word n-gram of `source` that `text` repeats (case-folded words), or None."""
    source_words = _WORD.findall(source.casefold())
    grams = {tuple(source_words[i : i + n]) for i in range(len(source_words) - n + 1)}
    words = _WORD.findall(text.casefold())
    for i in range(len(words) - n + 1):
        if tuple(words[i : i + n]) in grams:
            return " ".join(words[i : i + n])
    return None


def refusal_cut(text: str, before: int) -> int:
    """Character offset just after the last complete sentence ending before `before` (0 if none)."""
    cut = 0
    for match in _SENTENCE_END.finditer(text, 0, before):
        cut = match.end()
    return cut

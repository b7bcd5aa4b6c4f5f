"""Common English words: which capitalised words are ordinary words rather than names.

Used by the invented-specifics metric (`metrics.invented_specifics`) and by the guard that keeps
regenerated text from stating made-up names (`regeneration.InventedSpecificsGuard`). A capitalised
word is "common" when a dictionary lists it written in lower case:
- spaCy's English STOP_WORDS ("the", "i", "however", ...);
- Webster's Second International (1934, public domain; the `web2` list of the `english-words`
  package, MIT) and GCIDE's lower-case entries (same package), keeping only entries written in
  lower case. Proper nouns are listed capitalised there ("John", "Paris", "January"), so they are
  not common; names that are also ordinary words ("Rose", "Mark", "Smith") are, which is the
  known blind spot of any word-list rule.
`PROPER` holds the capitalised entries whose lower-case form is not common: a token such as
" John" is a prefix of a common word ("johnnycake") but, being a whole proper noun, is not allowed
as the start of one.
"""

from __future__ import annotations

import bisect
from functools import lru_cache


@lru_cache(maxsize=1)
def _lexicon() -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    # the word list and spaCy's stop words (~8 s) load when the lexicon is first used
    from english_words import get_english_words_set
    from spacy.lang.en.stop_words import STOP_WORDS

    entries = get_english_words_set(["web2", "gcide"], lower=False)
    common = {word for word in entries if word.islower()} | {word.casefold() for word in STOP_WORDS}
    proper = {word.casefold() for word in entries if word[:1].isupper()} - common
    return frozenset(common), frozenset(proper), tuple(sorted(common))


def common_words() -> frozenset[str]:
    return _lexicon()[0]


# The dictionaries list base forms: an inflected word is common when its base is ("visitors",
# "states", "walked", "meetings"); tried in order, the first suffix that leaves a common base wins.
_INFLECTIONS = (
    ("ies", "y"),
    ("es", ""),
    ("s", ""),
    ("ed", ""),
    ("ed", "e"),
    ("ing", ""),
    ("ing", "e"),
    ("ly", ""),
    ("er", ""),
    ("est", ""),
)


def is_common(word: str) -> bool:
    """Whether `word` (any case) is an ordinary English word or an inflection of one, not a name."""
    word = word.casefold()
    common = _lexicon()[0]
    if word in common:
        return True
    return any(
        word.endswith(suffix)
        and len(word) - len(suffix) >= 3
        and word[: len(word) - len(suffix)] + base in common
        for suffix, base in _INFLECTIONS
    )


def is_proper_noun(word: str) -> bool:
    """Whether the dictionaries list `word` only capitalised (a name, a month, a nationality)."""
    return word.casefold() in _lexicon()[1]


def is_common_prefix(piece: str) -> bool:
    """Whether some common word begins with `piece` (case-folded)."""
    words = _lexicon()[2]
    piece = piece.casefold()
    at = bisect.bisect_left(words, piece)
    return at < len(words) and words[at].startswith(piece)

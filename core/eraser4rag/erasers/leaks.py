"""Whether a rewrite still states a fact, by strings alone: fuzzy names, strict and partial leaks.

The grader must not be the eraser's own extractor, so this module reads only text. A name
or value is matched after normalising case, accents and punctuation; a proper name of five
letters or more may differ by one character edit ("Tomas Reyl" still names "Tomas Rey";
a common noun does not: "brewer" is not "brewery");
a multi-word name matches its words in any order within a short window (token set:
"Feilden, Henry Master"). A number never takes an edit: "1818" is not "1819".

A private fact of a passage is a *strict leak* when the passage (with its title, which a
RAG reader sees beside it) names the head, or a name variant of it, and the full tail.
It is a *partial leak* when it is not strict but part of the tail is still readable next
to the head: half or more of a multi-word tail's words left where the tail was, or a
date's month and year once its day went ("(11 March 1867 June 1903)").
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.types import normalize_entity

FUZZY_MIN_LETTERS = 5  # a name this long may differ by one edit
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOP_WORDS = frozenset(
    [
        "of",
        "the",
        "a",
        "an",
        "and",
        "in",
        "on",
        "at",
        "for",
        "to",
        "de",
        "von",
        "van",
        "la",
        "le",
        "du",
        "del",
        "da",
        "di",
    ]
)
MONTHS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
    ]
)
_YEAR = re.compile(r"^\d{3,4}$")


@dataclass(frozen=True)
class Token:
    word: str  # case-folded, accents removed
    start: int
    end: int


def fold(text: str) -> str:
    """Case-folded text without accents (NFKD, combining marks dropped)."""
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'"))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def tokens(text: str) -> list[Token]:
    """Words of `text` (letters and digits), folded, with their character spans in `text`.

    Folding is done per word so that spans index the original text.
    """
    found = []
    for match in _WORD.finditer(text):
        word = fold(match.group())
        for part in _WORD.findall(word):  # a ligature may fold into several words
            found.append(Token(part, match.start(), match.end()))
    return found


def words_of(entity: str) -> list[str]:
    """The folded words of an entity, without a leading article (`normalize_entity`)."""
    return [t.word for t in tokens(normalize_entity(entity))]


def content_words(words: Sequence[str]) -> list[str]:
    kept = [w for w in words if w not in _STOP_WORDS]
    return kept or list(words)


def within_one_edit(a: str, b: str) -> bool:
    """Levenshtein distance of at most one (substitution, insertion or deletion)."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :]
    return a[i:] == b[i + 1 :]


def _word_cost(wanted: str, seen: str) -> int | None:
    """0 for the same word, 1 for one edit of a word of letters, None otherwise."""
    if wanted == seen:
        return 0
    if (
        wanted.isalpha()
        and seen.isalpha()
        and min(len(wanted), len(seen)) >= 2
        and within_one_edit(wanted, seen)
    ):
        return 1
    return None


def _edit_budget(words: Sequence[str]) -> int:
    letters = sum(len(w) for w in words if w.isalpha())
    return 1 if letters >= FUZZY_MIN_LETTERS else 0


def _window_matches(wanted: Sequence[str], window: Sequence[str], budget: int) -> list[int] | None:
    """Indexes in `window` of a one-to-one match of every wanted word (total edits <= budget)."""
    used: list[int] = []
    spent = 0
    for word in wanted:
        best: tuple[int, int] | None = None
        for index, seen in enumerate(window):
            if index in used:
                continue
            cost = _word_cost(word, seen)
            if cost is not None and spent + cost <= budget and (best is None or cost < best[0]):
                best = (cost, index)
                if cost == 0:
                    break
        if best is None:
            return None
        spent += best[0]
        used.append(best[1])
    return used


def find_name(text_tokens: Sequence[Token], entity: str, fuzzy: bool = True) -> list[tuple[int, int]]:
    """Token ranges [start, end) where `entity` is named: in order, or as a token set nearby.

    `fuzzy=False` asks for the exact words (a common noun: "brewer" is not "brewery").
    """
    wanted = words_of(entity)
    if not wanted:
        return []
    return _find_words(tuple(t.word for t in text_tokens), tuple(wanted), fuzzy)


def only_inside_longer_names(
    text: str, text_tokens: Sequence[Token], entity: str, fuzzy: bool = True
) -> bool:
    """Whether every mention of `entity` is a part of a longer capitalised name ("American" in "American
    Civil War", "Vienna" in "University of Vienna"): such a name does not state the fact. Reported beside
    the strict leak, never instead of it (the cue misreads "an American Olympic athlete")."""
    found = find_name(text_tokens, entity, fuzzy)
    return bool(found) and all(_joined_to_a_name(text, text_tokens, start, end) for start, end in found)


def _joined_to_a_name(text: str, text_tokens: Sequence[Token], start: int, end: int) -> bool:
    return _capitalised_neighbour(text, text_tokens, end - 1, +1) or _capitalised_neighbour(
        text, text_tokens, start, -1
    )


def _capitalised_neighbour(text: str, text_tokens: Sequence[Token], index: int, step: int) -> bool:
    """A capitalised word next to token `index` (by a space or hyphen), or one "of"/"the" further on."""
    for _hop in range(2):
        neighbour = index + step
        if not 0 <= neighbour < len(text_tokens):
            return False
        left, right = sorted((text_tokens[index], text_tokens[neighbour]), key=lambda t: t.start)
        if text[left.end : right.start] not in {" ", "-"}:
            return False
        word = text[text_tokens[neighbour].start : text_tokens[neighbour].end]
        if word[:1].isupper():
            return True
        if text_tokens[neighbour].word not in {"of", "the", "de", "du", "di"}:
            return False
        index = neighbour
    return False


def is_proper_name(surface: str) -> bool:
    """Every content word starts with a capital letter or a digit ("Tomas Rey", "University of London")."""
    words = [w for w in _WORD.findall(surface) if fold(w) not in _STOP_WORDS]
    return bool(words) and all(w[0].isupper() or w[0].isdigit() for w in words)


def _find_words(words: tuple[str, ...], wanted: tuple[str, ...], fuzzy: bool = True) -> list[tuple[int, int]]:
    budget = _edit_budget(wanted) if fuzzy else 0
    size = len(wanted)
    # a single word matches one token; a multi-word name may spread over two extra tokens
    # ("Feilden, Henry Master" -> "henry master feilden"; "Henry M. Feilden" is a variant, not this)
    spread = 0 if size == 1 else 2
    found: list[tuple[int, int]] = []
    first = set(wanted)
    for start in range(len(words)):
        if _word_cost_any(words[start], first, budget) is None:
            continue
        for width in range(size, size + spread + 1):
            end = start + width
            if end > len(words):
                break
            picked = _window_matches(wanted, words[start:end], budget)
            if picked is not None and 0 in picked and (width - 1) in picked:
                found.append((start, end))
                break
    return found


def _word_cost_any(seen: str, wanted: set[str], budget: int) -> int | None:
    costs = [c for w in wanted if (c := _word_cost(w, seen)) is not None and c <= budget]
    return min(costs) if costs else None


def names(text: str, entity: str, fuzzy: bool = True) -> bool:
    return bool(find_name(tokens(text), entity, fuzzy))


def names_any(text_tokens: Sequence[Token], entities: Iterable[str], fuzzy: bool = True) -> bool:
    return any(find_name(text_tokens, entity, fuzzy) for entity in entities)


# ------------------------------------------------------------------------------ partial tails


def _date_parts(words: Sequence[str]) -> tuple[str, str] | None:
    """(month, year) of a day-month-year or month-day-year date's words, else None."""
    months = [w for w in words if w in MONTHS]
    years = [w for w in words if _YEAR.match(w)]
    days = [w for w in words if w.isdigit() and not _YEAR.match(w)]
    if len(months) == 1 and len(years) == 1 and days:
        return months[0], years[0]
    return None


def partial_tail(original: str, rewrite: str, tail: str, fuzzy: bool = True) -> bool:
    """Part of the tail readable where it was: half or more of its words, or a date's month and year.

    Only meaningful when the full tail is gone (check `names` first). The original's mentions
    of the tail are aligned with the rewrite word by word; the words that survive in place
    are what a reader still sees of the fact.
    """
    wanted = words_of(tail)
    if len(wanted) < 2:
        return False
    rewrite_tokens = tokens(rewrite)
    date = _date_parts(wanted)
    if date is not None:
        return _month_year_left(rewrite_tokens, *date)
    original_words = [t.word for t in tokens(original)]
    rewrite_words = [t.word for t in rewrite_tokens]
    mentions = _find_words(tuple(original_words), tuple(wanted), fuzzy)
    if not mentions:
        return False
    surviving = _surviving_indexes(original_words, rewrite_words)
    needed = len(content_words(wanted)) / 2
    for start, end in mentions:
        left = {
            original_words[i]
            for i in range(start, end)
            if i in surviving and original_words[i] not in _STOP_WORDS
        }
        if left and len(left) >= needed:
            return True
    return False


def _month_year_left(rewrite_tokens: Sequence[Token], month: str, year: str) -> bool:
    words = [t.word for t in rewrite_tokens]
    return any(word == month and year in words[index + 1 : index + 3] for index, word in enumerate(words))


def _surviving_indexes(original_words: Sequence[str], rewrite_words: Sequence[str]) -> set[int]:
    matcher = difflib.SequenceMatcher(None, original_words, rewrite_words, autojunk=False)
    kept: set[int] = set()
    for block in matcher.get_matching_blocks():
        kept.update(range(block.a, block.a + block.size))
    return kept


# ------------------------------------------------------------------------------ characters


def characters_kept(original: str, rewrite: str) -> int:
    """How many characters of `original` the rewrite keeps in order (longest matching blocks)."""
    if original == rewrite:
        return len(original)
    matcher = difflib.SequenceMatcher(None, original, rewrite, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks())

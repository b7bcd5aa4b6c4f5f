"""Facts of a creative work's description: "a 1917 American silent Western film".

The words before a work noun (film, novel, album, ...) state its publication year, its
country of origin, its genres and its kind: "a 1917 American silent Western film" gives
publication_date 1917, country_of_origin American, genre Western and instance_of "silent
film". Read off the words, not the parse; the word lists below are general (Wikidata's
common genres), not drawn from any one passage.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.extract.vocabulary import word_set

WORK_NOUNS = word_set(
    """film movie novel novella album single song ep mixtape soundtrack series miniseries sitcom
    serial programme program play musical opera operetta ballet book poem painting sculpture
    documentary game videogame comic manga anime telenovela anthology collection memoir biography
    symphony concerto sonata cantata oratorio"""
)
# Nouns that are a genre and a work at once: "a 1985 thriller", "a 2004 comedy".
GENRE_WORK_NOUNS = word_set("comedy drama thriller western musical documentary melodrama")

GENRES = word_set(
    """action adventure animated animation biographical comedy comedy-drama crime disaster drama
    dramedy epic erotic fantasy historical horror melodrama musical mystery neo-noir noir
    neorealist parody political psychological romance romantic satirical slasher sports spy
    superhero supernatural suspense teen thriller war western zombie mockumentary detective
    gothic dystopian picaresque epistolary legal procedural fairy-tale rock pop jazz blues country
    folk rap soul funk punk metal electronic dance techno reggae gospel classical indie
    alternative grunge disco ska emo synth-pop synthpop electropop r&b hip-hop sci-fi
    science-fiction coming-of-age children's family"""
) | {
    "science fiction", "martial arts", "black comedy", "dark comedy", "romantic comedy", "young adult",
    "police procedural", "hip hop", "heavy metal", "hard rock", "folk rock", "pop rock", "soft rock",
    "progressive rock", "new wave", "art rock",
}  # fmt: skip
_GENRE_WORDS = frozenset(word for genre in GENRES for word in genre.split())
_YEAR = re.compile(r"^(1[5-9]\d\d|20\d\d)$")
_ORDINAL = re.compile(
    r"^(\d+(st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)$"
)


@dataclass(frozen=True)
class WorkDescription:
    """Word indices of a work description's parts (each a (start, end) range of the words)."""

    year: int | None
    genres: tuple[tuple[int, int], ...]
    kind: tuple[int, ...]  # the words of instance_of: "silent" + "film"


def is_genre_word(word: str) -> bool:
    return word.casefold() in _GENRE_WORDS


def is_work_noun(lemma: str) -> bool:
    return lemma.casefold() in WORK_NOUNS or lemma.casefold() in GENRE_WORK_NOUNS


def describe_work(words: Sequence[str], noun_index: int, skipped: Sequence[bool]) -> WorkDescription:
    """Split the words before `words[noun_index]` (the work noun) into year, genres and kind.

    `skipped[i]` marks words that belong to none (articles, nationalities, names), as the
    caller's parse tells; a genre is a run of genre words ("romantic drama", "science fiction").
    """
    year = None
    genres: list[tuple[int, int]] = []
    kind: list[int] = []
    index = 0
    while index < noun_index:
        word = words[index].casefold()
        run_end = _genre_run_end(words, index, noun_index)
        if run_end == index and index + 2 < noun_index and words[index + 1] == "-":
            joined_end = _genre_run_end(words, index + 2, noun_index)  # "computer-animated comedy"
            run_end = joined_end if joined_end > index + 2 else index
        if skipped[index] and run_end == index:
            index += 1
        elif _YEAR.match(word):
            year = index
            index += 1
        elif run_end > index:
            genres.append((index, run_end))
            index = run_end
        elif not _ORDINAL.match(word) and word not in {"-", ",", "and", "or", '"', "'"}:
            kind.append(index)
            index += 1
        else:
            index += 1
    noun = words[noun_index].casefold()
    if noun in GENRE_WORK_NOUNS and noun not in WORK_NOUNS:
        genres.append((noun_index, noun_index + 1))  # "a 1985 thriller": genre, kind unknown
    else:
        kind.append(noun_index)
    return WorkDescription(year, tuple(genres), tuple(kind))


def _genre_run_end(words: Sequence[str], start: int, stop: int) -> int:
    """The end of the longest genre starting at `start` ("science fiction", "Western"), else `start`."""
    end = start
    while end < stop and (_as_genre_word(words[end]) in _GENRE_WORDS or (end > start and words[end] == "-")):
        end += 1
    while end > start and words[end - 1] == "-":
        end -= 1
    run = [_as_genre_word(w) for w in words[start:end] if w != "-"]
    if len(run) > 1 and all(word in GENRES for word in run):
        return end  # "romantic drama", "crime thriller": one genre of genre words
    for candidate_end in range(end, start, -1):
        text = " ".join(_as_genre_word(w) for w in words[start:candidate_end])
        if text in GENRES or text.replace(" - ", "-") in GENRES:
            return candidate_end
    return start


def _as_genre_word(word: str) -> str:
    return word.casefold()

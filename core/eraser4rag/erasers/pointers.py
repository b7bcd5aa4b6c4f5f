"""Words that point back at a place the sentence named: once the name went, "the community" or "the
town" points at nothing the reader was told, so the pointing phrase goes with it. `closure.close_deletions`
runs this with its other rules until nothing changes; the rendering says "a city council" for "the city
council" of a city that went."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from core.eraser4rag.erasers.grammar import subtree

PLACE_POINTERS = {
    "community", "town", "city", "village", "county", "state", "country", "region", "province",
    "municipality", "borough", "parish", "district", "island", "nation",
}  # fmt: skip
PLACE_LABELS = {"GPE", "LOC", "NORP"}
_SAYS_WHICH = {"amod", "compound", "prep", "nmod", "relcl", "acl", "appos"}


def remove_pointers_to_removed_places(sent: Any, removed: set[int]) -> None:
    """ "a councillor [of Pembroke, Ontario] for five years and once served as the community's mayor":
    "the community's" goes ("served as mayor"); a place still named before it keeps it."""
    for article, noun in _kept_definite_articles(sent, removed):
        if noun.lemma_.lower() not in PLACE_POINTERS or any(c.dep_ in _SAYS_WHICH for c in noun.children):
            continue
        places = [t for t in sent if t.i < article.i and t.ent_type_ in PLACE_LABELS]
        if places and all(t.i in removed for t in places):
            removed.update(subtree(noun) if noun.dep_ == "poss" else {article.i} | subtree(noun))


def articles_of_places_that_went(sent: Any, removed: set[int]) -> set[int]:
    """ "he was member of the city council [of Essen]": "the" points at the council of a city no longer
    named; the rendering says "a city council" instead."""
    articles = set()
    for article, noun in _kept_definite_articles(sent, removed):
        if noun.tag_ in {"NNS", "NNPS"}:
            continue  # "the city councils [of Essen and Bonn]": no "a"
        kinds = [c for c in noun.children if c.dep_ == "compound" and c.lemma_.lower() in PLACE_POINTERS]
        places = [
            c
            for prep in noun.children
            if prep.dep_ == "prep" and prep.lower_ == "of" and prep.i in removed
            for c in prep.children
            if c.dep_ == "pobj" and (c.ent_type_ in PLACE_LABELS or c.pos_ == "PROPN")
        ]
        if kinds and places and all(c.i not in removed for c in kinds):
            articles.add(article.i)
    return articles


def _kept_definite_articles(sent: Any, removed: set[int]) -> Iterator[tuple[Any, Any]]:
    """Each kept "the" with its kept noun."""
    for article in sent:
        noun = article.head
        if (
            article.i not in removed
            and article.lower_ == "the"
            and article.dep_ == "det"
            and noun.i not in removed
        ):
            yield article, noun

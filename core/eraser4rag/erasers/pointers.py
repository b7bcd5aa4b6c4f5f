"""Words that point back at a place the sentence named: once the name went, "the community" or "the
town" points at nothing the reader was told, so the pointing phrase goes with it. `closure.close_deletions`
runs this with its other rules until nothing changes."""

from __future__ import annotations

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
    for article in sent:
        noun = article.head
        if article.i in removed or article.lower_ != "the" or article.dep_ != "det" or noun.i in removed:
            continue
        if noun.lemma_.lower() not in PLACE_POINTERS or any(c.dep_ in _SAYS_WHICH for c in noun.children):
            continue
        places = [t for t in sent if t.i < article.i and t.ent_type_ in PLACE_LABELS]
        if places and all(t.i in removed for t in places):
            removed.update(subtree(noun) if noun.dep_ == "poss" else {article.i} | subtree(noun))

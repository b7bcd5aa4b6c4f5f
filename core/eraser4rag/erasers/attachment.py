"""Words attached to what went: a phrase the parser left as `dep` right after a removed phrase was that
phrase's continuation ("in the [Portland], Oregon area"), and an "also" right before a removed phrase was
said of it ("Marcello, also [an architect]"); both go with it. `closure.close_deletions` runs these with
its other rules until nothing changes."""

from __future__ import annotations

from typing import Any

from core.eraser4rag.erasers.grammar import subtree


def remove_unattached_continuations(sent: Any, removed: set[int]) -> None:
    """ "worked [as a representative in the Portland], Oregon area before ...": the parser hung "Oregon
    area" on the verb as `dep`; left, it reads "worked Oregon area". A town it made an apposition after a
    removed institution goes too."""
    doc = sent.doc
    for token in sent:
        if token.i in removed or token.dep_ not in {"dep", "appos"} or token.pos_ not in {"NOUN", "PROPN"}:
            continue
        before = token.left_edge.i - 1
        while before >= sent.start and doc[before].is_punct and doc[before].text != "(":
            before -= 1
        if before < sent.start or before not in removed:
            continue
        if token.dep_ == "dep":
            removed.update(subtree(token) | set(range(before + 1, token.left_edge.i)))
        elif _town_of_a_removed_institution(token, doc[before]):
            removed.update(range(before + 1, token.i + 1))  # its phrases ("in the late 1970s") are the verb's


def _town_of_a_removed_institution(token: Any, before: Any) -> bool:
    """ "an industrial fellow [at Wolfson College], Oxford in the late 1970s": the parser made the town an
    apposition of "fellow"; it was the college's."""
    return (
        token.pos_ == "PROPN"
        and token.left_edge.i == token.i
        and before.ent_type_ in {"ORG", "FAC"}
        and not any(c.dep_ in {"compound", "appos", "conj"} for c in token.children)
    )


def remove_adverbs_before_a_removed_phrase(sent: Any, removed: set[int]) -> None:
    """ "His two sons were Marcello, also [an architect ...]." reads "Marcello, also.": an "also" after a
    comma whose removed phrase ran to the sentence's end goes, with the comma ("not only [a painter], but
    a poet" keeps its words)."""
    doc = sent.doc
    for adverb in sent:
        after, before = adverb.i + 1, adverb.i - 1
        if adverb.i in removed or adverb.lower_ != "also" or after >= sent.end or after not in removed:
            continue
        if before < sent.start or doc[before].text != ",":
            continue
        while after < sent.end and after in removed:
            after += 1
        if after == sent.end or doc[after].text in {".", ";", "!", "?"}:
            removed.update({adverb.i, before})

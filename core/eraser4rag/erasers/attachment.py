"""Words attached to what went: a phrase the parser left as `dep` right after a removed phrase was that
phrase's continuation ("in the [Portland], Oregon area"), and an "also" right before a removed phrase was
said of it ("Marcello, also [an architect]"); both go with it. `closure.close_deletions` runs these with
its other rules until nothing changes."""

from __future__ import annotations

from typing import Any

from core.eraser4rag.erasers.grammar import subtree


def remove_unattached_continuations(sent: Any, removed: set[int]) -> None:
    """ "worked [as a representative in the Portland], Oregon area before ...": the parser hung "Oregon
    area" on the verb as `dep`; left, it reads "worked Oregon area"."""
    doc = sent.doc
    for token in sent:
        if token.i in removed or token.dep_ != "dep" or token.pos_ not in {"NOUN", "PROPN"}:
            continue
        before = token.left_edge.i - 1
        while before >= sent.start and doc[before].is_punct and doc[before].text != "(":
            before -= 1
        if before >= sent.start and before in removed:
            removed.update(subtree(token) | set(range(before + 1, token.left_edge.i)))


# adverbs that say something of the phrase after them, not of the sentence ("however" stays)
FOCUS_ADVERBS = {"also", "too", "even", "only", "mainly", "mostly", "primarily", "especially", "notably"}


def remove_adverbs_before_a_removed_phrase(sent: Any, removed: set[int]) -> None:
    """ "His two sons were Marcello, also [an architect ...]." reads "Marcello, also.": an "also" whose
    removed phrase ran up to a comma or the sentence's end goes, with the comma before it."""
    doc = sent.doc
    for adverb in sent:
        after = adverb.i + 1
        if (
            adverb.i in removed
            or adverb.lower_ not in FOCUS_ADVERBS
            or after >= sent.end
            or after not in removed
        ):
            continue
        while after < sent.end and after in removed:
            after += 1
        if after == sent.end or doc[after].is_punct:
            before = adverb.i - 1
            removed.update(
                {adverb.i} | ({before} if before >= sent.start and doc[before].text == "," else set())
            )

"""Words the parser could not attach: a phrase it left as `dep` right after a removed phrase was that
phrase's continuation ("in the [Portland], Oregon area"), and goes with it. `closure.close_deletions` runs
this with its other rules until nothing changes."""

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

"""Linearised triples for the Eraser4RAG rewriter (section 3.1.2), shared with training.

A private triple is written `<rsubj> h <rrel> r <robj> t <re>` and a public one
`<csubj> h <crel> r <cobj> t <ce>` (the paper's text spells `<csbj>`, the authors' code
`<csubj>`). The eight markers are added to the tokenizer as special tokens. The rewriter's
input is the document followed by the linearised private, then public, triples. When
they do not fit the model's context, triples that share an entity with the document come
first (`select_triples`), and the caller is told how many were left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.eraser4rag.erasers.mentions import mentions_entity, names_entity
from core.types import TripleKey

PRIVATE_MARKERS = ("<rsubj>", "<rrel>", "<robj>", "<re>")
PUBLIC_MARKERS = ("<csubj>", "<crel>", "<cobj>", "<ce>")
SPECIAL_TOKENS = PRIVATE_MARKERS + PUBLIC_MARKERS
DOCUMENT_PREFIX = "Rewrite the document without the private triples, keeping the public ones.\nDocument: "
PRIVATE_PREFIX = "\nPrivate: "
PUBLIC_PREFIX = "\nPublic: "
OUTPUT_PREFIX = "\nRewritten document:"
EDITS_PREFIX = "\nEdits (DEL <text> / REP <text> + BY <text> / KEEP):\n"
TAGS_PREFIX = "Delete the words that state the private triples, keeping the public ones."
# an edit script (`core.eraser4rag.erasers.edit_script`), the whole text, or deletion tags per
# word (`core.eraser4rag.erasers.deletion_tags`: the triples come first, the text last)
OUTPUT_FORMS = ("edits", "rewrite", "tags")

_TRIPLE = re.compile(
    r"<(?P<kind>r|c)subj>\s*(?P<h>.*?)\s*<(?P=kind)rel>\s*(?P<r>.*?)\s*<(?P=kind)obj>\s*(?P<t>.*?)\s*<(?P=kind)e>",
    re.DOTALL,
)


def linearize_triple(key: TripleKey, private: bool) -> str:
    subj, rel, obj, end = PRIVATE_MARKERS if private else PUBLIC_MARKERS
    head, relation, tail = key
    return f"{subj} {head} {rel} {relation} {obj} {tail} {end}"


def linearize(private: Iterable[TripleKey], public: Iterable[TripleKey]) -> tuple[str, str]:
    """(linearised private triples, linearised public triples), each space-joined, in given order."""
    return (
        " ".join(linearize_triple(k, True) for k in private),
        " ".join(linearize_triple(k, False) for k in public),
    )


def parse_linearized(text: str) -> tuple[list[TripleKey], list[TripleKey]]:
    """The (private, public) triples written by `linearize` (the round trip)."""
    private: list[TripleKey] = []
    public: list[TripleKey] = []
    for match in _TRIPLE.finditer(text):
        key = (match.group("h"), match.group("r"), match.group("t"))
        (private if match.group("kind") == "r" else public).append(key)
    return private, public


def rewriter_input(
    document: str, private: Sequence[TripleKey], public: Sequence[TripleKey], form: str = "rewrite"
) -> str:
    """The model input: instruction, document, linearised G_pri and G_pub, then the cue of the
    output `form` ("rewrite": the whole rewritten text; "edits": an edit script). With "tags"
    the triples come first and the prompt ends with the document, whose words are tagged."""
    private_text, public_text = linearize(private, public)
    if form == "tags":
        return (
            f"{TAGS_PREFIX}{PRIVATE_PREFIX}{private_text}{PUBLIC_PREFIX}{public_text}\nDocument: {document}"
        )
    cue = EDITS_PREFIX if form == "edits" else OUTPUT_PREFIX
    return f"{DOCUMENT_PREFIX}{document}{PRIVATE_PREFIX}{private_text}{PUBLIC_PREFIX}{public_text}{cue}"


def fitted_input(
    document: str,
    private: Iterable[TripleKey],
    public: Iterable[TripleKey],
    count_tokens: Callable[[str], int],
    max_input_tokens: int,
    form: str = "rewrite",
) -> tuple[str, TripleSelection]:
    """The rewriter's input for `document` (a whole document or one window) with the triples
    that fit in `max_input_tokens`, chosen by `select_triples`. The one prompt builder of
    both the `eraser4rag` eraser and training, so the two always agree."""
    room = max_input_tokens - count_tokens(rewriter_input(document, (), (), form))
    costs: dict[tuple[TripleKey, bool], int] = {}

    def cost(key: TripleKey, is_private: bool) -> int:
        if (key, is_private) not in costs:
            costs[(key, is_private)] = count_tokens(" " + linearize_triple(key, is_private))
        return costs[(key, is_private)]

    selection = select_triples(document, private, public, cost, room)
    return rewriter_input(document, selection.private, selection.public, form), selection


def add_special_tokens(tokenizer: Any, model: Any | None = None) -> int:
    """Register the eight markers as special tokens (and grow the embeddings); returns how many were new."""
    added = tokenizer.add_special_tokens(
        {"additional_special_tokens": list(SPECIAL_TOKENS)}, replace_extra_special_tokens=False
    )
    if model is not None and len(tokenizer) > model.get_input_embeddings().weight.shape[0]:
        model.resize_token_embeddings(len(tokenizer), mean_resizing=False)
        _spell_out_markers(tokenizer, model)
    return added


MARKER_MEANINGS = dict(
    zip(
        SPECIAL_TOKENS,
        (
            "private subject",
            "private relation",
            "private object",
            "end of private fact",
            "public subject",
            "public relation",
            "public object",
            "end of public fact",
        ),
        strict=True,
    )
)


def _spell_out_markers(tokenizer: Any, model: Any) -> None:
    """Each new marker row starts as the mean embedding of its meaning's words: the same at every
    load (a random init would differ between training and inference where the rows are not saved)."""
    # torch (~5 s) loads only when a model runs
    import torch

    weight = model.get_input_embeddings().weight
    with torch.no_grad():
        for marker, meaning in MARKER_MEANINGS.items():
            ids = tokenizer(" " + meaning, add_special_tokens=False)["input_ids"]
            weight[tokenizer.convert_tokens_to_ids(marker)] = weight[ids].mean(dim=0)


@dataclass(frozen=True)
class TripleSelection:
    private: tuple[TripleKey, ...]
    public: tuple[TripleKey, ...]
    private_total: int
    public_total: int

    def note(self) -> str | None:
        if len(self.private) == self.private_total and len(self.public) == self.public_total:
            return None
        return (
            f"triples truncated to fit the context: private {len(self.private)} of {self.private_total} "
            f"kept, public {len(self.public)} of {self.public_total} kept (the most related to the text "
            "first)"
        )


def select_triples(
    document: str,
    private: Iterable[TripleKey],
    public: Iterable[TripleKey],
    cost: Callable[[TripleKey, bool], int],
    budget: int,
) -> TripleSelection:
    """Triples whose summed `cost(key, is_private)` stays within `budget`, the most related first.

    Relatedness to the document (`relatedness`): head and tail both named, then the head
    only, then the tail only, then neither; at each level private before public. (Private
    first over the whole sets filled a 384-token budget with private triples that merely
    share a tail such as "architect" and left no public one, so a rewriter never saw what
    to keep.)
    """
    levels: dict[tuple[int, bool], list[TripleKey]] = {}
    for is_private, keys in ((True, private), (False, public)):
        for key in sorted(set(keys)):
            levels.setdefault((relatedness(document, key), is_private), []).append(key)
    chosen: dict[bool, list[TripleKey]] = {True: [], False: []}
    spent = 0
    for level in (3, 2, 1, 0):
        for is_private in (True, False):
            for key in levels.get((level, is_private), []):
                price = cost(key, is_private)
                if spent + price <= budget:
                    chosen[is_private].append(key)
                    spent += price
    totals = {flag: sum(len(v) for (_level, p), v in levels.items() if p == flag) for flag in (True, False)}
    return TripleSelection(tuple(chosen[True]), tuple(chosen[False]), totals[True], totals[False])


def relatedness(document: str, key: TripleKey) -> int:
    """3: head (name or surname) and tail named in the document; 2: the head only; 1: the tail
    only (a pronoun may stand for the head); 0: neither."""
    head = names_entity(document, key[0])
    tail = mentions_entity(document, key[2])
    return 3 if head and tail else 2 if head else 1 if tail else 0

"""Grade rewrites as Eraser4RAG does (section 4.1), and by methods that do not use the eraser's extractor.

Per document: r_pri and r_pub from triples re-extracted from the rewrite (by the
*evaluating* extractor, a setting separate from the one that defined the triples), with
the document titles the original extraction used. Per retrieval set: r_connect over the
graph G' of all its rewritten documents, name variants of one person joined
(`core.eraser4rag.names`). Every figure is also reported on D_special (Eq. 1) and on the sets in
{D}_infer (Eq. 2).

Beside them, string grading that reads only text (`core.eraser4rag.erasers.leaks`): strict and
partial leaks of private facts, the share of public facts whose head and tail both still
appear, the share of characters kept; optionally a second extractor graded relation-
agnostically (`second_extractor`, e.g. the LLM extractor) and the language-model fluency
of changed sentences (`core.eraser4rag.erasers.lm_fluency`). The old leak check (exact tail and
head or surname anywhere) is kept as `leak_check` for comparison.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from core.eraser4rag.erasers import leaks
from core.eraser4rag.erasers.base import EraseRequest, Rewrite
from core.eraser4rag.erasers.fluency import broken_in_rewrite
from core.eraser4rag.erasers.lm_fluency import LmFluency, changed_sentence_pairs
from core.eraser4rag.erasers.mentions import pair_named
from core.eraser4rag.graph import components_of, ends_of
from core.eraser4rag.metrics import (
    connected_rate,
    d_special,
    is_inference_risk_set,
    mean_defined,
    retention_by_doc,
    retention_rate,
)
from core.eraser4rag.names import Aliases, name_aliases, name_words, surname_is_shared, variants_of
from core.extract import get_extractor
from core.extract.base import Extractor
from core.extract.spacy_rules.personal.owners import record_node
from core.model_loading import get_spacy
from core.settings import Settings
from core.types import Document, Triple, TripleKey, normalize_entity

# (original sentence, rewritten sentence) pairs -> NLL difference per pair (rewrite minus original)
FluencyScorer = Callable[[Sequence[tuple[str, str]]], list[float]]


@dataclass(frozen=True)
class DocEvaluation:
    doc_id: str
    private_before: int
    private_after: int
    public_before: int
    public_after: int
    leaked: tuple[TripleKey, ...]  # old leak check: exact tail and head (or surname) still named
    special: bool  # in D_special (Eq. 1)
    empty: bool  # the passage had no text (carried through, counted)
    seconds: float = 0.0
    # string grading (`core.eraser4rag.erasers.leaks`), independent of any extractor
    strict_leaked: tuple[TripleKey, ...] = ()  # head (or a variant) and the full tail still named
    partial_leaked: tuple[TripleKey, ...] = ()  # not strict, but part of the tail left next to the head
    strict_in_names: tuple[TripleKey, ...] = ()  # strict, but the tail is said only inside longer names
    private_visible: int = 0  # private keys whose head and tail the original names (string coverage)
    public_visible: int = 0  # public keys whose head and tail the original names
    public_kept_strings: int = 0  # of those, head and tail still named in the rewrite
    characters: int = 0
    characters_kept: int = 0
    changed: bool = False
    # second extractor, relation-agnostic: keys it finds in the original / still in the rewrite
    second_private_before: int = 0
    second_private_after: int = 0
    second_public_before: int = 0
    second_public_after: int = 0
    broken: tuple[str, ...] = ()  # broken constructions the rewrite added (`core.eraser4rag.erasers.fluency`)
    # LM fluency: mean token NLL of each changed sentence minus that of its original
    fluency_nll_delta: tuple[float, ...] = ()

    @property
    def r_pri(self) -> float | None:
        return retention_rate(self.private_before, self.private_after)

    @property
    def r_pub(self) -> float | None:
        return retention_rate(self.public_before, self.public_after)


@dataclass(frozen=True)
class SetEvaluation:
    docs: tuple[DocEvaluation, ...]
    private_total: int  # #G_pri
    connected: tuple[TripleKey, ...]  # private keys whose head and tail are connected in G'
    special_private: tuple[TripleKey, ...]  # private keys occurring in a D_special document
    infer: bool  # the set is in {D}_infer
    rewritten_triples: tuple[Triple, ...] = field(default=(), repr=False)
    second_method: str = ""  # name of the second extractor, "" when none ran

    @property
    def r_connect(self) -> float | None:
        return connected_rate(len(self.connected), self.private_total)

    @property
    def r_connect_special(self) -> float | None:
        if not self.special_private:
            return None
        connected = set(self.connected)
        return connected_rate(
            sum(1 for k in self.special_private if k in connected), len(self.special_private)
        )


def leaked_keys(text: str, private_keys: Iterable[TripleKey]) -> tuple[TripleKey, ...]:
    """Private keys whose tail and head (or the head's surname) still occur in `text`."""
    return tuple(sorted(key for key in private_keys if pair_named(text, key)))


def evaluate_rewrites(
    request: EraseRequest,
    rewrites: Sequence[Rewrite],
    extractor: Extractor,
    rewritten_triples: Sequence[Triple] | None = None,
    *,
    titles: Mapping[str, str] | None = None,
    aliases: Aliases | None = None,
    second_extractor: Extractor | None = None,
    fluency: FluencyScorer | None = None,
) -> SetEvaluation:
    """The paper's metrics for one set's rewrites (re-extracted unless given), and the string grading.

    `titles` (doc id -> title) are those the original extraction used; by default the
    documents' titles, as `core.extract.extract_corpus` passes them. `aliases` joins name
    variants of one person (default: the definition's, else `core.eraser4rag.names.name_aliases` of the
    request's triples). `second_extractor` grades again with another extractor;
    `fluency` scores changed sentences (`core.eraser4rag.erasers.lm_fluency.LmFluency`).
    """
    by_id = {r.doc_id: r for r in rewrites}
    if titles is None:
        titles = {d.id: d.title for d in request.documents if d.title}
    if rewritten_triples is None:
        items = [(r.doc_id, r.text) for r in rewrites if r.text.strip()]
        rewritten_triples = extractor.extract_many(items, titles=titles) if items else []
    if aliases is None:
        aliases = request.definition.alias_map or name_aliases(request.triples)
    original_by_doc = _keys_by_doc(request.triples)
    rewritten_by_doc = _keys_by_doc(rewritten_triples)
    definition = request.definition
    retention = retention_by_doc(
        {d.id: original_by_doc.get(d.id, set()) for d in request.documents}, rewritten_by_doc, definition
    )
    special = d_special(original_by_doc, definition)
    second = _second_grading(request, rewrites, second_extractor, titles, aliases) if second_extractor else {}
    proper_names = frozenset(t.key[2] for t in request.triples if leaks.is_proper_name(t.tail))
    docs = []
    for document in request.documents:
        counts = retention[document.id]
        rewrite = by_id.get(document.id)
        text = rewrite.text if rewrite is not None else document.text
        keys = original_by_doc.get(document.id, set())
        strings = grade_strings(
            document, text, keys & definition.private, keys & definition.public, aliases, proper_names
        )
        docs.append(
            DocEvaluation(
                doc_id=document.id,
                private_before=counts.private_before,
                private_after=counts.private_after,
                public_before=counts.public_before,
                public_after=counts.public_after,
                leaked=leaked_keys(text, keys & definition.private),
                special=document.id in special,
                empty=not document.text.strip(),
                seconds=rewrite.seconds if rewrite is not None else 0.0,
                **strings,
                **second.get(document.id, {}),
            )
        )
    if fluency is not None:
        docs = _with_fluency(docs, request.documents, by_id, fluency)
    rewritten_keys = {t.key for t in rewritten_triples}
    components = components_of(rewritten_keys, aliases)
    connected = tuple(sorted(k for k in definition.private if components.connected(*ends_of(k, aliases))))
    special_private = tuple(
        sorted({k for doc_id in special for k in original_by_doc.get(doc_id, set()) & definition.private})
    )
    return SetEvaluation(
        docs=tuple(docs),
        private_total=len(definition.private),
        connected=connected,
        special_private=special_private,
        infer=is_inference_risk_set(list(request.triples), definition),
        rewritten_triples=tuple(rewritten_triples),
        second_method=second_extractor.name if second_extractor else "",
    )


def grading_options(settings: Settings) -> dict[str, Any]:
    """`evaluate_rewrites` keyword arguments from the settings: the second extractor and the LM fluency.

    Build once per run (the fluency cap counts over the run): `evaluate_rewrites(..., **options)`.
    """
    return {
        "second_extractor": get_extractor(settings.second_extractor, settings)
        if settings.second_extractor
        else None,
        "fluency": LmFluency(settings) if settings.lm_fluency else None,
    }


# ------------------------------------------------------------------ string grading


def head_forms(head: str, aliases: Aliases | None, text: str = "", title: str = "") -> set[str]:
    """The head and its name variants: the alias map's, and a person's surname ("feilden") unless `text`
    names two others of that surname and the head is not its `title`'s person (on a list page of
    Hutchings, "Hutchings" beside "English" is another Hutchings)."""
    forms = variants_of(head, aliases)
    if text and surname_is_shared(text, head, title):
        return forms
    for form in list(forms):
        words = name_words(form)
        if words and len(words) >= 2 and len(words[-1]) >= 3:
            forms.add(words[-1])
    return forms


def grade_strings(
    document: Document,
    rewrite: str,
    private_keys: Iterable[TripleKey],
    public_keys: Iterable[TripleKey],
    aliases: Aliases | None = None,
    proper_names: frozenset[str] = frozenset(),
) -> dict[str, object]:
    """DocEvaluation's string fields for one passage (the title counts as seen with the passage).

    Heads and the tails in `proper_names` (normalised entities written as names) match with one
    edit allowed (`core.eraser4rag.erasers.leaks`); other tails need their exact words.
    """
    original = document.text
    before = leaks.tokens(f"{document.title}\n{original}") if document.title else leaks.tokens(original)
    after = leaks.tokens(f"{document.title}\n{rewrite}") if document.title else leaks.tokens(rewrite)
    original_body, rewrite_body = leaks.tokens(original), leaks.tokens(rewrite)

    forms_by_head: dict[str, set[str]] = {}

    def forms_of(head: str) -> set[str]:
        if head not in forms_by_head:  # the shared-surname test reads the whole passage: once per head
            forms_by_head[head] = head_forms(head, aliases, original, document.title)
        return forms_by_head[head]

    record = normalize_entity(record_node(document.id, document.title))

    def named(head: str, head_tokens: list) -> bool:
        # a personal record's own node ("record <title>") is the passage itself: always in view
        return head == record or leaks.names_any(head_tokens, forms_of(head))

    def states(key: TripleKey, head_tokens: list, body: list) -> bool:
        head, _relation, tail = key
        return bool(leaks.find_name(body, tail, tail in proper_names)) and named(head, head_tokens)

    strict, partial, in_names = [], [], []
    private_visible = 0
    for key in sorted(private_keys):
        private_visible += states(key, before, original_body)
        if states(key, after, rewrite_body):
            strict.append(key)
            if leaks.only_inside_longer_names(rewrite, rewrite_body, key[2], key[2] in proper_names):
                in_names.append(key)
        elif named(key[0], after) and leaks.partial_tail(original, rewrite, key[2]):
            partial.append(key)
    visible = [k for k in public_keys if states(k, before, original_body)]
    return {
        "strict_leaked": tuple(strict),
        "partial_leaked": tuple(partial),
        "strict_in_names": tuple(in_names),
        "private_visible": private_visible,
        "public_visible": len(visible),
        "public_kept_strings": sum(1 for k in visible if states(k, after, rewrite_body)),
        "characters": len(original),
        "characters_kept": leaks.characters_kept(original, rewrite),
        "changed": rewrite != original,
        "broken": tuple(b.kind for b in broken_in_rewrite(original, rewrite, _parser())),
    }


def _parser() -> Callable[[str], object]:
    """The spaCy parse the fluency checker reads (loaded once, by `core.model_loading`)."""
    return get_spacy()


def _second_grading(
    request: EraseRequest,
    rewrites: Sequence[Rewrite],
    second: Extractor,
    titles: Mapping[str, str],
    aliases: Aliases | None,
) -> dict[str, dict[str, int]]:
    """Per document: keys a second extractor finds in the original and still in the rewrite.

    Relation-agnostic: a key is found when one of the extractor's triples has the key's head
    (or a name variant) and tail, matched as `core.eraser4rag.erasers.leaks` matches names.
    """
    by_id = {r.doc_id: r for r in rewrites}
    originals = [(d.id, d.text) for d in request.documents if d.text.strip()]
    changed = [(r.doc_id, r.text) for r in rewrites if r.text.strip()]
    before = _pairs_by_doc(second.extract_many(originals, titles=titles) if originals else [])
    after = _pairs_by_doc(second.extract_many(changed, titles=titles) if changed else [])
    keys_by_doc = _keys_by_doc(request.triples)
    definition = request.definition
    result: dict[str, dict[str, int]] = {}
    for document in request.documents:
        keys = keys_by_doc.get(document.id, set())
        rewritten = by_id.get(document.id)
        after_pairs = after.get(document.id, []) if rewritten is not None else before.get(document.id, [])
        counts: dict[str, int] = {}
        for side, chosen in (("private", keys & definition.private), ("public", keys & definition.public)):
            found = [k for k in chosen if _has_pair(before.get(document.id, []), k, aliases)]
            counts[f"second_{side}_before"] = len(found)
            counts[f"second_{side}_after"] = sum(1 for k in found if _has_pair(after_pairs, k, aliases))
        result[document.id] = counts
    return result


def _pairs_by_doc(triples: Iterable[Triple]) -> dict[str, list[tuple[list, list]]]:
    pairs: dict[str, list[tuple[list, list]]] = {}
    for triple in triples:
        pairs.setdefault(triple.doc_id, []).append((leaks.tokens(triple.head), leaks.tokens(triple.tail)))
    return pairs


def _has_pair(pairs: Sequence[tuple[list, list]], key: TripleKey, aliases: Aliases | None) -> bool:
    forms = head_forms(key[0], aliases)
    return any(leaks.find_name(tail, key[2]) and leaks.names_any(head, forms) for head, tail in pairs)


def _with_fluency(
    docs: list[DocEvaluation],
    documents: Sequence[Document],
    rewrites: Mapping[str, Rewrite],
    fluency: FluencyScorer,
) -> list[DocEvaluation]:
    pairs_by_doc = {
        d.id: changed_sentence_pairs(d.text, rewrites[d.id].text) for d in documents if d.id in rewrites
    }
    flat = [pair for pairs in pairs_by_doc.values() for pair in pairs]
    deltas = iter(fluency(flat)) if flat else iter(())
    scored = {doc_id: tuple(next(deltas) for _pair in pairs) for doc_id, pairs in pairs_by_doc.items()}
    return [replace(doc, fluency_nll_delta=scored.get(doc.doc_id, ())) for doc in docs]


def _keys_by_doc(triples: Iterable[Triple]) -> dict[str, set[TripleKey]]:
    grouped: dict[str, set[TripleKey]] = {}
    for triple in triples:
        grouped.setdefault(triple.doc_id, set()).add(triple.key)
    return grouped


def _leak_ratio(docs: Iterable[DocEvaluation]) -> float | None:
    total = leaked = 0
    for doc in docs:
        total += doc.private_before
        leaked += len(doc.leaked)
    return leaked / total if total else None


def _pair_rate(docs: Iterable[DocEvaluation], count: Callable[[DocEvaluation], int]) -> float | None:
    docs = list(docs)
    total = sum(d.private_before for d in docs)
    return sum(count(d) for d in docs) / total if total else None


def _ratio(done: int, total: int) -> float | None:
    return done / total if total else None


def _strings_block(docs: list[DocEvaluation]) -> dict[str, object]:
    changed = [d for d in docs if d.changed]
    return {
        "strict_leak": _pair_rate(docs, lambda d: len(d.strict_leaked)),
        "strict_leak_outside_names": _pair_rate(
            docs, lambda d: len(d.strict_leaked) - len(d.strict_in_names)
        ),
        "partial_leak": _pair_rate(docs, lambda d: len(d.partial_leaked)),
        "private_visible": _pair_rate(docs, lambda d: d.private_visible),
        "public_kept_strings": _ratio(
            sum(d.public_kept_strings for d in docs), sum(d.public_visible for d in docs)
        ),
        "characters_kept": _ratio(sum(d.characters_kept for d in docs), sum(d.characters for d in docs)),
        "characters_kept_changed": _ratio(
            sum(d.characters_kept for d in changed), sum(d.characters for d in changed)
        ),
        "changed_passages": len(changed),
        "broken_passages": sum(1 for d in changed if d.broken),
        "broken_share": _ratio(sum(1 for d in changed if d.broken), len(changed)),
    }


def _second_block(docs: list[DocEvaluation]) -> dict[str, object]:
    return {
        "r_pri": _ratio(
            sum(d.second_private_after for d in docs), sum(d.second_private_before for d in docs)
        ),
        "r_pub": _ratio(sum(d.second_public_after for d in docs), sum(d.second_public_before for d in docs)),
        "private_found": sum(d.second_private_before for d in docs),
        "public_found": sum(d.second_public_before for d in docs),
    }


def fluency_distribution(docs: Iterable[DocEvaluation]) -> dict[str, object]:
    """Mean, median and 90th percentile of the NLL differences (rewrite minus original) per changed sentence.

    Sentences past the scoring cap (NaN) are left out."""
    values = sorted(v for d in docs for v in d.fluency_nll_delta if not math.isnan(v))
    if not values:
        return {"sentences": 0, "mean": None, "median": None, "p90": None}
    return {
        "sentences": len(values),
        "mean": sum(values) / len(values),
        "median": _quantile(values, 0.5),
        "p90": _quantile(values, 0.9),
    }


def _quantile(ordered: Sequence[float], q: float) -> float:
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summarize(evaluations: Sequence[SetEvaluation]) -> dict[str, object]:
    """Top-level figures: all documents, D_special and {D}_infer.

    r_pri/r_pub: mean over documents where defined; r_connect: mean over sets (for
    D_special, over the private triples of D_special documents); leak_check (the old
    check), strict_leak, partial_leak: leaked private (doc, triple) pairs over all such
    pairs; public_kept_strings: public (doc, triple) pairs whose head and tail the rewrite
    still names, over those the original names; characters_kept: characters of the
    originals kept in order. `strings` repeats the string figures; `second` the second
    extractor's (when one ran); `lm_fluency` the NLL differences (when scored).
    """
    all_docs = [d for e in evaluations for d in e.docs]
    infer_sets = [e for e in evaluations if e.infer]
    infer_docs = [d for e in infer_sets for d in e.docs]
    special_docs = [d for d in all_docs if d.special]

    def block(docs: list[DocEvaluation], connect: list[float | None]) -> dict[str, object]:
        return {
            "documents": len(docs),
            "r_pri": mean_defined(d.r_pri for d in docs),
            "r_pub": mean_defined(d.r_pub for d in docs),
            "r_connect": mean_defined(connect),
            "leak_check": _leak_ratio(docs),
            "strict_leak": _pair_rate(docs, lambda d: len(d.strict_leaked)),
            "partial_leak": _pair_rate(docs, lambda d: len(d.partial_leaked)),
        }

    summary = block(all_docs, [e.r_connect for e in evaluations])
    summary["strings"] = _strings_block(all_docs)
    summary["public_kept_strings"] = summary["strings"]["public_kept_strings"]  # type: ignore[index]
    summary["characters_kept"] = summary["strings"]["characters_kept"]  # type: ignore[index]
    summary["broken_share"] = summary["strings"]["broken_share"]  # type: ignore[index]
    seconds = sorted({e.second_method for e in evaluations if e.second_method})
    if seconds:
        summary["second"] = {"extractor": ", ".join(seconds), **_second_block(all_docs)}
    if any(d.fluency_nll_delta for d in all_docs):
        summary["lm_fluency"] = fluency_distribution(all_docs)
    summary["sets"] = len(evaluations)
    summary["empty_passages"] = sum(1 for d in all_docs if d.empty)
    summary["D_special"] = block(special_docs, [e.r_connect_special for e in evaluations])
    summary["D_infer"] = block(infer_docs, [e.r_connect for e in infer_sets])
    summary["D_infer"]["sets"] = len(infer_sets)  # type: ignore[index]
    return summary

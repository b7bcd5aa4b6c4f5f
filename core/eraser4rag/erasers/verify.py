"""Verify and repair (`--verify`): check any eraser's rewrites and fix what still leaks.

1. Re-extract triples from every rewrite. A private triple still present in a document
   has its unit removed (the graph-guided rule: object phrase, clause, sentence).
2. Build G' of the whole rewritten set (name variants of one person are one node,
   `core.eraser4rag.names`). For each private head-tail pair still connected in G', cut the
   connection at the cheapest edges: a minimum edge cut (networkx) whose costs make any
   number of non-public triples ("excluded" by the filters, or keys the definition never
   saw) cheaper than one public triple -- so the cut takes the fewest
   public triples, and excluded ones first. Every occurrence of a cut triple is removed.
3. Repeat until nothing private is left (or `max_rounds`); a document that still states a private
   triple after the last round is withheld (emptied), not published half-erased.

Every repair is reported on the rewrite (`Rewrite.repairs`) with what it cost: the
public triples of that document that re-extraction no longer finds.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import networkx as nx

from core.eraser4rag.erasers.base import EraseRequest, Rewrite
from core.eraser4rag.erasers.graph_guided import ParseCache, naming_no_private_tail, units_for
from core.eraser4rag.erasers.mentions import (
    acronym_mentions,
    defined_acronyms,
    find_mentions,
    inside_longer_entity,
    mentions_entity,
    surname,
)
from core.eraser4rag.erasers.repair import rediff, repair_removals
from core.eraser4rag.filters import PrivacyDefinition
from core.eraser4rag.graph import components_of, ends_of, format_key
from core.eraser4rag.names import name_aliases, surname_is_shared
from core.extract.base import Extractor
from core.types import Span, Triple, TripleKey

Removal = tuple[tuple[int, int], str, str, tuple[TripleKey, ...]]


def verify_and_repair(
    request: EraseRequest,
    rewrites: Sequence[Rewrite],
    extractor: Extractor,
    parse: ParseCache,
    max_rounds: int = 4,
    progress: Callable[[int, int], None] | None = None,
    titles: Mapping[str, str] | None = None,
) -> tuple[list[Rewrite], list[Triple]]:
    """Repaired rewrites (same order) and the triples re-extracted from them.

    `titles` (doc id -> title): pass those the original extraction used, so that re-extraction
    reads the rewrite as the original was read (None: none, as `build_request` extracts today).
    """
    started = time.perf_counter()
    texts = {r.doc_id: r.text for r in rewrites}
    repairs: dict[str, list[str]] = defaultdict(list)
    triples = _extract(extractor, texts, texts.keys(), titles)
    definition = request.definition
    # name variants of one person are one node, as the grading reads G' (`core.eraser4rag.names`)
    aliases = definition.alias_map or name_aliases(request.triples)
    attempted: set[tuple[str, TripleKey]] = set()  # a tail mention is removed once, not every round
    for round_number in range(1, max_rounds + 1):
        removals = _surviving_private(triples, definition, texts)
        for doc_id, items in private_tails_named(request, texts, parse, titles, attempted).items():
            removals.setdefault(doc_id, []).extend(items)
        if not removals:
            removals = _connection_cuts(triples, definition, texts, aliases)
        if not removals:
            break
        changed, reasons = _apply(
            texts, removals, parse, _sayable_public(triples, definition), titles or {}, definition.public
        )
        before = _public_by_doc(triples, definition)
        triples = [t for t in triples if t.doc_id not in changed] + _extract(
            extractor, texts, changed, titles
        )
        after = _public_by_doc(triples, definition)
        for doc_id, doc_reasons in reasons.items():
            lost = sorted(before.get(doc_id, set()) - after.get(doc_id, set()))
            cost = f"cost: {len(lost)} public triple(s)" + (
                f" ({', '.join(format_key(k) for k in lost)})" if lost else ""
            )
            repairs[doc_id].extend(f"round {round_number}: {reason}; {cost}" for reason in doc_reasons)
        if progress is not None:
            progress(round_number, max_rounds)
    for doc_id, items in _surviving_private(triples, definition, texts).items():
        texts[doc_id] = ""  # what `max_rounds` could not erase is withheld, not published half-erased
        triples = [t for t in triples if t.doc_id != doc_id]
        repairs[doc_id].extend(f"withheld: {reason.removesuffix(': removed')}" for _triple, reason in items)
    seconds = (time.perf_counter() - started) / max(len(rewrites), 1)
    repaired = [_finish(r, texts[r.doc_id], repairs.get(r.doc_id, []), seconds) for r in rewrites]
    return repaired, triples


def _extract(
    extractor: Extractor, texts: dict[str, str], doc_ids: Iterable[str], titles: Mapping[str, str] | None
) -> list[Triple]:
    items = [(doc_id, texts[doc_id]) for doc_id in doc_ids if texts[doc_id].strip()]
    return extractor.extract_many(items, titles=titles) if items else []


def _public_by_doc(triples: Iterable[Triple], definition: PrivacyDefinition) -> dict[str, set[TripleKey]]:
    found: dict[str, set[TripleKey]] = defaultdict(set)
    for triple in triples:
        if triple.key in definition.public:
            found[triple.doc_id].add(triple.key)
    return found


def _surviving_private(
    triples: Iterable[Triple], definition: PrivacyDefinition, texts: dict[str, str]
) -> dict[str, list[tuple[Triple, str]]]:
    found: dict[str, list[tuple[Triple, str]]] = defaultdict(list)
    for triple in triples:
        if triple.key in definition.private:
            found[triple.doc_id].append((triple, f"private {format_key(triple.key)} still present: removed"))
    return dict(found)


def private_tails_named(
    request: EraseRequest,
    texts: dict[str, str],
    parse: ParseCache,
    titles: Mapping[str, str] | None,
    attempted: set[tuple[str, TripleKey]],
) -> dict[str, list[tuple[Triple, str]]]:
    """A passage's private fact whose head is still named there (text or title) and whose tail is still
    said there, in any sentence: a list page names "Japanese" for a public member after the private
    member lost it, and a reader of the passage still pairs the two. Each such tail mention goes (a
    name that merely contains the tail, "American" in "American Psycho", is not a mention)."""
    found: dict[str, list[tuple[Triple, str]]] = defaultdict(list)
    originals = {document.id: document.text for document in request.documents}
    for triple in request.triples:
        text = texts.get(triple.doc_id, "")
        if (
            triple.key not in request.definition.private
            or not text.strip()
            or (triple.doc_id, triple.key) in attempted
        ):
            continue
        title = (titles or {}).get(triple.doc_id, "")
        if not _head_named(f"{title}\n{text}", triple.head, title):
            continue
        doc = parse(text)
        reason = f"private {format_key(triple.key)}: its tail is still said beside its head: removed"
        mentions = [
            (triple.tail, mention)
            for mention in find_mentions(text, triple.tail)
            + _shorter_name_mentions(doc, triple.tail, triple.head)
        ] + _acronyms_said(originals.get(triple.doc_id, ""), text, triple.tail)
        for said, mention in mentions:
            if inside_longer_entity(doc, mention):
                continue
            sentence = next((s for s in doc.sents if s.start_char <= mention[0] < s.end_char), None)
            if sentence is not None:
                span = (sentence.start_char, sentence.end_char)
                found[triple.doc_id].append((replace(triple, tail=said, span=span), reason))
                attempted.add((triple.doc_id, triple.key))
    return dict(found)


def _acronyms_said(original: str, text: str, tail: str) -> list[tuple[str, Span]]:
    """A private tail's short form the original passage defined ("... Chicago (SAIC)"), still said in the
    rewrite ("while attending SAIC") after the sentence that spelled it out went."""
    return [
        (short, mention)
        for short in defined_acronyms(original, tail)
        for mention in acronym_mentions(text, short)
    ]


def _shorter_name_mentions(doc: Any, tail: str, head: str) -> list[Span]:
    """A person said without her first name ("Walker Harrison" for the private mother "Lullelia Walker
    Harrison"): still her, once the sentence that gave her full name went. Written as the name is, read as
    a person by the parser, and no form of the head's name."""
    words = tail.split()
    if len(words) < 3 or not all(w[:1].isupper() for w in words):
        return []
    shorter = " ".join(words[-2:])
    if shorter.casefold() in head.casefold():
        return []
    people = [(e.start_char, e.end_char) for e in doc.ents if e.label_ == "PERSON"]
    return [
        (m.start(), m.end())
        for m in re.finditer(rf"(?<![\w-]){re.escape(shorter)}(?![\w-])", doc.text)
        if any(start <= m.start() and m.end() <= end for start, end in people)
    ]


def _head_named(text: str, head: str, title: str = "") -> bool:
    """The head named by its full name, or by a surname of 4+ letters that names nobody else in `text`."""
    last = surname(head)
    if mentions_entity(text, head):
        return True
    return len(last) > 3 and not surname_is_shared(text, head, title) and mentions_entity(text, last)


def edge_cost(key: TripleKey, definition: PrivacyDefinition, cheap_total: int) -> int:
    """Any number of non-public edges costs less than one public edge."""
    return cheap_total + 1 if key in definition.public else 1


def minimum_cut_keys(
    keys: Iterable[TripleKey],
    source: str,
    target: str,
    definition: PrivacyDefinition,
    aliases: Mapping[str, str] | None = None,
) -> set[TripleKey]:
    """Keys of a minimum-cost edge cut between two entities (parallel keys are cut together).

    With `aliases`, nodes are name variants joined (`core.eraser4rag.graph.node_of`; pass joined ends)."""
    keys = set(keys)
    pairs: dict[frozenset[str], list[TripleKey]] = defaultdict(list)
    for key in keys:
        head, tail = ends_of(key, aliases)
        if head != tail:
            pairs[frozenset((head, tail))].append(key)
    cheap_total = sum(1 for k in keys if k not in definition.public)
    graph = nx.DiGraph()
    for pair, parallel in pairs.items():
        u, v = tuple(pair)
        capacity = sum(edge_cost(k, definition, cheap_total) for k in parallel)
        graph.add_edge(u, v, capacity=capacity)
        graph.add_edge(v, u, capacity=capacity)
    _value, (reachable, _rest) = nx.minimum_cut(graph, source, target)
    cut: set[TripleKey] = set()
    for pair, parallel in pairs.items():
        u, v = tuple(pair)
        if (u in reachable) != (v in reachable):
            cut.update(parallel)
    return cut


def _connection_cuts(
    triples: Sequence[Triple],
    definition: PrivacyDefinition,
    texts: dict[str, str],
    aliases: Mapping[str, str] | None = None,
) -> dict[str, list[tuple[Triple, str]]]:
    keys = {t.key for t in triples}
    occurrences: dict[TripleKey, list[Triple]] = defaultdict(list)
    for triple in triples:
        occurrences[triple.key].append(triple)
    found: dict[str, list[tuple[Triple, str]]] = defaultdict(list)
    for private in sorted(definition.private):
        head, tail = ends_of(private, aliases)
        if head == tail or not components_of(keys, aliases).connected(head, tail):
            continue
        for key in sorted(minimum_cut_keys(keys, head, tail, definition, aliases)):
            state = definition.state_of(key) if key in definition.all_keys else "unlisted"
            reason = f"cut {state} {format_key(key)} to disconnect private {format_key(private)}"
            for occurrence in occurrences[key]:
                found[occurrence.doc_id].append((occurrence, reason))
            keys.discard(key)
    return dict(found)


def _sayable_public(triples: Sequence[Triple], definition: PrivacyDefinition) -> dict[str, list[Triple]]:
    """Per document, the public occurrences that name no private tail (a repair may say them again)."""
    by_doc: dict[str, list[Triple]] = defaultdict(list)
    for triple in naming_no_private_tail(triples, definition):  # a tail private anywhere in the set
        by_doc[triple.doc_id].append(triple)
    return dict(by_doc)


def _apply(
    texts: dict[str, str],
    removals: dict[str, list[tuple[Triple, str]]],
    parse: ParseCache,
    public: dict[str, list[Triple]],
    titles: Mapping[str, str],
    public_keys: frozenset[TripleKey] = frozenset(),
) -> tuple[set[str], dict[str, list[str]]]:
    """Remove each listed occurrence's unit; the changed doc ids and the reasons per doc. A public fact
    (cut to disconnect a private one) is not cut inside a name that also says its tail."""
    changed: set[str] = set()
    reasons: dict[str, list[str]] = defaultdict(list)
    for doc_id, items in removals.items():
        text = texts[doc_id]
        doc = parse(text)
        replacements: list[Removal] = []
        seen: set[tuple[Span, str]] = set()  # each mention of a tail finds the others in its sentence
        for triple, reason in items:
            for unit in units_for(doc, triple, in_names=triple.key not in public_keys):
                if (unit.span, reason) in seen:
                    continue
                seen.add((unit.span, reason))
                replacements.append((unit.span, "", reason, (triple.key,)))
                said = f"{reason} ({unit.level}: {text[unit.span[0] : unit.span[1]]!r})"
                if said not in reasons[doc_id]:
                    reasons[doc_id].append(said)
        cut = {triple.key for triple, _reason in items}
        sayable = [t for t in public.get(doc_id, ()) if t.key not in cut]  # a cut fact is not said again
        new_text, _edits = repair_removals(text, doc, replacements, sayable, parse, titles.get(doc_id, ""))
        if new_text != text:
            texts[doc_id] = new_text
            changed.add(doc_id)
    return changed, reasons


def _finish(rewrite: Rewrite, text: str, repairs: list[str], seconds: float) -> Rewrite:
    if text == rewrite.text and not repairs:
        return replace(rewrite, seconds=rewrite.seconds + seconds)
    edits = rediff(rewrite.original, text, rewrite.edits)
    return replace(
        rewrite,
        text=text,
        edits=edits,
        repairs=rewrite.repairs + tuple(repairs),
        seconds=rewrite.seconds + seconds,
    )

"""Name variants of one person within a retrieval set: one node for the graph, split and metrics.

Passages name the same person differently: "Henry Master Feilden" in his own article,
"Henry Feilden" in a list, "H. M. Feilden" in a citation, "Feilden" after the full name.
Triple keys keep the words each passage used (`core.types.triple_key` is unchanged); an
alias map sends each variant to one canonical node (its longest form), and every
connectivity question (`core.eraser4rag.graph.components_of` / `entity_components` / `adjacency`, the
filters, the split, the risk and r_connect) reads nodes through it.

Rules, per retrieval set (never across sets, where "John Smith" may be anyone):
* a name of two words or more is a variant of a longer person name with the same surname,
  the same first name (or its initial) and only middle names (or their initials) left out;
* a bare surname is a variant of the one full person name with that surname in the same
  passage (the extractor already resolves most; this catches what it left);
* a variant that fits two different full names ("Henry Feilden": "Henry Master Feilden" or
  "Henry Wemyss Feilden") joins the one that shares a passage with it, else neither.
A bare surname in a passage that names two other people of that surname (a list page of Hutchings)
stands for none of them, unless the head is the person the document's title names
(`surname_is_shared`: the eraser, verify and the string grading read it).
A name counts as a person when a key gives it a person's relation (born, died, spouse,
occupation, ...), so "University London" never joins "University College London".
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping

from core.types import Triple, TripleKey, normalize_entity

Aliases = Mapping[str, str]  # normalised variant -> canonical normalised name
NO_ALIASES: Aliases = {}

PERSON_HEAD_RELATIONS = frozenset(
    {
        "date_of_birth",
        "place_of_birth",
        "date_of_death",
        "place_of_death",
        "cause_of_death",
        "educated_at",
        "spouse",
        "child",
        "father",
        "mother",
        "sibling",
        "relative",
        "member_of_political_party",
        "member_of_sports_team",
        "country_of_citizenship",
        "position_held",
        "occupation",
        "academic_degree",
        "academic_major",
        "military_rank",
        "noble_title",
        "floruit",
        "residence",
        "medical_condition",
    }
)
PERSON_TAIL_RELATIONS = frozenset(
    {"spouse", "child", "father", "mother", "sibling", "relative", "founded_by", "director", "cast_member"}
    | {"screenwriter", "producer", "composer", "author", "performer"}
)
_NAME_WORD = re.compile(r"^[^\W\d_]+(?:['’-][^\W\d_]+)*\.?$", re.UNICODE)
_PARTICLES = frozenset(["de", "von", "van", "der", "den", "la", "le", "du", "del", "da", "di", "bin", "ibn"])
_NOT_NAME_WORDS = frozenset(
    ["of", "the", "and", "in", "on", "at", "for", "to", "university", "college", "school", "party", "club"]
)


def name_words(node: str) -> list[str] | None:
    """The words of a normalised node that reads as a personal name, else None."""
    words = node.split()
    if not 1 <= len(words) <= 6:
        return None
    if any(w in _NOT_NAME_WORDS or not _NAME_WORD.match(w) for w in words):
        return None
    return [w.rstrip(".") for w in words]


def _same_or_initial(a: str, b: str) -> bool:
    return a == b or (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b))


def is_variant(short: list[str], long: list[str]) -> bool:
    """`short` is `long` with middle names (or initials) left out or written as initials."""
    if len(short) < 2 or len(short) > len(long) or short == long:
        return False
    if short[-1] != long[-1] or not _same_or_initial(short[0], long[0]):
        return False
    middle = iter(long[1:-1])
    return all(any(_same_or_initial(word, other) for other in middle) for word in short[1:-1])


def person_nodes(keys: Iterable[TripleKey]) -> set[str]:
    """Nodes that a key gives a person's relation."""
    found: set[str] = set()
    for head, relation, tail in keys:
        if relation in PERSON_HEAD_RELATIONS:
            found.add(head)
        if relation in PERSON_TAIL_RELATIONS:
            found.add(tail)
    return found


def name_aliases(source: Iterable[Triple | TripleKey]) -> dict[str, str]:
    """variant -> canonical node for one retrieval set's triples (or keys: then no passage evidence).

    Only variants are listed; a node absent from the map is its own canonical node.
    """
    docs_of: dict[str, set[str]] = defaultdict(set)
    keys: set[TripleKey] = set()
    for item in source:
        key = item.key if isinstance(item, Triple) else item
        keys.add(key)
        if isinstance(item, Triple):
            docs_of[key[0]].add(item.doc_id)
            docs_of[key[2]].add(item.doc_id)
    persons = person_nodes(keys)
    names = {
        node: words for node in {k[0] for k in keys} | {k[2] for k in keys} if (words := name_words(node))
    }
    full = {node: words for node, words in names.items() if len(words) >= 2}
    targets: dict[str, str] = {}
    for node, words in names.items():
        if len(words) >= 2:
            longer = [
                o for o, w in full.items() if is_variant(words, w) and (node in persons or o in persons)
            ]
        elif node in persons and len(words[0]) >= 3 and words[0] not in _PARTICLES:
            longer = [o for o, w in full.items() if w[-1] == words[0] and o in persons]
            longer = [o for o in longer if docs_of[o] & docs_of[node]]  # a bare surname needs its passage
        else:
            continue
        target = _one_target(node, longer, full, docs_of)
        if target is not None:
            targets[node] = target
    return {node: _canonical(node, targets) for node in targets}


def _one_target(
    node: str, longer: list[str], full: Mapping[str, list[str]], docs_of: Mapping[str, set[str]]
) -> str | None:
    """The one longest name `node` can stand for (sharing a passage breaks a tie)."""
    if not longer:
        return None
    # keep the longest forms: "henry feilden" -> "henry master feilden", not via "h. feilden"
    tops = [o for o in longer if not any(is_variant(full[o], full[p]) for p in longer if p != o)]
    if len(tops) > 1:
        tops = [o for o in tops if docs_of.get(o, set()) & docs_of.get(node, set())]
    return tops[0] if len(tops) == 1 else None


def _canonical(node: str, targets: Mapping[str, str]) -> str:
    seen = {node}
    while node in targets and targets[node] not in seen:
        node = targets[node]
        seen.add(node)
    return node


def alias_of(node: str, aliases: Aliases | None) -> str:
    return aliases.get(node, node) if aliases else node


def variants_of(node: str, aliases: Aliases | None) -> set[str]:
    """Every node the alias map joins with `node` (itself included)."""
    canonical = alias_of(node, aliases)
    found = {node, canonical}
    if aliases:
        found.update(variant for variant, target in aliases.items() if target == canonical)
    return found


# a capitalised word before a surname: someone's given name, middle name or initial ("Tim", "M.")
_GIVEN_WORD = r"[A-Z][\w'’-]*\.?"


def surname_is_shared(text: str, entity: str, title: str = "") -> bool:
    """Whether `text` names two or more other people with `entity`'s surname, so that the surname alone
    stands for none of them -- unless `entity` is the person the document's `title` names (a biography
    says "Krarup" for its subject, though his parents are Krarups too)."""
    words = normalize_entity(entity).split()
    last = words[-1] if len(words) > 1 else ""
    if not last:
        return False
    if title and normalize_entity(re.sub(r"\s*\([^)]*\)", "", title)) == normalize_entity(entity):
        return False
    own = {w[:1] for w in words[:-1]}
    pattern = re.compile(rf"({_GIVEN_WORD})\s+(?i:{re.escape(last)})(?!\w)")
    others = set()
    for match in pattern.finditer(text):
        given = match.group(1)
        if given[:1].lower() not in own and not _not_a_given_name(given):
            others.add(given.lower())
    return len(others) >= 2


# capitalised words before a surname that are no one's name ("The Hutchings family", "Mr Hutchings")
_NOT_GIVEN = {
    "the", "a", "an", "in", "of", "and", "by", "to", "for", "with", "at", "from", "as", "on", "mr", "mrs",
    "ms", "miss", "dr", "sir", "dame", "lady", "lord", "professor", "prof", "president", "governor",
    "judge", "justice", "senator", "saint", "st", "captain", "general", "colonel", "major", "father",
}  # fmt: skip


def _not_a_given_name(word: str) -> bool:
    return word.rstrip(".").lower() in _NOT_GIVEN

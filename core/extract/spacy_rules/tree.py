"""Small helpers over spaCy's dependency tree: conjuncts, prepositional objects, phrase bounds,
hyphenated words and a triple's confidence.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from core.extract.degrees import (
    degree_field,
    degree_name_end,
    named_kind,
    names_its_field_apart,
)
from core.extract.spacy_rules.context import Argument
from core.extract.spacy_rules.words import (
    CONFIDENCE_BOTH_ENTITIES,
    CONFIDENCE_NO_ENTITY,
    CONFIDENCE_ONE_ENTITY,
    DEMONYM_FIELDS,
    MODIFIER_DEPS,
    NAME_PARTICLES,
    NAMED_PLACE_WORDS,
    PLACE_LABELS,
    PREP_DEPS,
    PRONOUN_PENALTY,
    THING_LABELS,
)


class ParsedChunk(Protocol):
    """What the conjunct helpers read of `ChunkRules` (typed apart: `ChunkRules` imports this module)."""

    doc: Any
    entity_of: dict[int, Any]


def modified_start(noun: Any) -> int:
    """The first word of the compounds and adjectives right before `noun` ("Public" of "Public Relations")."""
    start = noun.i
    while start > 0 and any(c.i == start - 1 and c.dep_ in {"compound", "amod"} for c in noun.lefts):
        start -= 1
    return start


def joined_by_hyphen(doc: Any, index: int) -> bool:
    """ "first" of "first-class cricketer": a word hyphen-joined to the next is part of one word."""
    return index + 2 < len(doc) and doc[index + 1].text == "-" and not doc[index].whitespace_


def children(token: Any, deps: set[str], rules: ParsedChunk | None = None) -> list[Any]:
    """Children with one of `deps`, each followed by its conjuncts ("Siemens and Bosch").

    A place right after a comma ("Hamilton, Ontario") refines the first, it is no conjunct.
    """
    found: list[Any] = []
    for child in token.children:
        if child.dep_ in deps:
            found.append(child)
            found.extend(_true_conjuncts(child, rules))
            found.extend(c for c in _conjuncts_inside_name(child, rules) if c not in found)
    return found


def _conjuncts_inside_name(token: Any, rules: ParsedChunk | None) -> list[Any]:
    """ "at the University of Bern and University of Lausanne": the parser hangs the second
    name on "Bern", inside the first name, not on its head."""
    ent = rules.entity_of.get(token.i) if rules is not None else None
    if ent is None:
        return []
    kinds = {t.lower_ for t in ent} & NAMED_PLACE_WORDS
    return [
        conjunct
        for inner in ent
        if inner.i != token.i
        for conjunct in _true_conjuncts(inner, rules)
        if conjunct.i >= ent.end and kinds & _entity_words(rules, conjunct)  # a second "University of ..."
    ]


def _entity_words(rules: ParsedChunk, token: Any) -> set[str]:
    ent = rules.entity_of.get(token.i)
    return {t.lower_ for t in ent} if ent is not None else {token.lower_}


def _true_conjuncts(first: Any, rules: ParsedChunk | None) -> list[Any]:
    """Conjuncts, without the places of a comma chain ("Changanassery, Kottayam, Kerala, India")."""
    conjuncts = sorted(first.conjuncts, key=lambda t: t.i)
    if rules is None or not conjuncts:
        return conjuncts
    listed = any(t.pos_ == "CCONJ" for t in first.doc[first.i : conjuncts[-1].i])
    kept, previous = [], first
    for conjunct in conjuncts:
        if not _is_refinement(rules, first, conjunct) and (
            listed or not _is_refinement(rules, previous, conjunct)
        ):
            kept.append(conjunct)
        previous = conjunct
    return kept


def _is_refinement(rules: ParsedChunk, first: Any, conjunct: Any) -> bool:
    inner, outer = rules.entity_of.get(first.i), rules.entity_of.get(conjunct.i)
    return (
        inner is not None
        and outer is not None
        and outer.label_ in {"GPE", "LOC"}
        and inner.label_ in PLACE_LABELS | {"ORG"}
        and outer.start == inner.end + 1
        and rules.doc[inner.end].text == ","
    )


def prepositional_objects(token: Any, rules: ParsedChunk | None = None) -> Iterable[tuple[Any, Any]]:
    for prep in token.children:
        if prep.dep_ in PREP_DEPS:
            for pobj in children(prep, {"pobj"}, rules):
                yield prep, pobj


def noun_phrase_bounds(token: Any) -> tuple[int, int]:
    """Token range of the head token with its adjacent compound/adjective/number modifiers."""
    start = token.i
    for child in reversed(list(token.lefts)):
        if child.dep_ not in MODIFIER_DEPS or child.right_edge.i != start - 1:
            break
        start = child.left_edge.i
    return hyphenated_start(token.doc, start), token.i + 1


def degree_bounds(token: Any) -> tuple[int, int]:
    """ "his master's degree", "a Bachelor of Science", "a Diploma in Journalism": the degree with
    its kind; a field of its own only where the degree names none apart (see core.extract.degrees)."""
    start, end = noun_phrase_bounds(token)
    for child in token.lefts:
        if child.dep_ == "poss" and child.pos_ != "PRON" and child.right_edge.i < token.i:
            owned = [t for t in child.subtree if t.pos_ not in {"PRON", "DET"}]
            start = min(start, owned[0].i if owned else child.i)  # "master's", not "his master's"
    end = degree_name_end(token, end)
    if (kind := named_kind(token)) is not None:
        return kind.i, token.i  # "a Master of Science degree in physics": "Master of Science"
    if names_its_field_apart(token):
        return start, end
    field = degree_field(token, end)
    if field is not None:  # the field with its conjuncts, not what follows ("from the University of X")
        objects = [child for child in field.children if child.dep_ == "pobj"]
        end = max([end, *(t.i + 1 for obj in objects for t in (obj, *obj.conjuncts))])
    return start, end


def degree_bounds_end(token: Any) -> int:
    return degree_name_end(token, noun_phrase_bounds(token)[1])


def name_particle(token: Any) -> bool:
    """ "Magliano Capo di Sabina", "Isle of Man", "Frankfurt am Main": a particle inside a name."""
    return token.pos_ == "ADP" and token.lower_ in NAME_PARTICLES


def has_indefinite_article(token: Any) -> bool:
    return any(c.dep_ == "det" and c.lower_ in {"a", "an"} for c in token.children)


def names_a_field(token: Any) -> bool:
    """ "Australian" of "Australian rules footballer", "American" of "American football player"."""
    following = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    return following is not None and f"{token.lower_} {following.lower_}" in DEMONYM_FIELDS


def is_age_clause(token: Any) -> bool:
    """ "aged 35" after a verb: the parser hangs the verb's own prepositions on it."""
    return token.dep_ == "advcl" and token.lower_ == "aged" and token.head.i != token.i


def joined_hyphen(token: Any) -> bool:
    """The "-" inside "vice-president" (no space either side, a word either side)."""
    doc, i = token.doc, token.i
    return (
        token.text == "-"
        and 0 < i < len(doc) - 1
        and not doc[i - 1].whitespace_
        and not token.whitespace_
        and doc[i - 1].is_alpha
        and doc[i + 1].is_alpha
    )


def hyphen_prefix(token: Any) -> bool:
    """ "vice" of "vice-president", "wagon" of "wagon-making"."""
    return token.i + 1 < len(token.doc) and joined_hyphen(token.doc[token.i + 1])


def hyphenated_start(doc: Any, start: int) -> int:
    """The first token of the hyphenated word that ends at `start` ("vice-president", "editor-in-chief")."""
    while start >= 2 and joined_hyphen(doc[start - 1]):
        start -= 2
    return start


def known_for(token: Any) -> bool:
    """ "known for his macabre sensibility": what the person is known for, though it is his."""
    prep = token.head
    return token.dep_ == "pobj" and prep.lower_ == "for" and lemma_of(prep.head) == "know"


def lemma_of(token: Any) -> str:
    return token.lemma_.lower()


def kind_of_label(label: str | None) -> str | None:
    if label in {"DATE", "TIME"}:
        return "date"
    if label in PLACE_LABELS:
        return "place"
    if label == "PERSON":
        return "person"
    if label in THING_LABELS:
        return "org"
    return None


def triple_confidence(head: Argument, tail: Argument) -> float:
    entities = int(head.is_entity) + int(tail.is_entity)
    score = (CONFIDENCE_NO_ENTITY, CONFIDENCE_ONE_ENTITY, CONFIDENCE_BOTH_ENTITIES)[entities]
    if head.from_pronoun or tail.from_pronoun:
        score *= PRONOUN_PENALTY
    return round(score, 3)

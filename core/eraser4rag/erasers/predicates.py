"""A main predicate that lost its complement: the copula keeps its public adjectives, or a
conjoined clause or predicate takes its place."""

from __future__ import annotations

from typing import Any

from core.eraser4rag.erasers.grammar import (
    FINITE_TAGS,
    PREDICATE_DEPS,
    SUBJECT_DEPS,
    VERB_POS,
    is_adjective,
    subtree,
)
from core.eraser4rag.erasers.realise import DEMONYM


def kept_conjoined_predicate(copula: Any, removed: set[int]) -> Any | None:
    """A kept noun or adjective the parser hung on the copula as a conjunct ("was X and a member of Y"); a
    name is none after a removed common-noun predicate ("was [a footballer who played for Rangers, ...], and
    Newcastle United": a club, not what he was)."""
    common = any(
        c.dep_ in PREDICATE_DEPS and c.i in removed and c.pos_ in {"NOUN", "ADJ"} for c in copula.children
    )
    return next(
        (
            c
            for c in copula.children
            if c.dep_ == "conj"
            and c.i not in removed
            and c.pos_ in {"NOUN", "PROPN", "ADJ"}
            and not (common and c.pos_ == "PROPN")
        ),
        None,
    )


def _noun_phrase(head: Any) -> list[Any]:
    """The head's modifiers and theirs, without clauses or prepositional phrases."""
    found, frontier = [], [head]
    while frontier:
        token = frontier.pop()
        for child in token.children:
            if child.dep_ not in {"relcl", "acl", "prep", "conj", "appos", "advcl"}:
                found.append(child)
                frontier.append(child)
    return found


_CLUB_OR_PLACE = {"ORG", "FAC", "GPE"}


def keep_public_adjectives(copula: Any, removed: set[int], keep: set[int]) -> bool:
    """'was an English politician' with only 'English' public keeps 'was English'."""
    adjectives = [
        t
        for child in copula.children
        if child.dep_ in PREDICATE_DEPS
        for t in _noun_phrase(child)
        if t.dep_ in {"amod", "compound"}
        and t.i in keep
        and t.i in removed
        and is_adjective(t)
        and not _part_of_a_public_noun(t, keep)
    ]
    adjectives = list({t.lower_: t for t in adjectives}.values())
    if not adjectives:
        return False
    for adjective in adjectives:
        removed.discard(adjective.i)
        if (
            adjective.text[:1].isupper()
            and adjective.ent_type_ != "NORP"
            and not DEMONYM.match(adjective.text)
        ):
            # "is a [1917 American silent] Western [film]": a genre stands as a noun, with its article
            removed.difference_update(c.i for c in adjective.head.children if c.dep_ == "det")
    doc = copula.doc
    for adjective in adjectives:  # "Italian-Swiss" keeps its hyphen
        hyphen = adjective.i + 1
        if hyphen + 1 < len(doc) and doc[hyphen].text == "-" and doc[hyphen + 1].i not in removed:
            removed.discard(hyphen)
    names = [c for c in copula.children if c.dep_ == "conj" and c.pos_ == "PROPN" and c.i not in removed]
    for name in [n for n in names if any(t.ent_type_ in _CLUB_OR_PLACE for t in [n, *n.lefts])]:
        # "was Scottish, and Newcastle United (where ...)": a club the parser hung on the copula
        removed.update(subtree(name) | _swallow_coordinator(name))
    return True


def _part_of_a_public_noun(adjective: Any, keep: set[int]) -> bool:
    """ "an associate director [of X]": the public fact is the role, not "associate" alone."""
    return adjective.head.i in keep


def clause_tokens(token: Any) -> set[int]:
    """The tokens a clause takes with it; a conjunct takes its coordinator, not what precedes the first
    conjunct (the parser may hang a shared "when" on the second)."""
    if token.dep_ != "conj":
        return subtree(token)
    return {i for i in subtree(token) if i > token.head.i} | _swallow_coordinator(token)


def promote_conjoined_clause(root: Any, removed: set[int]) -> bool:
    """'He is [a Muslim] and he's the youngest son' -> 'He's the youngest son': a conjoined clause takes
    the place of the main clause that lost its predicate (with its subject when it had none of its own)."""
    clause = next(
        (c for c in root.children if c.dep_ == "conj" and c.i not in removed and c.pos_ in VERB_POS),
        None,
    )
    if clause is None:
        return _promote_conjoined_predicate(root, removed)
    if _points_into(clause, root, removed):
        return False  # "he [became head coach of the team and] prepared it": "it" was the team
    keep = subtree(clause) | {t.i for t in root.subtree if t.is_punct and t.i > clause.right_edge.i}
    if not any(c.dep_ in {"nsubj", "nsubjpass", "expl", "csubj"} for c in clause.children):
        # "He [became a barrister and] was involved with the case": the second verb shares the subject
        # ("and there are numerous stories" has its own)
        subject = next((c for c in root.children if c.dep_ in {"nsubj", "nsubjpass"} and c.i < root.i), None)
        finite = clause.tag_ in FINITE_TAGS | {"VBN", "VBG"} or any(
            c.dep_ in {"aux", "auxpass"} for c in clause.children
        )
        if subject is None or not finite or subject.i in removed:
            return False
        keep |= subtree(subject)
        keep -= {c.i for c in clause.children if c.dep_ == "cc" and c.i < clause.i}  # not its own "and"
        if is_participle(clause, root) and not any(c.dep_ in {"aux", "auxpass"} for c in clause.children):
            # "Harrison was [drafted into the Army and] posted to Germany": the auxiliary is shared
            keep |= {c.i for c in root.children if c.dep_ in {"aux", "auxpass", "neg"} and c.i < root.i}
    promoted = {t.i for t in root.subtree if t.i not in keep}
    # "he was [a footballer for a club] and also captained the team": "also" added to what went
    promoted |= {c.i for c in clause.children if c.dep_ == "advmod" and c.lower_ in {"also", "too"}}
    if not any(t.dep_ in SUBJECT_DEPS | {"expl"} and t.i not in removed | promoted for t in root.sent):
        return False  # "On the way [he fell ill at Moffat], and died there": nobody left to die
    removed.update(promoted)
    return True


# verbs a biography says in the passive ("was drafted ... and posted to Germany"); after a passive first
# verb the tagger may read them as simple past, and without the shared "was" they would mean another thing
USUALLY_PASSIVE = {
    "post", "station", "assign", "send", "transfer", "bury", "raise", "educate", "appoint", "name",
    "promote", "deploy", "commission", "ordain", "induct", "imprison", "exile", "deport", "intern",
    "wound", "injure", "baptise", "baptize", "knight", "decorate", "inter", "cremate", "second",
}  # fmt: skip


def is_participle(clause: Any, root: Any) -> bool:
    if clause.tag_ in {"VBN", "VBG"}:
        return True
    passive = any(c.dep_ == "auxpass" for c in root.children)
    return passive and clause.tag_ == "VBD" and clause.lemma_ in USUALLY_PASSIVE


THING_PRONOUNS = {"it", "its", "them", "their", "this", "these", "those"}


def _points_into(clause: Any, root: Any, removed: set[int]) -> bool:
    """Whether the clause has a pronoun for a thing the removed part of the root's clause named."""
    pronouns = [t for t in clause.subtree if t.lower_ in THING_PRONOUNS and t.pos_ in {"PRON", "DET"}]
    things = [
        t
        for t in root.subtree
        if t.i in removed and t.i < clause.i and t.pos_ in {"NOUN", "PROPN"} and t.ent_type_ != "PERSON"
    ]
    return bool(pronouns and things)


def _promote_conjoined_predicate(copula: Any, removed: set[int]) -> bool:
    """ "He was [a member of X from 1912 to 1928 and] a member of Y": the parser hangs the second
    predicate on the copula; it takes the first one's place, and what stood between them goes."""
    if copula.lemma_ != "be":
        return False
    second = kept_conjoined_predicate(copula, removed)
    if second is None:
        return False
    removed.update(t.i for t in copula.subtree if copula.i < t.i < second.left_edge.i)
    return True


def _swallow_coordinator(token: Any) -> set[int]:
    """The coordinator and comma before a removed conjunct ("..., and composer")."""
    doc = token.doc
    first = token.left_edge.i
    taken = set()
    while first > 0 and doc[first - 1].text in {",", "and", "or", ";"}:
        first -= 1
        taken.add(first)
    return taken

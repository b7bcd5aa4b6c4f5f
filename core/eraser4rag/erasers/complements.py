"""Heads without their complement (Clarke & Lapata 2008; Filippova & Altun 2013: a word stays only while
what it needs stays): a preposition without its object, a verb without its object or the phrase it needs
("returned [to Morocco] for some time"), a copula without its predicate, a role or relational noun without
its "of" phrase. `closure.close_deletions` runs them with its other rules until nothing changes."""

from __future__ import annotations

from typing import Any

from core.eraser4rag.erasers.grammar import (
    ADJECTIVES_WITH_COMPLEMENT,
    COMPLEMENT_DEPS,
    HELD_AT_ROLES,
    NEEDS_AN_OBJECT,
    NEEDS_ITS_OF,
    OBJECT_DEPS,
    OBJECT_OF_VERB,
    PREDICATE_DEPS,
    REFLEXIVES,
    RELATIONAL_NOUNS,
    REQUIRED_PREPOSITIONS,
    ROLE_NOUNS,
    SAID_WITH_WHERE,
    STANDS_ALONE,
    VERB_POS,
    has_kept_conj,
    is_a_role_hung_on_an_object,
    list_members,
    named_phrases,
    needs_its_phrase,
    next_kept_conj,
    same_kind,
    subtree,
)
from core.eraser4rag.erasers.predicates import clause_tokens, keep_public_adjectives, promote_conjoined_clause


def remove_heads_without_complement(sent: Any, removed: set[int], keep: set[int]) -> bool:
    """Drop prepositions, "born", verbs and copulas whose complements all went; True: the root lost one."""
    for token in sent:
        if token.i in removed:
            continue
        lost = _lost_complement(token, removed)
        if not lost:
            continue
        if token.dep_ == "ROOT" or token.head.i == token.i or token.head not in token.sent:
            if token.lemma_ == "be" and keep_public_adjectives(token, removed, keep):
                continue
            if promote_conjoined_clause(token, removed):
                continue
            return True
        marks = {i for c in token.children if c.dep_ == "mark" for i in subtree(c)}
        roles = {
            i
            for c in token.children
            for r in c.children
            if is_a_role_hung_on_an_object(r)
            for i in subtree(r)
        }
        removed.update(clause_tokens(token) - marks - roles)  # "as he [from 1960 to 2001] published"
    return False


def remove_phrases_of_removed_conjuncts(sent: Any, removed: set[int]) -> None:
    """'member for Bathurst [in 1872 and for Orange] in 1875': the parser hangs 'in 1875' on the verb,
    but it belonged to the removed conjunct; left, it would move Bathurst's seat to 1875."""
    for token in sent:
        if token.i in removed:
            removed.update(_phrase_of_a_removed_conjunct(token, removed))


def _phrase_of_a_removed_conjunct(preposition: Any, removed: set[int]) -> set[int]:
    if (
        preposition.pos_ != "ADP"
        or not subtree(preposition) <= removed
        or not any(
            c.dep_ == "conj" and c.pos_ == "ADP" and c.lower_ != preposition.lower_
            for c in preposition.children
        )
    ):
        return set()
    end = max(subtree(preposition)) + 1
    if end >= preposition.sent.end:
        return set()
    after = preposition.doc[end]
    if after.i in removed or after.dep_ != "prep" or after.head.i != preposition.head.i:
        return set()
    return subtree(after)


def _lost_complement(token: Any, removed: set[int]) -> bool:
    children = list(token.children)
    if token.pos_ == "ADP" and token.dep_ in {"prep", "agent", "dative", "conj"}:
        # the parser may hang what follows "from" as "1960" (npadvmod) and "to 2001" (prep)
        objects = [c for c in children if c.dep_ in OBJECT_DEPS] or [
            c for c in children if c.dep_ in {"npadvmod", "prep", "nummod"}
        ]
        if token.lower_ == "between" and _lost_a_side(objects, removed):
            return True  # "the dispute between the United Kingdom [and Argentina]"
        # "born in [Paris and] London": the next conjunct takes the removed object's place
        # ("published in [London,] Chatto and Windus 1903": a publisher does not take a place's place)
        return bool(objects) and all(c.i in removed and not _alike_member_kept(c, removed) for c in objects)
    if token.lower_ in {"born", "née", "nee", "died"}:
        parts = [c for c in children if not c.is_punct]
        return bool(parts) and all(c.i in removed for c in parts)
    if token.pos_ == "ADJ" and token.lower_ in ADJECTIVES_WITH_COMPLEMENT:
        parts = [c for c in children if c.dep_ in {"xcomp", "prep", "ccomp"}]
        return bool(parts) and all(c.i in removed for c in parts)
    if token.pos_ not in VERB_POS:
        return False
    if _lost_shared_object(token, removed) or _lost_required_phrase(token, removed):
        return True
    if token.lemma_ == "have" and _lost_what_it_had_as(token, removed):
        return True
    stands_alone = token.lemma_ in STANDS_ALONE and not _participle_clause(token)
    if token.lemma_ != "be" and not stands_alone and _lost_every_right_complement(token, removed):
        return True
    copula = token.lemma_ == "be"
    needed = [c for c in children if c.dep_ in (PREDICATE_DEPS if copula else OBJECT_OF_VERB)]
    if copula and not needed:
        return _lost_every_phrase_after_it(token, removed)
    if not needed or not all(c.i in removed or lost_of_complement(c, removed) for c in needed):
        return False
    if any(has_kept_conj(c, removed) for c in needed):
        return False  # the predicate's next conjunct takes its place
    # what follows the verb completes it ("when" before it does not); a transitive verb's object is not
    # replaced by a prepositional phrase ("received [a degree] in painting")
    # and a copula whose predicate went is not completed by what is left ("was [an announcer] during the war")
    completing = {"xcomp", "ccomp"} if copula else COMPLEMENT_DEPS - {"prep", "advmod", "npadvmod"}
    others = [c for c in children if c.dep_ in completing and c.i not in removed and c.i > token.i]
    # "recognized [Harrison] and rewarded him": the object is shared with a kept conjunct
    shared = token.lemma_ != "be" and any(
        c.dep_ == "conj" and c.i not in removed and any(g.dep_ == "dobj" for g in c.children)
        for c in children
    )
    return not others and not shared


def _lost_what_it_had_as(verb: Any, removed: set[int]) -> bool:
    """ "where he had as a classmate [John Wilson]": what he had was the name (the parser hangs it on
    "classmate"); "as a classmate" only says as what."""
    if any(c.dep_ == "dobj" and c.i not in removed for c in verb.children):
        return False
    for preposition in verb.children:
        if preposition.dep_ != "prep" or preposition.lower_ != "as":
            continue
        for noun in preposition.children:
            names = [c for c in noun.children if c.dep_ == "appos"]
            if names and all(c.i in removed for c in names):
                return True
    return False


def _lost_every_phrase_after_it(copula: Any, removed: set[int]) -> bool:
    """A copula without a noun or adjective predicate whose phrases after it all went: "It was also [while
    attending SAIC that Harrison met his future wife]" says nothing ("There was" neither)."""
    adverbs = [c for c in copula.children if c.i > copula.i and c.dep_ == "advmod" and c.i not in removed]
    if any(c.lower_ not in _FRAMING_ADVERBS for c in adverbs):
        return False  # "He was abroad [from 1950 to 1955]": the adverb is the predicate
    after = [
        c for c in copula.children if c.i > copula.i and not c.is_punct and c.dep_ not in {"advmod", "neg"}
    ]
    if bool(after) and all(c.i in removed for c in after):
        return True
    # "He was [in Paris] for a conference", "I am [in Leiria] for a business trip": where he was went, and
    # a phrase of why or how long is no predicate
    gone = [c for c in after if c.i in removed and c.dep_ == "prep"]
    kept = [c for c in after if c.i not in removed]
    return bool(gone) and all(c.dep_ == "npadvmod" or c.lower_ in _ADJUNCT_PREPOSITIONS for c in kept)


# prepositions of a copula's phrase that say when, how long or why, never where or what it was
_ADJUNCT_PREPOSITIONS = {"for", "during", "until", "till", "since", "after", "before"}


# adverbs that frame a cleft or a copula without saying where or how it was ("It was also [in Paris that]")
_FRAMING_ADVERBS = {
    "also", "then", "later", "still", "again", "too", "once", "only", "even", "eventually", "never",
}  # fmt: skip


def _lost_required_phrase(verb: Any, removed: set[int]) -> bool:
    """A verb whose phrases of its needed prepositions all went, only adjuncts left: "she returned [to
    Morocco] for some time", "established himself [as a political commentator]"."""
    right = [c for c in verb.children if c.i > verb.i and c.dep_ == "prep"]
    needed = REQUIRED_PREPOSITIONS.get(verb.lemma_, set())
    if any(
        c.dep_ == "dobj" and (c.lower_ in REFLEXIVES or _unnamed(c, SAID_WITH_WHERE)) for c in verb.children
    ):
        needed = {
            c.lower_ for c in right
        }  # "established himself", "received his early education": any phrase
    phrases = [c for c in right if c.lower_ in needed]
    # "spent a year [at 5Psolutions] as the assistant": the parser hung the "as" on the removed object
    roles = [r for c in right for o in c.children for r in o.children if is_a_role_hung_on_an_object(r)]
    phrases += [r for r in roles if r.lower_ in needed]
    return bool(phrases) and all(c.i in removed for c in phrases)


def _unnamed(noun: Any, nouns: set[str]) -> bool:
    """ "a degree", "his early education"; not "a Bachelor of Arts degree" or "a bachelor's degree"."""
    return noun.lemma_.lower() in nouns and not any(
        c.dep_ in {"compound", "nmod"} or (c.dep_ == "poss" and c.pos_ != "PRON") for c in noun.children
    )


def _alike_member_kept(member: Any, removed: set[int]) -> bool:
    kept = next_kept_conj(member, removed) or next_member_hung_elsewhere(member, removed)
    return kept is not None and same_kind(member, kept)


def next_member_hung_elsewhere(member: Any, removed: set[int]) -> Any | None:
    """ "for the BC Lions, Ottawa Renegades, and Winnipeg Blue Bombers": the parser hangs the other members
    on a verb far before; the one right after the comma is still the list's next member."""
    after = max(subtree(member)) + 1
    doc = member.doc
    if after + 1 >= member.sent.end or doc[after].text != ",":
        return None
    following = doc[after + 1]
    while following.dep_ == "compound" and following.head.i > following.i:
        following = following.head
    outside = following.head.i < member.left_edge.i
    if following.dep_ == "conj" and outside and following.i not in removed and following.pos_ == member.pos_:
        return following
    return None


def _lost_a_side(objects: list[Any], removed: set[int]) -> bool:
    """Whether "between" had two sides or more and is left with one (either may have gone)."""
    sides = [side for first in objects for side in list_members(first)]  # the parser chains the sides
    return len(sides) >= 2 and len([s for s in sides if s.i not in removed]) == 1


def _lost_shared_object(verb: Any, removed: set[int]) -> bool:
    """ "He also owned [and operated IMPACC Consulting]": the parser hangs a shared object on the second
    verb only; when that verb and its object go, the first has lost its object too. So does a verb that
    needs a place ("spent many years living [and working in London]")."""
    places = REQUIRED_PREPOSITIONS.get(verb.lemma_, set())
    if verb.lemma_ in NEEDS_AN_OBJECT:
        if any(c.dep_ in OBJECT_OF_VERB for c in verb.children):
            return False  # "the Kingdom of Italy attacked [and took possession of ...]" reads whole
        shared = {"dobj"}
    elif places:
        if any(c.dep_ == "prep" and c.lower_ in places for c in verb.children):
            return False
        shared = {"prep"}
    else:
        return False
    for second in verb.children:
        if second.dep_ != "conj" or second.i not in removed or second.i != verb.i + 2:
            continue
        objects = [
            c for c in second.children if c.dep_ in shared and (shared != {"prep"} or c.lower_ in places)
        ]
        if objects and all(o.i in removed for o in objects) and verb.doc[verb.i + 1].dep_ == "cc":
            return True
    return False


def _participle_clause(verb: Any) -> bool:
    """ "..., returning in 1930": a participle clause says nothing once its complements went."""
    return verb.dep_ in {"advcl", "acl", "conj"} and verb.tag_ in {"VBG", "VBN"}


def _lost_every_right_complement(verb: Any, removed: set[int]) -> bool:
    """'Geraghty served [as a law clerk ...]', 'James currently lives [in Parkview]'."""
    after = [c for c in verb.children if c.i > verb.i and c.dep_ in COMPLEMENT_DEPS | {"dobj", "oprd"}]
    return bool(after) and all(c.i in removed for c in after)


def lost_of_complement(noun: Any, removed: set[int]) -> bool:
    """'part' whose 'of ...' went is as good as gone; so is a bare 'the period' whose 'from 1971 to
    1978' went ('the founder [of X]')."""
    relational = noun.lower_ in RELATIONAL_NOUNS or any(
        c.dep_ == "compound" and c.lower_ in RELATIONAL_NOUNS for c in noun.children
    )  # "a member state [of the African Union]"
    phrases = [c for c in noun.children if c.dep_ in PHRASE_DEPS] + _naming_phrase_of_verb(noun)
    # a role needs its "of" ("the founder [of X]"), not "at Harvard" ("a professor [at Harvard]")
    of_phrases = [c for c in phrases if c.lower_ == "of"]
    if not relational and noun.lower_ in NEEDS_ITS_OF and of_phrases:
        if held_at_a_named_place(noun, removed):
            return False  # "Professor [of Music] at Hampton University" still says where
        phrases = of_phrases
    elif needs_its_phrase(noun):  # "During his time [in Berlin]", "his contribution [to X]"
        phrases = [c for c in noun.children if c.dep_ == "prep"]
    elif not relational and not _bare_definite(noun):
        return False
    if phrases and all(p.i in removed for p in phrases):
        sharing = _conjuncts_sharing_the_phrase(noun)
        removed.update(subtree(noun) - (_kept_conjuncts(noun, removed) - sharing))
        removed.update(_hyphenated_prefix(noun))
        return True
    return False


def held_at_a_named_place(role: Any, removed: set[int]) -> bool:
    """ "a professor [of Music] at Hampton University": a role held at a place still named reads without
    its "of" (`grammar.HELD_AT_ROLES`; not "an opponent [of slavery] at Westminster")."""
    return role.lemma_.lower() in HELD_AT_ROLES and any(
        prep.i not in removed and all(c.i not in removed for c in prep.children)
        for prep in named_phrases(role, {"at"})
    )


def _conjuncts_sharing_the_phrase(noun: Any) -> set[int]:
    """ "a co-founder and former managing partner [of CVC]": the parser hangs the shared "of" phrase on
    one role; the other roles beside it, with no phrase of their own, lose it too."""
    return {
        i
        for c in noun.children
        if c.dep_ == "conj"
        and c.lower_ in RELATIONAL_NOUNS | ROLE_NOUNS
        and not any(g.dep_ in PHRASE_DEPS for g in c.children)
        for i in subtree(c)
    }


PHRASE_DEPS = {"prep", "poss"}  # what completes a relational noun: "member [of X]", "[X's] wife"


def _hyphenated_prefix(noun: Any) -> set[int]:
    """ "co-founder" is three tokens to the parser ("co", "-", "founder"): the prefix and its article."""
    doc = noun.doc
    first = noun.i
    while first >= 2 and doc[first - 1].text == "-" and not doc[first - 2].text_with_ws.endswith((" ", "-")):
        if doc[first - 1].whitespace_:
            break
        first -= 2
    prefix = set(range(first, noun.i))
    return prefix | {c.i for i in prefix for c in doc[i].children if c.dep_ == "det"}


def _kept_conjuncts(token: Any, removed: set[int]) -> set[int]:
    """Tokens of the kept conjuncts hung on `token`: "[a member of X from 1912 to 1928 and] a member of Y"
    keeps the second member when the first goes."""
    return {
        i
        for c in token.children
        if c.dep_ == "conj" and c.i not in removed and same_kind(token, c)
        for i in subtree(c)
    }


def _naming_phrase_of_verb(noun: Any) -> list[Any]:
    """The parser hangs "for best situation comedy" of "won the prize for best situation comedy" on the
    verb; it is what said which prize."""
    if noun.dep_ != "dobj" or not _bare_definite(noun):
        return []
    end = max(subtree(noun)) + 1
    return [c for c in noun.head.children if c.i == end and c.dep_ == "prep" and c.lower_ in {"for", "of"}]


def _bare_definite(noun: Any) -> bool:
    if noun.pos_ != "NOUN":
        return False
    children = list(noun.children)
    has_the = any(c.dep_ == "det" and c.lower_ == "the" for c in children)
    modified = any(c.dep_ in {"amod", "compound", "nummod", "nmod", "acl", "relcl"} for c in children)
    return has_the and not modified

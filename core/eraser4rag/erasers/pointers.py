"""Words that point back at a place the sentence named: once the name went, "the community" or "the
town" points at nothing the reader was told, so the pointing phrase goes with it. `closure.close_deletions`
runs this with its other rules until nothing changes; the rendering says "a city council" for "the city
council" of a city that went."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from core.eraser4rag.erasers.complements import held_at_a_named_place
from core.eraser4rag.erasers.grammar import PLACE_PARTS, named_phrases, says_which_one, subtree

PLACE_POINTERS = {
    "community", "town", "city", "village", "county", "state", "country", "region", "province",
    "municipality", "borough", "parish", "district", "island", "nation",
}  # fmt: skip
PLACE_LABELS = {"GPE", "LOC", "NORP"}
_OWNER_PREPOSITIONS = {"of", "for", "at", "with"}
_SAYS_WHICH_ONE = {"prep", "relcl", "acl", "appos", "poss"}  # "the coach [who ...]", "the coach [of X]"
_SAYS_WHICH = {"amod", "compound", "prep", "nmod", "relcl", "acl", "appos"}


def remove_pointers_to_removed_places(sent: Any, removed: set[int]) -> None:
    """ "a councillor [of Pembroke, Ontario] for five years and once served as the community's mayor":
    "the community's" goes ("served as mayor"); a place still named before it keeps it."""
    for article, noun in _kept_definite_articles(sent, removed):
        if noun.lemma_.lower() not in PLACE_POINTERS or any(c.dep_ in _SAYS_WHICH for c in noun.children):
            continue
        places = [t for t in sent if t.i < article.i and t.ent_type_ in PLACE_LABELS]
        if places and all(t.i in removed for t in places):
            removed.update(subtree(noun) if noun.dep_ == "poss" else {article.i} | subtree(noun))


def remove_parts_of_removed_places(sent: Any, removed: set[int]) -> None:
    """ "representing the 21st District on [Cleveland's] East Side": the East Side of a city no longer named
    points at nothing; its phrase goes ("representing the 21st District"). So does "born in [Cleveland's]
    Central neighborhood"."""
    for possessor in sent:
        part = possessor.head
        if (
            possessor.i in removed
            and possessor.dep_ == "poss"
            and possessor.ent_type_ in PLACE_LABELS
            and part.i not in removed
            and _names_a_part_of_a_place(part)
            and part.dep_ == "pobj"
            and part.head.i not in removed
        ):
            removed.update(subtree(part.head))


def remove_bare_nouns_whose_number_went(sent: Any, removed: set[int]) -> None:
    """ "the last billed amount for cc [5400940151289172]", "the limit for card [5458212250657274]": a
    singular common noun without an article that labels the number after it says nothing once the number
    went, and reads as cut off ("for cc?"); it goes, and the closure's rules take what needed it. A noun
    with its own article, owner, adjective or phrase ("with the card", "my card") stays, and so does one
    whose name or year stood before it ("sent to [Alcatraz] prison", "in [1997] election")."""
    for noun in sent:
        if noun.i in removed or noun.tag_ != "NN" or noun.dep_ not in {"pobj", "dobj"}:
            continue
        numbers = [c for c in noun.children if c.dep_ in {"appos", "nummod"} and c.i > noun.i and c.like_num]
        kept = [c for c in noun.children if c.i not in removed and not c.is_punct]
        if numbers and all(c.i in removed for c in numbers) and not kept:
            removed.add(noun.i)


def _names_a_part_of_a_place(part: Any) -> bool:
    """ "East Side", "Central neighborhood", "Bronzeville neighborhood"; not "[Germany's] Bundestag" or
    "Carnegie Hall", and not a part that says more of itself ("the neighborhood where he attended school":
    the clause would lose its noun)."""
    if part.pos_ == "PROPN":
        return part.ent_type_ == "LOC"
    return (
        part.pos_ == "NOUN"
        and part.lemma_.lower() in PLACE_PARTS
        and not any(c.dep_ in {"relcl", "acl", "prep", "nummod"} for c in part.children)
        and not any(c.dep_ == "compound" and c.pos_ == "NOUN" for c in part.children)
    )


def articles_of_places_that_went(sent: Any, removed: set[int]) -> set[int]:
    """ "he was member of the city council [of Essen]": "the" points at the council of a city no longer
    named; the rendering says "a city council" instead."""
    articles = set()
    for article, noun in _kept_definite_articles(sent, removed):
        if noun.tag_ in {"NNS", "NNPS"}:
            continue  # "the city councils [of Essen and Bonn]": no "a"
        kinds = [c for c in noun.children if c.dep_ == "compound" and c.lemma_.lower() in PLACE_POINTERS]
        places = [
            c
            for prep in noun.children
            if prep.dep_ == "prep" and prep.lower_ == "of" and prep.i in removed
            for c in prep.children
            if c.dep_ == "pobj" and (c.ent_type_ in PLACE_LABELS or c.pos_ == "PROPN")
        ]
        if kinds and places and all(c.i not in removed for c in kinds):
            articles.add(article.i)
    return articles


# institutions a "the" ties to the place the sentence named ("educated at [Glasgow], and entered the
# university")
PLACE_INSTITUTIONS = {"university", "college", "academy", "seminary", "conservatory", "polytechnic"}


def articles_of_institutions_of_places_that_went(sent: Any, removed: set[int]) -> set[int]:
    """ "He was educated [in one of the academies at Glasgow], and at fourteen entered the university": the
    university was Glasgow's; once every place before it went, the rendering says "a university"."""
    articles = set()
    for article, noun in _kept_definite_articles(sent, removed):
        if noun.lemma_.lower() not in PLACE_INSTITUTIONS or noun.tag_ != "NN":
            continue
        if any(c.dep_ in _SAYS_WHICH and c.i not in removed for c in noun.children):
            continue  # "the university of his town", "the Catholic university"
        before = [t for t in sent if t.i < article.i]
        places = [t for t in before if _a_place(t)]
        # a body still named says which one: "He joined Harvard in [Cambridge] and taught at the university"
        bodies_kept = any(t.ent_type_ == "ORG" and t.i not in removed for t in before)
        if places and all(t.i in removed for t in places) and not bodies_kept:
            articles.add(article.i)
    return articles


def _a_place(token: Any) -> bool:
    """A place name, or a name where things are ("at Glasgow", which the tagger may call a person)."""
    return token.ent_type_ in PLACE_LABELS or (
        token.pos_ == "PROPN" and token.dep_ == "pobj" and token.head.lower_ in {"at", "in"}
    )


def articles_of_objects_whose_name_went(sent: Any, removed: set[int]) -> set[int]:
    """ "he founded the group [Forma 1] alongside Carla Accardi": "the" said which group by its name; the
    rendering says "a group"."""
    return {
        article.i
        for article, noun in _kept_definite_articles(sent, removed)
        if sayable_with_a(noun, removed)
        and any(c.i in removed and named_by_a_close_apposition(c, noun) for c in noun.children)
    }


def named_by_a_close_apposition(name: Any, noun: Any) -> bool:
    """ "the group Forma 1": a proper name right after its "the" noun."""
    return (
        name.dep_ == "appos"
        and name.pos_ == "PROPN"
        and noun.pos_ == "NOUN"
        and noun.i == name.left_edge.i - 1
        and any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children)
    )


def sayable_with_a(noun: Any, removed: set[int] = frozenset()) -> bool:
    """A singular object or predicate noun reads with "a" ("founded a group"); a subject would not, nor
    one still said to be one of a kind ("the first group", "the same group")."""
    return noun.tag_ == "NN" and noun.dep_ in {"dobj", "attr", "oprd"} and not says_which_one(noun, removed)


def articles_of_roles_that_went(sent: Any, removed: set[int]) -> set[int]:
    """ "Barnes became the ruck coach [for the Western Bulldogs] in 2008": "the" said which team's coach;
    with the team gone it points at nothing, and the rendering says "a ruck coach"; so does "the director
    [of research] at IBM" ("a director at IBM", `complements.held_at_a_named_place`). A role still said to
    be one of a kind ("the first coach", "the coach who ...") keeps "the"."""
    articles = set()
    for article, noun in _kept_definite_articles(sent, removed):
        if noun.tag_ != "NN" or noun.lemma_.lower() in PLACE_POINTERS or not _a_role(noun):
            continue
        if says_which_one(noun, removed):
            continue
        lost_owner = any(prep.i in removed for prep in named_phrases(noun, _OWNER_PREPOSITIONS))
        if (lost_owner and not _still_said_which(noun, removed)) or (
            _lost_its_kind(noun, removed) and held_at_a_named_place(noun, removed)
        ):
            articles.add(article.i)
    return articles


def _a_role(noun: Any) -> bool:
    """A predicate noun: "became the coach", "served as the coach"."""
    return noun.dep_ in {"attr", "oprd"} or (noun.dep_ == "pobj" and noun.head.lower_ == "as")


def _lost_its_kind(noun: Any, removed: set[int]) -> bool:
    return any(c.dep_ == "prep" and c.lower_ == "of" and subtree(c) <= removed for c in noun.children)


def _still_said_which(noun: Any, removed: set[int]) -> bool:
    return any(c.i not in removed and c.dep_ in _SAYS_WHICH_ONE for c in noun.children)


def _kept_definite_articles(sent: Any, removed: set[int]) -> Iterator[tuple[Any, Any]]:
    """Each kept "the" with its kept noun."""
    for article in sent:
        noun = article.head
        if (
            article.i not in removed
            and article.lower_ == "the"
            and article.dep_ == "det"
            and noun.i not in removed
        ):
            yield article, noun

"""Academic degrees in a parsed sentence: "a Bachelor of Science in electrical engineering".

A degree is a degree noun ("degree", "PhD", "MA", "diploma") or a named degree ("Bachelor of
Science", "master of fine arts", "Doctor of Medicine": a degree head, "of", and the words of a
faculty). Its field ("in electrical engineering") is the `academic_major`, a fact of its own, so
an academic degree is named without it ("Bachelor of Science", "MA", "master's degree"); a bare
"degree" keeps its field ("a degree in physics"), and so does a vocational award ("a Diploma in
Journalism"), which has no academic major. The word lists are general, not drawn from passages.
"""

from __future__ import annotations

from typing import Any

from core.extract.vocabulary import DEGREE_NOUNS, word_set

VOCATIONAL_AWARDS = word_set("diploma certificate licence license")
NAMED_DEGREE_HEADS = word_set("bachelor master doctor associate licentiate")
# The faculty words of named degrees ("Bachelor of Fine Arts", "Master of Business Administration").
FACULTY_WORDS = word_set(
    """arts art science sciences laws law engineering education medicine philosophy music musical
    business administration public fine divinity theology technology commerce nursing letters
    architecture pharmacy health social work surgery dental dentistry veterinary literature
    humanities economics design journalism accountancy accounting agriculture applied computer
    library information studies sacred civil international management"""
)
BARE_DEGREE_WORDS = word_set("degree degrees")


def named_degree_end(token: Any) -> int | None:
    """ "Bachelor of Science", "master of fine arts": the index after the degree's name."""
    doc = token.doc
    if token.lower_ not in NAMED_DEGREE_HEADS or token.i + 2 >= len(doc) or doc[token.i + 1].lower_ != "of":
        return None
    end = token.i + 2
    while end < len(doc) and (
        doc[end].lower_ in FACULTY_WORDS
        or (doc[end].lower_ == "and" and end + 1 < len(doc) and doc[end + 1].lower_ in FACULTY_WORDS)
    ):
        end += 1
    if end == token.i + 2:
        return None
    following = doc[end] if end < len(doc) else None
    if (
        following is not None
        and following.pos_ in {"NOUN", "PROPN"}
        and following.lower_ not in BARE_DEGREE_WORDS
        and doc[end - 1].head.i == following.i
    ):
        return None  # "a master of science fiction": the words run on into a noun of their own
    return end


def named_kind(token: Any) -> Any | None:
    """ "a Master of Science degree": the named degree before the word "degree"."""
    if token.lower_ not in BARE_DEGREE_WORDS:
        return None
    return next((c for c in token.lefts if named_degree_end(c) == token.i), None)


def is_degree_token(token: Any) -> bool:
    lower = token.lower_
    return (
        lower in DEGREE_NOUNS or token.lemma_.lower() in DEGREE_NOUNS or named_degree_end(token) is not None
    )


def is_vocational(token: Any) -> bool:
    return token.lower_ in VOCATIONAL_AWARDS or token.lemma_.lower() in VOCATIONAL_AWARDS


def degree_name_end(token: Any, phrase_end: int) -> int:
    """Where the degree's name ends: after "Bachelor of Science", else after its noun phrase."""
    named = named_degree_end(token)
    return phrase_end if named is None else max(phrase_end, named)


def field_position(token: Any, name_end: int) -> int:
    """ "a bachelor of arts degree in Economics": the field comes after the word "degree"."""
    doc = token.doc
    if (
        named_degree_end(token) is not None
        and name_end < len(doc)
        and doc[name_end].lower_ in BARE_DEGREE_WORDS
    ):
        return name_end + 1
    return name_end


def names_its_field_apart(token: Any) -> bool:
    """An academic degree with a kind of its own ("Bachelor of Science", "MA", "master's degree")
    is named without its field; "a degree in physics" and "a Diploma in Journalism" keep it."""
    if is_vocational(token):
        return False
    if named_degree_end(token) is not None:
        return True
    if token.lower_ not in BARE_DEGREE_WORDS:
        return True  # "PhD", "MA", "MEd"
    return any(
        (c.dep_ in {"poss", "compound", "amod", "nmod"} and c.pos_ not in {"PRON", "DET"})
        or named_degree_end(c) is not None
        for c in token.lefts
    )  # "master's degree", "bachelor degree", "doctoral degree", "Master of Science degree"; not "his degree"


def degree_field(token: Any, end: int, also_on: bool = False) -> Any | None:
    """The "in"/"of" right after a degree, wherever the parser hung it ("studied Diploma in
    Journalism and Public Relations"), unless it gives a date ("a degree in 1947")."""
    doc = token.doc
    end = field_position(token, end)
    if end >= len(doc):
        return None
    prep = doc[end]
    if prep.lower_ not in ({"in", "of", "on"} if also_on else {"in", "of"}) or prep.dep_ != "prep":
        return None
    named = token.text[:1].isupper() or named_kind(token) is not None
    if prep.head.i not in {token.i, end - 1} and not (named and prep.head.i == token.head.i):
        return None  # only a named degree ("Diploma in", "a Master of Arts degree in") takes its verb's
    if any(t.ent_type_ in {"DATE", "TIME"} or t.like_num for t in prep.subtree if t.i != prep.i):
        return None
    return prep

"""Whether a partial deletion removed only what its sentence reads without (adjuncts), and the
adjunct clause a removal that cannot go alone takes with it."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from core.eraser4rag.erasers.complements import held_at_a_named_place, next_member_hung_elsewhere
from core.eraser4rag.erasers.grammar import (
    ARGUMENT_PREPOSITIONS,
    FINITE_TAGS,
    NEEDS_ITS_ADJECTIVE,
    NEEDS_ITS_KIND,
    OBJECT_DEPS,
    OBJECT_OF_VERB,
    PREDICATE_DEPS,
    ROLE_NOUNS,
    STANDS_ALONE,
    SUBJECT_DEPS,
    VERB_POS,
    has_its_of,
    has_kept_conj,
    inside_brackets,
    is_adjective,
    is_emphatic_reflexive,
    subtree,
)
from core.eraser4rag.erasers.predicates import kept_conjoined_predicate

# clauses a sentence reads without: "is a former football player [who played 11 seasons in the NFL]"
ADJUNCT_CLAUSES = {"relcl", "acl", "advcl", "appos", "parataxis"}

# where a removed list member's next conjunct can stand in for it ("born in [Paris and] London")
LIST_POSITIONS = OBJECT_DEPS | OBJECT_OF_VERB | PREDICATE_DEPS
NOMINAL_POS = {"NOUN", "PROPN", "NUM"}


def widened_to_adjunct_clauses(sent: Any, removed: set[int]) -> set[int]:
    """Each removal that cannot go alone takes the nearest adjunct clause around it with it."""
    widened = set(removed)
    for token in sent:
        if token.i not in removed or (token.head.i in removed and token.head.i != token.i):
            continue
        inside = (a for a in token.ancestors if sent.start <= a.i < sent.end)  # segment, not parser sentence
        clause = next((a for a in inside if a.dep_ in ADJUNCT_CLAUSES or _last_conjoined_verb(sent, a)), None)
        if clause is not None and _has_a_pronoun_subject(clause):
            continue  # "on the way [he fell ill at Moffat]": a main clause the parser hung on a noun
        if clause is not None and clause.head.i not in removed:
            widened |= subtree(clause)
    return widened


# what a sentence can lose and still say the rest as written: modifiers, appositions, relative
# clauses, a list member, a bracket's content, a time or place adjunct. Losing an object, a
# predicate, a subject or a negation leaves a stub that reads as a different claim ("He was director.",
# "he coached at the youth.", "She has been published among other publications.").
ADJUNCT_DEPS = {
    "amod", "compound", "appos", "nummod", "advmod", "npadvmod", "relcl", "acl", "conj", "cc", "parataxis",
    "punct", "det", "poss", "predet", "quantmod", "nmod", "case", "prt", "mark", "advcl", "meta", "dep",
    "preconj",
}  # fmt: skip


PLACE_OR_TIME = {"DATE", "TIME", "GPE", "LOC", "FAC"}


def only_adjuncts_removed(sent: Any, removed: set[int]) -> bool:
    """Whether every removed subtree of the sentence is an adjunct its head can do without."""
    if _orphaned_its(sent, removed):
        return False  # "was elected [to the Central Workers Committee], as its youngest member"
    if _conjunct_lost_its_subject(sent, removed):
        return False  # "on the way [he fell ill at Moffat], and died there"
    if _one_of_two_descriptions_of_a_plural(sent, removed):
        return False  # "of Mexican [and Scottish/American] parents": both parents now Mexican
    if _left_its_subject_behind(sent, removed):
        return False  # "retired to a farm near Tiaro and Eskdale [was acquired by Corser]": Eskdale stays
    if _verbs_run_together(sent, removed):
        return False  # "He graduated from X [and then learned Y from Z who] was Living National Treasure"
    for token in sent:
        if token.i not in removed or (token.head.i in removed and token.head.i != token.i):
            continue
        if _restricts_a_superlative(token):
            return False  # "the first cookbook author [published in colonial America]" would claim more
        if token.dep_ == "relcl" and _said_whose(token, removed):
            return False  # "In January 1984 remarks [he made on the bombing] caused great controversy"
        if token.is_punct or token.text in {"(", ")", "[", "]"} or inside_brackets(sent, token):
            continue
        if is_emphatic_reflexive(token):
            continue
        if token.dep_ == "prep" and not _droppable_prep(token, removed):
            return False
        if token.dep_ in {"amod", "compound", "nmod"} and _needs_its_adjective(token.head):
            return False  # "born into a family of [Basque] origin" ("because of his heritage" reads)
        if token.dep_ in PREDICATE_DEPS and _keeps_an_adjective(token, removed):
            continue  # "was [an] Italian [painter]" -> "was Italian": the copula keeps a predicate
        if token.dep_ in PREDICATE_DEPS | {"ROOT"} and _conjunct_took_its_place(token, removed):
            continue  # "He [became a barrister and] was involved with ...": the next conjunct stays
        if token.dep_ in LIST_POSITIONS and token.pos_ in NOMINAL_POS and has_kept_conj(token, removed):
            continue  # "born in [Paris and] London": the list's next member takes the object's place
        if token.dep_ == "pobj" and next_member_hung_elsewhere(token, removed):
            continue  # "for [the BC Lions,] Ottawa Renegades": the same, misparsed
        if token.dep_ != "prep" and token.dep_ not in ADJUNCT_DEPS:
            return False
        if token.dep_ == "conj" and not has_kept_conj(token.head, removed) and token.head.i in removed:
            return False
    return True


# words that say which thing, person, place, time or number a predicate is about
SPECIFIC_POS = {"PROPN", "NUM"}
CONTENT_POS = {"NOUN", "ADJ", "VERB"}


def a_bare_stub_left(sent: Any, removed: set[int], public: AbstractSet[int] = frozenset()) -> bool:
    """Whether the removal took every name, number and date its verb's predicate had, and left the
    verb with only generic words: "He debuted on stage [in 1957 at the National Theatre].", "Mulvaney
    ultimately graduated [from Georgetown University] with honors.". Each reads, but as what is left
    after a cut: it answers none of the when, where or what its sentence did. A copula's predicate
    ("He was [an Italian] painter.") still says what he was, and a kept word of a public fact's tail
    (`public`, "He worked as a teacher [in Oslo].") says that fact: neither is counted."""
    root = sent.root
    if root.i in removed or root.pos_ not in VERB_POS or root.lemma_ == "be":
        return False
    return _emptied(root, _without_subject(root, list(sent)), removed, public)


def bare_stub_clauses(sent: Any, removed: set[int], public: AbstractSet[int] = frozenset()) -> set[int]:
    """The tokens of each conjoined verb's clause that the removal left a bare stub (as
    `a_bare_stub_left` says of a sentence), with the comma and coordinator that joined it: "He is best
    known for portraying Herc in The Wire[, and is also known for his roles in A Bronx Tale (1993),
    Entourage, and The Irishman (2019)]." loses its second clause, not just the films; so does a trailing
    participle: "studied at the College of Photography in Kiryat Ono[, followed by a two-year program]"."""
    stubs: set[int] = set()
    for verb in sent:
        if not _joined_clause(verb) or verb.i in removed:
            continue
        if any(c.dep_ == "conj" and c.pos_ in VERB_POS for c in verb.children):
            continue  # "worked in a shop [in 1920], and later opened a studio": the next clause hangs on it
        if _emptied(verb, _without_subject(verb, list(verb.subtree)), removed, public):
            stubs |= subtree(verb) | _joiners_before(verb)
    return stubs


def _joined_clause(verb: Any) -> bool:
    """A conjoined verb, or a participle clause after its verb ("..., followed by ..."), with no subject
    or subordinator of its own."""
    if verb.pos_ != "VERB" or verb.head.pos_ not in VERB_POS:
        return False
    if verb.dep_ == "conj":
        return True
    return (
        verb.dep_ == "advcl"
        and verb.tag_ in {"VBN", "VBG"}
        and verb.i > verb.head.i
        and not any(c.dep_ in SUBJECT_DEPS or c.dep_ == "mark" for c in verb.children)
    )


def _joiners_before(verb: Any) -> set[int]:
    """The ", and" between a conjoined verb's clause and what it was joined to."""
    joiners, position = set(), verb.left_edge.i - 1
    while (
        position >= 0
        and verb.doc[position].head.i == verb.head.i
        and verb.doc[position].dep_ in {"cc", "punct"}
    ):
        joiners.add(position)
        position -= 1
    return joiners


def _subject_of(verb: Any) -> set[int]:
    return {i for child in verb.children if child.dep_ in SUBJECT_DEPS for i in subtree(child)}


def _without_subject(verb: Any, tokens: list[Any]) -> list[Any]:
    subject = _subject_of(verb)
    return [t for t in tokens if t.i not in subject and not t.is_punct]


def _emptied(verb: Any, predicate: list[Any], removed: set[int], public: AbstractSet[int]) -> bool:
    """The removal took a specific word (a name, number or date) of `verb`'s predicate and left it at
    most one generic content word: nothing specific, no public fact, no definite thing ("worked at the
    sawmill" points at the sawmill the passage named), no complement saying what something became."""
    went = [t for t in predicate if t.i in removed]
    kept = [t for t in predicate if t.i not in removed]
    if not any(_is_specific(t) and _clause_verb(t) == verb.i for t in went):
        return False  # what went with a clause of its own ("[When he arrived in Paris,] it was raining")
    if any(_is_specific(t) or t.i in public or _is_definite(t) or _says_what_was_done(t) for t in kept):
        return False
    if any(t.dep_ in {"attr", "acomp", "oprd"} and t.head.i == verb.i for t in kept):
        return False  # "have become increasingly metafictional" says what they became
    subject = [verb.doc[i] for i in _subject_of(verb)]
    content = [t for t in [*kept, *subject] if t.i not in removed and _is_content(t, verb)]
    # "graduated with honors"; "wrote a food-oriented blog" says what he wrote, and "The plot of the land
    # and the important buildings of the cemetery were built after his plans" what went up
    if not content and any(c.dep_ == "auxpass" for c in verb.children):
        return False  # "He was arrested [on 10 September 1905]": the event is what it says (round 36)
    return len(content) <= 1


def _is_content(token: Any, verb: Any) -> bool:
    """A noun, adjective or verb of the clause besides its own verb and auxiliaries ("two-year" adds none)."""
    return (
        token.pos_ in CONTENT_POS
        and token.i != verb.i
        and token.dep_ not in {"aux", "auxpass"}
        and not _in_a_spelled_out_measure(token)
    )


def _clause_verb(token: Any) -> int:
    """The index of the verb whose clause the token belongs to (-1 when none)."""
    for ancestor in token.ancestors:
        if ancestor.pos_ in VERB_POS:
            return int(ancestor.i)
    return -1


def _says_what_was_done(token: Any) -> bool:
    """An object that says what happened ("married an engineer", "coached football", "followed by his
    wife"); a possessed generic object does not ("represented his party", "spent his evenings")."""
    possessed = any(c.dep_ == "poss" for c in token.children)
    if token.dep_ == "dobj" and token.pos_ == "NOUN":
        return not possessed
    return token.dep_ == "pobj" and token.head.dep_ == "agent" and possessed


def _is_definite(token: Any) -> bool:
    return token.pos_ == "NOUN" and any(c.dep_ == "det" and c.lower_ == "the" for c in token.children)


def _is_specific(token: Any) -> bool:
    return (token.pos_ in SPECIFIC_POS or bool(token.ent_type_)) and not _in_a_spelled_out_measure(token)


def _in_a_spelled_out_measure(token: Any) -> bool:
    """ "a two-year program", "a three-time champion": a count said in words, hyphened to its unit,
    measures the noun and names no time or thing ("the 1990-91 season" does)."""
    doc, i = token.doc, token.i
    for first in (i, i - 2):
        if first >= 0 and first + 2 < len(doc):
            number, hyphen, unit = doc[first], doc[first + 1], doc[first + 2]
            if (
                number.like_num
                and number.is_alpha
                and hyphen.text == "-"
                and not number.whitespace_
                and not hyphen.whitespace_
                and unit.dep_ in {"compound", "amod", "nmod"}
            ):
                return True
    return False


def _last_conjoined_verb(sent: Any, token: Any) -> bool:
    """ "He stated X[, and said he regarded Y]": a second verb of its subject, after "and" or a comma,
    that ends the sentence (a verb after it, or one without its coordinator, may be a misparse)."""
    if token.dep_ != "conj" or token.pos_ != "VERB" or token.i < token.head.i:
        return False
    before = sent.doc[token.left_edge.i - 1]
    return (
        token.head.pos_ in VERB_POS
        and (before.dep_ == "cc" or before.text == ",")
        and all(t.is_punct for t in sent if t.i > token.right_edge.i)
    )


def _has_a_pronoun_subject(clause: Any) -> bool:
    return any(
        c.dep_ in SUBJECT_DEPS and c.lower_ in {"he", "she", "they", "it", "i", "we"} for c in clause.children
    )


def _conjunct_lost_its_subject(sent: Any, removed: set[int]) -> bool:
    """A kept conjoined verb without a subject of its own whose first verb, and that verb's subject, went
    (unless the sentence root itself went: `promote_conjoined_clause` gives the subject back)."""
    for token in sent:
        verb = token.head
        if token.i in removed or token.dep_ != "conj" or token.pos_ not in VERB_POS or verb.i not in removed:
            continue
        if verb.dep_ == "ROOT" or any(c.dep_ in SUBJECT_DEPS for c in token.children):
            continue
        if all(c.i in removed for c in verb.children if c.dep_ in SUBJECT_DEPS):
            return True
    return False


def _one_of_two_descriptions_of_a_plural(sent: Any, removed: set[int]) -> bool:
    """A removed conjunct of a kept adjective before a plural noun: what the adjectives split between
    the people ("Mexican and Scottish parents") the kept one would say of all of them."""
    for token in sent:
        first = token.head
        if (
            token.i in removed
            and token.dep_ == "conj"
            and first.i not in removed
            and first.dep_ == "amod"
            and first.head.tag_ in {"NNS", "NNPS"}
            and first.head.i not in removed
        ):
            return True
    return False


def _left_its_subject_behind(sent: Any, removed: set[int]) -> bool:
    """A removed conjoined verb without a subject that opens right after a kept noun, with no coordinator or
    comma between: the parser took its subject for the noun before ("near Tiaro and Eskdale was acquired")."""
    doc = sent.doc
    for token in sent:
        if token.i not in removed or token.dep_ != "conj" or token.pos_ not in VERB_POS:
            continue
        if any(c.dep_ in SUBJECT_DEPS for c in token.children):
            continue
        before = token.left_edge.i - 1
        if before >= sent.start and before not in removed and doc[before].pos_ in {"NOUN", "PROPN"}:
            return True
    return False


def _verbs_run_together(sent: Any, removed: set[int]) -> bool:
    """A kept conjoined verb whose coordinator went, with no comma before it either."""
    for token in sent:
        if (
            token.i in removed
            or token.dep_ != "conj"
            or token.pos_ not in VERB_POS
            or token.head.i in removed
        ):
            continue
        between = [t for t in sent if token.head.i < t.i < token.left_edge.i and t.i not in removed]
        coordinators = [t for t in between if t.dep_ in {"cc", "punct"} and t.text not in {'"', "'"}]
        if between and not coordinators:
            return True
    return False


def _conjunct_took_its_place(token: Any, removed: set[int]) -> bool:
    """A removed main verb whose conjoined verb stays, or a removed predicate whose copula keeps a
    conjoined one (see `promote_conjoined_clause`)."""
    if token.dep_ == "ROOT":
        return any(c.dep_ == "conj" and c.i not in removed and c.pos_ in VERB_POS for c in token.children)
    return kept_conjoined_predicate(token.head, removed) is not None


def _keeps_an_adjective(noun: Any, removed: set[int]) -> bool:
    return any(
        c.dep_ in {"amod", "compound"} and c.i not in removed and is_adjective(c) for c in noun.children
    )


# "the same year [he left Ireland]": the noun says nothing without what restricts it
RESTRICTING_WORDS = {"first", "last", "only", "sole", "same"}


NOT_ITS = {"PERSON", "DATE", "TIME", "CARDINAL", "ORDINAL", "NORP"}


def _orphaned_its(sent: Any, removed: set[int]) -> bool:
    """A kept "its" or "whose" after a removed thing (not a person) it most likely pointed at; a kept
    "their" after a removed team or company ("as a substitute [for Sunderland AFC] on their 4th match")."""
    things = [
        t.i for t in sent if t.i in removed and t.pos_ in {"NOUN", "PROPN"} and t.ent_type_ not in NOT_ITS
    ]
    pointers = [t for t in sent if t.lower_ in {"its", "whose"} and t.i not in removed]
    if any(i < t.i for t in pointers for i in things):
        return True
    theirs = [t for t in sent if t.lower_ == "their" and t.i not in removed]
    return any(_every_team_before_went(sent, their, removed) for their in theirs)


def _every_team_before_went(sent: Any, their: Any, removed: set[int]) -> bool:
    teams = [t.i for t in sent if t.ent_type_ in {"ORG", "FAC"} and t.i < their.i]  # "Sunderland AFC": FAC
    return bool(teams) and all(i in removed for i in teams)


def _restricts_a_superlative(token: Any) -> bool:
    """A modifier of a noun that is "the first", "the only", "the largest", "the same" ...: it limits the
    claim or completes it, also from further down the noun's phrase ("the most championships won by an
    athlete in a [North American] sports league" would claim every league; "[Cleveland's] first housing
    project" every city's)."""
    if token.dep_ not in {"prep", "acl", "relcl", "amod", "compound", "poss"}:
        return False
    noun = token.head
    while noun is not None and noun.pos_ in {"NOUN", "PROPN"}:
        if any(_superlative(c) for c in noun.children if c.i != token.i):
            return True
        noun = _noun_it_describes(noun)
    return False


def _superlative(modifier: Any) -> bool:
    ordinal = modifier.ent_type_ == "ORDINAL"
    return modifier.tag_ in {"JJS", "RBS"} or modifier.lower_ in RESTRICTING_WORDS or ordinal


def _noun_it_describes(noun: Any) -> Any | None:
    """The noun whose phrase `noun` is part of ("athlete" in "championships won by an athlete"), or the
    clause's verb when there is none."""
    up = noun.head
    if noun.dep_ == "pobj" and up.dep_ in {"prep", "agent"}:
        up = up.head
    if up.pos_ in VERB_POS and up.dep_ in {"acl", "relcl"}:
        up = up.head
    return None if up.i == noun.i else up


PERSONAL_SUBJECTS = {"he", "she", "they", "i", "we"}


def _said_whose(clause: Any, removed: set[int]) -> bool:
    """ "remarks [he made on the bombing]": a bare noun whose removed clause's subject was a person's pronoun
    said whose; "remarks caused great controversy" says nobody's."""
    noun = clause.head
    return (
        noun.pos_ == "NOUN"
        and any(c.dep_ == "nsubj" and c.lower_ in PERSONAL_SUBJECTS for c in clause.children)
        and not any(c.i not in removed and c.dep_ in {"det", "poss", "nummod"} for c in noun.children)
    )


def _droppable_prep(prep: Any, removed: set[int]) -> bool:
    """A prepositional phrase its head can lose: a modifier of a noun with its article, a time or place,
    or one beside the verb's object."""
    head = prep.head
    if _bare_role(head, removed):
        return False  # a bare noun needs its phrase: "He was director [of the museum]."
    if prep.lower_ == "of" and head.lemma_.lower() in ROLE_NOUNS and not held_at_a_named_place(head, removed):
        return False  # "Eiland is a former head [of the National Security Council]": head of what?
    if (head.lemma_.lower(), prep.lower_) in ARGUMENT_PREPOSITIONS or _takes_part_in(head, prep):
        return False
    if head.lemma_ == "be" and not _is_a_time(prep) and not _says_what_or_where_else(head, prep, removed):
        return False  # "he had been [in Oregon] for two months": "be" needs its place
    if any(c.dep_ == "nummod" and c.i not in removed for c in head.children):
        return False  # "appeared in 13 games [in the Major Leagues]": the count would cover more
    if head.pos_ not in VERB_POS:
        return True  # a noun's or adjective's modifier ("a member [of the party]")
    if any(t.ent_type_ in PLACE_OR_TIME for t in prep.subtree if t.i != prep.i):
        return True
    if _counts_something(head, removed):
        return False  # "won 32 Grands Prix [with Renault]"
    kept = [c for c in head.children if c.i not in removed and c.dep_ in OBJECT_OF_VERB | {"prep"}]
    return bool(kept) or head.lemma_ in STANDS_ALONE


def _needs_its_adjective(noun: Any) -> bool:
    lemma = noun.lemma_.lower()
    if lemma in NEEDS_ITS_KIND:  # "became an [American] citizen", "a [law] graduate": of nowhere, in nothing
        return not has_its_of(noun)
    return lemma in NEEDS_ITS_ADJECTIVE and not any(c.dep_ in {"det", "poss"} for c in noun.children)


def _takes_part_in(head: Any, prep: Any) -> bool:
    """ "taken part [in Australian Aid missions]": without its "in", "take part" says nothing."""
    return (
        head.lemma_ == "take"
        and prep.lower_ == "in"
        and any(c.dep_ == "dobj" and c.lower_ == "part" and c.i < prep.i for c in head.children)
    )


def _says_what_or_where_else(copula: Any, prep: Any, removed: set[int]) -> bool:
    """A predicate of "be" other than `prep` that stays: a noun or adjective, or a phrase that is no time."""
    for child in copula.children:
        if child.i in removed or child.i == prep.i:
            continue
        if child.dep_ in {"attr", "acomp", "oprd"}:
            return True
        if child.dep_ == "prep" and not _is_a_time(child):
            return True
    return False


def _is_a_time(prep: Any) -> bool:
    return any(t.ent_type_ in {"DATE", "TIME"} for t in prep.subtree)


def _bare_role(noun: Any, removed: set[int]) -> bool:
    """A singular noun without article needs its phrase ("was director [of the museum]", "lack of previous
    service [on the general staff]"), unless a verb's preposition took it: "worked in broadcasting [for
    Radio Clyde]", "died of lung cancer [in Washington]" read without it."""
    if noun.tag_ != "NN" or any(c.dep_ in {"det", "poss"} and c.i not in removed for c in noun.children):
        return False
    after_a_verbs_preposition = (
        noun.dep_ == "pobj"
        and noun.head.lower_ != "as"
        and noun.head.head.pos_ in VERB_POS
        and noun.lemma_.lower() not in ROLE_NOUNS
    )
    return not after_a_verbs_preposition


def _counts_something(verb: Any, removed: set[int]) -> bool:
    """A kept count among the verb's complements ("13 games", "32 Grands Prix")."""
    return any(
        t.dep_ == "nummod" and t.i not in removed and t.head.i not in removed
        for c in verb.children
        if c.dep_ in OBJECT_OF_VERB | {"prep", "dobj"} and c.i not in removed
        for t in c.subtree
    )


def has_verb(sent: Any, removed: set[int]) -> bool:
    """A sentence that had a verb outside brackets keeps one: "Hermann Kober (born 1888 in Beuthen, died
    4 October 1973)." is no sentence, though "born" and "died" are left (the parser hung "was ..." on
    "died")."""
    verbs = [t for t in sent if t.tag_ in FINITE_TAGS and not inside_brackets(sent, t)]
    return not verbs or any(t.i not in removed for t in verbs)

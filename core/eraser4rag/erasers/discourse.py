"""What a deletion does to the sentences around it: a pronoun must still have someone to refer to.

When the passage's opening sentence, the one that named its subject, goes (every fact in it
private), the next sentence's "He" or "His" is left with nobody to refer to ("He directed 59
films. His son was a film producer."). When the rewrite names nobody before its first
pronoun, that pronoun is replaced by the person the original opened with (the first person
named in its first sentence, or the document's title when the first sentence calls that person
by surname only: "Corser was born at Upton Cressett" under the title "Edward Corser"). Only the
opening is mended: further in, who "he" is depends on
the sentences between, and a wrong name ("John Wilson returned." for Finlay's return) is worse
than a pronoun without one. A passage that began with a pronoun (a page cut after the name) is left as
it was while its opening sentence stays; when that sentence went, the first pronoun left gets the
title's person ("His family had migrated to Pakistan" under "Muhammad Ali Siddiqui").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from core.eraser4rag.erasers.fluency import Parser, sentence_pieces

SUBJECT_PRONOUNS = {"he", "she"}
NAME_PARTICLES = {"de", "van", "von", "da", "del", "der", "di", "du", "la", "le"}
POSSESSIVE_PRONOUNS = {"his", "her"}
_SUFFIX = re.compile(r"(?:['’]s|,?\s+(?:QC|KC|MBE|OBE|CBE|CB|KBE|MP))+$")
_PRONOUN = re.compile(r"\b(?:[Hh]e|[Ss]he|[Hh]is|[Hh]er|him)\b")


def restore_first_mentions(
    original_doc: Any, text: str, parse: Parser | None = None, title: str = "", withheld: Sequence[str] = ()
) -> str:
    """`text` (a rewrite of the doc's text) with a pronoun that lost its antecedent replaced by the name;
    never by a name inside one of `withheld` (the private values the erasure removed: a private name is not
    said again)."""
    text = _restore_opening_it(original_doc.text, text, title)
    people = [ent for ent in original_doc.ents if ent.label_ == "PERSON" and _full_name(ent)]
    said_alone = _subject_name_words(original_doc, title)
    own = _title_forms(title) | said_alone
    subject = _opening_person(original_doc, title, own) or _pronoun_opening(original_doc, text, title)
    if subject is None:
        return _title_person_said_last(original_doc, text, people, parse, title, own)
    name, named_at = subject
    if any(_says_the_value(name, value) for value in withheld):
        return text
    names = _name_forms(people) | _title_forms(title) | said_alone
    pieces = sentence_pieces(text)
    for index, piece in enumerate(pieces):
        if not piece.strip():
            continue
        match = _PRONOUN.search(piece)
        if _names_someone(piece if match is None else piece[: match.start()], names):
            return text  # someone is named before the first pronoun ("as John B" after "He" names nobody)
        if match is None:
            continue
        if _original_position(original_doc.text, piece, match.start()) < named_at:
            return text  # the original said this pronoun before naming anyone
        own_names = {name, name.split()[-1]} | _title_forms(title) | said_alone
        if match.group(0).lower() in POSSESSIVE_PRONOUNS and _subject_named_after(
            piece, match, own_names, parse
        ):
            return text  # "with his recommendation Licht could change ...": "his" is someone else's
        pieces[index] = _with_name(piece, _the_subject_after_a_fronted_his(piece, match), name, parse)
        return "".join(pieces)
    return text


def _says_the_value(name: str, value: str) -> bool:
    """The name is the value, part of it, or holds it as words ("Anna Berg" and a private "Berg")."""
    return bool(value) and (name in value or re.search(rf"\b{re.escape(value)}\b", name) is not None)


# an opening that points back at the sentence before: "But ...", "During this time ...", "In that role, ...",
# "There, ..." (at the place the sentence before named); "In addition to being a solo artist" says its own
_STRANDED_CONNECTIVE = re.compile(
    r"^(\s*)(?:(?:But|However|Nevertheless|Nonetheless|Instead|Moreover|Furthermore|Thus|Therefore|Hence|"
    r"Consequently|Meanwhile|Still|Yet|In addition(?!\s+to\b)|In addition to (?:this|these|that)\b|"
    r"Additionally|As a result|Because of this|"
    r"For this reason)"
    r"\b,?|(?:There|Here),|(?:During|At|After|Following|Before|Around|By|In|Since|Throughout|Until|Upon|Despite)\s+"
    r"(?:this|that|these|those|the same)\s+(?:time|period|years?|point|role|position|stage|season|era|"
    r"post|capacity|job|appointment|move|success|decision|event|war|campaign)\b,?)\s+(?=\S)"
)


def without_stranded_connective(sentence: str) -> str:
    """The sentence without an opening that pointed back at the sentence before it, which went: "During
    this time he played as a half forward" -> "He played as a half forward". "" when nothing is left."""
    match = _STRANDED_CONNECTIVE.match(sentence)
    if match is None:
        return sentence
    rest = sentence[match.end() :]
    return match.group(1) + rest[:1].upper() + rest[1:]


# "It is claimed he ...": an "it" that stands for what follows, not for the title's thing
_EXPLETIVE_IT = re.compile(
    r"\s+(?:is|was|has been|had been|seems|seemed|appears|appeared)\s+(?:also\s+|widely\s+|often\s+)?"
    r"(?:claimed|said|reported|believed|thought|known|alleged|rumou?red|estimated|understood|suggested|"
    r"argued|likely|unlikely|possible|probable|unclear|clear|not|that)\b"
)


def _restore_opening_it(original: str, text: str, title: str) -> str:
    """A rewrite that now opens with "It" where the original opened with its title's name ("La voce
    senza volto () is a 1939 comedy film. It is part of ...") gets that name back."""
    name = re.sub(r"\s*\([^()]*\)\s*$", "", title).strip()
    if not name or not original.lstrip().startswith(name) or original.lstrip() == text.lstrip():
        return text
    opening = re.match(r"(\s*)It\b", text)
    if opening is None or name in text[: opening.end()] or _EXPLETIVE_IT.match(text, opening.end()):
        return text
    return text[: opening.start(1) + len(opening.group(1))] + name + text[opening.end() :]


def _opening_person(doc: Any, title: str, own: set[str]) -> tuple[str, int] | None:
    """(name, where the original first named them) for the first person named in the original's first
    sentence (after a title line), or None. `own`: the forms that name the title's person."""
    surname = own - {title_name(title)}
    for sentence in list(doc.sents)[:2]:
        people = [
            ent
            for ent in sentence.ents
            if ent.label_ == "PERSON"
            and len(_full_name(ent).split()) > 1
            and _can_be_its_subject(ent, sentence)
        ]
        # the text, not the tokens: the parser cuts "Valerio-Holguin" in three
        by_surname = [
            m
            for form in surname
            for m in re.finditer(rf"(?<![\w-]){_any_spelling(form)}(?![\w-])", sentence.text)
        ]
        first = min(by_surname, key=lambda m: m.start(), default=None)
        if first and (not people or sentence.start_char + first.start() < people[0].start_char):
            # "Mulvaney was born ... to Kathy Mulvaney": the passage's subject, not his mother
            return title_name(title), sentence.start_char + first.end()
        if people:
            return _full_name(people[0]), people[0].end_char
        # a title line or an honorific the parser cut off ("The Ven.  James Strange Butson ...") is no
        # sentence that named nobody
        has_verb = any(t.pos_ in {"VERB", "AUX"} for t in sentence)
        if sentence.text.strip() and "\n" not in sentence.text.strip() and has_verb:
            return None
    return None


def _title_person_said_last(
    original_doc: Any, text: str, people: list[Any], parse: Parser | None, title: str, own: set[str]
) -> str:
    """A passage the retriever cut before its subject ("worked with the architect Heinrich von Ferstel.
    From 1869 Licht traveled ... he married ... after his plans"): the rewrite's first "he"/"his" gets
    the title's name when, in the original, the last subject before it was the title person (by name or
    "he") and that sentence went; left alone, the plans would be Ferstel's (round 38's reader)."""
    name = title_name(title)
    pieces = sentence_pieces(text)
    for index, piece in enumerate(pieces):
        match = _PRONOUN.search(piece)
        if match is None:
            continue
        if not name or _names_someone("".join(pieces[:index]) + piece[: match.start()], own):
            return text
        at = _original_position(original_doc.text, piece, match.start())
        if _last_subject_is_the_title_person(original_doc, at, people, own):
            pieces[index] = _with_name(piece, match, name, parse)
            return "".join(pieces)
        return text
    return text


def _last_subject_is_the_title_person(doc: Any, at: int, people: list[Any], own: set[str]) -> bool:
    # before the pronoun itself, which sits right before `at` ("He" opening a passage is no mention of him)
    subjects = [t for t in doc if t.dep_ in {"nsubj", "nsubjpass"} and t.idx + len(t.text) < at - 1]
    ours = [t.idx for t in subjects if t.lower_ in {"he", "she"} or _names_someone(t.text, own)]
    theirs = [
        ent.start_char
        for ent in people
        if ent.root.dep_ in {"nsubj", "nsubjpass"}
        and ent.start_char < at
        and not _names_someone(ent.text, own)
    ]
    return bool(ours) and max(ours) > max(theirs, default=-1)


def _can_be_its_subject(ent: Any, sentence: Any) -> bool:
    """A name the sentence opens on or says as a subject: "maestro di cappella at Rieti Cathedral, but was
    dismissed ..." names no person its later "he" could be (the parser calls the cathedral a PERSON)."""
    subject = ent.root.dep_ in {"nsubj", "nsubjpass"} or (
        ent.root.dep_ in {"appos", "compound"} and ent.root.head.dep_ in {"nsubj", "nsubjpass"}
    )
    # "The American painter John Smith", "Sir John Smith": only a noun phrase's words before it
    before = [t for t in sentence if t.i < ent.start and not t.is_space]
    opening = all(
        t.pos_ in {"DET", "ADJ", "NOUN", "PROPN", "PUNCT"} and t.text not in {",", ";"} for t in before
    )
    return subject or opening


def _pronoun_opening(doc: Any, text: str, title: str) -> tuple[str, int] | None:
    """(the title's person, where the original opens) for an original that opens on a pronoun whose
    opening sentence the rewrite no longer has; else None."""
    name = title_name(title)
    first = next(iter(doc.sents), None)
    if not name or first is None:
        return None
    opening = first.text.strip()
    if not re.match(r"(?:He|She|His|Her)\b", opening) or opening[:40] in text:
        return None
    return name, first.start_char


def full_name_at_the_opening(
    original: str, text: str, title: str, private_pairs: set[tuple[str, str]]
) -> str:
    """A rewrite that opens on the title person's bare surname once the sentence that named them in full
    went ("Ellis was first regarded as ...") opens on the full name, unless that name is the tail of a
    private pair whose head the rewrite still names."""
    name = _name_as_written(original, title_name(title))
    if not name:
        return text
    if any(name.lower() in tail and head in text.lower() for head, tail in private_pairs):
        return text
    surname = name.split()[-1]
    opening = re.match(rf"(\s*){re.escape(surname)}(?=['’]s\b|\s)", text)
    if opening is None or original.lstrip().startswith(surname):
        return text
    return text[: opening.end(1)] + name + text[opening.end() :]


def _name_as_written(original: str, name: str) -> str:
    """The title's person as the passage writes them in full ("Leven Handy Ellis" for the title "Leven H.
    Ellis"), the title's form when the passage never does (a page cut before its opening), "" for none."""
    if not name or name in original:
        return name
    first, surname = re.escape(name.split()[0]), re.escape(name.split()[-1])
    written = re.search(rf"\b{first}(?: [A-Z][\w.'’-]*){{0,3}} {surname}\b", original)
    return written.group(0) if written else name


def title_name(title: str) -> str:
    """A document title that names a person ("Edward Corser", "Tom Atkins (actor)"), without its
    disambiguation; "" for any other title."""
    name = re.sub(r"\s*\([^()]*\)\s*$", "", title).strip()
    words = name.split()
    if not 2 <= len(words) <= 5 or not all(w[:1].isupper() or w in NAME_PARTICLES for w in words):
        return ""
    return name


# a title's ASCII spelling of letters the text writes with an umlaut or sharp s ("Koeberl": "Köberl")
_TRANSLITERATED = {"ae": "(?:ae|ä)", "oe": "(?:oe|ö)", "ue": "(?:ue|ü)", "ss": "(?:ss|ß)"}


def _any_spelling(name: str) -> str:
    """A pattern for `name` as written or with the letters its ASCII spelling stands for."""
    parts = re.split(r"(ae|oe|ue|ss)", name)
    return "".join(_TRANSLITERATED.get(part, re.escape(part)) for part in parts)


def _title_forms(title: str) -> set[str]:
    """The title's person name and its surname ("Edward Corser", "Corser")."""
    name = title_name(title)
    return {name, name.split()[-1]} if name else set()


def _subject_name_words(doc: Any, title: str) -> set[str]:
    """Words of the title's name the original itself says alone as a clause's subject: a family name said
    first ("Sekino Jun'ichirō": "In April 1939 Sekino moved to Tokyo"), not "John" of "St John's College"."""
    words = {w for w in title_name(title).split() if len(w) > 3 and w[:1].isupper()}
    return {t.text for t in doc if t.text in words and t.dep_ in {"nsubj", "nsubjpass"}}


def _name_forms(people: list[Any]) -> set[str]:
    """Each person's name and its last word (the surname an article goes on with)."""
    forms = set()
    for ent in people:
        forms.add(ent.text)
        words = [w for w in ent.text.split() if len(w) > 2 and w[:1].isupper()]
        if words:
            forms.add(words[-1])
    return forms


def _names_someone(piece: str, names: set[str]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", piece) for name in names)


def _original_position(original: str, piece: str, offset: int) -> int:
    """Where the piece's pronoun sat in the original (the words after it are usually kept), else its end.
    The pronoun itself is not searched for: "He [became a barrister and] was involved" lost the words
    between it and the rest."""
    for words in (piece[offset:].split()[1:], piece[offset:].split()):
        for count in range(min(len(words), 6), 1, -1):  # the longest run of its words the original has
            found = original.find(" ".join(words[:count]).rstrip(".,;:!?"))
            if found >= 0:
                return found
    return len(original)


_NICKNAME = re.compile(r"\s*[\"“][^\"”]*[\"”]")


def _full_name(ent: Any) -> str:
    """The entity with capitalised name words the small parser left outside it ("William Archibald| Wall"),
    without a possessive ending."""
    doc = ent.doc
    end = ent.end
    while (
        end < len(doc) and doc[end].pos_ == "PROPN" and doc[end].text[:1].isupper() and not doc[end].ent_type_
    ):
        end += 1
    name = doc[ent.start : end].text.strip(" ,;:")
    if _NICKNAME.search(name) and end < len(doc) and doc[end].ent_type_ == "PERSON":
        end = next((t.i for t in doc[end:] if t.ent_type_ != "PERSON"), len(doc))
        name = doc[ent.start : end].text.strip(" ,;:")  # 'Alexander Gordon "Sandy"' + 'McKay'
    return _SUFFIX.sub("", _NICKNAME.sub("", name)).strip(" ,")


_FRONTED_HIS = re.compile(r"^\s*[A-Z][a-z]+ (?:his|her)\b[^,]*, (?P<subject>he|she)\b")


def _the_subject_after_a_fronted_his(piece: str, match: re.Match[str]) -> re.Match[str]:
    """ "Through his music, he has traveled": the name takes the subject's place ("Through his music,
    Diop has traveled"), not the fronted "his" ("Through Diop's music, he")."""
    fronted = _FRONTED_HIS.match(piece)
    if fronted is None or match.start() > fronted.start("subject"):
        return match
    return _PRONOUN.search(piece, fronted.start("subject")) or match


def _subject_named_after(piece: str, match: re.Match[str], names: set[str], parse: Parser | None) -> bool:
    """Whether the sentence's subject, after its possessive, is one of `names` ("with his recommendation
    Licht could change"); a name said later in a clause of its own ("Among his students ... was Fitzgibbon,
    who remembered that it was Sandes who advised him") is not the subject. Without a parser, any name."""
    if parse is None:
        return _names_someone(piece[match.end() :], names)
    for token in parse(piece):
        if token.dep_ in {"nsubj", "nsubjpass"} and token.head.dep_ == "ROOT" and token.idx > match.start():
            subject = token.doc[token.left_edge.i : token.i + 1].text  # not its relative clause
            if _names_someone(subject, names):
                return True
    return False


def _with_name(piece: str, match: re.Match[str], name: str, parse: Parser | None) -> str:
    word = match.group(0)
    if word.lower() in SUBJECT_PRONOUNS:
        replacement = name
    elif word.lower() == "his" or _is_possessive_her(piece, match, parse):
        replacement = name + ("'" if name.endswith("s") else "'s")
    else:
        replacement = name
    return piece[: match.start()] + replacement + piece[match.end() :]


def _is_possessive_her(piece: str, match: re.Match[str], parse: Parser | None) -> bool:
    if parse is None:
        following = piece[match.end() :].lstrip()
        return bool(following[:1].isalpha())
    for token in parse(piece):
        if token.idx == match.start():
            return token.tag_ == "PRP$"
    return False

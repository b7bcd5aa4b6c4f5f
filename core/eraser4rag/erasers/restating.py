"""The public facts of a sentence that must be said again: which are stated in it, about its
subject, and how their names and places read."""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import Any

from core.eraser4rag.erasers.discourse import title_name
from core.eraser4rag.erasers.grammar import RELATIONAL_NOUNS, ROLE_NOUNS, ROLE_VERBS, SUBJECT_DEPS
from core.eraser4rag.erasers.mentions import find_mentions
from core.eraser4rag.erasers.realise import VERB_RELATION
from core.types import Span, Triple

_NOT_A_POSSESSOR = r"(?:[Hh]e|[Ss]he|[Ii]t|[Tt]hat|[Tt]here)['’]s\b"  # "He's Mayor ..." is "he is"


def with_article(text: str, triple: Triple) -> Triple:
    """The tail as the text names it: "the Royal Spanish Academy", not "Royal Spanish Academy"; a tail
    whose named possessor the triple left out takes it back ("in Syse's Cabinet": "in the Cabinet" alone
    says which cabinet to nobody; "the King's Cabinet" keeps its "the"), any other possessor "the". Read
    in the triple's own sentence when it has one."""
    if not triple.tail[:1].isupper():
        return triple
    if triple.span != (0, 0):
        text = text[triple.span[0] : triple.span[1]]
    tail = re.escape(triple.tail)
    named = re.search(
        rf"(\bthe\s+)?(?<![\w'’.])(?<!St\. )(?!{_NOT_A_POSSESSOR})([A-Z][\w-]*['’]s)\s+{tail}\b", text
    )
    if named:
        return replace(triple, tail=f"{named.group(1) or ''}{named.group(2)} {triple.tail}")
    if re.search(rf"\bthe\s+{tail}\b|\b(?!{_NOT_A_POSSESSOR})\w+['’]s\s+{tail}\b", text):
        return replace(triple, tail="the " + triple.tail)
    return triple


# words that date a role: "a retired hedge fund manager" is not "a hedge fund manager"
TIME_QUALIFIERS = {"former", "retired", "onetime", "one-time", "erstwhile"}
ROLE_RELATIONS = {"occupation", "position_held", "member_of"}


def with_time_qualifier(sentence: str, triple: Triple) -> Triple:
    """A role said again keeps the word that dated it in the sentence ("an American retired [hedge fund
    manager]"): without it the fact says he still is one."""
    if triple.relation not in ROLE_RELATIONS:
        return triple
    match = re.search(rf"\b([\w-]+)\s+{re.escape(triple.tail)}\b", sentence)
    if match and match.group(1).casefold() in TIME_QUALIFIERS:
        return replace(triple, tail=f"{match.group(1).casefold()} {triple.tail}")
    return triple


_APPROXIMATE = re.compile(
    r"(?:\bc\.|\bca\.|\bcirca|\babout|\baround|\bbefore|\bafter|\bfl\.|\?)\s*$", re.IGNORECASE
)


def said_as_approximate(sentence: str, triple: Triple) -> bool:
    """A date the sentence gives as approximate ("(c. 1650 – 1723)"): said again as "was born in 1650" it
    would read as exact, so it is not said again."""
    if not triple.relation.startswith(("date_of_", "floruit")):
        return False
    at = sentence.find(triple.tail)
    return at > 0 and bool(_APPROXIMATE.search(sentence[:at]))


def public_tail_tokens(doc: Any, sent: Any, public: Sequence[Triple]) -> set[int]:
    """Tokens of the sentence that name a public triple's tail."""
    tokens: set[int] = set()
    for triple in public:
        for start, end in find_mentions(doc.text, triple.tail, within=(sent.start_char, sent.end_char)):
            tokens.update(t.i for t in sent if start <= t.idx < end)
    return tokens


def overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def stated_in(doc: Any, sent: Any, triple: Triple, removed: AbstractSet[int] = frozenset()) -> bool:
    """A public fact the sentence states: its tail is named there, and its head too or its span is there. A
    tail said only as the last words of a longer phrase that went ("researcher" of the private "working life
    researcher") is not said there: saying it again would give back part of that phrase."""
    span = (sent.start_char, sent.end_char)
    mentions = [
        m
        for m in find_mentions(doc.text, triple.tail, within=span)
        if not _ends_a_removed_phrase(doc, m, removed)
    ]
    if not mentions:
        return False
    return overlaps(triple.span, span) or bool(find_mentions(doc.text, triple.head, within=span))


def _ends_a_removed_phrase(doc: Any, mention: Span, removed: AbstractSet[int]) -> bool:
    tokens = [t for t in doc if mention[0] <= t.idx < mention[1]]
    if not tokens or any(t.i not in removed for t in tokens):
        return False
    root = tokens[-1]
    # a common noun before it ("working life researcher"), not a private adjective ("[Italian] violinist")
    return any(
        c.i < tokens[0].i and c.i in removed and c.dep_ == "compound" and c.pos_ == "NOUN"
        for c in root.children
    )


PERSONAL_PRONOUNS = {"he", "she", "his", "her"}


def is_about_subject(sent: Any, head: str, title: str = "") -> bool:
    """Whether a fact of `head` is a fact of the sentence's subject: the subject names the head, or is
    "he"/"she" and the head is the person the document is about. A sentence said again in place of one
    about someone else ("The two Conservatives ... Mr Justice Willes") would state a new claim
    ("Willes served as Justice."); a head the extractor misread ("State of Wisconsin" in "Secretary of
    State of Wisconsin (1882–1891)") would be born in 1882."""
    subjects = [t for t in sent if t.dep_ in SUBJECT_DEPS and t.head == sent.root] or [
        t for t in sent if t.dep_ in SUBJECT_DEPS
    ]
    if not subjects:
        return False
    subject = subjects[0]
    head_words = {w for w in head.split() if w[:1].isupper()}
    if subject.lower_ in PERSONAL_PRONOUNS:
        person = title_name(title)
        if person:  # "He was born ... to Karen Pedersen Taugland (1839–1903)": he is the title's person
            return bool(head_words & set(person.split()))
        named_here = {t.text for t in sent if t.pos_ == "PROPN"}
        return _names_a_person(sent.doc, head) and not head_words & named_here
    named = {t.text for t in subject.subtree if t.pos_ == "PROPN"}
    person = title_name(title)
    if _named_in_full_elsewhere(sent, subject, head):
        return False  # "Barnes was born ..., the son of John Thomas Barnes": the father, not the subject
    if person and named == {person.split()[-1]} and head_words - named:
        # "Krarup was born ... to Bodil Marie Krarup": the surname is the title's person, not his mother
        return bool(head_words & set(person.split()[:-1]))
    return bool(named) and (named <= set(head.split()) or head_words <= named)


def _named_in_full_elsewhere(sent: Any, subject: Any, head: str) -> bool:
    """The head's full name (two words or more) is said in the sentence, outside its subject."""
    if len(head.split()) < 2:
        return False
    inside = (subject.left_edge.idx, subject.right_edge.idx + len(subject.right_edge.text))
    return any(
        not (inside[0] <= start and end <= inside[1])
        for start, end in find_mentions(sent.doc.text, head, within=(sent.start_char, sent.end_char))
    )


def named_as_the_sentence_did(facts: Sequence[Triple], sent: Any) -> list[Triple]:
    """Facts said again under the pronoun the sentence called its subject by ("He was a justice." after
    "John Barnes ... was an American attorney."): the name each time reads like a list of records. A
    pronoun left without a person is mended later with the rest of the passage (`restore_first_mentions`)."""
    subjects = [t for t in sent if t.dep_ in SUBJECT_DEPS and t.head == sent.root]
    if not subjects:
        return list(facts)
    subject = subjects[0]
    if subject.lower_ in {"he", "she"}:
        return [replace(f, head=subject.text.capitalize()) for f in facts]
    name = _name_of(subject)
    # "Masekela was born in Los Angeles": the facts of "Selema Mabena "Sal" Masekela" say "Masekela" too
    return [replace(f, head=name) if name and _part_of_name(name, f.head) else f for f in facts]


def _name_of(subject: Any) -> str:
    """The subject's name as the sentence wrote it ("Masekela", "Sal Masekela"), or "" if no name."""
    if subject.pos_ != "PROPN":
        return ""
    words = [t for t in subject.lefts if t.dep_ == "compound" and t.pos_ == "PROPN"] + [subject]
    return " ".join(t.text for t in words)


def _part_of_name(name: str, head: str) -> bool:
    """A shorter form of a head the extractor garbled (a title glued to the name, said twice, or with a
    quoted nickname): a plain full name ("Annie A. M. Cuyt") stays as it is."""
    words, head_words = name.split(), head.split()
    garbled = '"' in head or "(" in head or len(set(head_words)) < len(head_words)
    return garbled and len(words) < len(head_words) and words[-1] == head_words[-1]


def one_name_per_person(facts: Sequence[Triple], sentence: str) -> list[Triple]:
    """Facts of heads that share a surname ("Ludovico Seitz, or Ludwig Seitz") under the name the sentence
    gives first: one person is said once, not once per name."""
    first: dict[str, str] = {}
    for head in sorted({f.head for f in facts}, key=lambda h: (sentence.find(h) % (len(sentence) + 1), h)):
        first.setdefault(head.split()[-1] if head.split() else head, head)
    return [
        replace(f, head=first.get(f.head.split()[-1] if f.head.split() else f.head, f.head)) for f in facts
    ]


def places_as_written(facts: Sequence[Triple], sentence: str) -> list[Triple]:
    """Two tails of one relation the sentence wrote as one place ("lived in Milwaukee, Wisconsin") are
    one tail: said apart they would be two places ("lived in Milwaukee and Wisconsin")."""
    facts = list(facts)
    for first in list(facts):
        for second in list(facts):
            same = (first.head, first.relation) == (second.head, second.relation) and first is not second
            same = same and first.tail[:1].isupper() and second.tail[:1].isupper()  # places are names
            if same and first in facts and second in facts and f"{first.tail}, {second.tail}" in sentence:
                facts[facts.index(first)] = replace(first, tail=f"{first.tail}, {second.tail}")
                facts.remove(second)
    return facts


def roles_without_their_of(facts: Sequence[Triple], sentence: str) -> list[Triple]:
    """The facts less a role the sentence gave with its "of" phrase ("an associate director of the
    Institute", "general counsel for the Northwestern Mutual"): said alone it names nothing ("He was a
    general counsel.", round 20's reader)."""
    return [fact for fact in facts if not _role_with_of(fact.tail, sentence)]


def _role_with_of(tail: str, sentence: str) -> bool:
    words = tail.lower().split()
    if not words or words[-1] not in ROLE_NOUNS | RELATIONAL_NOUNS:
        return False
    return re.search(rf"\b{re.escape(tail)}\s+(?:of|for|to)\b", sentence, re.IGNORECASE) is not None


def verb_relation_said(sent: Any, triple: Triple) -> bool:
    """A relation named after a verb and its preposition ("publish_in") is said again only where the
    sentence has that verb with that preposition: "He published 20 papers ... and died in Grimstad"
    gave (Grigson, publish_in, Grimstad), which would read "Grigson published in Grimstad."."""
    match = VERB_RELATION.match(triple.relation)
    if match is None:
        return True
    verb, preposition = match.groups()
    if verb in ROLE_VERBS and preposition == "for" and not any(c.isdigit() for c in triple.tail):
        return False  # "He served [as foreign editor] for Hearst newspapers": "He served for ..." is a stub
    return any(
        t.lemma_.lower() == verb and any(c.dep_ == "prep" and c.lower_ == preposition for c in t.children)
        for t in sent
    )


def _names_a_person(doc: Any, head: str) -> bool:
    return any(ent.label_ == "PERSON" and (ent.text in head or head in ent.text) for ent in doc.ents)


def is_past(sent: Any) -> bool:
    """The tense of the sentence's main verb (present for "is", past for "was")."""
    root = sent.root
    verbs = [root] + [c for c in root.children if c.dep_ in {"aux", "auxpass"}]
    return not any(v.tag_ in {"VBZ", "VBP"} for v in verbs)

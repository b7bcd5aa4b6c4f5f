"""Whose personal data a value is: the named person of its clause, the record's subject for "I"/"my"
and for pronouns without a certain antecedent, else the record itself (never a guessed person).

The record's subject comes from a name field ("Name: ..."), the document's title when it names a
person the text mentions, a self-introduction ("this is Dr. X", "my name is X"), a first line that
is only a name, or a signature after a closing ("Regards,\\nX").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.types import normalize_entity

SUBJECT_KEYS = frozenset(
    {
        "name", "full name", "patient", "patient name", "employee", "employee name", "client",
        "client name", "customer", "customer name", "applicant", "member", "member name", "student",
        "student name", "candidate", "resident", "claimant", "insured", "policyholder", "subject",
        "staff member", "person", "user", "account holder", "cardholder", "tenant", "guest",
    }
)  # fmt: skip
_FIRST_PERSON = re.compile(
    r"\b(?:i(?=\s+[a-z])|i'm|i've|i'd|i'll|me|my|mine|myself|I|I'm|I've|I'd|I'll|Me|My|Mine)\b"
)
_THIRD_PERSON = re.compile(r"\b(?:he|she|him|her|his|hers|they|their|them)\b", re.IGNORECASE)
_INTRODUCTION = re.compile(
    r"\b(?:my name is|this is|name's|your name\?|(?P<weak>i am|i'm|it's))\s+"
    r"(?:(?:dr|mr|mrs|ms|mx|prof)\.?\s+)?$",
    re.IGNORECASE,
)
_CLOSING = re.compile(
    r"^\s*(?:regards|best regards|kind regards|sincerely|yours(?: truly| sincerely)?|thanks|thank you|"
    r"best|cheers)\s*,?\s*$",
    re.IGNORECASE,
)
_HONORIFIC = re.compile(r"^(?:dr|mr|mrs|ms|mx|prof|miss)\.?\s+", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.!?;](?=\s)|\n")


# A chat transcript's turn: a line that opens with a one- or two-word name and a colon, then an
# utterance (quoted, in the first or second person, or a question), not a field value ("Manager: Pieter").
_TURN = re.compile(
    r"^[ \t>]*(?P<name>[^\W\d_][\w'’-]*(?:[ \t][^\W\d_][\w'’-]*)?)[ \t]*:(?!//)[ \t]*(?P<said>[^\n]*)$",
    re.MULTILINE,
)
_UTTERANCE = re.compile(r"^\\?[\"“'‘]|\?|\b(?:i|i'm|me|my|you|your|we|our)\b|\\'m\b", re.IGNORECASE)
# Labels of a transcript's turns that name a role, not a person.
_ROLES = frozenset(
    {
        "user", "bot", "agent", "customer", "assistant", "system", "support", "operator", "caller",
        "host", "guest", "interviewer", "interviewee", "client", "staff", "admin", "moderator", "me",
        "you", "q", "a", "question", "answer", "doctor", "patient", "nurse", "teacher", "student",
        "speaker", "narrator", "representative", "rep", "advisor", "adviser", "manager", "officer",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Person:
    start: int
    end: int
    name: str


@dataclass
class Owners:
    """Owner resolution for one record: `owner_at(position)` names who a value there belongs to."""

    text: str
    record: str
    persons: list[Person] = field(default_factory=list)
    subject: str | None = None
    turns: list[tuple[int, int, Person]] = field(default_factory=list)  # `speaker_turns`

    def __post_init__(self) -> None:
        # "Tomas" beside "Tomas Reyl" in one record is the same person: the owner is the full name,
        # never a second node that would join the record's values through the graph.
        self.persons = [Person(p.start, p.end, self.fullest_name(p.name)) for p in self.persons]
        self._add_subject_mention()

    def _add_subject_mention(self) -> None:
        """The subject (from a title or name field) counts as named where the text first names it,
        when the detector missed it there: a pronoun after it then has two candidates, not only the
        other name the detector found ("Mamadou ... born in Bamako, Mali. He is a Muslim")."""
        if not self.subject or any(
            normalize_entity(p.name) == normalize_entity(self.subject) for p in self.persons
        ):
            return
        at = self.text.casefold().find(self.subject.casefold())
        if at >= 0:
            self.persons = sorted(
                [*self.persons, Person(at, at + len(self.subject), self.subject)], key=lambda p: p.start
            )

    def fullest_name(self, name: str) -> str:
        """The one longer name of this record that `name` begins ("Tomas" -> "Tomas Reyl"); a bare
        surname stays as it is ("Corser" beside "Edward Corser" may be his child), as does a name that
        begins several longer ones."""
        words = normalize_entity(name).split()
        fuller = {
            p.name
            for p in self.persons
            if len(normalize_entity(p.name).split()) > len(words)
            and normalize_entity(p.name).split()[: len(words)] == words
        }
        return fuller.pop() if len(fuller) == 1 else name

    @property
    def default(self) -> str:
        return self.subject or self.record

    def speaker_at(self, position: int) -> str:
        """Who says "I" at `position`: the speaker of its transcript turn, else the record's default."""
        return next((p.name for s, e, p in self.turns if s <= position <= e), self.default)

    def owner_at(self, start: int, end: int | None = None) -> str:
        end = start if end is None else end
        clause_start = clause_bounds(self.text, start)[0]
        before = [p for p in self.persons if clause_start <= p.start and p.end <= start]
        before = [p for p in before if not any(sp.start <= p.start < sp.end for _, _, sp in self.turns)]
        if before:
            nearest = before[-1]
            between = self.text[nearest.end : start]
            if _FIRST_PERSON.search(between):
                return self.speaker_at(start)
            if _THIRD_PERSON.search(between) and before[0].name != nearest.name:
                return before[0].name  # "Daniel had given Signe his address": "his" is the clause's subject
            return nearest.name
        preceding = self.text[clause_start:start]
        if _FIRST_PERSON.search(preceding):
            return self.speaker_at(start)
        if _THIRD_PERSON.search(preceding):
            return self._antecedent(clause_start)
        return self.default

    def _antecedent(self, before: int) -> str:
        """The one person named before `before`, when only one is; otherwise the record's default."""
        names = {normalize_entity(p.name): p.name for p in self.persons if p.end <= before}
        fullest = [n for n in names if not any(n != m and set(n.split()) < set(m.split()) for m in names)]
        if len(fullest) == 1:  # "Mara Voss ... Voss ... she": one person, named twice
            return names[fullest[0]]
        return self.default if not names else self.record


def clause_bounds(text: str, position: int) -> tuple[int, int]:
    """Start and end of the clause (sentence or line) around `position`."""
    start = 0
    for match in _CLAUSE_END.finditer(text, 0, position):
        start = match.end()
    while start < position and text[start].isspace():
        start += 1
    following = _CLAUSE_END.search(text, position)
    return start, following.start() if following else len(text)


def record_node(doc_id: str, title: str = "") -> str:
    """The node that stands for the record itself when no person owns a value."""
    return f"record {title.strip() or doc_id}"


def find_subject(
    text: str, title_name: str | None, persons: list[Person], name_field: str | None
) -> str | None:
    """The record's subject, or None when nothing names one for certain."""
    if name_field:
        return name_field
    if title_name:
        return title_name
    for person in persons:
        introduced = _INTRODUCTION.search(text[max(0, person.start - 30) : person.start])
        # "I am in Warszawa": after "I am" only a full name is taken (a lone word may be a place)
        if introduced and (not introduced.group("weak") or len(person.name.split()) >= 2):
            return person.name
    first_line = _HONORIFIC.sub("", text.lstrip().lstrip(">").split("\n", 1)[0].strip())
    for person in persons:
        name = normalize_entity(person.name)
        line = normalize_entity(first_line)
        # the first line is the name, perhaps with a degree after it ("Terry Cardoso PhD")
        if line == name or (line.startswith(name + " ") and len(line.split()) - len(name.split()) <= 1):
            return person.name
    return _signature(text, persons)


def _signature(text: str, persons: list[Person]) -> str | None:
    lines = text.rstrip().split("\n")
    for index, line in enumerate(lines[:-1]):
        if _CLOSING.match(line):
            signed = "\n".join(lines[index + 1 :]).strip()
            for person in persons:
                if normalize_entity(signed).startswith(normalize_entity(person.name)):
                    return person.name
    return None


def speaker_turns(text: str) -> list[tuple[int, int, Person]]:
    """(turn start, turn end, speaker) of each turn of a chat transcript whose label names a person:
    two or more turns of different speakers, each label capitalised as a name (or the whole text in
    lower case) and no role ("User", "Agent") or subject key ("Name")."""
    uncased = not any(char.isupper() for char in text)
    turns = [m for m in _TURN.finditer(text) if _UTTERANCE.search(m.group("said"))]
    if len({normalize_entity(m.group("name")) for m in turns}) < 2:
        return []
    found = []
    for match in turns:
        name = match.group("name")
        if (
            name.casefold() in _ROLES
            or name.casefold() in SUBJECT_KEYS
            or not (uncased or all(word[0].isupper() for word in name.split()))
        ):
            continue
        found.append((match.start(), match.end(), Person(match.start("name"), match.end("name"), name)))
    return found

"""What the rules pass around: an `Argument`, a `Candidate` fact, and the `DocumentContext` one
document's chunks share (its title person and the names seen so far).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from core.extract.spacy_rules.words import (
    CONNECTORS,
    NAME_WORD,
    OPENING_PRONOUN,
    THING_QUALIFIERS,
    TITLE_QUALIFIER,
)
from core.extract.vocabulary import word_set
from core.extract.works import is_work_noun


@dataclass(frozen=True)
class Argument:
    """A resolved head or tail: its text, kind, whether it is an entity, whether a pronoun was resolved."""

    text: str
    is_entity: bool
    from_pronoun: bool = False
    kind: str | None = None  # "date", "place", "person", "org", or None
    token: int | None = None  # the token it stands on, for the sentence span


@dataclass
class Candidate:
    head: Any  # a token or an Argument
    words: list[str]
    tail: Any
    relation: str | None = None  # a vocabulary name chosen by the rule


@dataclass
class DocumentContext:
    """What one document's chunks share: its title person and the full names seen so far."""

    title: str = ""
    # word -> {full name: character end of its first mention}
    names_by_word: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    labels: dict[str, str] = field(default_factory=dict)
    genders: dict[str, str] = field(default_factory=dict)
    surnames: set[str] = field(default_factory=set)
    subject_names: set[str] = field(default_factory=set)  # full names seen as a clause's subject
    title_person: str | None = None

    def title_is_a_thing(self) -> bool:
        """The title names a work or a thing, by its qualifier or as a work described so far."""
        return self.title_qualifies_a_thing or self.labels.get(self.title_name) == "WORK_OF_ART"

    @cached_property
    def title_qualifies_a_thing(self) -> bool:
        return title_names_a_thing(self.title)

    @cached_property
    def title_name(self) -> str:
        """ "Orion's Belt (film)" -> "Orion's Belt"."""
        return TITLE_QUALIFIER.sub("", self.title).strip()

    def add_name(self, text: str, label: str, end_char: int) -> None:
        if text not in self.labels:
            self.labels[text] = label
        for word in text.split():
            self.names_by_word[word].setdefault(text, end_char)
        words = text.split()
        if label == "PERSON" and len(words) > 1:
            self.surnames.add(words[-1])

    def fuller_name(self, words: Sequence[str], before_char: int, label: str | None = None) -> str | None:
        """The one person or thing a partial name ("Voss") can be, else None.

        Candidates are the earlier full names containing all `words` and the title person
        (who counts as mentioned first); names that contain the title's words are the
        title person written in full ("Henry Master Feilden" for "Henry Feilden").
        """
        if not words:
            return None  # no name at all (an entity of whitespace only)
        partial = frozenset(words)
        # "Toronto" never becomes "University of Toronto": a partial name joins a full name of its kind
        kinds = {"PERSON"} if label in {None, "PERSON", "NORP"} else {"PERSON", label}
        candidates = {
            name
            for name, end in self.names_by_word.get(words[0], {}).items()
            if end <= before_char and partial < frozenset(name.split()) and self.labels.get(name) in kinds
        }
        title = self.title_person
        if title and "PERSON" in kinds and partial == frozenset(title.split()):
            # "Kristian Laake" after "a son of farmers Kristian Gulbrandsen Laake": the title's own
            # name is the title person, a longer name sharing its words may be a relative's; the
            # longer name is the title person's only when it was a clause's subject ("Richard
            # Frank Keith Harris (born 1962) is ... Harris founded ...")
            subjects = {c for c in candidates if self.is_title_person(c) and c in self.subject_names}
            return max(subjects, key=len) if subjects else title
        if title and "PERSON" in kinds and partial < frozenset(title.split()):
            same = {c for c in candidates if self.is_title_person(c)}
            if candidates - same:
                return None
            return max(same, key=len) if same else title
        return candidates.pop() if len(candidates) == 1 else None

    def is_title_person(self, name: str) -> bool:
        """The title's name words are all in `name` ("Charles-Pierre-Mathieu Combes" for "Charles Combes");
        an initial stands for a word it begins ("George Ernest Barnett" for "George E. Barnett")."""
        if not self.title_person:
            return False
        words = _name_words(name)
        return all(
            word in words or (_is_initial(word) and any(w.startswith(word[0]) and len(w) > 2 for w in words))
            for word in _name_words(self.title_person)
        )


def _is_initial(word: str) -> bool:
    return len(word) == 2 and word[0].isupper() and word[1] == "."


def _name_words(name: str) -> frozenset[str]:
    return frozenset(w for w in re.split(r"[\s\"“”-]+", name.strip()) if w)


# A name ending in one of these words names an organisation, a publication or a place, never a
# person ("Harrow Vale News", "Eastmere University"); surnames that are also such words (Hall, Park,
# Church, Street) are left out.
DESIGNATORS = word_set(
    "news times herald gazette journal magazine press radio television tv records studios school "
    "college university academy institute hospital clinic museum library orchestra band choir club "
    "fc company corporation inc inc. ltd ltd. llc group labs laboratories logistics robotics systems "
    "industries association society foundation council party river airport station railway stadium "
    "theatre theater centre center county province district festival"
)


def title_names_a_thing(title: str) -> bool:
    """ "The Cold Deck (film)", "Perfume (Japanese band)": a title that is no person's name."""
    name = TITLE_QUALIFIER.sub("", title or "").strip()
    qualifier = (title or "")[len(name) :].strip(" ()").casefold()
    words = name.split()
    if words and words[0] in {"The", "A", "An"}:
        return True
    return any(is_work_noun(word) or word in THING_QUALIFIERS for word in re.findall(r"[\w']+", qualifier))


def title_person(title: str, text: str) -> str | None:
    """The passage's title as a person's name, when the passage refers to that name.

    "Edwin Ellis (musician)" -> "Edwin Ellis" when the text mentions "Ellis" or "Edwin
    Ellis"; a single word ("Corser") or a title with lower-case words ("Feilden baronets")
    is no person's name.
    """
    if title_names_a_thing(title):
        return None
    name = TITLE_QUALIFIER.sub("", title or "").strip()
    words = name.split()
    if not 2 <= len(words) <= 5 or words[-1].casefold() in DESIGNATORS:
        return None
    if not all((NAME_WORD.match(w) and w[0].isupper()) or w in CONNECTORS for w in words):
        return None
    names = [w for w in words if w not in CONNECTORS and len(w) > 2]
    if any(re.search(rf"\b{re.escape(w)}\b", text) for w in names):
        return name
    # a passage cut from the middle of the article: "He was born in Oslo, ..." is about its title
    return name if OPENING_PRONOUN.match(text) else None

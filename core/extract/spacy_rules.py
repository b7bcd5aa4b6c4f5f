"""Rule-based triples from spaCy's dependency parse (the default, offline extractor).

Rules (docs/EXTRACTION.md lists them with real examples and known misses):

* birth and death dates and places from the parenthesis after a name (`lifespans.py`);
* descriptions, in a copula ("X was an English Conservative Party politician"), an
  apposition ("X, an Australian footballer") or after a lifespan in a list, split into
  facts: one `occupation` per coordinated noun, `country_of_citizenship` from a demonym,
  `member_of_political_party` from a party name, `instance_of` for things;
* subject-verb-object and subject-verb-preposition-object (active and passive), relative
  clauses, participles and conjoined verbs, whose subject is the clause's entity, never a
  predicate noun of an earlier clause; possessives ("X's father, Danny"); "City, Region"
  gives `located_in`;
* relation names go through the shared vocabulary (`vocabulary.py`): Wikidata property
  names where one fits, the verb lemma otherwise; a negation keeps a `not_` prefix.

Arguments are named entities, dates, quantities and specific noun phrases; generic or
pronoun-like nouns ("work", "one", "family") are dropped. Within one passage, a partial
name or a pronoun becomes a full name only when the referent is certain (the only
compatible earlier name, else the passage's title person); otherwise the triple is
dropped. Long documents are cut into chunks at paragraph or sentence boundaries so that
time stays linear in the length; progress is reported per chunk.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import pairwise
from typing import Any

from core.extract.base import DEFAULT_SPACY_MODEL, Extractor, Progress, join_relation, relation_word
from core.extract.degrees import (
    degree_field,
    degree_name_end,
    is_degree_token,
    is_vocational,
    named_kind,
    names_its_field_apart,
)
from core.extract.lifespans import parse_parenthetical
from core.extract.personal import with_personal_data
from core.extract.vocabulary import (
    CATEGORY_RELATIONS,
    DEMONYMS,
    FEMALE_NOUNS,
    FIELD_NOUNS,
    FIELD_VERBS,
    GENERIC_NOUNS,
    KIN_NOUNS,
    MALE_NOUNS,
    NON_OCCUPATION_ADJECTIVES,
    PERSONAL_HONORIFICS,
    RELATIONAL_NOUNS,
    canonical_relation,
    is_athlete_noun,
    is_demonym,
    is_person_noun,
    title_relation,
)
from core.extract.works import describe_work, is_genre_word, is_work_noun
from core.types import Triple, normalize_entity

NAMED_LABELS = {
    "PERSON",
    "ORG",
    "GPE",
    "FAC",
    "LOC",
    "NORP",
    "PRODUCT",
    "EVENT",
    "WORK_OF_ART",
    "LAW",
    "LANGUAGE",
}
VALUE_LABELS = {"DATE", "TIME", "MONEY", "QUANTITY", "PERCENT", "CARDINAL"}
PLACE_LABELS = {"GPE", "LOC", "FAC"}
# "president of <org>", "mayor of <city>", "ambassador to <country>"
TITLE_OBJECT_LABELS = {"ORG", "GPE", "FAC"}
ORGANISATION_LABELS = {"ORG", "GPE"}
THING_LABELS = {"ORG", "FAC", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW"}
MALE_PRONOUNS = {"he", "him", "his", "himself"}
FEMALE_PRONOUNS = {"she", "her", "hers", "herself"}
PERSON_PRONOUNS = MALE_PRONOUNS | FEMALE_PRONOUNS
THING_PRONOUNS = {"it", "its"}
RELATIVE_PRONOUNS = {"who", "whom", "which", "that", "whose"}
PERSON_RELATIVES = {"who", "whom"}
NAMING_DEPS = {"oprd", "attr", "dobj"}
SUBJECT_DEPS = {"nsubj", "nsubjpass"}
PREP_DEPS = {"prep", "agent", "dative"}
MODIFIER_DEPS = {"compound", "amod", "nummod", "nmod"}
CONTROL_DEPS = {"conj", "xcomp"}
MODIFIED_NOUN_DEPS = {"acl", "relcl"}
DESCRIPTION_DEPS = {"attr", "appos", "conj"}
# Nouns that name a class, not a thing, when they stand alone ("attended college", "by degree").
BARE_CLASS_NOUNS = frozenset({"degree", "diploma", "certificate", "college", "school", "university"})
PLACE_NOUNS = frozenset(
    {
        "city", "town", "village", "municipality", "province", "state", "county", "district", "region",
        "island", "commune", "parish", "suburb", "borough", "farm", "estate", "hamlet", "settlement",
        "neighbourhood", "neighborhood", "quarter", "canton", "prefecture", "township", "governorate",
        "oblast", "voivodeship", "arrondissement",
    }
)  # fmt: skip
NAME_PARTICLES = frozenset(
    {"di", "de", "da", "del", "della", "des", "du", "of", "von", "van", "upon", "am", "an", "la", "le"}
)
MAIDEN_MARKERS = {"née", "nee", "née:"}
_OPENING_PRONOUN = re.compile(r"^\s*(?:He|She|His|Her)\b")
PARTY_MEMBER_WORDS = {"republican", "democrat", "conservative", "liberal", "socialist", "communist"}
TITLE_MODIFIERS = {
    "Vice",
    "Rear",
    "Deputy",
    "Chief",
    "Field",
    "Air",
    "Force",
    "Staff",
    "Second",
    "First",
    "Prime",
}
_TIME_PREPOSITIONS = {"before", "after", "while", "since", "upon", "on"}
_INITIALS = re.compile(r"(?:[A-Z]\.)+")
_POSTNOMINAL = re.compile(r"^(?:[A-Z]{2,5}|[A-Z]{2,4}\.?)$")
_LEADING_WORDS = {"between", "from", "since", "until", "circa", "around"}  # the tagger puts them in a DATE
_LIST_POS = {"DET", "ADJ", "NOUN", "PROPN", "NUM", "CCONJ", "ADV"}
LINKING_VERBS = {"be", "become", "remain"}

CONFIDENCE_BOTH_ENTITIES = 1.0
CONFIDENCE_ONE_ENTITY = 0.7
CONFIDENCE_NO_ENTITY = 0.4
PRONOUN_PENALTY = 0.9
BATCH_SIZE = 32
CHUNK_CHARS = 20_000
_TITLE_QUALIFIER = re.compile(r"\s*\([^)]*\)\s*$")
_DATE_RANGE = re.compile(r"^(.+?)\s+(?:to|until|till|through|–|-)\s+(.+)$")
_COUNT = re.compile(
    r"^(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|several|multiple)\s+(?=\S)", re.I
)
_BETWEEN_RANGE = re.compile(r"^(.+?)\s+and\s+(.+)$")
_NAME_WORD = re.compile(r"^[^\W\d_][\w.'’-]*$")  # any script's letter first ("Álvarez"); case checked apart
_ORGANISATION_WORDS = {
    "company",
    "inc",
    "inc.",
    "ltd",
    "ltd.",
    "corporation",
    "corp",
    "corp.",
    "university",
    "college",
    "school",
    "party",
    "club",
    "association",
    "society",
    "council",
    "bank",
    "group",
    "records",
    "band",
    "fc",
    "league",
    "institute",
    "museum",
    "church",
    "hospital",
    "foundation",
    "agency",
    "ministry",
    "department",
    "board",
    "committee",
    "commission",
    "union",
    "federation",
    "theatre",
    "theater",
    "orchestra",
    "press",
    "team",
}
# A parenthesis holding only a non-Latin-script name, optionally after "Language:".
_NATIVE_NAME = re.compile(
    r"^\s*(?:[A-Z][a-z]+:\s*)?([^\x00-\x1f\x21-\x7f\u00c0-\u024f\u2010-\u2015]{2,}?)\s*$"
)
# Words that end the name of a building or an institution ("the Queen's Theatre").
_NAMED_PLACE_WORDS = _ORGANISATION_WORDS | {
    "theatre", "theater", "hospital", "cathedral", "chapel", "abbey", "hall", "college", "school",
    "church", "infirmary", "academy", "gallery", "park", "gardens", "stadium", "inn", "arms",
}  # fmt: skip
# Title qualifiers of things that are no person: "Perfume (Japanese band)", "Foo (TV series)".
_THING_QUALIFIERS = {
    "band", "group", "company", "magazine", "newspaper", "ship", "horse", "river", "mountain", "village",
    "town", "city", "county", "district", "surname", "name", "disambiguation", "genus", "species",
    "franchise", "character", "software", "website", "organisation", "organization", "school",
    "university", "station", "building", "team", "club", "party", "tv",
}  # fmt: skip
# Units of a university: "School of ...", "Department of ...".
_UNIT_WORDS = frozenset({"school", "department", "faculty", "institute", "college", "centre", "center"})
_CONNECTORS = {"de", "del", "della", "di", "da", "von", "van", "der", "le", "la", "bin", "ibn", "al", "y"}


@dataclass(frozen=True)
class Argument:
    """A resolved head or tail: its text, kind, whether it is an entity, whether a pronoun was resolved."""

    text: str
    is_entity: bool
    from_pronoun: bool = False
    kind: str | None = None  # "date", "place", "person", "org", or None
    token: int | None = None  # the token it stands on, for the sentence span


@dataclass
class _Candidate:
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
        return _TITLE_QUALIFIER.sub("", self.title).strip()

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


def title_names_a_thing(title: str) -> bool:
    """ "The Cold Deck (film)", "Perfume (Japanese band)": a title that is no person's name."""
    name = _TITLE_QUALIFIER.sub("", title or "").strip()
    qualifier = (title or "")[len(name) :].strip(" ()").casefold()
    words = name.split()
    if words and words[0] in {"The", "A", "An"}:
        return True
    return any(is_work_noun(word) or word in _THING_QUALIFIERS for word in re.findall(r"[\w']+", qualifier))


def title_person(title: str, text: str) -> str | None:
    """The passage's title as a person's name, when the passage refers to that name.

    "Edwin Ellis (musician)" -> "Edwin Ellis" when the text mentions "Ellis" or "Edwin
    Ellis"; a single word ("Corser") or a title with lower-case words ("Feilden baronets")
    is no person's name.
    """
    if title_names_a_thing(title):
        return None
    name = _TITLE_QUALIFIER.sub("", title or "").strip()
    words = name.split()
    if not 2 <= len(words) <= 5:
        return None
    if not all((_NAME_WORD.match(w) and w[0].isupper()) or w in _CONNECTORS for w in words):
        return None
    names = [w for w in words if w not in _CONNECTORS and len(w) > 2]
    if any(re.search(rf"\b{re.escape(w)}\b", text) for w in names):
        return name
    # a passage cut from the middle of the article: "He was born in Oslo, ..." is about its title
    return name if _OPENING_PRONOUN.match(text) else None


class _ChunkRules:
    """Triples of one parsed chunk of a document."""

    def __init__(self, doc_id: str, doc: Any, offset: int, context: DocumentContext) -> None:
        self.doc_id = doc_id
        self.doc = doc
        self.offset = offset
        self.context = context
        self.text = doc.text
        self.sentences = list(doc.sents)
        self.sentence_of = [0] * len(doc)
        for index, sent in enumerate(self.sentences):
            for i in range(sent.start, sent.end):
                self.sentence_of[i] = index
        _merge_quoted_nicknames(doc, self.text)
        _merge_possessive_names(doc, self.text)
        _merge_coordinated_names(doc, self.text)
        _split_coordinated_institutions(doc)
        _merge_connected_names(doc)
        _split_at_maiden_name(doc)
        self._split_title_name_from_entities()
        self.entity_of: dict[int, Any] = {}
        for ent in doc.ents:
            for i in range(ent.start, ent.end):
                self.entity_of[i] = ent
        self.in_parentheses = self._parenthesised_tokens()
        self.maiden_name_of = self._maiden_names()  # token of a birth name -> the married name's last token
        title_name = context.title_name
        multiword = len(title_name.split()) > 1  # a one-word title names too many things to trust
        self.title_spans = [
            (m.start(), m.end()) for m in re.finditer(re.escape(title_name), self.text) if multiword
        ]
        self.segment_starts: dict[int, int] = {}  # a listed description's noun -> its first word
        self.mentions_by_sentence: dict[int, list[tuple[int, str, str]]] = defaultdict(list)
        self._register_mentions()

    def _split_title_name_from_entities(self) -> None:
        """ "Born in Mo i Rana, Lahlum grew up ...": the tagger makes "Mo i Rana, Lahlum" one name;
        the words after the comma are the title person's."""
        title_words = set((self.context.title_person or "").split())

        def cut(ent: Any) -> tuple[int, int, str] | None:
            comma = next((t.i for t in ent if t.text == ","), None)
            if comma is None or comma == ent.start:
                return None
            rest = {t.text for t in self.doc[comma + 1 : ent.end]}
            return (comma, comma + 1, "PERSON") if rest and rest <= title_words else None

        if title_words:
            _split_entities(self.doc, cut)

    # -- triples -------------------------------------------------------------------------

    def triples(self) -> list[Triple]:
        seen: set[tuple[tuple[str, str, str], tuple[int, int]]] = set()
        result: list[Triple] = []
        for candidate in self._all_candidates():
            for triple in self._make_triples(candidate):
                if (triple.key, triple.span) in seen:
                    continue
                seen.add((triple.key, triple.span))
                result.append(triple)
        return result

    def _all_candidates(self) -> Iterator[_Candidate]:
        yield from self._lifespan_candidates()
        yield from self._native_name_candidates()
        yield from self._located_in_candidates()
        yield from self._relative_named_after_copula_candidates()
        yield from self._title_before_name_candidates()
        yield from self._fronted_description_candidates()
        yield from self._institution_part_candidates()
        yield from self._field_of_work_candidates()
        yield from self._birth_name_candidates()
        yield from self._academic_major_candidates()
        for token in self.doc:
            if token.i in self.in_parentheses:
                continue
            if token.pos_ in {"VERB", "AUX"} and token.dep_ not in {"aux", "auxpass"}:
                yield from self._verb_triples(token)
            elif token.dep_ == "appos":
                yield from self._apposition_triples(token)
            elif token.pos_ == "NOUN" and self._called(token) is not None:
                named = self._called(token)
                argument = self._argument(named) if self._is_title_noun(token, named) else None
                if argument is not None:
                    yield from self._describe(replace(argument, kind="person"), token, follow=False)
            elif token.dep_ == "poss":
                yield from self._possessive_triples(token)

    # -- lifespans and lists -------------------------------------------------------------

    def _lifespan_candidates(self) -> Iterator[_Candidate]:
        """ "Name (born 1964 in Turin)", "Name, (1852–1928) Australian politician"."""
        for open_paren in self.doc:
            if open_paren.text != "(":
                continue
            close = self._closing_paren(open_paren.i)
            name_end = open_paren.i - 1
            while name_end >= 0 and self.doc[name_end].is_space:
                name_end -= 1  # "Franz Šedivý  (2 December 1864 – 20 April 1945)": a double space
            while name_end >= 0 and self.doc[name_end].text == ")":  # "Name (also X) (1554 – 1598)"
                opening = self._opening_paren(name_end)
                if opening is None:
                    break
                name_end = opening - 1
            if name_end >= 0 and self.doc[name_end].text == ",":
                name_end -= 1
            if close is None or name_end < 0 or not self._may_be_person(self.doc[name_end]):
                continue
            name_end = self._name_before_also_known_as(name_end)
            inner_start = open_paren.idx + 1
            facts = parse_parenthetical(self.text[inner_start : self.doc[close].idx])
            if not facts and not self._is_person_token(self.doc[name_end]):
                continue
            person = self._argument(self.doc[name_end])
            if person is None:
                continue
            if person.kind != "person":
                self.context.labels[person.text] = "PERSON"
                person = Argument(person.text, True, person.from_pronoun, "person", person.token)
            for prop, value, start, _end in facts:
                yield from self._lifespan_fact(person, prop, value, inner_start + start, open_paren.i)
            yield from self._description_after(person, close)

    def _name_before_also_known_as(self, name_end: int) -> int:
        """ "Georg Wilhelm Timm, also known as Vasily Fyodorovich Timm (1820 – 1895)": the lifespan
        is the first name's; the second is another name of the same person."""
        start = min(self._phrase_bounds(self.doc[name_end])[0], self.doc[name_end].left_edge.i)
        before = [t.lower_ for t in self.doc[max(0, start - 4) : start]]
        for cue in (["also", "known", "as"], ["known", "as"], ["a.k.a", "."], ["aka"]):
            if before[-len(cue) :] == cue:
                index = start - len(cue) - 1
                if index >= 0 and self.doc[index].text == ",":
                    index -= 1
                if index >= 0 and self._may_be_person(self.doc[index]):
                    return index
        return name_end

    def _native_name_candidates(self) -> Iterator[_Candidate]:
        """ "Masayoshi Soken (祖堅正慶)", "Ivan Petrov (Russian: Иван Петров)" -> native_name."""
        for open_paren in self.doc:
            if open_paren.text != "(" or open_paren.i == 0:
                continue
            close = self._closing_paren(open_paren.i)
            name = self.doc[open_paren.i - 1]
            if close is None or not self._is_entity_token(name) or self._label(name) in VALUE_LABELS:
                continue
            first_clause = self.text[open_paren.idx + 1 : self.doc[close].idx].split(";")[0]
            # "(Russian: Иван Петров; born 1950)", "(中谷 正義, Nakatani Masayoshi, born March 8, 1989)"
            inner = _NATIVE_NAME.match(first_clause) or _NATIVE_NAME.match(first_clause.split(",")[0])
            if inner is None or not any(ch.isalpha() for ch in inner.group(1)):
                continue
            argument = self._argument(name)
            if argument is not None:
                value = Argument(inner.group(1).strip(), True, kind="name", token=open_paren.i + 1)
                yield _Candidate(argument, [], value, relation="native_name")

    def _lifespan_fact(
        self, person: Argument, prop: str, value: str, char: int, anchor: int
    ) -> Iterator[_Candidate]:
        kind = "date" if prop.startswith(("date", "work_period")) or prop == "floruit" else "place"
        parts = [p.strip() for p in value.split(",") if p.strip()] if kind == "place" else [value]
        token = self._token_at(char)
        anchor = token.i if token is not None else anchor
        after_preposition = (
            token is not None and token.i > 0 and self.doc[token.i - 1].lower_ in {"in", "at", "near"}
        )
        if (
            prop == "place_of_birth"
            and token is not None
            and self._label(token) == "PERSON"
            and not after_preposition
        ):
            # "(born Christopher Comstock Hart)": a birth name, not a place
            yield _Candidate(
                person, [], Argument(value, True, kind="name", token=anchor), relation="birth_name"
            )
            return
        yield _Candidate(person, [], Argument(parts[0], True, kind=kind, token=anchor), relation=prop)
        for inner, outer in pairwise(parts):
            yield _Candidate(
                Argument(inner, True, kind="place", token=anchor),
                [],
                Argument(outer, True, kind="place", token=anchor),
                relation="located_in",
            )

    def _description_after(self, person: Argument, close: int) -> Iterator[_Candidate]:
        """The noun phrase right after a lifespan in a list: "(1852–1928) Australian politician"."""
        start = close + 1
        if start < len(self.doc) and self.doc[start].text == ",":
            start += 1
        end = start
        while end < len(self.doc) and self.doc[end].pos_ in {"ADJ", "NOUN", "PROPN", "CCONJ", "PUNCT", "DET"}:
            if self.doc[end].text in {";", ".", "(", ")"}:
                break
            end += 1
        nouns = [t for t in self.doc[start:end] if (t.pos_ == "NOUN" and t.head.i >= end) or t.pos_ == "NOUN"]
        if not nouns:
            return
        root = max(nouns, key=lambda t: t.i) if nouns else None
        # a conjunct right before another noun modifies it ("animal and landscape painter")
        roots = {root} | {
            t
            for t in nouns
            if t.dep_ == "conj"
            and t.head in nouns
            and (t.i + 1 == len(self.doc) or self.doc[t.i + 1].pos_ != "NOUN")
        }
        ordered = sorted(roots, key=lambda t: t.i)
        for noun in ordered:
            yield from self._describe(person, noun, follow=False, siblings=ordered)

    def _closing_paren(self, open_index: int) -> int | None:
        sentence = self.sentences[self.sentence_of[open_index]]
        limit = min(len(self.doc), max(sentence.end, open_index + 1) + 40)
        for i in range(open_index + 1, limit):
            if self.doc[i].text == ")":
                return i
            if self.doc[i].text == "(":
                return None
        return None

    def _opening_paren(self, close_index: int) -> int | None:
        for i in range(close_index - 1, max(-1, close_index - 40), -1):
            if self.doc[i].text == "(":
                return i
            if self.doc[i].text == ")":
                return None
        return None

    def _parenthesised_tokens(self) -> set[int]:
        inside: set[int] = set()
        for token in self.doc:
            if token.text == "(":
                close = self._closing_paren(token.i)
                if close is not None:
                    inside.update(range(token.i, close + 1))
        return inside

    def _token_at(self, char: int) -> Any | None:
        span = self.doc.char_span(char, char + 1, alignment_mode="expand")
        return span[0] if span is not None and len(span) else None

    # -- fronted descriptions ---------------------------------------------------------------

    def _fronted_description_candidates(self) -> Iterator[_Candidate]:
        """ "A member of the Komeito Party, he was elected ...", "An attorney by trade, he served ..."."""
        for sentence in self.sentences:
            first = sentence[0]
            if first.lower_ not in {"a", "an"}:
                continue
            comma = next((t for t in sentence if t.text == ","), None)
            if comma is None or comma.i + 1 >= sentence.end:
                continue
            subject_token = self.doc[comma.i + 1]
            if subject_token.dep_ not in SUBJECT_DEPS or subject_token.pos_ not in {"PRON", "PROPN"}:
                continue
            described = [t for t in self.doc[first.i : comma.i] if t.pos_ == "NOUN" and t.head.i >= comma.i]
            subject = self._argument(subject_token)
            if subject is None or subject.kind != "person":
                continue
            if len(described) == 1:
                yield from self._describe(subject, described[0], follow=False)
            elif comma.i == first.i + 2 and self.doc[first.i + 1].lower_ in PARTY_MEMBER_WORDS:
                party = self.doc[first.i + 1]  # "A Republican, he represented ..."
                argument = Argument(party.text, True, kind="org", token=party.i)
                yield _Candidate(subject, [], argument, "member_of_political_party")

    # -- birth names ---------------------------------------------------------------------------

    def _maiden_names(self) -> dict[int, int]:
        """'Sarah Hutchings "née" Reneer', "Mary Kemp née Ward", "(née Smith; born 1950)": the birth
        name's tokens stand for the person named before "née"."""
        found: dict[int, int] = {}
        for token in self.doc:
            if token.lower_ not in MAIDEN_MARKERS:
                continue
            before = token.i - 1
            while before >= 0 and self.doc[before].text in {'"', "“", "”", "("}:
                before -= 1
            start = token.i + 1
            while start < len(self.doc) and self.doc[start].text in {'"', "“", "”"}:
                start += 1
            end = start
            while end < len(self.doc) and end - start < 3 and self.doc[end].text[:1].isupper():
                end += 1
            if before < 0 or end == start or not self.doc[before].text[:1].isupper():
                continue
            for index in range(start, end):
                found[index] = before
        return found

    def _birth_name_candidates(self) -> Iterator[_Candidate]:
        spans: dict[int, list[int]] = defaultdict(list)  # the married name's last token -> birth name tokens
        for index, person_end in self.maiden_name_of.items():
            spans[person_end].append(index)
        for person_end, indices in spans.items():
            person = self._argument(self.doc[person_end])
            if person is not None:
                text = self.doc[min(indices) : max(indices) + 1].text
                birth_name = Argument(text, True, kind="name", token=min(indices))
                yield _Candidate(replace(person, kind="person"), [], birth_name, "birth_name")

    # -- academic majors ---------------------------------------------------------------------

    def _academic_major_candidates(self) -> Iterator[_Candidate]:
        """ "a bachelor's degree on zoology", "an MA in Economics", "a geography graduate of X": the
        field studied, beside the degree (which keeps its field in its own name)."""
        for token in self.doc:
            fields = self._degree_fields(token)
            if not fields:
                continue
            verb = token
            for _ in range(3):
                if verb.pos_ in {"VERB", "AUX"} or verb.head.i == verb.i:
                    break
                verb = verb.head
            if verb.pos_ not in {"VERB", "AUX"}:
                continue
            for subject_token in self._subjects(verb):
                subject = self._argument(subject_token)
                if subject is None or subject.kind != "person":
                    continue
                for field_token in fields:
                    text = self.doc[_modified_start(field_token) : field_token.i + 1].text
                    major = Argument(text, False, kind="common", token=field_token.i)
                    yield _Candidate(subject, [], major, "academic_major")

    def _degree_fields(self, token: Any) -> list[Any]:
        lower = token.lower_
        if lower == "graduate" and token.pos_ == "NOUN":  # "a geography graduate of the University"
            return [
                c for c in token.lefts if c.dep_ == "compound" and c.pos_ == "NOUN" and c.i == token.i - 1
            ]
        if not is_degree_token(token):
            return []
        if is_vocational(token):
            return []  # "a Diploma in Journalism", "a Certificate in Video Production": no academic major
        end = _degree_bounds_end(token)
        prep = degree_field(token, end, also_on=True)
        if prep is None:
            return []
        objects = [c for c in prep.children if c.dep_ == "pobj"]
        return [t for obj in objects for t in (obj, *obj.conjuncts) if t.pos_ in {"NOUN", "PROPN"}]

    # -- fields of work ----------------------------------------------------------------------

    def _field_of_work_candidates(self) -> Iterator[_Candidate]:
        """ "known for his work on business information systems", "engaged in the study of Nepali
        literature", "has published on Nepali politics", "Perilli's main fields of research include X"."""
        for token in self.doc:
            if token.i in self.in_parentheses:
                continue
            if (
                self._names_fields(token)
                and token.dep_ == "nsubj"
                and _lemma(token.head) in {"include", "be"}
            ):
                owner = next((c for c in token.children if c.dep_ == "poss"), None)
                subject = self._argument(owner) if owner is not None else None
                for field_noun in _children(token.head, {"dobj", "attr"}, self):
                    yield from self._field_facts(subject, field_noun)
                continue
            verb, fields = self._fields_after(token)
            if verb is None or verb.pos_ not in {"VERB", "AUX"}:
                continue
            for subject_token in self._subjects(verb):
                subject = self._argument(subject_token)
                for field_noun in fields:
                    yield from self._field_facts(subject, field_noun)

    def _fields_after(self, token: Any) -> tuple[Any | None, list[Any]]:
        """The verb whose subject works in the fields, and the fields: "(known for) his work on X",
        "(engaged in) the study of X", "published on X"."""
        lemma = token.lemma_.lower()
        if token.pos_ == "NOUN" and lemma in FIELD_NOUNS and token.dep_ == "pobj":
            preps = {"on", "of", "in", "about"}
            return token.head.head, [o for p, o in _prepositional_objects(token, self) if p.lower_ in preps]
        if token.pos_ == "VERB" and lemma in FIELD_VERBS:
            return token, [o for p, o in _prepositional_objects(token, self) if p.lower_ in {"on", "about"}]
        return None, []

    @staticmethod
    def _names_fields(token: Any) -> bool:
        """ "his academic focus", "Perilli's main fields of research", "her research interests"."""
        lemma = token.lemma_.lower()
        return token.pos_ == "NOUN" and (lemma in FIELD_NOUNS or lemma in {"field", "interest", "area"})

    def _field_facts(self, subject: Argument | None, noun: Any) -> Iterator[_Candidate]:
        if subject is None or subject.kind != "person" or noun.pos_ != "NOUN" or self._is_entity_token(noun):
            return
        for text in self._field_names(noun):
            yield _Candidate(subject, [], Argument(text, False, kind="common", token=noun.i), "field_of_work")

    def _field_names(self, noun: Any) -> list[str]:
        """ "glacial and periglacial geomorphology" -> glacial geomorphology, periglacial geomorphology."""
        if noun.lemma_.lower() in GENERIC_NOUNS:
            return []  # "related topics", "the intersection of ..."
        modifiers = [
            c for c in noun.lefts if c.dep_ in {"amod", "compound", "nmod"} and c.right_edge.i < noun.i
        ]
        if not modifiers:
            return [noun.text]
        first = modifiers[0]
        shared = self.doc[first.right_edge.i + 1 : noun.i + 1].text
        coordinated = [first, *(c for c in first.conjuncts if c.i > first.i)]
        if len(coordinated) > 1 and all(c.pos_ in {"ADJ", "NOUN", "PROPN"} for c in coordinated):
            if " " in shared:  # "modern and contemporary Nepali literature": the pair qualifies the field
                return [shared]
            return [f"{c.text} {shared}" for c in coordinated]
        return [self.doc[first.left_edge.i : noun.i + 1].text]

    # -- titles before names ----------------------------------------------------------------

    def _title_before_name_candidates(self) -> Iterator[_Candidate]:
        """ "by Governor Clarence D. Martin" -> position_held Governor; "Captain Raginis" -> military_rank."""
        for ent in self.doc.ents:
            if ent.label_ != "PERSON":
                continue
            start = ent.start
            while start > 0 and self.doc[start - 1].lower_ in PERSONAL_HONORIFICS:
                start -= 1  # "General Sir Ian Hamilton"
            first = start
            while first > 0 and self._is_title_word(self.doc[first - 1]) and start - first < 4:
                first -= 1
            if first == start:
                continue
            words = [t.text for t in self.doc[first:start] if t.lower_ not in PERSONAL_HONORIFICS]
            if not words:
                continue  # honorifics only ("Dr. Mrs. Voss"): no title to read
            relation = title_relation(words[-1].lower())
            if relation is None or first in self.in_parentheses:
                continue
            person = self._argument(self.doc[ent.end - 1])
            if person is not None:
                title = Argument(" ".join(words), False, kind="common", token=first)
                yield _Candidate(replace(person, kind="person"), [], title, relation=relation)

    def _is_title_word(self, token: Any) -> bool:
        if not token.text[:1].isupper() or token.i in self.entity_of:
            return False
        following = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
        if token.text in TITLE_MODIFIERS and following is not None and self._is_title_word(following):
            return True  # "Vice" of "Vice Admiral", "Air Force" of "Air Force Vice Admiral"
        return title_relation(token.lower_) is not None

    # -- relatives ---------------------------------------------------------------------------

    def _relative_named_after_copula_candidates(self) -> Iterator[_Candidate]:
        """ "His biological father was noted stage and film actor Richard Hart" -> father, occupation.

        Read off the words, since the small parser takes "noted" for the verb: a possessed
        kinship noun, "was"/"is", then only descriptive words up to a person's name that ends
        the clause. The last noun before the name is the relative's occupation.
        """
        for kin in self.doc:
            owner = next((c for c in kin.children if c.dep_ == "poss"), None)
            if owner is None or kin.lemma_.lower() not in KIN_NOUNS or kin.tag_ == "NNS":
                continue
            copula = kin.i + 1
            if copula >= len(self.doc) or self.doc[copula].lower_ not in {"was", "is"}:
                continue
            name_start = copula + 1
            while name_start < len(self.doc) and self._describes_a_name(self.doc[name_start]):
                name_start += 1
            ent = self.entity_of.get(name_start) if name_start < len(self.doc) else None
            if (
                ent is None
                or ent.label_ != "PERSON"
                or ent.start != name_start
                or not self._ends_clause(ent.end)
            ):
                continue
            named = self.doc[ent.end - 1]
            yield _Candidate(owner, [kin.lower_], named)
            described = self.doc[name_start - 1]
            if described.pos_ == "NOUN" and is_person_noun(described.lower_):
                value = Argument(described.lower_, False, kind="common", token=described.i)
                yield _Candidate(named, [], value, relation="occupation")

    def _describes_a_name(self, token: Any) -> bool:
        return token.i not in self.entity_of and (
            token.tag_ in {"DT", "JJ", "NN", "NNS", "CC", "VBN", "HYPH"} and token.text[:1].islower()
        )

    def _ends_clause(self, index: int) -> bool:
        return index >= len(self.doc) or self.doc[index].text in {".", ",", ";", "(", ":"}

    # -- places ----------------------------------------------------------------------------

    def _located_in_candidates(self) -> Iterator[_Candidate]:
        """ "Trinidad, California", "Queen's Theatre, Liverpool" -> located_in (not inside lists)."""
        ents = list(self.doc.ents)
        for index, (inner, outer) in enumerate(pairwise(ents)):
            if not self._is_place_refinement(inner, outer):
                continue
            before = ents[index - 1] if index else None
            after = ents[index + 2] if index + 2 < len(ents) else None
            if (
                before is not None
                and self._is_place_refinement(before, inner)
                and before.label_ in PLACE_LABELS
            ):
                continue
            if (
                after is not None
                and after.start - outer.end <= 2
                and after.label_ in PLACE_LABELS
                and (self.doc[outer.end].text in {",", "and", "or"})
            ):
                continue  # a list: "Norwich, London and Cambridge"
            if self._ends_a_list(outer.end):
                continue  # "Venice, Rome, Magliano Capo di Sabina, and Aquila"
            yield _Candidate(
                self._entity_argument(inner), [], self._entity_argument(outer), relation="located_in"
            )
        yield from self._apposed_place_candidates()

    def _apposed_place_candidates(self) -> Iterator[_Candidate]:
        """ "born in Jatisobo, Banyumas, on 18 March 1943": the parser apposes the region to the
        place, whatever label the tagger gave the region (here ORG)."""
        for outer in self.doc:
            place = outer.head
            if not (
                outer.dep_ == "appos"
                and outer.pos_ == "PROPN"
                and place.dep_ == "pobj"
                and place.head.lower_ in {"in", "near", "at"}
            ):
                continue
            place_ent, outer_ent = self.entity_of.get(place.i), self.entity_of.get(outer.i)
            if place_ent is None or outer_ent is None or place_ent.label_ not in {"GPE", "LOC"}:
                continue
            if outer_ent.label_ != "ORG" or not self._follows_as_refinement(place_ent, outer_ent):
                continue  # GPE and LOC regions are the named pairs' (above)
            if set(self._name_words(outer_ent)) & _UNIT_WORDS or self._ends_a_list(outer_ent.end):
                continue  # "in Kitwe, Rokana Primary School": no region
            yield _Candidate(
                self._entity_argument(place_ent), [], self._entity_argument(outer_ent), relation="located_in"
            )

    def _institution_part_candidates(self) -> Iterator[_Candidate]:
        """ "the School of Oriental and African Studies (SOAS), University of London" -> part_of;
        "the University of Oslo, Department of Geosciences" -> the department is part of it."""
        ents = [e for e in self.doc.ents if e.label_ in {"ORG", "FAC"}]
        for inner, outer in pairwise(ents):
            between = self.doc[inner.end : outer.start]
            if self._has_abbreviation(between):
                between = self.doc[self._closing_paren(inner.end) + 1 : outer.start]
            if [t.text for t in between] != [","] or inner.end - 1 in self.in_parentheses:
                continue
            inner_words, outer_words = self._name_words(inner), self._name_words(outer)
            if outer_words[:1] == ["university"] and set(inner_words) & _UNIT_WORDS:
                yield _Candidate(self._entity_argument(inner), [], self._entity_argument(outer), "part_of")
            elif inner_words[:1] == ["university"] and outer_words[:1] and outer_words[0] in _UNIT_WORDS:
                yield _Candidate(self._entity_argument(outer), [], self._entity_argument(inner), "part_of")

    def _has_abbreviation(self, between: Any) -> bool:
        return len(between) >= 3 and between[0].text == "(" and self._closing_paren(between[0].i) is not None

    def _name_words(self, ent: Any) -> list[str]:
        start, end = self._entity_bounds(ent)
        return [t.lower_ for t in self.doc[start:end]]

    def _ends_a_list(self, start: int) -> bool:
        """Names and commas from `start` on reach an "and"/"or" before another name: a list."""
        for index in range(start, min(len(self.doc), start + 30)):
            token = self.doc[index]
            if token.lower_ in {"and", "or"}:
                following = self.doc[index + 1] if index + 1 < len(self.doc) else None
                return following is not None and following.pos_ == "PROPN"
            if token.text != "," and token.pos_ not in {"PROPN", "DET", "X"} and not _name_particle(token):
                return False  # "Wheat Ridge, Colorado to Donald and Rhonda": "to" ends the places
        return False

    def _is_place_refinement(self, inner: Any, outer: Any) -> bool:
        return (
            inner.label_ in PLACE_LABELS | {"ORG"}
            and outer.label_ in {"GPE", "LOC"}
            and self._follows_as_refinement(inner, outer)
        )

    def _follows_as_refinement(self, inner: Any, outer: Any) -> bool:
        """ "Trinidad, California": the outer name right after the inner one and a comma."""
        return (
            outer.start == inner.end + 1
            and self.doc[inner.end].text == ","
            and inner.end not in self.in_parentheses
            and not self._names_the_title_person(outer.text)  # "Born in Montreal, McKay studied ..."
            and not _INITIALS.fullmatch(outer.text)  # "Dundas, V.C., C.B.": honours after a name
        )

    def _names_the_title_person(self, text: str) -> bool:
        title = self.context.title_person
        return bool(title) and set(text.split()) <= set(title.split())

    def _entity_argument(self, ent: Any) -> Argument:
        start, end = self._entity_bounds(ent)
        kind = _kind_of_label(ent.label_)
        return Argument(self.doc[start:end].text, True, kind=kind, token=ent.start)

    # -- verbs -----------------------------------------------------------------------------

    def _verb_triples(self, verb: Any) -> Iterator[_Candidate]:
        if _is_age_clause(verb):
            return  # "died aged 35, at St. Thomas's Hospital": the place is the death's
        if verb.dep_ == "xcomp" and _lemma(verb.head) in UNREALISED_VERBS:
            return  # "She wanted to be a teacher", "hoped to join X": no fact
        subjects = self._subjects(verb)
        if not subjects:
            # "Projects include an HIV Training Clinic in Mzuzu": where a thing is needs no subject
            for obj in self._objects(verb):
                yield from self._location_triples(obj)
            return
        negated = any(c.dep_ == "neg" for c in verb.children)
        negation = ["not"] if negated else []
        complements = [
            c
            for c in verb.children
            if c.dep_ in {"attr", "acomp"} and not _joined_hyphen(c) and not _hyphen_prefix(c)
        ]  # "was vice-president of": "vice" and "-" are no complements of their own
        complements = [c for c in complements if not self._modifies_next_complement(c, complements)]
        if complements:
            linking = [] if verb.lemma_.lower() in LINKING_VERBS else [relation_word(verb)]
            for subject in subjects:
                for complement in complements:
                    yield from self._copula_triples(subject, negation + linking, complement, negated)
            return
        words = [*negation, relation_word(verb)] + [c.lower_ for c in verb.children if c.dep_ == "prt"]
        for subject in subjects:
            for obj in self._objects(verb):
                named_kin = obj.lemma_.lower() in KIN_NOUNS and self._nominal(obj) is not obj
                if _lemma(verb) == "have" and named_kin:
                    yield _Candidate(subject, [obj.lower_], obj)  # "She has a sister, Tegan" -> sibling
                    continue
                yield _Candidate(subject, words, obj)
                yield from self._object_modifier_triples(subject, words, obj)
                yield from self._location_triples(obj)
            last_place = None
            age_clauses = [c for c in verb.children if _is_age_clause(c)]
            prepositions = [*_prepositional_objects(verb, self)] or self._shared_prepositions(verb)
            prepositions += [
                found for clause in age_clauses for found in _prepositional_objects(clause, self)
            ]
            degree_fields = {
                field.i
                for obj in self._objects(verb)
                if is_degree_token(obj) and (field := degree_field(obj, _degree_bounds_end(obj))) is not None
            }
            for prep, pobj in prepositions:
                if prep.i in degree_fields:
                    # "studied Diploma in Journalism": the degree's field, said with the degree; but
                    # "a Master of Fine Arts in composition from Brandeis University": where from
                    yield from self._field_origin_candidates(subject, words, pobj)
                    continue
                held = self._positions_held(pobj) if prep.lower_ == "as" and not negated else []
                if held and self._is_person_token(subject):
                    # "served as the president and CEO of the National Council of La Raza"
                    for noun, of_prep, organisation in held:
                        title = self._occupation_argument(noun).text.lower()  # "lieutenant governor"
                        yield _Candidate(subject, [title, of_prep.lower_], organisation)
                    continue
                if last_place is not None and prep.lower_ == "in" and self._refines(prep, pobj, last_place):
                    # "born in the city of Atbara in River Nile State, in the Republic of Sudan"
                    yield _Candidate(last_place, [], pobj, relation="located_in")
                    last_place = self._innermost_place(pobj)
                    continue
                if pobj.pos_ == "NOUN" and not self._is_entity_token(pobj) and self._nominal(pobj) is pobj:
                    # "died of lung cancer in New York City": the place belongs to the verb
                    for inner_prep, inner_obj in _prepositional_objects(pobj, self):
                        if not self._is_entity_token(inner_obj):
                            continue
                        if is_degree_token(pobj) and inner_prep.lower_ in {"in", "of"}:
                            continue  # "graduated with a master's degree in Finance": the degree's field
                        if inner_prep.lower_ != "of":
                            yield _Candidate(subject, [*words, inner_prep.lower_], inner_obj)
                        elif pobj.lemma_.lower() not in GENERIC_NOUNS | RELATIONAL_NOUNS:
                            # "moved to the staff of the Ottawa Renegades" -> move_to_staff_of
                            yield _Candidate(subject, [*words, prep.lower_, pobj.lower_, "of"], inner_obj)
                else:
                    yield from self._location_triples(pobj)
                    if prep.lower_ == "in" and self._is_place(self._nominal(pobj)):
                        last_place = self._innermost_place(pobj)
                if not negated and prep.lower_ == "as" and _lemma(verb) in {"work", "serve", "act"}:
                    relation = "position_held" if _lemma(verb) == "serve" else "occupation"
                    if self._is_person_token(subject) and pobj.pos_ == "NOUN":
                        yield _Candidate(subject, [], self._occupation_argument(pobj), relation=relation)
                        for inner_prep, inner_obj in _prepositional_objects(pobj, self):
                            yield _Candidate(subject, [*words, inner_prep.lower_], inner_obj)
                        continue
                if _lemma(verb) in FIELD_VERBS and prep.lower_ in {"on", "about"} and pobj.pos_ == "NOUN":
                    continue  # "published on Nepali politics": a field of work, stated by its own rule
                yield _Candidate(subject, [*words, prep.lower_], pobj)

    def _modifies_next_complement(self, complement: Any, complements: list[Any]) -> bool:
        """ "is a former American football wide receiver": the parser makes "football" a second
        complement; a non-person noun right before the next complement's words modifies it."""
        return not is_person_noun(complement.lower_) and any(
            other.left_edge.i == complement.i + 1 for other in complements if other.i > complement.i
        )

    def _shared_prepositions(self, verb: Any) -> list[tuple[Any, Any]]:
        """ "was born and raised in X", "lived and worked in Y": the next verb's place is this one's too."""
        if _children(verb, {"dobj"}, self):
            return []
        following = [c for c in verb.children if c.dep_ == "conj" and c.pos_ == "VERB" and c.i == verb.i + 2]
        if not following or self.doc[verb.i + 1].lower_ != "and":
            return []
        return [(prep, pobj) for prep, pobj in _prepositional_objects(following[0], self)]

    def _positions_held(self, noun: Any) -> list[tuple[Any, Any, Any]]:
        """(title noun, preposition, organisation) of "as the president and CEO of X", "as
        a member of X", "as U.S. Ambassador to Y".

        The parser hangs a coordination's shared "of X" on its first noun ("president and CEO
        of X", "co-founder and president of X"), so a later noun borrows it from an earlier one;
        never backwards ("a politician and former member of X": no politician of X)."""
        if noun.pos_ not in {"NOUN", "PROPN"} or self._label(noun) is not None:
            return []
        own = self._title_objects(noun)
        if own:
            return [(noun, prep, pobj) for prep, pobj in own]
        if not is_person_noun(noun.lower_):
            return []  # "a critic of Cultural Radicalism, Marxism and official social policy": no policy_of
        earlier = [t for t in noun.conjuncts if t.i < noun.i]
        shared = [found for member in earlier for found in self._title_objects(member)]
        return [(noun, prep, pobj) for prep, pobj in shared]

    @staticmethod
    def _indefinite_coordination(noun: Any) -> bool:
        """ "a retired minister of ...", "a co-founder and president of ...": the first conjunct's article."""
        first = noun
        while first.dep_ == "conj" and first.head.i != first.i:
            first = first.head
        return any(c.dep_ == "det" and c.lower_ in {"a", "an"} for c in first.children)

    def _title_objects(self, noun: Any) -> list[tuple[Any, Any]]:
        """ "president of <org>", "ambassador to <country>" (not "elected as a member to")."""
        return [
            (prep, pobj)
            for prep, pobj in _prepositional_objects(noun, self)
            if self._label(pobj) in TITLE_OBJECT_LABELS
            and (prep.lower_ == "of" or (prep.lower_ == "to" and _lemma(noun) not in RELATIONAL_NOUNS))
        ]

    def _objects(self, verb: Any) -> list[Any]:
        """Direct objects, with the conjuncts of a named apposition ('the names "A" and "B"')."""
        objects = _children(verb, {"dobj"}, self)
        for obj in list(objects):
            named = self._nominal(obj)
            if named is not obj:
                objects.extend(c for c in named.conjuncts if self._is_entity_token(c))
        return objects

    def _location_triples(self, token: Any) -> Iterator[_Candidate]:
        """ "the farm Stalsberg in Skedsmo", "Rokana Primary School in Kitwe": located_in, outwards."""
        current = token
        for _ in range(4):
            if not self._is_place_like(self._nominal(current)):
                return
            inner = self._place_in(current)
            if inner is None:
                return
            yield _Candidate(current, [], inner, relation="located_in")
            current = inner

    def _place_in(self, token: Any) -> Any | None:
        tokens = {token, self._nominal(token)}
        return next(
            (
                pobj
                for owner in tokens
                for prep, pobj in _prepositional_objects(owner, self)
                if self._is_place(pobj)
                and (
                    prep.lower_ == "in"
                    or (
                        prep.lower_ == "of"
                        and owner.pos_ == "NOUN"
                        and self._named_compound(owner) is not None
                    )
                )
            ),
            None,
        )

    def _innermost_place(self, token: Any) -> Any:
        current = token
        for _ in range(4):
            inner = self._place_in(current)
            if inner is None:
                break
            current = inner
        return current

    def _refines(self, prep: Any, pobj: Any, last_place: Any) -> bool:
        """A second "in <place>" of a verb, after a comma or right after the first place
        ("born in Vík in the South Constituency"), locates the first place."""
        if not self._is_place(pobj) or prep.i == 0:
            return False
        return self.doc[prep.i - 1].text == "," or prep.i == self._phrase_bounds(last_place)[1]

    def _is_place(self, token: Any) -> bool:
        return self._label(token) in {"GPE", "LOC"}

    def _is_place_like(self, token: Any) -> bool:
        """A named place or organisation, or a name after a place noun ("the farm Stalsberg")."""
        if self._label(token) in PLACE_LABELS | {"ORG"}:
            return True
        return self._is_entity_token(token) and any(
            c.dep_ == "compound" and c.lemma_.lower() in PLACE_NOUNS for c in token.children
        )

    def _copula_triples(
        self, subject: Any, words: list[str], complement: Any, negated: bool
    ) -> Iterator[_Candidate]:
        """ "X is an Italian writer and translator" -> descriptions; "X is the CEO of Y" -> ceo_of."""
        if complement.dep_ == "attr" and complement.pos_ == "NOUN" and not self._is_entity_token(complement):
            if negated:
                return
            owner = next(iter(_children(subject, {"poss"}, self)), None)
            if owner is not None and subject.pos_ == "NOUN" and self._nominal(subject) is subject:
                if self._is_entity_token(self._nominal(complement)):  # "His father was a policeman named X"
                    yield _Candidate(owner, [*words, subject.lower_], complement)
                return  # "Her father is a high official": the father is not named
            subject_argument = self._argument(subject)
            if subject_argument is not None and subject.lower_ in PERSON_RELATIVES:
                subject_argument = replace(subject_argument, kind="person")  # "who" is a person
            if subject_argument is not None:
                yield from self._describe(subject_argument, complement)
            return
        noun_words = [*words, complement.lower_]
        preps = list(_prepositional_objects(complement, self))
        for prep, pobj in preps:
            yield _Candidate(subject, [*noun_words, prep.lower_], pobj)
        if preps or complement.dep_ != "attr":
            return
        owner = next(iter(_children(subject, {"poss"}, self)), None)
        if owner is not None and subject.pos_ == "NOUN" and self._nominal(subject) is subject:
            yield _Candidate(owner, [*words, subject.lower_], complement)
        else:
            yield _Candidate(subject, words or ["be"], complement)

    def _field_origin_candidates(
        self, subject: Any, words: list[str], field_noun: Any
    ) -> Iterator[_Candidate]:
        for inner_prep, inner_obj in _prepositional_objects(field_noun, self):
            if inner_prep.lower_ in {"from", "at"} and self._names_a_school(inner_obj):
                yield _Candidate(subject, [*words, inner_prep.lower_], inner_obj, "educated_at")

    def _names_a_school(self, token: Any) -> bool:
        """Where a degree came from: a named organisation or place, not a person or a date."""
        return self._is_entity_token(token) and self._label(token) not in VALUE_LABELS | {"PERSON"}

    def _object_modifier_triples(self, subject: Any, words: list[str], obj: Any) -> Iterator[_Candidate]:
        """A common-noun object's prepositional entity ("chairs the board of Y" -> chair_board_of)."""
        if self._is_entity_token(obj) and not is_degree_token(obj):
            return  # (the tagger names "PhD" or "MBA" an organisation; a degree is no name)
        # "studied natural sciences, mainly chemistry at the University of Bern": the apposition's place
        refinements = [c for c in obj.children if c.dep_ == "appos" and c.pos_ == "NOUN"]
        for noun in [obj, *refinements]:
            if self._is_entity_token(noun) and not is_degree_token(noun):
                continue
            for prep, pobj in _prepositional_objects(noun, self):
                if is_degree_token(noun) and prep.lower_ in {"in", "of"}:
                    # the degree's field is its own fact; where it came from is the school's
                    yield from self._field_origin_candidates(subject, words, pobj)
                    continue
                if self._is_entity_token(pobj):
                    of_noun = [noun.lower_] if prep.lower_ == "of" else []
                    # "has a BA from the University of Iceland": a degree from a school
                    from_school = prep.lower_ in {"from", "at"} and self._names_a_school(pobj)
                    school = "educated_at" if is_degree_token(noun) and from_school else None
                    yield _Candidate(subject, [*words, *of_noun, prep.lower_], pobj, school)

    # -- descriptions ------------------------------------------------------------------------

    def _describe(
        self, subject: Argument, noun: Any, follow: bool = True, siblings: Sequence[Any] = ()
    ) -> Iterator[_Candidate]:
        """A description noun and its conjuncts split into facts about `subject`."""
        person = subject.kind == "person"
        done_entities: set[int] = set()
        described_nouns = self._description_nouns(noun) if follow else [noun]
        person_noun_listed = any(is_person_noun(n.lower_) for n in described_nouns)
        for described in described_nouns:
            if described.i in self.in_parentheses and noun.i not in self.in_parentheses:
                continue  # "a critic of Cultural Radicalism (Danish cultural relativist movement)"
            if person and described.tag_ == "NNS":
                continue  # one person is no "fortified defense positions": the parser joined another phrase
            segment_start = self.segment_starts.get(described.i, described.i)
            modifiers = [*described.lefts, *self.doc[segment_start : described.i]]
            lemma = described.lemma_.lower()
            # "X is a 1960 film": what is a film is no person; "a film, television and theatre
            # actor" is one, whose description lists a person noun
            work = is_work_noun(lemma) and (
                not person or (described.dep_ == "attr" and not person_noun_listed)
            )
            if work and person:
                subject, person = self._as_work(subject), False
            for token in dict.fromkeys(modifiers):
                for fact in self._modifier_facts(subject, token, person, done_entities):
                    yield (
                        replace(fact, relation="country_of_origin")
                        if work and fact.relation == "country"
                        else fact
                    )
            if work:
                yield from self._work_facts(subject, described, min([described.i, *(t.i for t in modifiers)]))
            value = self._occupation_argument(described)
            shared = self._shared_head(described, siblings or described_nouns) if person else None
            if shared is not None:  # "management and IT consultant" -> management consultant
                value = replace(value, text=f"{value.text} {shared.text}")
            generic = lemma in GENERIC_NOUNS | BARE_CLASS_NOUNS and " " not in value.text
            held = self._positions_held(described)
            # "was vice-president of the German-American Savings Bank": a title of the bank, no
            # occupation; "a retired minister of the Church of Scotland" stays one
            titled = any(prep.lower_ == "of" for _, prep, _ in held) and not self._indefinite_coordination(
                described
            )
            occupational = lemma not in RELATIONAL_NOUNS and not generic and not titled
            if described.i != noun.i and shared is None and not is_person_noun(described.lower_):
                occupational = False  # "a critic of X, Marxism and social policy": the parser's conjunct
            if person and occupational and not self._of_a_person(described):
                yield _Candidate(subject, [], value, relation="occupation")
            elif subject.kind in {"org", "place"} and not generic and lemma not in KIN_NOUNS and not work:
                yield _Candidate(subject, [], value, relation="instance_of")
            # a title keeps its words ("vice-president of", "assistant editor of"); "younger son of" is son_of
            hyphenated = self.doc[_hyphenated_start(self.doc, described.i) : described.i + 1].text.lower()
            title = hyphenated if lemma in RELATIONAL_NOUNS else value.text.lower()
            own = list(_prepositional_objects(described, self))
            for prep, pobj in own:
                yield from self._location_triples(pobj)  # "a player for the Yokohama B-Corsairs in Japan"
                if person and prep.lower_ in {"at", "for", "with"} and self._label(pobj) in {"ORG", "FAC"}:
                    relation = "member_of_political_party" if self._is_party(pobj) else "employer"
                    if is_athlete_noun(lemma) and prep.lower_ in {"for", "with"}:
                        relation = "member_of_sports_team"  # "a wide receiver for the Cincinnati Bengals"
                    yield _Candidate(subject, [], pobj, relation=relation)
                else:
                    is_title = any(pobj.i == held_object.i for _, _, held_object in held)
                    yield _Candidate(subject, [title if is_title else described.lower_, prep.lower_], pobj)
            if person and not own:  # "a co-founder and president of the Chamber": the "of" is shared
                for _, prep, pobj in held:
                    yield _Candidate(subject, [title, prep.lower_], pobj)

    def _as_work(self, subject: Argument) -> Argument:
        if self.context.is_title_person(subject.text):
            self.context.title_person = None  # the title names this work; "he" is no longer its subject
        self.context.labels[subject.text] = "WORK_OF_ART"
        return replace(subject, kind="org")

    def _work_facts(self, work: Argument, noun: Any, start: int) -> Iterator[_Candidate]:
        """ "a 1917 American silent Western film" -> publication_date, genre, instance_of."""
        tokens = list(self.doc[start : noun.i + 1])
        skipped = [self._outside_work_kind(t) for t in tokens]
        described = describe_work([t.text for t in tokens], len(tokens) - 1, skipped)
        if described.year is not None:
            year = tokens[described.year]
            yield _Candidate(
                work, [], Argument(year.text, True, kind="date", token=year.i), "publication_date"
            )
        for genre_start, genre_end in described.genres:
            text = self.doc[start + genre_start : start + genre_end].text
            yield _Candidate(
                work, [], Argument(text, False, kind="common", token=start + genre_start), "genre"
            )
        if described.year is None:
            for prep, pobj in _prepositional_objects(noun, self):
                if prep.lower_ in {"from", "of"} and self._label(pobj) == "DATE" and pobj.text.isdigit():
                    yield _Candidate(
                        work, [], Argument(pobj.text, True, kind="date", token=pobj.i), "publication_date"
                    )
        if described.kind and (len(described.kind) > 1 or noun.i == tokens[described.kind[-1]].i):
            text = tokens[described.kind[0]].text
            for previous, index in pairwise(described.kind):  # "black-and-white film" keeps its hyphens
                between = [t.text for t in tokens[previous + 1 : index]]
                hyphenated = "-" in between and set(between) <= {"-", "and"}
                text += ("".join(between) if hyphenated else " ") + tokens[index].text
            yield _Candidate(work, [], Argument(text, False, kind="common", token=noun.i), "instance_of")

    def _outside_work_kind(self, token: Any) -> bool:
        """Articles, nationalities, names and praise words are no part of a work's kind."""
        ent = self.entity_of.get(token.i)
        if ent is not None and ent.label_ not in {"DATE", "CARDINAL"}:
            return True
        return (
            (token.pos_ in {"DET", "PRON", "ADV", "PUNCT"} and token.text != "-")
            or token.lower_ in DEMONYMS
            or token.lower_ in NON_OCCUPATION_ADJECTIVES
            or token.pos_ == "PROPN"
            or token.tag_ in {"JJS", "RBS", "JJR"}  # "the biggest selling album": praise, no kind
            or any(c.tag_ in {"JJS", "RBS"} for c in token.children)  # "best-selling"
            or (token.pos_ == "VERB" and not is_genre_word(token.text))  # "selling", "upcoming"
        )

    def _shared_head(self, noun: Any, nouns: Sequence[Any]) -> Any | None:
        """The person noun that `noun` shares in "a management and IT consultant", "an Israeli
        military and Mossad officer", "a stage and television actor": `noun` names no person,
        a conjunction follows it, and the next description noun has modifiers of its own."""
        if is_person_noun(noun.lower_):
            return None
        following = [other for other in nouns if other.i > noun.i]
        if not following or not is_person_noun(following[0].lower_):
            return None
        between = list(self.doc[noun.i + 1 : following[0].i])
        joints = 0
        while joints < len(between) and (between[joints].pos_ == "CCONJ" or between[joints].text == ","):
            joints += 1
        modifiers = between[joints:]
        if not joints or not modifiers or between[joints - 1].pos_ != "CCONJ":
            return None
        return following[0] if all(t.pos_ in {"NOUN", "PROPN", "ADJ"} for t in modifiers) else None

    def _is_party(self, token: Any) -> bool:
        """ "a politician for the Conservative Party": a party, no employer."""
        start, end = self._phrase_bounds(token)
        return bool(re.search(r"\bpart(y|ies)\b", self.doc[start:end].text, re.I))

    def _of_a_person(self, noun: Any) -> bool:
        """ "follower of Domenico Beccafumi", "stepfather of Francesco Vanni": a relation, no occupation."""
        preps = _prepositional_objects(noun, self)
        return any(prep.lower_ == "of" and self._is_person_token(pobj) for prep, pobj in preps)

    def _description_nouns(self, noun: Any) -> list[Any]:
        listed = self._listed_heads(noun)
        return listed if len(listed) > 1 else self._conjunct_nouns(noun)

    def _listed_heads(self, noun: Any) -> list[Any]:
        """The head nouns of a description written as a list, read off the words, not the parse.

        "an English actress, singer, dancer and musical comedy performer known for ...": the
        small parser hangs "singer" under "performer" and "comedy" beside "dancer"; the words
        from the description's first word up to the first verb, preposition or pronoun, cut at
        commas and conjunctions, give one segment per description, whose last word is its noun.
        Each head's segment start is kept in `segment_starts` (its occupation's first word).
        """
        sentence = self.sentences[self.sentence_of[noun.i]]
        start = max(noun.left_edge.i, sentence.start)
        end = start
        while end < sentence.end and end not in self.in_parentheses:
            token = self.doc[end]
            if token.text != "," and token.pos_ not in _LIST_POS and token.tag_ != "HYPH":
                break
            end += 1
        if end <= noun.i:
            return []
        heads: list[Any] = []
        starts: dict[int, int] = {}
        segment: list[Any] = []
        for token in [*self.doc[start:end], None]:
            if token is not None and token.text != "," and token.pos_ != "CCONJ":
                segment.append(token)
                continue
            while segment and segment[-1].pos_ in {"ADV", "DET"}:
                segment.pop()  # "writer best known for": the adverb belongs to what follows
            last = segment[-1] if segment else None
            if last is not None and last.pos_ == "NOUN" and not self._is_entity_token(last):
                heads.append(last)
                starts[last.i] = segment[0].i
            segment = []
        if noun not in heads or len(heads) < 2:
            return []
        for head, first in starts.items():
            self.segment_starts.setdefault(head, first)
        return heads

    def _conjunct_nouns(self, noun: Any) -> list[Any]:
        found: list[Any] = []
        stack = [noun]
        while stack:
            token = stack.pop()
            lower_case_name = token.pos_ == "PROPN" and token.text.islower() and token.i not in self.entity_of
            if token in found or (token.pos_ != "NOUN" and not lower_case_name):
                continue  # "saxophonist and clarinettist": the tagger calls the second a name
            if token.pos_ == "NOUN" and self._is_entity_token(token):
                continue
            found.append(token)
            stack.extend(token.conjuncts)
            stack.extend(c for c in token.children if c.dep_ == "appos")
            # "a Norwegian philosopher and working life researcher": the parser hangs the first
            # conjunct on the last noun as a modifier; its "and" shows it is a description of its own
            stack.extend(
                c
                for c in token.lefts
                if c.dep_ in {"nmod", "compound"} and any(g.dep_ == "cc" for g in c.children)
            )
        indices = {t.i for t in found}
        return sorted((t for t in found if t.i + 1 not in indices), key=lambda t: t.i)

    def _modifier_facts(
        self, subject: Argument, token: Any, person: bool, done_entities: set[int]
    ) -> Iterator[_Candidate]:
        """Demonyms and party names among a description's modifiers; "English-born" a birthplace."""
        if token.dep_ not in MODIFIER_DEPS:
            return
        if token.lower_ == "born" and person and token.i >= 2 and _joined_hyphen(self.doc[token.i - 1]):
            place = self.doc[token.i - 2]
            if place.text[:1].isupper():
                yield _Candidate(
                    subject,
                    [],
                    Argument(place.text, True, kind="place", token=place.i),
                    relation="place_of_birth",
                )
            return
        if _names_a_field(token):
            return  # "an Australian rules footballer", "an American football player": a sport, no nationality
        ent = self.entity_of.get(token.i)
        if ent is not None:
            if ent.start in done_entities:
                return
            done_entities.add(ent.start)
        relation = "country_of_citizenship" if person else "country"
        if (ent is not None and ent.label_ in {"NORP", "LANGUAGE", "GPE"} and ent.label_ != "GPE") or (
            ent is None and token.lower_ in DEMONYMS
        ):
            start = ent.start if ent is not None else token.i
            if start >= 2 and self.doc[start - 1].text == "-" and self.doc[start - 2].text[:1].isupper():
                start -= 2  # "Franco-Flemish"
            end = ent.end if ent is not None else token.i + 1
            text = self.doc[start:end].text
            if is_demonym(text):
                yield _Candidate(
                    subject, [], Argument(text, True, kind="place", token=token.i), relation=relation
                )
        elif ent is not None and ent.label_ == "ORG":
            words = ent.text.split()
            if words and words[0].lower() in {"the", "a", "an"}:
                words = words[1:]
            if words and words[0].lower() in DEMONYMS:
                yield _Candidate(
                    subject, [], Argument(words[0], True, kind="place", token=token.i), relation=relation
                )
                words = words[1:]
            if words and person and re.search(r"\bpart(y|ies)\b", " ".join(words), re.I):
                party = Argument(" ".join(words), True, kind="org", token=token.i)
                yield _Candidate(subject, [], party, relation="member_of_political_party")
            elif words and person and token.dep_ == "compound" and token.pos_ == "PROPN":
                employer = Argument(" ".join(words), True, kind="org", token=token.i)
                yield _Candidate(subject, [], employer, relation="employer")  # "a Mossad officer"

    def _occupation_argument(self, noun: Any) -> Argument:
        """The noun with its common-noun compounds and descriptive adjectives ("set decorator")."""
        if noun.i in self.segment_starts:
            return self._listed_occupation(noun)
        start = noun.i
        for child in reversed(list(noun.lefts)):
            if child.right_edge.i != start - 1 or child.dep_ not in {"compound", "amod", "nmod"}:
                break
            if _names_a_field(child):  # "Australian rules footballer"
                start = child.left_edge.i
                continue
            if self.entity_of.get(child.i) is not None or child.pos_ in {"PROPN", "NUM"}:
                break
            if child.lower_ in NON_OCCUPATION_ADJECTIVES | DEMONYMS or child.lower_ == "born":
                break  # "English-born jazz saxophonist": a birthplace, no part of the occupation
            start = child.left_edge.i
        start = _hyphenated_start(noun.doc, start)
        while start > 0 and self._is_plain_noun(self.doc[start - 1]) and start - 1 not in self.in_parentheses:
            start -= 1  # "university professor" parsed as two conjuncts
        joints = [t.i for t in self.doc[start : noun.i] if t.pos_ == "CCONJ" or t.text in {",", ";"}]
        if joints:  # "a Norwegian philosopher and working life researcher": only the last one's words
            start = joints[-1] + 1
        while (
            start < noun.i
            and not _joined_by_hyphen(self.doc, start)
            and (
                self.doc[start].pos_ in {"DET", "PUNCT"}
                or self.doc[start].lower_ in NON_OCCUPATION_ADJECTIVES
                or (self.doc[start].lower_ in DEMONYMS and not _names_a_field(self.doc[start]))
                or self.doc[start].lower_ == "born"  # "Canadian-born fisheries scientist"
                or self._graded_adjective(self.doc[start])
            )
        ):
            start += 1
        return Argument(self.doc[start : noun.i + 1].text, False, kind="common", token=noun.i)

    @staticmethod
    def _graded_adjective(token: Any) -> bool:
        """ "tactically versatile": an adverb and the adjective it grades judge, they name no occupation."""
        if token.pos_ == "ADV":
            return True
        return token.pos_ == "ADJ" and any(c.dep_ == "advmod" and c.i < token.i for c in token.children)

    def _listed_occupation(self, noun: Any) -> Argument:
        """A listed description's words without determiners, demonyms, names and "former"."""
        start = self.segment_starts[noun.i]
        while (
            start < noun.i
            and not _names_a_field(self.doc[start])
            and (
                self.doc[start].pos_ in {"DET", "PUNCT", "ADV", "PROPN", "NUM"}
                or self.doc[start].lower_ in NON_OCCUPATION_ADJECTIVES
                or self.doc[start].lower_ in DEMONYMS
                or start in self.entity_of
            )
        ):
            start += 1
        start = min(start, _hyphenated_start(self.doc, noun.i))  # "co-founder": "co" is no adverb to drop
        return Argument(self.doc[start : noun.i + 1].text, False, kind="common", token=noun.i)

    # -- appositions and possessives -------------------------------------------------------------

    def _apposition_triples(self, appos: Any) -> Iterator[_Candidate]:
        """ "Mara Voss, a nurse at St Olave Hospital," -> occupation nurse, employer St Olave Hospital."""
        head = appos.head
        if self._label(head) == "NORP":
            return  # "a minority Sri Lankan Tamil, Roman Catholic parish priest": a people has no occupation
        if self._is_entity_token(appos) and self._is_title_noun(head, appos):
            named = self._argument(appos)
            if named is not None:
                yield from self._describe(replace(named, kind="person"), head, follow=False)
            return
        if not self._is_entity_token(head) or self._is_entity_token(appos) or appos.pos_ != "NOUN":
            return
        if head.i in self.in_parentheses or (appos.dep_ == "appos" and head.dep_ == "poss"):
            return
        if appos.lemma_.lower() in KIN_NOUNS and self._label(head) in PLACE_LABELS:
            # "born in Los Angeles, the son of X": the son is the clause's subject, not the city
            yield from self._kin_of_clause_subject(head, appos)
            return
        subject = self._argument(head)
        if subject is None:
            return
        yield from self._describe(subject, appos)

    def _kin_of_clause_subject(self, place: Any, kin: Any) -> Iterator[_Candidate]:
        verb = place.head
        while verb.pos_ not in {"VERB", "AUX"} and verb.head.i != verb.i:
            verb = verb.head
        subjects = self._subjects(verb) if verb.pos_ in {"VERB", "AUX"} else []
        if len(subjects) != 1:
            return
        subject = self._argument(subjects[0])
        if subject is not None and subject.kind == "person":
            yield from self._describe(subject, kin)

    def _called(self, noun: Any) -> Any | None:
        """ "a senior policeman named Pierre Combes Mathieu" -> the name's token."""
        for acl in noun.children:
            if acl.dep_ == "acl" and acl.lower_ in {"named", "called"}:
                names = [c for c in acl.children if c.dep_ in NAMING_DEPS and self._is_entity_token(c)]
                if names:
                    return names[0]
        return None

    def _is_part_of(self, owner: Any, possessed: Any) -> bool:
        """Two organisations, unless one name ("St. Theresa's Higher Secondary School")."""
        if self._label(owner) not in ORGANISATION_LABELS or self._label(possessed) not in ORGANISATION_LABELS:
            return False
        start, end = self._phrase_bounds(possessed)
        return not any(t.lower_ in _ORGANISATION_WORDS for t in self.doc[start:end])

    def _is_title_noun(self, noun: Any, name: Any) -> bool:
        """ "the painter Ventura Salimbeni", "a policeman named X": a person's occupation before the name."""
        if noun.pos_ != "NOUN" or self._is_entity_token(noun) or noun.lemma_.lower() in RELATIONAL_NOUNS:
            return False
        if noun.lemma_.lower() in GENERIC_NOUNS or self._label(name) != "PERSON":
            return False
        if not is_person_noun(noun.lower_):
            return False  # "his local club St Paul's": a club is no occupation
        between = self.doc[noun.i + 1 : self._phrase_bounds(name)[0]]
        return all(t.lower_ in {"named", "called"} for t in between)

    def _possessive_triples(self, owner: Any) -> Iterator[_Candidate]:
        """Possessive: "Mara's sister Ida" -> (Mara, sibling, Ida); "her father, Danny" -> father."""
        noun = owner.head
        if noun.pos_ != "NOUN":
            if self._is_part_of(owner, noun):
                yield _Candidate(noun, [], owner, relation="part_of")  # "the Football League's BC Lions"
            return
        for named in _children(noun, {"appos"}, self):
            if not self._is_entity_token(named):
                continue
            if noun.lemma_.lower() in RELATIONAL_NOUNS:
                yield _Candidate(owner, [noun.lower_], named)
            elif owner.pos_ == "PROPN":  # "Sanjeev Sivan's Malayalam movie, Endless Summer": by its owner
                yield _Candidate(named, [noun.lower_, "by"], owner)

    # -- subjects and arguments ----------------------------------------------------------

    def _subjects(self, verb: Any) -> list[Any]:
        direct = _children(verb, SUBJECT_DEPS, self)
        if direct:
            named = [s for s in direct if s.pos_ in {"PRON", "PROPN"} or self._is_entity_token(s)]
            # "A quick, strong player, he is known for ...": the fronted noun describes "he"
            return [self._described_entity(s) for s in (named or direct)]
        misattached = [c for c in verb.lefts if c.dep_ == "compound" and c.pos_ == "PROPN"]
        if misattached and verb.pos_ == "VERB":
            # The small parser sometimes hangs a name before its verb as "compound" ("Ada Brook works").
            return [misattached[-1]]
        head = verb.head
        if verb.dep_ in CONTROL_DEPS and head is not verb and head.pos_ in {"VERB", "AUX"}:
            return self._subjects(head)
        if verb.dep_ == "advcl" and verb.tag_ in {"VBN", "VBG"} and head is not verb:
            return self._subjects(head)  # "Born in Sicily, Agostino was raised ..."
        if verb.dep_ == "pcomp" and verb.tag_ == "VBG" and head.lower_ in _TIME_PREPOSITIONS:
            # "before matriculating at X", "after graduating from X, he ...": the clause's subject
            clause = head.head
            return self._subjects(clause) if clause.pos_ in {"VERB", "AUX"} and clause is not head else []
        if verb.dep_ in MODIFIED_NOUN_DEPS:
            if verb.dep_ == "acl" and self._label(head) in THING_LABELS:
                return []  # "Victoria College, Toronto earning a degree": not Toronto's degree
            return [self._described_entity(head)]
        return []

    def _described_entity(self, token: Any) -> Any:
        """The entity a predicate noun describes: "X is a chemist working at Y" -> X, not "chemist"."""
        seen = 0
        while token.pos_ == "NOUN" and not self._is_entity_token(token) and token.dep_ in DESCRIPTION_DEPS:
            seen += 1
            if seen > 8:
                break
            if token.dep_ == "attr":
                subjects = _children(token.head, SUBJECT_DEPS, self)
                if not subjects:
                    break
                token = subjects[0]
            else:
                token = token.head
        return token

    def _make_triples(self, candidate: _Candidate) -> list[Triple]:
        head = self._as_argument(candidate.head)
        tail = self._as_argument(candidate.tail)
        if head is None or tail is None:
            return []
        last_word = candidate.words[-1] if candidate.words else None
        date_range = None
        if (
            tail.kind == "date"
            and candidate.relation is None
            and last_word in {"from", "between", "to", "until"}
        ):
            # "edited the newspaper from 1891 to 1892": the tagger's date may hang on "to"
            date_range = (_BETWEEN_RANGE if last_word == "between" else _DATE_RANGE).match(tail.text)
        if date_range:
            # "served from 1971 to 1974": a start and an end, not a value "1971 to 1974"
            # "between 1961 and 1967" likewise
            start = Argument(date_range.group(1), True, kind="date", token=tail.token)
            end = Argument(date_range.group(2), True, kind="date", token=tail.token)
            since = _Candidate(head, [*candidate.words[:-1], "from"], start)
            until = _Candidate(head, [*candidate.words[:-1], "until"], end)
            return [
                t for t in (self._make_triple(since, head, start), self._make_triple(until, head, end)) if t
            ]
        triple = self._make_triple(candidate, head, tail)
        return [triple] if triple else []

    def _make_triple(self, candidate: _Candidate, head: Argument, tail: Argument) -> Triple | None:
        relation = candidate.relation or canonical_relation(
            join_relation(candidate.words), tail.kind, tail.text
        )
        if candidate.relation is None and self._is_degree(tail) and not relation.startswith("not_"):
            relation = "academic_degree"  # "received/earned/holds a master's degree in Economics"
        if not relation or (relation in {"not", "be", "not_be"} and not (head.is_entity and tail.is_entity)):
            return None
        if relation == "award_received" and _COUNT.match(tail.text):
            tail = replace(
                tail, text=_COUNT.sub("", tail.text)
            )  # "won three gold medals": the award, not its count
        if any(ch.isdigit() for ch in relation):
            return None  # "Bautista is 21 from Pampanga": a number is no predicate
        if head.kind in {"place", "date"} and relation.split("_")[0] in KIN_WORDS:
            return None  # "born in Los Angeles, the son of Hugh Masekela": a place is nobody's son
        if head.kind == "date" and candidate.relation != "located_in":
            return None  # "from 1995 to 1999 who represented ...": a date is a value, never a subject
        if head.kind == "common" and head.token is not None and self._is_indefinite(self.doc[head.token]):
            return None  # "a twinning agreement was inaugurated in ...", "comic actors who emerged ..."
        if (
            tail.kind == "common"
            and tail.token is not None
            and relation not in CATEGORY_RELATIONS
            and not relation.endswith("_as")  # "played as a forward": a role, a category value
            and _has_indefinite_article(self.doc[tail.token])
        ):
            return None  # "formed a partnership", "completed an apprenticeship", "for a change of air"
        triple = Triple(
            head=head.text,
            relation=relation,
            tail=tail.text,
            doc_id=self.doc_id,
            span=self._sentence_span(head.token, tail.token),
            confidence=_confidence(head, tail),
            backend="spacy",
        )
        key = triple.key
        return None if key[0] == key[2] or not key[0] or not key[2] else triple

    @staticmethod
    def _is_indefinite(token: Any) -> bool:
        """ "a ship", "some members", "comic actors", "cave diver", "Harron's adaptation": nothing named."""
        determiners = {c.lower_ for c in token.children if c.dep_ in {"det", "poss"}}
        if any(c.dep_ == "poss" for c in token.children):
            return True  # "Mary Harron's adaptation ... was released": its owner's, not a thing named
        return bool(determiners & {"a", "an", "some", "any", "many", "several"}) or not determiners

    def _is_degree(self, argument: Argument) -> bool:
        token = self.doc[argument.token] if argument.token is not None else None
        if token is None or argument.kind in {"person", "date"}:
            return False  # the tagger calls "PhD" a work of art and "B.A." a place
        return is_degree_token(token)

    def _as_argument(self, node: Any) -> Argument | None:
        if isinstance(node, Argument):
            return node
        if node.i in self.in_parentheses:
            return None
        return self._argument(node)

    def _argument(self, token: Any) -> Argument | None:
        token = self._nominal(token)
        if token.i in self.maiden_name_of:
            token = self.doc[self.maiden_name_of[token.i]]  # the birth name stands for the person
        lower = token.lower_
        if token.pos_ == "PRON" or lower in PERSON_PRONOUNS | THING_PRONOUNS:
            resolved = self._resolve_pronoun(token)
            if resolved is None:
                return None
            name, label = resolved
            return Argument(name, True, from_pronoun=True, kind=_kind_of_label(label), token=token.i)
        titled = self._title_thing_at(token)
        if titled is not None:  # "Orion's Belt", "Europe '51": the title, whatever the tagger cut
            return Argument(titled, True, kind="org", token=token.i)
        start, end = self._phrase_bounds(token)
        text = self.doc[start:end].text.strip()
        if not text or not text[:1].isalnum():
            return None  # "<ref name=...>" left in the text
        label = self._label(token)
        if text.lower() in GENERIC_NOUNS:
            return None  # "One of his professors was ...", whatever the tagger made of "One"
        if label == "NORP" and (token.pos_ == "ADJ" or token.tag_ == "NNPS"):
            return None  # "holding the Polish positions", "son of German Jews": a people is no thing
        if label in {"CARDINAL", "ORDINAL"} and not any(ch.isdigit() for ch in text):
            return None  # "played just four games, two in 1998": a number word is no thing
        if label in {"DATE", "TIME"} and not any(ch.isdigit() for ch in text):
            return None  # "a single season", "the following year": a duration or a reference, no date
        words = text.split()
        if all(w[:1].isupper() for w in words):  # a partial name, whatever the tagger made of it
            full = self.context.fuller_name(words, self.offset + self.doc[start].idx, label)
            if full is not None:
                kind = _kind_of_label(self.context.labels.get(full, "PERSON"))
                return Argument(full, True, kind=kind, token=token.i)
            if len(words) == 1 and words[0] in self.context.surnames:
                return None  # a bare surname whose person is not certain
        if label is not None or token.pos_ == "PROPN":
            kind = _kind_of_label(label) if label not in {None, "NORP"} else None
            if self.context.labels.get(text) == "PERSON" or self.context.is_title_person(text):
                kind = "person"  # the tagger's ORG for "Ivo Perilli" loses to the title or a lifespan
            kind = kind or _kind_of_label(self.context.labels.get(text)) or "name"
            return Argument(text, True, kind=kind, token=token.i)
        if not self._is_specific_noun(token, start, end):
            return None
        return Argument(text, False, kind="common", token=token.i)

    def _title_thing_at(self, token: Any) -> str | None:
        """The passage's title (a work, a band, a place: no person) when `token` is part of it."""
        if not self.title_spans or token.pos_ != "PROPN" or self.context.title_person:
            return None
        if not self.context.title_qualifies_a_thing and self._label(token) in {"PERSON", None}:
            return None  # a title that may be a person's name ("Europe '51" is a place's word: a thing)
        name = self.context.title_name
        return next((name for start, end in self.title_spans if start <= token.idx < end), None)

    def _is_specific_noun(self, token: Any, start: int, end: int) -> bool:
        """A common noun worth a graph node: not generic, not a bare plural, not a number word."""
        lemma = token.lemma_.lower()
        if token.pos_ not in {"NOUN", "PROPN", "NUM", "X"}:
            return (
                False  # an adjective alone ("best known for low-budget independent, ... films") is no thing
            )
        if lemma in GENERIC_NOUNS or token.lower_ in GENERIC_NOUNS:
            return False
        if lemma in BARE_CLASS_NOUNS and end - start == 1:
            return False  # "a degree", "by degree": which one is not said
        if token.pos_ == "NUM" and not any(ch.isdigit() for ch in token.text):
            return False
        text = self.doc[start:end].text
        if len(text) < 3 or not text[:1].isalnum():
            return False  # "re" of a split "re-election"
        determiners = {c.lower_ for c in token.children if c.dep_ in {"det", "amod"}}
        if determiners & {"many", "several", "various", "numerous", "few", "some", "other"}:
            return False  # "visiting many countries": which ones is not said
        if determiners & {"this", "that", "these", "those"}:
            return False  # "that city" points back to a name; it is not one
        if end - start == 1 and "the" in determiners and token.tag_ == "NN":
            return False  # "the company", "the clinic": a reference back, not a thing of its own
        owners = [c for c in token.children if c.dep_ == "poss"]
        owners += [
            t for t in self.doc[start:end] if t.tag_ == "PRP$" and t.i != token.i
        ]  # "his feature debut"
        if owners and lemma in RELATIONAL_NOUNS:
            return False  # "his father" without a name
        if any(o.lower_ in {"latter", "former"} for o in owners):
            return False  # "the latter's post-war trial": a reference back
        if any(c.dep_ == "amod" and c.lower_ == "latter" for c in token.children):
            return False  # "In the latter city he formed ...": a reference back
        # "his career", "her stage appearances", "his professional training", "his re-election
        # bid": the owner's, no thing of its own; but "known for his macabre sensibility"
        if (
            any(o.pos_ == "PRON" for o in owners)
            and not is_degree_token(token)
            and (end - start == 1 or token.tag_ == "NNS" or not _known_for(token))
        ):
            return False
        if "the" in determiners and all(t.pos_ == "NUM" for t in self.doc[start:end] if t.i != token.i):
            return False  # "the two countries": a reference back
        return not (end - start == 1 and token.tag_ == "NNS")

    def _nominal(self, token: Any) -> Any:
        """The token an argument stands for: a relative pronoun's noun, an apposition's entity."""
        if token.lower_ in RELATIVE_PRONOUNS and token.head.dep_ == "relcl":
            antecedent = token.head.head
            if token.lower_ in PERSON_RELATIVES:
                antecedent = self._person_antecedent(antecedent)
            token = self._described_entity(antecedent)
        if token.pos_ == "NOUN":
            named = [c for c in token.children if c.dep_ == "appos" and self._is_entity_token(c)]
            if named:
                return named[0]
            called = self._called(token)
            if called is not None:
                return called
            if token.lemma_.lower() in PLACE_NOUNS:  # "the city of Atbara" -> Atbara
                named_place = self._named_compound(token)
                if named_place is not None:  # "the Santa Rita district of Yoro" -> Santa Rita
                    return named_place
                for prep, pobj in _prepositional_objects(token, self):
                    if prep.lower_ == "of" and self._label(pobj) in PLACE_LABELS:
                        return pobj
            if token.dep_ == "appos" and self._is_entity_token(token.head):
                return token.head
        return token

    def _named_compound(self, noun: Any) -> Any | None:
        """The name right before a place noun: "Santa Rita" of "the Santa Rita district"."""
        for child in noun.children:
            if child.dep_ == "compound" and child.i == noun.i - 1 and self._label(child) in PLACE_LABELS:
                return child
        return None

    def _person_antecedent(self, antecedent: Any) -> Any:
        """ "who" is never a place: "a medalist from New Zealand who competed", "a farmer from
        Elkhart Lake, Wisconsin who spent": up through the place's apposition or conjunct and its
        preposition to the noun it describes."""
        token = antecedent
        for _ in range(6):
            if self._label(token) not in THING_LABELS - {"ORG"}:
                return token
            if token.dep_ in {"appos", "conj", "compound"} and token.head is not token:
                token = token.head
            elif token.dep_ == "pobj" and token.head.head.pos_ in {"NOUN", "PROPN"}:
                token = token.head.head
            else:
                break
        return antecedent

    def _is_plain_noun(self, token: Any) -> bool:
        return token.pos_ == "NOUN" and token.i not in self.entity_of and token.lower_ not in GENERIC_NOUNS

    def _label(self, token: Any) -> str | None:
        ent = self.entity_of.get(token.i)
        return ent.label_ if ent is not None else None

    def _is_entity_token(self, token: Any) -> bool:
        ent = self.entity_of.get(token.i)
        if ent is not None:
            return ent.label_ in NAMED_LABELS or ent.label_ in VALUE_LABELS
        return token.pos_ == "PROPN"

    def _may_be_person(self, token: Any) -> bool:
        """A name that a birth/death parenthesis would make a person (not an organisation or place)."""
        label = self._label(token)
        if token.lower_ in EVENT_WORDS | _ORGANISATION_WORDS:
            return False  # "the Eighth Frontier War (1850–1853)": an event's years, no birth
        if label == "ORG" and token.pos_ == "PROPN":
            ent = self.entity_of[token.i]
            return len(ent) > 1 and not any(w.lower_ in _ORGANISATION_WORDS for w in ent)
        return (label in {None, "PERSON", "NORP"} and token.pos_ == "PROPN") or self._is_person_token(token)

    def _is_person_token(self, token: Any) -> bool:
        argument_token = self._nominal(token)
        if argument_token.lower_ in PERSON_PRONOUNS:
            return True
        label = self._label(argument_token)
        if label == "PERSON":
            return True
        if argument_token.pos_ != "PROPN" and label is None:
            return False
        start, end = self._phrase_bounds(argument_token)
        words = self.doc[start:end].text.split()
        if (
            self.context.title_person
            and words
            and frozenset(words) <= frozenset(self.context.title_person.split())
        ):
            return True
        full = self.context.fuller_name(words, self.offset + self.doc[start].idx) if words else None
        return full is not None and self.context.labels.get(full) == "PERSON"

    def _phrase_bounds(self, token: Any) -> tuple[int, int]:
        """Token range of the entity containing the token, else of its noun phrase."""
        if is_degree_token(token):  # "a Certificate in Video Production", whatever its label
            return self._strip_bounds(*_degree_bounds(token))
        ent = self.entity_of.get(token.i)
        if ent is not None:
            return self._entity_bounds(ent)
        return self._strip_bounds(*_noun_phrase_bounds(token))

    def _entity_bounds(self, ent: Any) -> tuple[int, int]:
        """An entity's tokens, with the year of an event and the number of an address."""
        start = ent.start
        before = self.doc[start - 1] if start else None
        if (
            ent.label_ in NAMED_LABELS - {"PERSON", "NORP", "GPE", "LOC"}
            and before is not None
            and re.fullmatch(r"\d{4}", before.text)
            and before.head.i in range(ent.start, ent.end)
        ):
            start -= 1  # "the 1998 Winter Paralympics": the year is part of the name
        elif (
            ent.label_ == "FAC"
            and before is not None
            and before.like_num
            and before.dep_ == "nummod"
            and before.head.i in range(ent.start, ent.end)
        ):
            start -= 1  # "114 South Main Street": the house number is part of the address
        return self._strip_bounds(start, ent.end)

    def _strip_bounds(self, start: int, end: int) -> tuple[int, int]:
        """Without leading determiners ("the") and adverbs ("often"), or a trailing possessive ("'s")."""
        while start < end and (
            self.doc[start].pos_ in {"DET", "ADV"} or self.doc[start].lower_ in _LEADING_WORDS
        ):
            start += 1
        while end > start and (self.doc[end - 1].tag_ == "POS" or self.doc[end - 1].is_punct):
            end -= 1
        while (
            end - start > 1
            and _POSTNOMINAL.match(self.doc[end - 1].text)
            and self.doc[start].ent_type_ == "PERSON"
        ):
            end -= 1  # "Baron Dundas FRS", "Henry Dundas, PC": letters after a name are no part of it
        return start, end

    # -- mention merging and pronouns --------------------------------------------------------

    def _register_mentions(self) -> None:
        """Full names into the document context; mentions per sentence for pronouns."""
        for ent in self.doc.ents:
            if ent.label_ not in NAMED_LABELS:
                continue
            start, end = self._strip_bounds(ent.start, ent.end)
            if start >= end:
                continue
            text = self.doc[start:end].text.strip()
            words = text.split()
            if not words:
                continue  # an entity of whitespace only ("? ––  \nCorser": the span before the name)
            first_char = self.offset + self.doc[start].idx
            capitalised = all(w[:1].isupper() for w in words)
            full = self.context.fuller_name(words, first_char, ent.label_) if capitalised else None
            if (
                full is None
                and self.context.title_person
                and words
                and len(words) == 1
                and (words[0] in self.context.title_person.split())
            ):
                full = self.context.title_person
            label = "PERSON" if full == self.context.title_person and full else ent.label_
            name = full or text
            if full is None:
                self.context.add_name(
                    text, ent.label_, self.offset + self.doc[end - 1].idx + len(self.doc[end - 1])
                )
            self.mentions_by_sentence[self.sentence_of[start]].append((start, name, label))
            if ent.root.dep_ in SUBJECT_DEPS:
                self.context.subject_names.add(name)
        for token in self.doc:  # partial names the tagger missed ("Voss moved to Berlin")
            if token.i not in self.entity_of and token.pos_ in {"PROPN", "NOUN"} and token.text[:1].isupper():
                full = self.context.fuller_name([token.text], self.offset + token.idx)
                if full is not None:
                    label = self.context.labels.get(full, "PERSON")
                    self.mentions_by_sentence[self.sentence_of[token.i]].append((token.i, full, label))
        self._register_genders()

    def _register_genders(self) -> None:
        """ "X's father, Danny" / "his wife Ida": the kinship noun gives the named person's gender."""
        for token in self.doc:
            lower = token.lower_
            if lower not in MALE_NOUNS and lower not in FEMALE_NOUNS:
                continue
            for named in (c for c in token.children if c.dep_ in {"appos", "compound"}):
                ent = self.entity_of.get(named.i)
                if ent is not None and ent.label_ == "PERSON":
                    name = self.context.fuller_name(ent.text.split(), 10**12) or ent.text
                    self.context.genders[name] = "male" if lower in MALE_NOUNS else "female"

    def _resolve_pronoun(self, pronoun: Any) -> tuple[str, str] | None:
        lower = pronoun.lower_
        if lower in PERSON_PRONOUNS:
            labels = {"PERSON"}
            excluded = "female" if lower in MALE_PRONOUNS else "male"
        elif lower in THING_PRONOUNS:
            labels = {"ORG", "FAC", "GPE", "LOC", "PRODUCT", "WORK_OF_ART", "EVENT"}
            excluded = ""
        else:
            return None
        sentence = self.sentence_of[pronoun.i]
        candidates = {
            name: label
            for index in (sentence - 1, sentence)
            for start, name, label in self.mentions_by_sentence.get(index, [])
            if label in labels and start < pronoun.i and self.context.genders.get(name) != excluded
        }
        title = self.context.title_person
        if title and labels == {"PERSON"} and self.context.genders.get(title) != excluded:
            # The passage's title person is always a candidate; names containing it are the same person.
            same = [name for name in candidates if self.context.is_title_person(name)]
            for name in same:
                del candidates[name]
            candidates[max([*same, title], key=len)] = "PERSON"
        if labels != {"PERSON"} and self._is_subject_pronoun(pronoun) and self.context.title_is_a_thing():
            # "Five Branded Women is a 1960 film ... It features ...": the work, as the previous
            # main clause's subject, is the referent of a subject "it"
            subject = self._main_subject(sentence - 1)
            if subject is not None and normalize_entity(subject) == normalize_entity(self.context.title_name):
                return self.context.title_name, "WORK_OF_ART"
        if len(candidates) == 1:
            return next(iter(candidates.items()))
        if title and labels == {"PERSON"} and self._is_subject_pronoun(pronoun):
            # "Corser was born ... to Edward Corser and Mary Jane. He was educated ...": the
            # title person as the previous main clause's subject is the referent of a subject "he"
            # (or of "his" in the subject "His mother"), also when that subject was itself a "he".
            subject = self._main_subject(sentence - 1)
            if subject is not None and self.context.is_title_person(subject):
                return subject, "PERSON"
        return None

    @staticmethod
    def _possessive_pronoun(noun: Any) -> Any | None:
        """ "his" of "His father"."""
        return next((c for c in noun.children if c.dep_ == "poss" and c.lower_ in PERSON_PRONOUNS), None)

    @staticmethod
    def _is_subject_pronoun(pronoun: Any) -> bool:
        return pronoun.dep_ in SUBJECT_DEPS or (pronoun.dep_ == "poss" and pronoun.head.dep_ in SUBJECT_DEPS)

    def _main_subject(self, sentence_index: int) -> str | None:
        if sentence_index < 0:
            return None
        root = self.sentences[sentence_index].root
        subjects = [c for c in root.children if c.dep_ in SUBJECT_DEPS]
        if len(subjects) != 1:
            return None
        if subjects[0].pos_ == "PRON":
            resolved = self._resolve_pronoun(subjects[0])  # looks only at earlier sentences
            return resolved[0] if resolved is not None else None
        owner = self._possessive_pronoun(subjects[0])
        described = _lemma(root) == "be" or subjects[0].tag_ == "NNS"  # "His parents divorced": no "he"
        if owner is not None and subjects[0].lemma_.lower() in KIN_NOUNS and described:
            # "His father was a policeman named X. He joined ...": a sentence describing the
            # title person's relative keeps the title person as the topic ("His father joined
            # the army. He ..." would not: there the father acts and may go on acting)
            resolved = self._resolve_pronoun(owner)
            return resolved[0] if resolved is not None else None
        argument = self._argument(subjects[0])
        return argument.text if argument is not None else None

    def _sentence_span(self, head_token: int | None, tail_token: int | None) -> tuple[int, int]:
        indices = [i for i in (head_token, tail_token) if i is not None] or [0]
        first = self.sentences[self.sentence_of[min(indices)]]
        last = self.sentences[self.sentence_of[max(indices)]]
        start, end = first.start_char, last.end_char
        while end > start and self.text[end - 1].isspace():
            end -= 1
        return start + self.offset, end + self.offset


_QUOTES = {'"', "“", "”"}
# Cheap tests on the text before a pass over the tokens (most passages have none of these).
_MAY_HAVE_NICKNAME = re.compile(r'[A-Z][\w.]* ["“][A-Z]')
_MAY_HAVE_POSSESSIVE_NAME = re.compile(r"[A-Z]\w*(?:['’]s|s['’])\s+(?:[A-Z]\w*\s+)*[A-Z]")
_MAY_HAVE_COORDINATED_NAME = re.compile(r"[A-Z]\w* of [A-Z]\w* and [A-Z]")


def _merge_quoted_nicknames(doc: Any, text: str) -> None:
    """'Gerald Warner "Jerry" Brightman' is one person's name; the tagger cuts it at the quotes."""
    if not _MAY_HAVE_NICKNAME.search(text):
        return
    spans = []
    for open_quote in doc:
        i = open_quote.i
        if open_quote.text not in _QUOTES or i == 0 or i + 3 >= len(doc):
            continue
        close = next((j for j in range(i + 2, min(i + 4, len(doc))) if doc[j].text in _QUOTES), None)
        if close is None or close + 1 >= len(doc):
            continue
        words = [*doc[i - 1 : i], *doc[i + 1 : close], doc[close + 1]]
        if not all(t.pos_ == "PROPN" and t.text[:1].isupper() for t in words):
            continue
        start, end = i - 1, close + 2
        while start > 0 and _may_be_given_name(doc[start - 1]):
            start -= 1  # the given names; not "Congressman Dr." before them
        while end < len(doc) and doc[end].pos_ == "PROPN" and doc[end].text[:1].isupper():
            end += 1
        spans.append(doc[start:end])
    _set_entities(doc, spans, "PERSON")


_HONORIFICS = frozenset(
    {
        "sir", "dame", "lord", "lady", "king", "queen", "prince", "princess", "saint", "mr", "mrs", "ms",
        "miss", "dr", "doctor", "professor", "president", "senator", "congressman", "congresswoman",
        "governor", "mayor", "judge", "justice", "general", "colonel", "captain", "major", "lieutenant",
        "admiral", "bishop", "father", "brother", "sister", "reverend", "rabbi", "imam", "sheikh",
    }
)  # fmt: skip


def _may_be_given_name(token: Any) -> bool:
    if token.ent_type_ == "PERSON":
        return True
    text = token.text
    return (
        token.pos_ == "PROPN"
        and text[:1].isupper()
        and not text.endswith(".")
        and text.lower() not in _HONORIFICS
    )


def _merge_possessive_names(doc: Any, text: str) -> None:
    """ "the Queen's Theatre", "Christian Brothers' School", "St. Thomas's Hospital": one name.

    The tagger cuts such names at the possessive ("Theatre" alone an organisation, "St.
    Thomas's" a place). A named owner right before an organisation word makes one name, unless
    the owner is a place ("Iceland's Social Pedagogue School") or the organisation word has a
    name of its own after it ("European Parliament's Committee on Civil Liberties").
    """
    if not _MAY_HAVE_POSSESSIVE_NAME.search(text):
        return
    spans = []
    for head in doc:
        if head.pos_ != "PROPN" or head.lower_ not in _NAMED_PLACE_WORDS:
            continue
        marker = next((t for t in doc[max(0, head.i - 4) : head.i] if t.tag_ == "POS"), None)
        if marker is None or marker.i < 1:
            continue
        owner = doc[marker.i - 1]
        between = doc[marker.i + 1 : head.i]  # "Christian Brothers' High School"
        if owner.pos_ != "PROPN" or not owner.text[:1].isupper() or owner.head.i != head.i:
            continue
        if not all(t.pos_ == "PROPN" and t.dep_ == "compound" for t in between):
            continue
        if any(c.dep_ == "prep" and c.lower_ in {"of", "on", "for"} and c.i > head.i for c in head.children):
            continue  # "European Parliament's Committee on Civil Liberties": a name of its own
        start = owner.i
        while start > 0 and doc[start - 1].dep_ == "compound" and doc[start - 1].pos_ == "PROPN":
            start -= 1
        owner_words = {t.lower_ for t in doc[start : owner.i + 1]}
        saint = doc[start].lower_.rstrip(".") in {"st", "saint"}
        if owner_words & _ORGANISATION_WORDS or (owner.ent_type_ in {"GPE", "LOC"} and not saint):
            continue  # "New York University's Kanbar Institute", "Iceland's Social Pedagogue School"
        spans.append(doc[start : head.i + 1])
    _set_entities(doc, spans, "ORG")


def _merge_coordinated_names(doc: Any, text: str) -> None:
    """ "School of Oriental and African Studies", "Professor of Nepali and Himalayan Studies".

    A name does not end in an adjective: after "of", a capitalised adjective or nationality
    followed by "and" shares the noun that ends the next capitalised words, so the name runs
    on to it (the tagger makes "the School of Oriental" and "African Studies" two names).
    """
    if not _MAY_HAVE_COORDINATED_NAME.search(text):
        return
    spans = []
    for of in doc:
        k = of.i
        if of.lower_ != "of" or k == 0 or k + 3 >= len(doc):
            continue
        before, shared, conjunction = doc[k - 1], doc[k + 1], doc[k + 2]
        if before.pos_ != "PROPN" or not before.text[:1].isupper() or conjunction.lower_ != "and":
            continue
        if not shared.text[:1].isupper() or not (
            shared.pos_ == "ADJ" or shared.ent_type_ == "NORP" or is_demonym(shared.text)
        ):
            continue
        end = k + 3
        while end < len(doc) and doc[end].text[:1].isupper() and doc[end].pos_ in {"PROPN", "ADJ"}:
            end += 1
        if end == k + 3 or doc[end - 1].pos_ != "PROPN":
            continue
        start = k - 1
        while start > 0 and doc[start - 1].pos_ == "PROPN" and doc[start - 1].text[:1].isupper():
            start -= 1
        spans.append(doc[start:end])
    _set_entities(doc, spans, "ORG")


def _split_entities(doc: Any, cut_of: Callable[[Any], tuple[int, int, str] | None]) -> None:
    """Each entity that `cut_of` cuts, as (left end, right start, right label), becomes two."""
    from spacy.tokens import Span  # spaCy loads with the model, not with this module

    ents, changed = [], False
    for ent in doc.ents:
        cut = cut_of(ent)
        if cut is None:
            ents.append(ent)
            continue
        left_end, right_start, right_label = cut
        ents += [
            Span(doc, ent.start, left_end, label=ent.label_),
            Span(doc, right_start, ent.end, label=right_label),
        ]
        changed = True
    if changed:
        doc.ents = ents


def _split_at_maiden_name(doc: Any) -> None:
    """ "Mary Kemp née Ward" is a married name and a birth name; the tagger may make it one."""

    def cut(ent: Any) -> tuple[int, int, str] | None:
        marker = next((t.i for t in ent if t.lower_ in MAIDEN_MARKERS and t.i > ent.start), None)
        return (marker, marker + 1, ent.label_) if marker is not None and marker + 1 < ent.end else None

    _split_entities(doc, cut)


def _modified_start(noun: Any) -> int:
    """The first word of the compounds and adjectives right before `noun` ("Public" of "Public Relations")."""
    start = noun.i
    while start > 0 and any(c.i == start - 1 and c.dep_ in {"compound", "amod"} for c in noun.lefts):
        start -= 1
    return start


def _joined_by_hyphen(doc: Any, index: int) -> bool:
    """ "first" of "first-class cricketer": a word hyphen-joined to the next is part of one word."""
    return index + 2 < len(doc) and doc[index + 1].text == "-" and not doc[index].whitespace_


def _merge_connected_names(doc: Any) -> None:
    """ "Domingo de Eyzaguirre y Arechavala" is one name; the tagger cuts it at "y"."""
    ents = list(doc.ents)
    spans = [
        doc[first.start : second.end]
        for first, second in pairwise(ents)
        if first.label_ == second.label_ == "PERSON"
        and second.start == first.end + 1
        and doc[first.end].lower_ in _CONNECTORS
    ]
    if spans:
        _set_entities(doc, spans, "PERSON")


def _split_coordinated_institutions(doc: Any) -> None:
    """ "the University of Bern and University of Lausanne" is two names; the tagger makes one.

    An organisation or place entity holding "and" splits there when both sides carry the same
    institution word ("University", "College"); "School of Oriental and African Studies" stays.
    A university's name followed by ", Department of ..." splits before the unit.
    """

    def cut(ent: Any) -> tuple[int, int, str] | None:
        index = _institution_cut(ent) if ent.label_ in {"ORG", "FAC", "GPE"} else None
        if index is None:
            return None
        return index, index + 1 + (doc[index + 1].pos_ == "DET"), ent.label_

    _split_entities(doc, cut)


def _institution_cut(ent: Any) -> int | None:
    for token in ent:
        if token.text not in {"and", ","} or token.i in {ent.start, ent.end - 1}:
            continue
        if token.text == ",":  # "the University of Oslo, Department of Geosciences": a unit of it
            left = {t.lower_ for t in ent.doc[ent.start : token.i]}
            if "university" in left and ent.doc[token.i + 1].lower_ in _UNIT_WORDS:
                return token.i
            continue
        left = {t.lower_ for t in ent.doc[ent.start : token.i]} & _NAMED_PLACE_WORDS
        right = {t.lower_ for t in ent.doc[token.i + 1 : ent.end]} & _NAMED_PLACE_WORDS
        if left & right:
            return token.i
    return None


def _set_entities(doc: Any, spans: list[Any], label: str) -> None:
    """`spans` as entities of `label`; an entity they overlap keeps what lies outside them."""
    if not spans:
        return
    from spacy.tokens import Span  # spaCy loads with the model, not with this module

    kept = []
    for ent in doc.ents:
        overlapping = [s for s in spans if ent.start < s.end and s.start < ent.end]
        if not overlapping:
            kept.append(ent)
            continue
        start, end = max(s.end for s in overlapping), ent.end
        while start < end and (doc[start].is_punct or doc[start].pos_ == "DET"):
            start += 1  # "School, Riverview College" keeps "Riverview College"
        if start < end:
            kept.append(Span(doc, start, end, label=ent.label_))
    added = [Span(doc, s.start, s.end, label=label) for s in spans]
    doc.ents = sorted([*kept, *added], key=lambda e: e.start)


def _children(token: Any, deps: set[str], rules: _ChunkRules | None = None) -> list[Any]:
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


def _conjuncts_inside_name(token: Any, rules: _ChunkRules | None) -> list[Any]:
    """ "at the University of Bern and University of Lausanne": the parser hangs the second
    name on "Bern", inside the first name, not on its head."""
    ent = rules.entity_of.get(token.i) if rules is not None else None
    if ent is None:
        return []
    kinds = {t.lower_ for t in ent} & _NAMED_PLACE_WORDS
    return [
        conjunct
        for inner in ent
        if inner.i != token.i
        for conjunct in _true_conjuncts(inner, rules)
        if conjunct.i >= ent.end and kinds & _entity_words(rules, conjunct)  # a second "University of ..."
    ]


def _entity_words(rules: _ChunkRules, token: Any) -> set[str]:
    ent = rules.entity_of.get(token.i)
    return {t.lower_ for t in ent} if ent is not None else {token.lower_}


def _true_conjuncts(first: Any, rules: _ChunkRules | None) -> list[Any]:
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


def _is_refinement(rules: _ChunkRules, first: Any, conjunct: Any) -> bool:
    inner, outer = rules.entity_of.get(first.i), rules.entity_of.get(conjunct.i)
    return (
        inner is not None
        and outer is not None
        and outer.label_ in {"GPE", "LOC"}
        and inner.label_ in PLACE_LABELS | {"ORG"}
        and outer.start == inner.end + 1
        and rules.doc[inner.end].text == ","
    )


def _prepositional_objects(token: Any, rules: _ChunkRules | None = None) -> Iterable[tuple[Any, Any]]:
    for prep in token.children:
        if prep.dep_ in PREP_DEPS:
            for pobj in _children(prep, {"pobj"}, rules):
                yield prep, pobj


def _noun_phrase_bounds(token: Any) -> tuple[int, int]:
    """Token range of the head token with its adjacent compound/adjective/number modifiers."""
    start = token.i
    for child in reversed(list(token.lefts)):
        if child.dep_ not in MODIFIER_DEPS or child.right_edge.i != start - 1:
            break
        start = child.left_edge.i
    return _hyphenated_start(token.doc, start), token.i + 1


def _degree_bounds(token: Any) -> tuple[int, int]:
    """ "his master's degree", "a Bachelor of Science", "a Diploma in Journalism": the degree with
    its kind; a field of its own only where the degree names none apart (see core.extract.degrees)."""
    start, end = _noun_phrase_bounds(token)
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


def _degree_bounds_end(token: Any) -> int:
    return degree_name_end(token, _noun_phrase_bounds(token)[1])


def _name_particle(token: Any) -> bool:
    """ "Magliano Capo di Sabina", "Isle of Man", "Frankfurt am Main": a particle inside a name."""
    return token.pos_ == "ADP" and token.lower_ in NAME_PARTICLES


def _has_indefinite_article(token: Any) -> bool:
    return any(c.dep_ == "det" and c.lower_ in {"a", "an"} for c in token.children)


# Names of events: a parenthesis of years after them is no lifespan.
EVENT_WORDS = frozenset(
    {
        "war", "battle", "revolution", "rebellion", "uprising", "siege", "campaign", "expedition",
        "crisis", "championship", "championships", "cup", "olympics", "games", "festival", "election",
        "elections", "treaty", "act", "season", "tour", "exhibition", "conference", "congress",
    }
)  # fmt: skip

# Verbs whose complement clause states no fact ("wanted to be a teacher").
UNREALISED_VERBS = frozenset(
    {
        "want",
        "hope",
        "wish",
        "plan",
        "aspire",
        "try",
        "attempt",
        "intend",
        "dream",
        "seek",
        "refuse",
        "decline",
        "fail",
    }
)
KIN_WORDS = frozenset(
    {
        "son",
        "daughter",
        "child",
        "father",
        "mother",
        "sibling",
        "brother",
        "sister",
        "spouse",
        "wife",
        "husband",
    }
)

# Fields whose name begins with a nationality: the adjective names the field, not the person.
DEMONYM_FIELDS = frozenset(
    {
        "american football", "canadian football", "australian rules", "gaelic football", "gaelic games",
        "french horn", "english horn", "irish dance", "scottish country", "indian classical",
        "chinese classical", "persian classical",
    }
)  # fmt: skip


def _names_a_field(token: Any) -> bool:
    """ "Australian" of "Australian rules footballer", "American" of "American football player"."""
    following = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    return following is not None and f"{token.lower_} {following.lower_}" in DEMONYM_FIELDS


def _is_age_clause(token: Any) -> bool:
    """ "aged 35" after a verb: the parser hangs the verb's own prepositions on it."""
    return token.dep_ == "advcl" and token.lower_ == "aged" and token.head.i != token.i


def _joined_hyphen(token: Any) -> bool:
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


def _hyphen_prefix(token: Any) -> bool:
    """ "vice" of "vice-president", "wagon" of "wagon-making"."""
    return token.i + 1 < len(token.doc) and _joined_hyphen(token.doc[token.i + 1])


def _hyphenated_start(doc: Any, start: int) -> int:
    """The first token of the hyphenated word that ends at `start` ("vice-president", "editor-in-chief")."""
    while start >= 2 and _joined_hyphen(doc[start - 1]):
        start -= 2
    return start


def _known_for(token: Any) -> bool:
    """ "known for his macabre sensibility": what the person is known for, though it is his."""
    prep = token.head
    return token.dep_ == "pobj" and prep.lower_ == "for" and _lemma(prep.head) == "know"


def _lemma(token: Any) -> str:
    return token.lemma_.lower()


def _kind_of_label(label: str | None) -> str | None:
    if label in {"DATE", "TIME"}:
        return "date"
    if label in PLACE_LABELS:
        return "place"
    if label == "PERSON":
        return "person"
    if label in THING_LABELS:
        return "org"
    return None


def _confidence(head: Argument, tail: Argument) -> float:
    entities = int(head.is_entity) + int(tail.is_entity)
    score = (CONFIDENCE_NO_ENTITY, CONFIDENCE_ONE_ENTITY, CONFIDENCE_BOTH_ENTITIES)[entities]
    if head.from_pronoun or tail.from_pronoun:
        score *= PRONOUN_PENALTY
    return round(score, 3)


def split_into_chunks(text: str, size: int = CHUNK_CHARS) -> list[tuple[int, str]]:
    """(offset, chunk) pieces of at most ~`size` characters, cut at a paragraph, else a sentence end.

    A list written as "A, American actor ; B (born 1971), ... ; C ..." (two or more " ; ")
    is cut at each " ; ": the parser would otherwise attach one entry's words to another.
    """
    if text.count(" ; ") >= 2 and len(text) <= size:
        return _list_entries(text)
    if len(text) <= size:
        return [(0, text)]
    chunks: list[tuple[int, str]] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = text.rfind("\n", start + size // 2, end)
            if cut < 0:
                cut = max(text.rfind(". ", start + size // 2, end), text.rfind("? ", start + size // 2, end))
                cut = cut + 1 if cut >= 0 else -1
            if cut < 0:
                cut = text.rfind(" ", start + size // 2, end)
            end = cut + 1 if cut >= 0 else end
        chunks.append((start, text[start:end]))
        start = end
    return chunks


def _list_entries(text: str) -> list[tuple[int, str]]:
    entries, start = [], 0
    for match in re.finditer(r" ; ", text):
        entries.append((start, text[start : match.start()]))
        start = match.end()
    entries.append((start, text[start:]))
    return [(offset, entry) for offset, entry in entries if entry.strip()]


# Abbreviated titles before a name: the small model's tokenizer leaves "Hon." split and the
# parser then ends a sentence there ("the son of the Hon. | Charles Dundas, ...").
TITLE_ABBREVIATIONS = (
    "Hon.", "Rev.", "Rt.", "Gen.", "Col.", "Capt.", "Lt.", "Sgt.", "Maj.", "Cpl.", "Adm.", "Cmdr.",
    "Prof.", "Gov.", "Sen.", "Rep.", "Fr.", "Msgr.", "Bros.", "Jr.", "Sr.",
)  # fmt: skip


def _with_title_abbreviations(nlp: Any) -> Any:
    """The pipeline with each title abbreviation as one token (idempotent)."""
    for abbreviation in TITLE_ABBREVIATIONS:
        if abbreviation not in nlp.tokenizer.rules:
            nlp.tokenizer.add_special_case(abbreviation, [{"ORTH": abbreviation}])
    return nlp


class SpacyRuleExtractor(Extractor):
    name = "spacy"

    def __init__(self, model: str = DEFAULT_SPACY_MODEL) -> None:
        self.model = model

    @property
    def nlp(self) -> Any:
        from core.models import get_spacy

        return _with_title_abbreviations(get_spacy(self.model))

    def extract(self, doc_id: str, text: str, title: str = "") -> list[Triple]:
        return self.extract_many([(doc_id, text)], titles={doc_id: title} if title else None)

    def extract_many(
        self,
        items: Sequence[tuple[str, str]],
        progress: Progress | None = None,
        titles: Mapping[str, str] | None = None,
    ) -> list[Triple]:
        """Triples in input order; `progress(done, total)` counts chunks (one per ordinary document)."""
        titles = titles or {}
        pieces = [
            (doc_id, offset, chunk) for doc_id, text in items for offset, chunk in split_into_chunks(text)
        ]
        contexts: dict[str, DocumentContext] = {}
        for doc_id, text in items:
            title = titles.get(doc_id, "")
            context = DocumentContext(title=title, title_person=title_person(title, text))
            if context.title_person:
                context.labels[context.title_person] = "PERSON"
                context.surnames.add(context.title_person.split()[-1])
            contexts[doc_id] = context
        triples: list[Triple] = []
        parsed = self.nlp.pipe((chunk for _, _, chunk in pieces), batch_size=BATCH_SIZE)
        for done, ((doc_id, offset, _), doc) in enumerate(zip(pieces, parsed, strict=True), start=1):
            triples.extend(_ChunkRules(doc_id, doc, offset, contexts[doc_id]).triples())
            if progress is not None:
                progress(done, len(pieces))
        return with_personal_data(items, titles, triples, self.model)  # issue 19: core/extract/personal

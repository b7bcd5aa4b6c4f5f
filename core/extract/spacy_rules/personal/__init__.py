"""Personal records in the knowledge graph (issue 19): every personal-data value the PII detector
(`core.aback.pii`, the Presidio analyzer ABack uses) or a rule here recognises becomes a node linked
to its owner by a typed relation, with its category on the triple (`Triple.category`).

One file per family: `values.py` (detector values -> relations), `owners.py` (whose value it is),
`forms.py` (key-value lines, headers, address blocks), `sensitive.py` (health, money, family,
criminal, beliefs, sexuality, ethnicity), `record_kind.py` (personal record or encyclopedic
passage), `categories.py` (relation -> category). `with_personal_data` is the one entry point,
called by the spaCy extractor after its sentence rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from core.aback.pii import address_detections, get_detector
from core.extract.spacy_rules.context import title_person
from core.extract.spacy_rules.personal.categories import category_of, listed_category
from core.extract.spacy_rules.personal.forms import (
    KEY_RELATIONS,
    Field,
    crosses_fields,
    form_fields,
    key_spans,
)
from core.extract.spacy_rules.personal.letterheads import (
    ORGANISATION_WORD,
    is_letterhead,
    letterhead_lines,
    whole_addresses,
)
from core.extract.spacy_rules.personal.owners import (
    SUBJECT_KEYS,
    Owners,
    Person,
    clause_bounds,
    find_subject,
    record_node,
    speaker_turns,
)
from core.extract.spacy_rules.personal.proper_nouns import proper_noun_runs, unrecognised_names
from core.extract.spacy_rules.personal.record_kind import (
    has_article_title,
    in_record_detections,
    speaks_personally,
)
from core.extract.spacy_rules.personal.sensitive import sensitive_attributes
from core.extract.spacy_rules.personal.values import (
    IDENTIFIER_TYPES,
    NOT_ORGANISATIONS,
    RECORD_TYPES,
    age_values,
    labelled_phone_values,
    relation_for,
    zip_values,
)
from core.types import Triple, normalize_entity

BACKEND = "spacy"
_WEB_ADDRESS = re.compile(r"://|\bwww\.|\.(?:com|org|net|edu|gov|io|info|biz|co)\b|\.[a-z]{2}/", re.I)
_YEAR_RANGE = re.compile(r"^\s*(?:1[5-9]|20)\d\d\s*[-–/]\s*(?:\d\d|(?:1[5-9]|20)\d\d)\s*$")
_ISBN = re.compile(r"\bISBN", re.IGNORECASE)
_BARE_AGE = re.compile(r"(?:\w,\s*|\bage\s*:?\s*)$", re.IGNORECASE)
_PLACE_TYPES = frozenset({"LOCATION", "GPE", "ADDRESS"})
_NAMED_TYPES = frozenset({"PERSON", "LOCATION", "ORGANIZATION"})
FIELD_CONFIDENCE = 0.9
VALUE_CONFIDENCE = 0.8
MENTION_CONFIDENCE = 0.6
# Cheap signs that an encyclopedic passage may hold an identifier worth the PII detector's time.
_MAY_HOLD_IDENTIFIER = re.compile(r"@|\d[\d ().-]{8,}\d|\b[A-Z]{2}\d{2}[A-Z0-9 ]{10,}")


def with_personal_data(
    items: Sequence[tuple[str, str]],
    titles: Mapping[str, str],
    rule_triples: Sequence[Triple],
    spacy_model: str,
) -> list[Triple]:
    """The sentence rules' triples with each document's personal-data triples added after its own
    (input order kept), and rule triples read across form fields dropped."""
    return PersonalData(items, titles, spacy_model).triples(rule_triples)


class PersonalData:
    """The personal-data rules over the documents of one extraction. The caller may hand over its own
    parse of a document (`read_parse`, before its rules change the parse's entities) so that the PII
    detector does not parse the text again."""

    def __init__(self, items: Sequence[tuple[str, str]], titles: Mapping[str, str], spacy_model: str) -> None:
        self.plans = [_Plan(doc_id, text, titles.get(doc_id, "")) for doc_id, text in items]
        self.spacy_model = spacy_model
        self._by_id = {plan.doc_id: plan for plan in self.plans}

    def read_parse(self, doc_id: str, doc: Any, same_tokens: bool = True) -> None:
        """Read `doc`, a parse of the whole text of `doc_id` by a pipeline of `spacy_model`: its
        proper nouns (untitled text) and, when it tokenizes as the detector does (`same_tokens`), the
        detector's first pass."""
        plan = self._by_id.get(doc_id)
        if plan is None or not plan.needs_detection or doc.text != plan.text:
            return
        if same_tokens:
            plan.first_pass = get_detector(self.spacy_model).first_pass(plan.text, doc)
        if plan.untitled:
            plan.proper_nouns = proper_noun_runs(doc)

    def triples(self, rule_triples: Sequence[Triple]) -> list[Triple]:
        wanted = [plan for plan in self.plans if plan.needs_detection]
        if wanted:
            found = get_detector(self.spacy_model).detect_many(
                [plan.text for plan in wanted], [plan.first_pass for plan in wanted]
            )
            for plan, detections in zip(wanted, found, strict=True):
                plan.detections = detections
        by_doc: dict[str, list[Triple]] = {}
        for triple in rule_triples:
            by_doc.setdefault(triple.doc_id, []).append(triple)
        result: list[Triple] = []
        for plan in self.plans:
            result.extend(plan.triples(by_doc.pop(plan.doc_id, [])))
        for leftover in by_doc.values():  # a triple whose doc id was not among the items: kept as it was
            result.extend(leftover)
        return result


@dataclass
class _Plan:
    doc_id: str
    text: str
    title: str
    detections: list = field(default_factory=list)
    first_pass: list | None = None  # the detector's pass over the extractor's parse, when it was handed over
    proper_nouns: list = field(default_factory=list)  # (start, end) of the parse's proper-noun runs, untitled

    def __post_init__(self) -> None:
        self.turns = speaker_turns(self.text)
        self.speaks = bool(self.turns) or speaks_personally(self.text)
        self.untitled = not has_article_title(self.title)

    @cached_property
    def needs_detection(self) -> bool:
        return bool(
            self.text.strip()
            and (
                self.speaks
                or self.untitled
                or _MAY_HOLD_IDENTIFIER.search(self.text)
                or address_detections(self.text)
                or sensitive_attributes(self.text, in_record=False)
            )
        )

    @cached_property
    def in_record(self) -> bool:
        """Read once the detections are in (`PersonalData.triples` sets them before any plan's triples)."""
        names = [(d.start, d.end) for d in self.detections if d.type == "PERSON"]
        return (
            self.speaks
            or in_record_detections(self.text, self.detections)
            or (self.untitled and is_letterhead(self.text, names))
        )

    def triples(self, rule_triples: list[Triple]) -> list[Triple]:
        kept = list(rule_triples)
        keys = key_spans(self.text)
        if self.in_record:  # a sentence rule that read across a record's fields or lines
            kept = [t for t in kept if not crosses_fields(t, self.text, keys)]
            kept = [t for t in kept if "\n" not in t.head and "\n" not in t.tail]
        builder = _Builder(self.doc_id, self.text, {t.key for t in kept}, _nodes(kept))
        in_record = self.in_record
        attributes = sensitive_attributes(self.text, in_record)
        detections = whole_addresses(self.text, self.detections) if in_record else self.detections
        unrecognised = []
        if self.proper_nouns:  # read for untitled texts only
            taken = [(d.start, d.end) for d in detections] + [(s, e) for s, e, _ in keys]
            unrecognised = unrecognised_names(self.text, self.proper_nouns, taken)
        subjects = [Person(r.start, r.end, self.text[r.start : r.end]) for r in unrecognised if r.subject]
        personal_triples(
            builder,
            self.text,
            self.title,
            detections,
            in_record,
            attributes,
            self.untitled and not in_record,
            self.turns,
            subjects + _organisations_as_subjects(detections, self.proper_nouns),
        )
        for run in unrecognised:
            builder.mention(record_node(self.doc_id, self.title), self.text[run.start : run.end], run.start)
        builder.add_mentions(kept)
        if not kept and all(t.relation == "mentions" for t in builder.triples):  # names alone are not read
            for record, relation, value, span in builder.fallbacks:
                builder.add(record, relation, value, span, MENTION_CONFIDENCE)
        return [self._categorised(t, builder.refound) for t in kept] + builder.triples

    def _categorised(self, triple: Triple, refound: Mapping[tuple, str]) -> Triple:
        """A sentence rule's triple with the category of personal data it holds: in a record each
        listed relation's (`residence`, `medical_condition`, `spouse`, ...), elsewhere only where a
        personal rule found the same fact (one fact, one triple)."""
        category = refound.get(triple.key) or (listed_category(triple.relation) if self.in_record else "")
        return replace(triple, category=category) if category and not triple.category else triple


@dataclass
class _Builder:
    doc_id: str
    text: str
    seen: set
    rule_nodes: set[str]
    triples: list[Triple] = field(default_factory=list)
    refound: dict[tuple, str] = field(default_factory=dict)  # rule triples' keys a personal rule found again
    pending_mentions: list[tuple[str, str, int]] = field(default_factory=list)
    # (record, relation, value, span) added only when the text gives no triple but names' mentions
    fallbacks: list[tuple[str, str, str, tuple[int, int]]] = field(default_factory=list)

    def add(self, head: str, relation: str, value: str, span: tuple[int, int], confidence: float) -> None:
        head, value = head.strip(" \t\n>"), value.strip(" \t\n,;>")
        if not head or not value or normalize_entity(head) == normalize_entity(value):
            return
        triple = Triple(head, relation, value, self.doc_id, span, confidence, BACKEND, category_of(relation))
        if triple.key not in self.seen:
            self.seen.add(triple.key)
            self.triples.append(triple)
        elif all(t.key != triple.key for t in self.triples):
            self.refound.setdefault(triple.key, triple.category)

    def holds(self, value: str) -> bool:
        """A sentence-rule triple already has `value` as a node."""
        return normalize_entity(value) in self.rule_nodes

    def mention(self, record: str, name: str, start: int) -> None:
        self.pending_mentions.append((record, name, start))

    def add_mentions(self, rule_triples: list[Triple]) -> None:
        """A name no triple holds yet becomes (record, mentions, name): a node, owned by nobody."""
        for record, name, start in self.pending_mentions:
            nodes = [n for t in (*rule_triples, *self.triples) for n in (t.head, t.tail)]
            if not any(normalize_entity(name) in normalize_entity(node) for node in nodes):
                self.add(record, "mentions", name, clause_bounds(self.text, start), MENTION_CONFIDENCE)


def personal_triples(
    builder: _Builder,
    text: str,
    title: str,
    detections: Sequence,
    in_record: bool,
    attributes: Sequence,
    halfway: bool = False,
    turns: Sequence[tuple[int, int, Person]] = (),
    named_subjects: Sequence[Person] = (),
) -> None:
    """Fill `builder` with the personal-data triples of one document. `halfway` (an untitled text
    with no evidence of a record): names become nodes, values only with a named owner. `turns`: a
    chat transcript's turns (`speaker_turns`), whose speakers are the "I" of their turns.
    `named_subjects`: names no detection found that are the subject of their clause (the parse's
    proper nouns): owners of that clause's values like the persons the detector found."""
    fields = [f for f in form_fields(text) if not any(s <= f.key_start < e for s, e, _ in turns)]
    persons = [
        Person(d.start, d.end, d.text)
        for d in detections
        if d.type == "PERSON" and not _names_a_place(text, d, detections)
    ]
    if in_record:
        persons = _with_stated_name(text, _with_first_line_name(text, persons, detections))
    if named_subjects:
        persons = sorted([*persons, *named_subjects], key=lambda p: p.start)
    name_field = next((f for f in fields if f.key.casefold() in SUBJECT_KEYS), None)
    record = record_node(builder.doc_id, title)
    subject = find_subject(text, title_person(title, text), persons, name_field.value if name_field else None)
    owners = Owners(text, record, persons, subject, list(turns))
    for _, _, speaker in turns:
        if speaker.name != subject:
            builder.mention(record, speaker.name, speaker.start)
    if subject and in_record:
        builder.add(record, "subject", subject, _span_of(text, subject), FIELD_CONFIDENCE)
    covered = _add_fields(builder, owners, fields if in_record else [], name_field, detections)
    for line in letterhead_lines(text, detections, [(p.start, p.end) for p in persons]) if in_record else ():
        if line.kind in ("occupation", "employer") and subject:
            builder.add(subject, line.kind, line.text, clause_bounds(text, line.start), VALUE_CONFIDENCE)
        else:
            builder.mention(record, line.text, line.start)
    covered += [(start, end) for start, end, _ in key_spans(text)]
    stated = []
    for relation, spans in (("age", age_values(text)), ("address", zip_values(text))) if in_record else ():
        for start, end in spans:
            span = clause_bounds(text, start)
            builder.add(owners.owner_at(start), relation, text[start:end], span, VALUE_CONFIDENCE)
            stated.append((start, end))
    found = [(d.start, d.end) for d in detections]  # a date or a phone the detector typed is its own
    for start, end in labelled_phone_values(text) if in_record else ():
        if not _inside(start, end, found + covered) and not _YEAR_RANGE.match(text[start:end]):
            relation = relation_for("PHONE_NUMBER", "", True, text[end : end + 12]) or "phone"
            span = clause_bounds(text, start)
            builder.add(owners.owner_at(start), relation, text[start:end], span, VALUE_CONFIDENCE)
            stated.append((start, end))
    _add_detections(builder, owners, detections, covered + stated, in_record, halfway)
    for attribute in attributes:
        if _inside(attribute.start, attribute.end, covered):
            continue
        owner = owners.owner_at(attribute.start)
        if owner == record and (not in_record or builder.holds(attribute.value)):
            continue  # nobody named, or a sentence rule already tied the value to the one it names
        span = clause_bounds(text, attribute.start)
        builder.add(owner, attribute.relation, attribute.value, span, VALUE_CONFIDENCE)


def _add_fields(
    builder: _Builder, owners: Owners, fields: list[Field], name_field: Field | None, detections: Sequence
) -> list[tuple[int, int]]:
    """Each field as (subject, key relation, value). A value that holds identifiers but is more than
    one ("Contact: jean@x.fr, tel. 01 42 68 53 00"), or under a key that names none ("Customer:
    priya@x.com"), is left to the detections, which type each identifier."""
    covered = []
    for item in fields:
        inside = [
            d
            for d in detections
            if item.start <= d.start and d.end <= item.end and d.type in IDENTIFIER_TYPES
        ]
        whole = len(inside) == 1 and inside[0].text.strip() == item.value
        if inside and not (whole and item.relation in KEY_RELATIONS.values()):
            continue
        covered.append((item.start, item.end))
        if item is name_field:
            continue
        builder.add(owners.default, item.relation, item.value, (item.key_start, item.end), FIELD_CONFIDENCE)
    return covered


def _add_detections(
    builder: _Builder,
    owners: Owners,
    detections: Sequence,
    covered: list[tuple[int, int]],
    in_record: bool,
    halfway: bool = False,
) -> None:
    text = builder.text
    for index, item in enumerate(detections):
        if _inside(item.start, item.end, covered):
            continue
        span = clause_bounds(text, item.start)
        before = text[span[0] : item.start]
        if item.type == "TITLE":
            following = detections[index + 1] if index + 1 < len(detections) else None
            if following is not None and following.type == "PERSON" and following.start - item.end <= 2:
                builder.add(following.text, "title", item.text, span, VALUE_CONFIDENCE)
            continue
        if item.type == "ORGANIZATION" and item.text.casefold() in NOT_ORGANISATIONS:
            continue
        if item.type in {"URL", "DOMAIN_NAME"} and not _WEB_ADDRESS.search(item.text):
            continue  # "cand.philol" read as a domain
        if item.type == "PHONE_NUMBER" and (_YEAR_RANGE.match(item.text) or _ISBN.search(before[-12:])):
            continue  # "1990-1997", "ISBN 0-393-09530-4"
        relation = _relation(text, item, span[0], in_record or halfway)
        if item.type == "DATE_TIME" and item.text.strip().isdigit() and len(item.text.strip()) <= 3:
            relation = "age" if in_record and _BARE_AGE.search(before) else None  # "John Miller, 54, was"
        if item.type == "PERSON" and relation is None:
            if (in_record or halfway) and item.text != owners.subject:
                builder.mention(owners.record, item.text, item.start)
            continue
        if relation is None or (relation == RECORD_TYPES.get(item.type) and builder.holds(item.text)):
            continue  # a name, place or date the sentence rules attached, with no cue here, stays theirs
        owner = owners.owner_at(item.start, item.end)
        if owner == owners.record and builder.holds(item.text):
            continue  # a sentence rule tied the value to the person it names ("Noor Reyl attends X")
        if halfway and item.type not in IDENTIFIER_TYPES:
            # No evidence of a record: a value with a cue word ("moved here from") is a full name's,
            # else the record's; a bare place, organisation or date is the record's only when nothing
            # but names is read from the text (each text holding a recognised value yields a triple).
            if relation == RECORD_TYPES.get(item.type):
                if not _common_word(text, item):
                    builder.fallbacks.append((owners.record, relation, item.text, span))
                continue
            if len(owner.split()) < 2:
                owner = owners.record
        builder.add(owner, relation, item.text, span, VALUE_CONFIDENCE)


def _organisations_as_subjects(detections: Sequence, runs: Sequence[Any]) -> list[Person]:
    """Organisations the detector found that are the subject of their clause ("Acme Ltd moved to
    Leeds"): they own that clause's values as a person would."""
    return [
        Person(d.start, d.end, d.text)
        for d in detections
        if d.type == "ORGANIZATION"
        and d.text.casefold() not in NOT_ORGANISATIONS
        and any(r.subject and r.start < d.end and d.start < r.end for r in runs)
    ]


def _common_word(text: str, item: Any) -> bool:
    """A name, place or organisation the entity recogniser guessed in lower case inside a text that
    has capitals ("borders it to the east"): a common word, no personal data."""
    return (
        item.type in _NAMED_TYPES
        and not any(char.isupper() for char in item.text)
        and any(char.isupper() for char in text)
    )


def _relation(text: str, item: Any, clause_start: int, in_record: bool) -> str | None:
    """The relation from the cue words of the value's clause, else of the clause before it ("Your
    date of birth? It's 10/3/1948"), else the value's type."""
    after = text[item.end : item.end + 12]
    relation = relation_for(item.type, text[clause_start : item.start], in_record, after)
    if relation not in (None, IDENTIFIER_TYPES.get(item.type), RECORD_TYPES.get(item.type)):
        return relation
    previous = text[_previous_clause_start(text, clause_start) : clause_start].rstrip(" \t\n.?!")
    return (
        relation_for(item.type, f"{previous} {text[clause_start : item.start]}", in_record, after) or relation
    )


def _previous_clause_start(text: str, clause_start: int) -> int:
    """Start of the clause before, so that a cue there names the value ("Your date of birth? It's ...")."""
    return clause_bounds(text, clause_start - 2)[0] if clause_start >= 2 else clause_start


_NAME_LINE = re.compile(
    r"^[>\s]*(?:(?:dr|mr|mrs|ms|mx|prof)\.?\s+)?"
    r"(?P<name>[^\W\d_][\w'’-]+(?:[ \t]+[^\W\d_][\w'’-]+){1,2})[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


def _with_first_line_name(text: str, persons: list[Person], detections: Sequence) -> list[Person]:
    """A record whose first line is two or three words and nothing else ("Shannon Blomqvist" above a
    job title and an address block) opens with its subject's name, when the detector found nothing
    on that line; capitalised like a name, or in a text written all in lower case."""
    match = _NAME_LINE.match(text)
    if match is None:
        return persons
    name = match.group("name")
    on_line = [d for d in detections if d.start < match.end() and match.start("name") < d.end]
    if on_line and not (len(on_line) == 1 and _guessed_organisation(on_line[0], name)):
        return persons
    uncased = not any(char.isupper() for char in text)
    if not uncased and not all(word[0].isupper() for word in name.split()):
        return persons
    return [Person(match.start("name"), match.end("name"), name), *persons]


# "My name is Emily Janeba", "What's your name? Emily Janeba": the name stated, capitalised, to the
# end of its clause (the detector often misses a rare name).
_STATED_NAME = re.compile(
    r"\b(?:my name is|my name's|name is|your name\?)[ \t]+(?P<name>[A-Z][\w'’-]+(?:[ \t]+[A-Z][\w'’-]+){0,2})"
    r"[ \t]*(?:[.!,;?]|$)",
    re.IGNORECASE | re.MULTILINE,
)


def _with_stated_name(text: str, persons: list[Person]) -> list[Person]:
    """A name stated after "my name is" or as the answer to "your name?" that the detector missed."""
    added = []
    for match in _STATED_NAME.finditer(text):
        start, end, name = match.start("name"), match.end("name"), match.group("name")
        if not name[0].isupper() or any(p.start < end and start < p.end for p in persons):
            continue
        added.append(Person(start, end, name))
    return sorted([*persons, *added], key=lambda p: p.start) if added else persons


def _guessed_organisation(item: Any, name: str) -> bool:
    """The detector's guess that a name line is an organisation, with no organisation word in it
    ("Shannon Blomqvist" read as ORGANIZATION)."""
    return item.type == "ORGANIZATION" and item.text.strip() == name and not ORGANISATION_WORD.search(name)


def _names_a_place(text: str, item: Any, detections: Sequence) -> bool:
    """A "person" right after a place and a comma is the place's country or region ("born in Bamako,
    Mali"): no owner of anything."""
    return any(
        d.type in _PLACE_TYPES
        and d.end <= item.start
        and not text[d.end : item.start].strip(" ,")
        and "," in text[d.end : item.start]
        for d in detections
    )


def _nodes(triples: Sequence[Triple]) -> set[str]:
    return {normalize_entity(node) for t in triples for node in (t.head, t.tail)}


def _inside(start: int, end: int, ranges: list[tuple[int, int]]) -> bool:
    """Within one of `ranges`, or overlapping one (a detection that runs into a field's key)."""
    return any(s < end and start < e for s, e in ranges)


def _span_of(text: str, value: str) -> tuple[int, int]:
    at = text.find(value)
    return (at, at + len(value)) if at >= 0 else (0, 0)
